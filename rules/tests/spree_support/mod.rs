//! Shared set-ups for Spree!'s rules tests: seeded games played by the local driver, the
//! card count that must always hold (`check_pieces`), and a table laid out by hand for the rulebook's examples.
#![allow(dead_code)]

use hoard_rules::play::{self, Played};
use hoard_rules::spree::board::Sq;
use hoard_rules::spree::{Config, Input, Phase, Private, Public, Spree, Turn};
use hoard_rules::{CardId, Game, Handle, Listed, Outcome, Play, Seat, Step};

/// A 32-byte seed from a number.
pub fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

pub fn secrets(seats: u8) -> Vec<[u8; 32]> {
    (0..seats).map(|s| [s; 32]).collect()
}

/// Plays a seeded game with a policy per seat, checking after every step that no card is
/// lost or made.
pub fn play_with(
    config: &Config,
    n: u64,
    max_steps: usize,
    policy: &mut play::Policy<'_, Spree>,
) -> Played<Spree> {
    play::play_out_with::<Spree>(
        config,
        &secrets(config.seats),
        &seed(n),
        max_steps,
        policy,
        &mut |p, _, _| {
            if let Err(why) = <Spree as Listed>::check_pieces(p, &[]) {
                panic!("{why}: {p:?}");
            }
        },
    )
    .expect("the bots play legal moves")
}

pub fn outcome(g: &Played<Spree>) -> &Outcome {
    g.outcome.as_ref().expect("the game ended")
}

/// One open input of `seat`.
pub fn turn(seat: Seat, input: Input) -> Step<Input> {
    Step::Inputs(vec![(seat, Play::Open(input))])
}

/// A table laid out by hand: `seats` players, every car parked in the first spaces, the
/// shoppers where `at` says, hands of the given faces, and `seat` to act with `left` steps.
pub struct Table {
    pub public: Public,
    pub privates: Vec<Option<Private>>,
    next_handle: u16,
}

impl Table {
    pub fn new(config: Config) -> Table {
        let mut public = Spree::setup(&config).unwrap();
        let spaces = hoard_rules::spree::board::board().parking();
        public.deck.shuffled(usize::from(
            hoard_rules::spree::cards::POKER + config.jokers,
        ));
        for (i, pawn) in public.pawns.iter_mut().enumerate() {
            pawn.car = Some(spaces[i]);
            pawn.shopper = spaces[i];
        }
        let privates = (0..config.seats)
            .map(|s| Some(Spree::private(&config, s, [s; 32])))
            .collect();
        Table {
            public,
            privates,
            next_handle: 0,
        }
    }

    /// Puts `seat`'s shopper on `sq`.
    pub fn at(&mut self, seat: Seat, sq: Sq) -> &mut Self {
        self.public.pawns[usize::from(seat)].shopper = sq;
        self
    }

    /// Gives `seat` a card it knows the face of; returns its handle.
    pub fn give(&mut self, seat: Seat, face: CardId) -> Handle {
        let h = Handle {
            deck: 0,
            generation: 0,
            position: self.next_handle,
        };
        self.next_handle += 1;
        self.public.deck.taken = self.next_handle;
        self.public.hands[usize::from(seat)].push(h);
        if let Some(p) = self.privates[usize::from(seat)].as_mut() {
            p.faces.insert(h, face);
        }
        h
    }

    /// It is `seat`'s turn, with `left` squares to move (rolled already if `left > 0`).
    pub fn turn(&mut self, seat: Seat, left: u8) -> &mut Self {
        let at = self.public.pawns[usize::from(seat)].shopper;
        let shop = matches!(
            hoard_rules::spree::board::board().kind(at),
            hoard_rules::spree::board::Kind::Shop(_)
        );
        self.public.phase = Phase::Act(Turn {
            seat,
            rolled: left > 0,
            left,
            prev: None,
            visited: if shop { vec![at] } else { vec![] },
            fresh: left == 0,
            driving: false,
            extra: false,
        });
        self
    }

    /// Applies a step, returning its events or the error.
    pub fn step(
        &mut self,
        step: Step<Input>,
    ) -> Result<Vec<hoard_rules::spree::Event>, hoard_rules::RuleError> {
        Spree::apply(&mut self.public, &mut self.privates, &step)
    }

    /// `seat` plays `input` on its turn; panics if refused.
    pub fn play(&mut self, seat: Seat, input: Input) -> Vec<hoard_rules::spree::Event> {
        self.step(turn(seat, input.clone()))
            .unwrap_or_else(|e| panic!("{input:?} was refused: {e}"))
    }

    /// Every seat the window waits on answers: `answers` for some, a pass for the rest.
    pub fn answer(&mut self, answers: &[(Seat, Input)]) -> Vec<hoard_rules::spree::Event> {
        let Phase::Window { seats, .. } = &self.public.phase else {
            panic!("no window is open: {:?}", self.public.phase);
        };
        let mut seats = seats.clone();
        seats.sort_unstable();
        let plays = seats
            .iter()
            .map(|s| {
                let input = answers
                    .iter()
                    .find(|(a, _)| a == s)
                    .map_or(Input::Pass, |(_, i)| i.clone());
                (*s, Play::Open(input))
            })
            .collect();
        self.step(Step::Inputs(plays))
            .expect("the answers are legal")
    }

    /// The dice: a beacon draw that rolls what `want` accepts (found by search, as a test
    /// cannot pick the beacon).
    pub fn chance_for(&mut self, want: impl Fn(&Public) -> bool) -> Vec<hoard_rules::spree::Event> {
        for k in 0..10_000u64 {
            let mut trial = self.public.clone();
            let mut privates = self.privates.clone();
            if Spree::apply(&mut trial, &mut privates, &Step::Chance(seed(k))).is_ok()
                && want(&trial)
            {
                return self.step(Step::Chance(seed(k))).unwrap();
            }
        }
        panic!("no beacon draw rolls what the test wants");
    }
}
