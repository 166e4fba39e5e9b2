//! A table set up in a chosen position — rooms, facings, hands, the top of each draw pile —
//! at the start of a turn: for rules tests, screenshots and teaching scenes.

use super::cards::{Card, Pile};
use super::deck::Table;
use super::rules;
use super::state::{Config, Facing, Private, Public, SeatView};
use crate::{RuleError, Seat};

#[derive(Clone, Debug)]
struct SeatSpec {
    room: u8,
    facing: Facing,
    hand: Option<Vec<Card>>,
    deck_top: Vec<Card>,
    discards: Vec<Card>,
    dead: Vec<Card>,
    lose_turn: bool,
}

/// A position under construction. Every seat starts in Room 1 facing in, with a hand of the
/// first five cards of its deck in canonical order unless given one.
#[derive(Clone, Debug)]
pub struct Position {
    config: Config,
    seats: Vec<SeatSpec>,
    error: Option<String>,
}

impl Position {
    pub fn new(config: Config) -> Self {
        let spec = SeatSpec {
            room: 1,
            facing: Facing::In,
            hand: None,
            deck_top: vec![],
            discards: vec![],
            dead: vec![],
            lose_turn: false,
        };
        let count = usize::from(config.seats.min(8));
        Position {
            config,
            seats: vec![spec; count],
            error: None,
        }
    }

    fn with(mut self, seat: Seat, f: impl FnOnce(&mut SeatSpec)) -> Self {
        match self.seats.get_mut(usize::from(seat)) {
            Some(spec) => f(spec),
            None => self.error = Some(format!("there is no seat {seat} at this table")),
        }
        self
    }

    pub fn room(self, seat: Seat, room: u8, facing: Facing) -> Self {
        self.with(seat, |s| {
            s.room = room;
            s.facing = facing;
        })
    }

    pub fn hand(self, seat: Seat, cards: &[Card]) -> Self {
        self.with(seat, |s| s.hand = Some(cards.to_vec()))
    }

    /// The top of the seat's draw pile, top card first; the rest of the deck lies below in
    /// canonical order.
    pub fn deck_top(self, seat: Seat, cards: &[Card]) -> Self {
        self.with(seat, |s| s.deck_top = cards.to_vec())
    }

    pub fn discards(self, seat: Seat, cards: &[Card]) -> Self {
        self.with(seat, |s| s.discards = cards.to_vec())
    }

    pub fn dead(self, seat: Seat, cards: &[Card]) -> Self {
        self.with(seat, |s| s.dead = cards.to_vec())
    }

    /// The seat sits out the coming turn.
    pub fn lose_turn(self, seat: Seat) -> Self {
        self.with(seat, |s| s.lose_turn = true)
    }

    /// The table at the start of turn 1 in this position, with every seat's private side.
    pub fn build(self) -> Result<(Public, Vec<Option<Private>>), RuleError> {
        if let Some(error) = self.error {
            return Err(RuleError::BadConfig(error));
        }
        let mut public = rules::setup(&self.config)?;
        let mut privates = Vec::with_capacity(self.seats.len());
        for (index, spec) in self.seats.into_iter().enumerate() {
            let seat = index as Seat;
            if !(1..=12).contains(&spec.room) {
                return Err(RuleError::BadConfig(format!(
                    "seat {seat}: there is no Room {}",
                    spec.room
                )));
            }
            let mut rest = Pile::full_deck();
            take(&mut rest, seat, &spec.deck_top)?;
            let discards = take(&mut rest, seat, &spec.discards)?;
            let dead = take(&mut rest, seat, &spec.dead)?;
            let hand = match &spec.hand {
                Some(cards) => take(&mut rest, seat, cards)?,
                None => {
                    let first: Vec<Card> = rest.cards().take(5).collect();
                    take(&mut rest, seat, &first)?
                }
            };
            let mut private = Private::new(seat, [seat; 32]);
            private.key = *blake3::keyed_hash(&private.secret, &[0; 32]).as_bytes();
            private.hand = hand;
            // The draw pile's top is the end of the vector.
            private.deck = rest.cards().collect();
            private.deck.reverse();
            private.deck.extend(spec.deck_top.iter().rev());
            public.seats[index] = SeatView {
                room: spec.room,
                facing: spec.facing,
                hand: hand.len(),
                deck: private.deck.len() as u8,
                discards,
                face_down: 0,
                dead,
                lose_turn: spec.lose_turn,
            };
            privates.push(Some(private));
        }
        let mut events = Vec::new();
        let mut table = Table::new(&mut public, &mut privates, &mut events);
        for seat in 0..table.p.seats.len() as Seat {
            table.settle(seat);
        }
        rules::begin_turn(&mut table);
        Ok((public, privates))
    }
}

/// Takes `cards` out of what is left of a deck.
fn take(rest: &mut Pile, seat: Seat, cards: &[Card]) -> Result<Pile, RuleError> {
    for &card in cards {
        if !rest.remove(card) {
            return Err(RuleError::BadConfig(format!(
                "seat {seat} is given more {card} than one deck holds"
            )));
        }
    }
    Ok(Pile::of(cards))
}
