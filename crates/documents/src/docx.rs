//! The acta draft as a Word document (`docx-rs`): the blocks of
//! [`crate::acta::blocks`] as the word processor's own headings, tables
//! and page numbers, so the secretary edits a document, not a picture of
//! one. Its tables take the PDF's column widths ([`crate::pdf`]), so both
//! formats read alike.
//!
//! Two things `docx-rs` does not write are added to its parts before they
//! are packed ([`spanish_and_normal`]): the `Normal` style marked as the
//! default paragraph style (`w:default="1"`, so that every paragraph
//! without a style of its own is `Normal` to Word, LibreOffice and
//! python-docx), and the document's language, es-CO, in the run defaults
//! (`w:lang`, which Word's spelling checker follows) and in the core
//! properties (`dc:language`).

use docx_rs::{
    AlignmentType, Docx, Footer, NumPages, PageMargin, PageNum, Paragraph, Run, RunFonts, Style, StyleType,
    Table, TableBorders, TableCell, TableCellMargins, TableLayoutType, TableRow,
};

use crate::acta::{blocks, ActaSource, Block, Signer};

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
            // Two signers abreast, each with room to sign by hand above a
            // line, the name and the capacity under it; no rules, and a
            // row never split across pages.
            Block::Signatures(signers) => {
                let signer = |s: &Signer| {
                    let mut cell = TableCell::new();
                    for _ in 0..3 {
                        cell = cell.add_paragraph(Paragraph::new().keep_next(true));
                    }
                    cell.add_paragraph(Paragraph::new().add_run(run(SIGNATURE_LINE)).keep_next(true))
                        .add_paragraph(
                            Paragraph::new()
                                .add_run(run(s.name.as_deref().unwrap_or("Nombre: ____________________")))
                                .keep_next(true),
                        )
                        .add_paragraph(Paragraph::new().add_run(run(&s.capacity)))
                };
                let rows = signers
                    .chunks(2)
                    .map(|pair| {
                        let mut cells: Vec<TableCell> = pair.iter().map(signer).collect();
                        if cells.len() == 1 {
                            cells.push(TableCell::new().add_paragraph(Paragraph::new()));
                        }
                        TableRow::new(cells).cant_split()
                    })
                    .collect();
                // A blank paragraph after, so what follows does not touch
                // the last capacity.
                doc.add_table(
                    Table::new(rows)
                        .set_grid(vec![4_680, 4_680])
                        .set_borders(TableBorders::with_empty())
                        .layout(TableLayoutType::Fixed),
                )
                .add_paragraph(Paragraph::new())
            }
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
    spanish_and_normal(doc.build())?.pack(&mut bytes).map_err(|e| e.to_string())?;
    Ok(bytes.into_inner())
}

/// The line each signer signs on.
const SIGNATURE_LINE: &str = "________________________________";

/// The document's parts with `Normal` as the default paragraph style and
/// Spanish of Colombia as its language (see the module's comment): the
/// style's element gains `w:default="1"`, the run defaults `w:lang`, the
/// core properties `dc:language`. Each edit finds the one place it goes,
/// or the document is not made (a `docx-rs` that writes its parts
/// otherwise is caught by the tests, not shipped).
fn spanish_and_normal(mut xml: docx_rs::XMLDocx) -> Result<docx_rs::XMLDocx, String> {
    fn once(part: &mut Vec<u8>, name: &str, find: &str, replace: &str) -> Result<(), String> {
        let text = std::str::from_utf8(part).map_err(|e| format!("{name}: {e}"))?;
        if text.matches(find).count() != 1 {
            return Err(format!("{name}: `{find}` is not there once"));
        }
        *part = text.replacen(find, replace, 1).into_bytes();
        Ok(())
    }
    once(
        &mut xml.styles,
        "styles.xml",
        r#"<w:style w:type="paragraph" w:styleId="Normal">"#,
        r#"<w:style w:type="paragraph" w:styleId="Normal" w:default="1">"#,
    )?;
    once(
        &mut xml.styles,
        "styles.xml",
        "</w:rPr></w:rPrDefault>",
        r#"<w:lang w:val="es-CO" w:eastAsia="es-CO" w:bidi="ar-SA" /></w:rPr></w:rPrDefault>"#,
    )?;
    once(
        &mut xml.doc_props.core,
        "core.xml",
        "</cp:coreProperties>",
        "<dc:language>es-CO</dc:language></cp:coreProperties>",
    )?;
    Ok(xml)
}
