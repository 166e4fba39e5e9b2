//! The audit at the end of a game: with every seat's secrets revealed, replay the whole log
//! with every private side present and check every play, then say "verified" or name the
//! seat, the step and what was wrong. A seat removed before it revealed is left out, and
//! [`unchecked_parts`] says what of its game could not be checked, so "verified" never
//! claims more than was checked.

use crate::identity::{SessionId, Start};
use crate::log::{PlayRecord, StepRecord};
use crate::mental::table::TableDeck;
use crate::seal;
use crate::wire::{Accept, Hash, Reveal};
use hoard_rules::{CardId, Game, Handle, Play, Seat, Step, public_hash};
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
    /// side and was legal. `unchecked` lists seats the table removed before they revealed:
    /// [`unchecked_parts`] says what of each was not checked.
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
    match replay(input, None) {
        Ok(()) => Verdict::Verified {
            unchecked: (0..input.start.seat_count() as Seat)
                .filter(|s| input.reveals.get(*s as usize).is_none_or(|r| r.is_none()))
                .collect(),
        },
        Err(fault) => Verdict::Fault(fault),
    }
}

/// The game as nobody saw it while it was played: every hand at every step and every play
/// that stayed sealed, read from the audit's replay once every secret is out.
pub struct Shown<G: Game> {
    /// `hands[k][seat]`: each seat's private side after `k` steps (the first as dealt),
    /// as the game's public history counts its steps; `None` for a seat that never
    /// revealed its secret.
    pub hands: Vec<Vec<Option<G::Private>>>,
    /// Every play the table never saw opened, as the audit opened it: (step, seat, input).
    pub sealed: Vec<(u32, Seat, G::Input)>,
    /// The face of every card of a shared deck, by handle, read with every secret (a removed
    /// seat's key put together from its escrow): each deck's order at every step (a handle
    /// names the same card from its deck's making to its showing). A card no key reads is
    /// missing.
    pub faces: BTreeMap<Handle, CardId>,
}

/// Every hand at every step and every sealed play, from a game that audits: nothing of it
/// is shown before the audit, which is when every seat's secret is public. The fault if
/// the game does not replay.
pub fn shown<G: Game>(input: &AuditInput<'_, G>) -> Result<Shown<G>, Fault> {
    let mut shown = Shown {
        hands: Vec::new(),
        sealed: Vec::new(),
        faces: BTreeMap::new(),
    };
    replay(input, Some(&mut shown))?;
    Ok(shown)
}

/// One part of a seat's game the audit could not check, because the seat never revealed its
/// secret (the table removed it before the end).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Unchecked {
    /// Choices it sealed and never opened, by step: nobody saw what it chose.
    Sealed { steps: Vec<u32> },
    /// Its own deck: its private side is made from its secret (GreedQuest's deck), so
    /// nobody could check the order its cards came in, nor its plays against them.
    OwnDeck,
    /// How many hidden cards of a shared deck it was dealt or passed: nobody could read
    /// them, so its plays were never checked against its hand.
    Held { cards: u32 },
}

/// What the audit could not check of one seat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UncheckedSeat {
    pub seat: Seat,
    /// Never empty: a seat with nothing hidden left unchecked is not listed.
    pub parts: Vec<Unchecked>,
}

/// What the audit could not check of `seat`, a seat that never revealed its secret (one of
/// [`Verdict::Verified`]'s `unchecked`), read from the log. `history[n]` is the public state
/// before step `n` (as [`crate::Core::public_history`] gives it, which is whole for a game
/// the audit verified): it says who a deal went to and what a play passed. Empty when
/// nothing of the seat was hidden (a game of open plays only, or a seat gone before its
/// first shuffle).
pub fn unchecked_parts<G: Game>(
    config: &G::Config,
    records: &[StepRecord],
    history: &[G::Public],
    seat: Seat,
) -> Vec<Unchecked> {
    let mut sealed = Vec::new();
    let mut held = 0u32;
    for (n, record) in records.iter().enumerate() {
        let public = history.get(n);
        let handed = match record {
            // A deck step is a deal when the game waited for one. (A seat's shuffles are
            // not among what it leaves unchecked: each was proven when it arrived.)
            StepRecord::Deck { .. } => Step::Dealt,
            StepRecord::Inputs { plays, .. } => {
                if plays
                    .iter()
                    .any(|(s, p)| *s == seat && matches!(p, PlayRecord::Closed { .. }))
                {
                    sealed.push(n as u32);
                }
                Step::Inputs(
                    plays
                        .iter()
                        .filter_map(|(s, p)| match p {
                            PlayRecord::Open(bytes) | PlayRecord::Opened { input: bytes, .. } => {
                                let input = postcard::from_bytes::<G::Input>(bytes).ok()?;
                                Some((*s, Play::Open(input)))
                            }
                            _ => None,
                        })
                        .collect(),
                )
            }
            StepRecord::Chance { .. } | StepRecord::Ended { .. } => continue,
        };
        if let Some(public) = public {
            let to_seat = hoard_rules::play::handed::<G>(public, &handed)
                .iter()
                .filter(|(to, _)| *to == seat)
                .count();
            held += to_seat as u32;
        }
    }
    let mut parts = Vec::new();
    if !sealed.is_empty() {
        parts.push(Unchecked::Sealed { steps: sealed });
    }
    // A private side that two secrets make differently is one the secret deals.
    if G::private(config, seat, [0; 32]) != G::private(config, seat, [0xff; 32]) {
        parts.push(Unchecked::OwnDeck);
    }
    if held > 0 {
        parts.push(Unchecked::Held { cards: held });
    }
    parts
}

/// The most step numbers one part lists, and the most parts the words name, before they sum
/// up the rest ("and 5 more"): the words must stay readable on a phone.
const MOST_STEPS: usize = 3;
const MOST_PARTS: usize = 4;

/// What the audit could not check, in words, to follow "Verified, except ": "Cat's sealed
/// choices at steps 12 and 30 and the 3 hidden cards Cat held, which Cat never revealed: Cat
/// left the game before the end". `name` gives a seat's player name.
pub fn unchecked_words(unchecked: &[UncheckedSeat], name: &dyn Fn(Seat) -> String) -> String {
    let mut phrases = Vec::new();
    for u in unchecked {
        let who = name(u.seat);
        for part in &u.parts {
            phrases.push(match part {
                Unchecked::OwnDeck => format!("the cards {who} drew from {who}'s own deck"),
                Unchecked::Held { cards: 1 } => format!("the hidden card {who} held"),
                Unchecked::Held { cards } => format!("the {cards} hidden cards {who} held"),
                Unchecked::Sealed { steps } => format!(
                    "{who}'s sealed {} {}",
                    noun(steps, "choice", "choices"),
                    at_steps(steps)
                ),
            });
        }
    }
    let mut list = if phrases.len() > MOST_PARTS {
        format!(
            "{} and {} more",
            phrases[..MOST_PARTS].join(", "),
            phrases.len() - MOST_PARTS
        )
    } else {
        and_list(&phrases)
    };
    let names: Vec<String> = unchecked.iter().map(|u| name(u.seat)).collect();
    let they = match names.as_slice() {
        [one] => one.clone(),
        _ => "they".into(),
    };
    list.push_str(&format!(
        ", which {} never revealed: {they} left the game before the end",
        and_list(&names)
    ));
    list
}

fn noun<'a>(steps: &[u32], one: &'a str, many: &'a str) -> &'a str {
    if steps.len() == 1 { one } else { many }
}

/// "at step 12", "at steps 12 and 30", "at steps 1, 2, 3 and 5 more".
fn at_steps(steps: &[u32]) -> String {
    let shown: Vec<String> = steps.iter().take(MOST_STEPS).map(u32::to_string).collect();
    match steps {
        [one] => format!("at step {one}"),
        _ if steps.len() > MOST_STEPS => format!(
            "at steps {} and {} more",
            shown.join(", "),
            steps.len() - MOST_STEPS
        ),
        _ => format!("at steps {}", and_list(&shown)),
    }
}

/// "a", "a and b", "a, b and c".
fn and_list(items: &[String]) -> String {
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// The audit's replay; `shown`, if given, is filled with every hand after every step and
/// every sealed play opened.
fn replay<G: Game>(
    input: &AuditInput<'_, G>,
    mut shown: Option<&mut Shown<G>>,
) -> Result<(), Fault> {
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
    if let Some(shown) = shown.as_deref_mut() {
        shown.hands.push(privates.clone());
    }
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
                            Some(i) => Play::Away(i),
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
                                if let Some(shown) = shown.as_deref_mut() {
                                    shown.sealed.push((n, seat, i.clone()));
                                }
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
        if let Some(shown) = shown.as_deref_mut() {
            shown.hands.push(privates.clone());
            deck.read_every(&secrets, &mut shown.faces);
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
                Play::Open(input) | Play::Away(input) => {
                    let moves = G::card_moves(public, *seat, input);
                    (!moves.is_empty()).then_some((*seat, moves))
                }
                Play::Closed => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mental::table::DeckRecord;
    use hoard_rules::counter::{self, Counter};
    use hoard_rules::greedquest::{Config, GreedQuest};
    use hoard_rules::{Listed, Pending};

    fn shuffle() -> DeckRecord {
        DeckRecord::Shuffle {
            cards: Vec::new(),
            escrow: Vec::new(),
        }
    }

    fn shares() -> DeckRecord {
        DeckRecord::Shares {
            shares: Vec::new(),
            opened: Vec::new(),
        }
    }

    fn closed() -> PlayRecord {
        PlayRecord::Closed {
            commitment: [7; 32],
        }
    }

    /// GreedQuest's Room 11: "each seat secretly keeps or discards the first card it drew".
    /// A seat removed before the audit never opened those choices, and its deck is shuffled
    /// from its secret: both are named, and a seat that sealed nothing is named only for its
    /// deck.
    #[test]
    fn a_greedquest_seat_that_never_revealed_leaves_its_sealed_choices_and_its_deck_unchecked() {
        let records = vec![
            StepRecord::Chance {
                draw: [1; 32],
                from: vec![0, 1, 2],
            },
            StepRecord::Inputs {
                plays: vec![(0, closed()), (1, PlayRecord::Removed), (2, closed())],
                passed: Vec::new(),
            },
            StepRecord::Inputs {
                plays: vec![(2, PlayRecord::Open(vec![0]))],
                passed: Vec::new(),
            },
            StepRecord::Inputs {
                plays: vec![(0, PlayRecord::SatOut), (2, closed())],
                passed: Vec::new(),
            },
        ];
        let config = Config::new(3);
        assert_eq!(
            unchecked_parts::<GreedQuest>(&config, &records, &[], 2),
            vec![Unchecked::Sealed { steps: vec![1, 3] }, Unchecked::OwnDeck]
        );
        assert_eq!(
            unchecked_parts::<GreedQuest>(&config, &records, &[], 1),
            vec![Unchecked::OwnDeck]
        );
    }

    /// Counter: "the deck is shuffled so that nobody knows its order. Each player is dealt 3
    /// cards", and a Give passes one face down. A seat that never revealed held cards nobody
    /// could read; its shuffle is not named, as every shuffle was proven when it arrived.
    #[test]
    fn a_counter_seat_that_never_revealed_leaves_its_hand_unchecked_and_not_its_shuffle() {
        let config = Counter::config(3);
        let mut public = Counter::setup(&config).expect("set up");
        let mut history = vec![public.clone()];
        let mut records = Vec::new();
        let mut play = |public: &mut counter::Public, record: StepRecord, step: Step<_>| {
            Counter::apply(public, &mut [], &step).expect("the rules take the step");
            records.push(record);
            history.push(public.clone());
        };
        play(
            &mut public,
            StepRecord::Deck {
                parts: vec![(0, shuffle()), (1, shuffle()), (2, shuffle())],
                faces: Vec::new(),
            },
            Step::Shuffled,
        );
        for to in 0..3 {
            let others = (0..3).filter(|s| *s != to).map(|s| (s, shares())).collect();
            play(
                &mut public,
                StepRecord::Deck {
                    parts: others,
                    faces: Vec::new(),
                },
                Step::Dealt,
            );
        }
        play(
            &mut public,
            StepRecord::Chance {
                draw: [3; 32],
                from: vec![0, 1, 2],
            },
            Step::Chance([3; 32]),
        );
        let Pending::Turn { seat: giver } = Counter::pending(&public) else {
            panic!("a turn after the first player is drawn");
        };
        let to = (giver + 1) % 3;
        let give = counter::Input::Give {
            card: public.hands[usize::from(giver)][0],
            to,
        };
        let bytes = postcard::to_stdvec(&give).expect("encode");
        play(
            &mut public,
            StepRecord::Inputs {
                plays: vec![(giver, PlayRecord::Open(bytes))],
                passed: vec![(giver, Vec::new())],
            },
            Step::turn(giver, give),
        );

        assert_eq!(
            unchecked_parts::<Counter>(&config, &records, &history, to),
            vec![Unchecked::Held { cards: 4 }]
        );
        assert_eq!(
            unchecked_parts::<Counter>(&config, &records, &history, giver),
            vec![Unchecked::Held { cards: 3 }]
        );
    }

    fn names(seat: Seat) -> String {
        ["Ann", "Bo", "Cat"][usize::from(seat)].into()
    }

    #[test]
    fn the_words_name_each_unchecked_part_and_its_player() {
        let cat = UncheckedSeat {
            seat: 2,
            parts: vec![
                Unchecked::Sealed {
                    steps: vec![12, 30],
                },
                Unchecked::Held { cards: 3 },
            ],
        };
        assert_eq!(
            unchecked_words(std::slice::from_ref(&cat), &names),
            "Cat's sealed choices at steps 12 and 30 and the 3 hidden cards Cat held, which Cat \
             never revealed: Cat left the game before the end"
        );
        let bo = UncheckedSeat {
            seat: 1,
            parts: vec![Unchecked::Held { cards: 1 }, Unchecked::OwnDeck],
        };
        assert_eq!(
            unchecked_words(&[bo, cat], &names),
            "the hidden card Bo held, the cards Bo drew from Bo's own deck, Cat's sealed \
             choices at steps 12 and 30 and the 3 hidden cards Cat held, which Bo and Cat never \
             revealed: they left the game before the end"
        );
    }

    #[test]
    fn long_lists_are_summed_up_to_stay_readable_on_a_phone() {
        let seat = |seat: Seat| UncheckedSeat {
            seat,
            parts: vec![
                Unchecked::Sealed {
                    steps: vec![4, 9, 15, 22, 31, 40, 47, 52],
                },
                Unchecked::Held { cards: 7 },
            ],
        };
        assert_eq!(
            unchecked_words(&[seat(0), seat(1), seat(2)], &names),
            "Ann's sealed choices at steps 4, 9, 15 and 5 more, the 7 hidden cards Ann held, \
             Bo's sealed choices at steps 4, 9, 15 and 5 more, the 7 hidden cards Bo held and \
             2 more, which Ann, Bo and Cat never revealed: they left the game before the end"
        );
    }
}
