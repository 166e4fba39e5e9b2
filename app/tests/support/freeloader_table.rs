//! A Freeloader table under way, made to order for the screen tests and the screenshots:
//! four players some turns in, favors and Best Friends and crashers about the houses, Stuff
//! on the way to qualifying, and Mia (seat 0, this device) to play with three cards in hand.

use super::views::{seat, seated_view};
use hoard_app::net::{AnyState, GameView};
use hoard_rules::freeloader::cards::CARDS;
use hoard_rules::freeloader::{Config, Freeloader, Held, Phase, Private, Public};
use hoard_rules::{CardId, Game};
use std::collections::BTreeMap;

pub const NAMES: [&str; 4] = ["Mia", "Ann", "Bo", "Cyrus"];
pub const COLOURS: [[u8; 3]; 4] = [[40, 120, 220], [220, 60, 50], [40, 160, 80], [240, 190, 30]];

/// The card called `name`.
pub fn card(name: &str) -> CardId {
    CARDS
        .iter()
        .position(|c| c.name == name)
        .unwrap_or_else(|| panic!("no card {name:?}")) as CardId
}

/// Mia's hand: two dealt cards and one taken from beside a house.
pub const MIAS_HAND: [&str; 3] = ["Ramen Noodles", "Lumpy Futon", "Golfing Hat"];

/// Four seats in `phase`, Mia's pawn in the Hippies' house.
pub fn freeloader_table(phase: Phase) -> (Public, Private) {
    let mut public = Freeloader::setup(&Config { seats: 4 }).unwrap_or_else(|e| panic!("{e}"));
    public.deck.shuffled(CARDS.len());
    let mut faces = BTreeMap::new();
    for seat in 0..4 {
        public.hands[seat] = public.deck.take(2).into_iter().map(Held::Hidden).collect();
    }
    for (held, name) in public.hands[0].iter().zip(MIAS_HAND) {
        if let Held::Hidden(h) = held {
            faces.insert(*h, card(name));
        }
    }
    public.hands[0].push(Held::Open(card(MIAS_HAND[2])));
    let face_up = [
        "Health Shake",
        "Paint-Spattered Overalls",
        "Steak Dinner",
        "Hippie Van",
        "Casino Buffet",
        "Borrowed Suit",
    ];
    let _ = public.deck.take(face_up.len() + 14);
    for (h, name) in public.houses.iter_mut().zip(face_up) {
        h.face_up = Some(card(name));
    }
    public.stuff = vec![
        vec![card("Free Breadsticks"), card("Tie-Dye T-Shirt")],
        vec![
            card("Day-Old Donuts"),
            card("Hemp Sandals"),
            card("Air Mattress"),
            card("Lava Lamp"),
        ],
        vec![card("Thrift-Store Sweater"), card("Crummy Old Car")],
        vec![card("Leftover Pizza")],
    ];
    // Favors: everyone's two, and what the game has moved since.
    let favors = [
        [3, 2, 1, 2],
        [2, 4, 2, 2],
        [1, 2, 2, 5],
        [4, 2, 2, 0],
        [2, 2, 3, 2],
        [2, 1, 2, 2],
    ];
    for (h, f) in public.houses.iter_mut().zip(favors) {
        h.favors = f.to_vec();
    }
    // Mia is Sally's (the Artist's) Best Friend: the Lumpy Futon pays her to take it.
    public.houses[1].best_friends[0] = Some(0);
    public.houses[2].best_friends[0] = Some(3);
    public.houses[3].best_friends[0] = Some(1);
    public.houses[3].crash[0] = Some(0);
    public.houses[4].crash[0] = Some(2);
    // Hippies at ring place 3: Mia on its second space; the others about the ring.
    public.pawns = vec![22, 4, 11, 22];
    public.dice = vec![5, 2];
    public.turns = 14;
    public.phase = phase;
    (public, Private { seat: 0, faces })
}

/// The table as this device (Mia's) sees it.
pub fn freeloader_view(public: Public, private: Private) -> GameView {
    let pending = Freeloader::pending(&public);
    let my_turn = !Freeloader::legal_inputs(&public, Some(&private), 0).is_empty();
    let seats = NAMES
        .iter()
        .zip(COLOURS)
        .map(|(n, colour)| seat(n, colour, false))
        .collect();
    let state = AnyState::Freeloader {
        public,
        private: Some(private),
    };
    seated_view(9, seats, state, pending, my_turn, 60)
}
