//! Freeloader's game log in plain words.

use super::rules::name as card;
use super::state::{Event, TradeKind};
use crate::Seat;

pub fn line(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match event {
        Event::Shuffled { cards } => format!("The deck of {cards} cards is shuffled."),
        Event::Arranged { houses } => format!(
            "The neighbourhood, clockwise: {}.",
            houses
                .iter()
                .map(|h| format!("{h:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Event::Dealt { seat, cards } => format!("{} is dealt {cards} cards.", name(*seat)),
        Event::TurnedUp { card: c, .. } => format!("{} turns up beside a house.", card(*c)),
        Event::Placed { first, .. } => format!("Everyone wanders in; {} goes first.", name(*first)),
        Event::Rolled { seat, dice, moved } => format!(
            "{} rolls {:?} and moves {moved}.",
            name(*seat),
            dice
        ),
        Event::Landed { .. } => String::new(),
        Event::Bus { seat, stop } => format!("{} takes the bus to stop {stop}.", name(*seat)),
        Event::Drew { seat, face_up } => match face_up {
            Some(c) => format!("{} takes the {} from beside the house.", name(*seat), card(*c)),
            None => format!("{} draws a card.", name(*seat)),
        },
        Event::Favors { seat, count, .. } => format!(
            "{} does {count} favor{}.",
            name(*seat),
            if *count == 1 { "" } else { "s" }
        ),
        Event::BestFriend { seat, .. } => format!("{} is a Best Friend now.", name(*seat)),
        Event::Challenged { seat, defender, .. } => format!(
            "{} challenges {} for Best Friend.",
            name(*seat),
            name(*defender)
        ),
        Event::GaveUp { seat, .. } => format!("{} gives up.", name(*seat)),
        Event::Fought {
            seat,
            defender,
            totals,
            winner,
        } => format!(
            "{} ({}) fights {} ({}): {} wins.",
            name(*seat),
            totals.0,
            name(*defender),
            totals.1,
            name(*winner)
        ),
        Event::Played { seat, card: c, cost } => {
            let plural = if *cost == 1 { "" } else { "s" };
            format!(
                "{} gets the {} for {cost} favor{plural}.",
                name(*seat),
                card(*c)
            )
        }
        Event::Drunk {
            seat,
            card: c,
            to,
            cars,
        } => format!(
            "{} hands {} the {}{}",
            name(*seat),
            name(*to),
            card(*c),
            if cars.is_empty() {
                ".".to_string()
            } else {
                format!(" and {} car{} goes away.", cars.len(), if cars.len() == 1 { "" } else { "s" })
            }
        ),
        Event::Surprised { seat, card: c } => {
            format!("{} cashes in the {} for favors.", name(*seat), card(*c))
        }
        Event::Crashed { seat, evicted, .. } => match evicted {
            Some(v) => format!("{} throws {} out and crashes there.", name(*seat), name(*v)),
            None => format!("{} crashes on the couch.", name(*seat)),
        },
        Event::Traded { seat, with, kind } => format!(
            "{} trades {} with {}.",
            name(*seat),
            match kind {
                TradeKind::Hand => "cards in hand",
                TradeKind::Stuff => "Stuff",
            },
            name(*with)
        ),
        Event::Gave { from, to, card: c } => match c {
            Some(c) => format!("{} gives {} the {}.", name(*from), name(*to), card(*c)),
            None => format!("{} gives {} a card.", name(*from), name(*to)),
        },
        Event::TookFromBoard {
            seat, took, left, ..
        } => format!(
            "{} swaps the {} for the {}.",
            name(*seat),
            card(*left),
            card(*took)
        ),
        Event::Stole { seat, from, card: c } => {
            format!("{} steals the {} from {}.", name(*seat), card(*c), name(*from))
        }
        Event::Skipped { seat } => format!("{} does nothing there.", name(*seat)),
        Event::DeckOut => "The last card is drawn: the game ends with the last player's turn.".into(),
        Event::Ended { winners, .. } => {
            if winners.is_empty() {
                "Nobody has Food, Clothing and Shelter: everybody loses.".into()
            } else {
                let names: Vec<String> = winners.iter().map(|s| name(*s)).collect();
                format!("{} wins!", names.join(" and "))
            }
        }
    }
}
