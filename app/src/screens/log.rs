//! The game log: everything that happened, in plain words, oldest first, kept scrolled to
//! the newest line. The table screen shows it in a sheet over the hand.

use egui::RichText;

/// The log's lines in a scroll area that keeps the newest in sight.
pub fn lines(ui: &mut egui::Ui, log: &[String]) {
    if log.is_empty() {
        ui.label(RichText::new("Nothing has happened yet.").weak());
        return;
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
}
