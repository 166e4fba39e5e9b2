//! GreedQuest's state: the table every device sees ([`Public`]), what one seat alone knows
//! ([`Private`]), the options of a game ([`Config`]) and what a seat submits ([`Input`]).

use super::cards::{Card, DECK_SIZE, Pile};
use crate::Seat;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Which length of game: the full game, or the rulebook's shorter variants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Length {
    /// To the Hoard in Room 12 and back out to the Tavern in Room 1.
    #[default]
    Full,
    /// Short Game: every room effect is ignored except Room 1's.
    Short,
    /// Shortest Game: as the Short Game, and the first to reach Room 12 wins.
    Shortest,
}

/// The Battle of Attrition variant, if any (its two versions exclude each other).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Attrition {
    #[default]
    None,
    /// Survival of the Fittest: a card played without effect is dead; a player down to five
    /// cards goes back to Room 1 (or 12) and loses a turn.
    Survival,
    /// Uniqueness Is Where You Find It: every card that is not a Go! dies once played.
    Uniqueness,
}

/// How a game is set up.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    /// 2 to 6.
    pub seats: u8,
    pub length: Length,
    /// This Is My Room! You Can't Have It!: tied leaders duel between turns.
    pub this_is_my_room: bool,
    pub attrition: Attrition,
}

impl Config {
    /// The basic game for `seats` players.
    pub fn new(seats: u8) -> Self {
        Config {
            seats,
            length: Length::Full,
            this_is_my_room: false,
            attrition: Attrition::None,
        }
    }
}

/// Which way a piece is heading.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Facing {
    /// Into the dungeon, toward Room 12.
    #[default]
    In,
    /// Out with the loot, toward Room 1.
    Out,
}

impl Facing {
    /// The change in room number of one step forward.
    #[inline]
    pub fn forward(self) -> i8 {
        match self {
            Facing::In => 1,
            Facing::Out => -1,
        }
    }
}

/// A set of seats (at most 8; GreedQuest seats 6).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SeatSet(u8);

impl SeatSet {
    pub const EMPTY: SeatSet = SeatSet(0);

    #[inline]
    pub fn single(seat: Seat) -> Self {
        let mut set = SeatSet::EMPTY;
        set.insert(seat);
        set
    }

    #[inline]
    pub fn insert(&mut self, seat: Seat) {
        if seat < 8 {
            self.0 |= 1 << seat;
        }
    }

    #[inline]
    pub fn remove(&mut self, seat: Seat) {
        if seat < 8 {
            self.0 &= !(1 << seat);
        }
    }

    #[inline]
    pub fn contains(&self, seat: Seat) -> bool {
        seat < 8 && self.0 & (1 << seat) != 0
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.0.count_ones() as usize
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == 0
    }

    /// The lowest seat in the set.
    #[inline]
    pub fn first(&self) -> Option<Seat> {
        (!self.is_empty()).then(|| self.0.trailing_zeros() as Seat)
    }

    /// Seats in ascending order.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Seat> + use<> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let seat = bits.trailing_zeros() as Seat;
            bits &= bits - 1;
            Some(seat)
        })
    }

    pub fn to_vec(&self) -> Vec<Seat> {
        self.iter().collect()
    }

    /// Every seat in the set is below `count`.
    #[inline]
    pub fn within(&self, count: u8) -> bool {
        u32::from(self.0) >> count == 0
    }

    /// The seats of `self` not in `other`.
    #[inline]
    pub fn without(&self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & !other.0)
    }

    #[inline]
    pub fn from_seats(seats: impl IntoIterator<Item = Seat>) -> Self {
        let mut set = SeatSet::EMPTY;
        for s in seats {
            set.insert(s);
        }
        set
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

/// What every device knows about one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatView {
    /// 1 (Ye Same Olde Tavern) to 12 (The Hoard).
    pub room: u8,
    pub facing: Facing,
    /// Cards in hand (the cards themselves are private).
    pub hand: u8,
    /// Cards in the draw pile (their order is private).
    pub deck: u8,
    /// The face-up discard pile.
    pub discards: Pile,
    /// Discarded cards nobody else saw: a hand thrown away by Loot the Bodies!.
    pub face_down: u8,
    /// Cards removed from the game (Battle of Attrition).
    pub dead: Pile,
    /// This seat sits out its next turn.
    pub lose_turn: bool,
}

impl SeatView {
    /// How far along the race the seat is: room r heading in is r, heading out is 24 − r,
    /// so Room 12 is 12 either way and the Tavern on the way out is 23.
    #[inline]
    pub fn progress(&self) -> u8 {
        match self.facing {
            Facing::In => self.room,
            Facing::Out => 24 - self.room.min(12),
        }
    }

    /// Cards the seat can still draw: its deck, and its discards once reshuffled.
    #[inline]
    pub fn drawable(&self) -> u8 {
        self.deck
            .saturating_add(self.discards.len())
            .saturating_add(self.face_down)
    }
}

/// What became of a card played this turn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    /// In play, not yet resolved.
    #[default]
    Live,
    /// Took effect.
    Spent,
    /// Played without effect (canceled, discarded without effect, a losing Go!...).
    Void,
    /// No longer on the table (Loot the Bodies! is discarded at once; at the end of the turn
    /// every card leaves).
    Gone,
}

/// One seat's place on the table this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slot {
    /// The card played this turn, once revealed; `None` if the seat sat out.
    pub card: Option<Card>,
    /// The room it was played in.
    pub room: u8,
    pub status: Status,
    /// A Go WILD!'s chosen value (0 until chosen).
    pub wild: u8,
    /// A Tracking card's chosen target.
    pub target: Option<Seat>,
    /// Tracking from Room 3, alone: moves two rooms.
    pub overshoot: bool,
}

impl Slot {
    /// The card, if it is still on the table.
    #[inline]
    pub fn on_table(&self) -> Option<Card> {
        self.card.filter(|_| self.status != Status::Gone)
    }

    #[inline]
    pub(crate) fn live(&self) -> Option<Card> {
        self.card.filter(|_| self.status == Status::Live)
    }
}

/// What the card sequence has established so far this turn.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Resolution {
    /// The one The Meek Shall Inherit in force.
    pub meek: Option<Seat>,
    /// The one Curse! in force.
    pub curse: Option<Seat>,
    /// Players of the winning Go! card(s).
    pub winners: SeatSet,
    /// The winning value, room modifiers included.
    pub value: Option<i8>,
}

/// Why a duel is fought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DuelFor {
    /// Several players of Even Chance (or Odd Reversal, named here) on a matching winning Go!;
    /// the winner decides which of them changes places.
    Swapper { card: Card },
    /// Several players of the winning Go!, facing an Even Chance / Odd Reversal played by
    /// `partner`; the winner decides which of them switches places with `partner`.
    Winner { partner: Seat },
    /// This Is My Room!: tied leaders, between turns; the winner stays put.
    Lead { leaders: SeatSet },
}

/// A duel under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Duel {
    pub why: DuelFor,
    /// Everyone still in the duel.
    pub alive: SeatSet,
    /// 1 for the first round; higher when a tie made it continue.
    pub round: u8,
}

/// A choice made openly by one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Pick {
    /// The Even Chance duel's winner picks which player of the card swaps.
    Swapper { card: Card, among: SeatSet },
    /// The winning Go!s' duel winner (or, if everyone lost, `partner`) picks which winner
    /// switches places with `partner`.
    Winner { partner: Seat, among: SeatSet },
}

/// Where the game stands: what it waits for.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Stage {
    /// The first beacon draw, from which every seat's deck order is derived.
    #[default]
    Deal,
    /// Every seat in `seats` lays one card face down.
    Play { seats: SeatSet },
    /// Players of Go WILD! name its value, having seen every card.
    Wild { seats: SeatSet },
    /// A duel round: `seats` (those of the duel with a card to play) each lay a card.
    Duel { duel: Duel, seats: SeatSet },
    /// One seat chooses who changes places.
    Pick { pick: Pick, chooser: Seat },
    /// A Tracking player with several winners to follow chooses one.
    Track { seat: Seat },
    /// Room 11: each seat in `seats` secretly keeps or discards the first card it drew.
    LastParty { seats: SeatSet },
    /// The game is over.
    Over,
}

/// Everything every device sees, identical on all of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    /// The turn being played, from 1 (0 before the deal).
    pub turn: u32,
    pub seats: Vec<SeatView>,
    /// This turn's cards, by seat.
    pub table: Vec<Slot>,
    pub resolution: Resolution,
    pub stage: Stage,
    /// Who won, once the game is over.
    pub winners: SeatSet,
    /// Seats the table removed: out of the race for good (see [`Input::Leave`]).
    pub left: SeatSet,
}

impl Public {
    pub(crate) fn seat_count(&self) -> u8 {
        self.seats.len() as u8
    }

    /// How many copies of `card` could still be in `seat`'s hand or draw pile, as far as
    /// every device can tell: the deck's copies, less those seen discarded, dead or on the
    /// table.
    pub fn unseen(&self, seat: Seat, card: Card) -> u8 {
        let (Some(view), Some(slot)) = (
            self.seats.get(usize::from(seat)),
            self.table.get(usize::from(seat)),
        ) else {
            return 0;
        };
        let on_table = u8::from(slot.on_table() == Some(card));
        card.copies()
            .saturating_sub(view.discards.count(card))
            .saturating_sub(view.dead.count(card))
            .saturating_sub(on_table)
    }

    /// Cards of `seat` every device can place: hand, deck, discards (face up and down),
    /// dead and on the table. Always 28.
    pub fn accounted(&self, seat: Seat) -> u8 {
        let (Some(v), Some(slot)) = (
            self.seats.get(usize::from(seat)),
            self.table.get(usize::from(seat)),
        ) else {
            return 0;
        };
        v.hand
            .saturating_add(v.deck)
            .saturating_add(v.discards.len())
            .saturating_add(v.face_down)
            .saturating_add(v.dead.len())
            .saturating_add(u8::from(slot.on_table().is_some()))
    }
}

/// What one seat alone knows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    /// The seat's committed secret; with the beacon draw it fixes the deck order.
    pub secret: [u8; 32],
    /// `blake3::keyed_hash(secret, draw)`, once the draw is known; all shuffles derive from it.
    pub key: [u8; 32],
    pub hand: Pile,
    /// The draw pile; the top card is the last.
    pub deck: Vec<Card>,
    /// The cards behind [`SeatView::face_down`].
    pub face_down: Pile,
    /// How many times the deck has been reshuffled (the next uses label "deck {n+1}").
    pub reshuffles: u32,
    /// Room 11: the first card drawn, awaiting keep or discard.
    pub drawn: Option<Card>,
}

impl Private {
    pub(crate) fn new(seat: Seat, secret: [u8; 32]) -> Self {
        Private {
            seat,
            secret,
            key: [0; 32],
            hand: Pile::EMPTY,
            deck: Vec::with_capacity(usize::from(DECK_SIZE)),
            face_down: Pile::EMPTY,
            reshuffles: 0,
            drawn: None,
        }
    }

    /// The top card of the draw pile.
    #[inline]
    pub fn top(&self) -> Option<Card> {
        self.deck.last().copied()
    }

    /// Checks this private side against the public table: same hand and deck sizes, same
    /// face-down discards, and all 28 cards somewhere.
    pub fn check_against(&self, public: &Public) -> Result<(), String> {
        let seat = self.seat;
        let Some(view) = public.seats.get(usize::from(seat)) else {
            return Err(format!("seat {seat} is not at this table"));
        };
        let hand = self.hand.len() + u8::from(self.drawn.is_some());
        if hand != view.hand {
            return Err(format!(
                "seat {seat} holds {hand} cards; the table says {}",
                view.hand
            ));
        }
        if self.deck.len() != usize::from(view.deck) {
            return Err(format!(
                "seat {seat}'s draw pile has {} cards; the table says {}",
                self.deck.len(),
                view.deck
            ));
        }
        if self.face_down.len() != view.face_down {
            return Err(format!(
                "seat {seat}'s face-down discards do not match the table"
            ));
        }
        let mut all = self.hand;
        all.add_all(&Pile::of(&self.deck));
        all.add_all(&self.face_down);
        all.add_all(&view.discards);
        all.add_all(&view.dead);
        if let Some(card) = self.drawn {
            all.add(card);
        }
        if let Some(card) = public.table.get(usize::from(seat)).and_then(Slot::on_table) {
            all.add(card);
        }
        if all != Pile::full_deck() {
            return Err(format!(
                "seat {seat}'s cards do not make up one deck: {all:?}"
            ));
        }
        if public.accounted(seat) != DECK_SIZE {
            return Err(format!(
                "the table accounts for {} of seat {seat}'s cards",
                public.accounted(seat)
            ));
        }
        Ok(())
    }
}

/// What a seat submits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Lay this card face down (the turn's card, or a duel card).
    Card(Card),
    /// The value of a Go WILD! (1–8).
    Wild(u8),
    /// The seat chosen to change places.
    Swap(Seat),
    /// The winner to track.
    Track(Seat),
    /// Room 11: keep the first card drawn.
    KeepDrawn,
    /// Room 11: discard the first card drawn and draw another.
    DiscardDrawn,
    /// Not a player's move: what the table puts in the step of a seat it skips by vote. The
    /// seat lays no card (its turn's card or a duel card, so it loses the duel), names no
    /// Go WILD! value (the card is discarded without effect), makes no choice of who
    /// changes places or whom to track (nobody moves by it), and keeps its Room 11 card.
    SitOut,
    /// Not a player's move: what the table puts in the step of a seat it removes by vote.
    /// The seat sits out this step as with [`Input::SitOut`] and leaves the race: it is
    /// never asked again and cannot win.
    Leave,
}

impl Input {
    /// Whether this is the table's word for an absent seat rather than a player's move.
    #[inline]
    pub fn is_absence(&self) -> bool {
        matches!(self, Input::SitOut | Input::Leave)
    }
}
