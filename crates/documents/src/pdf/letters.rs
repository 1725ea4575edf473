//! The admission letters ([`crate::letters`]) laid out as a PDF on Carta:
//! each letter from a new page, its head (the company, the title, the
//! person, and the QR with the code under it) on its first page, its body
//! laid out as the acta's blocks are; every further page of a long letter
//! (an agent with hundreds of principals) is headed with the person's
//! name, document and code, and the pages are numbered per letter.

use qrcode::EcLevel;

use super::fonts::lines;
use super::{
    acta_fonts, metadata, qr::qr_boxes, words, write, Draw, Fonts, Layout, Paper, BOLD, LEADING, MARGIN,
    REGULAR,
};
use crate::badges::QrModules;
use crate::letters::{body, LetterError, LetterMeeting, LetterPerson};

/// The QR's side with its quiet zone: 1,5 inches (38 mm); a code's
/// symbol (version 1, 21 modules and 8 of quiet zone) gets 1,3 mm a
/// module, easy for any desk scanner.
const QR_SIDE: f32 = 108.0;
/// The code's size under the QR, for the operator to read and type.
const CODE_SIZE: f32 = 17.0;
/// The gap between the head's text and the QR.
const GUTTER: f32 = 18.0;

/// The admission letters of `people`, in order, as one PDF on US Letter
/// (Carta): each letter from a new page, a long one flowing onto more
/// pages with the person's name and code at their head.
pub fn letters(meeting: &LetterMeeting, people: &[LetterPerson]) -> Result<Vec<u8>, LetterError> {
    let fonts = acta_fonts().map_err(LetterError::Pdf)?;
    let mut layout = Layout { paper: Paper::Carta.size(), pages: Vec::new(), y: MARGIN };
    for person in people {
        // Level M: the payload is 11 characters, and the page lies flat.
        let qr = QrModules::of_text(&person.code, EcLevel::M)
            .map_err(|e| LetterError::Qr { person: person.id.clone(), reason: e.to_string() })?;
        let first = layout.pages.len();
        layout.pages.push(Vec::new());
        layout.y = MARGIN;
        layout.letter_head(meeting, person, &qr, &fonts);
        layout.blocks(&body(meeting, person), &fonts);
        layout.running_heads(first, person, &fonts);
        layout.number_pages(first, &fonts);
    }
    if layout.pages.is_empty() {
        layout.pages.push(Vec::new());
        layout.paragraph(
            &words("Sin cartas que imprimir. / No letters to print.", REGULAR),
            11.0,
            false,
            &fonts,
        );
    }
    let title = match people {
        [one] => format!("Carta de admisión — {}", one.name),
        _ => format!("Cartas de admisión — {}", meeting.company),
    };
    write(layout, metadata(title), &fonts).map_err(LetterError::Pdf)
}

impl Layout {
    /// A letter's head on its first page: on the left the company, the
    /// title and the person; on the right the QR, and the code under it,
    /// large, with what it is. A rule under both.
    fn letter_head(&mut self, meeting: &LetterMeeting, person: &LetterPerson, qr: &QrModules, fonts: &Fonts) {
        let right = self.paper.0 - MARGIN;
        let qr_left = right - QR_SIDE;
        self.draw(Draw::Boxes(qr_boxes(qr, (qr_left, MARGIN), QR_SIDE)));
        let mut y = MARGIN + QR_SIDE + CODE_SIZE;
        for (text, style, size) in
            [(person.code.as_str(), BOLD, CODE_SIZE), ("Código de admisión / admission code", REGULAR, 7.5)]
        {
            let x = qr_left + (QR_SIDE - fonts.width(style, text, size)) / 2.0;
            self.draw(Draw::Text { x, y, size, style, text: text.to_string() });
            y += size * LEADING;
        }
        let qr_bottom = y;
        let column = qr_left - GUTTER - MARGIN;
        let nit = format!("NIT {}", meeting.nit);
        let document = format!("Documento / ID: {}", person.id);
        let head: [(&str, usize, f32, f32); 7] = [
            (&meeting.company, BOLD, 13.0, 0.0),
            (&nit, REGULAR, 10.0, 0.0),
            ("Carta de admisión", BOLD, 20.0, 14.0),
            ("Admission letter", REGULAR, 10.0, 0.0),
            ("Para / for:", REGULAR, 10.0, 14.0),
            (&person.name, BOLD, 15.0, 0.0),
            (&document, REGULAR, 11.0, 0.0),
        ];
        let mut y = MARGIN;
        for (text, style, size, space_before) in head {
            y += space_before;
            for line in lines(&words(text, style), column, size, fonts) {
                let text = line.iter().map(|(w, _)| w.as_str()).collect::<Vec<_>>().join(" ");
                self.draw(Draw::Text { x: MARGIN, y: y + size, size, style, text });
                y += size * LEADING;
            }
        }
        self.y = y.max(qr_bottom) + 8.0;
        self.draw(Draw::Line { from: (MARGIN, self.y), to: (right, self.y) });
        self.y += 6.0;
    }

    /// Every page of the letter begun at page `first` but its first, headed
    /// in the top margin: whose letter it is and their code, so a loose
    /// page finds its letter.
    fn running_heads(&mut self, first: usize, person: &LetterPerson, fonts: &Fonts) {
        let text = format!("Carta de admisión de {} · {} · código {}", person.name, person.id, person.code);
        let width = self.width();
        // A name too long for one line is set smaller, never cut.
        let natural = fonts.width(REGULAR, &text, 9.0);
        let size = if natural > width { 9.0 * width / natural } else { 9.0 };
        let rule = MARGIN - 10.0;
        for page in self.pages.iter_mut().skip(first + 1) {
            page.push(Draw::Text { x: MARGIN, y: rule - 5.0, size, style: REGULAR, text: text.clone() });
            page.push(Draw::Line { from: (MARGIN, rule), to: (MARGIN + width, rule) });
        }
    }
}

#[cfg(test)]
mod tests;
