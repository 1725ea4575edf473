//! The acta draft as a Word document (`docx-rs`): the blocks of
//! [`crate::acta::blocks`] as the word processor's own headings, tables
//! and page numbers, so the secretary edits a document, not a picture of
//! one. Its tables take the PDF's column widths ([`crate::pdf`]), so both
//! formats read alike.

use docx_rs::{
    AlignmentType, Docx, Footer, NumPages, PageMargin, PageNum, Paragraph, Run, RunFonts, Style, StyleType,
    Table, TableCell, TableCellMargins, TableLayoutType, TableRow,
};

use crate::acta::{blocks, ActaSource, Block};

/// The acta draft as a DOCX document, laid out on Carta (letter) paper.
pub fn acta(source: &ActaSource<'_>) -> Result<Vec<u8>, String> {
    let date = &source.described.date;
    let run = |words: &str| Run::new().add_text(words);
    // A figure (and its column's heading) flush right, at the PDF's size
    // for tables (9,5 pt), so that the PDF's column widths fit.
    let cell = |words: &str, bold: bool, figure: bool, keep: bool| {
        let words = run(words).size(19);
        let paragraph = Paragraph::new().add_run(if bold { words.bold() } else { words }).keep_next(keep);
        TableCell::new().add_paragraph(if figure { paragraph.align(AlignmentType::Right) } else { paragraph })
    };
    let mut doc = Docx::new()
        .page_size(12_240, 15_840)
        .page_margin(PageMargin::new().top(1_440).bottom(1_440).left(1_440).right(1_440))
        .default_fonts(RunFonts::new().ascii("Liberation Serif").hi_ansi("Liberation Serif"))
        .default_size(22)
        .add_style(
            Style::new("Heading1", StyleType::Paragraph).name("Heading 1").bold().size(28).outline_lvl(0),
        )
        .add_style(
            Style::new("Heading2", StyleType::Paragraph).name("Heading 2").bold().size(24).outline_lvl(1),
        )
        .add_style(
            Style::new("Title", StyleType::Paragraph)
                .name("Title")
                .bold()
                .size(32)
                .align(AlignmentType::Center),
        )
        .footer(
            Footer::new().add_paragraph(
                Paragraph::new()
                    .align(AlignmentType::Center)
                    .add_run(run("Página "))
                    .add_page_num(PageNum::new())
                    .add_run(run(" de "))
                    .add_num_pages(NumPages::new()),
            ),
        )
        .created_at(&format!("{date}T00:00:00Z"))
        .updated_at(&format!("{date}T00:00:00Z"));
    let blocks = blocks(source);
    let mut grids = crate::pdf::table_grids_twips(&blocks)?.into_iter();
    for (i, block) in blocks.iter().cloned().enumerate() {
        // A paragraph just before a table stays with it.
        let before_table = matches!(blocks.get(i + 1), Some(Block::Table(..)));
        doc = match block {
            Block::Title(words) => doc.add_paragraph(Paragraph::new().add_run(run(&words)).style("Title")),
            Block::Centered(words) => {
                doc.add_paragraph(Paragraph::new().add_run(run(&words)).align(AlignmentType::Center))
            }
            // A heading stays on the page of what follows it.
            Block::Heading(level, words) => doc.add_paragraph(
                Paragraph::new()
                    .add_run(run(&words))
                    .style(if level == 1 { "Heading1" } else { "Heading2" })
                    .keep_next(true),
            ),
            Block::Text(words) => {
                doc.add_paragraph(Paragraph::new().add_run(run(&words)).keep_next(before_table))
            }
            Block::Lead(bold, words) => doc.add_paragraph(
                Paragraph::new().add_run(run(&format!("{bold} ")).bold()).add_run(run(&words)),
            ),
            // Each row whole on a page, a short table whole (as in the
            // PDF); the columns the PDF's widths.
            Block::Table(header, rows) => {
                let figures = crate::pdf::figure_columns(&header, &rows);
                let short = rows.len() <= crate::pdf::SHORT_TABLE;
                let row = |cells: &[String], bold: bool, keep: bool| {
                    TableRow::new(cells.iter().zip(&figures).map(|(c, &f)| cell(c, bold, f, keep)).collect())
                        .cant_split()
                };
                let mut all = vec![row(&header, true, true)];
                all.extend(rows.iter().enumerate().map(|(n, r)| row(r, false, short && n + 1 < rows.len())));
                // The PDF's cell padding (3 pt), the grid kept as set.
                doc.add_table(
                    Table::new(all)
                        .set_grid(grids.next().unwrap_or_default())
                        .margins(TableCellMargins::new().margin(20, 60, 20, 60))
                        .layout(TableLayoutType::Fixed),
                )
            }
        };
    }
    let mut bytes = std::io::Cursor::new(Vec::new());
    doc.build().pack(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}
