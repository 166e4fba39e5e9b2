//! A one-line field that phones fill from the app's own keys (never the soft keyboard)
//! and laptops fill from their keyboard, with paste wherever a clipboard exists.

use super::keypad::{Keypad, KeypadKind};
use crate::theme::TOUCH;
use egui::{Button, Frame, RichText, TextEdit, Vec2};

/// Android's clipboard does not reach egui; elsewhere a Paste button works.
const HAS_CLIPBOARD: bool = !cfg!(target_os = "android");

#[derive(Clone, Debug, Default)]
pub struct Entry {
    keypad: Keypad,
    /// On a laptop the keys are hidden until asked for.
    keys_open: bool,
    /// A paste was requested; the text arrives as an input event in a later frame.
    paste_pending: bool,
}

impl Entry {
    /// Draws `label`, the field and (on a phone, or when opened) the keys. Returns true
    /// when the text changed. `phone` means: never focus a text box, so the system
    /// keyboard never opens.
    #[allow(clippy::too_many_arguments)]
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        label: &str,
        hint: &str,
        kind: KeypadKind,
        text: &mut String,
        max: usize,
        phone: bool,
    ) -> bool {
        let mut changed = false;
        let label_id = ui.label(RichText::new(label).strong()).id;
        let field_id = ui.make_persistent_id(("entry", label));
        if phone {
            let shown = if text.is_empty() {
                RichText::new(hint).weak()
            } else {
                RichText::new(format!("{text}|"))
            };
            Frame::group(ui.style()).show(ui, |ui| {
                ui.set_min_size(Vec2::new(ui.available_width(), TOUCH - 12.0));
                ui.label(shown.size(20.0)).labelled_by(label_id);
            });
        } else {
            let response = ui
                .add(
                    TextEdit::singleline(text)
                        .id(field_id)
                        .hint_text(hint)
                        .char_limit(max)
                        .desired_width(f32::INFINITY)
                        .min_size(Vec2::new(0.0, TOUCH))
                        .font(egui::TextStyle::Heading),
                )
                .labelled_by(label_id);
            changed |= response.changed();
        }
        ui.horizontal(|ui| {
            if HAS_CLIPBOARD
                && ui
                    .add(Button::new("Paste").min_size(Vec2::splat(TOUCH)))
                    .clicked()
            {
                self.paste_pending = true;
                if !phone {
                    // The field takes the pasted text itself once it has focus.
                    ui.memory_mut(|m| m.request_focus(field_id));
                    self.paste_pending = false;
                }
                ui.ctx()
                    .send_viewport_cmd(egui::ViewportCommand::RequestPaste);
            }
            if !phone {
                let word = if self.keys_open { "Hide keys" } else { "Keys" };
                if ui
                    .add(Button::new(word).min_size(Vec2::splat(TOUCH)))
                    .clicked()
                {
                    self.keys_open = !self.keys_open;
                }
            }
        });
        if self.paste_pending {
            let pasted = ui.input(|i| {
                i.events.iter().find_map(|e| match e {
                    egui::Event::Paste(s) => Some(s.clone()),
                    _ => None,
                })
            });
            if let Some(pasted) = pasted {
                self.paste_pending = false;
                let room = max.saturating_sub(text.chars().count());
                text.extend(pasted.trim().chars().filter(|c| !c.is_control()).take(room));
                changed = true;
            }
        }
        if phone || self.keys_open {
            changed |= self.keypad.show(ui, kind, text, max).changed;
        }
        changed
    }
}
