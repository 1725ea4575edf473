//! `asamblea-kiosk`: what a kiosk does — read a badge, sign a ballot, send
//! it over HTTPS and read the receipt — and the kiosk program itself
//! (`asamblea-kiosk enroll` and `run`: [`command_line`], [`app`]). The
//! signing and the TLS connection are also used by `asamblea ballot`,
//! `asamblea bench` and the tests.
//!
//! # A ballot, step by step
//!
//! 1. The attendee's badge is scanned: [`parse_badge`] turns its QR text
//!    into a [`Credential`] for the meeting (ledger-format §9). The text
//!    holds the badge's secret seed; the credential is dropped (and its key
//!    wiped) once the ballot is signed.
//! 2. The kiosk asks the daemon which holders the badge carries and what
//!    is open (`GET /api/v1/kiosk/badges/{credential}`), and the attendee
//!    chooses.
//! 3. [`SignedBallot::sign`] builds the `ballot` event (§3.9): the item,
//!    the badge's number, one vote per holder sorted by holder id, and a
//!    fresh random 16-byte nonce; it signs the event's canonical bytes with
//!    the badge's key (§4: domain `asamblea/ballot/v2`, the meeting id).
//! 4. [`SignedBallot::body`] is what `POST /api/v1/ballots` takes:
//!    `{"event", "signer", "signature"}`, all hexadecimal.
//! 5. The answer holds the daemon's receipt (§6) and its signature:
//!    [`read_receipt`] parses it and, given the daemon's key, checks it.
//!    The receipt names the ballot by [`SignedBallot::digest`].
//!
//! Sending the same signed ballot again (a lost answer, a restarted
//! daemon) is always safe: the daemon answers with the same receipt and
//! counts it once. A *new* signature for the same holder and item is a
//! second vote, and the rules refuse it (`already-voted`).
//!
//! # The connection
//!
//! [`HttpsClient`] is one TLS connection (rustls, trusting the venue CA
//! and presenting the kiosk's client certificate, see
//! [`asamblea_pki::client_config`]) speaking HTTP/1.1 with keep-alive through
//! `hyper::client::conn::http1`: one request at a time, in order, on the
//! same connection. The kiosk program holds one for as long as it runs:
//! a connection the daemon closed (idle, or restarted) is opened again at
//! the next request, and one that failed is dropped and replaced. A kiosk
//! that holds its connection needs no new one, so a flood of connections
//! on the venue network cannot keep it from the daemon.
//!
//! # What this crate does not know
//!
//! The ledger, the meeting directory and SQLite: a kiosk holds no ledger,
//! only what it signs and the receipts it is given. A test of the
//! `asamblea` package reads `cargo metadata` and fails if this crate
//! depends on `asamblea-ledger`, `asamblea-venue`, `asamblea-server`,
//! `asamblea-documents` or rusqlite. axum serves only its own touch page,
//! on loopback.
//!
//! # Layout
//!
//! - this file: reading a badge ([`parse_badge`]), the signed ballot
//!   ([`SignedBallot`]), the receipt ([`read_receipt`]), the TLS
//!   configurations ([`kiosk_tls`], [`staff_tls`]), the keep-alive client
//!   ([`HttpsClient`], [`tls_connect`]) and the desk's half of a badge
//!   ([`BadgeSeed`]);
//! - [`folder`]: the kiosk's folder and its enrolment;
//! - [`app`]: the attendee's flow (scan, choose, sign, send) and the kiosk's
//!   daemon; `app::page`: the touch page on loopback, its headers and actions;
//! - [`scan`]: the serial scanner, camera frames, the receipt's QR;
//! - [`command_line`] and [`help`]: the program's command line.

pub mod app;
pub mod command_line;
pub mod folder;
pub mod help;
pub mod scan;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::{Context, Result};
use asamblea_rules::OptionIndex;
use asamblea_wire::{
    Ballot, Choice, Credential, Digest, Event, EventBody, HolderVote, Id, MeetingId, Nonce, PublicKey,
    Receipt, Signature, WireError,
};
use http_body_util::BodyExt;
use hyper::client::conn::http1;
use hyper::StatusCode;
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use rustls::ClientConfig;
use serde_json::Value;
use tokio::net::TcpStream;

/// The largest answer read: a status or a ballot sheet is a few kB; an
/// audit bundle of a large meeting a few MB.
pub const MAX_ANSWER_BYTES: usize = 64 * 1024 * 1024;

/// The credential of a scanned badge for `meeting` (ledger-format §9):
/// whitespace around it and letter case are forgiven; a misread, a badge
/// of another meeting or another format is refused with its reason.
pub fn parse_badge(qr_text: &str, meeting: &MeetingId) -> Result<Credential, WireError> {
    Credential::parse_qr_text(qr_text, meeting)
}

/// The registration desk's half of issuing a badge (ledger-format §9).
///
/// The seed is drawn here, on the desk's own machine; only its public key
/// goes to the daemon (`POST /api/v1/badges` with [`BadgeSeed::request`]),
/// which records it and answers the badge's number; the QR is then built
/// here from the seed and that number ([`BadgeSeed::credential`]). So the
/// daemon never holds a seed it could vote with. The seed lives in a
/// credential's key pair, which wipes it when dropped.
pub struct BadgeSeed {
    /// The seed, numbered 0 until the daemon gives the badge its number.
    unnumbered: Credential,
}

impl BadgeSeed {
    /// A fresh seed for a badge of `meeting`, from the operating system's
    /// randomness.
    pub fn draw(meeting: &MeetingId) -> Result<BadgeSeed> {
        let mut seed = [0u8; 32];
        getrandom::fill(&mut seed).map_err(|e| anyhow::anyhow!("el sistema no da azar para la semilla de una credencial / no randomness for a badge seed: {e}"))?;
        let unnumbered = Credential::generate_from(meeting, asamblea_wire::CredentialId(0), &seed);
        seed.fill(0);
        Ok(BadgeSeed { unnumbered })
    }

    /// The public key the daemon records (`badge-issued`).
    pub fn public_key(&self) -> PublicKey {
        self.unnumbered.public_key()
    }

    /// The body of `POST /api/v1/badges` for `person`.
    pub fn request(&self, person: &str) -> Value {
        let request = asamblea_api::desk::BadgeRequest {
            person: person.to_string(),
            key: self.public_key().to_string(),
        };
        serde_json::to_value(request).expect("a request serializes")
    }

    /// The credential to print, from the daemon's answer to
    /// [`BadgeSeed::request`] (which must name this seed's key and give a
    /// badge number).
    pub fn credential(&self, answer: &Value) -> Result<Credential> {
        let issued: asamblea_api::desk::BadgeIssued = serde_json::from_value(answer.clone())
            .with_context(|| format!("la respuesta del daemon no es una credencial / the daemon's badge answer is not a badge: {answer}"))?;
        if issued.key != self.public_key().to_string() {
            anyhow::bail!("la respuesta del daemon nombra otra clave / the daemon's badge answer names another key: {answer}");
        }
        Ok(self.numbered(asamblea_wire::CredentialId(issued.credential)))
    }

    /// The credential to print once the badge is recorded as `number`.
    pub fn numbered(&self, number: asamblea_wire::CredentialId) -> Credential {
        self.unnumbered.renumbered(number)
    }
}

/// One whole vote for `option` for each holder (any order: signing sorts
/// them). On a decision option 0 is for, 1 against, 2 blank.
pub fn whole_votes<S: AsRef<str>>(holders: &[S], option: OptionIndex) -> Result<Vec<HolderVote>, WireError> {
    holders
        .iter()
        .map(|holder| Ok(HolderVote { holder: Id::new(holder.as_ref())?, choice: Choice::Whole(option) }))
        .collect()
}

/// A ballot signed with a badge's key: what a kiosk sends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignedBallot {
    /// The `ballot` event's canonical bytes (what is signed).
    pub event: Vec<u8>,
    /// The badge's public key.
    pub signer: PublicKey,
    /// The signature over the event's signing input for the meeting.
    pub signature: Signature,
}

impl SignedBallot {
    /// Builds and signs the ballot of `credential` on `item` with `votes`
    /// (sorted here by holder, as the format wants; 1 to 1000 of them, no
    /// holder twice) and a fresh random nonce, for the credential's
    /// meeting. Whether the badge may vote for those holders is for the
    /// daemon to say; only what cannot be encoded is refused here.
    pub fn sign(credential: &Credential, item: &str, mut votes: Vec<HolderVote>) -> Result<SignedBallot> {
        votes.sort_by(|a, b| a.holder.cmp(&b.holder));
        let event = Event {
            nonce: Nonce(random()),
            body: EventBody::Ballot(Ballot {
                item: Id::new(item).with_context(|| format!("punto / item `{item}`"))?,
                credential: credential.id(),
                votes,
            }),
        };
        let bytes =
            event.encode().context("la papeleta no se puede codificar / the ballot cannot be encoded")?;
        let signature = credential.keypair().sign(credential.meeting(), &bytes)?;
        Ok(SignedBallot { event: bytes, signer: credential.public_key(), signature })
    }

    /// SHA-256 of the event's bytes: the name of the ballot on its receipt
    /// and on the public board (`GET /api/v1/receipts/{digest}`).
    pub fn digest(&self) -> Digest {
        Digest::sha256(&self.event)
    }

    /// The request body of `POST /api/v1/ballots`.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self.request()).expect("a ballot serializes")
    }

    /// The request of `POST /api/v1/ballots`, as the API types it.
    pub fn request(&self) -> asamblea_api::kiosk::BallotRequest {
        asamblea_api::kiosk::BallotRequest {
            event: hex(&self.event),
            signer: self.signer.to_string(),
            signature: hex(&self.signature.0),
        }
    }

    /// [`SignedBallot::to_json`] as text, ready to send.
    pub fn body(&self) -> String {
        self.to_json().to_string()
    }
}

/// The receipt in a ballot's answer (`{"receipt": {seq, head, event},
/// "signature"}`), checked against the daemon's key when one is given.
pub fn read_receipt(
    answer: &Value,
    meeting: &MeetingId,
    daemon_key: Option<&PublicKey>,
) -> Result<(Receipt, Signature)> {
    let signed: asamblea_api::public::SignedReceipt = serde_json::from_value(answer.clone())
        .with_context(|| format!("la respuesta no es un recibo / the answer is not a receipt: {answer}"))?;
    let head = Digest::from_hex(&signed.receipt.head)?;
    let event = Digest::from_hex(&signed.receipt.event)?;
    let signature = Signature::from_slice(&unhex(&signed.signature)?)?;
    let receipt = Receipt { seq: signed.receipt.seq, head, event };
    if let Some(key) = daemon_key {
        receipt.verify(meeting, key, &signature).context(
            "la firma del recibo no es la del daemon / the receipt's signature is not the daemon's",
        )?;
    }
    Ok((receipt, signature))
}

/// The TLS configuration of kiosk `kiosk_id` of the meeting directory
/// `dir`: the venue CA, and the kiosk's certificate and key from
/// `DIR/tls/kiosks/`.
pub fn kiosk_tls(dir: &Path, kiosk_id: &str) -> Result<Arc<ClientConfig>> {
    let kiosk = asamblea_pki::read_kiosk_credentials(dir, kiosk_id)?;
    Ok(Arc::new(asamblea_pki::client_config(&kiosk.ca_pem, Some((&kiosk.cert_pem, &kiosk.key_pem)))?))
}

/// The TLS configuration of a staff console or the public: the venue CA,
/// no client certificate.
pub fn staff_tls(dir: &Path) -> Result<Arc<ClientConfig>> {
    Ok(Arc::new(asamblea_pki::client_config(&asamblea_pki::ca_cert_pem(dir)?, None)?))
}

/// One keep-alive HTTPS connection to the daemon (HTTP/1.1, one request at
/// a time). Dropping it closes the connection.
pub struct HttpsClient {
    sender: http1::SendRequest<String>,
    authority: String,
    connection: tokio::task::JoinHandle<()>,
    /// Where and how to connect again: the daemon closes a connection
    /// left idle (30 s), and a client that waited longer than that (a
    /// person, a slow step on a busy machine) must not fail for it.
    addr: SocketAddr,
    server_name: ServerName<'static>,
    tls: Arc<ClientConfig>,
}

impl HttpsClient {
    /// Connects to the daemon at `addr` (its certificate must name the
    /// address: `127.0.0.1` and `::1` always are) and completes the TLS
    /// handshake.
    pub async fn connect(addr: SocketAddr, tls: Arc<ClientConfig>) -> Result<HttpsClient> {
        let server_name = ServerName::try_from(addr.ip().to_string()).context(
            "la dirección del daemon no sirve como nombre TLS / the daemon's address is not a TLS name",
        )?;
        HttpsClient::connect_named(addr, server_name, tls).await
    }

    /// [`HttpsClient::connect`] to a daemon known by a host name.
    pub async fn connect_named(
        addr: SocketAddr,
        server_name: ServerName<'static>,
        tls: Arc<ClientConfig>,
    ) -> Result<HttpsClient> {
        let authority = match &server_name {
            ServerName::DnsName(name) => format!("{}:{}", name.as_ref(), addr.port()),
            _ => addr.to_string(),
        };
        let (sender, connection) = HttpsClient::open(addr, server_name.clone(), tls.clone()).await?;
        Ok(HttpsClient { sender, authority, connection, addr, server_name, tls })
    }

    /// A new connection and its HTTP/1.1 handshake.
    async fn open(
        addr: SocketAddr,
        server_name: ServerName<'static>,
        tls: Arc<ClientConfig>,
    ) -> Result<(http1::SendRequest<String>, tokio::task::JoinHandle<()>)> {
        let stream = tls_connect(addr, server_name, tls).await?;
        let (sender, connection) = http1::handshake(TokioIo::new(stream)).await?;
        let connection = tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "kiosk connection ended with an error");
            }
        });
        Ok((sender, connection))
    }

    /// Replaces a closed connection by a new one.
    async fn reconnect(&mut self) -> Result<()> {
        let (sender, connection) =
            HttpsClient::open(self.addr, self.server_name.clone(), self.tls.clone()).await?;
        self.connection.abort();
        self.sender = sender;
        self.connection = connection;
        Ok(())
    }

    /// `POST path` with a JSON body (and `Authorization: Bearer` when
    /// given); the answer's status and JSON.
    pub async fn post_json(
        &mut self,
        path: &str,
        body: &Value,
        bearer: Option<&str>,
    ) -> Result<(StatusCode, Value)> {
        self.post_body(path, body.to_string(), bearer).await
    }

    /// [`HttpsClient::post_json`] with a body already written as JSON text
    /// (the kill test resends the very same bytes).
    pub async fn post_body(
        &mut self,
        path: &str,
        body: String,
        bearer: Option<&str>,
    ) -> Result<(StatusCode, Value)> {
        self.request(hyper::Method::POST, path, body, bearer).await
    }

    /// `GET path`: the answer's status and JSON.
    pub async fn get_json(&mut self, path: &str) -> Result<(StatusCode, Value)> {
        self.request(hyper::Method::GET, path, String::new(), None).await
    }

    /// `GET path` with a staff token.
    pub async fn get_json_as(&mut self, path: &str, bearer: &str) -> Result<(StatusCode, Value)> {
        self.request(hyper::Method::GET, path, String::new(), Some(bearer)).await
    }

    /// Whether the connection is gone (the daemon closed it, or it failed):
    /// every further request would fail.
    pub fn is_closed(&self) -> bool {
        self.sender.is_closed()
    }

    /// One request and its answer. An empty answer body reads as `null`,
    /// one that is not JSON as a JSON string of its text.
    async fn request(
        &mut self,
        method: hyper::Method,
        path: &str,
        body: String,
        bearer: Option<&str>,
    ) -> Result<(StatusCode, Value)> {
        let mut request =
            hyper::Request::builder().method(method).uri(path).header(hyper::header::HOST, &self.authority);
        if !body.is_empty() {
            request = request.header(hyper::header::CONTENT_TYPE, "application/json");
        }
        if let Some(token) = bearer {
            request = request.header(hyper::header::AUTHORIZATION, format!("Bearer {token}"));
        }
        let mut request =
            request.body(body).context("la solicitud no se puede armar / the request cannot be built")?;
        // A connection the daemon closed (idle too long) is opened again;
        // a request hyper gives back unsent is sent once more on the new
        // one. Nothing of it reached the daemon, so sending it again
        // cannot do anything twice.
        let mut attempts = 0;
        let response = loop {
            attempts += 1;
            if self.sender.is_closed() || self.sender.ready().await.is_err() {
                self.reconnect().await.context(
                    "la conexión con el daemon está cerrada / the connection to the daemon is closed",
                )?;
                self.sender.ready().await.context(
                    "la conexión con el daemon está cerrada / the connection to the daemon is closed",
                )?;
            }
            match self.sender.try_send_request(request).await {
                Ok(response) => break response,
                Err(mut error) => match error.take_message() {
                    Some(unsent) if attempts < 3 => request = unsent,
                    _ => {
                        return Err(anyhow::Error::new(error.into_error())
                            .context("el daemon no respondió / no answer from the daemon"))
                    }
                },
            }
        };
        let status = response.status();
        let bytes = http_body_util::Limited::new(response.into_body(), MAX_ANSWER_BYTES)
            .collect()
            .await
            .map_err(|e| anyhow::anyhow!("la respuesta llegó incompleta / the answer was cut short: {e}"))?
            .to_bytes();
        let value = if bytes.is_empty() {
            Value::Null
        } else {
            serde_json::from_slice(&bytes)
                .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(&bytes).into_owned()))
        };
        Ok((status, value))
    }
}

/// A TCP connection to `addr` (no Nagle delay: small JSON requests go out
/// at once) with its TLS handshake done, the daemon known as
/// `server_name`.
pub async fn tls_connect(
    addr: SocketAddr,
    server_name: ServerName<'static>,
    tls: Arc<ClientConfig>,
) -> Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let tcp = TcpStream::connect(addr).await.with_context(|| format!("no se puede conectar con {addr}: ¿está encendido el servicio y hay red? / cannot connect to {addr}"))?;
    tcp.set_nodelay(true)?;
    tokio_rustls::TlsConnector::from(tls)
        .connect(server_name, tcp)
        .await
        .with_context(|| format!("falló el saludo TLS con {addr} / TLS handshake with {addr} failed"))
}

impl Drop for HttpsClient {
    fn drop(&mut self) {
        self.connection.abort();
    }
}

use asamblea_wire::hex::encode as hex;

/// A fresh nonce's bytes from the operating system.
fn random<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes).expect("the operating system provides randomness");
    bytes
}

fn unhex(text: &str) -> Result<Vec<u8>> {
    asamblea_wire::hex::decode(text)
        .with_context(|| format!("`{text}` no es hexadecimal / is not hexadecimal"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use asamblea_wire::CredentialId;
    use serde_json::json;

    fn meeting() -> MeetingId {
        MeetingId([0x3c; 32])
    }

    fn credential() -> Credential {
        Credential::generate_from(&meeting(), CredentialId(17), &[0x11; 32])
    }

    #[test]
    fn a_badge_is_read_for_its_own_meeting_only() {
        let text = credential().to_qr_text();
        let parsed = parse_badge(&format!(" {text}\n"), &meeting()).expect("its own meeting");
        assert_eq!((parsed.id(), parsed.public_key()), (CredentialId(17), credential().public_key()));
        assert_eq!(parse_badge(&text, &MeetingId([0x3d; 32])).err(), Some(WireError::CredentialOtherMeeting));
    }

    #[test]
    fn a_signed_ballot_decodes_sorted_and_verifies_for_its_meeting() {
        let credential = credential();
        let votes = whole_votes(&["CC-3", "CC-1", "CC-2"], OptionIndex::FOR).unwrap();
        let ballot = SignedBallot::sign(&credential, "item-1", votes).unwrap();

        let event = Event::decode(&ballot.event).expect("canonical bytes decode");
        let EventBody::Ballot(body) = &event.body else { panic!("a ballot: {event:?}") };
        assert_eq!(body.item.as_str(), "item-1");
        assert_eq!(body.credential, CredentialId(17));
        let holders: Vec<&str> = body.votes.iter().map(|v| v.holder.as_str()).collect();
        assert_eq!(holders, ["CC-1", "CC-2", "CC-3"], "votes sorted by holder");
        assert!(body.votes.iter().all(|v| v.choice == Choice::Whole(OptionIndex::FOR)));
        assert_eq!(event.encode().unwrap(), ballot.event, "encode(decode(b)) == b");

        assert_eq!(ballot.signer, credential.public_key());
        ballot.signer.verify(&meeting(), &ballot.event, &ballot.signature).expect("verifies for its meeting");
        assert!(ballot.signer.verify(&MeetingId([0x3d; 32]), &ballot.event, &ballot.signature).is_err());
        let mut tampered = ballot.event.clone();
        *tampered.last_mut().unwrap() ^= 1;
        assert!(ballot.signer.verify(&meeting(), &tampered, &ballot.signature).is_err());
    }

    #[test]
    fn every_signing_draws_a_new_nonce() {
        let credential = credential();
        let votes = || whole_votes(&["CC-1"], OptionIndex::AGAINST).unwrap();
        let a = SignedBallot::sign(&credential, "item-1", votes()).unwrap();
        let b = SignedBallot::sign(&credential, "item-1", votes()).unwrap();
        assert_ne!(Event::decode(&a.event).unwrap().nonce, Event::decode(&b.event).unwrap().nonce);
        assert_ne!(a.digest(), b.digest());
    }

    #[test]
    fn the_body_carries_the_three_fields_in_hex() {
        let ballot = SignedBallot::sign(
            &credential(),
            "item-2",
            whole_votes(&["CC-1"], OptionIndex::BLANK_DECISION).unwrap(),
        )
        .unwrap();
        let body: Value = serde_json::from_str(&ballot.body()).unwrap();
        let fields: Vec<&String> = body.as_object().unwrap().keys().collect();
        assert_eq!(fields, ["event", "signer", "signature"]);
        assert_eq!(unhex(body["event"].as_str().unwrap()).unwrap(), ballot.event);
        assert_eq!(unhex(body["signer"].as_str().unwrap()).unwrap(), ballot.signer.to_bytes());
        assert_eq!(unhex(body["signature"].as_str().unwrap()).unwrap(), ballot.signature.0);
    }

    #[test]
    fn a_receipt_is_read_and_checked_against_the_daemon_key() {
        let daemon = asamblea_wire::Keypair::from_seed(&[0x22; 32]);
        let receipt = Receipt { seq: 42, head: Digest([1; 32]), event: Digest([2; 32]) };
        let signature = receipt.sign(&meeting(), &daemon);
        let answer = json!({
            "receipt": { "seq": 42, "head": hex(&[1; 32]), "event": hex(&[2; 32]) },
            "signature": hex(&signature.0),
        });
        let (read, _) = read_receipt(&answer, &meeting(), Some(&daemon.public_key())).unwrap();
        assert_eq!(read, receipt);
        let other = asamblea_wire::Keypair::from_seed(&[0x23; 32]).public_key();
        let forged = format!("{:#}", read_receipt(&answer, &meeting(), Some(&other)).unwrap_err());
        assert!(
            forged.contains(
                "la firma del recibo no es la del daemon / the receipt's signature is not the daemon's"
            ),
            "{forged}"
        );
        let not_one = format!("{:#}", read_receipt(&json!({ "error": {} }), &meeting(), None).unwrap_err());
        assert!(not_one.contains("la respuesta no es un recibo / the answer is not a receipt"), "{not_one}");
    }
}
