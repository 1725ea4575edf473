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
use fit::*;

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
    fn svg_path(&self) -> String {
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

/// How a block of text may be set: the range of sizes (in badge units, so
/// 50 is 5 mm), the most lines, and the look.
struct TextStyle {
    max_size: u32,
    min_size: u32,
    max_lines: usize,
    bold: bool,
    italic: bool,
    fill: &'static str,
}

const TITLE_STYLE: TextStyle =
    TextStyle { max_size: 30, min_size: 20, max_lines: 2, bold: true, italic: false, fill: "#fff" };
const NAME_STYLE: TextStyle =
    TextStyle { max_size: 56, min_size: 28, max_lines: 3, bold: true, italic: false, fill: "#111" };
const HOLDER_ID_STYLE: TextStyle =
    TextStyle { max_size: 36, min_size: 22, max_lines: 1, bold: false, italic: false, fill: "#222" };
const CREDENTIAL_STYLE: TextStyle =
    TextStyle { max_size: 30, min_size: 22, max_lines: 1, bold: true, italic: false, fill: BAND_FILL };
const REPRESENTS_LABEL_STYLE: TextStyle =
    TextStyle { max_size: 18, min_size: 14, max_lines: 1, bold: false, italic: true, fill: "#555" };
const REPRESENTS_STYLE: TextStyle =
    TextStyle { max_size: 24, min_size: 18, max_lines: 3, bold: false, italic: false, fill: "#222" };
const INSTRUCTION_ES_STYLE: TextStyle =
    TextStyle { max_size: 24, min_size: 18, max_lines: 2, bold: true, italic: false, fill: "#111" };
const INSTRUCTION_EN_STYLE: TextStyle =
    TextStyle { max_size: 20, min_size: 16, max_lines: 2, bold: false, italic: true, fill: "#555" };

/// A block of text placed on the badge: its box and its lines.
struct TextBlock {
    x: u32,
    top: u32,
    width: u32,
    style: &'static TextStyle,
    fitted: Fitted,
}

impl TextBlock {
    fn new(
        x: u32,
        top: u32,
        width: u32,
        max_height: u32,
        style: &'static TextStyle,
        text: &str,
    ) -> TextBlock {
        TextBlock { x, top, width, style, fitted: fit_or_truncate(text, style, width, max_height) }
    }

    fn bottom(&self) -> u32 {
        self.top + self.fitted.height()
    }

    fn marks(&self, marks: &mut Vec<Mark<'_>>) {
        let TextBlock { x, top, width, style, ref fitted } = *self;
        let size = fitted.size;
        for (index, line) in fitted.lines.iter().enumerate() {
            marks.push(Mark::Text {
                x,
                baseline: top + size * 4 / 5 + index as u32 * line_height(size),
                size,
                bold: style.bold,
                italic: style.italic,
                colour: style.fill,
                text: line.clone(),
                squeeze_to: (estimated_width(line, size, style.bold) > width).then_some(width),
            });
        }
    }
}

/// Where every text of a badge goes. The instructions are anchored to the
/// bottom of the right-hand column and the rest flows down from its top, so
/// a long name takes room from the list of principals, never from the
/// instructions.
fn layout_texts(info: &BadgeInfo<'_>) -> Vec<TextBlock> {
    let title_width = BADGE_WIDTH - 2 * SIDE_MARGIN;
    let mut title =
        TextBlock::new(SIDE_MARGIN, 0, title_width, BAND_HEIGHT - 16, &TITLE_STYLE, info.meeting_title);
    title.top = (BAND_HEIGHT - title.fitted.height()) / 2;

    let mut english = TextBlock::new(COLUMN_X, 0, COLUMN_WIDTH, 50, &INSTRUCTION_EN_STYLE, INSTRUCTION_EN);
    english.top = COLUMN_BOTTOM - english.fitted.height();
    let mut spanish = TextBlock::new(COLUMN_X, 0, COLUMN_WIDTH, 60, &INSTRUCTION_ES_STYLE, INSTRUCTION_ES);
    spanish.top = english.top - 6 - spanish.fitted.height();
    let flow_bottom = spanish.top - 12;

    let name =
        TextBlock::new(COLUMN_X, COLUMN_TOP, COLUMN_WIDTH, NAME_MAX_HEIGHT, &NAME_STYLE, info.holder_name);
    let holder_id =
        TextBlock::new(COLUMN_X, name.bottom() + 12, COLUMN_WIDTH, 40, &HOLDER_ID_STYLE, info.holder_id);
    let credential_text = format!("Credencial N.º {}", info.credential_id);
    let credential = TextBlock::new(
        COLUMN_X,
        holder_id.bottom() + 14,
        COLUMN_WIDTH,
        40,
        &CREDENTIAL_STYLE,
        &credential_text,
    );
    let mut blocks = vec![title, name, holder_id];
    let mut flow = credential.bottom() + 16;
    blocks.push(credential);

    if !info.represents.is_empty() {
        let label =
            TextBlock::new(COLUMN_X, flow, COLUMN_WIDTH, 24, &REPRESENTS_LABEL_STYLE, REPRESENTS_LABEL);
        flow = label.bottom() + 6;
        blocks.push(label);
        let room = flow_bottom.saturating_sub(flow);
        let fitted = fit_principals(info.represents, &REPRESENTS_STYLE, COLUMN_WIDTH, room);
        blocks.push(TextBlock {
            x: COLUMN_X,
            top: flow,
            width: COLUMN_WIDTH,
            style: &REPRESENTS_STYLE,
            fitted,
        });
    }
    blocks.push(spanish);
    blocks.push(english);
    blocks
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A payload of the expected shape: 120 characters of the QR
    /// alphanumeric set (digits, capitals, space and `$%*+-./:`).
    const LONG_PAYLOAD: &str = "ASM1:CRED:0042:K7Q2M9X4B8T1R5W3Z6P0N2D4F6H8J1L3V5C7Y9G0S2E4U6A8Q1W3E5R7T9Y0U2I4O6P8A1S3D5F7G9H0J2K4L6Z8X1C3V5B7N9M0Q2W";

    fn principals() -> Vec<String> {
        vec!["Inversiones El Roble S.A.S.".to_string(), "María Fernanda Ospina Uribe".to_string()]
    }

    fn badge<'a>(
        name: &'a str,
        credential_id: u32,
        qr_text: &'a str,
        represents: &'a [String],
    ) -> BadgeInfo<'a> {
        BadgeInfo {
            holder_id: "C.C. 79.123.456",
            holder_name: name,
            credential_id,
            represents,
            meeting_title: "Asamblea General Ordinaria de Accionistas 2025",
            qr_text,
        }
    }

    /// Decodes a PNG with the `png` crate and reads its QR code with `rqrr`:
    /// the text and the error correction level (rqrr gives the raw format
    /// bits: 0 is M, 1 L, 2 H, 3 Q).
    fn read_png_qr(bytes: &[u8]) -> (String, u16) {
        let mut decoder = png::Decoder::new(std::io::Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG header");
        let mut buffer = vec![0; reader.output_buffer_size().expect("a bounded image")];
        let frame = reader.next_frame(&mut buffer).expect("a PNG frame");
        assert_eq!((frame.color_type, frame.bit_depth), (png::ColorType::Grayscale, png::BitDepth::Eight));
        let (width, height) = (frame.width as usize, frame.height as usize);
        let mut image = rqrr::PreparedImage::prepare_from_greyscale(width, height, |x, y| {
            buffer[y * frame.line_size + x]
        });
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1, "one QR code in the image");
        let (meta, text) = grids[0].decode().expect("a readable QR code");
        (text, meta.ecc_level)
    }

    #[test]
    fn png_round_trips_through_a_qr_reader() {
        for payload in [LONG_PAYLOAD, "A", "ASM1:CRED:7:$%*+-./: 0123456789"] {
            let bytes = badge_png(&badge("Ana", 7, payload, &[]), DEFAULT_PNG_SCALE).unwrap();
            let (text, ecc_level) = read_png_qr(&bytes);
            assert_eq!(text, payload);
            assert_eq!(ecc_level, 3, "error correction level Q");
        }
    }

    #[test]
    fn png_round_trips_at_the_smallest_scale() {
        let bytes = badge_png(&badge("Ana", 7, LONG_PAYLOAD, &[]), 1).unwrap();
        assert_eq!(read_png_qr(&bytes).0, LONG_PAYLOAD);
    }

    #[test]
    fn png_has_the_quiet_zone_the_scale_and_a_print_size() {
        let bytes = badge_png(&badge("Ana", 7, LONG_PAYLOAD, &[]), 8).unwrap();
        let reader = png::Decoder::new(std::io::Cursor::new(&bytes[..])).read_info().unwrap();
        let info = reader.info();
        // 120 alphanumeric characters at level Q: version 7, 45 modules,
        // plus 4 of quiet zone on each side, 8 pixels each.
        assert_eq!((info.width, info.height), (424, 424));
        assert_eq!((info.color_type, info.bit_depth), (png::ColorType::Grayscale, png::BitDepth::One));
        let dims = info.pixel_dims.expect("a physical size");
        assert_eq!((dims.xppu, dims.unit), (424 * 1000 / 42, png::Unit::Meter));
    }

    #[test]
    fn png_scale_out_of_range_is_refused() {
        let info = badge("Ana", 7, "A", &[]);
        assert_eq!(badge_png(&info, 0), Err(BadgeError::ScaleOutOfRange { scale: 0 }));
        assert_eq!(
            badge_png(&info, MAX_PNG_SCALE + 1),
            Err(BadgeError::ScaleOutOfRange { scale: MAX_PNG_SCALE + 1 })
        );
    }

    #[test]
    fn a_payload_too_big_for_a_badge_is_refused() {
        // Version 10 at level Q holds 154 data codewords, 1,232 bits: 221
        // alphanumeric characters take 4 + 11 + 110 × 11 + 6 = 1,231 of
        // them, a 222nd makes it 1,236 and needs version 11.
        let payload = "A".repeat(222);
        let error = BadgeError::PayloadTooLong { credential_id: 9, chars: 222 };
        assert_eq!(badge_svg(&badge("Ana", 9, &payload, &[])), Err(error.clone()));
        assert_eq!(badge_png(&badge("Ana", 9, &payload, &[]), 8), Err(error.clone()));
        let ok = badge("Ana", 1, "A", &[]);
        assert_eq!(badge_sheet_html(&[ok, badge("Ana", 9, &payload, &[])]), Err(error));
        let svg = badge_svg(&badge("Ana", 9, &"A".repeat(221), &[])).unwrap();
        assert!(
            svg.contains(r#"viewBox="0 0 65 65" shape-rendering="crispEdges""#),
            "57 modules and the quiet zone"
        );
    }

    /// Reads the QR modules back from a badge's SVG path, draws them at 4
    /// pixels per module and reads the code with `rqrr`: the printed badge
    /// carries the payload, not only the PNG.
    fn read_svg_qr(svg: &str) -> String {
        let viewbox_at = svg.find("shape-rendering=\"crispEdges\"").expect("the QR square");
        let viewbox = &svg[..viewbox_at];
        let viewbox = &viewbox[viewbox.rfind("viewBox=\"0 0 ").unwrap() + 13..];
        let side: usize = viewbox.split(' ').next().unwrap().parse().unwrap();
        let d_at = svg.find(r##"class="qr-modules" fill="#000" d=""##).unwrap() + 34;
        let d = &svg[d_at..d_at + svg[d_at..].find('"').unwrap()];
        let mut dark = vec![false; side * side];
        for run in d.split('M').filter(|run| !run.is_empty()) {
            // `{x} {y}h{n}v1h-{n}z`
            let (x, rest) = run.split_once(' ').unwrap();
            let (y, rest) = rest.split_once('h').unwrap();
            let (n, _) = rest.split_once('v').unwrap();
            let (x, y, n): (usize, usize, usize) =
                (x.parse().unwrap(), y.parse().unwrap(), n.parse().unwrap());
            for module in &mut dark[y * side + x..y * side + x + n] {
                *module = true;
            }
        }
        let mut image =
            rqrr::PreparedImage::prepare_from_bitmap(side * 4, side * 4, |x, y| dark[(y / 4) * side + x / 4]);
        let grids = image.detect_grids();
        assert_eq!(grids.len(), 1);
        grids[0].decode().expect("a readable QR code").1
    }

    #[test]
    fn svg_qr_round_trips_through_a_qr_reader() {
        let svg = badge_svg(&badge("Ana", 7, LONG_PAYLOAD, &[])).unwrap();
        assert_eq!(read_svg_qr(&svg), LONG_PAYLOAD);
    }

    fn check_escape(input: &str, expected: &str) {
        assert_eq!(crate::markup::escape(input), expected);
    }

    #[test]
    fn escaping() {
        check_escape("Pérez & Hijos <S.A.>", "Pérez &amp; Hijos &lt;S.A.&gt;");
        check_escape(r#"O'Neil "Ltda""#, "O&apos;Neil &quot;Ltda&quot;");
        check_escape("a\u{0}b\u{1b}c\u{FFFF}", "a\u{FFFD}b\u{FFFD}c\u{FFFD}");
        check_escape("tab\there", "tab\there");
    }

    #[test]
    fn every_text_of_the_badge_is_escaped() {
        let represents = vec!["López & Cía <Ltda>".to_string()];
        let info = BadgeInfo {
            holder_id: "NIT <900.123.456-7>",
            holder_name: "Pérez & Hijos <S.A.>",
            credential_id: 12,
            represents: &represents,
            meeting_title: "Asamblea \"extraordinaria\" & <urgente>",
            qr_text: "A",
        };
        let svg = badge_svg(&info).unwrap();
        assert_well_formed(&svg);
        assert!(svg.contains("<title>Escarapela de Pérez &amp; Hijos &lt;S.A.&gt;</title>"));
        for escaped in
            ["&lt;S.A.&gt;", "NIT &lt;900.123.456-7&gt;", "&lt;Ltda&gt;", "&quot;extraordinaria&quot;"]
        {
            assert!(svg.contains(escaped), "{escaped} in {svg}");
        }
        for raw in ["<S.A.>", "<900", "<Ltda>", "<urgente>", "& ", "\"extraordinaria"] {
            assert!(!svg.contains(raw), "raw {raw:?} in the SVG");
        }
        let html = badge_sheet_html(&[info]).unwrap();
        assert!(html.contains(
            "<title>Escarapelas — Asamblea &quot;extraordinaria&quot; &amp; &lt;urgente&gt;</title>"
        ));
        assert_well_formed(&html);
    }

    /// A small well-formedness check, enough for what this module writes:
    /// tags nest and close, attributes are quoted, every `&` starts an
    /// entity, no `<` or `>` appears in text, and there is one root element.
    fn assert_well_formed(document: &str) {
        let mut open: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = document;
        while let Some(at) = rest.find(['<', '&', '>']) {
            let (text, tail) = rest.split_at(at);
            assert!(!text.contains(['<', '>']), "stray angle bracket before {tail:.40}");
            if tail.starts_with('>') {
                panic!("a `>` in text at {tail:.40}");
            }
            if tail.starts_with('&') {
                let entity = &tail[1..tail.find(';').expect("an entity ends with `;`")];
                assert!(
                    ["amp", "lt", "gt", "quot", "apos"].contains(&entity),
                    "unknown entity &{entity}; at {tail:.40}"
                );
                rest = &tail[entity.len() + 2..];
                continue;
            }
            if let Some(declaration) = tail.strip_prefix("<?").or_else(|| tail.strip_prefix("<!")) {
                rest = &declaration[declaration.find('>').unwrap() + 1..];
                continue;
            }
            // A tag: find its end outside quoted attribute values.
            let mut quote = None;
            let end = tail
                .char_indices()
                .skip(1)
                .find(|&(_, c)| match (quote, c) {
                    (None, '"' | '\'') => {
                        quote = Some(c);
                        false
                    }
                    (Some(q), c) if c == q => {
                        quote = None;
                        false
                    }
                    (Some(_), '<') => panic!("a `<` inside an attribute at {tail:.60}"),
                    (None, '>') => true,
                    _ => false,
                })
                .expect("a tag ends with `>`")
                .0;
            let tag = &tail[1..end];
            if let Some(name) = tag.strip_prefix('/') {
                assert_eq!(open.pop(), Some(name.trim()), "closing tag out of order");
            } else {
                let name = tag.split(|c: char| c.is_whitespace() || c == '/').next().unwrap();
                assert!(!name.is_empty(), "a tag without a name at {tail:.40}");
                if open.is_empty() {
                    roots += 1;
                }
                if !tag.ends_with('/') {
                    open.push(name);
                }
            }
            rest = &tail[end + 1..];
        }
        assert!(open.is_empty(), "unclosed tags {open:?}");
        assert_eq!(roots, 1, "one root element");
    }

    #[test]
    fn the_well_formedness_check_can_fail() {
        for broken in
            ["<svg><g></svg>", "<svg>a & b</svg>", "<svg a=\"<\"/>", "<svg/><svg/>", "<svg>1 > 0</svg>"]
        {
            assert!(std::panic::catch_unwind(|| assert_well_formed(broken)).is_err(), "{broken}");
        }
        assert_well_formed("<?xml version=\"1.0\"?><svg a='1'><g/>x &amp; y</svg>");
    }

    #[test]
    fn badge_svg_is_well_formed_and_shows_everything() {
        let represents = principals();
        let svg = badge_svg(&badge("Jorge Ignacio Pérez Montoya", 42, LONG_PAYLOAD, &represents)).unwrap();
        assert_well_formed(&svg);
        assert!(svg.contains(r#"width="85.6mm" height="54mm" viewBox="0 0 856 540""#));
        for shown in [
            "Jorge",
            "C.C. 79.123.456",
            "Credencial N.º 42",
            "En representación de · On behalf of",
            "Inversiones El Roble S.A.S.,",
            "Ospina Uribe",
            "Asamblea General Ordinaria",
            "Presente este código",
            "Show this code at the voting kiosk",
        ] {
            assert!(svg.contains(shown), "{shown:?} missing from the badge");
        }
        // The payload is in the QR code only, never printed as text.
        assert!(!svg.contains("K7Q2M9X4"));
    }

    /// The boxes of a badge's texts: none leaves the badge, none overlaps
    /// another or the QR square, even with every text far too long.
    fn assert_texts_in_place(info: &BadgeInfo<'_>) {
        let blocks = layout_texts(info);
        for (index, block) in blocks.iter().enumerate() {
            assert!(block.x + block.width <= BADGE_WIDTH && block.bottom() <= BADGE_HEIGHT);
            assert!(!block.fitted.lines.is_empty() || block.style.max_size == NAME_STYLE.max_size);
            assert!(block.fitted.lines.len() <= block.style.max_lines);
            let beside_qr = block.x >= QR_X + QR_SIDE || block.bottom() <= QR_Y;
            assert!(beside_qr, "text block {index} over the QR code");
            for other in &blocks[index + 1..] {
                let apart = block.bottom() <= other.top || other.bottom() <= block.top;
                assert!(apart, "text blocks overlap: {:?} and {:?}", block.fitted.lines, other.fitted.lines);
            }
        }
    }

    #[test]
    fn long_texts_stay_in_their_boxes() {
        let many: Vec<String> = (1..=40).map(|i| format!("Sociedad Inversora Número {i} S.A.S.")).collect();
        let long_name =
            "Inversiones y Construcciones Pérez Montoya & Hijos Sociedad por Acciones Simplificada";
        let long_title = "Asamblea General Extraordinaria de Accionistas de la Sociedad Inversiones y \
                          Construcciones del Valle del Cauca S.A., segunda convocatoria por falta de quórum";
        let mut info = badge(long_name, 4_000_000_000, "A", &many);
        info.meeting_title = long_title;
        info.holder_id = "NIT 900.123.456-7 / C.C. 1.020.304.050 de Bogotá D.C.";
        assert_texts_in_place(&info);
        assert_texts_in_place(&badge("Ana", 1, "A", &[]));
        assert_texts_in_place(&badge("", 1, "A", &[]));
        assert_texts_in_place(&badge("Supercalifragilisticoexpialidoso", 1, "A", &principals()));
        let svg = badge_svg(&info).unwrap();
        assert_well_formed(&svg);
        assert!(svg.contains(" más</text>"), "the principals that do not fit are counted: {svg}");
    }

    fn check_fit(text: &str, width: u32, max_height: u32, expected_size: u32, expected_lines: &[&str]) {
        let fitted = fit_or_truncate(text, &NAME_STYLE, width, max_height);
        assert_eq!(
            fitted,
            Fitted { size: expected_size, lines: expected_lines.iter().map(|l| l.to_string()).collect() }
        );
    }

    #[test]
    fn fitting_prefers_the_largest_size_then_wraps_then_truncates() {
        // "Ana" at 56: (667 + 556 + 556) × 56 × 1.25 / 1000 = 124 units.
        check_fit("Ana", COLUMN_WIDTH, NAME_MAX_HEIGHT, 56, &["Ana"]);
        check_fit("Ana   Gómez", COLUMN_WIDTH, NAME_MAX_HEIGHT, 56, &["Ana Gómez"]);
        // "Pérez Montoya" in bold at 44 is 6,725‰ × 1.25 × 44 = 369 units, just
        // under the column's 371; at 45 it would be 378.
        check_fit(
            "Jorge Ignacio Pérez Montoya",
            COLUMN_WIDTH,
            NAME_MAX_HEIGHT,
            44,
            &["Jorge Ignacio", "Pérez Montoya"],
        );
        // At the smallest size three lines are not enough: the third takes
        // the rest, every word of it, to be squeezed.
        let name = "Palabra ".repeat(30);
        let fitted = fit_or_truncate(&name, &NAME_STYLE, COLUMN_WIDTH, NAME_MAX_HEIGHT);
        assert_eq!((fitted.size, fitted.lines.len()), (NAME_STYLE.min_size, 3));
        assert_eq!(fitted.lines.join(" "), name.trim_end(), "every word is on the badge");
        assert!(fitted.lines[..2]
            .iter()
            .all(|line| estimated_width(line, fitted.size, true) <= COLUMN_WIDTH));
        assert!(estimated_width(&fitted.lines[2], fitted.size, true) > COLUMN_WIDTH, "the last is squeezed");
    }

    #[test]
    fn only_a_word_wider_than_its_box_is_squeezed() {
        // Each line's size and the width it is squeezed to, if any.
        let lines = |width: u32, text: &str| {
            let mut marks = Vec::new();
            TextBlock::new(0, 0, width, NAME_MAX_HEIGHT, &NAME_STYLE, text).marks(&mut marks);
            marks
                .into_iter()
                .map(|mark| match mark {
                    Mark::Text { size, squeeze_to, .. } => (size, squeeze_to),
                    _ => unreachable!("a text block marks only text"),
                })
                .collect::<Vec<_>>()
        };
        assert!(lines(200, "Supercalifragilisticoexpialidoso").iter().all(|line| line.1 == Some(200)));
        // "Pérez Montoya" fills the column to within 2 units at size 44.
        assert_eq!(lines(COLUMN_WIDTH, "Jorge Ignacio Pérez Montoya"), [(44, None), (44, None)]);
        assert_eq!(lines(COLUMN_WIDTH, "Ana").iter().filter(|line| line.1.is_some()).count(), 0);
        // The SVG squeezes with textLength.
        let badge = standalone(
            &BadgeInfo {
                holder_id: "C.C. 1",
                holder_name: "Supercalifragilisticoexpialidosamente",
                credential_id: 1,
                represents: &[],
                meeting_title: "Asamblea",
                qr_text: "",
            },
            None,
        );
        assert!(badge.contains(r#"lengthAdjust="spacingAndGlyphs""#), "{badge}");
    }

    #[test]
    fn eleven_badges_make_two_pages() {
        let names: Vec<String> = (1..=11).map(|i| format!("Accionista {i}")).collect();
        let payloads: Vec<String> = (1..=11).map(|i| format!("ASM1:CRED:{i}")).collect();
        let badges: Vec<BadgeInfo<'_>> =
            (0..11).map(|i| badge(&names[i], i as u32 + 1, &payloads[i], &[])).collect();

        let pages = badge_sheet_svg_pages(&badges).unwrap();
        assert_eq!(pages.len(), 2);
        let credentials = |page: &str| -> Vec<u32> {
            page.split("data-credential=\"")
                .skip(1)
                .map(|s| s[..s.find('"').unwrap()].parse().unwrap())
                .collect()
        };
        assert_eq!(credentials(&pages[0]), (1..=10).collect::<Vec<_>>());
        assert_eq!(credentials(&pages[1]), vec![11]);
        for page in &pages {
            assert_well_formed(page);
            assert!(page.contains(r#"width="210mm" height="297mm" viewBox="0 0 2100 2970""#));
            // Three vertical cuts marked top and bottom, six horizontal
            // ones marked left and right.
            let marks = &page[page.find("class=\"cut-marks\"").unwrap()..];
            assert_eq!(marks[..marks.find("</g>").unwrap()].matches("<line").count(), 3 * 2 + 6 * 2);
        }
        assert!(pages[1].contains("página 2 de 2"));

        let html = badge_sheet_html(&badges).unwrap();
        assert_well_formed(&html);
        assert_eq!(html.matches("<div class=\"page\">").count(), 2);
        assert!(html.contains("size: A4 portrait") && html.contains("break-after: page"));
        assert_eq!(credentials(&html), (1..=11).collect::<Vec<_>>());

        assert_eq!(badge_sheet_svg_pages(&badges[..10]).unwrap().len(), 1);
        assert!(badge_sheet_svg_pages(&[]).unwrap().is_empty());
    }

    #[test]
    fn the_grid_and_its_marks_fit_the_page() {
        assert_eq!((A4_SHEET.grid_x(), A4_SHEET.grid_y()), (194, 135));
        assert_eq!((CARTA_SHEET.grid_x(), CARTA_SHEET.grid_y()), (223, 317));
        // The bottom marks end 5.5 mm above the paper's edge, inside the
        // printable area of common printers, and the clipped page box of
        // the HTML (296 mm) still shows them.
        let lowest = |sheet: Sheet| sheet.cut_marks().iter().map(|m| m.1.max(m.3)).max().unwrap();
        assert_eq!(A4_SHEET.height - lowest(A4_SHEET), 55);
        // Every mark on the paper, none over a badge.
        for sheet in [A4_SHEET, CARTA_SHEET] {
            let badges: Vec<(u32, u32)> = (0..sheet.per_page()).map(|slot| sheet.slot(slot)).collect();
            for (x1, y1, x2, y2) in sheet.cut_marks() {
                assert!(x1.max(x2) <= sheet.width && y1.max(y2) <= sheet.height);
                let over = |x: u32, y: u32| {
                    badges
                        .iter()
                        .any(|&(bx, by)| x > bx && x < bx + BADGE_WIDTH && y > by && y < by + BADGE_HEIGHT)
                };
                assert!(!over(x1, y1) && !over(x2, y2), "{sheet:?}: a mark over a badge");
            }
        }
    }
}
