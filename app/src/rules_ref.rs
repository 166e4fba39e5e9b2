//! A short rules reference for each of Hoard's five games, in our own words, for reading
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

/// The pages of games still to come (a game's own page is in its screen's folder, as
/// `RULES`); once a game is played, its page there takes the place of its page here.
const COMING: &[RulesPage] = &[RulesPage {
    title: "Freeloader",
    players: "3 to 6 players",
    pitch: "Mooch your way around six houses of friends for food, clothes and a place to crash.",
    sections: &[
        (
            "A turn",
            "Do one thing: move (roll one or two dice and follow the space you land on), \
                 draw a card, place a favour in any house, or play a card from your hand by \
                 spending favours in the house you stand in.",
        ),
        (
            "Favours and friends",
            "Favours are your counters in each house. Placing one lets you claim or \
                 challenge for that house's Best Friend spot; Best Friends get discounts \
                 wherever they are. Crash spaces count as shelter.",
        ),
        (
            "The end",
            "When the last card leaves the deck, play on until everyone has had the same \
                 number of turns. To win you need Food, Clothing and Shelter; of those who \
                 have all three, the most points wins. If nobody qualifies, nobody wins.",
        ),
    ],
}];

/// The key a page is found by: its title's letters and digits, in lower case ("Spree!" is
/// "spree").
fn key(title: &str) -> String {
    title
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase()
}

/// Every page, in the order they are listed: the games Hoard plays (each page from its
/// screen's folder), then those still to come.
pub fn pages() -> Vec<&'static RulesPage> {
    let mut pages = crate::games::rules_pages();
    let played: Vec<String> = pages.iter().map(|p| key(p.title)).collect();
    pages.extend(COMING.iter().filter(|p| !played.contains(&key(p.title))));
    pages
}

/// The reference page for a game, by the title or the rules' short name.
pub fn page(name: &str) -> Option<&'static RulesPage> {
    let wanted = key(name);
    pages().into_iter().find(|p| key(p.title) == wanted)
}

/// Draws the list of games, or one game's page when `open` names one. Returns true when
/// the screen's Back was pressed.
pub fn show(ui: &mut egui::Ui, open: &mut Option<usize>) -> bool {
    let mut back = false;
    let pages = pages();
    match open.and_then(|i| pages.get(i).map(|p| (i, *p))) {
        None => {
            back = widgets::top_bar(ui, "How to play", Some("Back"));
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (i, page) in pages.iter().enumerate() {
                    if widgets::wide(ui, &format!("{}  ({})", page.title, page.players)).clicked() {
                        *open = Some(i);
                    }
                }
            });
        }
        Some((_, page)) => {
            if widgets::top_bar(ui, page.title, Some("All games")) {
                *open = None;
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
