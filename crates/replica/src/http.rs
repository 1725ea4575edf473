//! The least HTTP/1.1 that etcd's JSON gateway needs: a POST with a JSON
//! body and its answer — status and body, read to the length the answer
//! announces, or chunk by chunk — on a connection kept open for the next
//! one (a TLS handshake and a TCP connect per request would be most of a
//! small batch's cost); a time-out on every step. Over TLS (rustls,
//! blocking, on the same socket) when the cluster asks for client
//! certificates (`serve --replica-tls`).

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

/// A connection, plain or TLS.
trait Stream: Read + Write + Send {}
impl<T: Read + Write + Send> Stream for T {}

/// The largest answer taken (a range over a few thousand records).
const MAX_ANSWER: usize = 64 << 20;

/// An answer: its status, its body, and whether the connection may carry
/// the next request.
type Answer = (u16, Vec<u8>, bool);

/// The largest head, and the longest line of a chunked body's framing.
const MAX_HEAD: usize = 64 * 1024;

/// A connection to one member, kept open between requests.
pub(crate) struct Connection {
    /// The member it reaches.
    pub(crate) to: SocketAddr,
    stream: Box<dyn Stream>,
}

impl Connection {
    /// A new connection to `to`, every step bounded by `timeout`.
    pub(crate) fn open(
        to: SocketAddr,
        (timeout, tls): (Duration, Option<&Arc<rustls::ClientConfig>>),
    ) -> Result<Connection, String> {
        let plain = TcpStream::connect_timeout(&to, timeout).map_err(|e| format!("connect: {e}"))?;
        plain.set_read_timeout(Some(timeout)).map_err(|e| e.to_string())?;
        plain.set_write_timeout(Some(timeout)).map_err(|e| e.to_string())?;
        plain.set_nodelay(true).map_err(|e| e.to_string())?;
        let stream: Box<dyn Stream> = match tls {
            None => Box::new(plain),
            Some(config) => {
                let name = rustls::pki_types::ServerName::IpAddress(to.ip().into());
                let connection =
                    rustls::ClientConnection::new(config.clone(), name).map_err(|e| format!("TLS: {e}"))?;
                Box::new(rustls::StreamOwned::new(connection, plain))
            }
        };
        Ok(Connection { to, stream })
    }

    /// POSTs `body` (JSON) to `path`: the status, the body, and whether
    /// the connection may carry the next request (not when the answer
    /// closed it, or ran to the close). An error leaves the connection
    /// unusable: the caller drops it.
    pub(crate) fn post(&mut self, path: &str, body: &str) -> Result<Answer, String> {
        let request = format!(
            "POST {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.to,
            body.len()
        );
        self.stream.write_all(request.as_bytes()).map_err(|e| format!("send: {e}"))?;
        self.stream.flush().map_err(|e| format!("send: {e}"))?;
        answer(&mut Reader { stream: &mut *self.stream, buffer: Vec::new(), at: 0 })
    }
}

/// An answer read from `reader`: status, body, and whether the
/// connection stays usable.
fn answer(reader: &mut Reader<'_>) -> Result<Answer, String> {
    let status_line = reader.line()?;
    let status_line = String::from_utf8_lossy(&status_line).into_owned();
    let status: u16 = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not an HTTP answer: {status_line}"))?;
    let (mut length, mut chunked, mut closes) = (None, false, false);
    let mut head = 0usize;
    loop {
        let line = reader.line()?;
        head += line.len() + 2;
        if head > MAX_HEAD {
            return Err("an answer's head over 64 KiB".to_string());
        }
        if line.is_empty() {
            break;
        }
        let line = String::from_utf8_lossy(&line).to_ascii_lowercase();
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match name.trim() {
            "content-length" => {
                length = Some(value.parse::<usize>().map_err(|_| format!("a content-length «{value}»"))?)
            }
            "transfer-encoding" => chunked = value.contains("chunked"),
            "connection" => closes = value.contains("close"),
            _ => {}
        }
    }
    if chunked {
        // RFC 9112 §7.1: each chunk's size in hexadecimal on its own line
        // (extensions ignored), its bytes, a line end; a size of 0 ends
        // it, after any trailer lines and an empty one.
        let mut body = Vec::new();
        loop {
            let line = reader.line()?;
            let text = String::from_utf8_lossy(&line);
            let text = text.split(';').next().unwrap_or_default().trim();
            let size = usize::from_str_radix(text, 16).map_err(|_| format!("a chunk size «{text}»"))?;
            if size == 0 {
                while !reader.line()?.is_empty() {}
                return Ok((status, body, !closes));
            }
            if body.len() + size > MAX_ANSWER {
                return Err(format!("an answer over {MAX_ANSWER} bytes"));
            }
            body.extend_from_slice(&reader.take(size)?);
            if reader.take(2)? != b"\r\n" {
                return Err("a chunk not ended by a line end".to_string());
            }
        }
    }
    match length {
        Some(length) if length > MAX_ANSWER => Err(format!("an answer of {length} bytes")),
        Some(length) => Ok((status, reader.take(length)?, !closes)),
        // No length, not chunked: the body runs to the close.
        None => Ok((status, reader.rest_until_closed()?, false)),
    }
}

/// The bytes of one answer, read as they are needed.
struct Reader<'a> {
    stream: &'a mut dyn Stream,
    buffer: Vec<u8>,
    at: usize,
}

impl Reader<'_> {
    /// Reads more; an error if the connection closed.
    fn more(&mut self) -> Result<(), String> {
        let mut chunk = [0u8; 16 * 1024];
        let read = self.stream.read(&mut chunk).map_err(|e| format!("read: {e}"))?;
        if read == 0 {
            return Err("closed before the answer's end".to_string());
        }
        self.buffer.extend_from_slice(&chunk[..read]);
        Ok(())
    }

    /// The next line, without its CRLF.
    fn line(&mut self) -> Result<Vec<u8>, String> {
        loop {
            if let Some(end) = self.buffer[self.at..].windows(2).position(|w| w == b"\r\n") {
                let line = self.buffer[self.at..self.at + end].to_vec();
                self.at += end + 2;
                return Ok(line);
            }
            if self.buffer.len() - self.at > MAX_HEAD {
                return Err("a line over 64 KiB".to_string());
            }
            self.more()?;
        }
    }

    /// The next `n` bytes.
    fn take(&mut self, n: usize) -> Result<Vec<u8>, String> {
        while self.buffer.len() - self.at < n {
            self.more()?;
        }
        let bytes = self.buffer[self.at..self.at + n].to_vec();
        self.at += n;
        Ok(bytes)
    }

    /// Everything up to the close.
    fn rest_until_closed(&mut self) -> Result<Vec<u8>, String> {
        let mut rest = self.buffer.split_off(self.at);
        let read = (&mut *self.stream).take(MAX_ANSWER as u64).read_to_end(&mut rest);
        // A TLS peer that closes without close_notify after an answer that
        // runs to the close: what was read is the body.
        if let Err(e) = read {
            if e.kind() != std::io::ErrorKind::UnexpectedEof {
                return Err(format!("read: {e}"));
            }
        }
        Ok(rest)
    }
}

#[cfg(test)]
mod tests {
    use super::{answer, Answer, Reader};

    /// An answer as bytes, read by [`answer`]; what is left unread.
    fn read(bytes: &[u8]) -> (Result<Answer, String>, usize) {
        let mut stream = std::io::Cursor::new(bytes.to_vec());
        let mut reader = Reader { stream: &mut stream, buffer: Vec::new(), at: 0 };
        let answered = answer(&mut reader);
        let left =
            reader.buffer.len() - reader.at + (bytes.len() - usize::try_from(stream.position()).unwrap());
        (answered, left)
    }

    #[test]
    fn an_answer_is_read_to_its_end_and_no_further() {
        // By its length: what follows is the next answer's, left unread.
        let (answered, left) =
            read(b"HTTP/1.1 200 OK\r\nContent-Length: 7\r\n\r\n{\"a\":1}HTTP/1.1 200 OK\r\n");
        assert_eq!(answered.unwrap(), (200, b"{\"a\":1}".to_vec(), true));
        assert_eq!(left, "HTTP/1.1 200 OK\r\n".len());
        // Chunked (etcd's gateway streams a large answer so), with an
        // extension and a trailer.
        let (answered, left) = read(
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4\r\n{\"a\"\r\n3;x=1\r\n:1}\r\n0\r\nX-T: 1\r\n\r\n",
        );
        assert_eq!(answered.unwrap(), (200, b"{\"a\":1}".to_vec(), true));
        assert_eq!(left, 0);
        // An answer that closes the connection says so; one with neither
        // length nor chunks runs to the close.
        let (answered, _) = read(b"HTTP/1.1 503 Busy\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}");
        assert_eq!(answered.unwrap(), (503, b"{}".to_vec(), false));
        let (answered, _) = read(b"HTTP/1.1 200 OK\r\n\r\n{\"b\":2}");
        assert_eq!(answered.unwrap(), (200, b"{\"b\":2}".to_vec(), false));
    }

    #[test]
    fn a_cut_or_malformed_answer_is_refused() {
        assert!(read(b"HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\n{}").0.is_err(), "cut short");
        assert!(
            read(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\na\r\n{}\r\n").0.is_err(),
            "a chunk cut"
        );
        assert!(read(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n").0.is_err(), "a size");
        assert!(read(b"SSH-2.0-OpenSSH\r\n\r\n").0.is_err(), "not HTTP");
        assert!(read(b"").0.is_err(), "closed at once");
    }
}
