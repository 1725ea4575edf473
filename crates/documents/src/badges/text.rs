//! The badge's texts and how each may be set: the event's title, the
//! person's name and document, the badge number, whom they represent and
//! the kiosk's instruction, each placed in the column beside the QR.

use super::*;

/// How a block of text may be set: the range of sizes (in badge units, so
/// 50 is 5 mm), the most lines, and the look.
pub(super) struct TextStyle {
    pub(super) max_size: u32,
    pub(super) min_size: u32,
    pub(super) max_lines: usize,
    pub(super) bold: bool,
    pub(super) italic: bool,
    pub(super) fill: &'static str,
}

pub(super) const TITLE_STYLE: TextStyle =
    TextStyle { max_size: 30, min_size: 20, max_lines: 2, bold: true, italic: false, fill: "#fff" };
pub(super) const NAME_STYLE: TextStyle =
    TextStyle { max_size: 56, min_size: 28, max_lines: 3, bold: true, italic: false, fill: "#111" };
pub(super) const HOLDER_ID_STYLE: TextStyle =
    TextStyle { max_size: 36, min_size: 22, max_lines: 1, bold: false, italic: false, fill: "#222" };
pub(super) const CREDENTIAL_STYLE: TextStyle =
    TextStyle { max_size: 30, min_size: 22, max_lines: 1, bold: true, italic: false, fill: BAND_FILL };
pub(super) const REPRESENTS_LABEL_STYLE: TextStyle =
    TextStyle { max_size: 18, min_size: 14, max_lines: 1, bold: false, italic: true, fill: "#555" };
pub(super) const REPRESENTS_STYLE: TextStyle =
    TextStyle { max_size: 24, min_size: 18, max_lines: 3, bold: false, italic: false, fill: "#222" };
pub(super) const INSTRUCTION_ES_STYLE: TextStyle =
    TextStyle { max_size: 24, min_size: 18, max_lines: 2, bold: true, italic: false, fill: "#111" };
pub(super) const INSTRUCTION_EN_STYLE: TextStyle =
    TextStyle { max_size: 20, min_size: 16, max_lines: 2, bold: false, italic: true, fill: "#555" };

/// A block of text placed on the badge: its box and its lines.
pub(super) struct TextBlock {
    pub(super) x: u32,
    pub(super) top: u32,
    pub(super) width: u32,
    pub(super) style: &'static TextStyle,
    pub(super) fitted: Fitted,
}

impl TextBlock {
    pub(super) fn new(
        x: u32,
        top: u32,
        width: u32,
        max_height: u32,
        style: &'static TextStyle,
        text: &str,
    ) -> TextBlock {
        TextBlock { x, top, width, style, fitted: fit_or_truncate(text, style, width, max_height) }
    }

    pub(super) fn bottom(&self) -> u32 {
        self.top + self.fitted.height()
    }

    pub(super) fn marks(&self, marks: &mut Vec<Mark<'_>>) {
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
pub(super) fn layout_texts(info: &BadgeInfo<'_>) -> Vec<TextBlock> {
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
