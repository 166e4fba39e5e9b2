//! Sprawl (Leistiko et al., 2003): grow towers and branches of Icehouse pyramids, neutralize
//! the other players' towers, and finish with the fewest pips left in your stash.
//!
//! Sprawl has no hidden information and no dice. The beacon is used twice: to pick the
//! first player, and (Counting Coup only) to shuffle the poker deck once the game is over.
//!
//! # Where the rulebook is open, and what this engine does
//!
//! The rulebook is `rulebooks/sprawl.txt`; clarifications agreed with the designer are in
//! `GAME-DATA.md`. Points it leaves open are decided as follows.
//!
//! - **Naming.** Columns are lettered from A at the left, rows numbered from 1 at the top:
//!   3 seats play on 5 columns × 6 rows, 4–6 on 6 × 6, 7–8 on 8 × 8.
//! - **Where a branch goes.** Off a tower: any of its four orthogonal neighbours. Off a
//!   branch: the square it points at or either side of it, never behind its base (the
//!   rulebook names only "the side of a branch point" and "squares targeted by" it). The
//!   square must be vacant: one piece per square.
//! - **Which way it points.** By default "branches point directly away from their source":
//!   the same way as the step from the source to the new square. Loose Branching: any way
//!   but back at the source. Either way it must point at a square on the board ("Branch
//!   points must point at an adjacent square"). The rulebook's "may not point at the branch
//!   point they are branching from" follows from both.
//! - **Branch length.** A branch's length is the number of pieces from its tower to it,
//!   counting itself; it may be at most the tower's height. With one piece per square this
//!   gives the rulebook's numbers exactly: a one-piece tower can have its four neighbours
//!   (4 pieces); a two-piece tower adds the eight squares two steps away (12 pieces). The
//!   limit follows the tower's current height, including others' pieces under Sprawlgami.
//! - **Who attacks.** Every branch point attacks the square it points at, whoever owns it:
//!   the rulebook names no exception, so your own branch can neutralize your own tower (no
//!   tie-break credit for that).
//! - **Dead trees.** "The owner of a neutralized tower can not build on it or continue to
//!   branch off of it": nobody builds on a neutralized tower, and nobody branches off it or
//!   off any branch in its chain; those branch points still attack but cannot spore (or
//!   give a Sprawlgami build). A neutralized tower stays neutralized: attacks never leave
//!   the board and a neutralized tower never changes.
//! - **Instant neutralization.** The piece being placed or spored is checked alone, before
//!   any Overload build ("instantly" means the moment it stands there).
//! - **Overload.** The sporer chooses at once how many builds follow the spore: up to one per
//!   extra live branch point of theirs targeting the square, each one pip smaller than the
//!   last, from their stash.
//! - **Sprawlgami.** Building on an opponent's live tower needs a branch point of yours on a
//!   live tower targeting it; the builder then controls the tower (may build on it and
//!   branch off it). Branches keep their owners; the length limit follows the root tower.
//! - **The end.** "When one player has no more valid moves, the game ends at the beginning
//!   of that player's next turn": the game ends when the seat about to move has no valid
//!   move. A seat whose towers are all neutralized is therefore out, and the game ends when
//!   its turn comes round — the designer's "one final round" after an elimination.
//! - **Tie-breaks** (designer): most pips in opponents' towers neutralized, then most such
//!   towers — credited to the seat whose branch made the tower fall — then most spaces
//!   controlled (squares holding its towers and branches after the neutralized pieces go
//!   home), most pips in towers it controls, most towers it controls. Still tied: a shared win.
//! - **Scores.** [`crate::Outcome::scores`] are the stash pips less the coup cards' points;
//!   the lowest score wins.
//! - **Counting Coup.** After a spore, every other seat that could neutralize the new tower
//!   with a branch on its next turn (judged on the board as it stands) is asked at once, in
//!   an open step, whether to say "Are you sure?". If anyone asks, the sporer keeps the
//!   spore or takes it back; on a take-back the card goes to the first asker after the
//!   sporer in turn order (whose turn comes soonest), and the sporer moves again, but not
//!   with a move already taken back this turn. No offer is made when the sporer would have
//!   no other move, nor once all 52 cards are earned. Nobody may look at a coup card before
//!   the end, so no card exists before then: the deck is shuffled by a beacon draw once the
//!   game is over and dealt in the order the cards were earned.
//! - **Away seats.** A seat the table skips by vote is given [`Input::SitOut`]: on its turn it
//!   passes (the rulebook has no passing; an absent player simply does not move); asked
//!   "Are you sure?", it says nothing; deciding about its own spore, it keeps it. A seat the
//!   table removes is given [`Input::Leave`]: it sits out that step and leaves the game. Its
//!   pieces stay on the board — they still attack, block and target, since a neutralized
//!   tower stays neutralized and the board never loses a piece mid-game — and it gets no more
//!   turns, is never asked about a spore, and never ends the game by having no move. At the
//!   end it is scored like everyone (its neutralized pieces go home) but cannot win: the
//!   winner is the best of the seats still in. When every seat but one has left, the game
//!   ends at once and the one still in wins. Neither input is a player's move: both are
//!   refused from a seat, never offered, never chosen by the bot.

mod board;
mod bot;
mod coup;
mod event;
mod rules;
mod score;
mod state;

pub use board::{BOARD_SIZES, Board, Branch, Cell, Dir, Square, Tower};
pub use bot::{Strength, choose};
pub use event::{Event, Fallen, narrate};

pub use state::{
    Card, Config, Credit, Input, Phase, Public, STASH_PER_SIZE, SporeMade, Stash,
};

use crate::{Absence, Game, Listed, Pending, Play, RuleError, Seal, Seat, Step, rng};
use rules::View;

/// The Sprawl engine.
pub struct Sprawl;

impl Game for Sprawl {
    const NAME: &'static str = "sprawl";

    type Config = Config;
    type Public = Public;
    type Private = ();
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        3..=8
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        Public::new(config)
    }

    fn private(_config: &Config, _seat: Seat, _secret: [u8; 32]) {}

    fn pending(public: &Public) -> Pending {
        match &public.phase {
            Phase::FirstPlayer | Phase::Dealing => Pending::Chance,
            Phase::Turn { seat } => Pending::Turn { seat: *seat },
            Phase::Offer { seats, .. } => Pending::Together {
                seats: seats.clone(),
                seal: Seal::Open,
            },
            Phase::Decide { sporer, .. } => Pending::Turn { seat: *sporer },
            Phase::Over(outcome) => Pending::Over(outcome.clone()),
        }
    }

    fn legal_inputs(public: &Public, _private: Option<&()>, seat: Seat) -> Vec<Input> {
        coup::legal_inputs(public, seat)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        let illegal = |why: String| RuleError::Illegal { seat, why };
        match &public.phase {
            Phase::FirstPlayer | Phase::Dealing => Err(wrong_step(public)),
            Phase::Over(_) => Err(RuleError::GameOver),
            Phase::Turn { seat: s } => {
                if *s != seat {
                    return Err(illegal(format!("it is seat {s}'s turn")));
                }
                View::new(public)
                    .check_turn_move(seat, input)
                    .map_err(illegal)
            }
            Phase::Offer { seats, .. } => {
                if !seats.contains(&seat) {
                    return Err(illegal(
                        "only a player who could neutralize the new tower may ask".into(),
                    ));
                }
                match input {
                    Input::Ask | Input::Pass => Ok(()),
                    _ => Err(illegal(
                        "the table waits to hear whether you ask \"Are you sure?\"".into(),
                    )),
                }
            }
            Phase::Decide { sporer, spore, .. } => {
                if *sporer != seat {
                    return Err(illegal(format!(
                        "seat {sporer} is deciding about the spore"
                    )));
                }
                match input {
                    Input::Keep => Ok(()),
                    Input::TakeBack if coup::can_take_back(public, seat, spore) => Ok(()),
                    Input::TakeBack => Err(illegal(
                        "there would be no other move to make instead".into(),
                    )),
                    _ => Err(illegal("keep the spore or take it back".into())),
                }
            }
        }
    }

    fn apply(
        public: &mut Public,
        _privates: &mut [Option<()>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        match (&public.phase, step) {
            (Phase::Over(_), _) => Err(RuleError::GameOver),
            (Phase::FirstPlayer, Step::Chance(draw)) => {
                // "Randomly choose a player to go first."
                let seats = u32::from(public.seats());
                let first = rng::below(&mut rng::from_seed(draw, "first player"), seats) as Seat;
                public.first = Some(first);
                public.phase = Phase::Turn { seat: first };
                Ok(vec![Event::FirstPlayer { seat: first }])
            }
            (Phase::Dealing, Step::Chance(draw)) => {
                let mut events = vec![coup::deal(public, draw)];
                events.extend(score::finish(public));
                Ok(events)
            }
            (Phase::Turn { seat }, Step::Inputs(plays)) => {
                let seat = *seat;
                let input = single_input(public, plays, seat)?;
                if input.is_absence() {
                    // "It passes": the table went on without the seat.
                    let mut events = away(public, seat, input);
                    events.extend(end_turn(public, seat));
                    return Ok(events);
                }
                Self::check_input(public, seat, &input)?;
                let mut events = rules::perform(public, seat, &input);
                if let Input::Spore { at, size, builds } = input {
                    let spore = SporeMade { at, size, builds };
                    if let Some(offer) = coup::offer_after_spore(public, seat, spore) {
                        if let Phase::Offer { seats, .. } = &offer {
                            events.push(Event::CoupOffered {
                                sporer: seat,
                                at,
                                seats: seats.clone(),
                            });
                        }
                        public.phase = offer;
                        return Ok(events);
                    }
                }
                events.extend(end_turn(public, seat));
                Ok(events)
            }
            (
                Phase::Offer {
                    sporer,
                    spore,
                    seats,
                },
                Step::Inputs(plays),
            ) => {
                let (sporer, spore) = (*sporer, *spore);
                let answers = together_inputs(public, plays, seats)?;
                let mut events = Vec::new();
                let mut askers = Vec::new();
                for (seat, input) in answers {
                    if input == Input::Ask {
                        askers.push(seat);
                        events.push(Event::Asked { seat, sporer });
                    } else if input.is_absence() {
                        events.extend(away(public, seat, input));
                    } else {
                        events.push(Event::Passed { seat });
                    }
                }
                match coup::first_asker(public.seats(), sporer, &askers) {
                    Some(asker) => {
                        public.phase = Phase::Decide {
                            sporer,
                            asker,
                            spore,
                        }
                    }
                    None => events.extend(end_turn(public, sporer)),
                }
                Ok(events)
            }
            (
                Phase::Decide {
                    sporer,
                    asker,
                    spore,
                },
                Step::Inputs(plays),
            ) => {
                let (sporer, asker, spore) = (*sporer, *asker, *spore);
                let input = single_input(public, plays, sporer)?;
                if input.is_absence() {
                    // An away sporer keeps the spore.
                    let mut events = away(public, sporer, input);
                    events.push(Event::Kept {
                        seat: sporer,
                        at: spore.at,
                    });
                    events.extend(end_turn(public, sporer));
                    return Ok(events);
                }
                Self::check_input(public, sporer, &input)?;
                if input == Input::TakeBack {
                    coup::undo(public, sporer, &spore);
                    public.taken_back.push(coup::as_input(&spore));
                    public.coup_owed.push(asker);
                    public.phase = Phase::Turn { seat: sporer };
                    Ok(vec![Event::TookBack {
                        seat: sporer,
                        at: spore.at,
                        card_to: asker,
                    }])
                } else {
                    let mut events = vec![Event::Kept {
                        seat: sporer,
                        at: spore.at,
                    }];
                    events.extend(end_turn(public, sporer));
                    Ok(events)
                }
            }
            _ => Err(wrong_step(public)),
        }
    }

    fn bot_input(
        public: &Public,
        _private: Option<&()>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        choose(public, seat, Strength::Greedy, rng)
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        narrate(event, name)
    }

    fn sit_out(_public: &Public, _seat: Seat, absence: Absence) -> Option<Input> {
        Some(match absence {
            Absence::Skipped => Input::SitOut,
            Absence::Removed => Input::Leave,
        })
    }
}

impl Listed for Sprawl {
    const TITLE: &'static str = "Sprawl";
    const VARIANTS: &'static [&'static str] = &[
        "counting-coup",
        "sprawlgami",
        "overload",
        "superior-forces",
        "loose-branching",
    ];

    fn config(seats: u8) -> Config {
        Config::new(seats)
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    fn with_seats(config: &Config, seats: u8) -> Config {
        Config {
            seats,
            ..config.clone()
        }
    }

    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "counting-coup" => config.counting_coup = true,
            "sprawlgami" => config.sprawlgami = true,
            "overload" => config.overload = true,
            "superior-forces" => config.superior_forces = true,
            "loose-branching" => config.loose_branching = true,
            other => return Err(format!("Sprawl has no variant {other:?}")),
        }
        Ok(())
    }

    /// Each seat's pieces, on the board and in its stash: always five of each size.
    fn check_pieces(public: &Public, _privates: &[Option<()>]) -> Result<(), String> {
        let mut count: Vec<[u8; 3]> = public.stashes.iter().map(|stash| stash.counts).collect();
        let mut add = |owner: Seat, size: u8| {
            if let Some(n) = count
                .get_mut(usize::from(owner))
                .and_then(|c| c.get_mut(usize::from(size).wrapping_sub(1)))
            {
                *n += 1;
            }
        };
        for cell in &public.board.cells {
            match cell {
                Cell::Tower(tower) => tower.pieces().for_each(|(owner, size)| add(owner, size)),
                Cell::Branch(branch) => add(branch.owner, branch.size),
                Cell::Empty => {}
            }
        }
        let full = [STASH_PER_SIZE; 3];
        match count.iter().position(|c| *c != full) {
            Some(seat) => Err(format!("seat {seat} has {:?} pieces by size", count[seat])),
            None => Ok(()),
        }
    }
}

/// The error for a step of the wrong kind, saying what the game waits for.
fn wrong_step(public: &Public) -> RuleError {
    let expected = match &public.phase {
        Phase::FirstPlayer => "the beacon draw that picks the first player".to_string(),
        Phase::Dealing => "the beacon draw that deals the coup cards".to_string(),
        Phase::Turn { seat } => format!("seat {seat}'s move"),
        Phase::Offer { seats, .. } => format!("seats {seats:?} to say whether they ask"),
        Phase::Decide { sporer, .. } => format!("seat {sporer} to keep or take back the spore"),
        Phase::Over(_) => "nothing; the game is over".to_string(),
    };
    RuleError::WrongStep { expected }
}

/// The one open input of a single seat's step.
fn single_input(
    public: &Public,
    plays: &[(Seat, Play<Input>)],
    seat: Seat,
) -> Result<Input, RuleError> {
    match plays {
        [(s, Play::Open(input) | Play::Away(input))] if *s == seat => Ok(*input),
        [(s, Play::Closed)] if *s == seat => Err(RuleError::Illegal {
            seat,
            why: "Sprawl has no sealed moves; every move is shown".into(),
        }),
        _ => Err(wrong_step(public)),
    }
}

/// The open answers of exactly `seats`, in ascending seat order.
fn together_inputs(
    public: &Public,
    plays: &[(Seat, Play<Input>)],
    seats: &[Seat],
) -> Result<Vec<(Seat, Input)>, RuleError> {
    if plays.len() != seats.len() || plays.iter().zip(seats).any(|((s, _), want)| s != want) {
        return Err(wrong_step(public));
    }
    plays
        .iter()
        .map(|(seat, play)| match play {
            Play::Open(input @ (Input::Ask | Input::Pass | Input::SitOut | Input::Leave))
            | Play::Away(input @ (Input::Ask | Input::Pass | Input::SitOut | Input::Leave)) => {
                Ok((*seat, *input))
            }
            Play::Open(_) | Play::Away(_) => Err(RuleError::Illegal {
                seat: *seat,
                why: "the table waits to hear whether you ask \"Are you sure?\"".into(),
            }),
            Play::Closed => Err(RuleError::Illegal {
                seat: *seat,
                why: "Sprawl has no sealed moves; every answer is shown".into(),
            }),
        })
        .collect()
}

/// The table went on without `seat` at this step; with [`Input::Leave`] it leaves the game.
fn away(public: &mut Public, seat: Seat, input: Input) -> Vec<Event> {
    if input == Input::Leave && !public.left.contains(&seat) {
        public.left.push(seat);
        public.left.sort_unstable();
        vec![Event::Left { seat }]
    } else {
        vec![Event::SatOut { seat }]
    }
}

/// Closes `seat`'s turn and hands the move to the next seat still in the game, or ends the
/// game if that seat has no valid move, or if it is the only one left.
fn end_turn(public: &mut Public, seat: Seat) -> Vec<Event> {
    public.taken_back.clear();
    let n = public.seats();
    let next = (1..=n)
        .map(|k| (seat + k) % n)
        .find(|s| !public.left.contains(s))
        .unwrap_or(seat);
    let mut events = Vec::new();
    if usize::from(n).saturating_sub(public.left.len()) <= 1 {
        // Everyone else was removed: the one still in has nobody to play against.
        events.push(Event::LastOneIn { seat: next });
    } else if View::new(public).has_turn_move(next) {
        public.phase = Phase::Turn { seat: next };
        return Vec::new();
    } else {
        // "When one player has no more valid moves, the game ends at the beginning of that
        // player's next turn."
        events.push(Event::NoMoves { seat: next });
    }
    if public.coup_owed.is_empty() {
        events.extend(score::finish(public));
    } else {
        public.phase = Phase::Dealing;
    }
    events
}
