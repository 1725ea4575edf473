//! The fonts the PDFs are set in, and text measured and broken by them.
//!
//! Each style (the acta's regular and bold serif, the badges' sans) is a
//! Liberation face followed by the fallbacks, GNU Unifont for the Basic
//! Multilingual Plane and Unifont Upper above it (CJK, Arabic, Hebrew,
//! Devanagari, emoji…): each character is set in the first of them that
//! has its glyph, so no recorded character prints as an empty box. A word
//! wider than its line is broken between characters ([`lines`]); a run of
//! right-to-left words is placed right to left ([`visual_order`]). Shaping
//! within a run is krilla's (rustybuzz); a full bidirectional layout is
//! not attempted.
#![allow(clippy::float_arithmetic)]

use std::sync::Arc;

use krilla::geom::Point;
use krilla::surface::Surface;
use krilla::text::{Font, TextDirection};
use skrifa::charmap::Charmap;
use skrifa::instance::{LocationRef, Size};
use skrifa::metrics::GlyphMetrics;
use skrifa::MetadataProvider;

pub(super) const SERIF: &[u8] = include_bytes!("../../fonts/LiberationSerif-Regular.ttf");
pub(super) const SERIF_BOLD: &[u8] = include_bytes!("../../fonts/LiberationSerif-Bold.ttf");
pub(super) const SANS: &[u8] = include_bytes!("../../fonts/LiberationSans-Regular.ttf");
pub(super) const SANS_BOLD: &[u8] = include_bytes!("../../fonts/LiberationSans-Bold.ttf");
pub(super) const SANS_ITALIC: &[u8] = include_bytes!("../../fonts/LiberationSans-Italic.ttf");
/// GNU Unifont, the Basic Multilingual Plane (OFL 1.1; `fonts/README.md`).
const UNIFONT: &[u8] = include_bytes!("../../fonts/Unifont-15.0.01.otf");
/// GNU Unifont Upper, the planes above it, emoji among them.
const UNIFONT_UPPER: &[u8] = include_bytes!("../../fonts/UnifontUpper-15.0.01.otf");

/// One font, for drawing (krilla) and for measuring (skrifa).
pub(super) struct Face {
    font: Font,
    charmap: Charmap<'static>,
    /// Advances at a size of 1 point.
    metrics: GlyphMetrics<'static>,
}

impl Face {
    fn new(data: &'static [u8]) -> Result<Face, String> {
        let shared: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(data);
        let font = Font::new(shared.into(), 0).ok_or("an embedded font does not load")?;
        let parsed =
            skrifa::FontRef::new(data).map_err(|e| format!("an embedded font does not parse: {e}"))?;
        Ok(Face {
            font,
            charmap: parsed.charmap(),
            metrics: parsed.glyph_metrics(Size::new(1.0), LocationRef::default()),
        })
    }

    /// `c`'s advance at a size of 1 point, if this font has its glyph.
    pub(super) fn advance(&self, c: char) -> Option<f32> {
        let glyph = self.charmap.map(c)?;
        Some(self.metrics.advance_width(glyph).unwrap_or(0.0))
    }
}

/// The styles of one document, each a face of its own, and the fallbacks
/// they share. A style is its index in the list given to [`Fonts::new`].
pub(super) struct Fonts {
    styles: Vec<Face>,
    fallbacks: [Face; 2],
}

/// A character that belongs to the one before it (a combining mark, a
/// joiner, a variation selector, a skin tone): set in the same font, never
/// separated from it by a line break.
fn continues_cluster(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05BD}'
        | '\u{0610}'..='\u{061A}' | '\u{064B}'..='\u{065F}' | '\u{0670}' | '\u{06D6}'..='\u{06ED}'
        | '\u{0E31}' | '\u{0E34}'..='\u{0E3A}' | '\u{0E47}'..='\u{0E4E}'
        | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}' | '\u{200C}' | '\u{200D}'
        | '\u{20D0}'..='\u{20FF}' | '\u{302A}'..='\u{302F}' | '\u{3099}' | '\u{309A}'
        | '\u{FE00}'..='\u{FE0F}' | '\u{FE20}'..='\u{FE2F}' | '\u{1F3FB}'..='\u{1F3FF}'
        | '\u{E0020}'..='\u{E007F}' | '\u{E0100}'..='\u{E01EF}')
}

impl Fonts {
    /// The faces of `styles`, in order, with the fallbacks after each.
    pub(super) fn new(styles: &[&'static [u8]]) -> Result<Fonts, String> {
        Ok(Fonts {
            styles: styles.iter().map(|data| Face::new(data)).collect::<Result<_, _>>()?,
            fallbacks: [Face::new(UNIFONT)?, Face::new(UNIFONT_UPPER)?],
        })
    }

    /// The faces of `style`, first choice first.
    fn faces(&self, style: usize) -> impl Iterator<Item = &Face> {
        std::iter::once(&self.styles[style]).chain(&self.fallbacks)
    }

    /// The face `c` is set in after a character set in `current`: the
    /// same one for white space it has and for what continues a cluster,
    /// else the first of the style's faces with its glyph (the style's own
    /// face when none has it).
    fn face_for<'a>(&'a self, style: usize, c: char, current: Option<&'a Face>) -> &'a Face {
        if let Some(face) = current {
            if continues_cluster(c) || (c.is_whitespace() && face.advance(c).is_some()) {
                return face;
            }
        }
        self.faces(style).find(|face| face.advance(c).is_some()).unwrap_or(&self.styles[style])
    }

    /// `text` cut where its font changes: each piece with the face it is
    /// set in.
    pub(super) fn runs<'t>(&self, style: usize, text: &'t str) -> Vec<(&Face, &'t str)> {
        let mut runs: Vec<(&Face, &'t str)> = Vec::new();
        let mut start = 0;
        let mut current: Option<&Face> = None;
        for (at, c) in text.char_indices() {
            let face = self.face_for(style, c, current);
            match current {
                Some(previous) if std::ptr::eq(previous, face) => {}
                Some(previous) => {
                    runs.push((previous, &text[start..at]));
                    start = at;
                }
                None => {}
            }
            current = Some(face);
        }
        if let Some(face) = current {
            runs.push((face, &text[start..]));
        }
        runs
    }

    /// The width of `text` in `style` at `size`, each character in the
    /// font it is set in.
    pub(super) fn width(&self, style: usize, text: &str, size: f32) -> f32 {
        self.runs(style, text).iter().map(|(face, run)| run_width(face, run, size)).sum()
    }

    /// Draws `text` in `style` from the left end of its baseline at `at`,
    /// one run per font.
    pub(super) fn draw(
        &self,
        surface: &mut Surface<'_>,
        style: usize,
        at: (f32, f32),
        size: f32,
        text: &str,
    ) {
        let mut x = at.0;
        for (face, run) in self.runs(style, text) {
            surface.draw_text(
                Point::from_xy(x, at.1),
                face.font.clone(),
                size,
                run,
                false,
                TextDirection::Auto,
            );
            x += run_width(face, run, size);
        }
    }

    /// `word` cut into pieces no wider than `width` in `style` at `size`,
    /// between characters (never inside a cluster), each piece at least
    /// one character: for a word wider than its line.
    fn pieces(&self, style: usize, word: &str, width: f32, size: f32) -> Vec<String> {
        let mut pieces = Vec::new();
        let mut piece = String::new();
        let mut used = 0.0;
        let mut current: Option<&Face> = None;
        for c in word.chars() {
            let face = self.face_for(style, c, current);
            current = Some(face);
            let advance = face.advance(c).unwrap_or(0.0) * size;
            if !piece.is_empty() && !continues_cluster(c) && used + advance > width {
                pieces.push(std::mem::take(&mut piece));
                used = 0.0;
            }
            piece.push(c);
            used += advance;
        }
        if !piece.is_empty() {
            pieces.push(piece);
        }
        pieces
    }
}

fn run_width(face: &Face, run: &str, size: f32) -> f32 {
    run.chars().filter_map(|c| face.advance(c)).sum::<f32>() * size
}

/// A word and its style (an index into the document's [`Fonts`]).
pub(super) type Word = (String, usize);

/// Words broken into lines no wider than `width` at `size`: between words
/// where they fit, and a word wider than a whole line cut between its
/// characters, on lines of its own but for its last piece, which the next
/// words may follow. Nothing is dropped.
pub(super) fn lines(words: &[Word], width: f32, size: f32, fonts: &Fonts) -> Vec<Vec<Word>> {
    let mut out: Vec<Vec<Word>> = vec![Vec::new()];
    let mut used = 0.0;
    for (word, style) in words {
        let space = fonts.width(*style, " ", size);
        let w = fonts.width(*style, word, size);
        let line = out.last_mut().expect("one line at least");
        if w > width {
            // Wider than a whole line: cut, from a line of its own.
            if !line.is_empty() {
                out.push(Vec::new());
            }
            let pieces = fonts.pieces(*style, word, width, size);
            let count = pieces.len();
            for (i, piece) in pieces.into_iter().enumerate() {
                used = fonts.width(*style, &piece, size);
                out.last_mut().expect("one line at least").push((piece, *style));
                if i + 1 < count {
                    out.push(Vec::new());
                }
            }
        } else if line.is_empty() {
            line.push((word.clone(), *style));
            used = w;
        } else if used + space + w <= width {
            line.push((word.clone(), *style));
            used += space + w;
        } else {
            out.push(vec![(word.clone(), *style)]);
            used = w;
        }
    }
    out
}

/// Whether a word reads right to left: its first letter is of a
/// right-to-left script (Hebrew, Arabic, Syriac, Thaana, N'Ko…).
fn reads_right_to_left(word: &str) -> bool {
    word.chars().find(|c| c.is_alphabetic()).is_some_and(|c| {
        matches!(c, '\u{0590}'..='\u{08FF}' | '\u{FB1D}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFF}'
            | '\u{10800}'..='\u{10FFF}' | '\u{1E800}'..='\u{1EFFF}')
    })
}

/// The order in which a line's words are placed from the left: as written,
/// but each run of right-to-left words reversed, so an Arabic name reads
/// right to left inside a Spanish sentence.
pub(super) fn visual_order(line: &[Word]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..line.len()).collect();
    let mut i = 0;
    while i < line.len() {
        if reads_right_to_left(&line[i].0) {
            let start = i;
            while i < line.len() && reads_right_to_left(&line[i].0) {
                i += 1;
            }
            order[start..i].reverse();
        } else {
            i += 1;
        }
    }
    order
}
