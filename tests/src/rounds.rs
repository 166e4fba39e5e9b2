//! Rounds: a game made to measure the protocol, not to be played. Each round is a beacon
//! draw (a die) then a step where every seat picks a number face down (sealed until all);
//! as many rounds as asked, so a table can run for thousands of steps. A seat the table
//! skips passes.

use hoard_net::Absence;
use hoard_rules::{Game, Outcome, Pending, Play, RuleError, Seal, Seat, Step, rng};
use serde::{Deserialize, Serialize};

pub struct Rounds;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    pub rounds: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub seats: u8,
    pub rounds: u32,
    pub round: u32,
    /// The round's die, once drawn.
    pub die: Option<u8>,
    pub scores: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// A number from 1 to 6: scores itself if at most the die, nothing if above it.
    Pick(u8),
    /// Only for a seat the table skipped.
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Rolled(u8),
    Scored { seat: Seat, points: i32 },
}

/// A skipped seat passes.
pub fn sit_out(_public: &Public, _seat: Seat, _absence: Absence) -> Option<Input> {
    Some(Input::Pass)
}

impl Game for Rounds {
    const NAME: &'static str = "rounds";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=8
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig("2 to 8 seats".into()));
        }
        Ok(Public {
            seats: config.seats,
            rounds: config.rounds,
            round: 0,
            die: None,
            scores: vec![0; config.seats as usize],
        })
    }

    fn private(_config: &Config, _seat: Seat, _secret: [u8; 32]) -> Private {
        Private
    }

    fn pending(public: &Public) -> Pending {
        if public.round >= public.rounds {
            let best = public.scores.iter().copied().max().unwrap_or(0);
            return Pending::Over(Outcome {
                winners: (0..public.seats)
                    .filter(|s| public.scores[*s as usize] == best)
                    .collect(),
                scores: public.scores.clone(),
            });
        }
        match public.die {
            None => Pending::Chance,
            Some(_) => Pending::Together {
                seats: (0..public.seats).collect(),
                seal: Seal::UntilAll,
            },
        }
    }

    fn legal_inputs(_public: &Public, _private: Option<&Private>, _seat: Seat) -> Vec<Input> {
        (1..=6).map(Input::Pick).collect()
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        match input {
            Input::Pick(n) if (1..=6).contains(n) && seat < public.seats => Ok(()),
            Input::Pass => Ok(()),
            _ => Err(RuleError::Illegal {
                seat,
                why: "pick a number from 1 to 6".into(),
            }),
        }
    }

    fn apply(
        public: &mut Public,
        _privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        match (Self::pending(public), step) {
            (Pending::Chance, Step::Chance(draw)) => {
                let die = rng::roll(&mut rng::from_seed(draw, "die"), 6) as u8;
                public.die = Some(die);
                Ok(vec![Event::Rolled(die)])
            }
            (Pending::Together { seats, .. }, Step::Inputs(plays)) => {
                let die = public.die.unwrap_or(0);
                if plays.iter().map(|(s, _)| *s).ne(seats.iter().copied()) {
                    return Err(RuleError::WrongStep {
                        expected: "every seat's pick".into(),
                    });
                }
                let mut events = Vec::new();
                for (seat, play) in plays {
                    let points = match play {
                        Play::Open(Input::Pick(n)) if *n <= die => i32::from(*n),
                        _ => 0,
                    };
                    public.scores[*seat as usize] += points;
                    events.push(Event::Scored {
                        seat: *seat,
                        points,
                    });
                }
                public.round += 1;
                public.die = None;
                Ok(events)
            }
            (Pending::Over(_), _) => Err(RuleError::GameOver),
            (expected, _) => Err(RuleError::WrongStep {
                expected: format!("{expected:?}"),
            }),
        }
    }

    fn bot_input(
        _public: &Public,
        _private: Option<&Private>,
        _seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        Some(Input::Pick(rng::roll(rng, 6) as u8))
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        match event {
            Event::Rolled(d) => format!("The die shows {d}."),
            Event::Scored { seat, points } => format!("{} scores {points}.", name(*seat)),
        }
    }
}
