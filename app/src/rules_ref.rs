//! A short rules reference for every game in the registry, in our own words, for reading
//! at the table. The full rulebooks stay the authority.

use crate::widgets;
use egui::RichText;

/// One game's reference: a one-line pitch and a few headed sections.
pub struct RulesPage {
    pub title: &'static str,
    pub players: &'static str,
    pub pitch: &'static str,
    pub sections: &'static [(&'static str, &'static str)],
}

/// The key a page is found by: its title's letters and digits, in lower case ("Spree!" is
/// "spree").
fn key(title: &str) -> String {
    title
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Every page, in the order they are listed: each game's page, from its screen's folder.
pub fn pages() -> Vec<&'static RulesPage> {
    crate::games::rules_pages()
}

/// Where a game's page is in [`pages`], by the title or the rules' short name.
pub fn index(name: &str) -> Option<usize> {
    let wanted = key(name);
    pages().iter().position(|p| key(p.title) == wanted)
}

/// The reference page for a game, by the title or the rules' short name.
pub fn page(name: &str) -> Option<&'static RulesPage> {
    index(name).and_then(|i| pages().get(i).copied())
}

/// Draws the list of games, or one game's page when `open` names one (`at_table`: opened
/// from a table or its lobby, whose Back goes back there). Returns true when the screen's
/// Back was pressed.
pub fn show(ui: &mut egui::Ui, open: &mut Option<usize>, at_table: bool) -> bool {
    let mut back = false;
    let pages = pages();
    match open.and_then(|i| pages.get(i).map(|p| (i, *p))) {
        None => {
            back = widgets::top_bar(ui, "How to play", Some("Back"));
            egui::ScrollArea::vertical().show(ui, |ui| {
                // Each game with its one line, so a table can pick one from the list.
                for (i, page) in pages.iter().enumerate() {
                    if widgets::wide(ui, &format!("{}  ({})", page.title, page.players)).clicked() {
                        *open = Some(i);
                    }
                    ui.label(RichText::new(page.pitch).weak());
                    ui.add_space(6.0);
                }
            });
        }
        Some((_, page)) => {
            // Opened from a table or its lobby, back is back to it.
            let back_to = if at_table { "Back" } else { "All games" };
            if widgets::top_bar(ui, page.title, Some(back_to)) {
                if at_table {
                    back = true;
                } else {
                    *open = None;
                }
            }
            egui::ScrollArea::vertical().show(ui, |ui| {
                ui.label(RichText::new(page.pitch).italics());
                ui.label(RichText::new(page.players).weak());
                for (head, body) in page.sections {
                    ui.add_space(6.0);
                    ui.label(RichText::new(*head).strong().size(20.0));
                    ui.label(*body);
                }
            });
        }
    }
    back
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_has_a_page() {
        let names = [
            "greedquest",
            "sprawl",
            "counter",
            "spree",
            "freeloader",
            "spammers",
        ];
        for name in names {
            assert!(page(name).is_some(), "{name} has no rules page");
        }
        assert_eq!(pages().len(), names.len());
    }
}
