//! What happens in a GreedQuest game, event by event, and the game log's plain-language lines.

use super::cards::Card;
use super::rooms;
use super::state::{DuelFor, SeatSet};
use crate::Seat;
use serde::{Deserialize, Serialize};

/// Why a seat plays no card this turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SitOut {
    /// It lost this turn (Room 8, or Survival of the Fittest).
    LostTurn,
    /// It has no card it may play.
    NoCard,
    /// The table went on without it (skipped by vote, or removed).
    Away,
}

/// Why a card was discarded without effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Void {
    /// The room it was played in voids it (Rooms 2 and 10).
    Room(u8),
    /// Canceled by this seat's Dragon ATTACK!!.
    DragonAttack(Seat),
    /// Canceled by this seat's Dragon Sighting.
    DragonSighting(Seat),
    /// Two or more of this card were played (Dragon ATTACK!!, The Meek Shall Inherit, Curse!).
    Several,
    /// There was no winning Go! card.
    NoWinner,
    /// Even Chance on an odd winning Go!, or Odd Reversal on an even one.
    WrongParity,
    /// Another player of the same card was chosen to change places.
    NotChosen,
    /// It would have moved someone, but nobody changed rooms.
    NobodyMoved,
    /// Its player, or the player whose choice it waited for, was away and the table went
    /// on without them.
    Away,
}

/// Why a piece moved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Move {
    /// Room 6: a unique card.
    Puzzle,
    SecretDoor,
    SeeYa {
        go_cards: u8,
    },
    /// The winning Go!.
    Go,
    /// Even Chance / Odd Reversal: changed places with `with`.
    Swap {
        with: Seat,
    },
    Tracking {
        target: Seat,
    },
    /// Room 8: out of cards.
    Trap,
    /// This Is My Room!: lost the leaders' duel.
    Lead,
    /// Survival of the Fittest: down to five cards.
    Survival,
}

/// What a seat chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Choice {
    /// Which player of Even Chance / Odd Reversal changes places.
    Swapper,
    /// Which winner of the turn changes places.
    Winner,
    /// Whom to track.
    Target,
}

/// Why a seat will sit out its next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lose {
    Trap,
    Survival,
}

/// One thing that happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// Every deck shuffled from the beacon draw; five cards each.
    Dealt,
    TurnBegins {
        turn: u32,
    },
    SitsOut {
        seat: Seat,
        why: SitOut,
    },
    /// A card turned face up. `from_deck`: played from the top of the draw pile (Room 9).
    Played {
        seat: Seat,
        card: Card,
        room: u8,
        from_deck: bool,
    },
    /// Room 6: the card is taken out of the turn; `unique` moves its player.
    PuzzleRoom {
        seat: Seat,
        card: Card,
        unique: bool,
    },
    NoEffect {
        seat: Seat,
        card: Card,
        why: Void,
    },
    /// Loot the Bodies!: hand discarded, `drew` new cards.
    Looted {
        seat: Seat,
        drew: u8,
    },
    DragonAttack {
        seat: Seat,
    },
    Meek {
        seat: Seat,
    },
    Curse {
        seat: Seat,
    },
    /// Go!, Tracking and See Ya! from these rooms are canceled (the same room twice when
    /// there is no room behind).
    DragonSighting {
        seat: Seat,
        rooms: [u8; 2],
    },
    /// Room 1 shields this seat from the Curse!.
    CurseImmune {
        seat: Seat,
    },
    WildValue {
        seat: Seat,
        value: u8,
    },
    /// This seat's Go! wins the turn, at `value` (room modifiers included).
    Won {
        seat: Seat,
        card: Card,
        value: i8,
        meek: Option<Seat>,
    },
    NoWinner,
    /// `from == to` when a wall stopped the move.
    Moved {
        seat: Seat,
        from: u8,
        to: u8,
        why: Move,
        backward: bool,
    },
    DuelBegins {
        seats: SeatSet,
        why: DuelFor,
    },
    /// `None`: the seat had no card to duel with.
    DuelCard {
        seat: Seat,
        card: Option<Card>,
    },
    DuelTied {
        seats: SeatSet,
    },
    DuelWon {
        seat: Seat,
    },
    DuelNoWinner,
    Chose {
        seat: Seat,
        chosen: Seat,
        why: Choice,
    },
    /// Removed from the game (Battle of Attrition).
    Dead {
        seat: Seat,
        card: Card,
    },
    Reshuffled {
        seat: Seat,
    },
    /// Room 11: the seat looks at its first card and secretly keeps or discards it.
    FirstCard {
        seat: Seat,
    },
    LosesTurn {
        seat: Seat,
        why: Lose,
    },
    /// Reached the Hoard: now heading out.
    Reversed {
        seat: Seat,
    },
    /// Dead cards back in the deck on first reaching the Hoard.
    Resurrected {
        seat: Seat,
        cards: u8,
    },
    /// Survival of the Fittest: down to five cards.
    DownToFive {
        seat: Seat,
        to: u8,
    },
    Winners {
        seats: SeatSet,
    },
    /// The table removed the seat: it leaves the race.
    Left {
        seat: Seat,
    },
}

fn names(seats: SeatSet, name: &dyn Fn(Seat) -> String) -> String {
    let all: Vec<String> = seats.iter().map(name).collect();
    match all.len() {
        0 => "nobody".to_string(),
        1 => all[0].clone(),
        n => format!("{} and {}", all[..n - 1].join(", "), all[n - 1]),
    }
}

fn room_name(room: u8) -> String {
    format!("Room {room} ({})", rooms::room(room).name)
}

/// One line of the game log.
pub fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match *event {
        Event::Dealt => "Every deck is shuffled and everyone draws five cards.".to_string(),
        Event::TurnBegins { turn } => format!("Turn {turn}."),
        Event::SitsOut {
            seat,
            why: SitOut::LostTurn,
        } => {
            format!("{} sits out this turn.", name(seat))
        }
        Event::SitsOut {
            seat,
            why: SitOut::NoCard,
        } => {
            format!("{} has no card to play.", name(seat))
        }
        Event::SitsOut {
            seat,
            why: SitOut::Away,
        } => {
            format!("{} is away: the table goes on without them.", name(seat))
        }
        Event::Played {
            seat,
            card,
            from_deck,
            ..
        } if from_deck => {
            format!("{} plays {card} from the top of the deck.", name(seat))
        }
        Event::Played { seat, card, .. } => format!("{} plays {card}.", name(seat)),
        Event::PuzzleRoom {
            seat,
            card,
            unique: true,
        } => format!(
            "{}'s {card} is the only one played: the Pointless Puzzle Room lets them through.",
            name(seat)
        ),
        Event::PuzzleRoom {
            seat,
            card,
            unique: false,
        } => format!(
            "{}'s {card} is not unique: it is lost in the Pointless Puzzle Room.",
            name(seat)
        ),
        Event::NoEffect { seat, card, why } => {
            let reason = match why {
                Void::Room(room) => format!("has no effect in {}", room_name(room)),
                Void::DragonAttack(by) => format!("is canceled by {}'s Dragon ATTACK!!", name(by)),
                Void::DragonSighting(by) => {
                    format!("is canceled by {}'s Dragon Sighting", name(by))
                }
                Void::Several => format!("is discarded: more than one {card} was played"),
                Void::NoWinner => "does nothing: no Go! card won".to_string(),
                Void::WrongParity if card == Card::EvenChance => {
                    "does nothing: the winning Go! is odd".to_string()
                }
                Void::WrongParity => "does nothing: the winning Go! is even".to_string(),
                Void::NotChosen => "is not the one chosen to change places".to_string(),
                Void::NobodyMoved => "moves nobody".to_string(),
                Void::Away => "does nothing: the table went on without a choice".to_string(),
            };
            format!("{}'s {card} {reason}.", name(seat))
        }
        Event::Looted { seat, drew } => format!(
            "{}'s Loot the Bodies!: the whole hand is discarded and {drew} new cards drawn.",
            name(seat)
        ),
        Event::DragonAttack { seat } => {
            format!(
                "{}'s Dragon ATTACK!!: every other card in play is canceled.",
                name(seat)
            )
        }
        Event::Meek { seat } => format!(
            "{}'s The Meek Shall Inherit: the lowest Go! wins this turn.",
            name(seat)
        ),
        Event::Curse { seat } => {
            format!(
                "{}'s Curse!: everyone moves backward instead of forward.",
                name(seat)
            )
        }
        Event::DragonSighting {
            seat,
            rooms: [a, b],
        } => {
            let where_ = if a == b {
                format!("Room {a}")
            } else {
                format!("Rooms {a} and {b}")
            };
            format!(
                "{}'s Dragon Sighting: Go!, Tracking and See Ya! played in {where_} are discarded.",
                name(seat)
            )
        }
        Event::CurseImmune { seat } => {
            format!(
                "{} is in Ye Same Olde Tavern, immune to the Curse!.",
                name(seat)
            )
        }
        Event::WildValue { seat, value } => {
            let article = if value == 8 { "an" } else { "a" };
            format!("{} names the Go WILD! {article} {value}.", name(seat))
        }
        Event::Won {
            seat,
            card,
            value,
            meek,
        } => {
            let printed = match card {
                Card::Wild => None,
                other => other.go_value().map(i8::try_from),
            };
            let counts = match printed {
                Some(Ok(p)) if p == value => String::new(),
                _ => format!(" (counting {value})"),
            };
            match meek {
                Some(m) => format!(
                    "{}'s The Meek Shall Inherit: {}'s {card}{counts} wins.",
                    name(m),
                    name(seat)
                ),
                None => format!("{}'s {card}{counts} wins.", name(seat)),
            }
        }
        Event::NoWinner => "No Go! card wins this turn.".to_string(),
        Event::Moved { seat, from, to, .. } if from == to => {
            format!("{} cannot move and stays in {}.", name(seat), room_name(to))
        }
        Event::Moved {
            seat,
            to,
            why,
            backward,
            ..
        } => {
            let verb = if backward {
                "moves back to"
            } else {
                "moves to"
            };
            let why = match why {
                Move::Puzzle => ", out of the Pointless Puzzle Room".to_string(),
                Move::SecretDoor => " through a Secret Door".to_string(),
                Move::SeeYa { go_cards: 1 } => " with See Ya! (one Go! card in play)".to_string(),
                Move::SeeYa { go_cards } => {
                    format!(" with See Ya! ({go_cards} Go! cards in play)")
                }
                Move::Go => String::new(),
                Move::Swap { with } => {
                    return format!(
                        "{} changes places with {}: now in {}.",
                        name(seat),
                        name(with),
                        room_name(to)
                    );
                }
                Move::Tracking { target } => format!(", tracking {}", name(target)),
                Move::Trap => " out of the Trap, empty-handed".to_string(),
                Move::Lead => ", losing the leaders' duel".to_string(),
                Move::Survival => ", down to five cards".to_string(),
            };
            format!("{} {verb} {}{why}.", name(seat), room_name(to))
        }
        Event::DuelBegins { seats, why } => {
            let stake = match why {
                DuelFor::Swapper { card } => format!("to decide whose {card} counts"),
                DuelFor::Winner { partner } => {
                    format!("to decide who trades places with {}", name(partner))
                }
                DuelFor::Lead { .. } => "for the lead (This Is My Room!)".to_string(),
            };
            format!("{} duel {stake}.", names(seats, name))
        }
        Event::DuelCard {
            seat,
            card: Some(card),
        } => format!("{} duels with {card}.", name(seat)),
        Event::DuelCard { seat, card: None } => {
            format!("{} has no card to duel with.", name(seat))
        }
        Event::DuelTied { seats } => format!("{} tie; the duel goes on.", names(seats, name)),
        Event::DuelWon { seat } => format!("{} wins the duel.", name(seat)),
        Event::DuelNoWinner => "Nobody played a Go!: everyone loses the duel.".to_string(),
        Event::Chose { seat, chosen, why } => {
            let what = match why {
                Choice::Swapper | Choice::Winner => "to change places",
                Choice::Target => "to track",
            };
            if seat == chosen {
                format!("{} chooses themself {what}.", name(seat))
            } else {
                format!("{} chooses {} {what}.", name(seat), name(chosen))
            }
        }
        Event::Dead { seat, card } => {
            format!("{}'s {card} is dead and leaves the game.", name(seat))
        }
        Event::Reshuffled { seat } => {
            format!("{} shuffles the discards into a new draw pile.", name(seat))
        }
        Event::FirstCard { seat } => format!(
            "{} looks at the first card drawn and secretly keeps or discards it.",
            name(seat)
        ),
        Event::LosesTurn { seat, why } => {
            let why = match why {
                Lose::Trap => "trapped without cards",
                Lose::Survival => "reshuffling every card",
            };
            format!("{} will lose the next turn, {why}.", name(seat))
        }
        Event::Reversed { seat } => {
            format!(
                "{} reaches the Hoard and turns back toward the Tavern!",
                name(seat)
            )
        }
        Event::Resurrected { seat, cards: 0 } => format!(
            "{} shuffles the discards into the draw pile at the Hoard.",
            name(seat)
        ),
        Event::Resurrected { seat, cards } => format!(
            "{}'s {cards} dead cards come back to life and are shuffled into the deck.",
            name(seat)
        ),
        Event::DownToFive { seat, to } => format!(
            "{} is down to five cards and must go back to {}.",
            name(seat),
            room_name(to)
        ),
        Event::Winners { seats } if seats.len() == 1 => {
            format!("{} wins the game!", names(seats, name))
        }
        Event::Winners { seats } => format!("{} all win the game!", names(seats, name)),
        Event::Left { seat } => format!("{} has left the game.", name(seat)),
    }
}
