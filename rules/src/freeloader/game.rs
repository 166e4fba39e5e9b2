//! Freeloader's table and its steps: the ring of six houses, favors, Best Friends and Crash
//! spaces, the 54-card shared hidden deck, and every turn and board space of the rulebook.

use super::board::section;
use super::cards::CARDS;
use super::data::{Category, Discount, House, Space, Special};
use crate::deck::{CardMove, HiddenDeck};
use crate::{Absence, CardId, Game, Handle, Listed, Outcome, Pending, RuleError, Seat, Step, rng};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The game.
pub struct Freeloader;

pub const DECK: crate::DeckId = 0;
/// Cards dealt to each player at the start.
pub const HAND: usize = 2;
/// Favors each player starts with in every house.
pub const START_FAVORS: u8 = 2;
/// Spaces on the ring: six sections of seven.
pub const RING: u8 = 42;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Config {
    pub seats: u8,
}

/// A card in a hand: hidden (dealt from the deck or passed in secret), or one everybody has
/// seen (taken from beside a house, or handed over from someone's Stuff).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Held {
    Hidden(Handle),
    Open(CardId),
}

/// One house on the table: who has favors there and who sits on its special spaces.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HouseState {
    pub house: House,
    /// Favors by seat, the Best Friend's and crashers' counters included.
    pub favors: Vec<u8>,
    /// The Best Friend spaces (the Waitress has two).
    pub best_friends: Vec<Option<Seat>>,
    /// The Crash spaces (the Hippies have three).
    pub crash: Vec<Option<Seat>>,
    /// The face-up card beside the house.
    pub face_up: Option<CardId>,
}

impl HouseState {
    pub fn is_best_friend(&self, seat: Seat) -> bool {
        self.best_friends.contains(&Some(seat))
    }

    pub fn is_crashing(&self, seat: Seat) -> bool {
        self.crash.contains(&Some(seat))
    }

    /// Counters of `seat` on special spaces here.
    fn markers(&self, seat: Seat) -> u8 {
        (self.best_friends.iter().chain(&self.crash))
            .filter(|s| **s == Some(seat))
            .count() as u8
    }

    /// Takes `n` favors of `seat` out: plain ones first, then the crash counter, then the
    /// Best Friend's (the default order; [`Input::PlayCardPaying`] lets a player choose).
    fn spend(&mut self, seat: Seat, n: u8) {
        let have = &mut self.favors[usize::from(seat)];
        *have = have.saturating_sub(n);
        let have = *have;
        while self.markers(seat) > have {
            if let Some(slot) = self.crash.iter_mut().find(|s| **s == Some(seat)) {
                *slot = None;
            } else if let Some(slot) = self.best_friends.iter_mut().find(|s| **s == Some(seat)) {
                *slot = None;
            } else {
                break;
            }
        }
    }

    /// Which of `seat`'s counters on special spaces the default order ([`HouseState::spend`])
    /// spends among `n` favors: as few as the plain favors allow, the crash counter first.
    fn default_paying(&self, seat: Seat, n: u8) -> Paying {
        let forced = self.forced(seat, n);
        let crashing = self.is_crashing(seat);
        Paying {
            crash: crashing && forced >= 1,
            best_friend: self.is_best_friend(seat) && forced > u8::from(crashing),
        }
    }

    /// How many of `seat`'s counters on special spaces must be among `n` favors spent.
    fn forced(&self, seat: Seat, n: u8) -> u8 {
        let plain = self.favors[usize::from(seat)].saturating_sub(self.markers(seat));
        n.saturating_sub(plain).min(self.markers(seat))
    }

    /// The ways for `seat` to pay `n` favors here other than the default order's that keep
    /// as many special spaces as the favors allow: where only one of its Crash space and its
    /// Best Friend space can stay, giving up the Best Friend's instead. A choice that gives up
    /// a space the favors could keep is never offered.
    pub fn paying_choices(&self, seat: Seat, n: u8) -> Vec<Paying> {
        let forced = self.forced(seat, n);
        let default = self.default_paying(seat, n);
        [false, true]
            .into_iter()
            .flat_map(|crash| {
                [false, true]
                    .into_iter()
                    .map(move |best_friend| Paying { crash, best_friend })
            })
            .filter(|p| {
                (!p.crash || self.is_crashing(seat))
                    && (!p.best_friend || self.is_best_friend(seat))
                    && u8::from(p.crash) + u8::from(p.best_friend) == forced
                    && *p != default
            })
            .collect()
    }

    /// Takes `n` favors of `seat` out, `paying` saying which counters on special spaces are
    /// among them (the rest are plain).
    fn spend_as(&mut self, seat: Seat, n: u8, paying: Paying) {
        if paying.crash
            && let Some(slot) = self.crash.iter_mut().find(|s| **s == Some(seat))
        {
            *slot = None;
        }
        if paying.best_friend
            && let Some(slot) = self.best_friends.iter_mut().find(|s| **s == Some(seat))
        {
            *slot = None;
        }
        self.spend(seat, n);
    }
}

/// What the seat placing favors wants with the Best Friend space.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Friend {
    /// Leave it be.
    Keep,
    /// Mark the open space `slot` with one of the new favors.
    Take { slot: u8 },
    /// Challenge whoever holds space `slot`.
    Challenge { slot: u8 },
}

/// Which of a player's counters on the special spaces of the house where it stands are among
/// the favors it spends on a card (the rest are plain favors).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Paying {
    pub crash: bool,
    pub best_friend: bool,
}

/// What kind of trade.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TradeKind {
    Hand,
    Stuff,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Phase {
    Shuffle,
    /// The houses are laid out in a random order.
    Arrange,
    Dealing {
        seat: Seat,
    },
    /// A card is turned up beside each house, in ring order.
    FaceUp,
    /// The pawns go to random Bus Stops and on, and the first player is drawn.
    Place,
    /// `seat` chooses its turn.
    Turn {
        seat: Seat,
    },
    /// The dice roll for a move of `dice` counted dice (`rolled` rolled, the lowest thrown
    /// out).
    Moving {
        seat: Seat,
        dice: u8,
        rolled: u8,
    },
    /// `seat` follows the space it landed on.
    Land {
        seat: Seat,
    },
    /// The bus: one die to a random Bus Stop, then a move again.
    Bus {
        seat: Seat,
    },
    /// `seat` moves again after the bus.
    MoveAgain {
        seat: Seat,
    },
    /// `defender` holds Best Friend space `slot` of ring house `house`: give up or fight.
    Challenge {
        seat: Seat,
        defender: Seat,
        house: u8,
        slot: u8,
    },
    /// The fight's dice.
    Fight {
        seat: Seat,
        defender: Seat,
        house: u8,
        slot: u8,
    },
    /// `with` picks a card (from hand or Stuff) to give `seat`.
    TradeGive {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    /// `seat` gives a card back.
    TradeBack {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    /// `seat` draws the top card of the deck.
    DrawTop {
        seat: Seat,
    },
    /// The face-up card of ring house `house` is replaced from the deck.
    Refill {
        seat: Seat,
        house: u8,
    },
    Over(Outcome),
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Public {
    pub config: Config,
    pub deck: HiddenDeck,
    /// The houses in ring order (clockwise); ring place `i` holds spaces `7i..7i+7`.
    pub houses: Vec<HouseState>,
    pub hands: Vec<Vec<Held>>,
    /// Each player's Stuff, face up.
    pub stuff: Vec<Vec<CardId>>,
    /// Cards out of the game (Surprise! cards played for favors, Cars lost to a DWI).
    pub out: Vec<CardId>,
    /// Each pawn's space on the ring.
    pub pawns: Vec<u8>,
    pub first: Seat,
    pub phase: Phase,
    /// The last dice rolled (for the screen).
    pub dice: Vec<u8>,
    pub turns: u32,
}

impl Public {
    /// The ring place of the house a pawn on `space` stands in.
    pub fn house_at(&self, space: u8) -> u8 {
        space / 7
    }

    /// The board space at ring position `space`.
    pub fn space(&self, space: u8) -> Space {
        let house = self.houses[usize::from(space / 7)].house;
        section(house).track[usize::from(space % 7)]
    }

    /// The ring place of `house`.
    pub fn place_of(&self, house: House) -> u8 {
        self.houses
            .iter()
            .position(|h| h.house == house)
            .unwrap_or(0) as u8
    }

    /// The ring position of Bus Stop `n`.
    pub fn bus_stop(&self, n: u8) -> u8 {
        for (i, h) in self.houses.iter().enumerate() {
            if section(h.house).track[6] == Space::BusStop(n) {
                return i as u8 * 7 + 6;
            }
        }
        6
    }

    /// Whether `seat` has a card with `special` in its Stuff.
    pub fn owns(&self, seat: Seat, special: fn(&Special) -> bool) -> bool {
        self.stuff[usize::from(seat)]
            .iter()
            .any(|c| special(&CARDS[usize::from(*c)].special))
    }

    /// What `card` costs `seat` standing where its pawn is: the printed cost less every
    /// discount that applies (it may be negative).
    pub fn cost(&self, seat: Seat, card: CardId) -> i32 {
        let here = self.houses[usize::from(self.house_at(self.pawns[usize::from(seat)]))].house;
        let c = &CARDS[usize::from(card)];
        let mut cost = i32::from(c.cost);
        for d in c.discounts {
            match *d {
                Discount::House(h, x) if h == here => cost -= i32::from(x),
                Discount::BestFriend(h, y)
                    if self.houses[usize::from(self.place_of(h))].is_best_friend(seat) =>
                {
                    cost -= i32::from(y)
                }
                _ => {}
            }
        }
        cost
    }

    /// A player's score: their Stuff's points and the bonuses for matched sets.
    pub fn score(&self, seat: Seat) -> i32 {
        let stuff = &self.stuff[usize::from(seat)];
        let mut points: i32 = stuff
            .iter()
            .map(|c| i32::from(CARDS[usize::from(*c)].points))
            .sum();
        let mut sets: Vec<(&str, i8)> = Vec::new();
        for c in stuff {
            if let Special::Match { set, bonus } = CARDS[usize::from(*c)].special
                && !sets.iter().any(|(s, _)| *s == set)
            {
                sets.push((set, bonus));
            }
        }
        for (set, bonus) in sets {
            let whole = CARDS.iter().enumerate().all(|(i, card)| {
                !matches!(card.special, Special::Match { set: s, .. } if s == set)
                    || stuff.contains(&(i as CardId))
            });
            if whole {
                points += i32::from(bonus);
            }
        }
        points
    }

    /// Food, Clothing and Shelter in the Stuff (crashing anywhere counts as Shelter).
    pub fn qualifies(&self, seat: Seat) -> bool {
        let has = |cat: Category| {
            self.stuff[usize::from(seat)]
                .iter()
                .any(|c| CARDS[usize::from(*c)].category == cat)
        };
        let crashing = self.houses.iter().any(|h| h.is_crashing(seat));
        has(Category::Food) && has(Category::Clothing) && (has(Category::Shelter) || crashing)
    }
}

/// What one seat knows: the faces of the hidden cards it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Private {
    pub seat: Seat,
    pub faces: BTreeMap<Handle, CardId>,
}

impl Private {
    /// The face of a card in hand, hidden or open.
    pub fn face(&self, held: &Held) -> Option<CardId> {
        match held {
            Held::Hidden(h) => self.faces.get(h).copied(),
            Held::Open(c) => Some(*c),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Input {
    /// Move, counting `dice` dice (1 or 2; 3 with a Car).
    Move {
        dice: u8,
    },
    /// Draw the top card of the deck, or the face-up card at the house where the pawn is.
    Draw {
        face_up: bool,
    },
    /// Place a favor in ring house `house`, and what to do about its Best Friend.
    Favor {
        house: u8,
        friend: Friend,
    },
    /// Spend favors where the pawn stands to put a card from hand into the Stuff (a
    /// negative cost places favors instead, with a Best Friend choice).
    PlayCard {
        card: Held,
        face: CardId,
        friend: Friend,
    },
    /// As a turn: hand a DWI card from the Stuff to `to`'s Stuff; their Cars leave the game.
    Dwi {
        card: CardId,
        to: Seat,
    },
    /// As a turn: a "Surprise!" card from hand leaves the game for favors in its house.
    Surprise {
        card: Held,
        face: CardId,
        friend: Friend,
    },
    /// On a Crash space: crash, evicting `evict` where the Best Friend may choose.
    Crash {
        evict: Option<Seat>,
        friend: Friend,
    },
    /// On a Trade space: trade hand-to-hand or Stuff-to-Stuff with `with`.
    Trade {
        with: Seat,
        kind: TradeKind,
    },
    /// On a Trade space: take the face-up card of ring house `house`, leaving `card` there.
    TradeBoard {
        house: u8,
        card: Held,
        face: CardId,
    },
    /// On a Steal space: take `card` from `from`'s Stuff.
    Steal {
        from: Seat,
        card: CardId,
    },
    /// In a trade: the card given. A hidden one is passed in secret, so the input names
    /// only its place in the hand: its face is for the giver and the taker alone.
    Give { card: Held },
    /// Follow nothing on this space (nothing to take, or not wanted).
    Skip,
    /// In a challenge: give up the Best Friend space, or fight for it.
    GiveUp,
    Fight,
    /// [`Input::PlayCard`] for a positive cost, with the player saying which of its counters
    /// on special spaces pay (where the favors left cannot keep both).
    PlayCardPaying {
        card: Held,
        face: CardId,
        paying: Paying,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    Shuffled {
        cards: u16,
    },
    Arranged {
        houses: Vec<House>,
    },
    Dealt {
        seat: Seat,
        cards: u8,
    },
    TurnedUp {
        house: u8,
        card: CardId,
    },
    Placed {
        pawns: Vec<u8>,
        first: Seat,
    },
    Rolled {
        seat: Seat,
        dice: Vec<u8>,
        moved: u8,
    },
    Landed {
        seat: Seat,
        space: u8,
    },
    Bus {
        seat: Seat,
        stop: u8,
    },
    Drew {
        seat: Seat,
        face_up: Option<CardId>,
    },
    Favors {
        seat: Seat,
        house: u8,
        count: u8,
    },
    BestFriend {
        seat: Seat,
        house: u8,
    },
    Challenged {
        seat: Seat,
        defender: Seat,
        house: u8,
    },
    GaveUp {
        seat: Seat,
        house: u8,
    },
    Fought {
        seat: Seat,
        defender: Seat,
        totals: (u32, u32),
        winner: Seat,
    },
    Played {
        seat: Seat,
        card: CardId,
        cost: i32,
    },
    Drunk {
        seat: Seat,
        card: CardId,
        to: Seat,
        cars: Vec<CardId>,
    },
    Surprised {
        seat: Seat,
        card: CardId,
    },
    Crashed {
        seat: Seat,
        house: u8,
        evicted: Option<Seat>,
    },
    Traded {
        seat: Seat,
        with: Seat,
        kind: TradeKind,
    },
    Gave {
        from: Seat,
        to: Seat,
        card: Option<CardId>,
    },
    TookFromBoard {
        seat: Seat,
        house: u8,
        took: CardId,
        left: CardId,
    },
    Stole {
        seat: Seat,
        from: Seat,
        card: CardId,
    },
    Skipped {
        seat: Seat,
    },
    DeckOut,
    Ended {
        winners: Vec<Seat>,
        scores: Vec<i32>,
    },
}

fn illegal(seat: Seat, why: impl Into<String>) -> RuleError {
    RuleError::Illegal {
        seat,
        why: why.into(),
    }
}

fn name(card: CardId) -> &'static str {
    CARDS.get(usize::from(card)).map_or("a card", |c| c.name)
}

impl Freeloader {
    fn start_turn(public: &mut Public, seat: Seat) {
        public.turns += 1;
        public.phase = Phase::Turn { seat };
    }

    /// The turn is over: the game ends after the last player's turn once the deck is out.
    fn end_turn(public: &mut Public, seat: Seat, events: &mut Vec<Event>) {
        let n = public.config.seats;
        let last = (public.first + n - 1) % n;
        if public.deck.left() == 0 && seat == last {
            let scores: Vec<i32> = (0..n).map(|s| public.score(s)).collect();
            let qualified: Vec<Seat> = (0..n).filter(|s| public.qualifies(*s)).collect();
            let best = qualified.iter().map(|s| scores[usize::from(*s)]).max();
            let winners: Vec<Seat> = qualified
                .into_iter()
                .filter(|s| Some(scores[usize::from(*s)]) == best)
                .collect();
            events.push(Event::Ended {
                winners: winners.clone(),
                scores: scores.clone(),
            });
            public.phase = Phase::Over(Outcome { winners, scores });
        } else {
            Self::start_turn(public, (seat + 1) % n);
        }
    }

    /// `count` new favors of `seat` in ring house `house`, then its Best Friend choice.
    fn place_favors(
        public: &mut Public,
        seat: Seat,
        house: u8,
        count: u8,
        friend: Friend,
        events: &mut Vec<Event>,
    ) {
        let h = &mut public.houses[usize::from(house)];
        h.favors[usize::from(seat)] = h.favors[usize::from(seat)].saturating_add(count);
        events.push(Event::Favors { seat, house, count });
        Self::befriend(public, seat, house, friend, events);
    }

    /// A Best Friend choice already checked: take the open space, challenge, or nothing.
    fn befriend(
        public: &mut Public,
        seat: Seat,
        house: u8,
        friend: Friend,
        events: &mut Vec<Event>,
    ) {
        let h = &mut public.houses[usize::from(house)];
        match friend {
            Friend::Keep => Self::end_turn(public, seat, events),
            Friend::Take { slot } => {
                // The same as winning it: a lone crash counter moves over.
                Self::won_friend(public, seat, house, slot, events);
                Self::end_turn(public, seat, events);
            }
            Friend::Challenge { slot } => {
                let Some(defender) = h.best_friends[usize::from(slot)] else {
                    return Self::end_turn(public, seat, events);
                };
                events.push(Event::Challenged {
                    seat,
                    defender,
                    house,
                });
                public.phase = Phase::Challenge {
                    seat,
                    defender,
                    house,
                    slot,
                };
            }
        }
    }

    /// Whether `friend` is a Best Friend choice `seat` may make in ring house `house`.
    fn friend_ok(public: &Public, seat: Seat, house: u8, friend: Friend) -> bool {
        let Some(h) = public.houses.get(usize::from(house)) else {
            return false;
        };
        let holds = h.is_best_friend(seat);
        match friend {
            Friend::Keep => true,
            Friend::Take { slot } => !holds && h.best_friends.get(usize::from(slot)) == Some(&None),
            Friend::Challenge { slot } => {
                !holds
                    && matches!(h.best_friends.get(usize::from(slot)), Some(Some(s)) if *s != seat)
            }
        }
    }

    /// The challenger won (or the defender gave up): the space changes hands.
    fn won_friend(public: &mut Public, seat: Seat, house: u8, slot: u8, events: &mut Vec<Event>) {
        let h = &mut public.houses[usize::from(house)];
        // A crasher with no other counter here moves its counter to the Best Friend space.
        if h.favors[usize::from(seat)] <= h.markers(seat)
            && let Some(c) = h.crash.iter_mut().find(|s| **s == Some(seat))
        {
            *c = None;
        }
        h.best_friends[usize::from(slot)] = Some(seat);
        events.push(Event::BestFriend { seat, house });
    }

    fn hand_face(
        privates: &[Option<Private>],
        seat: Seat,
        held: &Held,
        face: CardId,
    ) -> Result<(), RuleError> {
        match held {
            Held::Open(c) if *c != face => Err(illegal(seat, "that card shows another face")),
            Held::Hidden(h) => match privates.get(usize::from(seat)) {
                Some(Some(p)) if p.faces.get(h) != Some(&face) => Err(RuleError::PrivateMismatch {
                    seat,
                    why: format!("it showed a card as {} that it does not hold", name(face)),
                }),
                _ => Ok(()),
            },
            Held::Open(_) => Ok(()),
        }
    }

    /// `seat` plays `card` (showing `face`) from its hand into its stuff: its cost here.
    fn play_from_hand(
        public: &mut Public,
        privates: &mut [Option<Private>],
        seat: Seat,
        card: &Held,
        face: CardId,
        events: &mut Vec<Event>,
    ) -> Result<i32, RuleError> {
        Freeloader::hand_face(privates, seat, card, face)?;
        let cost = public.cost(seat, face);
        Freeloader::take_from_hand(public, privates, seat, card);
        public.stuff[usize::from(seat)].push(face);
        events.push(Event::Played {
            seat,
            card: face,
            cost,
        });
        Ok(cost)
    }

    fn take_from_hand(
        public: &mut Public,
        privates: &mut [Option<Private>],
        seat: Seat,
        held: &Held,
    ) {
        public.hands[usize::from(seat)].retain(|h| h != held);
        if let (Held::Hidden(h), Some(Some(p))) = (held, privates.get_mut(usize::from(seat))) {
            p.faces.remove(h);
        }
    }

    /// The draw of `seat`: the top card (dealt in secret) or the face-up card here.
    fn draw(public: &mut Public, seat: Seat, face_up: bool, events: &mut Vec<Event>) {
        if face_up {
            let house = public.house_at(public.pawns[usize::from(seat)]);
            let card = public.houses[usize::from(house)].face_up.take();
            if let Some(card) = card {
                public.hands[usize::from(seat)].push(Held::Open(card));
            }
            events.push(Event::Drew {
                seat,
                face_up: card,
            });
            if public.deck.left() > 0 {
                public.phase = Phase::Refill { seat, house };
            } else {
                Self::end_turn(public, seat, events);
            }
        } else {
            public.phase = Phase::DrawTop { seat };
        }
    }

    /// Moves `seat`'s pawn `steps` clockwise and asks it to follow the space.
    fn land(public: &mut Public, seat: Seat, steps: u8, events: &mut Vec<Event>) {
        let at = &mut public.pawns[usize::from(seat)];
        *at = (*at + steps) % RING;
        let space = *at;
        events.push(Event::Landed { seat, space });
        public.phase = match public.space(space) {
            Space::BusStop(_) => Phase::Bus { seat },
            _ => Phase::Land { seat },
        };
    }
}

/// Inputs for the space `seat` landed on, or a turn, that name a Best Friend choice: every
/// choice the house allows.
fn friend_choices(public: &Public, seat: Seat, house: u8) -> Vec<Friend> {
    let slots = public.houses[usize::from(house)].best_friends.len() as u8;
    std::iter::once(Friend::Keep)
        .chain((0..slots).map(|slot| Friend::Take { slot }))
        .chain((0..slots).map(|slot| Friend::Challenge { slot }))
        .filter(|f| Freeloader::friend_ok(public, seat, house, *f))
        .collect()
}

fn held_faces(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<(Held, CardId)> {
    public.hands[usize::from(seat)]
        .iter()
        .filter_map(|h| match h {
            Held::Open(c) => Some((*h, *c)),
            Held::Hidden(_) => private.and_then(|p| p.face(h)).map(|f| (*h, f)),
        })
        .collect()
}

/// Every ring house whose Crash space `seat` may take, and whom it may evict there.
fn crash_options(public: &Public, seat: Seat) -> Vec<Option<Seat>> {
    let house = public.house_at(public.pawns[usize::from(seat)]);
    let h = &public.houses[usize::from(house)];
    let hippies = h.house == House::Hippies;
    if hippies && h.is_crashing(seat) {
        return vec![];
    }
    if h.crash.contains(&None) && !(h.crash.len() == 1 && h.is_crashing(seat)) {
        return vec![None];
    }
    if !h.is_best_friend(seat) {
        return vec![];
    }
    let mut out: Vec<Option<Seat>> = h
        .crash
        .iter()
        .flatten()
        .filter(|s| **s != seat)
        .map(|s| Some(*s))
        .collect();
    out.sort();
    out.dedup();
    // One crash space: the one crasher there goes; the Hippies' Best Friend picks.
    if !hippies {
        out.truncate(1);
    }
    out
}

/// Whether `seat` has landed on a Crash space it must crash on: one open to it.
fn open_crash(public: &Public, seat: Seat) -> bool {
    matches!(public.phase, Phase::Land { seat: s } if s == seat)
        && public.space(public.pawns[usize::from(seat)]) == Space::Crash
        && crash_options(public, seat).contains(&None)
}

impl Game for Freeloader {
    const NAME: &'static str = "freeloader";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        3..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "Freeloader is for 3 to 6 players, not {}",
                config.seats
            )));
        }
        let n = usize::from(config.seats);
        let houses = House::ALL
            .iter()
            .map(|house| {
                let s = section(*house);
                HouseState {
                    house: *house,
                    favors: vec![START_FAVORS; n],
                    best_friends: vec![None; usize::from(s.best_friends)],
                    crash: vec![None; usize::from(s.crash_spaces)],
                    face_up: None,
                }
            })
            .collect();
        Ok(Public {
            config: config.clone(),
            deck: HiddenDeck::new(DECK),
            houses,
            hands: vec![Vec::new(); n],
            stuff: vec![Vec::new(); n],
            out: Vec::new(),
            pawns: vec![0; n],
            first: 0,
            phase: Phase::Shuffle,
            dice: Vec::new(),
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
                cards: (0..CARDS.len() as CardId).collect(),
            },
            Phase::Dealing { seat } => Pending::Deal {
                to: *seat,
                cards: public.deck.peek(HAND),
            },
            Phase::FaceUp => Pending::Reveal {
                cards: public.deck.peek(public.houses.len()),
            },
            Phase::Refill { .. } => Pending::Reveal {
                cards: public.deck.peek(1),
            },
            Phase::DrawTop { seat } => Pending::Deal {
                to: *seat,
                cards: public.deck.peek(1),
            },
            Phase::Arrange
            | Phase::Place
            | Phase::Moving { .. }
            | Phase::Bus { .. }
            | Phase::Fight { .. } => Pending::Chance,
            Phase::Turn { seat }
            | Phase::Land { seat }
            | Phase::MoveAgain { seat }
            | Phase::TradeBack { seat, .. } => Pending::Turn { seat: *seat },
            Phase::Challenge { defender, .. } => Pending::Turn { seat: *defender },
            Phase::TradeGive { with, .. } => Pending::Turn { seat: *with },
            Phase::Over(o) => Pending::Over(o.clone()),
        }
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        let Some(_) = public.hands.get(usize::from(seat)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let held = held_faces(public, private, seat);
        let here = public.house_at(public.pawns[usize::from(seat)]);
        let stuff = &public.stuff[usize::from(seat)];
        let n = public.config.seats;
        match &public.phase {
            Phase::Turn { seat: s } | Phase::MoveAgain { seat: s } if *s == seat => {
                let most = if public.owns(seat, |s| *s == Special::Car) {
                    3
                } else {
                    2
                };
                out.extend((1..=most).map(|dice| Input::Move { dice }));
                if matches!(public.phase, Phase::Turn { .. }) {
                    if public.deck.left() > 0 {
                        out.push(Input::Draw { face_up: false });
                    }
                    if public.houses[usize::from(here)].face_up.is_some() {
                        out.push(Input::Draw { face_up: true });
                    }
                    for house in 0..public.houses.len() as u8 {
                        for friend in friend_choices(public, seat, house) {
                            out.push(Input::Favor { house, friend });
                        }
                    }
                    for (card, face) in &held {
                        let cost = public.cost(seat, *face);
                        let have = public.houses[usize::from(here)].favors[usize::from(seat)];
                        if cost <= i32::from(have) {
                            let friends = if cost < 0 {
                                friend_choices(public, seat, here)
                            } else {
                                vec![Friend::Keep]
                            };
                            for friend in friends {
                                out.push(Input::PlayCard {
                                    card: *card,
                                    face: *face,
                                    friend,
                                });
                            }
                            if cost > 0 {
                                let h = &public.houses[usize::from(here)];
                                for paying in h.paying_choices(seat, cost as u8) {
                                    out.push(Input::PlayCardPaying {
                                        card: *card,
                                        face: *face,
                                        paying,
                                    });
                                }
                            }
                        }
                        if let Special::Surprise { house, .. } = CARDS[usize::from(*face)].special {
                            for friend in friend_choices(public, seat, public.place_of(house)) {
                                out.push(Input::Surprise {
                                    card: *card,
                                    face: *face,
                                    friend,
                                });
                            }
                        }
                    }
                    for card in stuff {
                        if CARDS[usize::from(*card)].special == Special::Dwi {
                            out.extend(
                                (0..n)
                                    .filter(|t| *t != seat)
                                    .map(|to| Input::Dwi { card: *card, to }),
                            );
                        }
                    }
                }
            }
            Phase::Land { seat: s } if *s == seat => {
                out.push(Input::Skip);
                match public.space(public.pawns[usize::from(seat)]) {
                    Space::Favor(Some(house)) => {
                        let house = public.place_of(house);
                        for friend in friend_choices(public, seat, house) {
                            out.push(Input::Favor { house, friend });
                        }
                        out.retain(|i| *i != Input::Skip);
                    }
                    Space::Favor(None) => {
                        for house in 0..public.houses.len() as u8 {
                            for friend in friend_choices(public, seat, house) {
                                out.push(Input::Favor { house, friend });
                            }
                        }
                        out.retain(|i| *i != Input::Skip);
                    }
                    Space::Draw => {
                        if public.deck.left() > 0 {
                            out.push(Input::Draw { face_up: false });
                        }
                        if public.houses[usize::from(here)].face_up.is_some() {
                            out.push(Input::Draw { face_up: true });
                        }
                    }
                    Space::Trade => {
                        for with in (0..n).filter(|w| *w != seat) {
                            if !public.hands[usize::from(with)].is_empty() {
                                out.push(Input::Trade {
                                    with,
                                    kind: TradeKind::Hand,
                                });
                            }
                            if !public.stuff[usize::from(with)].is_empty() && !stuff.is_empty() {
                                out.push(Input::Trade {
                                    with,
                                    kind: TradeKind::Stuff,
                                });
                            }
                        }
                        for (house, h) in public.houses.iter().enumerate() {
                            if h.face_up.is_some() {
                                for (card, face) in &held {
                                    out.push(Input::TradeBoard {
                                        house: house as u8,
                                        card: *card,
                                        face: *face,
                                    });
                                }
                            }
                        }
                    }
                    Space::StealFood | Space::StealClothing => {
                        let want =
                            if public.space(public.pawns[usize::from(seat)]) == Space::StealFood {
                                Category::Food
                            } else {
                                Category::Clothing
                            };
                        for from in (0..n).filter(|f| *f != seat) {
                            for card in &public.stuff[usize::from(from)] {
                                if CARDS[usize::from(*card)].category == want {
                                    out.push(Input::Steal { from, card: *card });
                                }
                            }
                        }
                    }
                    Space::Crash => {
                        // "If the Crash Space is open, you will place a new favor": no pass.
                        if open_crash(public, seat) {
                            out.retain(|i| *i != Input::Skip);
                        }
                        for evict in crash_options(public, seat) {
                            let friends = if evict.is_none() {
                                friend_choices(public, seat, here)
                            } else {
                                vec![Friend::Keep]
                            };
                            for friend in friends {
                                out.push(Input::Crash { evict, friend });
                            }
                        }
                    }
                    Space::BusStop(_) => {}
                }
            }
            Phase::Challenge { defender, .. } if *defender == seat => {
                out.push(Input::GiveUp);
                out.push(Input::Fight);
            }
            Phase::TradeGive { with: s, kind, .. } | Phase::TradeBack { seat: s, kind, .. }
                if *s == seat =>
            {
                // Any card in hand may be given, seen or not: a hidden one is named by its
                // place, so giving it needs no knowledge of its face.
                let cards: Vec<Held> = match kind {
                    TradeKind::Hand => public.hands[usize::from(seat)].clone(),
                    TradeKind::Stuff => stuff.iter().map(|c| Held::Open(*c)).collect(),
                };
                // A player with nothing to give gives nothing.
                if cards.is_empty() {
                    out.push(Input::Skip);
                }
                out.extend(cards.into_iter().map(|card| Input::Give { card }));
            }
            _ => {}
        }
        out
    }

    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        Self::legal_inputs(public, Some(private), seat).contains(input)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        if let Phase::Over(_) = public.phase {
            return Err(RuleError::GameOver);
        }
        if public.hands.get(usize::from(seat)).is_none() {
            return Err(illegal(seat, "there is no such seat"));
        }
        // The public list, with every hidden card in hand taken at the face claimed: an
        // input is allowed if it would be with the hand it claims (the faces themselves are
        // checked against the private side in `apply`, and by the protocol).
        let claimed = match input {
            Input::PlayCard { card, face, .. }
            | Input::PlayCardPaying { card, face, .. }
            | Input::Surprise { card, face, .. }
            | Input::TradeBoard { card, face, .. } => Some((*card, *face)),
            _ => None,
        };
        let stand_in = claimed.and_then(|(card, face)| match card {
            Held::Hidden(h) if public.hands[usize::from(seat)].contains(&card) => Some(Private {
                seat,
                faces: BTreeMap::from([(h, face)]),
            }),
            _ => None,
        });
        if *input == Input::Skip && open_crash(public, seat) {
            let house =
                public.houses[usize::from(public.house_at(public.pawns[usize::from(seat)]))].house;
            return Err(illegal(
                seat,
                format!(
                    "it passed up the open Crash space in the {house:?} house: a player who \
                     lands on an open Crash space crashes there, placing a favor on it"
                ),
            ));
        }
        let legal = Self::legal_inputs(public, stand_in.as_ref(), seat);
        if legal.contains(input) && claimed.is_none_or(|(_, f)| usize::from(f) < CARDS.len()) {
            Ok(())
        } else {
            Err(illegal(seat, "that is not a move the game allows now"))
        }
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| apply_step(p, q, step))
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        super::bot::choose(public, private, seat, rng)
    }

    fn narrate(event: &Event, name_of: &dyn Fn(Seat) -> String) -> String {
        super::narrate::line(event, name_of)
    }

    fn card_moves(public: &Public, seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::PlayCard {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::PlayCardPaying {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::Surprise {
                card: Held::Hidden(h),
                face,
                ..
            }
            | Input::TradeBoard {
                card: Held::Hidden(h),
                face,
                ..
            } => vec![CardMove::Show {
                card: *h,
                face: *face,
            }],
            Input::Give {
                card: Held::Hidden(h),
                ..
            } => {
                let to = match &public.phase {
                    Phase::TradeGive { seat: to, .. } => *to,
                    Phase::TradeBack { with, .. } => *with,
                    _ => seat,
                };
                vec![CardMove::Pass { card: *h, to }]
            }
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        private.faces.insert(card, face);
    }

    /// A seat the table goes on without gives up a challenge, gives the first face-up card
    /// asked of it in a trade (nothing, once removed, when every card it holds is hidden),
    /// gives nothing back in its own trade, follows nothing where it landed, and moves one
    /// die on its turn.
    fn sit_out(public: &Public, seat: Seat, absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Turn { seat: s } | Phase::MoveAgain { seat: s } if *s == seat => {
                Some(Input::Move { dice: 1 })
            }
            Phase::Land { seat: s } if *s == seat => Self::legal_inputs(public, None, seat)
                .into_iter()
                .find(|i| {
                    matches!(
                        i,
                        Input::Skip
                            | Input::Favor {
                                friend: Friend::Keep,
                                ..
                            }
                            | Input::Crash {
                                evict: None,
                                friend: Friend::Keep
                            }
                    )
                }),
            Phase::Challenge { defender, .. } if *defender == seat => Some(Input::GiveUp),
            Phase::TradeGive { with, kind, .. } if *with == seat => {
                // Only cards everyone has seen can be chosen for an absent player.
                let open = match kind {
                    TradeKind::Stuff => public.stuff[usize::from(seat)].first().copied(),
                    TradeKind::Hand => {
                        public.hands[usize::from(seat)]
                            .iter()
                            .find_map(|h| match h {
                                Held::Open(c) => Some(*c),
                                Held::Hidden(_) => None,
                            })
                    }
                };
                let nothing = match kind {
                    TradeKind::Stuff => public.stuff[usize::from(seat)].is_empty(),
                    TradeKind::Hand => public.hands[usize::from(seat)].is_empty(),
                };
                match open {
                    Some(c) => Some(Input::Give {
                        card: Held::Open(c),
                    }),
                    None if nothing => Some(Input::Skip),
                    // A removed player's hidden hand has left the game with them, unseen:
                    // there is nothing the table can give from it.
                    None if absence == Absence::Removed => Some(Input::Skip),
                    // A skipped player may come back: only their own hand can give a card
                    // no one else has seen, so the table waits for them (or removes them).
                    None => None,
                }
            }
            // A player gone in the middle of their own trade gives nothing back.
            Phase::TradeBack { seat: s, .. } if *s == seat => Some(Input::Skip),
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
        (Phase::Shuffle, Step::Shuffled) => {
            public.deck.shuffled(CARDS.len());
            events.push(Event::Shuffled {
                cards: CARDS.len() as u16,
            });
            public.phase = Phase::Arrange;
        }
        (Phase::Arrange, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader houses");
            rng::shuffle(&mut r, &mut public.houses);
            events.push(Event::Arranged {
                houses: public.houses.iter().map(|h| h.house).collect(),
            });
            public.phase = Phase::Dealing { seat: 0 };
        }
        (Phase::Dealing { seat }, Step::Dealt) => {
            let cards = public.deck.take(HAND);
            events.push(Event::Dealt {
                seat,
                cards: cards.len() as u8,
            });
            public.hands[usize::from(seat)].extend(cards.into_iter().map(Held::Hidden));
            public.phase = if seat + 1 < n {
                Phase::Dealing { seat: seat + 1 }
            } else {
                Phase::FaceUp
            };
        }
        (Phase::FaceUp, Step::Revealed(faces)) => {
            let cards = public.deck.take(public.houses.len());
            if faces.len() != cards.len() {
                return Err(RuleError::WrongStep {
                    expected: format!("{} faces", cards.len()),
                });
            }
            for (i, face) in faces.iter().enumerate() {
                public.houses[i].face_up = Some(*face);
                events.push(Event::TurnedUp {
                    house: i as u8,
                    card: *face,
                });
            }
            public.phase = Phase::Place;
        }
        (Phase::Place, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader pawns");
            for seat in 0..n {
                let stop = rng::roll(&mut r, 6) as u8;
                let on = rng::roll(&mut r, 6) as u8;
                public.pawns[usize::from(seat)] = (public.bus_stop(stop) + on) % RING;
            }
            public.first = rng::below(&mut r, u32::from(n)) as Seat;
            events.push(Event::Placed {
                pawns: public.pawns.clone(),
                first: public.first,
            });
            Freeloader::start_turn(public, public.first);
        }
        (Phase::Moving { seat, dice, rolled }, Step::Chance(draw)) => {
            let mut r = rng::from_seed(draw, "freeloader move");
            let mut thrown: Vec<u8> = (0..rolled).map(|_| rng::roll(&mut r, 6) as u8).collect();
            public.dice = thrown.clone();
            thrown.sort_unstable_by(|a, b| b.cmp(a));
            let moved: u8 = thrown.iter().take(usize::from(dice)).sum();
            events.push(Event::Rolled {
                seat,
                dice: public.dice.clone(),
                moved,
            });
            Freeloader::land(public, seat, moved, &mut events);
        }
        (Phase::Bus { seat }, Step::Chance(draw)) => {
            let stop = rng::roll(&mut rng::from_seed(draw, "freeloader bus"), 6) as u8;
            public.dice = vec![stop];
            public.pawns[usize::from(seat)] = public.bus_stop(stop);
            events.push(Event::Bus { seat, stop });
            public.phase = Phase::MoveAgain { seat };
        }
        (
            Phase::Fight {
                seat,
                defender,
                house,
                slot,
            },
            Step::Chance(draw),
        ) => {
            let mut r = rng::from_seed(draw, "freeloader fight");
            let (a, d) = (rng::roll(&mut r, 6), rng::roll(&mut r, 6));
            public.dice = vec![a as u8, d as u8];
            let h = &public.houses[usize::from(house)];
            let totals = (
                a * u32::from(h.favors[usize::from(seat)]),
                d * u32::from(h.favors[usize::from(defender)]),
            );
            // "The higher total wins, and ties go to the defender."
            let winner = if totals.0 > totals.1 { seat } else { defender };
            events.push(Event::Fought {
                seat,
                defender,
                totals,
                winner,
            });
            let loser = if winner == seat { defender } else { seat };
            if winner == seat {
                public.houses[usize::from(house)].best_friends[usize::from(slot)] = None;
                Freeloader::won_friend(public, seat, house, slot, &mut events);
            }
            // "The loser must take one favor out of the house, as a penalty for fighting."
            public.houses[usize::from(house)].spend(loser, 1);
            Freeloader::end_turn(public, seat, &mut events);
        }
        (Phase::DrawTop { seat }, Step::Dealt) => {
            let cards = public.deck.take(1);
            events.push(Event::Drew {
                seat,
                face_up: None,
            });
            public.hands[usize::from(seat)].extend(cards.into_iter().map(Held::Hidden));
            if public.deck.left() == 0 {
                events.push(Event::DeckOut);
            }
            Freeloader::end_turn(public, seat, &mut events);
        }
        (Phase::Refill { seat, house }, Step::Revealed(faces)) => {
            let taken = public.deck.take(1);
            if taken.len() != faces.len() {
                return Err(RuleError::WrongStep {
                    expected: "one face".into(),
                });
            }
            if let Some(face) = faces.first() {
                public.houses[usize::from(house)].face_up = Some(*face);
                events.push(Event::TurnedUp { house, card: *face });
            }
            if public.deck.left() == 0 {
                events.push(Event::DeckOut);
            }
            Freeloader::end_turn(public, seat, &mut events);
        }
        (phase, Step::Inputs(plays)) => {
            let seat = match Freeloader::pending(public) {
                Pending::Turn { seat } => seat,
                other => {
                    return Err(RuleError::WrongStep {
                        expected: format!("{other:?}"),
                    });
                }
            };
            let input = crate::one_open_input(plays, seat)?;
            // The rules' own move for a seat the table goes on without need not be one the
            // player could choose (a removed player gives nothing from a hidden hand).
            if !matches!(plays.as_slice(), [(_, crate::Play::Away(_))]) {
                Freeloader::check_input(public, seat, input)?;
            }
            input_step(public, privates, phase, seat, input, &mut events)?;
        }
        _ => {
            return Err(RuleError::WrongStep {
                expected: format!("{:?}", Freeloader::pending(public)),
            });
        }
    }
    Ok(events)
}

/// One seat's checked input.
fn input_step(
    public: &mut Public,
    privates: &mut [Option<Private>],
    phase: Phase,
    seat: Seat,
    input: &Input,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    let here = public.house_at(public.pawns[usize::from(seat)]);
    match (phase, input) {
        (Phase::Turn { .. } | Phase::MoveAgain { .. }, Input::Move { dice }) => {
            let extra = public.owns(seat, |s| *s == Special::ExtraDie);
            public.phase = Phase::Moving {
                seat,
                dice: *dice,
                rolled: dice + u8::from(extra),
            };
        }
        (Phase::Turn { .. } | Phase::Land { .. }, Input::Draw { face_up }) => {
            Freeloader::draw(public, seat, *face_up, events);
        }
        (Phase::Turn { .. } | Phase::Land { .. }, Input::Favor { house, friend }) => {
            Freeloader::place_favors(public, seat, *house, 1, *friend, events);
        }
        (Phase::Turn { .. }, Input::PlayCard { card, face, friend }) => {
            let cost = Freeloader::play_from_hand(public, privates, seat, card, *face, events)?;
            if cost < 0 {
                // A negative cost places favors, and so a chance at Best Friend.
                Freeloader::place_favors(public, seat, here, (-cost) as u8, *friend, events);
            } else {
                public.houses[usize::from(here)].spend(seat, cost as u8);
                Freeloader::end_turn(public, seat, events);
            }
        }
        (Phase::Turn { .. }, Input::PlayCardPaying { card, face, paying }) => {
            let cost = Freeloader::play_from_hand(public, privates, seat, card, *face, events)?;
            // Checked: a positive cost the favors here cover.
            public.houses[usize::from(here)].spend_as(seat, cost.max(0) as u8, *paying);
            Freeloader::end_turn(public, seat, events);
        }
        (Phase::Turn { .. }, Input::Surprise { card, face, friend }) => {
            Freeloader::hand_face(privates, seat, card, *face)?;
            let Special::Surprise { house, favors } = CARDS[usize::from(*face)].special else {
                return Err(illegal(seat, "that card is no Surprise!"));
            };
            Freeloader::take_from_hand(public, privates, seat, card);
            public.out.push(*face);
            events.push(Event::Surprised { seat, card: *face });
            let place = public.place_of(house);
            Freeloader::place_favors(public, seat, place, favors, *friend, events);
        }
        (Phase::Turn { .. }, Input::Dwi { card, to }) => {
            public.stuff[usize::from(seat)].retain(|c| c != card);
            let theirs = &mut public.stuff[usize::from(*to)];
            let (cars, kept): (Vec<CardId>, Vec<CardId>) = theirs
                .iter()
                .partition(|c| CARDS[usize::from(**c)].special == Special::Car);
            *theirs = kept;
            theirs.push(*card);
            public.out.extend(cars.iter().copied());
            events.push(Event::Drunk {
                seat,
                card: *card,
                to: *to,
                cars,
            });
            Freeloader::end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Skip) => {
            events.push(Event::Skipped { seat });
            Freeloader::end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Crash { evict, friend }) => {
            let h = &mut public.houses[usize::from(here)];
            if let Some(victim) = evict {
                // The Best Friend evicts: the crasher's counter leaves the house.
                if let Some(slot) = h.crash.iter_mut().find(|s| **s == Some(*victim)) {
                    *slot = None;
                }
                let v = &mut h.favors[usize::from(*victim)];
                *v = v.saturating_sub(1);
                h.spend(*victim, 0);
            }
            if let Some(slot) = h.crash.iter_mut().find(|s| s.is_none()) {
                *slot = Some(seat);
            }
            events.push(Event::Crashed {
                seat,
                house: here,
                evicted: *evict,
            });
            Freeloader::place_favors(public, seat, here, 1, *friend, events);
        }
        (Phase::Land { .. }, Input::Trade { with, kind }) => {
            events.push(Event::Traded {
                seat,
                with: *with,
                kind: *kind,
            });
            public.phase = Phase::TradeGive {
                seat,
                with: *with,
                kind: *kind,
            };
        }
        (Phase::Land { .. }, Input::TradeBoard { house, card, face }) => {
            Freeloader::hand_face(privates, seat, card, *face)?;
            let h = &mut public.houses[usize::from(*house)];
            let Some(took) = h.face_up.replace(*face) else {
                return Err(illegal(seat, "there is no face-up card there"));
            };
            Freeloader::take_from_hand(public, privates, seat, card);
            public.hands[usize::from(seat)].push(Held::Open(took));
            events.push(Event::TookFromBoard {
                seat,
                house: *house,
                took,
                left: *face,
            });
            Freeloader::end_turn(public, seat, events);
        }
        (Phase::Land { .. }, Input::Steal { from, card }) => {
            public.stuff[usize::from(*from)].retain(|c| c != card);
            public.stuff[usize::from(seat)].push(*card);
            events.push(Event::Stole {
                seat,
                from: *from,
                card: *card,
            });
            Freeloader::end_turn(public, seat, events);
        }
        (
            Phase::Challenge {
                seat: challenger,
                house,
                slot,
                ..
            },
            Input::GiveUp,
        ) => {
            events.push(Event::GaveUp { seat, house });
            public.houses[usize::from(house)].best_friends[usize::from(slot)] = None;
            Freeloader::won_friend(public, challenger, house, slot, events);
            Freeloader::end_turn(public, challenger, events);
        }
        (
            Phase::Challenge {
                seat: challenger,
                defender,
                house,
                slot,
            },
            Input::Fight,
        ) => {
            public.phase = Phase::Fight {
                seat: challenger,
                defender,
                house,
                slot,
            };
        }
        (
            Phase::TradeGive {
                seat: mover,
                with,
                kind,
            },
            Input::Give { card },
        ) => {
            give(public, privates, with, mover, kind, card, events)?;
            public.phase = Phase::TradeBack {
                seat: mover,
                with,
                kind,
            };
        }
        (
            Phase::TradeGive {
                seat: mover,
                with,
                kind,
            },
            Input::Skip,
        ) => {
            events.push(Event::Gave {
                from: with,
                to: mover,
                card: None,
            });
            public.phase = Phase::TradeBack {
                seat: mover,
                with,
                kind,
            };
        }
        (Phase::TradeBack { with, kind, .. }, Input::Give { card }) => {
            give(public, privates, seat, with, kind, card, events)?;
            Freeloader::end_turn(public, seat, events);
        }
        (Phase::TradeBack { .. }, Input::Skip) => Freeloader::end_turn(public, seat, events),
        _ => return Err(illegal(seat, "that is not a move the game allows now")),
    }
    Ok(())
}

/// `from` gives `card` to `to` in a trade: from hand to hand (a hidden card in secret: the
/// deck hands it over to the taker's key, and only the taker learns its face) or from
/// Stuff to Stuff.
fn give(
    public: &mut Public,
    privates: &mut [Option<Private>],
    from: Seat,
    to: Seat,
    kind: TradeKind,
    card: &Held,
    events: &mut Vec<Event>,
) -> Result<(), RuleError> {
    match kind {
        TradeKind::Hand => {
            if !public.hands[usize::from(from)].contains(card) {
                return Err(illegal(from, "it gave a card it does not hold"));
            }
            Freeloader::take_from_hand(public, privates, from, card);
            public.hands[usize::from(to)].push(*card);
            let shown = match card {
                Held::Open(c) => Some(*c),
                Held::Hidden(_) => None,
            };
            events.push(Event::Gave {
                from,
                to,
                card: shown,
            });
        }
        TradeKind::Stuff => {
            let Held::Open(face) = *card else {
                return Err(illegal(from, "Stuff lies face up: a hidden card is not in it"));
            };
            if !public.stuff[usize::from(from)].contains(&face) {
                return Err(illegal(from, "it gave a card that is not in its Stuff"));
            }
            public.stuff[usize::from(from)].retain(|c| *c != face);
            public.stuff[usize::from(to)].push(face);
            events.push(Event::Gave {
                from,
                to,
                card: Some(face),
            });
        }
    }
    Ok(())
}

/// The 54 cards, each in one place (the deck, a hand, someone's Stuff, face up beside a
/// house, or out of the game), and no seat with a marker on a special space beyond its
/// favors in that house.
fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
    if public.deck.generation.is_none() {
        return Ok(());
    }
    let mut seen: Vec<CardId> = Vec::new();
    let mut hidden: Vec<Vec<Handle>> = vec![Vec::new(); public.hands.len()];
    for (seat, hand) in public.hands.iter().enumerate() {
        for held in hand {
            match held {
                Held::Open(card) => seen.push(*card),
                Held::Hidden(handle) => hidden[seat].push(*handle),
            }
        }
    }
    seen.extend(public.stuff.iter().flatten());
    seen.extend(public.houses.iter().filter_map(|h| h.face_up));
    seen.extend(&public.out);
    let held = hidden.iter().map(Vec::len).sum::<usize>();
    crate::each_once("card", &seen, public.deck.left() + held, CARDS.len())?;
    for house in &public.houses {
        for seat in 0..public.config.seats {
            let markers = house
                .best_friends
                .iter()
                .chain(&house.crash)
                .filter(|s| **s == Some(seat))
                .count();
            let favors = house.favors.get(usize::from(seat)).copied().unwrap_or(0);
            if usize::from(favors) < markers {
                return Err(format!("seat {seat} has more markers than favors in {house:?}"));
            }
        }
    }
    crate::faces_known(&hidden, privates.iter().flatten().map(|p| (p.seat, &p.faces)))
}

impl Listed for Freeloader {
    const TITLE: &'static str = "Freeloader";

    fn config(seats: u8) -> Config {
        Config { seats }
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    fn with_seats(_config: &Config, seats: u8) -> Config {
        Config { seats }
    }

    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        check_pieces(public, privates)
    }
}
