//! A QR symbol drawn on a PDF page as black boxes: the badges' and the
//! admission letters'.

use krilla::geom::PathBuilder;

use super::fill;
use crate::badges::QrModules;

/// The dark modules of `qr` in a square of `side` points from `at`: each
/// run of dark modules in a row as one box, at the module's exact
/// fraction of the square.
pub(super) fn qr_boxes(qr: &QrModules, at: (f32, f32), side: f32) -> Vec<(f32, f32, f32, f32)> {
    let n = qr.side();
    let module = side / n as f32;
    let mut boxes = Vec::new();
    for row in 0..n {
        let mut column = 0;
        while column < n {
            if !qr.is_dark(column, row) {
                column += 1;
                continue;
            }
            let start = column;
            while column < n && qr.is_dark(column, row) {
                column += 1;
            }
            let (x, y) = (at.0 + start as f32 * module, at.1 + row as f32 * module);
            boxes.push((x, y, (column - start) as f32 * module, module));
        }
    }
    boxes
}

/// Black boxes filled as one path, so no seam shows between them.
pub(super) fn fill_boxes(surface: &mut krilla::surface::Surface<'_>, boxes: &[(f32, f32, f32, f32)]) {
    let mut path = PathBuilder::new();
    for &(x, y, width, height) in boxes {
        if let Some(rect) = krilla::geom::Rect::from_xywh(x, y, width, height) {
            path.push_rect(rect);
        }
    }
    if let Some(path) = path.finish() {
        surface.set_fill(Some(fill("#000")));
        surface.draw_path(&path);
        surface.set_fill(None);
    }
}
