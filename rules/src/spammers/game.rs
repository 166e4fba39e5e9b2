//! SPAMMERS' table and its steps: two shared hidden decks (Lists and Actions), the Unwashed
//! Masses, each player's Scams, Hardware and Proprietary Lists, turns of up to three
//! actions, the Mailing roll with its answers "at any time", and the win at the beginning of
//! a turn.

use super::cards::{self, action, list};
use super::data::{ActionKind, Continuous, Effect, Specialty, Timing};
use crate::deck::{CardMove, HiddenDeck};
use crate::{
    Absence, CardId, DeckId, Game, Handle, Listed, Outcome, Pending, Play, ReactionWindow, RuleError,
    Seal, Seat,
    Step, rng,
};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The game.
pub struct Spammers;

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
    fn new(card: CardId) -> Stack {
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

    fn hardware_target(&self) -> i32 {
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

    fn stack_mut(&mut self, at: ListRef) -> Option<&mut Stack> {
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

fn illegal(seat: Seat, why: impl Into<String>) -> RuleError {
    RuleError::Illegal {
        seat,
        why: why.into(),
    }
}

fn new_turn(seat: Seat, area: &Area) -> Turn {
    Turn {
        seat,
        actions: ACTIONS_PER_TURN,
        mailings: 0,
        mailings_allowed: 1 + u8::from(area.has(|h| *h == Continuous::ExtraMailing)),
    }
}

impl Spammers {
    /// The next seat's turn begins, unless it has won.
    fn begin_turn(public: &mut Public, seat: Seat, events: &mut Vec<Event>) {
        public.turns += 1;
        let area = &public.areas[usize::from(seat)];
        if area.wins() {
            let (total, best) = area.ratings();
            events.push(Event::Won { seat, total, best });
            let scores = public.areas.iter().map(|a| a.ratings().0 as i32).collect();
            public.phase = Phase::Over(Outcome {
                winners: vec![seat],
                scores,
            });
            return;
        }
        events.push(Event::TurnBegins { seat });
        public.phase = Phase::Turn(new_turn(seat, area));
    }

    /// One action used: the turn goes on, or the next player's begins. The Lists are settled
    /// first, so that a List the action pushed over its limit leaves in the action's turn.
    fn after_action(public: &mut Public, mut turn: Turn, events: &mut Vec<Event>) {
        settle_lists(public, events);
        turn.actions = turn.actions.saturating_sub(1);
        if turn.actions == 0 {
            let next = (turn.seat + 1) % public.config.seats;
            Self::begin_turn(public, next, events);
        } else {
            public.phase = Phase::Turn(turn);
        }
    }

    /// A List gained a Gruntle or more: it says so, and every List is settled.
    fn gruntled(public: &mut Public, at: ListRef, events: &mut Vec<Event>) {
        let Some(stack) = public.stack(at) else {
            return;
        };
        events.push(Event::Gruntled {
            list: at,
            gruntles: stack.gruntles,
        });
        settle_lists(public, events);
    }

    fn take(public: &mut Public, privates: &mut [Option<Private>], seat: Seat, card: &Handle) {
        public.areas[usize::from(seat)].hand.retain(|h| h != card);
        if let Some(Some(p)) = privates.get_mut(usize::from(seat)) {
            p.faces.remove(card);
        }
    }

    fn check_face(
        privates: &[Option<Private>],
        seat: Seat,
        card: &Handle,
        face: CardId,
    ) -> Result<(), RuleError> {
        match privates.get(usize::from(seat)) {
            Some(Some(p)) if p.face(card) != Some(face) => Err(RuleError::PrivateMismatch {
                seat,
                why: "it showed a card it does not hold as such".into(),
            }),
            _ => Ok(()),
        }
    }

    /// Who may answer a Mailing roll: every player holding a card, in turn order after the
    /// one who acted last, that one last.
    fn answerers(public: &Public, after: Seat) -> Vec<Seat> {
        let n = public.config.seats;
        (1..=n)
            .map(|k| (after + k) % n)
            .filter(|s| !public.areas[usize::from(*s)].hand.is_empty())
            .collect()
    }

    /// The Mailing's roll stands: the Scam gains, the List is gruntled.
    fn resolve(public: &mut Public, turn: Turn, mailing: Mailing, events: &mut Vec<Event>) {
        let t = mailing.target_number();
        let roll = i32::from(mailing.roll);
        let gained = if roll <= t - 4 {
            2
        } else if roll <= t {
            1
        } else {
            0
        };
        let area = &mut public.areas[usize::from(mailing.seat)];
        let scam_card = area
            .scams
            .get(usize::from(mailing.scam))
            .map_or(0, |s| s.card);
        if let Some(scam) = area.scams.get_mut(usize::from(mailing.scam)) {
            scam.rating = scam.rating.saturating_add(gained);
        }
        events.push(Event::MailingResult {
            seat: mailing.seat,
            scam: scam_card,
            gained,
            target_number: t,
            roll: mailing.roll,
        });
        public.action_discard.push(mailing.card);
        // The List gets its Gruntle where it is now (an answer may have moved it, or sent it
        // to the discards, which ends its part).
        if let Some(at) = public.locate(mailing.target_card) {
            if let Some(stack) = public.stack_mut(at) {
                stack.gruntles = stack.gruntles.saturating_add(1);
            }
            Self::gruntled(public, at, events);
        }
        Self::after_action(public, turn, events);
    }

    /// A Special Effect, already checked, played by `seat`.
    fn special(
        public: &mut Public,
        seat: Seat,
        effect: Effect,
        aim: Aim,
        turn: &mut Turn,
        mailing: Option<&mut Mailing>,
        events: &mut Vec<Event>,
    ) -> u8 {
        let mut draws = 0;
        match (effect, aim) {
            (Effect::Rating(n), Aim::Scam { scam, up }) => {
                if let Some(s) = public
                    .areas
                    .get_mut(usize::from(scam.seat))
                    .and_then(|a| a.scams.get_mut(usize::from(scam.index)))
                {
                    let floor = s.initial();
                    s.rating = if up {
                        s.rating.saturating_add(n)
                    } else {
                        s.rating.saturating_sub(n).max(floor)
                    };
                }
            }
            (Effect::Target(n), Aim::Roll { up }) => {
                if let Some(m) = mailing {
                    m.adjust += if up { i32::from(n) } else { -i32::from(n) };
                }
            }
            (Effect::AddSpecialty(sp), Aim::List(at)) => {
                if let Some(s) = public.stack_mut(at)
                    && !s.specialties.contains(&sp)
                {
                    s.specialties.push(sp);
                }
            }
            (Effect::RemoveSpecialty, Aim::Specialty { list, specialty }) => {
                if let Some(s) = public.stack_mut(list) {
                    s.specialties.retain(|x| *x != specialty);
                }
            }
            (Effect::Gruntle(n), Aim::List(at)) => {
                if let Some(s) = public.stack_mut(at) {
                    s.gruntles = s.gruntles.saturating_add(n);
                }
                Self::gruntled(public, at, events);
            }
            (Effect::Ungruntle(n), Aim::List(at)) => {
                if let Some(s) = public.stack_mut(at) {
                    s.gruntles = s.gruntles.saturating_sub(n);
                }
            }
            (Effect::Draw(n), _) => draws = n,
            (Effect::Harvest, Aim::List(ListRef::Masses(i)))
                if usize::from(i) < public.masses.len() =>
            {
                let stack = public.masses.remove(usize::from(i));
                public.areas[usize::from(seat)].lists.push(stack);
            }
            (Effect::Crash, Aim::Hardware { seat: s, index }) => {
                let area = &mut public.areas[usize::from(s)];
                if usize::from(index) < area.hardware.len() {
                    let card = area.hardware.remove(usize::from(index));
                    public.action_discard.push(card);
                    events.push(Event::HardwareCrashed { seat: s, card });
                }
            }
            (Effect::ExtraMailing, _) => turn.mailings_allowed += 1,
            _ => {}
        }
        draws
    }

    /// Whether `aim` fits `effect` on this table (for `seat`, with a Mailing rolled or not).
    fn aim_ok(public: &Public, effect: Effect, aim: &Aim, in_window: bool) -> bool {
        match (effect, aim) {
            (Effect::Rating(_), Aim::Scam { scam, .. }) => public.scam(*scam).is_some(),
            (Effect::Target(_), Aim::Roll { .. }) => in_window,
            (Effect::AddSpecialty(sp), Aim::List(at)) => public
                .stack(*at)
                .is_some_and(|s| !s.specialties.contains(&sp)),
            (Effect::RemoveSpecialty, Aim::Specialty { list, specialty }) => public
                .stack(*list)
                .is_some_and(|s| s.specialties.contains(specialty)),
            (Effect::Gruntle(_) | Effect::Ungruntle(_), Aim::List(at)) => {
                public.stack(*at).is_some()
            }
            (Effect::Draw(_) | Effect::ExtraMailing, Aim::None) => true,
            (Effect::Harvest, Aim::List(ListRef::Masses(i))) => {
                usize::from(*i) < public.masses.len()
            }
            (Effect::Crash, Aim::Hardware { seat, index }) => public
                .areas
                .get(usize::from(*seat))
                .is_some_and(|a| usize::from(*index) < a.hardware.len()),
            _ => false,
        }
    }

    /// Every aim an effect could take now.
    fn aims(public: &Public, effect: Effect, in_window: bool) -> Vec<Aim> {
        let mut out = Vec::new();
        match effect {
            Effect::Rating(_) => {
                for (s, area) in public.areas.iter().enumerate() {
                    for index in 0..area.scams.len() as u8 {
                        for up in [true, false] {
                            out.push(Aim::Scam {
                                scam: ScamRef {
                                    seat: s as Seat,
                                    index,
                                },
                                up,
                            });
                        }
                    }
                }
            }
            Effect::Target(_) => {
                if in_window {
                    out.extend([Aim::Roll { up: true }, Aim::Roll { up: false }]);
                }
            }
            Effect::AddSpecialty(_) | Effect::Gruntle(_) | Effect::Ungruntle(_) => {
                out.extend(public.all_lists().into_iter().map(Aim::List));
            }
            Effect::Harvest => {
                out.extend((0..public.masses.len() as u8).map(|i| Aim::List(ListRef::Masses(i))));
            }
            Effect::RemoveSpecialty => {
                for at in public.all_lists() {
                    if let Some(s) = public.stack(at) {
                        out.extend(s.specialties.iter().map(|sp| Aim::Specialty {
                            list: at,
                            specialty: *sp,
                        }));
                    }
                }
            }
            Effect::Crash => {
                for (s, area) in public.areas.iter().enumerate() {
                    out.extend((0..area.hardware.len() as u8).map(|index| Aim::Hardware {
                        seat: s as Seat,
                        index,
                    }));
                }
            }
            // Drawing and mailing again belong to a player's own turn.
            Effect::Draw(_) | Effect::ExtraMailing => {
                if !in_window {
                    out.push(Aim::None);
                }
            }
        }
        out.retain(|a| Self::aim_ok(public, effect, a, in_window));
        out
    }

    /// Every way `seat` may play a card of `held` (the cards whose faces are known) on its
    /// turn: a Scam, a Hardware, a Mailing for its Mailing Effect or its Special Effect.
    fn plays(public: &Public, seat: Seat, turn: &Turn, held: &[(Handle, CardId)]) -> Vec<Input> {
        let area = &public.areas[usize::from(seat)];
        let mut out = Vec::new();
        for (card, face) in held {
            match action(*face).kind {
                ActionKind::Scam { .. } if area.scams.len() < MAX_SCAMS => {
                    out.push(Input::PlayScam {
                        card: *card,
                        face: *face,
                    });
                }
                ActionKind::Hardware(_) => out.push(Input::PlayHardware {
                    card: *card,
                    face: *face,
                }),
                ActionKind::Mailing { effect, .. } => {
                    if turn.mailings < turn.mailings_allowed {
                        for scam in 0..area.scams.len() as u8 {
                            for target in public.mailable(seat) {
                                out.push(Input::Mail {
                                    card: *card,
                                    face: *face,
                                    scam,
                                    target,
                                });
                            }
                        }
                    }
                    for aim in Spammers::aims(public, effect, false) {
                        out.push(Input::Special {
                            card: *card,
                            face: *face,
                            aim,
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// A draw of an Action card: reshuffle the discards first if the deck is out.
    fn draw_phase(public: &Public) -> Pending {
        let Phase::DrawAction { turn, count } = &public.phase else {
            return Pending::Over(Outcome::default());
        };
        if public.actions.left() == 0 {
            return Pending::Shuffle {
                deck: ACTION_DECK,
                cards: public.action_discard.clone(),
            };
        }
        Pending::Deal {
            to: turn.seat,
            cards: public.actions.peek(usize::from(*count)),
        }
    }
}

impl Game for Spammers {
    const NAME: &'static str = "spammers";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "SPAMMERS is for 2 to 6 players, not {}",
                config.seats
            )));
        }
        config.window.check("the time to answer a Mailing")?;
        Ok(Public {
            config: config.clone(),
            lists: HiddenDeck::new(LIST_DECK),
            actions: HiddenDeck::new(ACTION_DECK),
            areas: vec![Area::default(); usize::from(config.seats)],
            masses: Vec::new(),
            list_discard: Vec::new(),
            action_discard: Vec::new(),
            first: 0,
            phase: Phase::ShuffleLists,
            last_roll: None,
            turns: 0,
        })
    }

    fn private(_config: &Config, seat: Seat, _secret: [u8; 32]) -> Private {
        Private {
            seat,
            faces: BTreeMap::new(),
            dealt_lists: Vec::new(),
        }
    }

    fn pending(public: &Public) -> Pending {
        match &public.phase {
            Phase::ShuffleLists => Pending::Shuffle {
                deck: LIST_DECK,
                cards: cards::list_deck(),
            },
            Phase::ShuffleActions => Pending::Shuffle {
                deck: ACTION_DECK,
                cards: cards::action_deck(),
            },
            Phase::DealLists { seat } => Pending::Deal {
                to: *seat,
                cards: public.lists.peek(3),
            },
            Phase::DealActions { seat } => Pending::Deal {
                to: *seat,
                cards: public.actions.peek(6),
            },
            Phase::Choose => Pending::Together {
                seats: (0..public.config.seats).collect(),
                seal: Seal::UntilAll,
            },
            Phase::Masses => Pending::Reveal {
                cards: public.lists.peek(usize::from(public.config.seats)),
            },
            Phase::First | Phase::Rolling { .. } => Pending::Chance,
            Phase::Turn(turn) | Phase::ListDrawn { turn, .. } => Pending::Turn { seat: turn.seat },
            Phase::DrawAction { .. } => Spammers::draw_phase(public),
            Phase::DrawList { .. } => {
                if public.lists.left() == 0 {
                    Pending::Shuffle {
                        deck: LIST_DECK,
                        cards: public.list_discard.clone(),
                    }
                } else {
                    Pending::Reveal {
                        cards: public.lists.peek(1),
                    }
                }
            }
            Phase::Window { seats, .. } => Pending::Together {
                seats: seats.clone(),
                seal: Seal::Reaction,
            },
            Phase::Over(o) => Pending::Over(o.clone()),
        }
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        let Some(area) = public.areas.get(usize::from(seat)) else {
            return Vec::new();
        };
        let held: Vec<(Handle, CardId)> = area
            .hand
            .iter()
            .filter_map(|h| private.and_then(|p| p.face(h)).map(|f| (*h, f)))
            .collect();
        let mut out = Vec::new();
        match &public.phase {
            Phase::Choose => {
                let dealt: Vec<(Handle, CardId)> = private
                    .map(|p| {
                        p.dealt_lists
                            .iter()
                            .filter_map(|h| p.face(h).map(|f| (*h, f)))
                            .collect()
                    })
                    .unwrap_or_default();
                for (k, chosen) in dealt.iter().enumerate() {
                    let keep = dealt
                        .iter()
                        .enumerate()
                        .filter(|(j, _)| *j != k)
                        .map(|(_, c)| *c)
                        .collect();
                    out.push(Input::Choose {
                        masses: *chosen,
                        keep,
                    });
                }
            }
            Phase::ListDrawn { turn, .. } if turn.seat == seat => {
                out.push(Input::ListToMasses);
                for (i, s) in area.scams.iter().enumerate() {
                    if s.rating > s.initial() {
                        out.push(Input::KeepList { scam: i as u8 });
                    }
                }
            }
            Phase::Window { seats, .. } if seats.contains(&seat) => {
                out.push(Input::Pass);
                for (card, face) in &held {
                    if let ActionKind::Mailing {
                        effect,
                        timing: Timing::AfterRoll,
                        ..
                    } = action(*face).kind
                    {
                        for aim in Spammers::aims(public, effect, true) {
                            out.push(Input::Special {
                                card: *card,
                                face: *face,
                                aim,
                            });
                        }
                    }
                }
            }
            Phase::Turn(turn) if turn.seat == seat => {
                out.push(Input::EndTurn);
                let full = area.hand.len() >= area.hand_limit();
                if !full {
                    out.push(Input::DrawAction);
                }
                out.push(Input::DrawList);
                // With five Scams in play, a Scam may go for a card: a List, or an Action
                // if the hand has room for it.
                if area.scams.len() >= MAX_SCAMS {
                    for scam in 0..area.scams.len() as u8 {
                        if !full {
                            out.push(Input::DiscardScam { scam, list: false });
                        }
                        out.push(Input::DiscardScam { scam, list: true });
                    }
                }
                let lists = |v: Vec<ListRef>| -> Vec<(ListRef, ListRef)> {
                    let mut pairs = Vec::new();
                    for (i, a) in v.iter().enumerate() {
                        for b in &v[i + 1..] {
                            pairs.push((*a, *b));
                        }
                    }
                    pairs
                };
                let own: Vec<ListRef> = (0..area.lists.len() as u8)
                    .map(|index| ListRef::Proprietary { seat, index })
                    .collect();
                let masses: Vec<ListRef> = (0..public.masses.len() as u8)
                    .map(ListRef::Masses)
                    .collect();
                for (a, b) in lists(own).into_iter().chain(lists(masses)) {
                    out.push(Input::Merge { a, b });
                }
                let plays = Spammers::plays(public, seat, turn, &held);
                // "his hand has nine cards in it and none of them are playable ... the player
                // is allowed to discard Scams in order to draw new cards": a Scam of the hand
                // goes, and an Action card comes.
                let stuck = full && plays.is_empty();
                out.extend(plays);
                if stuck {
                    for (card, face) in &held {
                        if matches!(action(*face).kind, ActionKind::Scam { .. }) {
                            out.push(Input::DiscardHeldScam {
                                card: *card,
                                face: *face,
                            });
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        if let Phase::Over(_) = public.phase {
            return Err(RuleError::GameOver);
        }
        let Some(area) = public.areas.get(usize::from(seat)) else {
            return Err(illegal(seat, "there is no such seat"));
        };
        // The public list, with each hidden card the input names taken at the face it claims
        // (the faces are checked against the private side in `apply`, and by the protocol).
        let mut stand_in = Private {
            seat,
            faces: BTreeMap::new(),
            dealt_lists: Vec::new(),
        };
        match input {
            Input::Choose { masses, keep } => {
                for (h, f) in std::iter::once(masses).chain(keep) {
                    stand_in.faces.insert(*h, *f);
                    stand_in.dealt_lists.push(*h);
                }
                let dealt = keep.len() + 1;
                let distinct: std::collections::BTreeSet<&Handle> = std::iter::once(&masses.0)
                    .chain(keep.iter().map(|(h, _)| h))
                    .collect();
                let valid = matches!(public.phase, Phase::Choose)
                    && dealt == 3
                    && distinct.len() == 3
                    && std::iter::once(masses).chain(keep).all(|(h, f)| {
                        area.hand.contains(h) && usize::from(*f) < cards::list_deck().len()
                    });
                return if valid {
                    Ok(())
                } else {
                    Err(illegal(
                        seat,
                        "one of its three dealt Lists goes to the Masses, the others it keeps",
                    ))
                };
            }
            Input::PlayScam { card, face }
            | Input::PlayHardware { card, face }
            | Input::Mail { card, face, .. }
            | Input::Special { card, face, .. }
            | Input::DiscardHeldScam { card, face } => {
                if !area.hand.contains(card) || usize::from(*face) >= cards::action_deck().len() {
                    return Err(illegal(seat, "it played a card it does not hold"));
                }
                stand_in.faces.insert(*card, *face);
            }
            _ => {}
        }
        let ok = match input {
            Input::Choose { .. } | Input::Abstain => false,
            _ => Self::legal_inputs(public, Some(&stand_in), seat).contains(input),
        };
        if ok {
            Ok(())
        } else {
            Err(illegal(seat, "that is not a move the game allows now"))
        }
    }

    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        Self::legal_inputs(public, Some(private), seat).contains(input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| {
            let mut events = apply_step(p, q, step)?;
            // Whatever the step changed, no List stays over its limit.
            settle_lists(p, &mut events);
            Ok(events)
        })
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        super::bot::choose(public, private, seat, rng)
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        super::narrate::line(event, name)
    }

    fn card_moves(_public: &Public, _seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::Choose { masses, keep } => std::iter::once(masses)
                .chain(keep)
                .map(|(card, face)| CardMove::Show {
                    card: *card,
                    face: *face,
                })
                .collect(),
            Input::PlayScam { card, face }
            | Input::PlayHardware { card, face }
            | Input::Mail { card, face, .. }
            | Input::Special { card, face, .. }
            | Input::DiscardHeldScam { card, face } => vec![CardMove::Show {
                card: *card,
                face: *face,
            }],
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        if card.deck == LIST_DECK {
            private.dealt_lists.push(card);
        }
        private.faces.insert(card, face);
    }

    fn reaction_window(config: &Config) -> ReactionWindow {
        config.window
    }

    fn pass(public: &Public, seat: Seat) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }

    /// A seat the table goes on without answers nothing, sends a List it drew to the
    /// Masses, and ends its turn. Only its player can choose its Lists at the start: the
    /// table waits for a skipped one, and a removed one's Lists leave the game unseen.
    fn sit_out(public: &Public, seat: Seat, absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Choose if absence == Absence::Removed => Some(Input::Abstain),
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            Phase::ListDrawn { turn, .. } if turn.seat == seat => Some(Input::ListToMasses),
            Phase::Turn(turn) if turn.seat == seat => Some(Input::EndTurn),
            _ => None,
        }
    }
}

fn apply_step(
    public: &mut Public,
    privates: &mut [Option<Private>],
    step: &Step<Input>,
) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    let n = public.config.seats;
    match (public.phase.clone(), step) {
        (Phase::Over(_), _) => return Err(RuleError::GameOver),
        (Phase::ShuffleLists, Step::Shuffled) => {
            let len = cards::list_deck().len();
            public.lists.shuffled(len);
            events.push(Event::Shuffled {
                deck: LIST_DECK,
                cards: len as u16,
            });
            public.phase = Phase::ShuffleActions;
        }
        (Phase::ShuffleActions, Step::Shuffled) => {
            let len = cards::action_deck().len();
            public.actions.shuffled(len);
            events.push(Event::Shuffled {
                deck: ACTION_DECK,
                cards: len as u16,
            });
            public.phase = Phase::DealLists { seat: 0 };
        }
        (Phase::DealLists { seat }, Step::Dealt) => {
            let dealt = public.lists.take(3);
            events.push(Event::Dealt {
                seat,
                deck: LIST_DECK,
                cards: dealt.len() as u8,
            });
            public.areas[usize::from(seat)].hand.extend(dealt);
            public.phase = if seat + 1 < n {
                Phase::DealLists { seat: seat + 1 }
            } else {
                Phase::DealActions { seat: 0 }
            };
        }
        (Phase::DealActions { seat }, Step::Dealt) => {
            let dealt = public.actions.take(6);
            events.push(Event::Dealt {
                seat,
                deck: ACTION_DECK,
                cards: dealt.len() as u8,
            });
            public.areas[usize::from(seat)].hand.extend(dealt);
            public.phase = if seat + 1 < n {
                Phase::DealActions { seat: seat + 1 }
            } else {
                Phase::Choose
            };
        }
        (Phase::Choose, Step::Inputs(plays)) => {
            if plays.len() != usize::from(n)
                || plays
                    .iter()
                    .enumerate()
                    .any(|(i, (s, _))| usize::from(*s) != i)
            {
                return Err(RuleError::WrongStep {
                    expected: "every seat's choice of List".into(),
                });
            }
            for (seat, play) in plays {
                let Some(input) = play.input() else {
                    return Err(RuleError::WrongStep {
                        expected: "every choice opened".into(),
                    });
                };
                if let (Play::Away(_), Input::Abstain) = (play, input) {
                    // The removed player's Lists stay face down in a hand no one plays.
                    if let Some(Some(p)) = privates.get_mut(usize::from(*seat)) {
                        p.dealt_lists.clear();
                    }
                    events.push(Event::Abstained { seat: *seat });
                    continue;
                }
                Spammers::check_input(public, *seat, input)?;
                let Input::Choose { masses, keep } = input else {
                    return Err(illegal(*seat, "it must choose a List for the Masses"));
                };
                for (h, f) in std::iter::once(masses).chain(keep) {
                    Spammers::check_face(privates, *seat, h, *f)?;
                }
                for (h, _) in std::iter::once(masses).chain(keep) {
                    Spammers::take(public, privates, *seat, h);
                }
                if let Some(Some(p)) = privates.get_mut(usize::from(*seat)) {
                    p.dealt_lists.clear();
                }
                public.masses.push(Stack::new(masses.1));
                public.areas[usize::from(*seat)]
                    .lists
                    .extend(keep.iter().map(|(_, f)| Stack::new(*f)));
                events.push(Event::Chose {
                    seat: *seat,
                    masses: masses.1,
                    kept: keep.iter().map(|(_, f)| *f).collect(),
                });
            }
            public.phase = Phase::Masses;
        }
        (Phase::Masses, Step::Revealed(faces)) => {
            let taken = public.lists.take(usize::from(n));
            if taken.len() != faces.len() {
                return Err(RuleError::WrongStep {
                    expected: format!("{} faces", taken.len()),
                });
            }
            for f in faces {
                public.masses.push(Stack::new(*f));
                events.push(Event::ToMasses { card: *f });
            }
            public.phase = Phase::First;
        }
        (Phase::First, Step::Chance(draw)) => {
            public.first =
                rng::below(&mut rng::from_seed(draw, "spammers first"), u32::from(n)) as Seat;
            events.push(Event::First { seat: public.first });
            Spammers::begin_turn(public, public.first, &mut events);
        }
        (Phase::DrawAction { .. }, Step::Shuffled) => {
            let pile = std::mem::take(&mut public.action_discard);
            public.actions.shuffled(pile.len());
            events.push(Event::Shuffled {
                deck: ACTION_DECK,
                cards: pile.len() as u16,
            });
            settle_draw(public, &mut events);
        }
        (Phase::DrawAction { turn, count }, Step::Dealt) => {
            let dealt = public.actions.take(usize::from(count));
            events.push(Event::Dealt {
                seat: turn.seat,
                deck: ACTION_DECK,
                cards: dealt.len() as u8,
            });
            let got = dealt.len() as u8;
            public.areas[usize::from(turn.seat)].hand.extend(dealt);
            public.phase = Phase::DrawAction {
                turn,
                count: count.saturating_sub(got),
            };
            settle_draw(public, &mut events);
        }
        (Phase::DrawList { .. }, Step::Shuffled) => {
            let pile = std::mem::take(&mut public.list_discard);
            public.lists.shuffled(pile.len());
            events.push(Event::Shuffled {
                deck: LIST_DECK,
                cards: pile.len() as u16,
            });
            if public.lists.left() == 0
                && let Phase::DrawList { turn } = public.phase.clone()
            {
                // No List anywhere to draw: the action is spent for nothing.
                Spammers::after_action(public, turn, &mut events);
            }
        }
        (Phase::DrawList { turn }, Step::Revealed(faces)) => {
            public.lists.take(1);
            let Some(card) = faces.first() else {
                return Err(RuleError::WrongStep {
                    expected: "one List's face".into(),
                });
            };
            public.phase = Phase::ListDrawn { turn, card: *card };
        }
        (Phase::Rolling { turn, mut mailing }, Step::Chance(draw)) => {
            mailing.roll = rng::roll(&mut rng::from_seed(draw, "spammers mailing"), 6) as u8;
            public.last_roll = Some(mailing.roll);
            events.push(Event::Rolled {
                seat: mailing.seat,
                roll: mailing.roll,
                target_number: mailing.target_number(),
            });
            open_window(public, turn, mailing, turn_seat_of(public), &mut events);
        }
        (
            Phase::Window {
                mut turn,
                mut mailing,
                seats,
            },
            Step::Inputs(plays),
        ) => {
            let mut expected = seats.clone();
            expected.sort_unstable();
            if !plays.iter().map(|(s, _)| s).eq(expected.iter()) {
                return Err(RuleError::WrongStep {
                    expected: format!("the answers of seats {seats:?}"),
                });
            }
            let mut answers = Vec::new();
            for (s, play) in plays {
                let Some(input) = play.input() else { continue };
                Spammers::check_input(public, *s, input)?;
                if let Input::Special { card, face, aim } = input {
                    Spammers::check_face(privates, *s, card, *face)?;
                    answers.push((*s, *card, *face, *aim));
                }
            }
            answers.sort_by_key(|(s, ..)| seats.iter().position(|x| x == s));
            match answers.split_first() {
                None => Spammers::resolve(public, turn, mailing, &mut events),
                Some((&(s, card, face, aim), late)) => {
                    for &(seat, _, card, _) in late {
                        events.push(Event::TooLate { seat, card });
                    }
                    Spammers::take(public, privates, s, &card);
                    events.push(Event::Special {
                        seat: s,
                        card: face,
                        aim,
                    });
                    if let ActionKind::Mailing { effect, .. } = action(face).kind {
                        // Draws and extra Mailings are never answers (see `aims`).
                        Spammers::special(
                            public,
                            s,
                            effect,
                            aim,
                            &mut turn,
                            Some(&mut mailing),
                            &mut events,
                        );
                    }
                    public.action_discard.push(face);
                    if let Some(at) = public.locate(mailing.target_card) {
                        mailing.target = at;
                    }
                    open_window(public, turn, mailing, s, &mut events);
                }
            }
        }
        (phase, Step::Inputs(plays)) => {
            let seat = match Spammers::pending(public) {
                Pending::Turn { seat } => seat,
                other => {
                    return Err(RuleError::WrongStep {
                        expected: format!("{other:?}"),
                    });
                }
            };
            let input = crate::one_open_input(plays, seat)?;
            Spammers::check_input(public, seat, input)?;
            turn_input(public, privates, phase, seat, input, &mut events)?;
        }
        _ => {
            return Err(RuleError::WrongStep {
                expected: format!("{:?}", Spammers::pending(public)),
            });
        }
    }
    Ok(events)
}

/// The Gruntle limits, for every List on the table, after any change of Size, Gruntles or
/// owner: a Proprietary List with Gruntles at half its printed Size or more (counted half,
/// rounded down, behind its owner's Firewall) loses them and moves to the Unwashed Masses; a
/// Masses List with Gruntles equal to its printed Size goes to the discards. The order is
/// fixed, so every device moves the same Lists to the same places: seats in order, each
/// one's Lists in order, then the Masses in order.
fn settle_lists(public: &mut Public, events: &mut Vec<Event>) {
    for (seat, area) in public.areas.iter_mut().enumerate() {
        let firewall = area.has(|h| *h == Continuous::Firewall);
        let mut index = 0;
        while index < area.lists.len() {
            let stack = &area.lists[index];
            let counted = if firewall {
                stack.gruntles / 2
            } else {
                stack.gruntles
            };
            if u32::from(counted) * 2 >= u32::from(stack.printed()) {
                let mut moved = area.lists.remove(index);
                moved.gruntles = 0;
                events.push(Event::ListFled {
                    seat: seat as Seat,
                    cards: moved.cards.clone(),
                });
                public.masses.push(moved);
            } else {
                index += 1;
            }
        }
    }
    let mut index = 0;
    while index < public.masses.len() {
        let stack = &public.masses[index];
        if stack.gruntles >= stack.printed() {
            let gone = public.masses.remove(index);
            events.push(Event::ListDiscarded {
                cards: gone.cards.clone(),
            });
            public.list_discard.extend(gone.cards);
        } else {
            index += 1;
        }
    }
    // A Mailing under way follows its List to where it is now.
    let target_card = match &public.phase {
        Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } => Some(mailing.target_card),
        _ => None,
    };
    if let Some(at) = target_card.and_then(|card| public.locate(card))
        && let Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } = &mut public.phase
    {
        mailing.target = at;
    }
}

fn turn_seat_of(public: &Public) -> Seat {
    match &public.phase {
        Phase::Rolling { turn, .. } | Phase::Turn(turn) => turn.seat,
        _ => 0,
    }
}

/// A window after the roll (or after an answer): every player holding a card may answer.
fn open_window(
    public: &mut Public,
    turn: Turn,
    mailing: Mailing,
    after: Seat,
    events: &mut Vec<Event>,
) {
    let seats = Spammers::answerers(public, after);
    if seats.is_empty() {
        Spammers::resolve(public, turn, mailing, events);
    } else {
        public.phase = Phase::Window {
            turn,
            mailing,
            seats,
        };
    }
}

/// Moves on from an Action draw that is done: all drawn, the hand full, or no card left.
fn settle_draw(public: &mut Public, events: &mut Vec<Event>) {
    let Phase::DrawAction { turn, count } = public.phase.clone() else {
        return;
    };
    let area = &public.areas[usize::from(turn.seat)];
    let room = area.hand_limit().saturating_sub(area.hand.len());
    let nothing = public.actions.left() == 0 && public.action_discard.is_empty();
    if count == 0 || room == 0 || nothing {
        Spammers::after_action(public, turn, events);
    } else if usize::from(count) > room {
        public.phase = Phase::DrawAction {
            turn,
            count: room as u8,
        };
    }
}

/// A List is drawn, unless there is none in the deck or the discards (the action is spent).
fn draw_list(public: &mut Public, turn: Turn, events: &mut Vec<Event>) {
    if public.lists.left() == 0 && public.list_discard.is_empty() {
        Spammers::after_action(public, turn, events);
    } else {
        public.phase = Phase::DrawList { turn };
    }
}

/// One checked input on the seat's own turn.
fn turn_input(
    public: &mut Public,
    privates: &mut [Option<Private>],
    phase: Phase,
    seat: Seat,
    input: &Input,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let i = usize::from(seat);
    match (phase, input) {
        (Phase::Turn(turn), Input::EndTurn) => {
            let next = (turn.seat + 1) % public.config.seats;
            Spammers::begin_turn(public, next, events);
        }
        (Phase::Turn(turn), Input::DrawAction) => {
            public.phase = Phase::DrawAction { turn, count: 1 };
            settle_draw(public, events);
        }
        (Phase::Turn(turn), Input::DrawList) => draw_list(public, turn, events),
        (Phase::Turn(turn), Input::DiscardScam { scam, list }) => {
            let card = public.areas[i].scams.remove(usize::from(*scam)).card;
            public.action_discard.push(card);
            events.push(Event::ScamDiscarded { seat, card });
            if *list {
                draw_list(public, turn, events);
            } else {
                public.phase = Phase::DrawAction { turn, count: 1 };
                settle_draw(public, events);
            }
        }
        (Phase::Turn(turn), Input::DiscardHeldScam { card, face }) => {
            Spammers::check_face(privates, seat, card, *face)?;
            // The other seats see the Scam; the rest of the hand is checked where it is known
            // (its holder's device, and the audit, where every hand is shown).
            if let Some(Some(private)) = privates.get(i)
                && !Spammers::legal_inputs(public, Some(private), seat).contains(input)
            {
                return Err(illegal(
                    seat,
                    "it discarded a Scam from its hand while holding a playable card: that is \
                     allowed only with a full hand of which no card is playable",
                ));
            }
            Spammers::take(public, privates, seat, card);
            public.action_discard.push(*face);
            events.push(Event::ScamDiscardedFromHand { seat, card: *face });
            public.phase = Phase::DrawAction { turn, count: 1 };
            settle_draw(public, events);
        }
        (Phase::ListDrawn { turn, card }, Input::ListToMasses) => {
            public.masses.push(Stack::new(card));
            events.push(Event::ToMasses { card });
            Spammers::after_action(public, turn, events);
        }
        (Phase::ListDrawn { turn, card }, Input::KeepList { scam }) => {
            let s = &mut public.areas[i].scams[usize::from(*scam)];
            s.rating -= 1;
            let scam_card = s.card;
            public.areas[i].lists.push(Stack::new(card));
            events.push(Event::ListKept {
                seat,
                card,
                scam: scam_card,
            });
            Spammers::after_action(public, turn, events);
        }
        (Phase::Turn(turn), Input::PlayScam { card, face }) => {
            Spammers::check_face(privates, seat, card, *face)?;
            Spammers::take(public, privates, seat, card);
            let initial = match action(*face).kind {
                ActionKind::Scam { initial, .. } => initial,
                _ => 0,
            };
            public.areas[i].scams.push(Scam {
                card: *face,
                rating: initial,
            });
            events.push(Event::ScamPlayed { seat, card: *face });
            Spammers::after_action(public, turn, events);
        }
        (Phase::Turn(mut turn), Input::PlayHardware { card, face }) => {
            Spammers::check_face(privates, seat, card, *face)?;
            Spammers::take(public, privates, seat, card);
            public.areas[i].hardware.push(*face);
            if action(*face).kind == ActionKind::Hardware(Continuous::ExtraMailing) {
                turn.mailings_allowed += 1;
            }
            events.push(Event::HardwarePlayed { seat, card: *face });
            Spammers::after_action(public, turn, events);
        }
        (
            Phase::Turn(mut turn),
            Input::Mail {
                card,
                face,
                scam,
                target,
            },
        ) => {
            Spammers::check_face(privates, seat, card, *face)?;
            Spammers::take(public, privates, seat, card);
            turn.mailings += 1;
            let base = public.target_number(seat, *scam, *face, *target);
            events.push(Event::Mailed {
                seat,
                card: *face,
                scam: public.areas[i].scams[usize::from(*scam)].card,
                target: *target,
                target_number: base,
            });
            public.phase = Phase::Rolling {
                turn,
                mailing: Mailing {
                    seat,
                    card: *face,
                    scam: *scam,
                    target: *target,
                    target_card: public
                        .stack(*target)
                        .and_then(|st| st.cards.first().copied())
                        .unwrap_or(0),
                    base,
                    adjust: 0,
                    roll: 0,
                },
            };
        }
        (Phase::Turn(mut turn), Input::Special { card, face, aim }) => {
            Spammers::check_face(privates, seat, card, *face)?;
            Spammers::take(public, privates, seat, card);
            events.push(Event::Special {
                seat,
                card: *face,
                aim: *aim,
            });
            let ActionKind::Mailing { effect, .. } = action(*face).kind else {
                return Err(illegal(seat, "only a Mailing has a Special Effect"));
            };
            let draws = Spammers::special(public, seat, effect, *aim, &mut turn, None, events);
            public.action_discard.push(*face);
            if draws > 0 {
                public.phase = Phase::DrawAction { turn, count: draws };
                settle_draw(public, events);
            } else {
                Spammers::after_action(public, turn, events);
            }
        }
        (Phase::Turn(turn), Input::Merge { a, b }) => {
            merge(public, *a, *b);
            events.push(Event::Merged { a: *a, b: *b });
            Spammers::after_action(public, turn, events);
        }
        _ => return Err(illegal(seat, "that is not a move the game allows now")),
    }
    Ok(())
}

/// Two Lists of one area become one: cards, Specialties (never twice) and Gruntles together.
fn merge(public: &mut Public, a: ListRef, b: ListRef) {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let take = |public: &mut Public, at: ListRef| -> Option<Stack> {
        match at {
            ListRef::Masses(i) => {
                (usize::from(i) < public.masses.len()).then(|| public.masses.remove(usize::from(i)))
            }
            ListRef::Proprietary { seat, index } => {
                let lists = &mut public.areas.get_mut(usize::from(seat))?.lists;
                (usize::from(index) < lists.len()).then(|| lists.remove(usize::from(index)))
            }
        }
    };
    // The higher place first, so the lower one's index still holds.
    let Some(upper) = take(public, hi) else {
        return;
    };
    let Some(lower) = public.stack_mut(lo) else {
        return;
    };
    lower.cards.extend(upper.cards);
    for sp in upper.specialties {
        if !lower.specialties.contains(&sp) {
            lower.specialties.push(sp);
        }
    }
    lower.gruntles = lower.gruntles.saturating_add(upper.gruntles);
}

/// Both decks' cards, each in one place: a List in the Masses, in someone's area, on the
/// discard pile, just drawn, held or in its deck; an Action in play as a Scam or Hardware,
/// being mailed, discarded, held or in its deck.
fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
    if public.actions.generation.is_none() {
        return Ok(());
    }
    let held = |deck| {
        public
            .areas
            .iter()
            .flat_map(|a| &a.hand)
            .filter(|h| h.deck == deck)
            .count()
    };
    let mut lists: Vec<CardId> = public.masses.iter().flat_map(|s| s.cards.clone()).collect();
    lists.extend(
        public
            .areas
            .iter()
            .flat_map(|a| a.lists.iter().flat_map(|s| s.cards.clone())),
    );
    lists.extend(&public.list_discard);
    if let Phase::ListDrawn { card, .. } = &public.phase {
        lists.push(*card);
    }
    crate::each_once(
        "List",
        &lists,
        held(LIST_DECK) + public.lists.left(),
        cards::list_deck().len(),
    )?;
    let mut actions: Vec<CardId> = public
        .areas
        .iter()
        .flat_map(|a| a.scams.iter().map(|s| s.card))
        .collect();
    actions.extend(public.areas.iter().flat_map(|a| a.hardware.clone()));
    actions.extend(&public.action_discard);
    if let Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } = &public.phase {
        actions.push(mailing.card);
    }
    crate::each_once(
        "Action",
        &actions,
        held(ACTION_DECK) + public.actions.left(),
        cards::action_deck().len(),
    )?;
    let hands: Vec<Vec<Handle>> = public.areas.iter().map(|a| a.hand.clone()).collect();
    crate::faces_known(&hands, privates.iter().flatten().map(|p| (p.seat, &p.faces)))
}

impl Listed for Spammers {
    const TITLE: &'static str = "SPAMMERS";
    const VARIANTS: &'static [&'static str] = &["quick-answers"];

    fn config(seats: u8) -> Config {
        Config {
            seats,
            window: ReactionWindow::USUAL,
        }
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

    /// `quick-answers`: one second to answer a Mailing roll instead of three.
    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "quick-answers" => {
                config.window = ReactionWindow::QUICK;
                Ok(())
            }
            other => Err(format!("SPAMMERS has no variant {other:?}")),
        }
    }

    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        check_pieces(public, privates)
    }
}
