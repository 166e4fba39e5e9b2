//! A join code drawn as a QR code: its modules are computed once per code and painted as
//! runs of black on white, so no texture has to live in any one egui context.

use egui::{Color32, Pos2, Rect, Sense, Vec2};
use qrcode::{Color, EcLevel, QrCode};

/// Quiet zone around the code, in modules, as scanners expect.
const QUIET: usize = 4;

/// The dark modules of a code, row by row, quiet zone included.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Modules {
    pub side: usize,
    pub dark: Vec<bool>,
}

/// The QR modules of `text`. A join code is upper-cased first: QR's alphanumeric mode
/// holds it in a smaller code, and the joining side lower-cases what it scans. An address
/// (a page's, with `#` and `=` in it) is not alphanumeric whatever its case, and is kept as
/// it is, for the browser that opens it.
pub fn modules(text: &str) -> Option<Modules> {
    let upper = text.to_ascii_uppercase();
    let alphanumeric =
        |c: char| c.is_ascii_digit() || c.is_ascii_uppercase() || " $%*+-./:".contains(c);
    let text = if upper.chars().all(alphanumeric) {
        upper.as_str()
    } else {
        text
    };
    encode(text.as_bytes())
}

/// The QR modules of `bytes`, as they are.
fn encode(bytes: &[u8]) -> Option<Modules> {
    let code = QrCode::with_error_correction_level(bytes, EcLevel::M).ok()?;
    let width = code.width();
    let side = width + 2 * QUIET;
    let mut dark = vec![false; side * side];
    for (i, colour) in code.to_colors().into_iter().enumerate() {
        if colour == Color::Dark {
            dark[(i / width + QUIET) * side + i % width + QUIET] = true;
        }
    }
    Some(Modules { side, dark })
}

/// The QR of one join code, cached while the code stays the same.
#[derive(Default)]
pub struct QrCache {
    text: String,
    modules: Option<Modules>,
}

impl QrCache {
    /// Draws the code for `text` as a square of `size` points (black on white in both
    /// themes: phones' cameras read that best).
    pub fn show(&mut self, ui: &mut egui::Ui, text: &str, size: f32) -> egui::Response {
        if self.text != text || self.modules.is_none() {
            self.text = text.to_string();
            self.modules = modules(text);
        }
        let Some(m) = &self.modules else {
            return ui.label("This join code is too long for a QR code; share the text instead.");
        };
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(size), Sense::hover());
        let what = if text.starts_with("http") {
            "QR code of the page's address, with the join code"
        } else {
            "QR code of the join code"
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, what));
        let painter = ui.painter();
        painter.rect_filled(rect, 0, Color32::WHITE);
        let cell = size / m.side as f32;
        // One rectangle per run of dark modules in a row: a few hundred shapes at most.
        for y in 0..m.side {
            let row = &m.dark[y * m.side..(y + 1) * m.side];
            let mut x = 0;
            while x < m.side {
                if !row[x] {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < m.side && row[x] {
                    x += 1;
                }
                let min = Pos2::new(
                    rect.left() + start as f32 * cell,
                    rect.top() + y as f32 * cell,
                );
                let max = Pos2::new(rect.left() + x as f32 * cell, min.y + cell);
                painter.rect_filled(Rect::from_min_max(min, max), 0, Color32::BLACK);
            }
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticket_length_code_fits_a_small_qr_with_its_quiet_zone() {
        // An iroh endpoint ticket is about 77 lowercase characters.
        let ticket =
            "endpointaaaabbbbccccddddeeeeffffgggghhhhiiiijjjjkkkkllllmmmmnnnnooooppppqqqqrrr";
        let m = modules(ticket).unwrap_or(Modules {
            side: 0,
            dark: vec![],
        });
        assert!(
            (21 + 2 * QUIET..=61 + 2 * QUIET).contains(&m.side),
            "side {}",
            m.side
        );
        // The quiet zone is white and the finder pattern's corner is black.
        assert!(!m.dark[0]);
        assert!(m.dark[QUIET * m.side + QUIET]);
    }

    /// A page's address keeps its case: `#join=` is what the page looks for.
    #[test]
    fn a_page_address_is_encoded_as_it_is_written() {
        let address = "http://192.168.1.20:8470/#join=endpointaaaabbbbcccc";
        assert_eq!(modules(address), encode(address.as_bytes()));
        let shouted = encode(address.to_ascii_uppercase().as_bytes());
        assert_ne!(modules(address), shouted);
        // A bare join code is still shouted, for the smaller code.
        let code = "endpointaaaabbbbcccc";
        assert_eq!(modules(code), encode(b"ENDPOINTAAAABBBBCCCC"));
    }
}
