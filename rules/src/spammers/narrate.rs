//! SPAMMERS' game log in plain words.

use super::cards::{action, list};
use super::state::{Aim, Event, ListRef};
use crate::Seat;

fn where_is(at: &ListRef, name: &dyn Fn(Seat) -> String) -> String {
    match at {
        ListRef::Masses(_) => "a List of the Unwashed Masses".into(),
        ListRef::Proprietary { seat, .. } => format!("one of {}'s Lists", name(*seat)),
    }
}

pub fn line(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
    match event {
        Event::Shuffled { deck, cards } => format!(
            "The {} deck of {cards} cards is shuffled.",
            if *deck == 0 { "List" } else { "Action" }
        ),
        Event::Dealt { seat, cards, .. } => format!(
            "{} gets {cards} card{}.",
            name(*seat),
            if *cards == 1 { "" } else { "s" }
        ),
        Event::Chose { seat, masses, .. } => format!(
            "{} gives {} to the Unwashed Masses.",
            name(*seat),
            list(*masses).name
        ),
        Event::Abstained { seat } => format!(
            "{} has left the table: their Lists leave with them, unseen.",
            name(*seat)
        ),
        Event::ToMasses { card } => {
            format!("{} joins the Unwashed Masses.", list(*card).name)
        }
        Event::First { seat } => format!("{} goes first.", name(*seat)),
        Event::TurnBegins { seat } => format!("{}'s turn.", name(*seat)),
        Event::ListKept { seat, card, scam } => format!(
            "{} keeps {} at the price of a point of {}.",
            name(*seat),
            list(*card).name,
            action(*scam).name
        ),
        Event::ScamPlayed { seat, card } => {
            format!("{} launches {}.", name(*seat), action(*card).name)
        }
        Event::HardwarePlayed { seat, card } => {
            format!("{} installs {}.", name(*seat), action(*card).name)
        }
        Event::Mailed {
            seat,
            card,
            scam,
            target,
            target_number,
        } => format!(
            "{} mails {} for {} with {} (target {target_number}).",
            name(*seat),
            where_is(target, name),
            action(*scam).name,
            action(*card).name
        ),
        Event::Rolled { roll, .. } => format!("The roll: {roll}."),
        Event::Special { seat, card, aim } => format!(
            "{} plays {}{}.",
            name(*seat),
            action(*card).name,
            match aim {
                Aim::Roll { up: true } => ": the target goes up",
                Aim::Roll { up: false } => ": the target goes down",
                _ => "",
            }
        ),
        Event::TooLate { seat, card } => format!(
            "{} had {} ready too, and keeps it.",
            name(*seat),
            action(*card).name
        ),
        Event::MailingResult {
            scam,
            gained,
            target_number,
            roll,
            ..
        } => match gained {
            0 => format!("{roll} against {target_number}: nobody bites."),
            n => format!(
                "{roll} against {target_number}: {} gains {n}.",
                action(*scam).name
            ),
        },
        Event::Gruntled { .. } => String::new(),
        Event::ListFled { seat, cards } => format!(
            "{} has had enough of {} and joins the Unwashed Masses.",
            cards.first().map_or("A List", |c| list(*c).name),
            name(*seat)
        ),
        Event::ListDiscarded { cards } => format!(
            "{} unsubscribes from everything.",
            cards.first().map_or("A List", |c| list(*c).name)
        ),
        Event::Merged { .. } => "Two Lists are merged.".into(),
        Event::ScamDiscarded { seat, card } => {
            format!("{} shuts down {}.", name(*seat), action(*card).name)
        }
        Event::ScamDiscardedFromHand { seat, card } => format!(
            "{} can play nothing in a full hand, and throws {} away.",
            name(*seat),
            action(*card).name
        ),
        Event::HardwareCrashed { seat, card } => {
            format!("{}'s {} crashes.", name(*seat), action(*card).name)
        }
        Event::Won { seat, total, best } => format!(
            "{} wins with Scams rated {total} in all (best {best}).",
            name(*seat)
        ),
    }
}
