//! High card: a small game made to exercise the protocol, not to be fun. Every seat gets a
//! private hand from its own secret and a beacon draw, plays a card face down each round
//! (sealed until all), the round's winner gains a die roll (a beacon draw) and makes one
//! open choice, and every seat then makes a private keep-or-swap decision sealed until the
//! audit. A seat the table skips "passes": it plays nothing and keeps its hand.

use hoard_net::Absence;
use hoard_rules::{Game, Outcome, Pending, Play, RuleError, Seal, Seat, Step, rng};
use serde::{Deserialize, Serialize};

pub struct HighCard;

/// Cards are 1..=CARDS.
pub const CARDS: u8 = 13;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    pub rounds: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Deal,
    Play,
    Bonus { winner: Seat },
    Choose { winner: Seat },
    Swap,
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub seats: u8,
    pub rounds: u8,
    pub round: u8,
    pub phase: Phase,
    /// Cards each seat has shown, in order.
    pub shown: Vec<Vec<u8>>,
    pub scores: Vec<i32>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub secret: [u8; 32],
    pub hand: Vec<u8>,
    pub deck: Vec<u8>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    Card(u8),
    /// The winner's open choice.
    Double,
    Keep,
    /// Private: swap the lowest card in hand for the next card of the deck.
    Swap,
    /// Only the protocol makes this, for a seat the table skipped.
    Pass,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Dealt,
    Shown { seat: Seat, card: Option<u8> },
    Won { seat: Seat },
    Rolled { seat: Seat, roll: u32 },
    Doubled { seat: Seat },
    Over,
}

/// What a skipped seat does.
pub fn sit_out(_public: &Public, _seat: Seat, _absence: Absence) -> Option<Input> {
    Some(Input::Pass)
}

fn all(p: &Public) -> Vec<Seat> {
    (0..p.seats).collect()
}

impl Game for HighCard {
    const NAME: &'static str = "highcard";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=8
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !(1..=8).contains(&config.rounds) {
            return Err(RuleError::BadConfig("1 to 8 rounds".into()));
        }
        Ok(Public {
            seats: config.seats,
            rounds: config.rounds,
            round: 0,
            phase: Phase::Deal,
            shown: vec![Vec::new(); config.seats as usize],
            scores: vec![0; config.seats as usize],
        })
    }

    fn private(_config: &Config, _seat: Seat, secret: [u8; 32]) -> Private {
        Private {
            secret,
            hand: Vec::new(),
            deck: Vec::new(),
        }
    }

    fn pending(p: &Public) -> Pending {
        match &p.phase {
            Phase::Deal | Phase::Bonus { .. } => Pending::Chance,
            Phase::Play => Pending::Together {
                seats: all(p),
                seal: Seal::UntilAll,
            },
            Phase::Choose { winner } => Pending::Turn { seat: *winner },
            Phase::Swap => Pending::Together {
                seats: all(p),
                seal: Seal::UntilAudit,
            },
            Phase::Over => {
                let best = p.scores.iter().copied().max().unwrap_or(0);
                Pending::Over(Outcome {
                    winners: (0..p.seats)
                        .filter(|s| p.scores[*s as usize] == best)
                        .collect(),
                    scores: p.scores.clone(),
                })
            }
        }
    }

    fn legal_inputs(p: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        match &p.phase {
            Phase::Play => match private {
                Some(pr) => pr.hand.iter().map(|c| Input::Card(*c)).collect(),
                None => (1..=CARDS)
                    .filter(|c| !p.shown[seat as usize].contains(c))
                    .map(Input::Card)
                    .collect(),
            },
            Phase::Choose { winner } if *winner == seat => vec![Input::Double, Input::Keep],
            Phase::Swap => vec![Input::Keep, Input::Swap],
            _ => Vec::new(),
        }
    }

    fn check_input(p: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        let bad = |why: &str| {
            Err(RuleError::Illegal {
                seat,
                why: why.into(),
            })
        };
        match (&p.phase, input) {
            (_, Input::Pass) => bad("only the table can make a player sit out"),
            (Phase::Play, Input::Card(c)) => {
                if !(1..=CARDS).contains(c) {
                    bad("there is no such card")
                } else if p.shown[seat as usize].contains(c) {
                    bad("that card was already played")
                } else {
                    Ok(())
                }
            }
            (Phase::Choose { winner }, Input::Double | Input::Keep) if *winner == seat => Ok(()),
            (Phase::Swap, Input::Keep | Input::Swap) => Ok(()),
            _ => bad("not now"),
        }
    }

    fn apply(
        p: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        let wrong = || RuleError::WrongStep {
            expected: format!("{:?}", p.phase),
        };
        match (&p.phase.clone(), step) {
            (Phase::Deal, Step::Chance(draw)) => {
                for private in privates.iter_mut().flatten() {
                    let key = blake3::keyed_hash(&private.secret, draw);
                    let mut deck: Vec<u8> = (1..=CARDS).collect();
                    rng::shuffle(&mut rng::from_seed(key.as_bytes(), "deck"), &mut deck);
                    private.hand = deck.split_off(deck.len() - p.rounds as usize);
                    private.deck = deck;
                }
                p.phase = Phase::Play;
                Ok(vec![Event::Dealt])
            }
            (Phase::Play, Step::Inputs(plays)) => {
                if plays.len() != p.seats as usize {
                    return Err(wrong());
                }
                // Check everything before changing anything.
                let mut cards = Vec::new();
                for (seat, play) in plays {
                    let card = match play {
                        Play::Open(Input::Card(c)) => {
                            Self::check_input(p, *seat, &Input::Card(*c))?;
                            if let Some(Some(pr)) = privates.get(*seat as usize)
                                && !pr.hand.contains(c)
                            {
                                return Err(RuleError::PrivateMismatch {
                                    seat: *seat,
                                    why: format!("card {c} is not in that hand"),
                                });
                            }
                            Some(*c)
                        }
                        Play::Open(Input::Pass) | Play::Away(Input::Pass) => None,
                        _ => {
                            return Err(RuleError::Illegal {
                                seat: *seat,
                                why: "play a card".into(),
                            });
                        }
                    };
                    cards.push((*seat, card));
                }
                let mut events = Vec::new();
                for (seat, card) in &cards {
                    if let Some(c) = card {
                        p.shown[*seat as usize].push(*c);
                        if let Some(Some(pr)) = privates.get_mut(*seat as usize) {
                            pr.hand.retain(|h| h != c);
                        }
                    }
                    events.push(Event::Shown {
                        seat: *seat,
                        card: *card,
                    });
                }
                let best = cards.iter().filter_map(|(_, c)| *c).max();
                let winners: Vec<Seat> = cards
                    .iter()
                    .filter(|(_, c)| c.is_some() && *c == best)
                    .map(|(s, _)| *s)
                    .collect();
                p.phase = match winners.as_slice() {
                    [w] => {
                        p.scores[*w as usize] += 1;
                        events.push(Event::Won { seat: *w });
                        Phase::Bonus { winner: *w }
                    }
                    _ => Phase::Swap,
                };
                Ok(events)
            }
            (Phase::Bonus { winner }, Step::Chance(draw)) => {
                let roll = rng::roll(&mut rng::from_seed(draw, "bonus"), 6);
                p.scores[*winner as usize] += roll as i32;
                p.phase = Phase::Choose { winner: *winner };
                Ok(vec![Event::Rolled {
                    seat: *winner,
                    roll,
                }])
            }
            (Phase::Choose { winner }, Step::Inputs(plays)) => match plays.as_slice() {
                [(s, Play::Open(i) | Play::Away(i))] if s == winner => {
                    let mut events = Vec::new();
                    if *i == Input::Double {
                        p.scores[*winner as usize] += 1;
                        events.push(Event::Doubled { seat: *winner });
                    } else if *i != Input::Keep && *i != Input::Pass {
                        return Err(RuleError::Illegal {
                            seat: *s,
                            why: "double or keep".into(),
                        });
                    }
                    p.phase = Phase::Swap;
                    Ok(events)
                }
                _ => Err(wrong()),
            },
            (Phase::Swap, Step::Inputs(plays)) => {
                if plays.len() != p.seats as usize {
                    return Err(wrong());
                }
                for (seat, play) in plays {
                    match play {
                        Play::Open(Input::Swap) | Play::Away(Input::Swap) => {
                            if let Some(Some(pr)) = privates.get_mut(*seat as usize)
                                && let Some(next) = pr.deck.pop()
                                && let Some(low) = pr.hand.iter().copied().min()
                            {
                                pr.hand.retain(|h| *h != low);
                                pr.hand.push(next);
                            }
                        }
                        Play::Open(Input::Keep | Input::Pass)
                        | Play::Away(Input::Keep | Input::Pass)
                        | Play::Closed => {}
                        Play::Open(_) | Play::Away(_) => {
                            return Err(RuleError::Illegal {
                                seat: *seat,
                                why: "keep or swap".into(),
                            });
                        }
                    }
                }
                p.round += 1;
                p.phase = if p.round >= p.rounds {
                    Phase::Over
                } else {
                    Phase::Play
                };
                Ok(if p.phase == Phase::Over {
                    vec![Event::Over]
                } else {
                    Vec::new()
                })
            }
            _ => Err(wrong()),
        }
    }

    fn bot_input(
        p: &Public,
        private: Option<&Private>,
        seat: Seat,
        r: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        let legal = Self::legal_inputs(p, private, seat);
        if legal.is_empty() {
            return None;
        }
        Some(legal[rng::below(r, legal.len() as u32) as usize])
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        match event {
            Event::Dealt => "Hands dealt".into(),
            Event::Shown {
                seat,
                card: Some(c),
            } => format!("{} shows {c}", name(*seat)),
            Event::Shown { seat, card: None } => format!("{} sits out", name(*seat)),
            Event::Won { seat } => format!("{} wins the round", name(*seat)),
            Event::Rolled { seat, roll } => format!("{} rolls {roll}", name(*seat)),
            Event::Doubled { seat } => format!("{} doubles", name(*seat)),
            Event::Over => "Game over".into(),
        }
    }
}
