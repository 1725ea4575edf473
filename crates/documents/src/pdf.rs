//! The acta's blocks as a PDF: text, not pictures of text, with its fonts
//! embedded (Liberation Serif, subset by krilla), on Carta or A4, a page
//! number at the foot of every page. krilla writes the PDF; the layout is
//! this module's: words broken into lines by their measured widths
//! (skrifa), a word wider than its line broken between its characters,
//! tables as ruled grids whose rows move whole to the next page (and a
//! heading with the block that follows it). A character Liberation lacks
//! (CJK, Arabic, emoji…) is set in GNU Unifont ([`fonts`]), so every
//! character given is in the PDF, in a font that has it.
//!
//! The badges' PDF ([`badges()`]) draws the badges' own layout
//! ([`crate::badges`]'s marks, in tenths of a millimetre) in Liberation
//! Sans, metric-compatible with the Helvetica the layout measures by: one
//! badge to a card-sized page, or sheets on A4 or Carta with cut marks.
//!
//! All measures are in PDF points (1/72 inch). Floating point stays here,
//! on the page's geometry; no share or vote passes through it, hence the
//! one module of the workspace that allows `clippy::float_arithmetic`.
#![allow(clippy::float_arithmetic)]

mod fonts;
mod letters;
mod qr;

use krilla::geom::PathBuilder;
use krilla::page::PageSettings;
use krilla::paint::Stroke;
use krilla::Document;

use crate::acta::{blocks, ActaSource, Block, Signer};
use crate::badges::{self, BadgeError, BadgeInfo, Mark, QrModules, Sheet};
use fonts::{lines, visual_order, Fonts, Word};
pub use letters::letters;
use qr::{fill_boxes, qr_boxes};

/// The acta's styles, as indices into its [`Fonts`].
const REGULAR: usize = 0;
const BOLD: usize = 1;

/// The acta's fonts: Liberation Serif, regular and bold, and the fallbacks.
fn acta_fonts() -> Result<Fonts, String> {
    Fonts::new(&[fonts::SERIF, fonts::SERIF_BOLD])
}

/// The sheet the acta is printed on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Paper {
    /// Carta (US letter), the Colombian default: 612 × 792 pt.
    Carta,
    /// A4: 595 × 842 pt.
    A4,
}

impl Paper {
    fn size(self) -> (f32, f32) {
        match self {
            Paper::Carta => (612.0, 792.0),
            Paper::A4 => (595.0, 842.0),
        }
    }
}

const MARGIN: f32 = 72.0;
const TEXT: f32 = 11.0;
const CELL: f32 = 9.5;
const LEADING: f32 = 1.3;
const PAD: f32 = 3.0;
/// The room above each signature line for a hand to sign in: about 2 cm.
const SIGNING_ROOM: f32 = 56.0;

fn words(text: &str, style: usize) -> Vec<Word> {
    text.split_whitespace().map(|w| (w.to_string(), style)).collect()
}

/// The pages being laid out: every page's drawing instructions, then drawn.
struct Layout {
    paper: (f32, f32),
    pages: Vec<Vec<Draw>>,
    y: f32,
}

enum Draw {
    Text {
        x: f32,
        y: f32,
        size: f32,
        style: usize,
        text: String,
    },
    Line {
        from: (f32, f32),
        to: (f32, f32),
    },
    /// Black rectangles (x, y, width, height) filled as one path: a QR's
    /// modules, without seams between them.
    Boxes(Vec<(f32, f32, f32, f32)>),
}

impl Layout {
    fn bottom(&self) -> f32 {
        self.paper.1 - MARGIN
    }

    fn width(&self) -> f32 {
        self.paper.0 - 2.0 * MARGIN
    }

    /// Room for `height` more on this page, or a new page: whether one
    /// was begun.
    fn room(&mut self, height: f32) -> bool {
        let full = self.y + height > self.bottom() && self.y > MARGIN;
        if full {
            self.pages.push(Vec::new());
            self.y = MARGIN;
        }
        full
    }

    fn draw(&mut self, draw: Draw) {
        self.pages.last_mut().expect("a page").push(draw);
    }

    /// A paragraph of words, at `size`, centred or not. A run of
    /// right-to-left words is placed right to left.
    fn paragraph(&mut self, words: &[Word], size: f32, centred: bool, fonts: &Fonts) {
        let width = self.width();
        let space = fonts.width(REGULAR, " ", size);
        for line in lines(words, width, size, fonts) {
            let height = size * LEADING;
            self.room(height);
            let line_width: f32 = line.iter().map(|(w, style)| fonts.width(*style, w, size)).sum::<f32>()
                + space * line.len().saturating_sub(1) as f32;
            let mut x = if centred { MARGIN + (width - line_width) / 2.0 } else { MARGIN };
            let baseline = self.y + size;
            for i in visual_order(&line) {
                let (word, style) = &line[i];
                let w = fonts.width(*style, word, size);
                self.draw(Draw::Text { x, y: baseline, size, style: *style, text: word.clone() });
                x += w + space;
            }
            self.y += height;
        }
    }

    /// A ruled table: each column as wide as its content asks, shared out
    /// over the text width; the heading row bold and repeated on every
    /// page the table reaches; every row kept whole on one page; figures
    /// set flush right.
    fn table(&mut self, header: &[String], rows: &[Vec<String>], fonts: &Fonts) {
        let widths = columns(self.width(), header, rows, fonts);
        let figures = figure_columns(header, rows);
        let heading = Row::new(header, true, &widths, &figures, fonts);
        // A short table whole on one page; a longer one's heading and
        // first row together.
        let first = rows.first().map(|r| Row::new(r, false, &widths, &figures, fonts));
        self.room(self.table_start_height(header, rows, fonts));
        self.row(&heading, &widths);
        for (i, row) in rows.iter().enumerate() {
            let row = match (i, &first) {
                (0, Some(_)) => first.clone().expect("the first row"),
                _ => Row::new(row, false, &widths, &figures, fonts),
            };
            if self.room(row.height) {
                self.row(&heading, &widths);
            }
            self.row(&row, &widths);
        }
        self.y += TEXT * 0.5;
    }

    /// The signatures, two abreast: room to sign by hand ([`SIGNING_ROOM`]),
    /// a line to sign on, the name (or «Nombre:» to write it) and the
    /// capacity under it; each pair kept whole on one page.
    fn signatures(&mut self, signers: &[Signer], fonts: &Fonts) {
        let gap = 36.0;
        let column = (self.width() - gap) / 2.0;
        for pair in signers.chunks(2) {
            let count = |s: &Signer| {
                let name = s.name.as_deref().unwrap_or("Nombre:");
                lines(&words(name, BOLD), column, TEXT, fonts).len()
                    + lines(&words(&s.capacity, REGULAR), column, TEXT, fonts).len()
            };
            let tallest = pair.iter().map(count).max().unwrap_or(2);
            self.room(SIGNING_ROOM + tallest as f32 * TEXT * LEADING + TEXT);
            let top = self.y + SIGNING_ROOM;
            for (n, signer) in pair.iter().enumerate() {
                let left = MARGIN + n as f32 * (column + gap);
                self.draw(Draw::Line { from: (left, top), to: (left + column, top) });
                let mut y = top + 2.0;
                let name = signer.name.as_deref().unwrap_or("Nombre:");
                for (text, style) in [(name, BOLD), (signer.capacity.as_str(), REGULAR)] {
                    for line in lines(&words(text, style), column, TEXT, fonts) {
                        let text = line.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ");
                        self.draw(Draw::Text { x: left, y: y + TEXT, size: TEXT, style, text });
                        y += TEXT * LEADING;
                    }
                }
            }
            self.y = top + tallest as f32 * TEXT * LEADING + TEXT;
        }
    }

    /// What [`Layout::table`] keeps together at its start: a short table
    /// whole, a longer one's heading and first row.
    fn table_start_height(&self, header: &[String], rows: &[Vec<String>], fonts: &Fonts) -> f32 {
        if rows.len() <= SHORT_TABLE {
            return self.table_height(header, rows, fonts);
        }
        let widths = columns(self.width(), header, rows, fonts);
        let figures = figure_columns(header, rows);
        let heading = Row::new(header, true, &widths, &figures, fonts).height;
        heading + rows.first().map_or(0.0, |r| Row::new(r, false, &widths, &figures, fonts).height)
    }

    /// The height of a whole table as [`Layout::table`] draws it on one page.
    fn table_height(&self, header: &[String], rows: &[Vec<String>], fonts: &Fonts) -> f32 {
        let widths = columns(self.width(), header, rows, fonts);
        let figures = figure_columns(header, rows);
        std::iter::once(Row::new(header, true, &widths, &figures, fonts).height)
            .chain(rows.iter().map(|r| Row::new(r, false, &widths, &figures, fonts).height))
            .sum()
    }

    /// The height of a paragraph as [`Layout::paragraph`] draws it.
    fn paragraph_height(&self, words: &[Word], size: f32, fonts: &Fonts) -> f32 {
        lines(words, self.width(), size, fonts).len() as f32 * size * LEADING
    }

    /// What a heading keeps with it on its page: the paragraphs after it
    /// and a short table that follows them (an item's rule and its
    /// figures), or, when that would not fit on a page, three lines.
    fn kept_after_heading(&self, after: &[Block], fonts: &Fonts) -> f32 {
        let mut kept = 0.0;
        for block in after {
            match block {
                Block::Text(text) => kept += self.paragraph_height(&words(text, REGULAR), TEXT, fonts),
                Block::Lead(bold, text) => {
                    let mut all = words(bold, BOLD);
                    all.extend(words(text, REGULAR));
                    kept += self.paragraph_height(&all, TEXT, fonts);
                }
                Block::Table(header, rows) if rows.len() <= SHORT_TABLE => {
                    kept += self.table_height(header, rows, fonts);
                    break;
                }
                _ => break,
            }
        }
        let page = self.bottom() - MARGIN;
        if kept > 0.0 && kept < page * 0.8 {
            kept
        } else {
            3.0 * TEXT * LEADING
        }
    }

    /// One table row drawn at the current height, ruled on every side.
    fn row(&mut self, row: &Row, widths: &[f32]) {
        let top = self.y;
        let right = MARGIN + widths.iter().sum::<f32>();
        self.draw(Draw::Line { from: (MARGIN, top), to: (right, top) });
        self.draw(Draw::Line { from: (MARGIN, top + row.height), to: (right, top + row.height) });
        let mut x = MARGIN;
        self.draw(Draw::Line { from: (x, top), to: (x, top + row.height) });
        for (cell, width) in row.cells.iter().zip(widths) {
            for (l, (text, text_width)) in cell.lines.iter().enumerate() {
                let baseline = top + PAD + CELL + l as f32 * CELL * LEADING;
                let left = if cell.figure { x + width - PAD - text_width } else { x + PAD };
                self.draw(Draw::Text {
                    x: left,
                    y: baseline,
                    size: CELL,
                    style: usize::from(row.bold),
                    text: text.clone(),
                });
            }
            x += width;
            self.draw(Draw::Line { from: (x, top), to: (x, top + row.height) });
        }
        self.y += row.height;
    }
}

/// A table of at most this many rows is kept whole on one page.
pub(crate) const SHORT_TABLE: usize = 10;

/// Which columns hold figures: every cell that is not empty is one. Such
/// a column sets its heading flush right too.
pub(crate) fn figure_columns(header: &[String], rows: &[Vec<String>]) -> Vec<bool> {
    (0..header.len())
        .map(|c| {
            let mut cells = rows.iter().filter_map(|r| r.get(c)).filter(|t| !t.is_empty()).peekable();
            cells.peek().is_some() && cells.all(|t| is_figure(t))
        })
        .collect()
}

/// A table row broken into lines, measured.
#[derive(Clone)]
struct Row {
    bold: bool,
    height: f32,
    cells: Vec<Cell>,
}

#[derive(Clone)]
struct Cell {
    /// Each line and its width.
    lines: Vec<(String, f32)>,
    /// A figure ("1.234.567", "78,61 %") or a figures' heading: set
    /// flush right.
    figure: bool,
}

impl Row {
    fn new(cells: &[String], bold: bool, widths: &[f32], figures: &[bool], fonts: &Fonts) -> Row {
        let style = usize::from(bold);
        let cells: Vec<Cell> = cells
            .iter()
            .zip(widths)
            .zip(figures)
            .map(|((text, width), figure)| Cell {
                lines: lines(&words(text, style), width - 2.0 * PAD, CELL, fonts)
                    .into_iter()
                    .map(|line| {
                        let text = line.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ");
                        let width = fonts.width(style, &text, CELL);
                        (text, width)
                    })
                    .collect(),
                figure: *figure && (bold || is_figure(text)),
            })
            .collect();
        let tallest = cells.iter().map(|c| c.lines.len()).max().unwrap_or(1).max(1);
        Row { bold, height: tallest as f32 * CELL * LEADING + 2.0 * PAD, cells }
    }
}

/// Whether a cell holds a figure: digits with Colombian separators, maybe
/// a percentage.
fn is_figure(text: &str) -> bool {
    text.chars().any(|c| c.is_ascii_digit())
        && text.chars().all(|c| c.is_ascii_digit() || matches!(c, '.' | ',' | '%' | ' ' | '\u{a0}' | '-'))
}

/// Column widths over `total`: each column's share follows the width its
/// widest cell would take on one line (at most a third of the text width),
/// and is never narrower than its longest word, unless that word is wider
/// than a third of the text width: such a word is broken in its cell
/// ([`lines`]), never run over the next column.
fn columns(total: f32, header: &[String], rows: &[Vec<String>], fonts: &Fonts) -> Vec<f32> {
    let n = header.len().max(1);
    let mut natural = vec![0.0_f32; n];
    let mut word = vec![0.0_f32; n];
    let all = std::iter::once((true, header)).chain(rows.iter().map(|r| (false, r.as_slice())));
    for (bold, row) in all {
        let style = usize::from(bold);
        for (c, cell) in row.iter().enumerate().take(n) {
            natural[c] = natural[c].max(fonts.width(style, cell, CELL) + 2.0 * PAD);
            let longest = cell.split_whitespace().map(|w| fonts.width(style, w, CELL)).fold(0.0, f32::max);
            word[c] = word[c].max(longest + 2.0 * PAD);
        }
    }
    let third = total / 3.0;
    let least: Vec<f32> = word.iter().map(|w| w.min(third)).collect();
    let wanted: Vec<f32> = natural.iter().zip(&least).map(|(n, w)| n.min(third).max(*w)).collect();
    let (sum, floor): (f32, f32) = (wanted.iter().sum(), least.iter().sum());
    if sum <= 0.0 {
        return vec![total / n as f32; n];
    }
    if floor >= total || sum <= floor {
        return wanted.iter().map(|w| w / sum * total).collect();
    }
    // Every column keeps its longest word whole (a figure, a heading's
    // word) when they fit together; the room left goes to the columns
    // whose text wraps, in proportion to the width they would take on one
    // line.
    let spare = total - floor;
    least.iter().zip(&wanted).map(|(l, w)| l + (w - l) / (sum - floor) * spare).collect()
}

/// Each table's column widths among `blocks`, in order, as the PDF sets
/// them over the 468 points (6,5 inches) between a Carta page's margins,
/// in twentieths of a point: the DOCX gives Word the same grids. The
/// fonts are read once for all of them.
pub(crate) fn table_grids_twips(blocks: &[Block]) -> Result<Vec<Vec<usize>>, String> {
    let fonts = acta_fonts()?;
    Ok(blocks
        .iter()
        .filter_map(|block| match block {
            Block::Table(header, rows) => Some(
                columns(468.0, header, rows, &fonts)
                    .iter()
                    .map(|points| (points * 20.0).round() as usize)
                    .collect(),
            ),
            _ => None,
        })
        .collect())
}

/// The acta draft as a PDF on `paper` (Carta by default in Colombia): the
/// same blocks as the DOCX ([`crate::docx::acta`]), its fonts embedded.
pub fn acta(source: &ActaSource<'_>, paper: Paper) -> Result<Vec<u8>, String> {
    render(&blocks(source), paper)
}

/// `blocks` as a PDF on `paper`.
fn render(blocks: &[Block], paper: Paper) -> Result<Vec<u8>, String> {
    let fonts = acta_fonts()?;
    let layout = lay_out(blocks, paper, &fonts);
    draw(blocks, layout, &fonts)
}

/// `blocks` laid out on pages of `paper`: what each page draws, where.
fn lay_out(blocks: &[Block], paper: Paper, fonts: &Fonts) -> Layout {
    let mut layout = Layout { paper: paper.size(), pages: vec![Vec::new()], y: MARGIN };
    layout.blocks(blocks, fonts);
    layout
}

impl Layout {
    /// `blocks` laid out from the current height on.
    fn blocks(&mut self, blocks: &[Block], fonts: &Fonts) {
        let layout = self;
        for (i, block) in blocks.iter().enumerate() {
            match block {
                Block::Title(text) => layout.paragraph(&words(text, BOLD), 15.0, true, fonts),
                Block::Centered(text) => layout.paragraph(&words(text, REGULAR), TEXT, true, fonts),
                Block::Heading(level, text) => {
                    let size = if *level == 1 { 13.0 } else { 11.5 };
                    // A heading keeps company: room for it and what follows it
                    // (its paragraphs and a short table), or a few lines.
                    let kept = layout.kept_after_heading(&blocks[i + 1..], fonts);
                    layout.y += size * 0.6;
                    layout.room(size * LEADING + kept);
                    layout.paragraph(&words(text, BOLD), size, false, fonts);
                }
                Block::Text(text) => {
                    // A paragraph that introduces a table stays on the page of
                    // the table's start.
                    if let Some(Block::Table(header, rows)) = blocks.get(i + 1) {
                        let own = layout.paragraph_height(&words(text, REGULAR), TEXT, fonts);
                        let kept = own + layout.table_start_height(header, rows, fonts);
                        if kept < (layout.bottom() - MARGIN) * 0.8 {
                            layout.room(kept);
                        }
                    }
                    layout.paragraph(&words(text, REGULAR), TEXT, false, fonts)
                }
                Block::Lead(bold, text) => {
                    let mut all = words(bold, BOLD);
                    all.extend(words(text, REGULAR));
                    layout.paragraph(&all, TEXT, false, fonts);
                }
                Block::Table(header, rows) => layout.table(header, rows, fonts),
                Block::Signatures(signers) => layout.signatures(signers, fonts),
            }
        }
    }

    /// «Página n de total» at the foot of the pages from `first` on,
    /// counted from it.
    fn number_pages(&mut self, first: usize, fonts: &Fonts) {
        let (width, height) = self.paper;
        let total = self.pages.len() - first;
        for (n, page) in self.pages[first..].iter_mut().enumerate() {
            let text = format!("Página {} de {total}", n + 1);
            let x = (width - fonts.width(REGULAR, &text, 9.0)) / 2.0;
            page.push(Draw::Text { x, y: height - MARGIN / 2.0, size: 9.0, style: REGULAR, text });
        }
    }
}

/// The pages of `layout` drawn as a PDF, with the title of `blocks`.
fn draw(blocks: &[Block], mut layout: Layout, fonts: &Fonts) -> Result<Vec<u8>, String> {
    // The title and language a reader shows; no dates, so the same
    // bundle gives the same bytes.
    let title = blocks.iter().find_map(|b| match b {
        Block::Title(text) => Some(text.clone()),
        _ => None,
    });
    layout.number_pages(0, fonts);
    write(layout, metadata(title.unwrap_or_else(|| "Acta".into())), fonts)
}

/// The pages of `layout` as a PDF with `metadata`.
fn write(layout: Layout, metadata: krilla::metadata::Metadata, fonts: &Fonts) -> Result<Vec<u8>, String> {
    let mut document = Document::new();
    document.set_metadata(metadata);
    for page_draws in layout.pages {
        let settings = PageSettings::from_wh(layout.paper.0, layout.paper.1).ok_or("a page size")?;
        let mut page = document.start_page_with(settings);
        let mut surface = page.surface();
        for draw in page_draws {
            match draw {
                Draw::Text { x, y, size, style, text } => {
                    fonts.draw(&mut surface, style, (x, y), size, &text)
                }
                Draw::Line { from, to } => {
                    let mut path = PathBuilder::new();
                    path.move_to(from.0, from.1);
                    path.line_to(to.0, to.1);
                    if let Some(path) = path.finish() {
                        surface.set_stroke(Some(Stroke { width: 0.5, ..Stroke::default() }));
                        surface.draw_path(&path);
                        surface.set_stroke(None);
                    }
                }
                Draw::Boxes(boxes) => fill_boxes(&mut surface, &boxes),
            }
        }
        surface.finish();
        page.finish();
    }
    document.finish().map_err(|e| format!("{e:?}"))
}

/// A document's metadata: its title, Spanish of Colombia, and asamblea as
/// its maker; no dates.
fn metadata(title: String) -> krilla::metadata::Metadata {
    krilla::metadata::Metadata::new()
        .title(title)
        .language("es-CO".into())
        .creator(format!("asamblea {}", env!("CARGO_PKG_VERSION")))
}

/// How the badges' PDF is laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BadgePrint {
    /// Each badge on a page of its own size, 85,6 × 54 mm: for a card
    /// printer, or the arriving attendee's badge at once.
    One,
    /// Sheets on this paper with cut marks: ten badges to an A4 page,
    /// eight to a Carta one.
    Sheets(Paper),
}

/// Points in a tenth of a millimetre, the badges' unit.
const PT_PER_UNIT: f32 = 72.0 / 254.0;

/// The badges as a PDF, laid out by `print`, from the same layout as the
/// SVG and the HTML sheet. Each QR is drawn as vector squares, its quiet
/// zone white.
pub fn badges(badges: &[BadgeInfo<'_>], print: BadgePrint) -> Result<Vec<u8>, BadgeError> {
    let codes: Vec<QrModules> = badges.iter().map(QrModules::encode).collect::<Result<_, _>>()?;
    let pdf_error = |e: String| BadgeError::Pdf(e);
    let fonts = Fonts::new(&[fonts::SANS, fonts::SANS_BOLD, fonts::SANS_ITALIC]).map_err(pdf_error)?;
    let mut document = Document::new();
    document.set_metadata(metadata(match badges.first() {
        Some(first) => format!("Escarapelas — {}", first.meeting_title),
        None => "Escarapelas".into(),
    }));
    let page_of = |width: u32, height: u32| {
        PageSettings::from_wh(width as f32 * PT_PER_UNIT, height as f32 * PT_PER_UNIT)
            .ok_or_else(|| BadgeError::Pdf("a page size".into()))
    };
    match print {
        BadgePrint::One => {
            for (info, qr) in badges.iter().zip(&codes) {
                let (width, height) = badges::BADGE_SIZE;
                let mut page = document.start_page_with(page_of(width, height)?);
                let mut surface = page.surface();
                draw_badge(&mut surface, info, qr, (0, 0), &fonts);
                surface.finish();
                page.finish();
            }
        }
        BadgePrint::Sheets(paper) => {
            let sheet: Sheet = match paper {
                Paper::A4 => badges::A4_SHEET,
                Paper::Carta => badges::CARTA_SHEET,
            };
            for (chunk, codes) in badges.chunks(sheet.per_page()).zip(codes.chunks(sheet.per_page())) {
                let mut page = document.start_page_with(page_of(sheet.width, sheet.height)?);
                let mut surface = page.surface();
                for (x1, y1, x2, y2) in sheet.cut_marks() {
                    stroke_line(&mut surface, (x1, y1), (x2, y2), 2, "#000");
                }
                for (slot, (info, qr)) in chunk.iter().zip(codes).enumerate() {
                    draw_badge(&mut surface, info, qr, sheet.slot(slot), &fonts);
                }
                surface.finish();
                page.finish();
            }
        }
    }
    document.finish().map_err(|e| BadgeError::Pdf(format!("{e:?}")))
}

/// A colour `#rgb` or `#rrggbb` as krilla's.
fn colour(hex: &str) -> krilla::color::rgb::Color {
    let digits: Vec<u8> =
        hex.trim_start_matches('#').chars().filter_map(|c| c.to_digit(16)).map(|d| d as u8).collect();
    match digits.as_slice() {
        [r, g, b] => krilla::color::rgb::Color::new(r * 17, g * 17, b * 17),
        [r1, r2, g1, g2, b1, b2] => krilla::color::rgb::Color::new(r1 * 16 + r2, g1 * 16 + g2, b1 * 16 + b2),
        _ => krilla::color::rgb::Color::black(),
    }
}

fn fill(colour_hex: &str) -> krilla::paint::Fill {
    krilla::paint::Fill { paint: colour(colour_hex).into(), ..krilla::paint::Fill::default() }
}

fn pt(units: u32) -> f32 {
    units as f32 * PT_PER_UNIT
}

/// A filled rectangle, in badge units.
fn fill_rect(
    surface: &mut krilla::surface::Surface<'_>,
    (x, y, w, h): (u32, u32, u32, u32),
    colour_hex: &str,
) {
    let mut path = PathBuilder::new();
    if let Some(rect) = krilla::geom::Rect::from_xywh(pt(x), pt(y), pt(w), pt(h)) {
        path.push_rect(rect);
    }
    if let Some(path) = path.finish() {
        surface.set_fill(Some(fill(colour_hex)));
        surface.draw_path(&path);
    }
}

fn stroke_line(
    surface: &mut krilla::surface::Surface<'_>,
    from: (u32, u32),
    to: (u32, u32),
    width: u32,
    colour_hex: &str,
) {
    let mut path = PathBuilder::new();
    path.move_to(pt(from.0), pt(from.1));
    path.line_to(pt(to.0), pt(to.1));
    if let Some(path) = path.finish() {
        surface.set_fill(None);
        surface.set_stroke(Some(Stroke {
            paint: colour(colour_hex).into(),
            width: pt(width),
            ..Stroke::default()
        }));
        surface.draw_path(&path);
        surface.set_stroke(None);
    }
}

/// One badge's marks at `at` (badge units from the page's corner).
fn draw_badge(
    surface: &mut krilla::surface::Surface<'_>,
    info: &BadgeInfo<'_>,
    qr: &QrModules,
    at: (u32, u32),
    fonts: &Fonts,
) {
    let (ox, oy) = at;
    for mark in badges::marks(info, Some(qr)) {
        match mark {
            Mark::Fill { x, y, width, height, colour } => {
                fill_rect(surface, (ox + x, oy + y, width, height), colour)
            }
            Mark::Qr { x, y, side, modules } => {
                fill_rect(surface, (ox + x, oy + y, side, side), "#fff");
                let Some(qr) = modules else { continue };
                fill_boxes(surface, &qr_boxes(qr, (pt(ox + x), pt(oy + y)), pt(side)));
            }
            Mark::Text { x, baseline, size, bold, italic, colour, text, squeeze_to } => {
                let style = if bold {
                    1
                } else if italic {
                    2
                } else {
                    0
                };
                let mut size = pt(size);
                // The estimate errs wide; the real font is measured, and a
                // word still wider than its box is set smaller to fit.
                if let Some(width) = squeeze_to {
                    let real = fonts.width(style, &text, size);
                    if real > pt(width) && real > 0.0 {
                        size *= pt(width) / real;
                    }
                }
                surface.set_fill(Some(fill(colour)));
                fonts.draw(surface, style, (pt(ox + x), pt(oy + baseline)), size, &text);
            }
            Mark::Outline { x, y, width, height, stroke, colour } => {
                let (left, top, right, bottom) = (ox + x, oy + y, ox + x + width, oy + y + height);
                for (from, to) in [
                    ((left, top), (right, top)),
                    ((right, top), (right, bottom)),
                    ((right, bottom), (left, bottom)),
                    ((left, bottom), (left, top)),
                ] {
                    stroke_line(surface, from, to, stroke, colour);
                }
            }
        }
    }
    surface.set_fill(None);
}

#[cfg(test)]
mod tests;
