//! SPAMMERS' table: its options, what everyone sees, what one seat knows, the moves and what
//! happens.

use super::cards::{action, list};
use super::data::{ActionKind, Continuous, Specialty};
use crate::deck::HiddenDeck;
use crate::{CardId, DeckId, Handle, Outcome, ReactionWindow, Seat};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub const LIST_DECK: DeckId = 0;
pub const ACTION_DECK: DeckId = 1;
pub const ACTIONS_PER_TURN: u8 = 3;
pub const HAND_LIMIT: usize = 9;
pub const MAX_SCAMS: usize = 5;
/// Ratings that win: a total of 20, or one Scam of 12.
pub const WIN_TOTAL: u32 = 20;
pub const WIN_SINGLE: u8 = 12;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
    /// How long everyone has to answer a Mailing roll (the reaction window).
    pub window: ReactionWindow,
}

/// A List in play: one card, or several merged, with its counters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stack {
    pub cards: Vec<CardId>,
    pub specialties: Vec<Specialty>,
    pub gruntles: u8,
}

impl Stack {
    pub(super) fn new(card: CardId) -> Stack {
        Stack {
            cards: vec![card],
            specialties: list(card).specialties.to_vec(),
            gruntles: 0,
        }
    }

    /// The sum of the printed Sizes.
    pub fn printed(&self) -> u8 {
        self.cards.iter().map(|c| list(*c).size).sum()
    }

    /// The Size for all purposes: printed less Gruntles.
    pub fn size(&self) -> i32 {
        i32::from(self.printed()) - i32::from(self.gruntles)
    }
}

/// A Scam in play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Scam {
    pub card: CardId,
    pub rating: u8,
}

impl Scam {
    pub fn initial(&self) -> u8 {
        match action(self.card).kind {
            ActionKind::Scam { initial, .. } => initial,
            _ => 0,
        }
    }

    pub fn category(&self) -> Option<Specialty> {
        match action(self.card).kind {
            ActionKind::Scam { category, .. } => category,
            _ => None,
        }
    }
}

/// One player's cards in play.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Area {
    pub hand: Vec<Handle>,
    pub scams: Vec<Scam>,
    pub hardware: Vec<CardId>,
    pub lists: Vec<Stack>,
}

impl Area {
    /// Whether this player's Hardware gives `what`.
    pub fn has(&self, what: fn(&Continuous) -> bool) -> bool {
        self.hardware.iter().any(|c| match action(*c).kind {
            ActionKind::Hardware(h) => what(&h),
            _ => false,
        })
    }

    pub(super) fn hardware_target(&self) -> i32 {
        self.hardware
            .iter()
            .map(|c| match action(*c).kind {
                ActionKind::Hardware(Continuous::Target(n)) => i32::from(n),
                _ => 0,
            })
            .sum()
    }

    pub fn hand_limit(&self) -> usize {
        HAND_LIMIT
            + self
                .hardware
                .iter()
                .map(|c| match action(*c).kind {
                    ActionKind::Hardware(Continuous::HandLimit(n)) => usize::from(n),
                    _ => 0,
                })
                .sum::<usize>()
    }

    /// The sum of this player's Scam Ratings, and the best one.
    pub fn ratings(&self) -> (u32, u8) {
        let total = self.scams.iter().map(|s| u32::from(s.rating)).sum();
        let best = self.scams.iter().map(|s| s.rating).max().unwrap_or(0);
        (total, best)
    }

    pub fn wins(&self) -> bool {
        let (total, best) = self.ratings();
        total >= WIN_TOTAL || best >= WIN_SINGLE
    }
}

/// Which List.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum ListRef {
    Masses(u8),
    Proprietary { seat: Seat, index: u8 },
}

/// A Scam in play, by owner and place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScamRef {
    pub seat: Seat,
    pub index: u8,
}

/// What a Special Effect is aimed at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aim {
    None,
    Scam {
        scam: ScamRef,
        up: bool,
    },
    /// The Mailing just rolled: its Target Number up or down.
    Roll {
        up: bool,
    },
    List(ListRef),
    Specialty {
        list: ListRef,
        specialty: Specialty,
    },
    Hardware {
        seat: Seat,
        index: u8,
    },
}

/// The turn under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: Seat,
    pub actions: u8,
    /// Mailing Effects used, and allowed, this turn.
    pub mailings: u8,
    pub mailings_allowed: u8,
}

/// A Mailing under way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mailing {
    pub seat: Seat,
    pub card: CardId,
    pub scam: u8,
    pub target: ListRef,
    /// A card of the target List, to find it again if answers moved Lists about.
    pub target_card: CardId,
    /// The Target Number before any answer.
    pub base: i32,
    /// What answers have added to it since the roll.
    pub adjust: i32,
    pub roll: u8,
}

impl Mailing {
    pub fn target_number(&self) -> i32 {
        self.base + self.adjust
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    ShuffleLists,
    ShuffleActions,
    DealLists {
        seat: Seat,
    },
    DealActions {
        seat: Seat,
    },
    /// Everyone chooses, in secret, the List they give to the Unwashed Masses.
    Choose,
    /// As many Lists as players are turned up into the Unwashed Masses.
    Masses,
    First,
    Turn(Turn),
    /// An Action card is drawn (`count` of them, for an effect).
    DrawAction {
        turn: Turn,
        count: u8,
    },
    /// A List card is turned up for the player.
    DrawList {
        turn: Turn,
    },
    /// The List drawn: keep it (paying a Scam Rating) or send it to the Masses.
    ListDrawn {
        turn: Turn,
        card: CardId,
    },
    Rolling {
        turn: Turn,
        mailing: Mailing,
    },
    /// Everyone may answer the roll (`seats`, in the order answers are opened).
    Window {
        turn: Turn,
        mailing: Mailing,
        seats: Vec<Seat>,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub lists: HiddenDeck,
    pub actions: HiddenDeck,
    pub areas: Vec<Area>,
    pub masses: Vec<Stack>,
    pub list_discard: Vec<CardId>,
    pub action_discard: Vec<CardId>,
    pub first: Seat,
    pub phase: Phase,
    pub last_roll: Option<u8>,
    pub turns: u32,
}

impl Public {
    pub fn stack(&self, at: ListRef) -> Option<&Stack> {
        match at {
            ListRef::Masses(i) => self.masses.get(usize::from(i)),
            ListRef::Proprietary { seat, index } => self
                .areas
                .get(usize::from(seat))?
                .lists
                .get(usize::from(index)),
        }
    }

    pub(super) fn stack_mut(&mut self, at: ListRef) -> Option<&mut Stack> {
        match at {
            ListRef::Masses(i) => self.masses.get_mut(usize::from(i)),
            ListRef::Proprietary { seat, index } => self
                .areas
                .get_mut(usize::from(seat))?
                .lists
                .get_mut(usize::from(index)),
        }
    }

    /// Where the List holding `card` is now.
    pub fn locate(&self, card: CardId) -> Option<ListRef> {
        self.all_lists()
            .into_iter()
            .find(|at| self.stack(*at).is_some_and(|s| s.cards.contains(&card)))
    }

    pub fn scam(&self, at: ScamRef) -> Option<&Scam> {
        self.areas
            .get(usize::from(at.seat))?
            .scams
            .get(usize::from(at.index))
    }

    /// Every List `seat` may mail: its own Proprietary Lists, the Unwashed Masses, and with a
    /// Router Tap everyone else's.
    pub fn mailable(&self, seat: Seat) -> Vec<ListRef> {
        let tap = self.areas[usize::from(seat)].has(|h| *h == Continuous::TapOthersLists);
        let mut out: Vec<ListRef> = (0..self.masses.len() as u8).map(ListRef::Masses).collect();
        for (s, area) in self.areas.iter().enumerate() {
            if s == usize::from(seat) || tap {
                out.extend(
                    (0..area.lists.len() as u8).map(|index| ListRef::Proprietary {
                        seat: s as Seat,
                        index,
                    }),
                );
            }
        }
        out
    }

    /// Every List on the table.
    pub fn all_lists(&self) -> Vec<ListRef> {
        let mut out: Vec<ListRef> = (0..self.masses.len() as u8).map(ListRef::Masses).collect();
        for (s, area) in self.areas.iter().enumerate() {
            out.extend(
                (0..area.lists.len() as u8).map(|index| ListRef::Proprietary {
                    seat: s as Seat,
                    index,
                }),
            );
        }
        out
    }

    /// The Target Number of a Mailing by `seat`'s Scam `scam` with `card` at `target`.
    pub fn target_number(&self, seat: Seat, scam: u8, card: CardId, target: ListRef) -> i32 {
        let Some(stack) = self.stack(target) else {
            return 0;
        };
        let modifier = match action(card).kind {
            ActionKind::Mailing { modifier, .. } => i32::from(modifier),
            _ => 0,
        };
        let area = &self.areas[usize::from(seat)];
        let matching = area
            .scams
            .get(usize::from(scam))
            .and_then(Scam::category)
            .is_some_and(|c| stack.specialties.contains(&c));
        stack.size() + modifier + if matching { 2 } else { 0 } + area.hardware_target()
    }
}

/// What one seat knows: the faces of its hidden cards (the Lists dealt at the start, its
/// hand of Actions).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
    /// The three Lists dealt at the start, until they are laid out.
    pub dealt_lists: Vec<Handle>,
}

impl Private {
    pub fn face(&self, card: &Handle) -> Option<CardId> {
        self.faces.get(card).copied()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// At the start: `masses` goes to the Unwashed Masses, the other Lists dealt to the
    /// Proprietary Lists (every face shown).
    Choose {
        masses: (Handle, CardId),
        keep: Vec<(Handle, CardId)>,
    },
    DrawAction,
    DrawList,
    /// The List drawn goes to the Proprietary Lists, paid for with a point of `scam`'s Rating.
    KeepList {
        scam: u8,
    },
    /// The List drawn goes to the Unwashed Masses.
    ListToMasses,
    PlayScam {
        card: Handle,
        face: CardId,
    },
    PlayHardware {
        card: Handle,
        face: CardId,
    },
    /// A Mailing for its Mailing Effect: `scam` mails `target`.
    Mail {
        card: Handle,
        face: CardId,
        scam: u8,
        target: ListRef,
    },
    /// A Mailing for its Special Effect, aimed at `aim` (on a turn, or in a window).
    Special {
        card: Handle,
        face: CardId,
        aim: Aim,
    },
    Merge {
        a: ListRef,
        b: ListRef,
    },
    /// With five Scams in play: discard one to draw an Action (or a List).
    DiscardScam {
        scam: u8,
        list: bool,
    },
    EndTurn,
    /// In a window: no answer.
    Pass,
    /// With a full hand of which no card is playable: discard a Scam of the hand to draw an
    /// Action card.
    DiscardHeldScam {
        card: Handle,
        face: CardId,
    },
    /// At the start, for a player the table removed before they chose: their three Lists
    /// leave the game with them, unseen (none goes to the Masses). Only the rules make it
    /// ([`Game::sit_out`]); no player can choose it.
    Abstain,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Shuffled {
        deck: DeckId,
        cards: u16,
    },
    Dealt {
        seat: Seat,
        deck: DeckId,
        cards: u8,
    },
    Chose {
        seat: Seat,
        masses: CardId,
        kept: Vec<CardId>,
    },
    /// A player removed before choosing: their Lists left the game with them, unseen.
    Abstained {
        seat: Seat,
    },
    ToMasses {
        card: CardId,
    },
    First {
        seat: Seat,
    },
    TurnBegins {
        seat: Seat,
    },
    ListKept {
        seat: Seat,
        card: CardId,
        scam: CardId,
    },
    ScamPlayed {
        seat: Seat,
        card: CardId,
    },
    HardwarePlayed {
        seat: Seat,
        card: CardId,
    },
    Mailed {
        seat: Seat,
        card: CardId,
        scam: CardId,
        target: ListRef,
        target_number: i32,
    },
    Rolled {
        seat: Seat,
        roll: u8,
        target_number: i32,
    },
    Special {
        seat: Seat,
        card: CardId,
        aim: Aim,
    },
    TooLate {
        seat: Seat,
        card: CardId,
    },
    MailingResult {
        seat: Seat,
        scam: CardId,
        gained: u8,
        target_number: i32,
        roll: u8,
    },
    Gruntled {
        list: ListRef,
        gruntles: u8,
    },
    ListFled {
        seat: Seat,
        cards: Vec<CardId>,
    },
    ListDiscarded {
        cards: Vec<CardId>,
    },
    Merged {
        a: ListRef,
        b: ListRef,
    },
    ScamDiscarded {
        seat: Seat,
        card: CardId,
    },
    HardwareCrashed {
        seat: Seat,
        card: CardId,
    },
    Won {
        seat: Seat,
        total: u32,
        best: u8,
    },
    /// A Scam discarded from a full hand of which no card was playable.
    ScamDiscardedFromHand {
        seat: Seat,
        card: CardId,
    },
}
