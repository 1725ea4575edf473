//! The least HTTP/1.1 that etcd's JSON gateway needs: one POST with a JSON
//! body per connection (`Connection: close`), its status and body, read to
//! the length the answer announces; a time-out on every step. Over TLS
//! (rustls, blocking, on the same socket) when the cluster asks for
//! client certificates (`serve --replica-tls`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// A connection, plain or TLS.
trait Stream: Read + Write {}
impl<T: Read + Write> Stream for T {}

/// The largest answer taken (a range over a few thousand records).
const MAX_ANSWER: usize = 64 << 20;

/// POSTs `body` (JSON) to `path` on `to`; the status and the body.
pub(crate) fn post(
    to: SocketAddr,
    path: &str,
    body: &str,
    (timeout, tls): (Duration, Option<&Arc<rustls::ClientConfig>>),
) -> Result<(u16, Vec<u8>), String> {
    let plain = TcpStream::connect_timeout(&to, timeout).map_err(|e| format!("connect: {e}"))?;
    plain.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    plain.set_write_timeout(Some(timeout)).map_err(|e| e.to_string())?;
    plain.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut socket: Box<dyn Stream> = match tls {
        None => Box::new(plain),
        Some(config) => {
            let name = rustls::pki_types::ServerName::IpAddress(to.ip().into());
            let connection =
                rustls::ClientConnection::new(config.clone(), name).map_err(|e| format!("TLS: {e}"))?;
            Box::new(rustls::StreamOwned::new(connection, plain))
        }
    };
    let request = format!(
        "POST {path} HTTP/1.1\r\nHost: {to}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).map_err(|e| format!("send: {e}"))?;
    let mut answer = Vec::new();
    let mut chunk = [0u8; 16 * 1024];
    let body_at = loop {
        let read = socket.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if read == 0 {
            return Err("closed before the answer's head".to_string());
        }
        answer.extend_from_slice(&chunk[..read]);
        if let Some(at) = answer.windows(4).position(|w| w == b"\r\n\r\n") {
            break at + 4;
        }
        if answer.len() > 64 * 1024 {
            return Err("an answer's head over 64 KiB".to_string());
        }
    };
    let head = String::from_utf8_lossy(&answer[..body_at]).to_ascii_lowercase();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {}", head.lines().next().unwrap_or_default()))?;
    let length: Option<usize> =
        head.lines().find_map(|l| l.strip_prefix("content-length:")).and_then(|n| n.trim().parse().ok());
    match length {
        Some(length) if length > MAX_ANSWER => Err(format!("an answer of {length} bytes")),
        Some(length) => {
            while answer.len() < body_at + length {
                let read = socket.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
                if read == 0 {
                    return Err("closed mid-answer".to_string());
                }
                answer.extend_from_slice(&chunk[..read]);
            }
            Ok((status, answer[body_at..body_at + length].to_vec()))
        }
        // No length: the body runs to the close (Connection: close),
        // chunked when the head says so (etcd's gateway streams a large
        // answer that way).
        None => {
            let read = (&mut socket).take(MAX_ANSWER as u64).read_to_end(&mut answer);
            // A TLS peer that closes without close_notify after a
            // `Connection: close` answer: what was read is the body.
            if let Err(e) = read {
                if e.kind() != std::io::ErrorKind::UnexpectedEof {
                    return Err(format!("read: {e}"));
                }
            }
            let body = &answer[body_at..];
            if head.lines().any(|l| l.starts_with("transfer-encoding:") && l.contains("chunked")) {
                Ok((status, unchunk(body)?))
            } else {
                Ok((status, body.to_vec()))
            }
        }
    }
}

/// The body of a chunked answer (RFC 9112 §7.1): each chunk's size in
/// hexadecimal on its own line (extensions ignored), its bytes, a line
/// end; a size of 0 ends it.
fn unchunk(mut body: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    loop {
        let line_end = body.windows(2).position(|w| w == b"\r\n").ok_or("a chunk without its size line")?;
        let size_text = String::from_utf8_lossy(&body[..line_end]);
        let size_text = size_text.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| format!("a chunk size «{size_text}»"))?;
        body = &body[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        if body.len() < size + 2 {
            return Err("a chunk cut short".to_string());
        }
        out.extend_from_slice(&body[..size]);
        body = &body[size + 2..];
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_chunked_body_is_joined_and_a_cut_one_refused() {
        assert_eq!(super::unchunk(b"4\r\n{\"a\"\r\n3;x=1\r\n:1}\r\n0\r\n\r\n").unwrap(), b"{\"a\":1}");
        assert!(super::unchunk(b"a\r\n{}\r\n").is_err());
        assert!(super::unchunk(b"zz\r\n").is_err());
    }
}
