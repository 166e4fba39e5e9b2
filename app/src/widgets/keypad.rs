//! Keys drawn by the app, for names, join codes and relay addresses: phones' soft keyboards do not reach
//! the app reliably (their IME text is dropped), so nothing depends on them.

use crate::theme::TOUCH;
use egui::{Button, RichText, Vec2};

/// What the keys type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeypadKind {
    /// Letters with automatic capitals at the start of each word, space, dash, apostrophe.
    Name,
    /// Join codes: lower-case letters and digits.
    Code,
    /// A server's address: lower-case letters, digits and `.:/-`.
    Address,
}

/// A keypad's own state between frames.
#[derive(Clone, Debug, Default)]
pub struct Keypad {
    /// Capitals for the next letter (names only); set by default at the start of a word.
    caps: Option<bool>,
}

/// What a frame of keys did.
#[derive(Clone, Copy, Debug, Default)]
pub struct KeypadOutput {
    pub changed: bool,
}

const NAME_KEYS: &str = "abcdefghijklmnopqrstuvwxyz-'";
const CODE_KEYS: &str = "abcdefghijklmnopqrstuvwxyz0123456789";
const ADDRESS_KEYS: &str = "abcdefghijklmnopqrstuvwxyz0123456789.:/-";

impl Keypad {
    /// Draws the keys under the field and edits `text` (at most `max` characters).
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        kind: KeypadKind,
        text: &mut String,
        max: usize,
    ) -> KeypadOutput {
        let mut out = KeypadOutput::default();
        let auto_caps = kind == KeypadKind::Name && (text.is_empty() || text.ends_with(' '));
        let caps = self.caps.unwrap_or(auto_caps);
        let keys = match kind {
            KeypadKind::Name => NAME_KEYS,
            KeypadKind::Code => CODE_KEYS,
            KeypadKind::Address => ADDRESS_KEYS,
        };
        let gap = 4.0;
        let width = ui.available_width();
        // As many keys per row as stay at least a finger wide.
        let per_row = (((width + gap) / (TOUCH + gap)).floor() as usize).clamp(5, 10);
        let key_w = (width - gap * (per_row as f32 - 1.0)) / per_row as f32;
        let key = Vec2::new(key_w, TOUCH);
        let full = text.chars().count() >= max;

        let chars: Vec<char> = keys.chars().collect();
        ui.spacing_mut().item_spacing = Vec2::splat(gap);
        for row in chars.chunks(per_row) {
            ui.horizontal(|ui| {
                for &c in row {
                    let shown = if caps { c.to_ascii_uppercase() } else { c };
                    let label = RichText::new(shown.to_string()).size(20.0);
                    if ui
                        .add_enabled(!full, Button::new(label).min_size(key))
                        .clicked()
                    {
                        text.push(shown);
                        out.changed = true;
                        self.caps = None;
                    }
                }
            });
        }
        ui.horizontal(|ui| {
            let wide = Vec2::new((width - 2.0 * gap) / 3.0, TOUCH);
            match kind {
                KeypadKind::Name => {
                    let shift = if caps { "abc" } else { "ABC" };
                    if ui.add(Button::new(shift).min_size(wide)).clicked() {
                        self.caps = Some(!caps);
                    }
                    let space_ok = !full && !text.is_empty() && !text.ends_with(' ');
                    if ui
                        .add_enabled(space_ok, Button::new("Space").min_size(wide))
                        .clicked()
                    {
                        text.push(' ');
                        out.changed = true;
                        self.caps = None;
                    }
                }
                KeypadKind::Code | KeypadKind::Address => {
                    if ui
                        .add_enabled(!text.is_empty(), Button::new("Clear").min_size(wide))
                        .clicked()
                    {
                        text.clear();
                        out.changed = true;
                    }
                    ui.add_space(wide.x + gap);
                }
            }
            if ui
                .add_enabled(!text.is_empty(), Button::new("Delete").min_size(wide))
                .clicked()
            {
                text.pop();
                out.changed = true;
                self.caps = None;
            }
        });
        out
    }
}
