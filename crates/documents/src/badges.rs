//! Printable attendee badges (escarapelas: the card an attendee wears at a
//! Colombian meeting): one badge as SVG, its QR code alone as PNG, and A4
//! sheets of ten badges with cut marks, as an HTML document to print from a
//! browser.
//!
//! # Units and arithmetic
//!
//! Every drawing is laid out in tenths of a millimetre: a badge is
//! `856 × 540` (ISO/IEC 7810 ID-1, the size of a bank card, 85.6 × 54 mm), an
//! A4 page `2100 × 2970`. Each `<svg>` states its physical size in `mm` and a
//! `viewBox` in those units, so every coordinate is an integer and nothing
//! here needs floating point (the workspace warns on float arithmetic).
//!
//! # Text that fits
//!
//! SVG does not wrap text, and we cannot measure the font the printer's
//! browser will pick. So the layout estimates widths from Helvetica's
//! advance widths with a margin for wider fonts (DejaVu Sans, the usual
//! fallback on Linux), picks the largest size at which a text fits its box in
//! the allowed number of lines, and past the smallest size puts the rest on
//! the last line: nothing recorded is left out. A line wider than its box
//! (that one, or a single long word) carries `textLength`, which makes the
//! renderer squeeze it in. Lines that fit get no
//! `textLength`: it sets the exact length, so it would also stretch every
//! line set in a font narrower than the estimate.
//!
//! # The QR code
//!
//! The payload is opaque here (the credential format is defined elsewhere);
//! [`qrcode`] picks the densest mode (alphanumeric for an uppercase payload)
//! and the smallest version. The error correction level is Q, since badges
//! are worn all day, folded and scratched, and Q still fits a 120-character
//! alphanumeric payload in version 7 (45 modules). The symbol is drawn with
//! its 4-module quiet zone in a 42 mm square.

use std::fmt::Write as _;

use qrcode::types::QrError;
use qrcode::{Color, EcLevel, QrCode};

mod fit;
mod qr;
mod text;
use fit::*;
pub(crate) use qr::QrModules;
use text::*;

/// What one badge shows. It borrows from the caller, which owns the register
/// and the credentials; nothing here is validated until rendering, where only
/// the QR payload can be refused (see [`BadgeError`]).
#[derive(Debug, Clone, Copy)]
pub struct BadgeInfo<'a> {
    /// The wearer's identification as the register prints it (a cédula or a
    /// NIT, e.g. `C.C. 79.123.456`); shown as given.
    pub holder_id: &'a str,
    /// The wearer's name: the shareholder, or the agent (apoderado) who
    /// attends for the principals in [`BadgeInfo::represents`].
    pub holder_name: &'a str,
    /// The credential's number within its meeting, which staff read aloud.
    pub credential_id: u32,
    /// The principals (poderdantes) the wearer represents; empty when the
    /// badge is a shareholder's own.
    pub represents: &'a [String],
    /// The meeting's title, printed across the top band.
    pub meeting_title: &'a str,
    /// The credential payload the kiosk reads from the QR code. Opaque here;
    /// about 120 characters of QR alphanumeric text are expected, and
    /// anything that fits [`MAX_QR_MODULES`] per side is accepted (221
    /// alphanumeric characters, or 151 bytes of other text). It is a
    /// credential: it appears only as the QR code, never as printed text nor
    /// in a [`BadgeError`].
    pub qr_text: &'a str,
}

/// Why a badge could not be rendered. Only the QR payload or the caller's
/// PNG scale can be at fault: text of any length is fitted or truncated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BadgeError {
    /// The payload needs a QR symbol larger than [`MAX_QR_MODULES`] per side
    /// at error correction level Q, whose modules would print too small in
    /// the badge's 42 mm square to scan reliably.
    #[error(
        "credential {credential_id}: the QR payload of {chars} characters is too long for a badge \
         (at most {MAX_QR_MODULES} modules per side at error correction level Q)"
    )]
    PayloadTooLong {
        /// The badge's credential number.
        credential_id: u32,
        /// The payload's length in characters.
        chars: usize,
    },
    /// The QR encoder refused the payload for another reason.
    #[error("credential {credential_id}: the QR payload cannot be encoded: {reason}")]
    PayloadNotEncodable {
        /// The badge's credential number.
        credential_id: u32,
        /// The encoder's own words.
        reason: String,
    },
    /// The PDF writer failed (a bug: its input is laid out here).
    #[error("the badges' PDF could not be written: {0}")]
    Pdf(String),
    /// The PNG scale is not between 1 and [`MAX_PNG_SCALE`] pixels per module.
    #[error("a PNG scale of {scale} pixels per module is outside 1..={MAX_PNG_SCALE}")]
    ScaleOutOfRange {
        /// The scale asked for.
        scale: u32,
    },
}

/// The largest QR symbol a badge accepts, in modules per side (version 10).
/// In the badge's 42 mm square that is about 0.65 mm per module with the
/// quiet zone, the smallest we are willing to ask of a kiosk camera.
pub const MAX_QR_MODULES: usize = 57;

/// The PNG scale to use for printing: 8 pixels per module gives a version 7
/// symbol of 424 pixels, about 256 dpi at the 42 mm the PNG declares.
pub const DEFAULT_PNG_SCALE: u32 = 8;

/// The largest PNG scale accepted, which bounds the image at 2,080 pixels a
/// side (65 modules × 32).
pub const MAX_PNG_SCALE: u32 = 32;

/// How many badges an A4 sheet holds: two columns of five.
pub const BADGES_PER_PAGE: usize = A4_SHEET.per_page();

/// The Spanish instruction printed on every badge, and its English gloss.
const INSTRUCTION_ES: &str = "Presente este código en el quiosco de votación";
const INSTRUCTION_EN: &str = "Show this code at the voting kiosk";
const REPRESENTS_LABEL: &str = "En representación de · On behalf of";

const QR_EC_LEVEL: EcLevel = EcLevel::Q;
/// The white margin a QR reader needs around the symbol, in modules.
const QUIET_ZONE_MODULES: usize = 4;

// Badge geometry, in tenths of a millimetre.
/// A badge's width and height.
pub(crate) const BADGE_SIZE: (u32, u32) = (BADGE_WIDTH, BADGE_HEIGHT);
const BADGE_WIDTH: u32 = 856;
const BADGE_HEIGHT: u32 = 540;
const BAND_HEIGHT: u32 = 90;
const SIDE_MARGIN: u32 = 30;
const QR_X: u32 = 20;
const QR_Y: u32 = 105;
/// The QR square, quiet zone included: 42 mm.
const QR_SIDE: u32 = 420;
const COLUMN_X: u32 = QR_X + QR_SIDE + 15;
const COLUMN_WIDTH: u32 = BADGE_WIDTH - SIDE_MARGIN - COLUMN_X;
const COLUMN_TOP: u32 = BAND_HEIGHT + 22;
const COLUMN_BOTTOM: u32 = BADGE_HEIGHT - 22;
const NAME_MAX_HEIGHT: u32 = 150;

/// A sheet of badges on one paper: its size (tenths of a millimetre) and
/// a grid of badges that touch, so one cut separates two of them, centred
/// on the page, with cut marks in the margins.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Sheet {
    pub(crate) width: u32,
    pub(crate) height: u32,
    pub(crate) columns: u32,
    pub(crate) rows: u32,
}

/// A4, 210 × 297 mm: two columns of five.
pub(crate) const A4_SHEET: Sheet = Sheet { width: 2100, height: 2970, columns: 2, rows: 5 };
/// Carta (US letter), 215,9 × 279,4 mm: two columns of four (five rows
/// would leave 4,7 mm margins, inside what most printers cannot print).
pub(crate) const CARTA_SHEET: Sheet = Sheet { width: 2159, height: 2794, columns: 2, rows: 4 };

/// Cut marks stop this far from the grid, so a slightly misaligned cut does
/// not leave a black sliver on a badge.
const CUT_MARK_GAP: u32 = 20;
const CUT_MARK_LENGTH: u32 = 60;
// The cut marks stay on the paper, in the margins around the grid.
const _: () = assert!(A4_SHEET.fits() && CARTA_SHEET.fits());

impl Sheet {
    /// Badges on a page.
    pub(crate) const fn per_page(self) -> usize {
        (self.columns * self.rows) as usize
    }

    const fn grid_x(self) -> u32 {
        (self.width - self.columns * BADGE_WIDTH) / 2
    }

    const fn grid_y(self) -> u32 {
        (self.height - self.rows * BADGE_HEIGHT) / 2
    }

    const fn fits(self) -> bool {
        self.columns * BADGE_WIDTH < self.width
            && self.rows * BADGE_HEIGHT < self.height
            && self.grid_x() > CUT_MARK_GAP + CUT_MARK_LENGTH
            && self.grid_y() > CUT_MARK_GAP + CUT_MARK_LENGTH
    }

    /// The top-left corner of the badge in `slot` (from 0, row by row).
    pub(crate) fn slot(self, slot: usize) -> (u32, u32) {
        let (column, row) = (slot as u32 % self.columns, slot as u32 / self.columns);
        (self.grid_x() + column * BADGE_WIDTH, self.grid_y() + row * BADGE_HEIGHT)
    }

    /// The cut marks as lines `(x1, y1, x2, y2)`: short marks in the page
    /// margins on the line of every cut, outside the grid so they survive
    /// the cutting and guide a guillotine or a ruler.
    pub(crate) fn cut_marks(self) -> Vec<(u32, u32, u32, u32)> {
        let (grid_x, grid_y) = (self.grid_x(), self.grid_y());
        let grid_right = grid_x + self.columns * BADGE_WIDTH;
        let grid_bottom = grid_y + self.rows * BADGE_HEIGHT;
        let mut lines = Vec::new();
        for column in 0..=self.columns {
            let x = grid_x + column * BADGE_WIDTH;
            let (top_end, bottom_start) = (grid_y - CUT_MARK_GAP, grid_bottom + CUT_MARK_GAP);
            lines.push((x, top_end - CUT_MARK_LENGTH, x, top_end));
            lines.push((x, bottom_start, x, bottom_start + CUT_MARK_LENGTH));
        }
        for row in 0..=self.rows {
            let y = grid_y + row * BADGE_HEIGHT;
            let (left_end, right_start) = (grid_x - CUT_MARK_GAP, grid_right + CUT_MARK_GAP);
            lines.push((left_end - CUT_MARK_LENGTH, y, left_end, y));
            lines.push((right_start, y, right_start + CUT_MARK_LENGTH, y));
        }
        lines
    }
}

const FONT_FAMILY: &str = "Helvetica, Arial, 'Liberation Sans', 'DejaVu Sans', sans-serif";
const BAND_FILL: &str = "#1f3a5f";

/// One badge as a standalone SVG document, 85.6 × 54 mm.
pub fn badge_svg(info: &BadgeInfo<'_>) -> Result<String, BadgeError> {
    let qr = QrModules::encode(info)?;
    Ok(format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}", standalone(info, Some(&qr))))
}

/// One badge as an `<svg>` document of its own, 85.6 × 54 mm.
fn standalone(info: &BadgeInfo<'_>, qr: Option<&QrModules>) -> String {
    let mut out = String::with_capacity(16 * 1024);
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="85.6mm" height="54mm" viewBox="0 0 {BADGE_WIDTH} {BADGE_HEIGHT}" font-family="{FONT_FAMILY}">"#
    );
    let _ = writeln!(out, "<title>Escarapela de {}</title>", crate::markup::escape(info.holder_name));
    write_badge_with(&mut out, info, qr, 0, 0);
    out.push_str("</svg>\n");
    out
}

/// The badge's QR code alone as a PNG, quiet zone included, at `scale`
/// pixels per module ([`DEFAULT_PNG_SCALE`] prints well). The image is
/// black and white at one bit per pixel, and declares a physical size of
/// 42 mm, the size of the QR square on the badge.
pub fn badge_png(info: &BadgeInfo<'_>, scale: u32) -> Result<Vec<u8>, BadgeError> {
    if !(1..=MAX_PNG_SCALE).contains(&scale) {
        return Err(BadgeError::ScaleOutOfRange { scale });
    }
    let qr = QrModules::encode(info)?;
    let scale = scale as usize;
    let side = qr.side() * scale;
    let row_bytes = side.div_ceil(8);
    // In a one-bit greyscale PNG a 0 bit is black: start all black and set
    // the light pixels.
    let mut pixels = vec![0_u8; row_bytes * side];
    for y in 0..side {
        for x in 0..side {
            if !qr.is_dark(x / scale, y / scale) {
                pixels[y * row_bytes + x / 8] |= 0x80 >> (x % 8);
            }
        }
    }
    let side = u32::try_from(side).expect("at most 65 modules × 32 pixels");
    let pixels_per_metre = side * 1_000_000 / (QR_SIDE * 100);
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, side, side);
    encoder.set_color(png::ColorType::Grayscale);
    encoder.set_depth(png::BitDepth::One);
    encoder.set_pixel_dims(Some(png::PixelDimensions {
        xppu: pixels_per_metre,
        yppu: pixels_per_metre,
        unit: png::Unit::Meter,
    }));
    // Writing into a Vec cannot fail on I/O, and the header and the data
    // length are computed above: an error here is a bug in this function.
    let mut writer = encoder.write_header().expect("a valid PNG header");
    writer.write_image_data(&pixels).expect("image data of the declared size");
    writer.finish().expect("a complete PNG");
    Ok(bytes)
}

/// A4 sheets of badges, [`BADGES_PER_PAGE`] to a page, each page a
/// standalone SVG document (210 × 297 mm) with cut marks in its margins.
/// No badges give no pages.
pub fn badge_sheet_svg_pages(badges: &[BadgeInfo<'_>]) -> Result<Vec<String>, BadgeError> {
    let codes = encode_all(badges)?;
    let page_count = badges.len().div_ceil(BADGES_PER_PAGE);
    let pages = (0..page_count)
        .map(|page| {
            let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
            write_page(&mut out, badges, &codes, page, page_count);
            out
        })
        .collect();
    Ok(pages)
}

/// A4 sheets of badges as one HTML document to print from a browser: one
/// inline SVG per page, separated by CSS page breaks.
///
/// HTML rather than one SVG because SVG has no pages (the SVG 1.2 page sets
/// were never implemented), while every browser prints HTML with `@page {
/// size: A4; margin: 0 }` at true size, page by page, and to PDF. Print on A4
/// at 100 % ("actual size", not "fit to page"); a note on screen says so.
pub fn badge_sheet_html(badges: &[BadgeInfo<'_>]) -> Result<String, BadgeError> {
    let codes = encode_all(badges)?;
    let page_count = badges.len().div_ceil(BADGES_PER_PAGE);
    let title = match badges.first() {
        Some(first) => format!("Escarapelas — {}", crate::markup::escape(first.meeting_title)),
        None => "Escarapelas".to_string(),
    };
    let mut out = String::with_capacity(page_count * 160 * 1024 + 1024);
    let _ = write!(
        out,
        r#"<!DOCTYPE html>
<html lang="es">
<head>
<meta charset="utf-8"/>
<title>{title}</title>
<style>
@page {{ size: A4 portrait; margin: 0; }}
html, body {{ margin: 0; padding: 0; }}
/* A page box 1 mm shorter than the paper, clipping the empty bottom margin,
   so rounding in the browser never spills a page onto a blank next one. */
.page {{ width: 210mm; height: 296mm; overflow: hidden; break-after: page; page-break-after: always; }}
.page:last-child {{ break-after: auto; page-break-after: auto; }}
.page svg {{ display: block; }}
.note {{ font-family: sans-serif; margin: 4mm; }}
@media screen {{
  body {{ background: #777; }}
  .page {{ background: #fff; margin: 6mm auto; }}
}}
@media print {{ .note {{ display: none; }} }}
</style>
</head>
<body>
<p class="note">Imprima en papel A4 al 100 % (tamaño real, sin ajustar a la página) y corte por las marcas.
<br/>Print on A4 paper at 100% (actual size, not fit to page) and cut along the marks.</p>
"#
    );
    for page in 0..page_count {
        out.push_str("<div class=\"page\">\n");
        write_page(&mut out, badges, &codes, page, page_count);
        out.push_str("</div>\n");
    }
    out.push_str("</body>\n</html>\n");
    Ok(out)
}

fn encode_all(badges: &[BadgeInfo<'_>]) -> Result<Vec<QrModules>, BadgeError> {
    badges.iter().map(QrModules::encode).collect()
}

/// One A4 page of the sheet as an `<svg>` element: the badges of page
/// `page` (counting from 0) and the cut marks.
fn write_page(
    out: &mut String,
    badges: &[BadgeInfo<'_>],
    codes: &[QrModules],
    page: usize,
    page_count: usize,
) {
    let Sheet { width, height, .. } = A4_SHEET;
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">"#
    );
    let _ = writeln!(out, "<title>Escarapelas, página {} de {page_count}</title>", page + 1);
    let _ = writeln!(out, r##"<rect width="{width}" height="{height}" fill="#fff"/>"##);
    out.push_str(r##"<g class="cut-marks" stroke="#000" stroke-width="2">"##);
    out.push('\n');
    for (x1, y1, x2, y2) in A4_SHEET.cut_marks() {
        let _ = writeln!(out, r#"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}"/>"#);
    }
    out.push_str("</g>\n");
    let first = page * BADGES_PER_PAGE;
    let last = (first + BADGES_PER_PAGE).min(badges.len());
    for (slot, index) in (first..last).enumerate() {
        let (x, y) = A4_SHEET.slot(slot);
        write_badge(out, &badges[index], &codes[index], x, y);
    }
    out.push_str("</svg>\n");
}

/// One badge as a nested `<svg>` at (`x`, `y`) of its parent, in badge units.
fn write_badge(out: &mut String, info: &BadgeInfo<'_>, qr: &QrModules, x: u32, y: u32) {
    write_badge_with(out, info, Some(qr), x, y);
}

/// One badge as a standalone SVG document with its QR square left white
/// (`<svg id="qr-slot">`, 42 mm, quiet zone included): what the
/// registration desk's browser prints after drawing the badge's seed
/// itself and writing its QR into the slot (`console.js`), so the seed
/// never reaches the daemon and the badge's layout is still this one.
/// `info.qr_text` is not read.
pub fn badge_svg_frame(info: &BadgeInfo<'_>) -> String {
    standalone(info, None)
}

/// The quiet zone a QR reader needs, in modules: the desk's browser adds
/// it around the symbol it writes into [`badge_svg_frame`]'s slot.
pub const QR_QUIET_ZONE: usize = QUIET_ZONE_MODULES;

/// One thing drawn on a badge, in badge units (tenths of a millimetre)
/// from its top-left corner, in the order drawn: the badge's layout, which
/// the SVG here and the PDF ([`crate::pdf::badges`]) both draw.
pub(crate) enum Mark<'a> {
    /// A filled rectangle.
    Fill { x: u32, y: u32, width: u32, height: u32, colour: &'static str },
    /// The QR code in a square of `side`, quiet zone included; `None`: the
    /// square left white for the desk's browser to draw in.
    Qr { x: u32, y: u32, side: u32, modules: Option<&'a QrModules> },
    /// One line of text from the left end of its baseline. `squeeze_to`:
    /// the estimate finds it wider than its box (one long word), so the
    /// renderer fits it to this width.
    Text {
        x: u32,
        baseline: u32,
        size: u32,
        bold: bool,
        italic: bool,
        colour: &'static str,
        text: String,
        squeeze_to: Option<u32>,
    },
    /// A rectangle's outline, `stroke` wide.
    Outline { x: u32, y: u32, width: u32, height: u32, stroke: u32, colour: &'static str },
}

/// The light grey of the badge's outline.
const OUTLINE: &str = "#b0b0b0";

/// What a badge draws, in order: its layout.
pub(crate) fn marks<'a>(info: &BadgeInfo<'_>, qr: Option<&'a QrModules>) -> Vec<Mark<'a>> {
    let mut marks = vec![
        Mark::Fill { x: 0, y: 0, width: BADGE_WIDTH, height: BADGE_HEIGHT, colour: "#fff" },
        Mark::Fill { x: 0, y: 0, width: BADGE_WIDTH, height: BAND_HEIGHT, colour: BAND_FILL },
        Mark::Qr { x: QR_X, y: QR_Y, side: QR_SIDE, modules: qr },
    ];
    for block in layout_texts(info) {
        block.marks(&mut marks);
    }
    // A hairline just inside the edge: a guide for scissors, and the
    // badge's outline when it is printed on its own.
    marks.push(Mark::Outline {
        x: 1,
        y: 1,
        width: BADGE_WIDTH - 2,
        height: BADGE_HEIGHT - 2,
        stroke: 2,
        colour: OUTLINE,
    });
    marks
}

fn write_badge_with(out: &mut String, info: &BadgeInfo<'_>, qr: Option<&QrModules>, x: u32, y: u32) {
    let _ = writeln!(
        out,
        r#"<svg x="{x}" y="{y}" width="{BADGE_WIDTH}" height="{BADGE_HEIGHT}" viewBox="0 0 {BADGE_WIDTH} {BADGE_HEIGHT}" data-credential="{}">"#,
        info.credential_id
    );
    for mark in marks(info, qr) {
        match mark {
            Mark::Fill { x: 0, y: 0, width, height, colour } => {
                let _ = writeln!(out, r#"<rect width="{width}" height="{height}" fill="{colour}"/>"#);
            }
            Mark::Fill { x, y, width, height, colour } => {
                let _ = writeln!(
                    out,
                    r#"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="{colour}"/>"#
                );
            }
            Mark::Qr { x, y, side, modules: Some(qr) } => {
                let modules = qr.side();
                let _ = writeln!(
                    out,
                    r##"<svg x="{x}" y="{y}" width="{side}" height="{side}" viewBox="0 0 {modules} {modules}" shape-rendering="crispEdges"><rect width="{modules}" height="{modules}" fill="#fff"/><path class="qr-modules" fill="#000" d="{}"/></svg>"##,
                    qr.svg_path()
                );
            }
            Mark::Qr { x, y, side, modules: None } => {
                let _ = writeln!(
                    out,
                    r##"<svg id="qr-slot" x="{x}" y="{y}" width="{side}" height="{side}" viewBox="0 0 1 1" shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path class="qr-modules" fill="#000" d=""/></svg>"##
                );
            }
            Mark::Text { x, baseline, size, bold, italic, colour, text, squeeze_to } => {
                let _ = write!(out, r#"<text x="{x}" y="{baseline}" font-size="{size}" fill="{colour}""#);
                if bold {
                    out.push_str(r#" font-weight="700""#);
                }
                if italic {
                    out.push_str(r#" font-style="italic""#);
                }
                if let Some(width) = squeeze_to {
                    let _ = write!(out, r#" textLength="{width}" lengthAdjust="spacingAndGlyphs""#);
                }
                let _ = writeln!(out, ">{}</text>", crate::markup::escape(&text));
            }
            Mark::Outline { x, y, width, height, stroke, colour } => {
                let _ = writeln!(
                    out,
                    r##"<rect x="{x}" y="{y}" width="{width}" height="{height}" fill="none" stroke="{colour}" stroke-width="{stroke}"/>"##
                );
            }
        }
    }
    out.push_str("</svg>\n");
}

#[cfg(test)]
mod tests;
