//! The one interface every game implements, after OpenSpiel's `State`, adapted to
//! hidden information with no referee.

use crate::deck::{CardId, CardMove, Handle};
use serde::{Serialize, de::DeserializeOwned};
use std::collections::BTreeMap;
use std::fmt::Debug;

/// A seat at the table, counted from 0 in the order of the session's start.
pub type Seat = u8;

/// What the game waits for next.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Pending {
    /// One seat's open input.
    Turn { seat: Seat },
    /// Several seats decide at once; `seal` says who may see an input and when. At a
    /// [`Seal::Reaction`] step the order of `seats` is the order their answers are opened
    /// in (the first that answers is the one taken); the step's inputs still come in
    /// ascending seat order.
    Together { seats: Vec<Seat>, seal: Seal },
    /// A shared random number from the beacon: a 32-byte draw that no seat could
    /// predict or steer. The game expands it with [`crate::rng`].
    Chance,
    /// A shared hidden deck made from `cards` (faces every device knows: a game's whole
    /// list of cards at set-up, a discard pile when the deck runs out) and shuffled so that
    /// no one, no seat, knows its order. Completed with [`Step::Shuffled`]; the new deck's
    /// cards are named by [`Handle`]s of the deck's next generation (see
    /// [`crate::deck::HiddenDeck`]).
    Shuffle { deck: DeckId, cards: Vec<CardId> },
    /// Hidden cards go to `to`, and only `to` learns their faces (through
    /// [`Game::learn`], after [`Step::Dealt`] is applied). Each card is one no seat has
    /// held yet: still in its deck, or put back into it.
    Deal { to: Seat, cards: Vec<Handle> },
    /// Hidden cards no seat holds are turned face up for all (a card laid beside a house,
    /// a market row). Completed with [`Step::Revealed`], their faces in the same order.
    Reveal { cards: Vec<Handle> },
    /// The game is over.
    Over(Outcome),
}

/// How long the seats have to answer a play out of turn (a [`Seal::Reaction`] step): a
/// table setting held in a game's options, so every device at the table waits the same,
/// and when it ends each device passes for its player. On the wire and on disk it is its
/// milliseconds, a `u32`.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(transparent)]
pub struct ReactionWindow(u32);

impl ReactionWindow {
    /// Three seconds: a table's window unless its host chose another.
    pub const USUAL: ReactionWindow = ReactionWindow(3_000);
    /// One second: the `quick-answers` variant.
    pub const QUICK: ReactionWindow = ReactionWindow(1_000);
    /// What a host picks from in the lobby.
    pub const CHOICES: [ReactionWindow; 3] = [
        ReactionWindow::QUICK,
        ReactionWindow::USUAL,
        ReactionWindow(5_000),
    ];
    /// The shortest and the longest window a table may be set up with.
    pub const SHORTEST: ReactionWindow = ReactionWindow(500);
    pub const LONGEST: ReactionWindow = ReactionWindow(10_000);

    pub const fn from_ms(ms: u32) -> ReactionWindow {
        ReactionWindow(ms)
    }

    pub const fn ms(self) -> u32 {
        self.0
    }

    /// Refuses a window outside [`Self::SHORTEST`]..=[`Self::LONGEST`]; `what` names it
    /// as the game does ("the time to counter").
    pub fn check(self, what: &str) -> Result<(), RuleError> {
        if (Self::SHORTEST..=Self::LONGEST).contains(&self) {
            Ok(())
        } else {
            Err(RuleError::BadConfig(format!(
                "{what} must be {} to {} ms, not {}",
                Self::SHORTEST.0,
                Self::LONGEST.0,
                self.0
            )))
        }
    }
}

impl Default for ReactionWindow {
    fn default() -> Self {
        ReactionWindow::USUAL
    }
}

/// A shared hidden deck, as the game numbers its decks (0, 1, ...).
pub type DeckId = u8;

/// How the inputs of a [`Pending::Together`] step are shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Seal {
    /// Each input is seen as soon as it is made (simultaneous, but nothing to hide).
    Open,
    /// No input is seen before every input of the step is committed; then all are opened.
    UntilAll,
    /// Committed now, opened only at the audit: a private decision that changes only
    /// its owner's private state (GreedQuest's Room 11 keep-or-discard). The public
    /// state advances without seeing it.
    UntilAudit,
    /// A window in which the seats may answer a play out of turn (an Ace against a shop,
    /// a card "played at any time"): sealed until all are committed, and every seat may
    /// answer nothing with [`Game::pass`]. The answers are then opened one by one in the
    /// order the step lists its seats, and the opening stops at the first that answers:
    /// the later ones reach the engine as [`Play::Closed`] and must change nothing, public
    /// or private (the audit opens them and replays them as made). A device never lets a seat's
    /// commitment leave before the table's reaction window has run, and passes for its
    /// player when it ends, so how fast a seat answers says nothing of its hand. A chain
    /// of answers (an answer to an answer) is a chain of such steps.
    Reaction,
}

/// How a game ended.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Outcome {
    /// Every seat that won (more than one on a tie the rules let stand).
    pub winners: Vec<Seat>,
    /// Per-seat final scores, by seat, where the game keeps score; empty otherwise.
    pub scores: Vec<i32>,
}

/// One seat's part of a completed [`Pending::Together`] or [`Pending::Turn`] step.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Play<I> {
    /// The input itself.
    Open(I),
    /// A [`Seal::UntilAudit`] input as everyone but its owner holds it: known to be
    /// committed, its content unknown until the audit.
    Closed,
    /// The input the rules make for a seat the table goes on without ([`Game::sit_out`]),
    /// the same on every device. It is the rules' own move, not the player's, so it need
    /// not be one the player could choose: a removed player gives nothing in a trade.
    Away(I),
}

impl<I> Play<I> {
    /// The input, made by its seat or by the rules for it; `None` while sealed.
    pub fn input(&self) -> Option<&I> {
        match self {
            Play::Open(input) | Play::Away(input) => Some(input),
            Play::Closed => None,
        }
    }
}

/// A completed step, as the protocol hands it to the engine.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Step<I> {
    /// The beacon draw a [`Pending::Chance`] waited for.
    Chance([u8; 32]),
    /// Every awaited seat's input, in ascending seat order, exactly the seats
    /// [`Game::pending`] named.
    Inputs(Vec<(Seat, Play<I>)>),
    /// A [`Pending::Shuffle`] is done: the new deck lies face down, its order unknown.
    Shuffled,
    /// The cards of a [`Pending::Deal`] are in their seat's hand. The faces go only to
    /// that seat's private side, through [`Game::learn`].
    Dealt,
    /// The faces of a [`Pending::Reveal`]'s cards, in its order.
    Revealed(Vec<CardId>),
}

impl<I> Step<I> {
    /// A single seat's open input: the shape of every [`Pending::Turn`] step.
    pub fn turn(seat: Seat, input: I) -> Self {
        Step::Inputs(vec![(seat, Play::Open(input))])
    }
}

/// Why a step or a configuration was refused, in the players' terms.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, serde::Serialize, serde::Deserialize)]
pub enum RuleError {
    #[error("this game cannot be set up that way: {0}")]
    BadConfig(String),
    #[error("the game is over; no more moves")]
    GameOver,
    #[error("the game waits for {expected}, not for this step")]
    WrongStep { expected: String },
    #[error("seat {seat} made a move that is not allowed: {why}")]
    Illegal { seat: Seat, why: String },
    #[error("seat {seat}'s private state contradicts the move: {why}")]
    PrivateMismatch { seat: Seat, why: String },
}

impl RuleError {
    /// `seat`'s input breaks the rules, for the reason `why` (in words a player reads).
    pub fn illegal(seat: Seat, why: impl Into<String>) -> RuleError {
        RuleError::Illegal {
            seat,
            why: why.into(),
        }
    }

    /// The seat whose input caused the error, when one did.
    pub fn seat(&self) -> Option<Seat> {
        match self {
            RuleError::Illegal { seat, .. } | RuleError::PrivateMismatch { seat, .. } => {
                Some(*seat)
            }
            _ => None,
        }
    }
}

/// Why the table goes on without a seat at a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Absence {
    /// Skipped by vote: it may come back and play on.
    Skipped,
    /// Removed by vote (at this step or before): it has left the game for good.
    Removed,
}

impl Absence {
    /// How a log record says the seat was absent, if it was.
    pub fn of<R: AbsenceRecord>(record: &R) -> Option<Absence> {
        record.absence()
    }

    /// The log record of a seat absent so.
    pub fn record<R: AbsenceRecord>(self) -> R {
        R::absent(self)
    }
}

/// A record of one seat's part in a step that can say the seat was absent: the protocol's
/// log record. It lets [`Absence::of`] and [`Absence::record`] read and write one.
pub trait AbsenceRecord: Sized {
    /// The absence this record says, if it says one.
    fn absence(&self) -> Option<Absence>;
    /// The record of a seat absent so.
    fn absent(absence: Absence) -> Self;
}

/// A game's rules. Implementations are unit structs; all state lives in the
/// associated types, so the same engine serves every device, the bots and the audit.
///
/// Determinism is part of the contract: the same `Config` and the same steps give the
/// same `Public` bytes on every platform, whichever private sides are present.
pub trait Game: 'static {
    /// Short stable name used on the wire and on disk ("greedquest").
    const NAME: &'static str;

    type Config: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What every device sees, identical byte for byte everywhere.
    type Public: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What only one seat knows; others rebuild it only at the audit.
    type Private: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What a seat submits.
    type Input: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;
    /// What happened, in order, for the game log and the screen.
    type Event: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync;

    /// The seat counts this game can be played with.
    fn seat_range() -> std::ops::RangeInclusive<u8>;

    /// The table before the first step.
    fn setup(config: &Self::Config) -> Result<Self::Public, RuleError>;

    /// A seat's private side before the first step. `secret` is the seat's own
    /// 32-byte secret, committed before any beacon draw (the protocol supplies it);
    /// games without hidden state ignore it.
    fn private(config: &Self::Config, seat: Seat, secret: [u8; 32]) -> Self::Private;

    /// What the game waits for.
    fn pending(public: &Self::Public) -> Pending;

    /// Everything `seat` may submit now. With its private side the list is exact;
    /// without it, it is what the public state allows.
    fn legal_inputs(
        public: &Self::Public,
        private: Option<&Self::Private>,
        seat: Seat,
    ) -> Vec<Self::Input>;

    /// Whether `seat`, holding `private`, may make `input` now: what a device asks before
    /// it signs its own player's move. By default, whether `input` is one of
    /// [`Game::legal_inputs`]; a game whose moves are too many to list (a walk along any
    /// path) says it directly.
    fn allows(
        public: &Self::Public,
        private: &Self::Private,
        seat: Seat,
        input: &Self::Input,
    ) -> bool {
        Self::legal_inputs(public, Some(private), seat).contains(input)
    }

    /// The checks every device can make on receipt of one seat's input, before the
    /// step is complete: wrong seat, wrong kind of input, a card no longer in the game.
    fn check_input(public: &Self::Public, seat: Seat, input: &Self::Input)
    -> Result<(), RuleError>;

    /// Applies a completed step. `privates` is indexed by seat (it may be shorter, or
    /// hold `None`, for the seats whose private side the caller does not have); each
    /// present private side moves in step with the public state, and a play that
    /// contradicts it is an error naming the seat. On error nothing changes.
    fn apply(
        public: &mut Self::Public,
        privates: &mut [Option<Self::Private>],
        step: &Step<Self::Input>,
    ) -> Result<Vec<Self::Event>, RuleError>;

    /// A sensible input for `seat` now, chosen with `rng`: the game's bot.
    fn bot_input(
        public: &Self::Public,
        private: Option<&Self::Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Self::Input>;

    /// One line of the game log in plain words; `name` gives a seat's player name. An event
    /// that tells the players nothing (the end of a turn) narrates to no text, and every
    /// story leaves it out.
    fn narrate(event: &Self::Event, name: &dyn Fn(Seat) -> String) -> String;

    /// What `input` does with hidden cards of a shared deck that `seat` holds: each card it
    /// shows to all (with the face the input claims for it), each it passes to another
    /// seat, and each it puts back face down. The protocol proves every claimed face and carries every passed card so that
    /// only its receiver can read it. Games without shared decks have none.
    fn card_moves(public: &Self::Public, seat: Seat, input: &Self::Input) -> Vec<CardMove> {
        let _ = (public, seat, input);
        Vec::new()
    }

    /// A seat's private side learns the face of a hidden card it now holds (dealt or passed
    /// to it), just after the step that gave it the card is applied.
    fn learn(private: &mut Self::Private, card: Handle, face: CardId) {
        let _ = (private, card, face);
    }

    /// The table's reaction window, read from the game's options ([`ReactionWindow`]): how
    /// long every seat that may answer a play out of turn has, and when its device passes
    /// for it. A game with no such step keeps the usual one.
    fn reaction_window(config: &Self::Config) -> ReactionWindow {
        let _ = config;
        ReactionWindow::USUAL
    }

    /// The input that answers nothing at a [`Seal::Reaction`] step: what a device sends for
    /// its player when the reaction window ends. `None` where `seat` has no part in one.
    fn pass(public: &Self::Public, seat: Seat) -> Option<Self::Input> {
        let _ = (public, seat);
        None
    }

    /// A play the table saw only sealed, in words, once the audit opens it: a choice sealed
    /// until the audit, or an answer in a reaction window that was never opened because an
    /// earlier one stopped the play ("Ann kept the card she drew"). Empty (the default)
    /// where it tells nothing.
    fn narrate_sealed(seat: Seat, input: &Self::Input, name: &dyn Fn(Seat) -> String) -> String {
        let _ = (seat, input, name);
        String::new()
    }

    /// Each deck's order at this point of the game, one line per deck ("The deck, top
    /// first: ..."), for the replay once the audit has made every secret public. `face` reads
    /// a shared deck's hidden card, `privates` are every seat's private side (a seat's own
    /// deck is in its own), `name` gives a seat's player name. Empty (the default) for a
    /// game with no hidden decks.
    fn deck_order(
        public: &Self::Public,
        privates: &[Option<&Self::Private>],
        face: &dyn Fn(Handle) -> Option<CardId>,
        name: &dyn Fn(Seat) -> String,
    ) -> Vec<String> {
        let _ = (public, privates, face, name);
        Vec::new()
    }

    /// What an away seat "plays" at an input step when the table goes on without it, or
    /// `None` if the game cannot go on without it there (the default: the table then skips
    /// a seat only at beacon draws, and removes one only at the audit). It is part of the
    /// rules, the same on every device, and the input must hold for the seat's private side
    /// too: the audit replays it with every hand shown.
    fn sit_out(_public: &Self::Public, _seat: Seat, _absence: Absence) -> Option<Self::Input> {
        None
    }
}

/// A game Hoard offers at a table: what the lobby, the command line and the device need
/// beyond the rules. Every game named in [`crate::for_each_game`] implements it.
pub trait Listed: Game {
    /// The title players see ("GreedQuest").
    const TITLE: &'static str;

    /// The variants the command line accepts, by name (`--variant short,my-room`).
    const VARIANTS: &'static [&'static str] = &[];

    /// The basic game (no variant) for `seats` players.
    fn config(seats: u8) -> Self::Config;

    /// How many players `config` seats.
    fn seats(config: &Self::Config) -> u8;

    /// The same options for a table of `seats` players.
    fn with_seats(config: &Self::Config, seats: u8) -> Self::Config;

    /// Turns on the variant named `variant` (one of [`Listed::VARIANTS`]).
    fn set_variant(_config: &mut Self::Config, variant: &str) -> Result<(), String> {
        Err(format!("{} has no variant {variant:?}", Self::TITLE))
    }

    /// Nothing lost, made or doubled: every card of the game in exactly one place (a deck,
    /// a hand, the table, a discard pile, out of the game), every piece on the board or in
    /// its stash, and each private side present agreeing with the table (it knows the face
    /// of every hidden card its seat holds). `Err` says what is wrong. The conformance
    /// suite (`rules/tests/conformance.rs`) asks it after every step of every game it plays.
    fn check_pieces(
        public: &Self::Public,
        privates: &[Option<Self::Private>],
    ) -> Result<(), String>;
}

/// The common part of [`Listed::check_pieces`] for a game dealing from hidden decks: each
/// private side present knows the face of every hidden card its seat holds (`held[seat]`).
pub fn faces_known<'a>(
    held: &[Vec<Handle>],
    privates: impl IntoIterator<Item = (Seat, &'a BTreeMap<Handle, CardId>)>,
) -> Result<(), String> {
    for (seat, faces) in privates {
        let hand = held
            .get(usize::from(seat))
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        if let Some(card) = hand.iter().find(|card| !faces.contains_key(card)) {
            return Err(format!(
                "seat {seat} holds {card:?} without knowing its face"
            ));
        }
    }
    Ok(())
}

/// The common part of [`Listed::check_pieces`] for faces every device sees: each card in
/// `seen` once, and `seen` and `hidden` (cards held or left face down) making up `total`.
pub fn each_once(what: &str, seen: &[CardId], hidden: usize, total: usize) -> Result<(), String> {
    let mut sorted = seen.to_vec();
    sorted.sort_unstable();
    if let Some(pair) = sorted.windows(2).find(|pair| pair[0] == pair[1]) {
        return Err(format!("{what} {} is in two places", pair[0]));
    }
    if seen.len() + hidden != total {
        return Err(format!(
            "{} {what}s are face up and {hidden} face down, of {total}: a card was lost or made",
            seen.len()
        ));
    }
    Ok(())
}

/// Runs `step` on copies of the table and the private sides and keeps them only if it
/// succeeds: how a game's [`Game::apply`] changes nothing on error.
pub fn all_or_nothing<P: Clone, Q: Clone, E>(
    public: &mut P,
    privates: &mut [Option<Q>],
    step: impl FnOnce(&mut P, &mut [Option<Q>]) -> Result<E, RuleError>,
) -> Result<E, RuleError> {
    let mut next = public.clone();
    let mut new_privates = privates.to_vec();
    let out = step(&mut next, &mut new_privates)?;
    *public = next;
    privates.clone_from_slice(&new_privates);
    Ok(out)
}

/// The one input of `seat` that a [`Pending::Turn`] step must hold: its own, or the
/// rules' for it while the table goes on without it.
pub fn one_open_input<I>(plays: &[(Seat, Play<I>)], seat: Seat) -> Result<&I, RuleError> {
    match plays {
        [(s, Play::Open(input) | Play::Away(input))] if *s == seat => Ok(input),
        [(s, _)] if *s != seat => Err(RuleError::Illegal {
            seat: *s,
            why: "it is not its turn".into(),
        }),
        _ => Err(RuleError::WrongStep {
            expected: format!("one open move of seat {seat}"),
        }),
    }
}

/// The hash every device publishes after each step: BLAKE3 of the postcard bytes.
pub fn public_hash<T: Serialize>(public: &T) -> [u8; 32] {
    // Serialising plain data into a Vec cannot fail; an empty buffer would still hash.
    let bytes = postcard::to_stdvec(public).unwrap_or_default();
    *blake3::hash(&bytes).as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reaction_window_is_its_milliseconds_on_the_wire_and_on_disk() {
        // Saved games and tables set up before the window had a type read the same bytes.
        for window in ReactionWindow::CHOICES {
            let bytes = postcard::to_stdvec(&window).expect("serialises");
            assert_eq!(
                bytes,
                postcard::to_stdvec(&window.ms()).expect("serialises")
            );
            let back: ReactionWindow = postcard::from_bytes(&bytes).expect("reads back");
            assert_eq!(back, window);
        }
    }

    #[test]
    fn a_table_may_not_be_set_up_with_a_window_too_short_or_too_long_to_answer_in() {
        assert!(ReactionWindow::from_ms(499).check("the time").is_err());
        assert!(ReactionWindow::from_ms(10_001).check("the time").is_err());
        for window in ReactionWindow::CHOICES {
            assert_eq!(window.check("the time"), Ok(()));
        }
    }
}
