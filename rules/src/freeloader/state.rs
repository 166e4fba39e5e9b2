//! Freeloader's table: its options, what everyone sees, what one seat knows, the moves and what
//! happens.

use super::board::section;
use super::cards::CARDS;
use super::data::{Category, Discount, House, Space, Special};
use crate::deck::HiddenDeck;
use crate::{CardId, Handle, Outcome, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const DECK: crate::DeckId = 0;
/// Cards dealt to each player at the start.
pub const HAND: usize = 2;
/// Favors each player starts with in every house.
pub const START_FAVORS: u8 = 2;
/// Spaces on the ring: six sections of seven.
pub const RING: u8 = 42;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
}

/// A card in a hand: hidden (dealt from the deck or passed in secret), or one everybody has
/// seen (taken from beside a house, or handed over from someone's Stuff).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Held {
    Hidden(Handle),
    Open(CardId),
}

/// One house on the table: who has favors there and who sits on its special spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseState {
    pub house: House,
    /// Favors by seat, the Best Friend's and crashers' counters included.
    pub favors: Vec<u8>,
    /// The Best Friend spaces (the Waitress has two).
    pub best_friends: Vec<Option<Seat>>,
    /// The Crash spaces (the Hippies have three).
    pub crash: Vec<Option<Seat>>,
    /// The face-up card beside the house.
    pub face_up: Option<CardId>,
}

impl HouseState {
    pub fn is_best_friend(&self, seat: Seat) -> bool {
        self.best_friends.contains(&Some(seat))
    }

    pub fn is_crashing(&self, seat: Seat) -> bool {
        self.crash.contains(&Some(seat))
    }

    /// Counters of `seat` on special spaces here.
    pub(super) fn markers(&self, seat: Seat) -> u8 {
        (self.best_friends.iter().chain(&self.crash))
            .filter(|s| **s == Some(seat))
            .count() as u8
    }

    /// Takes `n` favors of `seat` out: plain ones first, then the crash counter, then the
    /// Best Friend's (the default order; [`Input::PlayCardPaying`] lets a player choose).
    pub(super) fn spend(&mut self, seat: Seat, n: u8) {
        let have = &mut self.favors[usize::from(seat)];
        *have = have.saturating_sub(n);
        let have = *have;
        while self.markers(seat) > have {
            if let Some(slot) = self.crash.iter_mut().find(|s| **s == Some(seat)) {
                *slot = None;
            } else if let Some(slot) = self.best_friends.iter_mut().find(|s| **s == Some(seat)) {
                *slot = None;
            } else {
                break;
            }
        }
    }

    /// Which of `seat`'s counters on special spaces the default order ([`HouseState::spend`])
    /// spends among `n` favors: as few as the plain favors allow, the crash counter first.
    pub(super) fn default_paying(&self, seat: Seat, n: u8) -> Paying {
        let forced = self.forced(seat, n);
        let crashing = self.is_crashing(seat);
        Paying {
            crash: crashing && forced >= 1,
            best_friend: self.is_best_friend(seat) && forced > u8::from(crashing),
        }
    }

    /// How many of `seat`'s counters on special spaces must be among `n` favors spent.
    pub(super) fn forced(&self, seat: Seat, n: u8) -> u8 {
        let plain = self.favors[usize::from(seat)].saturating_sub(self.markers(seat));
        n.saturating_sub(plain).min(self.markers(seat))
    }

    /// The ways for `seat` to pay `n` favors here other than the default order's that keep
    /// as many special spaces as the favors allow: where only one of its Crash space and its
    /// Best Friend space can stay, giving up the Best Friend's instead. A choice that gives up
    /// a space the favors could keep is never offered.
    pub fn paying_choices(&self, seat: Seat, n: u8) -> Vec<Paying> {
        let forced = self.forced(seat, n);
        let default = self.default_paying(seat, n);
        [false, true]
            .into_iter()
            .flat_map(|crash| {
                [false, true]
                    .into_iter()
                    .map(move |best_friend| Paying { crash, best_friend })
            })
            .filter(|p| {
                (!p.crash || self.is_crashing(seat))
                    && (!p.best_friend || self.is_best_friend(seat))
                    && u8::from(p.crash) + u8::from(p.best_friend) == forced
                    && *p != default
            })
            .collect()
    }

    /// Takes `n` favors of `seat` out, `paying` saying which counters on special spaces are
    /// among them (the rest are plain).
    pub(super) fn spend_as(&mut self, seat: Seat, n: u8, paying: Paying) {
        if paying.crash
            && let Some(slot) = self.crash.iter_mut().find(|s| **s == Some(seat))
        {
            *slot = None;
        }
        if paying.best_friend
            && let Some(slot) = self.best_friends.iter_mut().find(|s| **s == Some(seat))
        {
            *slot = None;
        }
        self.spend(seat, n);
    }
}

/// What the seat placing favors wants with the Best Friend space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Friend {
    /// Leave it be.
    Keep,
    /// Mark the open space `slot` with one of the new favors.
    Take { slot: u8 },
    /// Challenge whoever holds space `slot`.
    Challenge { slot: u8 },
}

/// Which of a player's counters on the special spaces of the house where it stands are among
/// the favors it spends on a card (the rest are plain favors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paying {
    pub crash: bool,
    pub best_friend: bool,
}

/// What kind of trade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TradeKind {
    Hand,
    Stuff,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Shuffle,
    /// The houses are laid out in a random order.
    Arrange,
    Dealing {
        seat: Seat,
    },
    /// A card is turned up beside each house, in ring order.
    FaceUp,
    /// The pawns go to random Bus Stops and on, and the first player is drawn.
    Place,
    /// `seat` chooses its turn.
    Turn {
        seat: Seat,
    },
    /// The dice roll for a move of `dice` counted dice (`rolled` rolled, the lowest thrown
    /// out).
    Moving {
        seat: Seat,
        dice: u8,
        rolled: u8,
    },
    /// `seat` follows the space it landed on.
    Land {
        seat: Seat,
    },
    /// The bus: one die to a random Bus Stop, then a move again.
    Bus {
        seat: Seat,
    },
    /// `seat` moves again after the bus.
    MoveAgain {
        seat: Seat,
    },
    /// `defender` holds Best Friend space `slot` of ring house `house`: give up or fight.
    Challenge {
        seat: Seat,
        defender: Seat,
        house: u8,
        slot: u8,
    },
    /// The fight's dice.
    Fight {
        seat: Seat,
        defender: Seat,
        house: u8,
        slot: u8,
    },
    /// `with` picks a card (from hand or Stuff) to give `seat`.
    TradeGive {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    /// `seat` gives a card back.
    TradeBack {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    /// `seat` draws the top card of the deck.
    DrawTop {
        seat: Seat,
    },
    /// The face-up card of ring house `house` is replaced from the deck.
    Refill {
        seat: Seat,
        house: u8,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub deck: HiddenDeck,
    /// The houses in ring order (clockwise); ring place `i` holds spaces `7i..7i+7`.
    pub houses: Vec<HouseState>,
    pub hands: Vec<Vec<Held>>,
    /// Each player's Stuff, face up.
    pub stuff: Vec<Vec<CardId>>,
    /// Cards out of the game (Surprise! cards played for favors, Cars lost to a DWI).
    pub out: Vec<CardId>,
    /// Each pawn's space on the ring.
    pub pawns: Vec<u8>,
    pub first: Seat,
    pub phase: Phase,
    /// The last dice rolled (for the screen).
    pub dice: Vec<u8>,
    pub turns: u32,
}

impl Public {
    /// The ring place of the house a pawn on `space` stands in.
    pub fn house_at(&self, space: u8) -> u8 {
        space / 7
    }

    /// The board space at ring position `space`.
    pub fn space(&self, space: u8) -> Space {
        let house = self.houses[usize::from(space / 7)].house;
        section(house).track[usize::from(space % 7)]
    }

    /// The ring place of `house`.
    pub fn place_of(&self, house: House) -> u8 {
        self.houses
            .iter()
            .position(|h| h.house == house)
            .unwrap_or(0) as u8
    }

    /// The ring position of Bus Stop `n`.
    pub fn bus_stop(&self, n: u8) -> u8 {
        for (i, h) in self.houses.iter().enumerate() {
            if section(h.house).track[6] == Space::BusStop(n) {
                return i as u8 * 7 + 6;
            }
        }
        6
    }

    /// Whether `seat` has a card with `special` in its Stuff.
    pub fn owns(&self, seat: Seat, special: fn(&Special) -> bool) -> bool {
        self.stuff[usize::from(seat)]
            .iter()
            .any(|c| special(&CARDS[usize::from(*c)].special))
    }

    /// What `card` costs `seat` standing where its pawn is: the printed cost less every
    /// discount that applies (it may be negative).
    pub fn cost(&self, seat: Seat, card: CardId) -> i32 {
        let here = self.houses[usize::from(self.house_at(self.pawns[usize::from(seat)]))].house;
        let c = &CARDS[usize::from(card)];
        let mut cost = i32::from(c.cost);
        for d in c.discounts {
            match *d {
                Discount::House(h, x) if h == here => cost -= i32::from(x),
                Discount::BestFriend(h, y)
                    if self.houses[usize::from(self.place_of(h))].is_best_friend(seat) =>
                {
                    cost -= i32::from(y)
                }
                _ => {}
            }
        }
        cost
    }

    /// A player's score: their Stuff's points and the bonuses for matched sets.
    pub fn score(&self, seat: Seat) -> i32 {
        let stuff = &self.stuff[usize::from(seat)];
        let mut points: i32 = stuff
            .iter()
            .map(|c| i32::from(CARDS[usize::from(*c)].points))
            .sum();
        let mut sets: Vec<(&str, i8)> = Vec::new();
        for c in stuff {
            if let Special::Match { set, bonus } = CARDS[usize::from(*c)].special
                && !sets.iter().any(|(s, _)| *s == set)
            {
                sets.push((set, bonus));
            }
        }
        for (set, bonus) in sets {
            let whole = CARDS.iter().enumerate().all(|(i, card)| {
                !matches!(card.special, Special::Match { set: s, .. } if s == set)
                    || stuff.contains(&(i as CardId))
            });
            if whole {
                points += i32::from(bonus);
            }
        }
        points
    }

    /// Food, Clothing and Shelter in the Stuff (crashing anywhere counts as Shelter).
    pub fn qualifies(&self, seat: Seat) -> bool {
        let has = |cat: Category| {
            self.stuff[usize::from(seat)]
                .iter()
                .any(|c| CARDS[usize::from(*c)].category == cat)
        };
        let crashing = self.houses.iter().any(|h| h.is_crashing(seat));
        has(Category::Food) && has(Category::Clothing) && (has(Category::Shelter) || crashing)
    }
}

/// What one seat knows: the faces of the hidden cards it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
}

impl Private {
    /// The face of a card in hand, hidden or open.
    pub fn face(&self, held: &Held) -> Option<CardId> {
        match held {
            Held::Hidden(h) => self.faces.get(h).copied(),
            Held::Open(c) => Some(*c),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Move, counting `dice` dice (1 or 2; 3 with a Car).
    Move {
        dice: u8,
    },
    /// Draw the top card of the deck, or the face-up card at the house where the pawn is.
    Draw {
        face_up: bool,
    },
    /// Place a favor in ring house `house`, and what to do about its Best Friend.
    Favor {
        house: u8,
        friend: Friend,
    },
    /// Spend favors where the pawn stands to put a card from hand into the Stuff (a
    /// negative cost places favors instead, with a Best Friend choice).
    PlayCard {
        card: Held,
        face: CardId,
        friend: Friend,
    },
    /// As a turn: hand a DWI card from the Stuff to `to`'s Stuff; their Cars leave the game.
    Dwi {
        card: CardId,
        to: Seat,
    },
    /// As a turn: a "Surprise!" card from hand leaves the game for favors in its house.
    Surprise {
        card: Held,
        face: CardId,
        friend: Friend,
    },
    /// On a Crash space: crash, evicting `evict` where the Best Friend may choose.
    Crash {
        evict: Option<Seat>,
        friend: Friend,
    },
    /// On a Trade space: trade hand-to-hand or Stuff-to-Stuff with `with`.
    Trade {
        with: Seat,
        kind: TradeKind,
    },
    /// On a Trade space: take the face-up card of ring house `house`, leaving `card` there.
    TradeBoard {
        house: u8,
        card: Held,
        face: CardId,
    },
    /// On a Steal space: take `card` from `from`'s Stuff.
    Steal {
        from: Seat,
        card: CardId,
    },
    /// In a trade: the card given. A hidden one is passed in secret, so the input names
    /// only its place in the hand: its face is for the giver and the taker alone.
    Give { card: Held },
    /// Follow nothing on this space (nothing to take, or not wanted).
    Skip,
    /// In a challenge: give up the Best Friend space, or fight for it.
    GiveUp,
    Fight,
    /// [`Input::PlayCard`] for a positive cost, with the player saying which of its counters
    /// on special spaces pay (where the favors left cannot keep both).
    PlayCardPaying {
        card: Held,
        face: CardId,
        paying: Paying,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Shuffled {
        cards: u16,
    },
    Arranged {
        houses: Vec<House>,
    },
    Dealt {
        seat: Seat,
        cards: u8,
    },
    TurnedUp {
        house: u8,
        card: CardId,
    },
    Placed {
        pawns: Vec<u8>,
        first: Seat,
    },
    Rolled {
        seat: Seat,
        dice: Vec<u8>,
        moved: u8,
    },
    Landed {
        seat: Seat,
        space: u8,
    },
    Bus {
        seat: Seat,
        stop: u8,
    },
    Drew {
        seat: Seat,
        face_up: Option<CardId>,
    },
    Favors {
        seat: Seat,
        house: u8,
        count: u8,
    },
    BestFriend {
        seat: Seat,
        house: u8,
    },
    Challenged {
        seat: Seat,
        defender: Seat,
        house: u8,
    },
    GaveUp {
        seat: Seat,
        house: u8,
    },
    Fought {
        seat: Seat,
        defender: Seat,
        totals: (u32, u32),
        winner: Seat,
    },
    Played {
        seat: Seat,
        card: CardId,
        cost: i32,
    },
    Drunk {
        seat: Seat,
        card: CardId,
        to: Seat,
        cars: Vec<CardId>,
    },
    Surprised {
        seat: Seat,
        card: CardId,
    },
    Crashed {
        seat: Seat,
        house: u8,
        evicted: Option<Seat>,
    },
    Traded {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    Gave {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    TookFromBoard {
        seat: Seat,
        house: u8,
        took: CardId,
        left: CardId,
    },
    Stole {
        seat: Seat,
        from: Seat,
        card: CardId,
    },
    Skipped {
        seat: Seat,
    },
    DeckOut,
    Ended {
        winners: Vec<Seat>,
        scores: Vec<i32>,
    },
}
