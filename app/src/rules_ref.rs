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
const COMING: &[RulesPage] = &[
    RulesPage {
        title: "Spree!",
        players: "3 to 8 players",
        pitch: "Loot a shopping mall at midnight: shop, steal, shoot, and lock it in your car.",
        sections: &[
            (
                "A turn",
                "Draw up to five cards at the start and end of your turn. Roll two dice and \
                 move up to that many squares, never straight back the way you came. Play a \
                 card from your hand into your cart as you pass the shop that sells it.",
            ),
            (
                "Stealing and shooting",
                "Walk over another shopper and play a card of the same rank to take every \
                 card of that rank from their cart. Shoot along a straight line: roll one die \
                 and count squares; reach the target and it falls over and you take another \
                 turn, fall short and you fall over. Shooting ends your turn.",
            ),
            (
                "Special cards",
                "2s and 10s can be played as extra movement. Aces stop a purchase, a theft, a \
                 move card, a shot, or another Ace. Jokers are anything but can buy nothing.",
            ),
            (
                "Scoring",
                "Reach your car to bank your cart: numbers score face value, J 11, Q 12, K 13, \
                 A 15, Joker 0. First to the target wins: 200 points for three players, down \
                 to 75 for eight.",
            ),
        ],
    },
    RulesPage {
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
    },
    RulesPage {
        title: "SPAMMERS",
        players: "2 to 6 players",
        pitch: "Build an empire of internet scams by mailing your lists until they complain.",
        sections: &[
            (
                "A turn",
                "Take up to three actions: draw a card (an Action card to your hand, or a List \
                 that you keep by lowering one of your Scams' ratings), play a card, or merge \
                 two lists. Hands hold at most nine cards; at most five Scams in play.",
            ),
            (
                "Mailings",
                "Play a Mailing from one of your Scams at a list: roll a die at or under the \
                 list's size plus modifiers and the Scam gains a point of rating, two points \
                 if you beat it by four. Each mailing adds a Gruntle to the list; lists with \
                 too many move to the masses or are thrown away.",
            ),
            (
                "Winning",
                "Start your turn with Scams rated twenty or more in total, or one Scam rated \
                 twelve or more, and you win.",
            ),
        ],
    },
];

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
