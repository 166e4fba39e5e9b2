//! A join code drawn as a QR code, made once into a texture and cached for as long as
//! the code stays the same.

use egui::{Color32, ColorImage, TextureHandle, TextureOptions, Vec2};
use qrcode::{Color, EcLevel, QrCode};

/// Quiet zone around the code, in modules, as scanners expect.
const QUIET: usize = 4;

/// The QR of one join code, cached.
#[derive(Default)]
pub struct QrCache {
    text: String,
    texture: Option<TextureHandle>,
    failed: bool,
}

/// The QR modules of `text` as a greyscale image with its quiet zone, one pixel per
/// module. Join codes are upper-cased first: QR's alphanumeric mode holds them in a
/// smaller code, and the joining side lower-cases what it scans.
pub fn modules(text: &str) -> Option<ColorImage> {
    let upper = text.to_ascii_uppercase();
    let code = QrCode::with_error_correction_level(upper.as_bytes(), EcLevel::M).ok()?;
    let width = code.width();
    let side = width + 2 * QUIET;
    let mut pixels = vec![Color32::WHITE; side * side];
    for (i, colour) in code.to_colors().into_iter().enumerate() {
        if colour == Color::Dark {
            let (x, y) = (i % width + QUIET, i / width + QUIET);
            pixels[y * side + x] = Color32::BLACK;
        }
    }
    Some(ColorImage::new([side, side], pixels))
}

impl QrCache {
    /// Draws the code for `text` as a square of `size` points (black on white in both
    /// themes: phones' cameras read that best).
    pub fn show(&mut self, ui: &mut egui::Ui, text: &str, size: f32) -> egui::Response {
        if self.text != text {
            self.text = text.to_string();
            self.texture = None;
            self.failed = false;
        }
        if self.texture.is_none() && !self.failed {
            match modules(text) {
                Some(image) => {
                    self.texture =
                        Some(ui.ctx().load_texture("join-qr", image, TextureOptions::NEAREST));
                }
                None => self.failed = true,
            }
        }
        match &self.texture {
            Some(texture) => ui.add(
                egui::Image::new((texture.id(), Vec2::splat(size)))
                    .alt_text("QR code of the join code"),
            ),
            None => ui.label("This join code is too long for a QR code; share the text instead."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ticket_length_code_fits_a_small_qr_with_its_quiet_zone() {
        // An iroh endpoint ticket is about 77 lowercase characters.
        let ticket = "endpointaaaabbbbccccddddeeeeffffgggghhhhiiiijjjjkkkkllllmmmmnnnnooooppppqqqqrrr";
        let image = modules(ticket);
        let side = image.as_ref().map(|i| i.size[0]).unwrap_or(0);
        assert!((21 + 2 * QUIET..=61 + 2 * QUIET).contains(&side), "side {side}");
        let image = image.unwrap_or_else(|| ColorImage::new([1, 1], vec![Color32::WHITE]));
        // The quiet zone is white and the finder pattern's corner is black.
        assert_eq!(image.pixels[0], Color32::WHITE);
        assert_eq!(image.pixels[QUIET * side + QUIET], Color32::BLACK);
    }
}
