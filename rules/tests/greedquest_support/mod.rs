//! Shared helpers for the GreedQuest rules tests: a table that applies steps with every
//! private side present (as the audit does) and reads back what was narrated.
#![allow(dead_code)]

use hoard_rules::greedquest::{Card, Event, GreedQuest, Input, Position, Private, Public, Stage};
use hoard_rules::{Game, Pending, Play, RuleError, Seat, Step};

use Card::*;

/// A table under test, with every private side and the log so far.
pub struct Table {
    pub p: Public,
    pub privates: Vec<Option<Private>>,
    pub log: Vec<Event>,
    pub names: Vec<&'static str>,
}

impl Table {
    pub fn new(position: Position, names: &[&'static str]) -> Self {
        let (p, privates) = position.build().expect("a valid position");
        Table {
            p,
            privates,
            log: vec![],
            names: names.to_vec(),
        }
    }

    pub fn step(&mut self, inputs: &[(Seat, Input)]) -> Result<(), RuleError> {
        let mut inputs: Vec<(Seat, Play<Input>)> =
            inputs.iter().map(|(s, i)| (*s, Play::Open(*i))).collect();
        inputs.sort_by_key(|(s, _)| *s);
        let events = GreedQuest::apply(&mut self.p, &mut self.privates, &Step::Inputs(inputs))?;
        self.log.extend(events);
        for private in self.privates.iter().flatten() {
            private
                .check_against(&self.p)
                .expect("every card accounted for");
        }
        Ok(())
    }

    /// Every listed seat lays its card.
    pub fn lay(&mut self, cards: &[(Seat, Card)]) {
        let inputs: Vec<(Seat, Input)> = cards.iter().map(|(s, c)| (*s, Input::Card(*c))).collect();
        self.step(&inputs).expect("a legal play");
    }

    pub fn give(&mut self, inputs: &[(Seat, Input)]) {
        self.step(inputs).expect("a legal input");
    }

    pub fn room(&self, seat: Seat) -> u8 {
        self.p.seats[usize::from(seat)].room
    }

    pub fn pending(&self) -> Pending {
        GreedQuest::pending(&self.p)
    }

    pub fn private(&self, seat: Seat) -> &Private {
        self.privates[usize::from(seat)]
            .as_ref()
            .expect("private side")
    }

    pub fn hand(&self, seat: Seat) -> &hoard_rules::greedquest::Pile {
        &self.privates[usize::from(seat)]
            .as_ref()
            .expect("private side")
            .hand
    }

    pub fn lines(&self) -> Vec<String> {
        let name = |s: Seat| {
            self.names
                .get(usize::from(s))
                .copied()
                .unwrap_or("?")
                .to_string()
        };
        self.log
            .iter()
            .map(|e| GreedQuest::narrate(e, &name))
            .collect()
    }

    pub fn said(&self, text: &str) -> bool {
        self.lines().iter().any(|l| l.contains(text))
    }

    /// A turn is under way again, waiting for cards.
    pub fn next_turn(&self) -> bool {
        matches!(self.p.stage, Stage::Play { .. })
    }
}

/// The rulebook's Even Chance example at three seats, its first cards laid: seat 0
/// (Fade) plays Even Chance, seats 1 and 2 (Cyndy and Wayne) both play a Go! 8, so the two
/// are to fight a duel. `names` names the seats in the game's log.
pub fn even_chance_duel(names: &[&'static str]) -> Table {
    use hoard_rules::greedquest::{Config, Facing::In};
    let pos = Position::new(Config::new(3))
        .room(0, 2, In)
        .room(1, 4, In)
        .room(2, 4, In)
        .hand(0, &with(EvenChance))
        .hand(1, &[Go8, Go7, Go1, Go2, Go3])
        .hand(2, &[Go8, Go3, Go1, Go2, Go4]);
    let mut t = Table::new(pos, names);
    t.lay(&[(0, EvenChance), (1, Go8), (2, Go8)]);
    t
}

/// A hand holding `card` and four low Go! cards.
pub fn with(card: Card) -> [Card; 5] {
    [card, Go1, Go2, Go3, Go4]
}
