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

pub const PAGES: &[RulesPage] = &[
    RulesPage {
        title: "GreedQuest",
        players: "2 to 6 players",
        pitch: "Race to the dragon's hoard in Room 12, then be first back out to Room 1.",
        sections: &[
            (
                "A turn",
                "Everyone picks one card from a hand of five and plays it face down. When all \
                 have played, the cards are turned over and resolved in a fixed order. Then \
                 everyone draws back up to five. An empty deck is reshuffled from the discards.",
            ),
            (
                "Moving",
                "The highest Go! card wins the turn and moves one room forward; equal winners \
                 all move. Forward means towards Room 12 until you reach it, then back towards \
                 Room 1. You cannot bounce off Room 1 or Room 12: extra movement is lost. The \
                 first to reach Room 12 and return to Room 1 wins; arriving together, you win \
                 together.",
            ),
            (
                "The cards, in the order they act",
                "Loot the Bodies!: throw away your hand and draw five new cards at once.\n\
                 Dragon ATTACK!!: cancels every card played this turn, unless two or more are \
                 played; then only the attacks are cancelled.\n\
                 The Meek Shall Inherit: this turn the lowest Go! wins. Two or more cancel out.\n\
                 Curse!: everyone who moves by Go!, See Ya! or Secret Door moves backward \
                 instead. Tracking is not affected. Two or more cancel out.\n\
                 Dragon Sighting: Go!, Tracking and See Ya! played by anyone in your room or \
                 the room behind you do nothing.\n\
                 Secret Door: move two rooms forward.\n\
                 See Ya!: move one room forward for every Go! card in play.\n\
                 Go! 1 to 8 (two of each) and Go WILD!: WILD is any value you like, chosen \
                 after every card is seen.\n\
                 Even Chance / Odd Reversal: if the winning Go! is even (odd), swap rooms with \
                 its player, keeping your facings.\n\
                 Tracking (two): move one room towards the winning Go!'s player.",
            ),
            (
                "Duels",
                "When a tie must be settled, the players in it each play a face-down card; the \
                 highest Go! wins and WILD beats every Go!. A tie at the top duels again; if \
                 nobody plays a Go!, everybody loses the duel.",
            ),
            (
                "The rooms",
                "Rooms change the rules for whoever stands in them, and room rules beat card \
                 rules. Room 1 protects against Curse!. Room 5 takes 2 from your Go!. Room 6 \
                 lets you leave only with a card nobody else played. Room 8 stops you drawing. \
                 Room 10 silences Secret Door and See Ya!. In Room 11 you may discard the \
                 first card you draw each turn. Tap a room on the table to read its rule.",
            ),
            (
                "Variants",
                "Short Game: only Room 1's rule applies. Shortest Game: the first to reach \
                 Room 12 wins. This Is My Room!: leaders in the same room and direction duel \
                 between turns; losers step back. Survival of the Fittest and Uniqueness Is \
                 Where You Find It: cards played without effect, or special cards once played, \
                 are gone for good.",
            ),
        ],
    },
    RulesPage {
        title: "Sprawl",
        players: "3 to 8 players",
        pitch: "Grow towers and branches of pyramids; the emptiest stash at the end wins.",
        sections: &[
            (
                "Your stash",
                "Fifteen pyramids of your colour: five each of 3, 2 and 1 pips. The board is \
                 5x6 for three players, 6x6 for four to six, 8x8 for seven or eight.",
            ),
            (
                "A turn",
                "First turn: stand any pyramid anywhere as your starting tower. After that, do \
                 one thing: build (cap your tower with a piece one size smaller), branch (lay a \
                 piece beside your tower or branch, pointing away from it; branches shrink by \
                 one size each step, and a tower supports branches as long as it is tall), or \
                 spore (stand a new tower on an empty square one of your branches targets).",
            ),
            (
                "Targeting and attacks",
                "A lying piece targets the square as many squares away as its pips, in the \
                 direction it points, whatever lies between. It attacks the square next to \
                 its point: a tower attacked by a size it does not contain is neutralized and \
                 stops growing. You may not spore where your new tower would be neutralized.",
            ),
            (
                "The end",
                "When a player has no legal move, the game ends at the start of that player's \
                 next turn. Pieces of neutralized towers go back to their stashes; the fewest \
                 pips left in your stash wins.",
            ),
        ],
    },
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

/// The reference page for a game, by the title or the rules' short name.
pub fn page(name: &str) -> Option<&'static RulesPage> {
    let wanted: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    PAGES.iter().find(|p| {
        p.title
            .chars()
            .filter(|c| c.is_ascii_alphanumeric())
            .collect::<String>()
            .to_ascii_lowercase()
            == wanted
    })
}

/// Draws the list of games, or one game's page when `open` names one. Returns true when
/// the screen's Back was pressed.
pub fn show(ui: &mut egui::Ui, open: &mut Option<usize>) -> bool {
    let mut back = false;
    match open.and_then(|i| PAGES.get(i).map(|p| (i, p))) {
        None => {
            back = widgets::top_bar(ui, "How to play", Some("Back"));
            egui::ScrollArea::vertical().show(ui, |ui| {
                for (i, page) in PAGES.iter().enumerate() {
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
    fn every_one_of_the_five_games_has_a_page() {
        for name in ["greedquest", "sprawl", "spree", "freeloader", "spammers"] {
            assert!(page(name).is_some(), "{name} has no rules page");
        }
        assert_eq!(PAGES.len(), 5);
    }
}
