//! The six Freeloader board sections as one table, a line per space, so a space read off the
//! printed board is corrected in one place.
//!
//! From the rulebook and GAME-DATA.md: the houses and the people of the Doctor, the Artist,
//! the Waitress and the Hippies; the Waitress's two Best Friend spaces and the Hippies' three
//! Crash spaces; seven-space tracks ending in a numbered Bus Stop; the kinds of space.
//! Reconstructed (the tracks are published nowhere):
//! - The Gambler's and the Lawyer's names ("Lucky Dwayne", "Gordon, Esq.").
//! - Every track's first six spaces. Each has its house's one Crash space, one Favor space for
//!   its own house and one "house of your choice" (none on the Waitress's, which has two of her
//!   own to go with her two Best Friends), one or two Draw spaces, and a Trade or a Steal. Over
//!   the board: 6 Crash, 12 Favor, 9 Draw, 5 Trade, 2 Steal a Food (the Waitress, whose food
//!   is being mooched, and the Lawyer) and 2 Steal a Clothing (the Artist, and the Gambler,
//!   where you lose your shirt).
//! - The Bus Stop numbers, 1 to 6 in `House::ALL` order. The houses are laid out in a random
//!   order anyway, so which house holds which number changes nothing in play.

use super::data::House::{self, Artist, Doctor, Gambler, Hippies, Lawyer, Waitress};
use super::data::Space::{BusStop, Crash, Draw, Favor, StealClothing, StealFood, Trade};
use super::data::{Section, Space};

/// Place a favor in this track's own house.
const fn favor(house: House) -> Space {
    Favor(Some(house))
}

/// Place a favor in a house of the player's choice.
const ANY_FAVOR: Space = Favor(None);

/// The six sections in [`House::ALL`] order.
pub const SECTIONS: [Section; 6] = [
    Section {
        house: Doctor,
        people: "Doctor Mike",
        best_friends: 1,
        crash_spaces: 1,
        track: [
            favor(Doctor),
            Draw,
            Crash,
            ANY_FAVOR,
            Trade,
            Draw,
            BusStop(1),
        ],
    },
    Section {
        house: Artist,
        people: "Sally",
        best_friends: 1,
        crash_spaces: 1,
        track: [
            Draw,
            favor(Artist),
            StealClothing,
            Crash,
            ANY_FAVOR,
            Trade,
            BusStop(2),
        ],
    },
    Section {
        house: Waitress,
        people: "Julie",
        best_friends: 2,
        crash_spaces: 1,
        track: [
            favor(Waitress),
            Draw,
            StealFood,
            Crash,
            favor(Waitress),
            Draw,
            BusStop(3),
        ],
    },
    Section {
        house: Hippies,
        people: "Michelle and Ivan",
        best_friends: 1,
        crash_spaces: 3,
        track: [
            favor(Hippies),
            Trade,
            Crash,
            Draw,
            ANY_FAVOR,
            Draw,
            BusStop(4),
        ],
    },
    Section {
        house: Gambler,
        people: "Lucky Dwayne",
        best_friends: 1,
        crash_spaces: 1,
        track: [
            Draw,
            favor(Gambler),
            Trade,
            Crash,
            StealClothing,
            ANY_FAVOR,
            BusStop(5),
        ],
    },
    Section {
        house: Lawyer,
        people: "Gordon, Esq.",
        best_friends: 1,
        crash_spaces: 1,
        track: [
            favor(Lawyer),
            Draw,
            Crash,
            Trade,
            ANY_FAVOR,
            StealFood,
            BusStop(6),
        ],
    },
];

/// The section of `house`.
pub fn section(house: House) -> &'static Section {
    &SECTIONS[house as usize]
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn count(pred: impl Fn(&Space) -> bool) -> usize {
        SECTIONS
            .iter()
            .flat_map(|s| s.track.iter())
            .filter(|sp| pred(sp))
            .count()
    }

    #[test]
    fn six_sections_in_house_order_and_section_finds_each() {
        // "You get 6 board sections."
        for (i, house) in House::ALL.into_iter().enumerate() {
            assert_eq!(SECTIONS[i].house, house);
            assert_eq!(section(house).house, house);
        }
    }

    #[test]
    fn the_people_are_the_diarys() {
        assert_eq!(section(Doctor).people, "Doctor Mike");
        assert_eq!(section(Artist).people, "Sally");
        assert_eq!(section(Waitress).people, "Julie");
        assert_eq!(section(Hippies).people, "Michelle and Ivan");
        let names: BTreeSet<_> = SECTIONS.iter().map(|s| s.people).collect();
        assert_eq!(names.len(), 6);
        assert!(names.iter().all(|n| !n.is_empty()));
    }

    #[test]
    fn best_friend_and_crash_spaces() {
        // "The Waitress has two Best Friend spots." "If all three spaces are full..." (the
        // Hippies' crash spaces).
        for s in &SECTIONS {
            let (friends, crashes) = match s.house {
                Waitress => (2, 1),
                Hippies => (1, 3),
                _ => (1, 1),
            };
            assert_eq!(
                (s.best_friends, s.crash_spaces),
                (friends, crashes),
                "{:?}",
                s.house
            );
        }
    }

    #[test]
    fn every_track_ends_in_its_own_bus_stop_and_has_one_crash_space() {
        let mut stops = BTreeSet::new();
        for s in &SECTIONS {
            let (last, rest) = s.track.split_last().unwrap();
            match last {
                BusStop(n) => assert!(stops.insert(*n), "Bus Stop {n} twice"),
                other => panic!("{:?}'s track ends in {other:?}", s.house),
            }
            assert!(!rest.iter().any(|sp| matches!(sp, BusStop(_))));
            let crashes = rest.iter().filter(|sp| **sp == Crash).count();
            assert_eq!(crashes, 1, "{:?} has {crashes} Crash spaces", s.house);
            // A track's Favor spaces are for its own house or a house of your choice.
            for sp in rest {
                if let Favor(Some(h)) = sp {
                    assert_eq!(*h, s.house);
                }
            }
            assert!(
                rest.iter().any(|sp| matches!(sp, Favor(_))),
                "{:?}",
                s.house
            );
            assert!(rest.contains(&Draw), "{:?} has no Draw space", s.house);
        }
        assert_eq!(stops, (1..=6).collect());
    }

    #[test]
    fn the_board_has_every_kind_of_space() {
        assert!(count(|sp| *sp == Favor(None)) >= 1);
        assert!(count(|sp| matches!(sp, Favor(Some(_)))) >= 6);
        assert!(count(|sp| *sp == Draw) >= 6);
        assert!(count(|sp| *sp == Trade) >= 1);
        assert!(count(|sp| *sp == StealFood) >= 1);
        assert!(count(|sp| *sp == StealClothing) >= 1);
    }
}
