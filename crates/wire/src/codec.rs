//! The canonical binary encoding: fixed-width big-endian integers, booleans
//! as one byte 0 or 1, strings and lists behind a `u32` big-endian count,
//! fixed-size byte arrays as they are.
//!
//! [`Writer`] and [`Reader`] are the only code that touches bytes. Both
//! refuse what the other would refuse, with the same field names, so that
//! `decode(encode(x)) == x` for every value `encode` accepts and
//! `encode(decode(b)) == b` for every byte string `decode` accepts.

use crate::error::{Problem, WireError};
use crate::kinds::{MessageKind, WireCode, FORMAT_VERSION};
use crate::limits::{MAX_ID_LEN, MAX_MESSAGE_LEN, MAX_TEXT_LEN};
use crate::values::{check_string, Id, Text};

/// Builds one canonical encoding.
pub(crate) struct Writer {
    buf: Vec<u8>,
}

impl Writer {
    /// An encoding that starts with a message header: tag and version.
    pub(crate) fn message(kind: MessageKind) -> Writer {
        let mut buf = Vec::with_capacity(128);
        buf.push(kind.tag());
        buf.push(FORMAT_VERSION);
        Writer { buf }
    }

    /// An encoding with no header (a record, a digest input).
    pub(crate) fn bare() -> Writer {
        Writer { buf: Vec::with_capacity(256) }
    }

    pub(crate) fn u8(&mut self, value: u8) {
        self.buf.push(value);
    }

    pub(crate) fn u16(&mut self, value: u16) {
        self.buf.extend_from_slice(&value.to_be_bytes());
    }

    pub(crate) fn u32(&mut self, value: u32) {
        self.buf.extend_from_slice(&value.to_be_bytes());
    }

    pub(crate) fn u64(&mut self, value: u64) {
        self.buf.extend_from_slice(&value.to_be_bytes());
    }

    pub(crate) fn bool(&mut self, value: bool) {
        self.buf.push(u8::from(value));
    }

    pub(crate) fn bytes(&mut self, bytes: &[u8]) {
        self.buf.extend_from_slice(bytes);
    }

    pub(crate) fn code<T: WireCode>(&mut self, value: T) {
        self.buf.push(value.to_code());
    }

    /// A string: `u32` byte length, then its UTF-8 bytes. Strings reaching
    /// here were validated by [`Id`] or [`Text`], or are register ids that
    /// the register already holds in memory.
    pub(crate) fn str(&mut self, s: &str) {
        self.u32(u32::try_from(s.len()).expect("a string in memory is shorter than 4 GiB"));
        self.bytes(s.as_bytes());
    }

    /// A list's count, after checking it is within `min..=max`.
    pub(crate) fn count(
        &mut self,
        field: &'static str,
        len: usize,
        min: usize,
        max: usize,
    ) -> Result<(), WireError> {
        check_count(len, min, max).map_err(|problem| WireError::Invalid { field, problem })?;
        self.u32(u32::try_from(len).expect("list limits are far below u32::MAX"));
        Ok(())
    }

    /// The bytes of a message, refused over [`MAX_MESSAGE_LEN`].
    pub(crate) fn finish_message(self, field: &'static str) -> Result<Vec<u8>, WireError> {
        if self.buf.len() > MAX_MESSAGE_LEN {
            let problem = Problem::TooLong { len: self.buf.len(), limit: MAX_MESSAGE_LEN };
            return Err(WireError::Invalid { field, problem });
        }
        Ok(self.buf)
    }

    /// The bytes, with no size check.
    pub(crate) fn into_bytes(self) -> Vec<u8> {
        self.buf
    }
}

pub(crate) fn check_count(len: usize, min: usize, max: usize) -> Result<(), Problem> {
    if len > max {
        Err(Problem::TooLong { len, limit: max })
    } else if len < min {
        Err(Problem::TooShort { len, min })
    } else {
        Ok(())
    }
}

/// Reads one canonical encoding, refusing anything else.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Offset of `bytes` inside the buffer the caller gave, so that errors
    /// name offsets the caller can find (an event inside a record).
    base: usize,
}

impl<'a> Reader<'a> {
    pub(crate) fn new(bytes: &'a [u8], base: usize) -> Reader<'a> {
        Reader { bytes, pos: 0, base }
    }

    /// A reader over a whole message, refused over [`MAX_MESSAGE_LEN`].
    pub(crate) fn message(
        bytes: &'a [u8],
        base: usize,
        field: &'static str,
    ) -> Result<Reader<'a>, WireError> {
        if bytes.len() > MAX_MESSAGE_LEN {
            let problem = Problem::TooLong { len: bytes.len(), limit: MAX_MESSAGE_LEN };
            return Err(WireError::Malformed { field, at: base, problem });
        }
        Ok(Reader::new(bytes, base))
    }

    /// The offset of the next byte, as the caller counts.
    pub(crate) fn at(&self) -> usize {
        self.base + self.pos
    }

    pub(crate) fn malformed(&self, field: &'static str, at: usize, problem: Problem) -> WireError {
        WireError::Malformed { field, at, problem }
    }

    pub(crate) fn take(&mut self, field: &'static str, n: usize) -> Result<&'a [u8], WireError> {
        let available = self.bytes.len() - self.pos;
        if n > available {
            return Err(self.malformed(field, self.at(), Problem::Truncated { needed: n, available }));
        }
        let out = &self.bytes[self.pos..self.pos + n];
        self.pos += n;
        Ok(out)
    }

    pub(crate) fn array<const N: usize>(&mut self, field: &'static str) -> Result<[u8; N], WireError> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.take(field, N)?);
        Ok(out)
    }

    pub(crate) fn u8(&mut self, field: &'static str) -> Result<u8, WireError> {
        Ok(self.take(field, 1)?[0])
    }

    pub(crate) fn u16(&mut self, field: &'static str) -> Result<u16, WireError> {
        self.array(field).map(u16::from_be_bytes)
    }

    pub(crate) fn u32(&mut self, field: &'static str) -> Result<u32, WireError> {
        self.array(field).map(u32::from_be_bytes)
    }

    pub(crate) fn u64(&mut self, field: &'static str) -> Result<u64, WireError> {
        self.array(field).map(u64::from_be_bytes)
    }

    pub(crate) fn bool(&mut self, field: &'static str) -> Result<bool, WireError> {
        let at = self.at();
        match self.u8(field)? {
            0 => Ok(false),
            1 => Ok(true),
            other => Err(self.malformed(field, at, Problem::NotABool(other))),
        }
    }

    pub(crate) fn code<T: WireCode>(&mut self, field: &'static str) -> Result<T, WireError> {
        let at = self.at();
        let byte = self.u8(field)?;
        T::from_code(byte).ok_or_else(|| self.malformed(field, at, Problem::UnknownCode(byte)))
    }

    /// A message header: a tag that `accept` takes, then the version
    /// [`FORMAT_VERSION`].
    pub(crate) fn header(&mut self, accept: impl Fn(MessageKind) -> bool) -> Result<MessageKind, WireError> {
        let at = self.at();
        let tag = self.u8("tag")?;
        let kind =
            MessageKind::from_tag(tag).ok_or_else(|| self.malformed("tag", at, Problem::UnknownCode(tag)))?;
        if !accept(kind) {
            return Err(self.malformed("tag", at, Problem::UnexpectedKind(kind)));
        }
        let at = self.at();
        let version = self.u8("version")?;
        if version != FORMAT_VERSION {
            return Err(self.malformed("version", at, Problem::UnsupportedVersion(version)));
        }
        Ok(kind)
    }

    /// A list's count, which must be within `min..=max`.
    pub(crate) fn count(&mut self, field: &'static str, min: usize, max: usize) -> Result<usize, WireError> {
        let at = self.at();
        let len = usize::try_from(self.u32(field)?).unwrap_or(usize::MAX);
        check_count(len, min, max).map_err(|problem| self.malformed(field, at, problem))?;
        Ok(len)
    }

    /// A string of `min..=max` bytes. The length is checked before any of
    /// the string is read.
    fn string(&mut self, field: &'static str, min: usize, max: usize) -> Result<&'a str, WireError> {
        let at = self.at();
        let len = usize::try_from(self.u32(field)?).unwrap_or(usize::MAX);
        check_count(len, min, max).map_err(|problem| self.malformed(field, at, problem))?;
        let bytes = self.take(field, len)?;
        let s = std::str::from_utf8(bytes).map_err(|_| self.malformed(field, at, Problem::NotUtf8))?;
        check_string(s, min, max).map_err(|problem| self.malformed(field, at, problem))?;
        Ok(s)
    }

    /// An [`Id`].
    pub(crate) fn id(&mut self, field: &'static str) -> Result<Id, WireError> {
        self.string(field, 1, MAX_ID_LEN).map(Id::new_unchecked)
    }

    /// A [`Text`].
    pub(crate) fn text(&mut self, field: &'static str) -> Result<Text, WireError> {
        self.string(field, 0, MAX_TEXT_LEN).map(Text::new_unchecked)
    }

    /// A [`Text`] that may not be empty (a person's name).
    pub(crate) fn name(&mut self, field: &'static str) -> Result<Text, WireError> {
        self.string(field, 1, MAX_TEXT_LEN).map(Text::new_unchecked)
    }

    /// A [`Prose`](crate::Prose): 1 to
    /// [`MAX_PROSE_LEN`](crate::limits::MAX_PROSE_LEN) bytes whose only
    /// control character is the line feed, trimmed.
    pub(crate) fn prose(&mut self, field: &'static str) -> Result<crate::Prose, WireError> {
        self.checked(field, 1, crate::limits::MAX_PROSE_LEN, crate::values::check_prose)
            .map(crate::Prose::new_unchecked)
    }

    /// A [`FileText`](crate::FileText).
    pub(crate) fn file_text(&mut self, field: &'static str) -> Result<crate::FileText, WireError> {
        self.checked(field, 0, crate::limits::MAX_FILE_TEXT_LEN, crate::values::check_file_text)
            .map(crate::FileText::new_unchecked)
    }

    /// A string of `min..=max` bytes (the length checked before any of it
    /// is read) that `check` accepts.
    fn checked(
        &mut self,
        field: &'static str,
        min: usize,
        max: usize,
        check: fn(&str) -> Result<(), Problem>,
    ) -> Result<&'a str, WireError> {
        let at = self.at();
        let len = usize::try_from(self.u32(field)?).unwrap_or(usize::MAX);
        check_count(len, min, max).map_err(|problem| self.malformed(field, at, problem))?;
        let bytes = self.take(field, len)?;
        let s = std::str::from_utf8(bytes).map_err(|_| self.malformed(field, at, Problem::NotUtf8))?;
        check(s).map_err(|problem| self.malformed(field, at, problem))?;
        Ok(s)
    }

    /// Nothing may follow the end of the message.
    pub(crate) fn end(self) -> Result<(), WireError> {
        let count = self.bytes.len() - self.pos;
        if count == 0 {
            Ok(())
        } else {
            Err(self.malformed("end", self.at(), Problem::TrailingBytes { count }))
        }
    }
}
