//! `asamblea serve --public-listen`: the flags as a person types them, what
//! a wrong certificate says, and the public reaching the meeting from
//! outside with the company's certificate while the consoles stay inside.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use asamblea_kiosk::HttpsClient;

use crate::support::{asamblea, asamblea_ok, printed_after, remove_meeting, Daemon};

fn s(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

fn temp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("asamblea-internet-{name}-{}", std::process::id()));
    remove_meeting(&dir);
    dir
}

fn said(output: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
}

#[test]
fn the_public_listener_wants_its_certificate_and_says_which_file_is_wrong() {
    let dir = temp("flags");
    asamblea_ok(&["init", s(&dir)]);

    let alone = asamblea(&["serve", s(&dir), "--public-listen", "127.0.0.1:0"]);
    assert_eq!(alone.status.code(), Some(2), "{}", said(&alone));
    assert!(said(&alone).contains("--public-cert"), "names the missing flag: {}", said(&alone));

    // `serve DIR` on free ports with this certificate and key.
    let serve = |cert: &Path, key: &Path| {
        asamblea(&[
            "serve",
            s(&dir),
            "--listen",
            "127.0.0.1:0",
            "--public-listen",
            "127.0.0.1:0",
            "--public-cert",
            s(cert),
            "--public-key",
            s(key),
        ])
    };
    let missing = dir.join("no-existe.pem");
    let wrong = serve(&missing, &missing);
    let text = said(&wrong);
    assert_eq!(wrong.status.code(), Some(2), "{text}");
    assert!(text.contains("el certificado público"), "Spanish first: {text}");
    assert!(text.contains("no-existe.pem"), "names the file: {text}");

    // A certificate with another certificate's key.
    let (one, other) = (temp("flags-one"), temp("flags-other"));
    asamblea_pki::create_venue_pki(&one, &["localhost".to_string()]).expect("a CA");
    asamblea_pki::create_venue_pki(&other, &["localhost".to_string()]).expect("another");
    let mismatched = serve(&one.join("tls/server.crt"), &other.join("tls/server.key"));
    let text = said(&mismatched);
    assert_eq!(mismatched.status.code(), Some(2), "{text}");
    assert!(text.contains("no forman un par"), "{text}");
    for folder in [&dir, &one, &other] {
        remove_meeting(folder);
    }
}

#[tokio::test]
async fn the_public_reaches_the_board_from_outside_and_the_consoles_stay_inside() {
    let dir = temp("serve");
    asamblea_ok(&["init", s(&dir)]);
    let company = temp("company");
    asamblea_pki::create_venue_pki(&company, &["localhost".to_string()]).expect("the company's certificate");
    let public = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap();
    let (daemon, printed) = Daemon::start(&[
        "serve",
        s(&dir),
        "--public-listen",
        &public.to_string(),
        "--public-cert",
        s(&company.join("tls/server.crt")),
        "--public-key",
        s(&company.join("tls/server.key")),
    ]);
    let banner = printed_after(&printed, "Dirección pública");
    assert!(banner.contains(&format!("https://{public}/")), "the banner gives the public address: {banner}");

    // A phone outside trusts the public authority, not the venue's CA.
    let ca = std::fs::read_to_string(company.join("tls/ca.crt")).expect("the authority's certificate");
    let outside = Arc::new(asamblea_pki::client_config(&ca, None).expect("client"));
    let mut phone = HttpsClient::connect(public, outside.clone()).await.expect("the public address");
    let (status, answer) = phone.get_json("/api/v1/status").await.expect("answered");
    assert_eq!(status.as_u16(), 200, "{answer}");
    for console in ["/personal", "/registro", "/api/v1/holders?q=CC"] {
        let (status, answer) = phone.get_json(console).await.expect("answered");
        assert_eq!(status.as_u16(), 404, "{console} is not outside: {answer}");
    }
    // The venue's listener shows the venue's certificate, which the phone
    // does not trust.
    assert!(HttpsClient::connect(daemon.addr, outside).await.is_err());
    daemon.kill();
    remove_meeting(&dir);
    remove_meeting(&company);
}
