//! The game log: everything that happened, in plain words, oldest first, kept scrolled to
//! the newest line.

use crate::widgets;
use egui::RichText;

/// Returns true when Back was pressed.
pub fn show(ui: &mut egui::Ui, title: &str, log: &[String]) -> bool {
    let back = widgets::top_bar(ui, title, Some("Back"));
    if log.is_empty() {
        ui.label(RichText::new("Nothing has happened yet.").weak());
        return back;
    }
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false, false])
        .show(ui, |ui| {
            for (i, line) in log.iter().enumerate() {
                ui.horizontal_wrapped(|ui| {
                    ui.label(RichText::new(format!("{:>3}", i + 1)).weak().monospace());
                    ui.label(line);
                });
            }
        });
    back
}
