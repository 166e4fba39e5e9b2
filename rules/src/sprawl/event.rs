//! What happened in a game of Sprawl, in order, and the plain-language line the game log
//! shows for each.

use serde::{Deserialize, Serialize};

use super::board::{Dir, Square};
use super::state::Card;
use crate::Seat;

/// A tower that a branch has just neutralized.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Fallen {
    pub at: Square,
    /// Who controlled it.
    pub controller: Seat,
    pub pips: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    FirstPlayer {
        seat: Seat,
    },
    Placed {
        seat: Seat,
        at: Square,
        size: u8,
    },
    Built {
        seat: Seat,
        at: Square,
        size: u8,
        /// Sprawlgami: the seat that controlled the tower before this build.
        taken_from: Option<Seat>,
    },
    Branched {
        seat: Seat,
        from: Square,
        at: Square,
        dir: Dir,
        size: u8,
        neutralized: Option<Fallen>,
    },
    Spored {
        seat: Seat,
        at: Square,
        size: u8,
        /// Overload builds added at once.
        builds: u8,
    },
    /// Counting Coup: these seats could neutralize the spore next turn and may ask.
    CoupOffered {
        sporer: Seat,
        at: Square,
        seats: Vec<Seat>,
    },
    /// Counting Coup: "Are you sure you want to do that?"
    Asked {
        seat: Seat,
        sporer: Seat,
    },
    Passed {
        seat: Seat,
    },
    /// Counting Coup: the spore is taken back and `card_to` earns a face-down card.
    TookBack {
        seat: Seat,
        at: Square,
        card_to: Seat,
    },
    Kept {
        seat: Seat,
        at: Square,
    },
    /// `seat` has no valid move at the start of its turn: the game ends.
    NoMoves {
        seat: Seat,
    },
    /// The table went on without `seat`: it passes its turn (or says nothing, or keeps
    /// its spore).
    SatOut {
        seat: Seat,
    },
    /// The table removed `seat`: it leaves the game; its pieces stay on the board.
    Left {
        seat: Seat,
    },
    /// Every other seat left: the game ends.
    LastOneIn {
        seat: Seat,
    },
    /// Counting Coup: the face-down cards, dealt from the shuffled deck in the order earned.
    CardsDealt {
        cards: Vec<(Seat, Card)>,
    },
    /// Pieces of `seat` in neutralized towers and their branches went back to its stash.
    Returned {
        seat: Seat,
        pips: u16,
    },
    /// Final scores by seat (stash pips less coup cards; lowest wins).
    Finished {
        scores: Vec<i32>,
        winners: Vec<Seat>,
    },
}

fn list(names: impl Iterator<Item = String>) -> String {
    let names: Vec<String> = names.collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// One line of the game log.
pub fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match event {
        Event::FirstPlayer { seat } => format!("{} goes first.", name(*seat)),
        Event::Placed { seat, at, size } => {
            format!("{} places a starting {size} at {at}.", name(*seat))
        }
        Event::Built {
            seat,
            at,
            size,
            taken_from,
        } => match taken_from {
            Some(prev) => format!(
                "{} builds a {size} on {}'s tower at {at} and takes control of it.",
                name(*seat),
                name(*prev)
            ),
            None => format!("{} builds a {size} on the tower at {at}.", name(*seat)),
        },
        Event::Branched {
            seat,
            from,
            at,
            dir,
            size,
            neutralized,
        } => {
            let mut line = format!(
                "{} branches a {size} from {from} to {at}, pointing {}",
                name(*seat),
                dir.word()
            );
            if let Some(f) = neutralized {
                if f.controller == *seat {
                    line.push_str(&format!("; their own tower at {} is neutralized", f.at));
                } else {
                    line.push_str(&format!(
                        "; {}'s tower at {} is neutralized",
                        name(f.controller),
                        f.at
                    ));
                }
            }
            line.push('.');
            line
        }
        Event::Spored {
            seat,
            at,
            size,
            builds,
        } => {
            if *builds == 0 {
                format!("{} spores a {size} at {at}.", name(*seat))
            } else {
                let caps = list((1..=*builds).map(|k| (size - k).to_string()));
                format!(
                    "{} spores a {size} at {at} and overloads it with {caps}.",
                    name(*seat)
                )
            }
        }
        Event::CoupOffered { sporer, at, seats } => format!(
            "{} could neutralize {}'s new tower at {at} next turn.",
            list(seats.iter().map(|s| name(*s))),
            name(*sporer)
        ),
        Event::Asked { seat, sporer } => format!(
            "{} asks {}: \"Are you sure you want to do that?\"",
            name(*seat),
            name(*sporer)
        ),
        Event::Passed { seat } => format!("{} says nothing.", name(*seat)),
        Event::TookBack { seat, at, card_to } => format!(
            "{} takes back the spore at {at}; {} gets a face-down card.",
            name(*seat),
            name(*card_to)
        ),
        Event::Kept { seat, at } => format!("{} keeps the spore at {at}.", name(*seat)),
        Event::NoMoves { seat } => format!("{} has no valid move: the game ends.", name(*seat)),
        Event::SatOut { seat } => {
            format!("{} is away: the table goes on without them.", name(*seat))
        }
        Event::Left { seat } => format!(
            "{} has left the game; their pieces stay on the board.",
            name(*seat)
        ),
        Event::LastOneIn { seat } => {
            format!("Everyone but {} has left: the game ends.", name(*seat))
        }
        Event::CardsDealt { cards } => {
            let worth = |c: &Card| c.worth();
            format!(
                "Coup cards: {}.",
                list(
                    cards
                        .iter()
                        .map(|(s, c)| format!("{} {c} (−{})", name(*s), worth(c)))
                )
            )
        }
        Event::Returned { seat, pips } => format!(
            "{}'s neutralized pieces go back to the stash: {pips} pips.",
            name(*seat)
        ),
        Event::Finished { scores, winners } => {
            let table = list(
                scores
                    .iter()
                    .enumerate()
                    .map(|(s, v)| format!("{} {v}", name(s as Seat))),
            );
            let who = list(winners.iter().map(|s| name(*s)));
            let best = winners.first().and_then(|w| scores.get(usize::from(*w)));
            let tied = scores
                .iter()
                .enumerate()
                .any(|(s, v)| Some(v) == best && !winners.contains(&(s as Seat)));
            if winners.len() > 1 {
                format!("{who} share the win ({table}).")
            } else if tied {
                format!("{who} wins on the tie-break ({table}).")
            } else {
                format!("{who} wins with the fewest points left ({table}).")
            }
        }
    }
}
