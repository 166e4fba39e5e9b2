//! SPAMMERS' card tables: the List deck and the Action deck, one card a line.
//!
//! The publisher never printed a card list, so these are a reconstruction. Fixed by the
//! rulebook and the publisher: the List names "Bigots on Parade", "Ivory Tower Academics" and
//! "Last Few Communists"; the Scams Offshore Money Laundering Ltd. (Miscellaneous, Initial 0),
//! Psychic Acquaintances Network (Initial 1) and Built By Prisoners, Inc. (Initial 0); the
//! Mailings Reboot! Reboot! (+0), Last Generation Technology (+4), Insider Trading (±2 to a
//! Scam) and Marketing Wizard (±2 to a Target Number, right after a roll); the Hardware Router
//! Tap. Everything else (sizes, specialties, ratings, modifiers, counts, texts) is invented.
//!
//! A card's id is its place in its deck's list of cards: every List card once, every Action
//! card as many times as it has `copies`, in table order.
//!
//! The tables skip rustfmt so that each card stays on one line, where one edit corrects it.

use super::data::{ActionCard, ActionKind, Continuous, Effect, ListCard, Specialty, Timing};
use crate::CardId;
use Specialty::{Adult, FreeStuff, Grq, InternetServices};
use std::sync::OnceLock;

/// The List deck (36 cards), by printed Size.
#[rustfmt::skip]
pub const LISTS: &[ListCard] = &[
    ListCard { name: "Last Few Communists", size: 1, specialties: &[FreeStuff] },
    ListCard { name: "Abuse Desk Staff", size: 1, specialties: &[] },
    ListCard { name: "Ivory Tower Academics", size: 2, specialties: &[InternetServices] },
    ListCard { name: "UFO Abductee Support Group", size: 2, specialties: &[] },
    ListCard { name: "Pyramid Scheme Survivors", size: 2, specialties: &[Grq] },
    ListCard { name: "Lonely Truckers with Laptops", size: 2, specialties: &[Adult] },
    ListCard { name: "Virtual Pet Owners", size: 2, specialties: &[] },
    ListCard { name: "Bigots on Parade", size: 3, specialties: &[] },
    ListCard { name: "Conspiracy Newsgroup Regulars", size: 3, specialties: &[] },
    ListCard { name: "Y2K Survivalists", size: 3, specialties: &[Grq] },
    ListCard { name: "Home Pages Under Construction", size: 3, specialties: &[InternetServices] },
    ListCard { name: "Amateur Astrologers", size: 3, specialties: &[] },
    ListCard { name: "Guestbook Signers", size: 3, specialties: &[] },
    ListCard { name: "Startup Investors", size: 3, specialties: &[Grq, InternetServices] },
    ListCard { name: "Faith Healing Donors", size: 3, specialties: &[] },
    ListCard { name: "Lonely Hearts Chatters", size: 4, specialties: &[Adult] },
    ListCard { name: "Work-At-Home Hopefuls", size: 4, specialties: &[Grq] },
    ListCard { name: "Coupon Clippers", size: 4, specialties: &[FreeStuff] },
    ListCard { name: "Screen Saver Collectors", size: 4, specialties: &[FreeStuff, InternetServices] },
    ListCard { name: "Compulsive Quiz Takers", size: 4, specialties: &[] },
    ListCard { name: "Grandparents Who Found the Power Button", size: 4, specialties: &[] },
    ListCard { name: "Unsubscribe Link Clickers", size: 4, specialties: &[] },
    ListCard { name: "Self-Help Junkies", size: 4, specialties: &[] },
    ListCard { name: "Chain Letter Forwarders", size: 5, specialties: &[Grq] },
    ListCard { name: "Midnight Channel Surfers", size: 5, specialties: &[Adult] },
    ListCard { name: "Dial-Up Diehards", size: 5, specialties: &[InternetServices] },
    ListCard { name: "Lottery Ticket Regulars", size: 5, specialties: &[Grq, FreeStuff] },
    ListCard { name: "Middle Managers", size: 5, specialties: &[] },
    ListCard { name: "Fan Club Mailing Lists", size: 5, specialties: &[] },
    ListCard { name: "Sweepstakes Entrants", size: 6, specialties: &[FreeStuff] },
    ListCard { name: "Late-Night Chat Room Regulars", size: 6, specialties: &[Adult] },
    ListCard { name: "Bored College Freshmen", size: 6, specialties: &[Adult, FreeStuff] },
    ListCard { name: "Unattended Office Terminals", size: 6, specialties: &[] },
    ListCard { name: "AOL Newbies", size: 7, specialties: &[InternetServices] },
    ListCard { name: "Warranty Card Returners", size: 7, specialties: &[] },
    ListCard { name: "Harvested Usenet Posters", size: 8, specialties: &[] },
];

/// The Action deck (87 cards): Scams, then Mailings, then Hardware.
///
/// `scam(name, category, initial, copies, text)`, `mailing(name, modifier, effect, timing,
/// copies, text)`, `hardware(name, effect, copies, text)`; a category of `None` is
/// Miscellaneous.
#[rustfmt::skip]
pub const ACTIONS: &[ActionCard] = &[
    // Scams: 34 cards.
    scam("Offshore Money Laundering Ltd.", None, 0, 2, "Your money takes a long, relaxing cruise and comes home cleaner. No questions asked; none answered."),
    scam("Built By Prisoners, Inc.", None, 0, 2, "Handcrafted quality at wages nobody can undercut. Our workforce is extremely committed."),
    scam("Miracle Hair Tonic Online", None, 1, 1, "Grows hair on anything. Results not typical. Do not apply to keyboards."),
    scam("Name a Star After Yourself", None, 1, 1, "Your very own star, registered in our very own book. Telescope not included. Star not included."),
    scam("Ordination by E-Mail", None, 1, 1, "Become a minister in minutes. Marry friends, bless pets, deduct your living room."),
    scam("Psychic Acquaintances Network", Some(Adult), 1, 2, "Our gifted associates sensed you would call. Lonely nights, $3.99 a minute. Future not guaranteed."),
    scam("Celebrity Lookalike Photo Club", Some(Adult), 0, 2, "Stars you almost recognize, in poses their lawyers would never allow. Members only."),
    scam("Hot Singles in Your Area Code", Some(Adult), 0, 2, "They are waiting for your call. They have been waiting a long time. Some of them are named Gary."),
    scam("Adult Verification Service", Some(Adult), 2, 1, "Prove you are over 18 with a credit card. We will keep proving it to ourselves, monthly."),
    scam("Bulk E-Mail Software Kit", Some(InternetServices), 1, 2, "Send ten million messages an hour from your kitchen. Complaints are filed automatically, as spam."),
    scam("40 Million Addresses on CD-ROM", Some(InternetServices), 0, 2, "Every address on the Internet, plus several that never were. Verified by nobody."),
    scam("Search Engine Top Ten Guarantee", Some(InternetServices), 0, 1, "Your site in the top ten results for \"aardvark yodeling\", or your money back, eventually."),
    scam("Unlimited Dial-Up, $5.95 a Month", Some(InternetServices), 1, 1, "Unlimited access to our busy signal. Actual connections billed separately."),
    scam("Y2K Compliance Certificates", Some(InternetServices), 2, 1, "A handsome certificate stating your computer will survive the year 2000. Suitable for framing."),
    scam("Make Money Fast", Some(Grq), 0, 2, "Send $5 to the name at the top of this list, then add your own. Mathematics guarantees everyone wins."),
    scam("Envelope Stuffing From Home", Some(Grq), 0, 2, "Earn thousands stuffing envelopes! Send $30 to learn how; we mail you this ad, to stuff."),
    scam("Widow of a Foreign Minister", Some(Grq), 1, 1, "She needs only your bank details to move $30 million to safety. Your share is generous."),
    scam("Penny Stock Tip Sheet", Some(Grq), 1, 1, "Buy now, before the price we are raising rises. We have already bought."),
    scam("Seized Sports Car Auctions", Some(Grq), 2, 1, "Government-seized sports cars for $100! List of auctions $49.95. Cars not included."),
    scam("You Have Won a Free Cruise", Some(FreeStuff), 0, 2, "Congratulations! Simply pay the port fees, the fuel surcharge and the boat. Bring a bucket."),
    scam("Free Credit Report", Some(FreeStuff), 0, 2, "Learn your credit score absolutely free. Once you sign up, we will help you lower it."),
    scam("Free Government Grant Money", Some(FreeStuff), 1, 1, "Billions go unclaimed every year. Our guide tells you how, for a one-time fee. And a monthly one."),
    scam("Free Long Distance for Life", Some(FreeStuff), 1, 1, "Call anywhere, free, forever! Life defined as thirty days. Forever defined by us."),
    // Mailings: 43 cards. A strong Special Effect comes with a weak Mailing Modifier.
    mailing("Insider Trading", -1, Effect::Rating(2), Timing::Action, 3, "Special Effect (on your turn): add 2 to any Scam's Rating, or take 2 from it; no Scam falls below its Initial Rating."),
    mailing("Marketing Wizard", 0, Effect::Target(2), Timing::AfterRoll, 3, "Special Effect (right after any Mailing roll, before it counts): add 2 to its Target Number, or take 2 from it."),
    mailing("Reboot! Reboot!", 0, Effect::Crash, Timing::Action, 3, "It froze again. Special Effect (on your turn): send any one Hardware card in play to the discards."),
    mailing("Open Relay", 0, Effect::ExtraMailing, Timing::Action, 2, "Somebody left the door open. Special Effect (on your turn): you may use one more Mailing Effect this turn."),
    mailing("Guestbook Harvesting", 0, Effect::Harvest, Timing::Action, 2, "They signed in. Special Effect (on your turn): move any Unwashed Masses List into your Proprietary Lists."),
    mailing("Fabricated Testimonials", 1, Effect::Rating(1), Timing::Action, 3, "Special Effect (on your turn): add 1 to any Scam's Rating, or take 1 from it; no Scam falls below its Initial Rating."),
    mailing("Catchy Subject Line", 1, Effect::Target(1), Timing::AfterRoll, 3, "RE: RE: Your Order. Special Effect (right after any Mailing roll, before it counts): add 1 to its Target Number, or take 1."),
    mailing("Caffeine-Fueled All-Nighter", 1, Effect::Draw(2), Timing::Action, 2, "Sleep is for the unsubscribed. Special Effect (on your turn): draw 2 Action cards, as far as your hand limit allows."),
    mailing("Racy Attachment", 1, Effect::AddSpecialty(Adult), Timing::Action, 2, "Do not open at work. Special Effect (on your turn): put an Adult Specialty on any List that lacks one."),
    mailing("Plug-In Required", 1, Effect::AddSpecialty(InternetServices), Timing::Action, 2, "Special Effect (on your turn): put an Internet Services Specialty on any List that lacks one."),
    mailing("Photo of a Yacht", 1, Effect::AddSpecialty(Grq), Timing::Action, 2, "The yacht is rented. Special Effect (on your turn): put a GRQ Specialty on any List that lacks one."),
    mailing("Free Screen Saver Offer", 1, Effect::AddSpecialty(FreeStuff), Timing::Action, 2, "Dancing hamsters! Special Effect (on your turn): put a Free Stuff Specialty on any List that lacks one."),
    mailing("Mail Bomb", 1, Effect::Gruntle(2), Timing::Action, 2, "Special Effect (on your turn): put 2 Gruntles on any List, with all the usual consequences."),
    mailing("Bulk Rate Discount", 2, Effect::Draw(1), Timing::Action, 3, "Special Effect (on your turn): draw 1 Action card, if your hand limit allows."),
    mailing("Sudden Attack of Good Taste", 2, Effect::RemoveSpecialty, Timing::Action, 2, "It passes. Special Effect (on your turn): take any one Specialty counter off any List."),
    mailing("Reply-All Flame War", 2, Effect::Gruntle(1), Timing::Action, 2, "Everyone now wants off everything. Special Effect (on your turn): put 1 Gruntle on any List."),
    mailing("Heartfelt Apology Form Letter", 2, Effect::Ungruntle(2), Timing::Action, 2, "We value your inbox. Special Effect (on your turn): take up to 2 Gruntles off any List."),
    mailing("Borrowed University Server", 3, Effect::Gruntle(1), Timing::Action, 1, "The sysadmin is on sabbatical. Special Effect (on your turn): put 1 Gruntle on any List."),
    mailing("Last Generation Technology", 4, Effect::Ungruntle(1), Timing::Action, 2, "Obsolete, reliable, paid for. Special Effect (on your turn): take 1 Gruntle off any List."),
    // Hardware: 10 cards.
    hardware("Router Tap", Continuous::TapOthersLists, 2, "While in play: your Mailings may also target other players' Proprietary Lists. Their customers are yours."),
    hardware("Overclocked Processor", Continuous::Target(1), 2, "While in play: add 1 to the Target Number of each of your Mailings. Smells faintly of toast."),
    hardware("Phone Company Mainframe Account", Continuous::Target(2), 1, "While in play: add 2 to the Target Number of each of your Mailings. Billed to a dentist in Ohio."),
    hardware("Dedicated T1 Line", Continuous::ExtraMailing, 1, "While in play: you may use one more Mailing for its Mailing Effect each turn."),
    hardware("Bigger Hard Drive", Continuous::HandLimit(2), 2, "While in play: you may hold 2 more cards in your hand. Room for your ideas, and other people's."),
    hardware("Bargain-Bin Firewall", Continuous::Firewall, 2, "While in play: Gruntles on your Proprietary Lists count half, rounded down, toward moving them to the Unwashed Masses."),
];

const fn scam(
    name: &'static str,
    category: Option<Specialty>,
    initial: u8,
    copies: u8,
    text: &'static str,
) -> ActionCard {
    ActionCard {
        name,
        kind: ActionKind::Scam { category, initial },
        copies,
        text,
    }
}

const fn mailing(
    name: &'static str,
    modifier: i8,
    effect: Effect,
    timing: Timing,
    copies: u8,
    text: &'static str,
) -> ActionCard {
    ActionCard {
        name,
        kind: ActionKind::Mailing {
            modifier,
            effect,
            timing,
        },
        copies,
        text,
    }
}

const fn hardware(
    name: &'static str,
    effect: Continuous,
    copies: u8,
    text: &'static str,
) -> ActionCard {
    ActionCard {
        name,
        kind: ActionKind::Hardware(effect),
        copies,
        text,
    }
}

/// The List deck's ids: one per List card.
pub fn list_deck() -> Vec<CardId> {
    (0..LISTS.len() as CardId).collect()
}

/// The List card with this id. Panics on an id outside [`list_deck`].
pub fn list(id: CardId) -> &'static ListCard {
    &LISTS[usize::from(id)]
}

/// For each Action id, its card's place in [`ACTIONS`].
fn action_index() -> &'static [u16] {
    static INDEX: OnceLock<Vec<u16>> = OnceLock::new();
    INDEX.get_or_init(|| {
        ACTIONS
            .iter()
            .enumerate()
            .flat_map(|(kind, card)| std::iter::repeat_n(kind as u16, usize::from(card.copies)))
            .collect()
    })
}

/// The Action deck's ids: one per copy, a card's copies consecutive.
pub fn action_deck() -> Vec<CardId> {
    (0..action_index().len() as CardId).collect()
}

/// The Action card a deck id is a copy of. Panics on an id outside [`action_deck`].
pub fn action_kind_of(id: CardId) -> &'static ActionCard {
    &ACTIONS[usize::from(action_index()[usize::from(id)])]
}

/// The Action card with this id (the same as [`action_kind_of`]).
pub fn action(id: CardId) -> &'static ActionCard {
    action_kind_of(id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn named(name: &str) -> &'static ActionCard {
        ACTIONS
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("{name} is missing from the Action deck"))
    }

    fn copies(pred: impl Fn(&ActionKind) -> bool) -> usize {
        ACTIONS
            .iter()
            .filter(|c| pred(&c.kind))
            .map(|c| usize::from(c.copies))
            .sum()
    }

    fn total() -> usize {
        copies(|_| true)
    }

    #[test]
    fn the_rulebooks_cards_have_the_rulebooks_values() {
        // "Gates ... plays Offshore Money Laundering Ltd. (which has an Initial Rating of zero)"
        assert_eq!(
            named("Offshore Money Laundering Ltd.").kind,
            ActionKind::Scam {
                category: None,
                initial: 0
            }
        );
        // "He places a Rating counter with a value of one on his new Scam"
        assert!(matches!(
            named("Psychic Acquaintances Network").kind,
            ActionKind::Scam { initial: 1, .. }
        ));
        // "Built By Prisoners, Inc. ... has an Initial Rating of zero"
        assert!(matches!(
            named("Built By Prisoners, Inc.").kind,
            ActionKind::Scam { initial: 0, .. }
        ));
        // "Reboot! Reboot!'s Mailing Modifier is +0"
        assert!(matches!(
            named("Reboot! Reboot!").kind,
            ActionKind::Mailing { modifier: 0, .. }
        ));
        // "Last Generation Technology for its Mailing Effect (Mailing Modifier of +4)"
        assert!(matches!(
            named("Last Generation Technology").kind,
            ActionKind::Mailing { modifier: 4, .. }
        ));
        // "plays Insider Trading for its Special Effect ... he adds two to the Rating"
        assert!(matches!(
            named("Insider Trading").kind,
            ActionKind::Mailing {
                effect: Effect::Rating(2),
                timing: Timing::Action,
                ..
            }
        ));
        // "He has two Insider Trading cards."
        assert!(named("Insider Trading").copies >= 2);
        // "Marketing Wizard ... decreasing Jobs' Target Number from eleven to nine ...
        // it may be played right after a Mailing roll is made."
        assert!(matches!(
            named("Marketing Wizard").kind,
            ActionKind::Mailing {
                effect: Effect::Target(2),
                timing: Timing::AfterRoll,
                ..
            }
        ));
        // "The target List must normally be one of the player's Proprietary Lists or one of the
        // Lists from the Unwashed Masses Area": Router Tap is the exception.
        assert_eq!(
            named("Router Tap").kind,
            ActionKind::Hardware(Continuous::TapOthersLists)
        );
    }

    #[test]
    fn the_example_of_play_can_be_dealt() {
        // "one of the Unwashed Masses Lists which has a Size of five", and a merged List of
        // printed Sizes two, three and four.
        for size in [2, 3, 4, 5] {
            assert!(
                LISTS.iter().any(|l| l.size == size),
                "no List of Size {size}"
            );
        }
    }

    #[test]
    fn the_publishers_lists_are_there() {
        for name in [
            "Bigots on Parade",
            "Ivory Tower Academics",
            "Last Few Communists",
        ] {
            assert!(LISTS.iter().any(|l| l.name == name), "{name} is missing");
        }
    }

    #[test]
    fn every_effect_and_continuous_effect_is_on_some_card() {
        // Exhaustive matches: a new variant fails to compile here until it is counted.
        fn effect_slot(e: Effect) -> usize {
            match e {
                Effect::Rating(_) => 0,
                Effect::Target(_) => 1,
                Effect::AddSpecialty(_) => 2,
                Effect::RemoveSpecialty => 3,
                Effect::Gruntle(_) => 4,
                Effect::Ungruntle(_) => 5,
                Effect::Draw(_) => 6,
                Effect::Harvest => 7,
                Effect::Crash => 8,
                Effect::ExtraMailing => 9,
            }
        }
        fn continuous_slot(c: Continuous) -> usize {
            match c {
                Continuous::TapOthersLists => 0,
                Continuous::Target(_) => 1,
                Continuous::ExtraMailing => 2,
                Continuous::HandLimit(_) => 3,
                Continuous::Firewall => 4,
            }
        }
        let mut effects = [false; 10];
        let mut continuous = [false; 5];
        let mut specialties = BTreeSet::new();
        for card in ACTIONS {
            match card.kind {
                ActionKind::Mailing { effect, .. } => {
                    effects[effect_slot(effect)] = true;
                    if let Effect::AddSpecialty(s) = effect {
                        specialties.insert(s);
                    }
                }
                ActionKind::Hardware(c) => continuous[continuous_slot(c)] = true,
                ActionKind::Scam { .. } => {}
            }
        }
        assert_eq!(effects, [true; 10], "Effect variants used");
        assert_eq!(continuous, [true; 5], "Continuous variants used");
        assert_eq!(specialties.len(), 4, "a Mailing adds each Specialty");
    }

    #[test]
    fn no_list_is_specialized_twice_in_one_category() {
        // "No card may be Specialized more than once in the same category."
        for l in LISTS {
            let set: BTreeSet<_> = l.specialties.iter().collect();
            assert_eq!(set.len(), l.specialties.len(), "{}", l.name);
            assert!(l.specialties.len() <= 2, "{}", l.name);
        }
    }

    #[test]
    fn card_names_are_unique() {
        let mut seen = BTreeSet::new();
        for name in LISTS
            .iter()
            .map(|l| l.name)
            .chain(ACTIONS.iter().map(|a| a.name))
        {
            assert!(seen.insert(name), "{name} appears twice");
        }
    }

    #[test]
    fn the_decks_have_the_intended_shape() {
        assert!((30..=42).contains(&LISTS.len()), "{} Lists", LISTS.len());
        assert!(LISTS.iter().all(|l| (1..=8).contains(&l.size)));
        let middling = LISTS.iter().filter(|l| (2..=6).contains(&l.size)).count();
        assert!(
            middling * 4 >= LISTS.len() * 3,
            "most Lists are Size 2 to 6"
        );
        let plain = LISTS.iter().filter(|l| l.specialties.is_empty()).count();
        assert!(
            (LISTS.len() * 2 / 5..=LISTS.len() * 3 / 5).contains(&plain),
            "{plain}"
        );
        let mean = LISTS.iter().map(|l| f64::from(l.size)).sum::<f64>() / LISTS.len() as f64;
        assert!((3.5..=4.5).contains(&mean), "mean List Size {mean}");

        let total = total();
        assert!((80..=100).contains(&total), "{total} Action cards");
        let share = |n: usize| n as f64 / total as f64;
        let scams = share(copies(|k| matches!(k, ActionKind::Scam { .. })));
        let mailings = share(copies(|k| matches!(k, ActionKind::Mailing { .. })));
        let hardware = share(copies(|k| matches!(k, ActionKind::Hardware(_))));
        assert!((0.35..=0.40).contains(&scams), "Scams {scams}");
        assert!((0.45..=0.50).contains(&mailings), "Mailings {mailings}");
        assert!((0.08..=0.12).contains(&hardware), "Hardware {hardware}");

        for card in ACTIONS {
            assert!(card.copies >= 1, "{}", card.name);
            match card.kind {
                ActionKind::Scam { initial, .. } => assert!(initial <= 2, "{}", card.name),
                ActionKind::Mailing { modifier, .. } => {
                    assert!((-1..=4).contains(&modifier), "{}", card.name)
                }
                ActionKind::Hardware(_) => {}
            }
        }
        // Every Scam category has cards, so every Specialty pays off for someone.
        for category in Specialty::ALL.map(Some).into_iter().chain([None]) {
            let n = copies(|k| matches!(k, ActionKind::Scam { category: c, .. } if *c == category));
            assert!(n >= 5, "{category:?}: {n} Scams");
        }
    }

    #[test]
    fn texts_are_short_and_say_when_they_work() {
        for card in ACTIONS {
            let len = card.text.chars().count();
            assert!((20..=140).contains(&len), "{}: {len} characters", card.name);
            match card.kind {
                ActionKind::Mailing {
                    timing: Timing::Action,
                    ..
                } => {
                    assert!(
                        card.text.contains("Special Effect (on your turn)"),
                        "{}",
                        card.name
                    )
                }
                ActionKind::Mailing {
                    timing: Timing::AfterRoll,
                    ..
                } => {
                    assert!(
                        card.text.contains("right after any Mailing roll"),
                        "{}",
                        card.name
                    )
                }
                ActionKind::Hardware(_) => {
                    assert!(card.text.starts_with("While in play:"), "{}", card.name)
                }
                ActionKind::Scam { .. } => {}
            }
        }
    }

    #[test]
    fn ids_map_back_to_their_cards() {
        let deck = action_deck();
        assert_eq!(deck.len(), total());
        let mut id = 0;
        for card in ACTIONS {
            for _ in 0..card.copies {
                assert_eq!(action(deck[id]), card);
                assert_eq!(action_kind_of(deck[id]), card);
                id += 1;
            }
        }
        let lists = list_deck();
        assert_eq!(lists.len(), LISTS.len());
        for (id, card) in lists.iter().zip(LISTS) {
            assert_eq!(list(*id), card);
        }
    }
}
