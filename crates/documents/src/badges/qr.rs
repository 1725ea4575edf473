//! A QR symbol's modules (see the module's "The QR code"): encoded once,
//! read as dark or light with the quiet zone, drawn as one SVG path. The
//! admission letters' QR is drawn from the same modules.

use super::*;

/// A QR symbol's modules, without the quiet zone, row by row.
pub(crate) struct QrModules {
    width: usize,
    dark: Vec<bool>,
}

impl QrModules {
    pub(crate) fn encode(info: &BadgeInfo<'_>) -> Result<QrModules, BadgeError> {
        let too_long = || BadgeError::PayloadTooLong {
            credential_id: info.credential_id,
            chars: info.qr_text.chars().count(),
        };
        let code = match QrModules::of_text(info.qr_text, QR_EC_LEVEL) {
            Ok(code) => code,
            Err(QrError::DataTooLong) => return Err(too_long()),
            Err(other) => {
                return Err(BadgeError::PayloadNotEncodable {
                    credential_id: info.credential_id,
                    reason: other.to_string(),
                })
            }
        };
        if code.width > MAX_QR_MODULES {
            return Err(too_long());
        }
        Ok(code)
    }

    /// The modules of any `text` at error correction `level` (an admission
    /// letter's code too), in the smallest version that holds it.
    pub(crate) fn of_text(text: &str, level: EcLevel) -> Result<QrModules, QrError> {
        let code = QrCode::with_error_correction_level(text, level)?;
        let dark = code.to_colors().into_iter().map(|color| color == Color::Dark).collect();
        Ok(QrModules { width: code.width(), dark })
    }

    /// Modules per side, quiet zone included.
    pub(crate) fn side(&self) -> usize {
        self.width + 2 * QUIET_ZONE_MODULES
    }

    /// Whether the module at (`x`, `y`) is dark, counting from the outer
    /// corner of the quiet zone.
    pub(crate) fn is_dark(&self, x: usize, y: usize) -> bool {
        let (Some(x), Some(y)) = (x.checked_sub(QUIET_ZONE_MODULES), y.checked_sub(QUIET_ZONE_MODULES))
        else {
            return false;
        };
        x < self.width && y < self.width && self.dark[y * self.width + x]
    }

    /// An SVG path of the dark modules in quiet-zone coordinates: one
    /// rectangle per horizontal run, all in one path so the renderer fills
    /// them at once without hairline seams.
    pub(super) fn svg_path(&self) -> String {
        let mut d = String::with_capacity(self.width * self.width * 3);
        for y in 0..self.width {
            let mut x = 0;
            while x < self.width {
                if !self.dark[y * self.width + x] {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < self.width && self.dark[y * self.width + x] {
                    x += 1;
                }
                let run = x - start;
                let _ =
                    write!(d, "M{} {}h{run}v1h-{run}z", start + QUIET_ZONE_MODULES, y + QUIET_ZONE_MODULES);
            }
        }
        d
    }
}
