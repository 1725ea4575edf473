//! The remote attendee's page (`/remoto`, the server's `remote.js`) in a
//! real browser: its encoder and WebCrypto signatures against the vectors
//! of `docs/ledger-format.md` §10.13 and against the Rust encoder for
//! other choices (the browser's ballot bytes are the ledger's); and a
//! remote holder at phone size who registers, is verified at the desk's
//! panel, joins, votes on two items and checks the receipt.

use std::time::{Duration, Instant};

use asamblea_rules::{OptionIndex, Shares};
use asamblea_wire::{
    Ballot, Choice, CredentialId, Event, EventBody, HolderVote, Id, Keypair, MeetingId, Nonce, SplitPart,
};
use serde_json::Value;

use crate::consoles::Demo;
use crate::webdriver::{self, Browser};

/// The hex of the block named `name` in §10.13, white space removed.
fn documented(name: &str) -> String {
    let doc = std::fs::read_to_string(crate::workspace_root().join("docs/ledger-format.md"))
        .expect("docs/ledger-format.md");
    let section = doc.split("### 10.13 The remote attendee").nth(1).expect("§10.13");
    let block = section.split(&format!("`{name}`:")).nth(1).unwrap_or_else(|| panic!("§10.13 has `{name}`"));
    let text = block.split("```text").nth(1).and_then(|b| b.split("```").next()).expect("a text block");
    text.split_whitespace().collect()
}

/// PKCS#8 (RFC 8410) of an Ed25519 seed, as WebCrypto imports it.
fn pkcs8(seed: &[u8; 32]) -> String {
    let prefix =
        [0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20];
    asamblea_wire::hex::encode(&[&prefix[..], seed].concat())
}

/// Runs `body` (an async function body using `R`, the page's encoder,
/// `key`, the imported private key, and `meeting`) in the page; its
/// answer.
fn in_page(browser: &Browser, seed: &[u8; 32], meeting: &MeetingId, body: &str) -> Value {
    let script = format!(
        "const done = arguments[arguments.length - 1];
         (async () => {{
           const R = window.asambleaRemote;
           const key = await crypto.subtle.importKey('pkcs8', R.bytesOf('{}'), {{ name: 'Ed25519' }}, false, ['sign']);
           const meeting = R.bytesOf('{}');
           {body}
         }})().then(done, (e) => done({{ error: String(e) }}));",
        pkcs8(seed),
        asamblea_wire::hex::encode(&meeting.0)
    );
    let answer = browser.eval_async(&script);
    assert!(answer.get("error").is_none(), "the page's script failed: {answer}");
    answer
}

fn page_ready(browser: &Browser) {
    let started = Instant::now();
    while browser.eval("return typeof window.asambleaRemote;") != "object" {
        assert!(started.elapsed() < Duration::from_secs(10), "remote.js did not load on /remoto");
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_phones_encoder_and_signatures_are_the_documents_and_the_rust_encoders() {
    if let Some(why) = webdriver::missing() {
        webdriver::not_run("remote_page::the_phones_encoder_and_signatures", why);
        return;
    }
    let demo = Demo::serve("remote-vectors", crate::support::MERGER_MEETING, crate::support::MERGER_REGISTER);
    let browser = Browser::start();
    browser.size(390, 844);
    browser.goto(&format!("{}/remoto", demo.base));
    page_ready(&browser);

    // §10.13: meeting 00 01 … 1f, the browser's seed 32 × 0x55.
    let vector_meeting = MeetingId(std::array::from_fn(|i| i as u8));
    let got = in_page(
        &browser,
        &[0x55; 32],
        &vector_meeting,
        "const nonce = (b) => new Uint8Array(16).fill(b);
         const pub = R.bytesOf('c6822637c7d310ec57627be00ba259d253749f4aaf644470cffbe53a35f73242');
         const ballot = R.encodeBallot(nonce(0xc4), 'item-2', 7, [
           { holder: 'H3', split: [{ option: 2, shares: 500 }, { option: 0, shares: 1000 }] },
           { holder: 'CC-1032456789', option: 1 }]);
         const registration = R.encodeRegistration(pub, 'CC-1032456789', 'María Gómez');
         return {
           ballot: R.hexOf(ballot),
           input: R.hexOf(R.signingInput(meeting, ballot)),
           signature: R.hexOf(await R.signWith(key, meeting, ballot)),
           registration: R.hexOf(registration),
           proof: R.hexOf(await R.signWith(key, meeting, registration)),
           arrival: R.hexOf(R.encodeArrival(nonce(0xc3), 7, ['H3', 'CC-1032456789'])),
           departure: R.hexOf(R.encodeDeparture(nonce(0xc5), 7)),
           fingerprint: await R.fingerprint(pub),
         };",
    );
    for (field, name) in [
        ("ballot", "ballot"),
        ("input", "signing input of the ballot"),
        ("signature", "signature of the ballot"),
        ("registration", "remote-registration"),
        ("proof", "proof of the registration"),
        ("arrival", "checked-in-remote"),
        ("departure", "checked-out-remote"),
    ] {
        assert_eq!(got[field].as_str().unwrap(), documented(name), "the page's `{name}` is §10.13's");
    }
    assert_eq!(
        got["fingerprint"],
        asamblea_wire::key_fingerprint(&Keypair::from_seed(&[0x55; 32]).public_key())
    );

    // Other choices than the one vector, against the Rust encoder: the
    // extremes of every number, ids in UTF-8 byte order where JavaScript's
    // own order differs (U+FF5E before U+1F600 in UTF-8, after in UTF-16),
    // an item and holders with accents.
    let seed: [u8; 32] = std::array::from_fn(|i| (i as u8).wrapping_mul(29).wrapping_add(3));
    let meeting = demo.meeting();
    let whole = |holder: &str, option: u16| HolderVote {
        holder: Id::new(holder).unwrap(),
        choice: Choice::Whole(option_index(option)),
    };
    let cases: Vec<(u32, &str, Vec<HolderVote>, String)> = vec![
        (u32::MAX, "punto-ñ", vec![whole("\u{ff5e}-1", 0), whole("\u{1f600}-2", 2)],
         "[{ holder: '\\u{1f600}-2', option: 2 }, { holder: '\\u{ff5e}-1', option: 0 }]".into()),
        (1, "item-1", vec![whole("CC-Ñúñez", 65_535)], "[{ holder: 'CC-Ñúñez', option: 65535 }]".into()),
        (0x0102_0304, "elección", vec![HolderVote {
            holder: Id::new("NIT-9").unwrap(),
            choice: Choice::Split(vec![
                SplitPart { option: option_index(0), shares: Shares::new(1) },
                SplitPart { option: option_index(3), shares: Shares::new(u64::MAX) },
            ]),
        }], "[{ holder: 'NIT-9', split: [{ option: 3, shares: '18446744073709551615' }, { option: 0, shares: 1 }] }]".into()),
    ];
    for (i, (credential, item, votes, js_votes)) in cases.into_iter().enumerate() {
        let nonce = [0x10 + i as u8; 16];
        let event = Event {
            nonce: Nonce(nonce),
            body: EventBody::Ballot(Ballot {
                item: Id::new(item).unwrap(),
                credential: CredentialId(credential),
                votes,
            }),
        };
        let bytes = event.encode().expect("encodes");
        let signature = Keypair::from_seed(&seed).sign(&meeting, &bytes).expect("signs");
        let got = in_page(
            &browser,
            &seed,
            &meeting,
            &format!(
                "const ballot = R.encodeBallot(R.bytesOf('{}'), '{item}', {credential}, {js_votes});
                 return {{ ballot: R.hexOf(ballot), signature: R.hexOf(await R.signWith(key, meeting, ballot)) }};",
                asamblea_wire::hex::encode(&nonce)
            ),
        );
        assert_eq!(
            got["ballot"].as_str().unwrap(),
            asamblea_wire::hex::encode(&bytes),
            "case {i}: the bytes"
        );
        assert_eq!(
            got["signature"].as_str().unwrap(),
            asamblea_wire::hex::encode(&signature.0),
            "case {i}: the signature"
        );
    }
}

fn option_index(option: u16) -> OptionIndex {
    OptionIndex::list(usize::from(option))
}
