//! Spree!: an all-night looting race through LeGrand Mall with shopping carts and guns, for
//! 3 to 8 players, on one shared hidden deck (two poker decks and their Jokers).
//!
//! The rulebook is `shared/rulebooks/spree.txt`; the board, with every wall, is
//! [`board`]. Every rule plays; where the rulebook leaves a case open, this is what the game
//! does (the README lists the same decisions):
//!
//! - **Seats and turns.** Seats are numbered to the left around the table, so "to the left"
//!   is the next seat up and "to the right" the next one down. Who parks first is found by
//!   every player rolling two dice from one beacon draw, ties rolling again.
//! - **Shopping** may be done for any shop the shopper has stood on this turn (its start
//!   square included), at any time before the turn ends: a card played later than the
//!   moment it passed the shop is the same card bought at the same shop.
//! - **Robbing** happens while the robber's shopper stands on the victim's square (passed
//!   through or stopped on, or started on). A victim lying down can be robbed: the rulebook's
//!   reason for downed players not playing cards is "while they are being robbed". A Joker
//!   steals any rank; a Joker in a cart is stolen by a Joker.
//! - **A Joker in a cart.** Jokers cannot be bought at a shop, but a player may put one in
//!   the cart anywhere (worth 0) to clear hand space; others may stop that as they would a
//!   purchase. As a move card a Joker is Move-10 or Move-2, as its player says.
//! - **Aces.** A play that an Ace can stop (a purchase, a robbery, a move card, a shot that
//!   hits, another Ace) opens a reaction window for every other player who can play a card:
//!   standing, holding a card, and not at their own car. The answers are opened in turn
//!   order after whoever made the play, and the first Ace is the one played; the others
//!   never leave their hands. An Ace against an Ace opens a new window for everyone but its
//!   player (the first player included). An odd number of Aces in the chain stops the play.
//!   No window opens when every Ace and Joker is already face up (in carts and the discards).
//! - **A stopped shot** does nothing: nobody falls, nobody is pushed, and the shooter gets
//!   no extra turn (the shot still ends the turn). A shot that misses opens no window: "You
//!   can't play an Ace to make your shot successful", and nobody needs to stop a miss.
//! - **Shots** count the shooter's square as 1, so a target `d` squares away is hit on
//!   `d + 1` and pushed one square for every point over. A push carries the victim through
//!   other players and cars (they share squares freely) and stops before a wall, the
//!   fountain or the edge. A row of cars never blocks a shot. A player lying down, at their
//!   own car (unless in it, under the Hong Kong rules) or on the shooter's square cannot be
//!   shot; a player at their own car cannot shoot.
//! - **The car.** Scoring needs the shopper at its own car; the cart's cards go to the
//!   discards and their points are recorded, and the turn ends. A turn begun at the car may
//!   instead drive the car to any free parking space (the whole turn). Nobody plays a card at
//!   their own car, Aces included.
//! - **The Hong Kong rules** (a table option): shots count one more; a push goes through the
//!   fountain, and one that would stop inside it carries on to the far side; scoring puts the
//!   shopper in its car; a turn begun in (or at) the car may drive it with a roll of two dice
//!   over the parking lot, parking spaces and open floor, running over every standing
//!   shopper on a square it enters (they fall over, cannot Ace it, and their carts are
//!   discarded; no extra turn); getting out needs a free parking space and ends the turn; a
//!   car parked elsewhere than a space can only be driven on. A player may shoot from a car
//!   and be shot in one; a player hit in a car falls over where the car stands.
//! - **Away seats.** A seat the table goes on without parks in the first free space (in the
//!   board's order), passes in every window and ends its turn at once; a removed seat does
//!   the same to the end and so never scores again.
//!
//! The 108 cards are always somewhere public: the hidden deck, a hand (face down), a cart,
//! the discards, or on the table in a play an Ace may still stop.

pub mod board;
mod bot;
pub mod cards;
mod rules;

pub use bot::{choose, plan_walk};
pub use rules::{can_play_cards, hit_sixths, reachable, shot_targets};

use crate::deck::{CardMove, HiddenDeck};
use crate::{
    Absence, CardId, Game, Handle, Listed, Outcome, Pending, ReactionWindow, RuleError, Seal, Seat,
    Step,
};
use board::Sq;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The game.
pub struct Spree;

/// The only deck.
pub const DECK: crate::DeckId = 0;
/// A full hand.
pub const HAND: usize = 5;
/// The rulebook's suggested target for `seats` players.
pub fn target(seats: u8) -> i32 {
    match seats {
        0..=3 => 200,
        4 => 150,
        5 => 120,
        6 => 100,
        7 => 85,
        _ => 75,
    }
}

/// The short game's target: a quarter of the suggested one.
pub fn short_target(seats: u8) -> i32 {
    (target(seats) / 4).max(20)
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    /// Points in the car that win.
    pub target: i32,
    /// Jokers shuffled in with the two poker decks (4; a table may add more).
    pub jokers: u16,
    /// The Hong Kong rules: power shots, the fountain, cars as weapons.
    pub hong_kong: bool,
    /// How long everyone has to play an Ace (the reaction window).
    pub window: ReactionWindow,
}

impl Config {
    pub fn new(seats: u8) -> Config {
        Config {
            seats,
            target: target(seats),
            jokers: cards::JOKERS,
            hong_kong: false,
            window: ReactionWindow::USUAL,
        }
    }
}

/// A player's two pawns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Pawn {
    pub shopper: Sq,
    /// Where the car is parked (or driven, under the Hong Kong rules); `None` before parking.
    pub car: Option<Sq>,
    pub lying: bool,
    /// In the car (the Hong Kong rules).
    pub in_car: bool,
}

impl Pawn {
    /// Standing at (or sitting in) its own car.
    pub fn at_car(&self) -> bool {
        self.car == Some(self.shopper)
    }
}

/// The turn under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    /// The dice were rolled this turn (to walk or to drive).
    pub rolled: bool,
    /// Squares still to move (from the dice and move cards).
    pub left: u8,
    /// The square just come from: the next step may not go back to it.
    pub prev: Option<Sq>,
    /// The shops stood on this turn, the start included.
    pub visited: Vec<Sq>,
    /// Nothing done yet this turn (the car may still be driven).
    pub fresh: bool,
    /// Driving the car this turn (the Hong Kong rules).
    pub driving: bool,
    /// This turn was won by a hit.
    pub extra: bool,
}

/// What the beacon is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Roll {
    /// Two dice to walk.
    Walk,
    /// Two dice to drive (the Hong Kong rules).
    Drive,
    /// One die to shoot at `target`.
    Shot { target: Seat },
}

/// A play an Ace can stop, waiting on the table for the answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Contest {
    /// Cards for the cart (one, an identical pair, or a Joker for nothing).
    Shop { seat: Seat, cards: Vec<CardId> },
    /// `card` played to take every `rank` card from `victim`'s cart.
    Rob {
        seat: Seat,
        victim: Seat,
        card: CardId,
        rank: u8,
    },
    /// A 10, a 2 or a Joker played to move `steps` more.
    MoveCard { seat: Seat, card: CardId, steps: u8 },
    /// A shot that hits `target` (rolled `roll`), pushing it to `to`.
    Shot {
        seat: Seat,
        target: Seat,
        roll: u8,
        to: Sq,
    },
}

impl Contest {
    /// Who made the play.
    pub fn seat(&self) -> Seat {
        match self {
            Contest::Shop { seat, .. }
            | Contest::Rob { seat, .. }
            | Contest::MoveCard { seat, .. }
            | Contest::Shot { seat, .. } => *seat,
        }
    }

    /// The cards it put on the table.
    pub fn cards(&self) -> Vec<CardId> {
        match self {
            Contest::Shop { cards, .. } => cards.clone(),
            Contest::Rob { card, .. } | Contest::MoveCard { card, .. } => vec![*card],
            Contest::Shot { .. } => Vec::new(),
        }
    }
}

/// What comes after a seat draws up to five.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum AfterDraw {
    /// The turn begins (an extra one, won by a hit, if `extra`).
    Begin { extra: bool },
    /// The turn is over; the next one is the same seat's if `extra`.
    End { extra: bool },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    /// The deck is to be made.
    Shuffle,
    /// `seat` is to be dealt its hand.
    Dealing { seat: Seat },
    /// Everyone rolls to see who parks first.
    FirstParker,
    /// `seat` parks; `parked` seats have parked before it.
    Parking { seat: Seat, parked: u8 },
    /// `seat` draws its hand up to five.
    Draw { seat: Seat, then: AfterDraw },
    /// The turn's seat acts.
    Act(Turn),
    /// The dice are rolling.
    Rolling { turn: Turn, roll: Roll },
    /// `seats` may stop `contest` (or the last of `aces` played against it).
    Window {
        turn: Turn,
        contest: Contest,
        aces: Vec<(Seat, CardId)>,
        seats: Vec<Seat>,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub deck: HiddenDeck,
    /// The cards each seat holds, face down.
    pub hands: Vec<Vec<Handle>>,
    /// Each seat's shopping cart, face up.
    pub carts: Vec<Vec<CardId>>,
    /// Points locked in each car.
    pub scores: Vec<i32>,
    /// Face up, the newest last.
    pub discard: Vec<CardId>,
    pub pawns: Vec<Pawn>,
    pub phase: Phase,
    /// The last two dice rolled, and the last shot's die (for the screen).
    pub dice: Option<(u8, u8)>,
    pub shot_die: Option<u8>,
    /// Turns begun so far.
    pub turns: u32,
}

impl Public {
    /// The turn under way, in whatever part of it.
    pub fn turn(&self) -> Option<&Turn> {
        match &self.phase {
            Phase::Act(turn) | Phase::Rolling { turn, .. } | Phase::Window { turn, .. } => {
                Some(turn)
            }
            _ => None,
        }
    }

    pub fn seats(&self) -> u8 {
        self.config.seats
    }

    /// Every card on the table in a play an Ace may still stop.
    pub fn in_play(&self) -> Vec<CardId> {
        match &self.phase {
            Phase::Window { contest, aces, .. } => {
                let mut cards = contest.cards();
                cards.extend(aces.iter().map(|(_, c)| *c));
                cards
            }
            _ => Vec::new(),
        }
    }
}

/// What one seat knows: the faces of the cards it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
}

impl Private {
    pub fn face(&self, card: &Handle) -> Option<CardId> {
        self.faces.get(card).copied()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Park the car (and the shopper) in a free parking space.
    Park { space: Sq },
    /// Roll two dice to walk.
    Roll,
    /// Walk these squares, one step each, in order.
    Walk { path: Vec<Sq> },
    /// Put cards in the cart: one bought at a shop stood on this turn, an identical pair,
    /// or a Joker (worth nothing, anywhere).
    Shop { cards: Vec<(Handle, CardId)> },
    /// Play `card` to take every `rank` card from `victim`'s cart (the victim shares the
    /// robber's square).
    Rob {
        victim: Seat,
        card: Handle,
        face: CardId,
        rank: u8,
    },
    /// Play a 10 (Move-10), a 2 (Move-2) or a Joker (either) to move farther.
    MoveCard { card: Handle, face: CardId, steps: u8 },
    /// Shoot at `target` along a line of sight (ends the turn).
    Shoot { target: Seat },
    /// At the car: lock the cart in it (ends the turn; under the Hong Kong rules, the
    /// shopper gets in).
    Score,
    /// A turn begun at the car: drive it to a free parking space, the whole turn.
    Drive { to: Sq },
    /// The Hong Kong rules: start the car and roll two dice to drive it.
    StartCar,
    /// The Hong Kong rules: get out of the car in the free parking space it stands in
    /// (ends the turn).
    GetOut,
    /// End the turn.
    EndTurn,
    /// In a window: stop the play (or the Ace) with an Ace or a Joker.
    Ace { card: Handle, face: CardId },
    /// In a window: let it go.
    Pass,
}

/// How a shot went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ShotOutcome {
    Miss,
    /// Hit exactly where the target stood.
    Hit,
    /// Hit and pushed to another square.
    Pushed,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Shuffled {
        cards: u16,
    },
    Dealt {
        seat: Seat,
        cards: u8,
    },
    /// Everyone's roll to park first (ties roll again: each line is one round).
    ParkRolls {
        rounds: Vec<Vec<(Seat, u8)>>,
        first: Seat,
    },
    Parked {
        seat: Seat,
        space: Sq,
    },
    TurnBegins {
        seat: Seat,
        extra: bool,
    },
    StoodUp {
        seat: Seat,
    },
    Rolled {
        seat: Seat,
        dice: (u8, u8),
    },
    Walked {
        seat: Seat,
        path: Vec<Sq>,
    },
    /// A play an Ace may stop was made.
    Played {
        contest: Contest,
    },
    Aced {
        seat: Seat,
        card: CardId,
    },
    /// An Ace was ready too late (seen only where every answer is open: the audit, the
    /// local driver).
    TooLate {
        seat: Seat,
        card: CardId,
    },
    /// The play stood or was stopped, after `aces` Aces.
    Settled {
        contest: Contest,
        stopped: bool,
    },
    Stole {
        seat: Seat,
        victim: Seat,
        cards: Vec<CardId>,
    },
    Shot {
        seat: Seat,
        target: Seat,
        roll: u8,
        outcome: ShotOutcome,
    },
    FellOver {
        seat: Seat,
    },
    Scored {
        seat: Seat,
        cards: Vec<CardId>,
        points: i32,
        total: i32,
    },
    Drove {
        seat: Seat,
        to: Sq,
    },
    RanOver {
        seat: Seat,
        victim: Seat,
        spilled: Vec<CardId>,
    },
    GotOut {
        seat: Seat,
    },
    TurnEnds {
        seat: Seat,
    },
    Won {
        seat: Seat,
    },
}

fn illegal(seat: Seat, why: impl Into<String>) -> RuleError {
    RuleError::Illegal {
        seat,
        why: why.into(),
    }
}

impl Game for Spree {
    const NAME: &'static str = "spree";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        3..=8
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "Spree! is for 3 to 8 players, not {}",
                config.seats
            )));
        }
        config.window.check("the time to play an Ace")?;
        if config.target < 1 || config.jokers > 100 {
            return Err(RuleError::BadConfig(
                "the target must be at least 1 and the Jokers at most 100".into(),
            ));
        }
        let seats = usize::from(config.seats);
        Ok(Public {
            config: config.clone(),
            deck: HiddenDeck::new(DECK),
            hands: vec![Vec::new(); seats],
            carts: vec![Vec::new(); seats],
            scores: vec![0; seats],
            discard: Vec::new(),
            pawns: vec![Pawn::default(); seats],
            phase: Phase::Shuffle,
            dice: None,
            shot_die: None,
            turns: 0,
        })
    }

    fn private(_config: &Config, seat: Seat, _secret: [u8; 32]) -> Private {
        Private {
            seat,
            faces: BTreeMap::new(),
        }
    }

    fn pending(public: &Public) -> Pending {
        match &public.phase {
            Phase::Shuffle => Pending::Shuffle {
                deck: DECK,
                cards: cards::all(public.config.jokers),
            },
            Phase::Dealing { seat } => Pending::Deal {
                to: *seat,
                cards: public.deck.peek(HAND),
            },
            Phase::FirstParker | Phase::Rolling { .. } => Pending::Chance,
            Phase::Parking { seat, .. } => Pending::Turn { seat: *seat },
            Phase::Draw { seat, .. } => {
                if public.deck.left() == 0 {
                    Pending::Shuffle {
                        deck: DECK,
                        cards: public.discard.clone(),
                    }
                } else {
                    let need = HAND.saturating_sub(public.hands[usize::from(*seat)].len());
                    Pending::Deal {
                        to: *seat,
                        cards: public.deck.peek(need),
                    }
                }
            }
            Phase::Act(turn) => Pending::Turn { seat: turn.seat },
            Phase::Window { seats, .. } => Pending::Together {
                seats: seats.clone(),
                seal: Seal::Reaction,
            },
            Phase::Over(outcome) => Pending::Over(outcome.clone()),
        }
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        rules::legal_inputs(public, private, seat)
    }

    /// A walk may take any path, too many to list: an input is allowed when the table
    /// allows it and every card it shows is the face this seat holds.
    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        let shows_truly = Self::card_moves(public, seat, input)
            .iter()
            .all(|m| match m {
                CardMove::Show { card, face } => private.face(card) == Some(*face),
                _ => true,
            });
        let answerable = matches!(
            &public.phase,
            Phase::Window { .. } | Phase::Act(_) | Phase::Parking { .. }
        );
        answerable && shows_truly && rules::check_input(public, seat, input).is_ok()
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        rules::check_input(public, seat, input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| rules::apply(p, q, step))
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        bot::choose(public, private, seat, rng)
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        rules::narrate(event, name)
    }

    fn card_moves(_public: &Public, _seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::Shop { cards } => cards
                .iter()
                .map(|(card, face)| CardMove::Show {
                    card: *card,
                    face: *face,
                })
                .collect(),
            Input::Rob { card, face, .. }
            | Input::MoveCard { card, face, .. }
            | Input::Ace { card, face } => vec![CardMove::Show {
                card: *card,
                face: *face,
            }],
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        private.faces.insert(card, face);
    }

    fn sit_out(public: &Public, seat: Seat, _absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Parking { seat: s, .. } if *s == seat => {
                rules::free_spaces(public)
                    .first()
                    .map(|space| Input::Park { space: *space })
            }
            Phase::Act(turn) if turn.seat == seat => Some(Input::EndTurn),
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }

    fn reaction_window(config: &Config) -> ReactionWindow {
        config.window
    }

    fn narrate_sealed(seat: Seat, input: &Input, name: &dyn Fn(Seat) -> String) -> String {
        match input {
            Input::Ace { face, .. } => format!(
                "{} would have stopped it with the {}, but an earlier answer came first.",
                name(seat),
                cards::name(*face)
            ),
            _ => String::new(),
        }
    }

    fn pass(public: &Public, seat: Seat) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }
}

impl Listed for Spree {
    const TITLE: &'static str = "Spree!";
    const VARIANTS: &'static [&'static str] =
        &["hong-kong", "extra-jokers", "quick-answers", "short"];

    fn config(seats: u8) -> Config {
        Config::new(seats)
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    /// A new seat count brings the rulebook's target for it (or the short game's, if that
    /// was chosen); a target set by hand stays.
    fn with_seats(config: &Config, seats: u8) -> Config {
        let target = if config.target == target(config.seats) {
            target(seats)
        } else if config.target == short_target(config.seats) {
            short_target(seats)
        } else {
            config.target
        };
        Config {
            seats,
            target,
            ..config.clone()
        }
    }

    /// `hong-kong`: the extra-violence rules; `extra-jokers`: four more Jokers;
    /// `quick-answers`: one second to play an Ace instead of three; `short`: a quarter of
    /// the suggested target ("Feel free to adjust the game to whatever length you want!").
    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "hong-kong" => config.hong_kong = true,
            "extra-jokers" => config.jokers = cards::JOKERS * 2,
            "quick-answers" => config.window = ReactionWindow::QUICK,
            "short" => config.target = short_target(config.seats),
            other => return Err(format!("Spree! has no variant {other:?}")),
        }
        Ok(())
    }

    /// Every card of the deck (and the jokers chosen): in the deck, a hand, a cart, the
    /// discard pile or played in a window.
    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        if public.deck.generation.is_none() {
            return Ok(());
        }
        let mut seen: Vec<CardId> = public.carts.iter().flatten().copied().collect();
        seen.extend(&public.discard);
        seen.extend(public.in_play());
        let held = public.hands.iter().map(Vec::len).sum::<usize>();
        let total = usize::from(cards::POKER + public.config.jokers);
        crate::each_once("card", &seen, public.deck.left() + held, total)?;
        crate::faces_known(
            &public.hands,
            privates.iter().flatten().map(|p| (p.seat, &p.faces)),
        )
    }
}
