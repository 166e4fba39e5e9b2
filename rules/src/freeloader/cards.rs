//! The 54 Freeloader cards as one table, a short block per printed card, so a card read off
//! the real deck is corrected in one place.
//!
//! The card list is published nowhere (GAME-DATA.md); everything here is reconstructed except
//! what the rulebook names: Cars, Draft Beer and Smooth Irish Whiskey (DWI, Food), Work-Out
//! Clothes and Fine Italian Shoes (extra die, Clothing), the "Surprise!" free-favour cards,
//! Golfing Shoes and Golfing Hat (a matching pair), and the Spare Bedroom, printed exactly as
//! the rulebook's example gives it. Names, numbers and joke lines are our own.
//!
//! How the numbers were chosen:
//! - Mix: 14 Food and 14 Clothing, because the Steal a Food / Steal a Clothing spaces and
//!   Stuff-to-Stuff trades take them and the rulebook tells players to keep spares; 12 Shelter,
//!   because crashing also counts as Shelter; 14 Finer Things, which only score.
//! - Cost 1–7, points 1–8. A plain card is worth its cost (cost 1–2) or its cost + 1 (cost 3
//!   and up), so dear cards pay better per favor; a card with a special effect is worth about
//!   one point less, the effect being its value. Every necessity category has several cards
//!   costing 1–2 before discounts, so a player can always qualify.
//! - A player starts with 12 favors and gains about one a turn spent on favors; a qualifying
//!   Stuff of 6–8 cards costs about 15–20 favors after discounts and scores about 25–40.
//! - Discounts sit where the card comes from: the Waitress feeds, the Artist dresses oddly and
//!   has the room under the stairs, the Doctor golfs and has the den and the spare bedroom, the
//!   Hippies share floors, futons and vans, the Gambler has the flashy stuff, the Lawyer the
//!   suits, cars and pool house. Best Friend discounts are 1–3, so Best Friends are worth a
//!   fight; most cards carry one House and one Best Friend discount.
//! - "Discounts are cumulative, and can even lead to negative costs ... (This matters with
//!   exactly one card.)" That card is the Lumpy Futon: taking it off the Hippies' floor is the
//!   favor (cost 2; Hippies' House −2, Artist's Best Friend −1: Sally wants it for her room
//!   under the stairs). Sally's Best Friend standing at the Hippies' gets it at −1, and so
//!   places a favor there and may challenge for the Hippies' Best Friend, which is what the
//!   rule is for: their own Best Friend could not challenge. Every other card's discounts add
//!   up to at most its cost.
//! - The rulebook speaks of matching cards "like the Golfing Shoes and Golfing Hat", so there
//!   is a second pair (the bowling shirt and ball). Doctor Mike's golf clubs from the diary are
//!   a card, but not part of the golf set: the rulebook's pair would score nothing without them.
//! - A matching bonus is printed on every card of its set and is paid once for the whole set.

use super::data::Category::{Clothing, FinerThings, Food, Shelter};
use super::data::Discount::{BestFriend as Bf, House as At};
use super::data::House::{Artist, Doctor, Gambler, Hippies, Lawyer, Waitress};
use super::data::Special::{Car, Dwi, ExtraDie, Match, Surprise};
use super::data::{Card, Category, Discount, House, Special};

/// The golf set: Golfing Shoes and Golfing Hat.
const GOLF: &str = "golf";
/// The bowling set: Bowling Shirt and Bowling Ball.
const BOWLING: &str = "bowling";

/// A card with its name, category, cost and points, and as yet no discounts, special effect
/// or joke: the methods below add those, so each table entry reads like the printed card.
const fn card(name: &'static str, category: Category, cost: i8, points: i8) -> Card {
    Card {
        name,
        category,
        cost,
        points,
        discounts: &[],
        special: Special::None,
        joke: "",
    }
}

impl Card {
    /// `At(house, x)` is the printed "(house)'s House: −x", `Bf(house, y)` the printed
    /// "(house)'s Best Friend: −y".
    const fn discounts(self, discounts: &'static [Discount]) -> Card {
        Card { discounts, ..self }
    }

    const fn special(self, special: Special) -> Card {
        Card { special, ..self }
    }

    /// "Surprise!": remove it from the game for `favors` favors in `house`.
    const fn surprise(self, house: House, favors: u8) -> Card {
        self.special(Surprise { house, favors })
    }

    /// One of the matching `set`, worth `bonus` points when the whole set is together.
    const fn matching(self, set: &'static str, bonus: i8) -> Card {
        self.special(Match { set, bonus })
    }

    const fn says(self, joke: &'static str) -> Card {
        Card { joke, ..self }
    }
}

pub const CARDS: [Card; 54] = [
    // Food (14): cheap and plentiful, mostly from the Waitress.
    card("Free Breadsticks", Food, 1, 1)
        .discounts(&[At(Waitress, 1)])
        .says("Unlimited, says the menu. Julie says otherwise."),
    card("Ramen Noodles", Food, 1, 1)
        .discounts(&[At(Artist, 1)])
        .says("Dinner. Also breakfast. Also tomorrow."),
    card("Day-Old Donuts", Food, 2, 2)
        .discounts(&[At(Waitress, 1), Bf(Waitress, 1)])
        .says("Still technically donuts."),
    card("Homemade Granola", Food, 2, 2)
        .discounts(&[At(Hippies, 1), Bf(Hippies, 1)])
        .says("Mostly twigs. Ivan swears by it."),
    card("Tuna Casserole", Food, 2, 1)
        .discounts(&[At(Hippies, 1)])
        .surprise(Hippies, 2)
        .says("Surprise! You ate all of Michelle's casserole. She's thrilled."),
    card("Draft Beer", Food, 2, 2)
        .discounts(&[At(Gambler, 1), Bf(Waitress, 1)])
        .special(Dwi)
        .says("Pitcher's empty. So who's driving?"),
    card("Leftover Pizza", Food, 2, 2)
        .discounts(&[At(Artist, 1), Bf(Waitress, 1)])
        .says("Cold. The cheese is load-bearing now."),
    card("Blue Plate Special", Food, 3, 4)
        .discounts(&[At(Waitress, 2), Bf(Waitress, 1)])
        .says("Meatloaf. Nobody asks what kind."),
    card("Health Shake", Food, 3, 4)
        .discounts(&[At(Doctor, 1), Bf(Doctor, 1)])
        .says("Tastes like a lawn. Doctor Mike says that's good."),
    card("Casino Buffet", Food, 4, 5)
        .discounts(&[At(Gambler, 2), Bf(Gambler, 1)])
        .says("All you can eat. You can eat a lot."),
    card("Smooth Irish Whiskey", Food, 4, 4)
        .discounts(&[At(Lawyer, 1), Bf(Gambler, 2)])
        .special(Dwi)
        .says("Smooth. Real smooth. Gimme your keys, dude."),
    card("Shrimp Cocktail", Food, 4, 5)
        .discounts(&[At(Lawyer, 1), Bf(Lawyer, 1)])
        .says("Billed to a client. Hope it isn't you."),
    card("Gift Basket", Food, 5, 6)
        .discounts(&[At(Lawyer, 1), Bf(Doctor, 2)])
        .says("From a grateful patient. Regifted, gratefully."),
    card("Steak Dinner", Food, 6, 7)
        .discounts(&[At(Waitress, 2), Bf(Waitress, 1), Bf(Lawyer, 1)])
        .says("Table six sent it back. Their loss."),
    // Clothing (14): the Artist's odd stuff, the Doctor's golf, the Lawyer's suits.
    card("Tie-Dye T-Shirt", Clothing, 1, 1)
        .discounts(&[At(Hippies, 1)])
        .says("Every color at once. Mostly brown."),
    card("Thrift-Store Sweater", Clothing, 1, 1)
        .discounts(&[At(Artist, 1)])
        .says("Smells like somebody else's grandma."),
    card("Golfing Hat", Clothing, 2, 2)
        .discounts(&[At(Doctor, 1)])
        .matching(GOLF, 4)
        .says("The pom-pom is not optional."),
    card("Bowling Shirt", Clothing, 2, 2)
        .discounts(&[At(Gambler, 1), Bf(Artist, 1)])
        .matching(BOWLING, 3)
        .says("Says \"Earl\" on the pocket. You're Earl now."),
    card("Paint-Spattered Overalls", Clothing, 2, 2)
        .discounts(&[At(Artist, 1), Bf(Artist, 1)])
        .says("It's art if you stand still."),
    card("Hospital Scrubs", Clothing, 2, 2)
        .discounts(&[At(Doctor, 1), Bf(Doctor, 1)])
        .says("Pajamas you can wear to the store."),
    card("Hemp Sandals", Clothing, 2, 2)
        .discounts(&[At(Hippies, 1), Bf(Hippies, 1)])
        .says("Biodegradable. They've already started."),
    card("Golfing Shoes", Clothing, 3, 3)
        .discounts(&[At(Doctor, 1), Bf(Doctor, 1)])
        .matching(GOLF, 4)
        .says("Spikes. Not on the good carpet, Mike says."),
    card("Work-Out Clothes", Clothing, 3, 2)
        .discounts(&[At(Doctor, 1), Bf(Hippies, 1)])
        .special(ExtraDie)
        .says("Sweatpants, but with ambition."),
    card("Lucky Sneakers", Clothing, 3, 2)
        .discounts(&[At(Gambler, 1), Bf(Gambler, 1)])
        .special(ExtraDie)
        .says("Not washed since the big win. Not gonna be."),
    card("Vintage Leather Jacket", Clothing, 4, 5)
        .discounts(&[At(Artist, 1), Bf(Gambler, 1)])
        .says("Came with a phone number in the pocket."),
    card("Borrowed Suit", Clothing, 4, 5)
        .discounts(&[At(Lawyer, 2), Bf(Lawyer, 1)])
        .says("A little big in the shoulders. And the ego."),
    card("Fine Italian Shoes", Clothing, 5, 5)
        .discounts(&[At(Lawyer, 1), Bf(Lawyer, 2)])
        .special(ExtraDie)
        .says("You can hear them being expensive."),
    card("Velvet Smoking Jacket", Clothing, 5, 6)
        .discounts(&[At(Gambler, 1), Bf(Artist, 2)])
        .says("Nobody smokes in it. Everybody stares."),
    // Shelter (12): fewer, since crashing on the board also counts as Shelter.
    card("Spot on the Floor", Shelter, 1, 1)
        .discounts(&[At(Hippies, 1)])
        .says("Shag carpet. You share it with a dog named Karma."),
    // The one card whose discounts can make its cost negative: 2 - 2 - 1 = -1.
    card("Lumpy Futon", Shelter, 2, 1)
        .discounts(&[At(Hippies, 2), Bf(Artist, 1)])
        .says("Haul it off their floor and they owe you."),
    card("Room Under the Stairs", Shelter, 2, 2)
        .discounts(&[At(Artist, 1), Bf(Artist, 1)])
        .says("Tiny. Dusty. Smells like turpentine. Home."),
    card("Air Mattress", Shelter, 2, 2)
        .discounts(&[At(Lawyer, 1), Bf(Hippies, 1)])
        .says("Slow leak. By morning it's a floor."),
    card("Tent in the Backyard", Shelter, 2, 2)
        .discounts(&[At(Gambler, 1), Bf(Hippies, 1)])
        .says("Pitched next to the koi pond. The koi object."),
    card("Julie's Couch", Shelter, 3, 4)
        .discounts(&[At(Waitress, 1), Bf(Waitress, 2)])
        .says("Her cat thinks you're part of the couch."),
    card("Hippie Van", Shelter, 4, 4)
        .discounts(&[At(Hippies, 1), Bf(Hippies, 2)])
        .special(Car)
        .says("Sleeps four. Smells like six."),
    card("Doctor Mike's Den", Shelter, 4, 5)
        .discounts(&[At(Doctor, 1), Bf(Doctor, 1)])
        .says("Still feels like yours. Smells like the new guy."),
    card("Spare Bedroom", Shelter, 5, 6)
        .discounts(&[At(Doctor, 1), Bf(Doctor, 2)])
        .says("Clean sheets. Don't get used to it."),
    card("Loft Studio", Shelter, 5, 6)
        .discounts(&[At(Artist, 1), Bf(Artist, 2)])
        .says("Sleep among the sculptures. Don't roll over."),
    card("Comped Hotel Suite", Shelter, 5, 6)
        .discounts(&[At(Gambler, 2), Bf(Gambler, 1)])
        .says("Two nights free. You've been here for nine."),
    card("Pool House", Shelter, 6, 7)
        .discounts(&[At(Lawyer, 1), Bf(Lawyer, 3)])
        .says("Has a minibar. Had a minibar."),
    // Finer Things (14): no help qualifying, just points (and the Cars).
    card("Winning Ticket", FinerThings, 2, 1)
        .discounts(&[At(Gambler, 1)])
        .surprise(Gambler, 3)
        .says("Surprise! Your long shot came in. Collect from the Gambler."),
    card("Lava Lamp", FinerThings, 2, 2)
        .discounts(&[At(Hippies, 1), Bf(Hippies, 1)])
        .says("Ivan has been watching it since Tuesday."),
    card("Crummy Old Car", FinerThings, 3, 2)
        .discounts(&[At(Lawyer, 1)])
        .special(Car)
        .says("Runs great. Downhill."),
    card("Bowling Ball", FinerThings, 3, 3)
        .discounts(&[At(Gambler, 1)])
        .matching(BOWLING, 3)
        .says("Drilled for somebody else's fingers."),
    card("Surprise Party", FinerThings, 3, 2)
        .discounts(&[At(Doctor, 1)])
        .surprise(Doctor, 3)
        .says("Surprise! You threw Doctor Mike a party. At his house."),
    card("Sally's Early Work", FinerThings, 3, 4)
        .discounts(&[At(Artist, 2)])
        .says("Hang it upside down. Nobody can tell."),
    card("Your Portrait", FinerThings, 4, 3)
        .discounts(&[At(Artist, 1), Bf(Artist, 1)])
        .surprise(Artist, 2)
        .says("Surprise! You posed for Sally's class. Hold still."),
    card("Gold Chain", FinerThings, 4, 5)
        .discounts(&[At(Gambler, 2)])
        .says("Real gold. Don't check the stamp."),
    card("Borrowed Sedan", FinerThings, 5, 5)
        .discounts(&[At(Lawyer, 1), Bf(Lawyer, 2)])
        .special(Car)
        .says("Return it with a full tank. Ha."),
    card("Golf Clubs", FinerThings, 5, 6)
        .discounts(&[At(Doctor, 2), Bf(Doctor, 1)])
        .says("Borrowed for the weekend. Every weekend."),
    card("Espresso Machine", FinerThings, 5, 6)
        .discounts(&[At(Lawyer, 1), Bf(Waitress, 1)])
        .says("It has more settings than you have skills."),
    card("Big-Screen TV", FinerThings, 6, 7)
        .discounts(&[At(Gambler, 1), Bf(Gambler, 2)])
        .says("Bigger than your last apartment."),
    card("Hot Tub", FinerThings, 7, 8)
        .discounts(&[At(Hippies, 2), Bf(Hippies, 2)])
        .says("Clothing optional. Ivan insists."),
    card("Cherry-Red Convertible", FinerThings, 7, 7)
        .discounts(&[At(Lawyer, 1), Bf(Gambler, 3)])
        .special(Car)
        .says("Won in a card game. Not by you."),
];

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::{BTreeMap, HashSet};

    fn find(name: &str) -> &'static Card {
        CARDS
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no card named {name:?}"))
    }

    fn discount_total(card: &Card) -> i8 {
        card.discounts
            .iter()
            .map(|d| match *d {
                At(_, x) | Bf(_, x) => x,
            })
            .sum()
    }

    /// What the card costs played standing at `standing` by the Best Friend of `friends`.
    fn cost_for(card: &Card, standing: House, friends: &[House]) -> i8 {
        card.cost
            - card
                .discounts
                .iter()
                .map(|d| match *d {
                    At(h, x) if h == standing => x,
                    Bf(h, x) if friends.contains(&h) => x,
                    _ => 0,
                })
                .sum::<i8>()
    }

    /// The cheapest the card gets with at most one of its discounts.
    fn cheapest_with_one_discount(card: &Card) -> i8 {
        card.cost
            - card
                .discounts
                .iter()
                .map(|d| match *d {
                    At(_, x) | Bf(_, x) => x,
                })
                .max()
                .unwrap_or(0)
    }

    #[test]
    fn the_deck_has_54_cards_in_the_four_categories() {
        // "You get 6 board sections, 54 cards, and this rulebook."
        let mut by_category = BTreeMap::new();
        for c in &CARDS {
            *by_category.entry(c.category).or_insert(0) += 1;
        }
        assert_eq!(by_category.values().sum::<i32>(), 54);
        for category in [Food, Clothing, Shelter, FinerThings] {
            assert!(
                by_category.get(&category).copied().unwrap_or(0) >= 10,
                "too few {category:?} cards: {by_category:?}"
            );
        }
    }

    #[test]
    fn names_are_unique_and_every_card_has_a_short_joke() {
        let mut seen = HashSet::new();
        for c in &CARDS {
            assert!(seen.insert(c.name), "{} appears twice", c.name);
            assert!(!c.joke.is_empty(), "{} has no joke", c.name);
            assert!(c.joke.len() <= 70, "{}'s joke is too long", c.name);
        }
    }

    #[test]
    fn every_card_the_rulebook_names_is_there_with_its_effect() {
        for (name, category, special) in [
            ("Draft Beer", Food, Dwi),
            ("Smooth Irish Whiskey", Food, Dwi),
            ("Work-Out Clothes", Clothing, ExtraDie),
            ("Fine Italian Shoes", Clothing, ExtraDie),
        ] {
            let c = find(name);
            assert_eq!((c.category, c.special), (category, special), "{name}");
        }
        for name in ["Golfing Shoes", "Golfing Hat"] {
            let c = find(name);
            assert_eq!(c.category, Clothing, "{name}");
            assert!(
                matches!(c.special, Match { set, .. } if set == GOLF),
                "{name} is not in the golf set"
            );
        }
        // Only the Draft Beer and the Whiskey are DWI.
        assert_eq!(CARDS.iter().filter(|c| c.special == Dwi).count(), 2);
        // "Cars, also have Special Effects": there are Cars for the DWI cards to remove.
        assert!(CARDS.iter().filter(|c| c.special == Car).count() >= 2);
        // "The Work-Out Clothes, Fine Italian Shoes, etc."
        assert!(CARDS.iter().filter(|c| c.special == ExtraDie).count() >= 2);
        let surprises = CARDS
            .iter()
            .filter(|c| matches!(c.special, Surprise { .. }))
            .count();
        assert!(surprises >= 3, "only {surprises} Surprise! cards");
    }

    #[test]
    fn the_spare_bedroom_is_as_the_rulebook_prints_it() {
        // "The Spare Bedroom has a base cost of 5, and is discounted -1 at the Doctor's House
        // and -2 for the Doctor's Best Friend."
        let c = find("Spare Bedroom");
        assert_eq!(c.category, Shelter);
        assert_eq!(c.cost, 5);
        assert_eq!(
            c.discounts,
            &[
                Discount::House(House::Doctor, 1),
                Discount::BestFriend(House::Doctor, 2)
            ]
        );
        // "If you are standing at the Doctor's House but are not his Best Friend, this card
        // costs 4. If you are the Doctor's Best Friend, but standing at the Artist's house,
        // the card costs 3."
        assert_eq!(cost_for(c, House::Doctor, &[]), 4);
        assert_eq!(cost_for(c, House::Artist, &[House::Doctor]), 3);
        assert_eq!(cost_for(c, House::Doctor, &[House::Doctor]), 2);
    }

    #[test]
    fn exactly_one_card_can_cost_less_than_nothing() {
        // "Discounts are cumulative, and can even lead to negative costs. ... (This matters
        // with exactly one card.)"
        let negative: Vec<_> = CARDS
            .iter()
            .filter(|c| c.cost - discount_total(c) < 0)
            .map(|c| c.name)
            .collect();
        assert_eq!(negative, ["Lumpy Futon"]);
        // "...and yes, this does allow you to immediately compete for Best Friend": the
        // negative cost comes to another house's Best Friend standing at the Hippies', who
        // can then challenge for the Hippies' own Best Friend.
        let futon = find("Lumpy Futon");
        assert_eq!(cost_for(futon, House::Hippies, &[House::Artist]), -1);
        assert_eq!(cost_for(futon, House::Hippies, &[House::Hippies]), 0);
        assert_eq!(cost_for(futon, House::Hippies, &[]), 0);
    }

    #[test]
    fn food_clothing_and_shelter_can_all_be_had_cheaply() {
        // "To qualify to win, you must have at least one card in each of the Food, Clothing,
        // and Shelter categories."
        for category in [Food, Clothing, Shelter] {
            let cheap = CARDS
                .iter()
                .filter(|c| c.category == category && cheapest_with_one_discount(c) <= 3)
                .count();
            assert!(cheap >= 4, "only {cheap} cheap {category:?} cards");
        }
    }

    #[test]
    fn surprise_cards_say_surprise_and_nothing_else_does() {
        // "Free Favors: The text on these cards starts with "Surprise!""
        for c in &CARDS {
            let surprise = matches!(c.special, Surprise { .. });
            assert_eq!(c.joke.starts_with("Surprise!"), surprise, "{}", c.name);
            if let Surprise { favors, .. } = c.special {
                assert!((2..=3).contains(&favors), "{}", c.name);
            }
        }
    }

    #[test]
    fn every_matching_set_has_several_cards_and_one_bonus() {
        let mut sets: BTreeMap<&str, Vec<i8>> = BTreeMap::new();
        for c in &CARDS {
            if let Match { set, bonus } = c.special {
                sets.entry(set).or_default().push(bonus);
            }
        }
        assert!(sets.contains_key(GOLF));
        for (set, bonuses) in &sets {
            assert!(bonuses.len() >= 2, "the {set} set has one card");
            assert!(bonuses.iter().all(|b| *b == bonuses[0] && *b > 0), "{set}");
        }
    }

    #[test]
    fn costs_points_and_discounts_stay_in_range() {
        for c in &CARDS {
            assert!((1..=7).contains(&c.cost), "{} costs {}", c.name, c.cost);
            assert!(
                (1..=8).contains(&c.points),
                "{} scores {}",
                c.name,
                c.points
            );
            assert!(c.discounts.len() <= 3, "{}", c.name);
            let mut printed = HashSet::new();
            for d in c.discounts {
                let (kind, house, x) = match *d {
                    At(h, x) => ("house", h, x),
                    Bf(h, x) => ("best friend", h, x),
                };
                assert!((1..=3).contains(&x), "{}: {kind} {house:?} -{x}", c.name);
                assert!(
                    printed.insert((kind, house)),
                    "{} repeats a discount",
                    c.name
                );
            }
        }
        // Most cards carry a discount, and there are Best Friend discounts worth fighting for.
        assert!(CARDS.iter().all(|c| !c.discounts.is_empty()));
        assert!(
            CARDS
                .iter()
                .flat_map(|c| c.discounts)
                .any(|d| matches!(d, Bf(_, x) if *x >= 2))
        );
    }

    #[test]
    fn every_house_discounts_something() {
        for house in House::ALL {
            let n = CARDS
                .iter()
                .flat_map(|c| c.discounts)
                .filter(|d| matches!(**d, At(h, _) | Bf(h, _) if h == house))
                .count();
            assert!(n >= 5, "{house:?} discounts only {n} cards");
        }
    }
}
