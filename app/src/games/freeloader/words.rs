//! Freeloader in words: names of houses, spaces, cards' discounts and specials, and the
//! label of every move, shared by the board, the cards and the buttons.

pub use crate::games::seat_name;
use crate::games::is_you;
use crate::net::GameView;
use crate::theme;
use egui::Color32;
use hoard_rules::Seat;
use hoard_rules::freeloader::cards::CARDS;
use hoard_rules::freeloader::data::{Card, Category, Discount, House, Space, Special};
use hoard_rules::freeloader::{Friend, HouseState, Public};

/// A house by who lives there, as the board's tiles head it: "Doctor".
pub fn house_title(house: House) -> &'static str {
    match house {
        House::Doctor => "Doctor",
        House::Artist => "Artist",
        House::Waitress => "Waitress",
        House::Hippies => "Hippies",
        House::Gambler => "Gambler",
        House::Lawyer => "Lawyer",
    }
}

/// "the Doctor's", "the Hippies'".
pub fn at_house(house: House) -> String {
    match house {
        House::Hippies => "the Hippies'".into(),
        h => format!("the {}'s", house_title(h)),
    }
}

/// The house in ring place `place`, if there is one.
pub fn house_in(public: &Public, place: u8) -> Option<&HouseState> {
    public.houses.get(usize::from(place))
}

/// "the Doctor's" for ring place `place`.
pub fn at_place(public: &Public, place: u8) -> String {
    house_in(public, place).map_or_else(|| "a house".into(), |h| at_house(h.house))
}

pub fn card(id: u16) -> Option<&'static Card> {
    CARDS.get(usize::from(id))
}

pub fn card_name(id: u16) -> &'static str {
    card(id).map_or("a card", |c| c.name)
}

pub fn category_name(cat: Category) -> &'static str {
    match cat {
        Category::Food => "Food",
        Category::Clothing => "Clothing",
        Category::Shelter => "Shelter",
        Category::FinerThings => "Finer Things",
    }
}

pub fn category_colour(cat: Category) -> Color32 {
    match cat {
        Category::Food => Color32::from_rgb(222, 128, 44),
        Category::Clothing => Color32::from_rgb(58, 120, 210),
        Category::Shelter => Color32::from_rgb(60, 150, 90),
        Category::FinerThings => Color32::from_rgb(150, 80, 190),
    }
}

/// A discount as printed: "Hippies' house -2", "Doctor's Best Friend -1".
pub fn discount(d: &Discount) -> String {
    match d {
        Discount::House(h, x) => format!("{} house -{x}", possessive(*h)),
        Discount::BestFriend(h, y) => format!("{} Best Friend -{y}", possessive(*h)),
    }
}

/// "Doctor's", "Hippies'".
pub fn possessive(house: House) -> String {
    match house {
        House::Hippies => "Hippies'".into(),
        h => format!("{}'s", house_title(h)),
    }
}

/// A card's special, short for the card's face; `None` if it has none.
pub fn special_short(s: &Special) -> Option<String> {
    match s {
        Special::None => None,
        Special::Car => Some("Car: move 3 dice".into()),
        Special::Dwi => Some("DWI: pass it on".into()),
        Special::ExtraDie => Some("Extra die".into()),
        Special::Surprise { house, favors } => {
            Some(format!("Surprise! {favors} at {}", possessive(*house)))
        }
        Special::Match { set, bonus } => Some(format!("{set} set +{bonus}")),
    }
}

/// A card's special in full, for reading the whole card.
pub fn special_long(s: &Special) -> Option<String> {
    match s {
        Special::None => None,
        Special::Car => {
            Some("Car: you may move with up to 3 dice. More cars are no faster.".into())
        }
        Special::Dwi => Some(
            "DWI: as your turn, hand it from your Stuff to another player's Stuff; their Cars \
             leave the game."
                .into(),
        ),
        Special::ExtraDie => Some(
            "Roll one extra die when you move and throw out the lowest (it never stacks).".into(),
        ),
        Special::Surprise { house, favors } => Some(format!(
            "Surprise!: as your turn, take it out of the game for {favors} favors at {} \
             (and a chance at Best Friend there).",
            at_house(*house)
        )),
        Special::Match { set, bonus } => Some(format!(
            "Part of the {set} set: {bonus} more points if you own the whole set."
        )),
    }
}

/// A board space, short for its square on the track.
pub fn space_code(space: Space) -> String {
    match space {
        Space::Favor(Some(_)) => "Fav".into(),
        Space::Favor(None) => "Any".into(),
        Space::Draw => "Drw".into(),
        Space::Trade => "Trd".into(),
        Space::StealFood => "StF".into(),
        Space::StealClothing => "StC".into(),
        Space::Crash => "Cr".into(),
        Space::BusStop(n) => format!("B{n}"),
    }
}

/// A board space in words.
pub fn space_words(space: Space) -> String {
    match space {
        Space::Favor(Some(h)) => format!("Favor at {}", at_house(h)),
        Space::Favor(None) => "Favor at any house".into(),
        Space::Draw => "Draw".into(),
        Space::Trade => "Trade".into(),
        Space::StealFood => "Steal a Food".into(),
        Space::StealClothing => "Steal a Clothing".into(),
        Space::Crash => "Crash".into(),
        Space::BusStop(n) => format!("Bus Stop {n}"),
    }
}

/// Where the player landed, the house said once: "You landed on Draw at the Chef's.",
/// "You landed on Favor at the Waitress's." (a Favor space already names its house).
pub fn landed(space: &str, place: &str) -> String {
    if space.ends_with(place) {
        format!("You landed on {space}.")
    } else {
        format!("You landed on {space} at {place}.")
    }
}

/// What the short codes on the tracks mean.
pub const LEGEND: &str = "Fav favor here · Any favor at any house · Drw draw · Trd trade · \
                          StF / StC steal a Food / Clothing · Cr crash · B bus stop";

/// A seat as the subject of a sentence, and its verb agreeing: "You draw", "Ann draws".
pub fn does(view: &GameView, seat: Seat, you: &str, they: &str) -> String {
    let name = (!is_you(view, seat)).then(|| seat_name(view, seat));
    agree(name.as_deref(), you, they)
}

/// `name` (`None`: the player reading) and the verb's form for it.
fn agree(name: Option<&str>, you: &str, they: &str) -> String {
    match name {
        None => format!("You {you}"),
        Some(name) => format!("{name} {they}"),
    }
}

/// "Take" and a card: a card named for its owner takes no article ("Take Julie's Couch",
/// "Take the Sofa Bed").
pub fn take(card: &str) -> String {
    if card.contains("'s ") {
        format!("Take {card}")
    } else {
        format!("Take the {card}")
    }
}

pub fn seat_colour(view: &GameView, seat: Seat) -> Color32 {
    theme::colour(
        view.seats
            .get(usize::from(seat))
            .map_or([128; 3], |s| s.colour),
    )
}

/// What a Best Friend choice adds to a move's label: nothing, " + Best Friend", or
/// " + challenge Ann".
pub fn friend_suffix(view: &GameView, public: &Public, place: u8, friend: Friend) -> String {
    match friend {
        Friend::Keep => String::new(),
        Friend::Take { .. } => " + Best Friend".into(),
        Friend::Challenge { slot } => {
            let holder = house_in(public, place)
                .and_then(|h| h.best_friends.get(usize::from(slot)).copied().flatten());
            match holder {
                Some(s) => format!(" + challenge {}", seat_name(view, s)),
                None => " + challenge".into(),
            }
        }
    }
}

/// Black or white, whichever reads better on `ground`.
pub fn ink_on(ground: Color32) -> Color32 {
    let [r, g, b, _] = ground.to_array();
    let luma = 0.299 * f32::from(r) + 0.587 * f32::from(g) + 0.114 * f32::from(b);
    if luma > 150.0 {
        Color32::from_rgb(25, 22, 18)
    } else {
        Color32::WHITE
    }
}

/// "1 favor", "3 favors".
pub fn favors(n: i32) -> String {
    format!("{n} favor{}", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 31: "'You draws a card'", "'Take the Julie's Couch'".
    #[test]
    fn a_seat_and_its_verb_agree_and_an_owned_card_takes_no_article() {
        assert_eq!(agree(None, "draw", "draws"), "You draw");
        assert_eq!(agree(Some("Ann"), "draw", "draws"), "Ann draws");
        assert_eq!(take("Julie's Couch"), "Take Julie's Couch");
        assert_eq!(take("Sofa Bed"), "Take the Sofa Bed");
        // "'You landed on Favor at the Waitress's at the Waitress's'".
        assert_eq!(
            landed("Favor at the Waitress's", "the Waitress's"),
            "You landed on Favor at the Waitress's."
        );
        assert_eq!(landed("Draw", "the Chef's"), "You landed on Draw at the Chef's.");
    }
}
