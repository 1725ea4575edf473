//! The badge readers other than the page's wedge input, and the receipt's
//! QR code.
//!
//! - [`serial`]: a scanner in serial mode (USB CDC-ACM, `/dev/ttyACM0`)
//!   read by the kiosk process one line at a time, which is how a
//!   locked-down kiosk should read it: a scanner that types as a keyboard
//!   can type into anything. Any file that gives lines works (a pipe in
//!   the tests).
//! - [`decode_image`]: a camera frame or an image file (PNG), its QR code
//!   found and decoded here (`rqrr`).
//!
//! Every copy of a scanned text is held in [`Zeroizing`], wiped when
//! dropped.

use std::io::Read;
use std::path::PathBuf;

use zeroize::Zeroizing;

/// The longest line a scanner may give: a badge is 120 characters.
const MAX_LINE: usize = 1024;

/// Reads badges from the serial scanner at `path` on a thread of its own,
/// one a line, handing each to `scanned`, for as long as the kiosk runs;
/// if the device goes away, `trouble` hears it (in Spanish and English)
/// and it is opened again every two seconds.
pub fn serial(
    path: PathBuf,
    scanned: impl Fn(Zeroizing<String>) + Send + 'static,
    trouble: impl Fn(String, String) + Send + 'static,
) {
    std::thread::Builder::new()
        .name("escaner".into())
        .spawn(move || loop {
            // O_NOCTTY: a tty scanner must not become the kiosk's
            // controlling terminal, or unplugging it would hang the
            // kiosk up (SIGHUP) in the middle of a vote.
            let opened = {
                use std::os::unix::fs::OpenOptionsExt as _;
                std::fs::OpenOptions::new().read(true).custom_flags(libc::O_NOCTTY).open(&path)
            };
            match opened {
                Ok(mut device) => {
                    read_lines(&mut device, &scanned);
                    tracing::warn!(path = %path.display(), "el lector serial se cerró / the serial scanner closed");
                }
                Err(error) => {
                    tracing::warn!(path = %path.display(), %error, "no se puede abrir el lector serial / the serial scanner cannot be opened");
                    trouble(
                        format!(
                            "El lector de credenciales ({}) no responde: avise al personal.",
                            path.display()
                        ),
                        format!("The badge reader ({}) does not answer: tell the staff.", path.display()),
                    );
                }
            }
            std::thread::sleep(std::time::Duration::from_secs(2));
        })
        .expect("a thread for the scanner");
}

/// Lines from `device` (CR, LF or both end one), each handed over in a
/// wiped buffer; a line longer than [`MAX_LINE`] is dropped whole.
fn read_lines(device: &mut impl Read, each: impl Fn(Zeroizing<String>)) {
    let mut line = Zeroizing::new(Vec::with_capacity(MAX_LINE));
    let mut too_long = false;
    let mut byte = [0u8; 1];
    while let Ok(1) = device.read(&mut byte) {
        match byte[0] {
            b'\r' | b'\n' => {
                if !line.is_empty() && !too_long {
                    each(Zeroizing::new(String::from_utf8_lossy(&line).into_owned()));
                }
                line.iter_mut().for_each(|b| *b = 0);
                line.clear();
                too_long = false;
            }
            _ if line.len() >= MAX_LINE => too_long = true,
            b => line.push(b),
        }
    }
}

/// Why an image gave no badge.
#[derive(Debug)]
pub enum ImageError {
    /// Not a PNG this reader decodes.
    NotAnImage(String),
    /// No QR code found in it.
    NoCode,
}

/// The QR text in a PNG image (a camera frame, a scanned badge).
pub fn decode_image(bytes: &[u8]) -> Result<Zeroizing<String>, ImageError> {
    let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
    // Any depth and palette as 8-bit grey or colour: a printed badge's PNG
    // is one bit a pixel, a camera frame RGBA.
    decoder.set_transformations(png::Transformations::normalize_to_color8());
    let mut reader = decoder.read_info().map_err(|e| ImageError::NotAnImage(e.to_string()))?;
    let size = reader.output_buffer_size().ok_or_else(|| ImageError::NotAnImage("too large".into()))?;
    if size > 64 << 20 {
        return Err(ImageError::NotAnImage("larger than 64 MB".into()));
    }
    let mut buffer = vec![0; size];
    let frame = reader.next_frame(&mut buffer).map_err(|e| ImageError::NotAnImage(e.to_string()))?;
    let (width, height) = (frame.width as usize, frame.height as usize);
    let (color, depth) = reader.output_color_type();
    if depth != png::BitDepth::Eight {
        return Err(ImageError::NotAnImage("16-bit images".into()));
    }
    let channels = color.samples();
    let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
        let at = y * frame.line_size + x * channels;
        match channels {
            1 | 2 => buffer[at],
            // Luma from RGB, in integers.
            _ => {
                ((u32::from(buffer[at]) * 299
                    + u32::from(buffer[at + 1]) * 587
                    + u32::from(buffer[at + 2]) * 114)
                    / 1000) as u8
            }
        }
    });
    for grid in image.detect_grids() {
        if let Ok((_, text)) = grid.decode() {
            return Ok(Zeroizing::new(text));
        }
    }
    Err(ImageError::NoCode)
}

/// `text` as a QR code in SVG (error correction M, quiet zone included),
/// sized by its container.
pub fn qr_svg(text: &str) -> String {
    let Ok(code) = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M) else {
        return String::new();
    };
    let width = code.width();
    let colors = code.to_colors();
    let side = width + 8;
    let mut path = String::new();
    for y in 0..width {
        let mut x = 0;
        while x < width {
            if colors[y * width + x] != qrcode::Color::Dark {
                x += 1;
                continue;
            }
            let start = x;
            while x < width && colors[y * width + x] == qrcode::Color::Dark {
                x += 1;
            }
            path.push_str(&format!("M{} {}h{}v1h-{}z", start + 4, y + 4, x - start, x - start));
        }
    }
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {side} {side}" shape-rendering="crispEdges" role="img" aria-label="Código QR del recibo / receipt QR code"><rect width="{side}" height="{side}" fill="#fff"/><path fill="#000" d="{path}"/></svg>"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_serial_scanner_gives_a_badge_a_line_whatever_ends_it() {
        let mut input: &[u8] = b"AS1FIRST\r\n\nAS1SECOND\rAS1THIRD\n";
        let lines = std::cell::RefCell::new(Vec::new());
        read_lines(&mut input, |line| lines.borrow_mut().push(line.to_string()));
        assert_eq!(lines.into_inner(), ["AS1FIRST", "AS1SECOND", "AS1THIRD"]);
        // A line past the limit is dropped whole, and the next one read.
        let long = format!("{}\nAS1NEXT\n", "A".repeat(MAX_LINE + 5));
        let lines = std::cell::RefCell::new(Vec::new());
        read_lines(&mut long.as_bytes(), |line| lines.borrow_mut().push(line.to_string()));
        assert_eq!(lines.into_inner(), ["AS1NEXT"]);
    }

    #[test]
    fn the_receipts_qr_reads_back() {
        let svg = qr_svg("https://urna.local:8443/recibo?resumen=ab");
        assert!(svg.starts_with("<svg") && svg.contains("M4 4h7"), "{svg}");
    }

    #[test]
    fn an_image_without_a_code_or_not_an_image_is_told_apart() {
        assert!(matches!(decode_image(b"not a png"), Err(ImageError::NotAnImage(_))));
        let mut png_bytes = Vec::new();
        {
            let mut encoder = png::Encoder::new(&mut png_bytes, 64, 64);
            encoder.set_color(png::ColorType::Grayscale);
            encoder.set_depth(png::BitDepth::Eight);
            let mut writer = encoder.write_header().unwrap();
            writer.write_image_data(&[255u8; 64 * 64]).unwrap();
        }
        assert!(matches!(decode_image(&png_bytes), Err(ImageError::NoCode)));
    }
}
