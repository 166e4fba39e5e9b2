//! A Spree! table under way, made to order for the screen tests and the screenshots: four
//! cars parked, carts holding cards, scores on the way to the target, and Mia (seat 0, this
//! device) mid-turn with seven squares to walk.

use super::views::{me_and_bots, seated_view};
use hoard_app::net::{AnyState, GameView};
use hoard_rules::spree::board::{Sq, board};
use hoard_rules::spree::{Config, Contest, Phase, Private, Public, Spree, Turn};
use hoard_rules::{CardId, Game};
use std::collections::BTreeMap;

pub const NAMES: [&str; 4] = ["Mia", "Ann", "Bo", "Cyrus"];
pub const COLOURS: [[u8; 3]; 4] = [[40, 120, 220], [220, 60, 50], [40, 160, 80], [240, 190, 30]];

/// The card `rank` (2–14) of `suit` (0 hearts, 1 spades, 2 clubs, 3 diamonds), from the
/// first or second poker deck.
pub fn card(rank: u8, suit: u16, deck: u16) -> CardId {
    deck * 52 + suit * 13 + u16::from(rank) - 2
}

pub const JOKER: CardId = 104;

/// Mia's hand: a pair of 7♥, 10♠, A♣ and a Joker.
pub fn mias_hand() -> [CardId; 5] {
    [
        card(7, 0, 0),
        card(10, 1, 0),
        card(14, 2, 0),
        JOKER,
        card(7, 0, 1),
    ]
}

/// Four seats mid-game in `phase` (of Mia's turn, by default see [`mias_walk`]).
pub fn spree_table(phase: Phase) -> (Public, Private) {
    let mut public = Spree::setup(&Config::new(4)).unwrap_or_else(|e| panic!("{e}"));
    public.deck.shuffled(108);
    let mut faces = BTreeMap::new();
    for seat in 0..4 {
        public.hands[seat] = public.deck.take(5);
    }
    for (h, c) in public.hands[0].iter().zip(mias_hand()) {
        faces.insert(*h, c);
    }
    let spaces = board().parking();
    let (cars, shoppers) = (
        [spaces[0], spaces[3], spaces[6], spaces[9]],
        [Sq::new(4, 4), Sq::new(9, 4), spaces[6], Sq::new(7, 6)],
    );
    for seat in 0..4 {
        public.pawns[seat].car = Some(cars[seat]);
        public.pawns[seat].shopper = shoppers[seat];
    }
    public.pawns[3].lying = true;
    public.carts = vec![
        vec![card(13, 0, 0), card(5, 0, 0)],
        vec![card(12, 1, 0), card(9, 1, 0), card(9, 3, 0)],
        Vec::new(),
        vec![card(11, 2, 0)],
    ];
    public.scores = vec![42, 65, 18, 90];
    public.discard = vec![card(4, 3, 0), card(6, 2, 1)];
    public.dice = Some((3, 4));
    public.turns = 23;
    public.phase = phase;
    (public, Private { seat: 0, faces })
}

/// Mia's turn, the dice rolled: seven squares to walk.
pub fn mias_walk() -> Phase {
    Phase::Act(Turn {
        seat: 0,
        rolled: true,
        left: 7,
        prev: None,
        visited: Vec::new(),
        fresh: false,
        driving: false,
        extra: false,
    })
}

/// Ann (seat 1) grabs a 9♠ on her turn; Mia and Bo may stop it.
pub fn anns_purchase() -> Phase {
    Phase::Window {
        turn: Turn {
            seat: 1,
            rolled: true,
            left: 0,
            prev: None,
            visited: vec![Sq::new(10, 1)],
            fresh: false,
            driving: false,
            extra: false,
        },
        contest: Contest::Shop {
            seat: 1,
            cards: vec![card(9, 1, 1)],
        },
        aces: Vec::new(),
        seats: vec![0, 2],
    }
}

/// The view this device has of the table: Mia's, with the others bots.
pub fn spree_view(public: Public, private: Private, reaction_left_ms: Option<u64>) -> GameView {
    let pending = Spree::pending(&public);
    let my_turn = !Spree::legal_inputs(&public, Some(&private), 0).is_empty();
    let seats = me_and_bots(&NAMES, &COLOURS);
    let state = AnyState::Spree {
        public,
        private: Some(private),
    };
    GameView {
        log: vec![
            "Ann grabs 9♦.".into(),
            "Mia's turn.".into(),
            "Mia rolls 3 and 4.".into(),
        ],
        reaction_left_ms,
        as_another_seat: false,
        ..seated_view(9, seats, state, pending, my_turn, 300)
    }
}
