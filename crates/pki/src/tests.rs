//! The venue PKI's unit tests: certificates made and read back, the
//! revocation list, and both ends of a handshake.

use super::*;
use crate::config::{provider, VERSIONS};
use tokio_rustls::TlsAcceptor;

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-tls-unit-{name}-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    dir
}

#[test]
fn kiosk_ids_are_letters_digits_and_dashes_up_to_32() {
    for good in ["k", "kiosk-01", "A-z-9", &"x".repeat(32)] {
        assert!(check_kiosk_id(good).is_ok(), "{good:?} should be accepted");
    }
    for bad in ["", "kiosk_01", "kiosk 1", "../x", "kiosk.1", "kiosco-ñ", &"x".repeat(33), "a\nb"] {
        let error = check_kiosk_id(bad).expect_err(bad).to_string();
        assert!(error.contains("kiosk id"), "{error}");
    }
}

#[test]
fn refusals_say_what_to_do_spanish_first_and_are_told_apart_from_failures() {
    let dir = temp("refusals");
    let missing = ca_cert_pem(&dir).unwrap_err();
    assert!(matches!(missing, PkiError::Missing { .. }) && !missing.is_refusal(), "{missing:?}");
    assert!(missing.to_string().contains("no se encuentra"), "{missing}");
    create_venue_pki(&dir, &[]).unwrap();
    let again = create_venue_pki(&dir, &[]).unwrap_err();
    assert!(matches!(again, PkiError::AlreadyMade { .. }) && again.is_refusal(), "{again:?}");

    let never = revoke_kiosk(&dir, "K1").unwrap_err();
    assert!(matches!(never, PkiError::NotEnrolled { .. }) && never.is_refusal(), "{never:?}");
    assert!(never.to_string().starts_with("no hay un quiosco K1 inscrito en "), "{never}");
    enroll_kiosk(&dir, "K1").unwrap();
    let twice = enroll_kiosk(&dir, "K1").unwrap_err();
    assert!(matches!(twice, PkiError::AlreadyEnrolled { .. }) && twice.is_refusal(), "{twice:?}");
    assert!(twice.to_string().starts_with("el quiosco K1 ya está inscrito"), "{twice}");
    revoke_kiosk(&dir, "K1").unwrap();
    fs::remove_file(kiosk_path(&dir, "K1", "crt")).unwrap();
    fs::remove_file(kiosk_path(&dir, "K1", "key")).unwrap();
    let revoked = enroll_kiosk(&dir, "K1").unwrap_err();
    assert!(matches!(revoked, PkiError::Revoked { .. }) && revoked.is_refusal(), "{revoked:?}");
    let said = revoked.to_string();
    assert!(said.find("fue revocado").unwrap() < said.find("was revoked").unwrap(), "{said}");

    let (_, request) = kiosk_request("K2").unwrap();
    let other = sign_kiosk_request(&dir, "K3", &request).unwrap_err();
    assert!(matches!(other, PkiError::RequestForAnother { .. }) && other.is_refusal(), "{other:?}");
    let garbage = sign_kiosk_request(&dir, "K2", "not a request").unwrap_err();
    assert!(matches!(garbage, PkiError::BadRequest { .. }) && garbage.is_refusal(), "{garbage:?}");
    assert!(garbage.to_string().starts_with("no es una solicitud de certificado válida"), "{garbage}");

    // A revocation list with a line that is no kiosk id: refused, naming
    // the file and the line (forgetting a revocation is worse).
    fs::write(revoked_path(&dir), "K1\nnot an id\n").unwrap();
    let list = KioskRegistry::load(&dir).unwrap_err();
    assert!(matches!(list, PkiError::Malformed { .. }) && !list.is_refusal(), "{list:?}");
    assert!(
        list.to_string().contains("revoked-kiosks, línea / line 2: el identificador de quiosco"),
        "{list}"
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// A revocation list fails towards revoking: on a running daemon a
/// malformed line never keeps the previous list, so a kiosk revoked in
/// the same edit is refused at once; the line is reported, naming it;
/// and no edit of the file gives a revoked kiosk its place back.
#[test]
fn a_reload_applies_every_well_formed_revocation_and_reports_the_malformed_lines() {
    let dir = temp("reload");
    create_venue_pki(&dir, &[]).unwrap();
    fs::write(revoked_path(&dir), "K1\n").unwrap();
    let registry = KioskRegistry::load(&dir).unwrap();
    assert!(registry.is_revoked("K1") && !registry.is_revoked("K2"));
    // One edit: a typo on one line, and K2 revoked on the next.
    fs::write(revoked_path(&dir), "K1\nK 3 ;\nK2\n").unwrap();
    let reloaded = registry.reload().expect("the file was read");
    assert!(registry.is_revoked("K2"), "K2, revoked in the same edit as the typo, still votes");
    assert!(registry.is_revoked("K1"));
    assert_eq!(reloaded.malformed.len(), 1, "{reloaded:?}");
    let said = reloaded.malformed[0].to_string();
    assert!(said.contains("revoked-kiosks, línea / line 2"), "{said}");
    // A line taken out by hand does not bring K1 back while the daemon runs.
    fs::write(revoked_path(&dir), "K2\n").unwrap();
    assert!(registry.reload().unwrap().malformed.is_empty());
    assert!(registry.is_revoked("K1") && registry.is_revoked("K2"));
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_common_name_is_read_from_certificates_and_their_absence_is_none() {
    let key = KeyPair::generate().unwrap();
    let mut params = CertificateParams::default();
    params.distinguished_name = DistinguishedName::new();
    params.distinguished_name.push(DnType::OrganizationName, "asamblea");
    params.distinguished_name.push(DnType::CommonName, "kiosk-7");
    let cert = params.self_signed(&key).unwrap();
    assert_eq!(common_name(cert.der()).as_deref(), Some("kiosk-7"));

    params.distinguished_name = distinguished_name("Junta de Socios ñ");
    let cert = params.self_signed(&key).unwrap();
    assert_eq!(common_name(cert.der()).as_deref(), Some("Junta de Socios ñ"));

    params.distinguished_name = DistinguishedName::new();
    params.distinguished_name.push(DnType::OrganizationName, "no common name");
    let cert = params.self_signed(&key).unwrap();
    assert_eq!(common_name(cert.der()), None);

    // Truncated input never panics, and yields nothing.
    let der = cert.der().to_vec();
    for cut in 0..der.len() {
        assert_eq!(common_name(&der[..cut]), None, "cut at {cut}");
    }
}

#[test]
fn server_names_always_cover_loopback_and_refuse_junk() {
    let names = server_names(&["Urna.Local".into(), "192.168.1.10".into(), "localhost".into()]).unwrap();
    assert_eq!(names, ["urna.local", "192.168.1.10", "localhost", "127.0.0.1", "::1"]);
    for bad in ["two words", "*.local", "", "exa_mple..com"] {
        assert!(server_names(&[bad.to_string()]).is_err(), "{bad:?} should be refused");
    }
}

/// The CA's name constraints: a certificate it signs for a host name the
/// venue did not list is refused by a client that trusts the CA.
#[tokio::test]
async fn the_venue_ca_cannot_vouch_for_other_sites() {
    let dir = temp("constraints");
    create_venue_pki(&dir, &["urna.local".into()]).unwrap();
    let ca_pem = ca_cert_pem(&dir).unwrap();
    let ca_der = CertificateDer::from_pem_slice(ca_pem.as_bytes()).unwrap();
    let ca_key = KeyPair::from_pem(&fs::read_to_string(dir.join("tls/ca.key")).unwrap()).unwrap();
    let issuer = Issuer::new(ca_issuer_params(&common_name(&ca_der).unwrap()), ca_key);

    for (host, accepted) in [("urna.local", true), ("bank.example", false)] {
        let mut params = CertificateParams::new(vec![host.to_string()]).unwrap();
        params.extended_key_usages = vec![ExtendedKeyUsagePurpose::ServerAuth];
        let key = KeyPair::generate().unwrap();
        let cert = params.signed_by(&key, &issuer).unwrap();
        let server = ServerConfig::builder_with_provider(provider())
            .with_protocol_versions(VERSIONS)
            .unwrap()
            .with_no_client_auth()
            .with_single_cert(vec![cert.der().clone()], PrivateKeyDer::try_from(key.serialize_der()).unwrap())
            .unwrap();
        let client = client_config(&ca_pem, None).unwrap();

        let (client_io, server_io) = tokio::io::duplex(64 * 1024);
        let server_side =
            tokio::spawn(async move { TlsAcceptor::from(Arc::new(server)).accept(server_io).await });
        let connected = tokio_rustls::TlsConnector::from(Arc::new(client))
            .connect(ServerName::try_from(host.to_string()).unwrap(), client_io)
            .await;
        assert_eq!(connected.is_ok(), accepted, "{host}: {:?}", connected.err());
        drop(connected);
        let _ = server_side.await;
    }
    fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_daemon_certificate_certifies_its_hosts_and_no_other() {
    let dir = temp("certifies");
    create_venue_pki(&dir, &["10.20.0.12".to_string(), "sede-2.local".to_string()]).unwrap();
    for host in ["10.20.0.12", "sede-2.local", "127.0.0.1", "localhost"] {
        assert!(certifies_host(&dir, host), "{host}");
    }
    for host in ["10.20.0.13", "evil.example", "sede-3.local", "", "[::1"] {
        assert!(!certifies_host(&dir, host), "{host}");
    }
    assert!(!certifies_host(&dir.join("none"), "127.0.0.1"), "no folder, no host");
    let _ = fs::remove_dir_all(&dir);
}
