//! The audit at the end of a game: with every seat's secrets revealed, replay the whole log
//! with every private side present and check every play, then say "verified" or name the
//! seat, the step and what was wrong.

use crate::identity::{SessionId, Start};
use crate::log::{PlayRecord, StepRecord};
use crate::mental::table::TableDeck;
use crate::seal;
use crate::wire::{Accept, Hash, Reveal};
use hoard_rules::{Game, Play, Seat, Step, public_hash};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Each seat's sealed openings by step: the commitment and the opened bytes.
type Openings = BTreeMap<(Seat, u32), Vec<(Hash, Vec<u8>)>>;

/// What a game's rules let an away seat do at an input step: the input it "makes" by
/// sitting out, or `None` if the game cannot go on without it there. The same function on
/// every device (it is part of the game's rules, not a device setting: a session gives the
/// core [`hoard_rules::Game::sit_out`]). The input must hold for the seat's private side
/// too: the audit replays it with every hand shown.
pub type SitOut<G> = fn(&<G as Game>::Public, Seat, Absence) -> Option<<G as Game>::Input>;

pub use hoard_rules::Absence;

impl hoard_rules::AbsenceRecord for PlayRecord {
    fn absence(&self) -> Option<Absence> {
        match self {
            PlayRecord::SatOut => Some(Absence::Skipped),
            PlayRecord::Removed => Some(Absence::Removed),
            _ => None,
        }
    }

    fn absent(absence: Absence) -> PlayRecord {
        match absence {
            Absence::Skipped => PlayRecord::SatOut,
            Absence::Removed => PlayRecord::Removed,
        }
    }
}

/// A proven fault, in plain words.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fault {
    /// The seat at fault, when one is.
    pub seat: Option<Seat>,
    /// The step where it happened, when it is tied to one.
    pub step: Option<u32>,
    /// What was wrong, naming the player.
    pub what: String,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.what)
    }
}

/// The end of the audit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Every play of every seat that revealed its secrets was checked against its private
    /// side and was legal. `unchecked` lists seats the table removed before they revealed.
    Verified { unchecked: Vec<Seat> },
    /// Something was wrong: the first fault found.
    Fault(Fault),
}

impl Verdict {
    pub fn is_verified(&self) -> bool {
        matches!(self, Verdict::Verified { .. })
    }
}

/// Everything the audit needs, all of it public once the game is over.
pub struct AuditInput<'a, G: Game> {
    pub session: &'a SessionId,
    pub start: &'a Start,
    pub config: &'a G::Config,
    /// Every seat's accept, by seat.
    pub accepts: &'a [Accept],
    /// The completed log.
    pub records: &'a [StepRecord],
    /// Every seat's reveal, by seat; `None` for a seat removed without revealing.
    pub reveals: &'a [Option<Reveal>],
    pub sit_out: Option<SitOut<G>>,
    /// The state hash every device reached live; the replay must reach it too.
    pub final_state: Hash,
}

fn who(start: &Start, seat: Seat) -> String {
    format!("{} (seat {seat})", start.name(seat))
}

/// Runs the audit.
pub fn audit<G: Game>(input: &AuditInput<'_, G>) -> Verdict {
    match replay(input) {
        Ok(()) => Verdict::Verified {
            unchecked: (0..input.start.seat_count() as Seat)
                .filter(|s| input.reveals.get(*s as usize).is_none_or(|r| r.is_none()))
                .collect(),
        },
        Err(fault) => Verdict::Fault(fault),
    }
}

fn replay<G: Game>(input: &AuditInput<'_, G>) -> Result<(), Fault> {
    let start = input.start;
    let seats = start.seat_count();
    let fault = |seat: Option<Seat>, step: Option<u32>, what: String| Fault { seat, step, what };

    // Secrets first: each must be the one committed before any draw.
    let mut privates: Vec<Option<G::Private>> = vec![None; seats];
    let mut openings: Openings = BTreeMap::new();
    for seat in 0..seats as Seat {
        let Some(reveal) = input.reveals.get(seat as usize).and_then(|r| r.as_ref()) else {
            continue;
        };
        let Some(accept) = input.accepts.get(seat as usize) else {
            return Err(fault(
                Some(seat),
                None,
                format!("{} never accepted", who(start, seat)),
            ));
        };
        if seal::secret_commitment(input.session, seat, &reveal.secret) != accept.secret {
            return Err(fault(
                Some(seat),
                None,
                format!(
                    "{} revealed a secret that is not the one committed when the game began, \
                     so its deck could have been stacked",
                    who(start, seat)
                ),
            ));
        }
        privates[seat as usize] = Some(G::private(input.config, seat, reveal.secret));
        for o in &reveal.sealed {
            openings
                .entry((seat, o.step))
                .or_default()
                .push((o.salt, o.input.clone()));
        }
    }

    // The decks, with every secret revealed: every shuffle is replayed, every card read.
    let secrets: Vec<Option<[u8; 32]>> = (0..seats)
        .map(|s| {
            input
                .reveals
                .get(s)
                .and_then(|r| r.as_ref())
                .map(|r| r.secret)
        })
        .collect();
    let mut deck = TableDeck::new(
        G::NAME,
        input.session.0,
        input.accepts.iter().map(|a| a.deck.key).collect(),
    );
    let deck_fault = |n: u32, e: crate::mental::table::CardFault| match e {
        crate::mental::table::CardFault::Seat { seat, why } => fault(
            Some(seat),
            Some(n),
            format!("{} at step {n}: {why}", who(start, seat)),
        ),
        crate::mental::table::CardFault::Deck(why) => fault(None, Some(n), why),
    };

    let mut public = G::setup(input.config).map_err(|e| {
        fault(
            None,
            None,
            format!("the game could not be set up again: {e}"),
        )
    })?;
    for (n, record) in input.records.iter().enumerate() {
        let n = n as u32;
        let step = match record {
            // The table agreed to end the game here: nothing was played, and nothing can
            // follow.
            StepRecord::Ended { .. } if n as usize + 1 == input.records.len() => break,
            StepRecord::Ended { .. } => {
                return Err(fault(
                    None,
                    Some(n),
                    format!("the log goes on after the table agreed to end the game at step {n}"),
                ));
            }
            StepRecord::Chance { draw, .. } => Step::Chance(*draw),
            StepRecord::Deck { parts, faces } => {
                let step = deck
                    .apply_record(&G::pending(&public), parts, Some(&secrets))
                    .map_err(|e| deck_fault(n, e))?;
                if matches!(&step, Step::Revealed(f) if f != faces) {
                    return Err(fault(
                        None,
                        Some(n),
                        format!("the faces the log says step {n} turned up are not its cards"),
                    ));
                }
                step
            }
            StepRecord::Inputs { plays, .. } => {
                let mut out = Vec::with_capacity(plays.len());
                for (seat, play) in plays {
                    let seat = *seat;
                    let decode = |bytes: &[u8]| {
                        postcard::from_bytes::<G::Input>(bytes).map_err(|_| {
                            fault(
                                Some(seat),
                                Some(n),
                                format!(
                                    "{} made a move at step {n} that cannot be read",
                                    who(start, seat)
                                ),
                            )
                        })
                    };
                    let p = match play {
                        PlayRecord::Open(bytes) | PlayRecord::Opened { input: bytes, .. } => {
                            Play::Open(decode(bytes)?)
                        }
                        PlayRecord::SatOut | PlayRecord::Removed => match Absence::of(play)
                            .and_then(|absence| input.sit_out?(&public, seat, absence))
                        {
                            Some(i) => Play::Open(i),
                            None => {
                                return Err(fault(
                                    Some(seat),
                                    Some(n),
                                    format!(
                                        "the log skips {} at step {n}, which this game cannot do",
                                        who(start, seat)
                                    ),
                                ));
                            }
                        },
                        PlayRecord::Closed { commitment } => {
                            if privates[seat as usize].is_none() {
                                Play::Closed
                            } else {
                                let opened = openings.get(&(seat, n)).and_then(|list| {
                                    list.iter().find(|(salt, bytes)| {
                                        seal::commitment(input.session, n, seat, salt, bytes)
                                            == *commitment
                                    })
                                });
                                let Some((_, bytes)) = opened else {
                                    return Err(fault(
                                        Some(seat),
                                        Some(n),
                                        format!(
                                            "{} did not open the choice it sealed at step {n}",
                                            who(start, seat)
                                        ),
                                    ));
                                };
                                let i = decode(bytes)?;
                                G::check_input(&public, seat, &i).map_err(|e| {
                                    fault(
                                        Some(seat),
                                        Some(n),
                                        format!("{} at step {n}: {e}", who(start, seat)),
                                    )
                                })?;
                                Play::Open(i)
                            }
                        }
                    };
                    out.push((seat, p));
                }
                Step::Inputs(out)
            }
        };
        // Cards move only by the inputs the table saw: an answer left sealed at a reaction
        // step (opened here) moved nothing.
        let seen = match (&step, record) {
            (Step::Inputs(plays), StepRecord::Inputs { plays: rec, .. }) => Step::Inputs(
                plays
                    .iter()
                    .zip(rec)
                    .filter(|(_, (_, r))| !matches!(r, PlayRecord::Closed { .. }))
                    .map(|(p, _)| p.clone())
                    .collect(),
            ),
            _ => step.clone(),
        };
        let handed = hoard_rules::play::handed::<G>(&public, &seen);
        let moves = card_moves::<G>(&public, &seen);
        if let Err(e) = G::apply(&mut public, &mut privates, &step) {
            let seat = e.seat();
            let what = match seat {
                Some(s) => format!("{} at step {n}: {e}", who(start, s)),
                None => format!("step {n} does not replay: {e}"),
            };
            return Err(fault(seat, Some(n), what));
        }
        if let StepRecord::Inputs { passed, .. } = record {
            deck.apply_moves(&moves, passed)
                .map_err(|e| deck_fault(n, e))?;
        }
        for (seat, card) in handed {
            let (Some(Some(private)), Some(Some(secret))) = (
                privates.get_mut(usize::from(seat)),
                secrets.get(usize::from(seat)),
            ) else {
                continue;
            };
            let face = deck.read(&card, secret).map_err(|e| deck_fault(n, e))?;
            G::learn(private, card, face);
        }
    }
    // A game that stopped on a dishonest deck must have a shuffle that does not replay;
    // if none was found, the shuffler is among the seats that did not reveal.
    if let Some(StepRecord::Ended { by }) = input.records.last()
        && by.is_empty()
    {
        return Err(fault(
            None,
            Some(input.records.len() as u32 - 1),
            "the game stopped on a dishonest deck, and every shuffle that could be checked \
             replays: the shuffler is a seat that did not reveal its secret"
                .into(),
        ));
    }
    if public_hash(&public) != input.final_state {
        return Err(fault(
            None,
            None,
            "replaying the log with every hand shown does not reach the table everyone saw".into(),
        ));
    }
    Ok(())
}

/// The card moves of every open input of a step, by seat.
pub fn card_moves<G: Game>(
    public: &G::Public,
    step: &Step<G::Input>,
) -> Vec<(Seat, Vec<hoard_rules::CardMove>)> {
    match step {
        Step::Inputs(plays) => plays
            .iter()
            .filter_map(|(seat, play)| match play {
                Play::Open(input) => {
                    let moves = G::card_moves(public, *seat, input);
                    (!moves.is_empty()).then_some((*seat, moves))
                }
                Play::Closed => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}
