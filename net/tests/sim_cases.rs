//! Stories of single games the registry-wide simulator (`sim_games.rs`) cannot tell: a
//! deck dealing past a removed seat's key, two seats gone at once, a table of eight losing
//! three, the deck made again from the discards, how often a commitment goes out, and each
//! card game's own kind of step (trades, Aces, Mailing rolls) seen on a network. A failure
//! prints its seed; `HOARD_SIM_SEED=<seed>` replays a story with a trace where it says so.

use hoard_net::CoreConfig;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::SignatureMemo;
use hoard_rules::Listed;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// Every device's audit verified.
fn verified(report: &Report) -> bool {
    report
        .verdicts
        .iter()
        .all(|v| v.as_ref().is_some_and(|v| v.is_verified()))
}

/// Plays `seeds` perfect-network games of `G` at `seats` (with `variant` on), each verified
/// on every device, and adds up what they did.
fn perfect<G: Listed>(seats: u8, variant: Option<&str>, seeds: std::ops::Range<u64>) -> Report {
    let memo = SignatureMemo::new();
    let mut total: Option<Report> = None;
    for seed in seeds {
        let mut config = G::config(seats);
        if let Some(variant) = variant {
            G::set_variant(&mut config, variant).expect("a listed variant");
        }
        let report = sim::play::<G>(
            &config,
            seats,
            Faults::none(),
            seed,
            sim::bot_table(&memo),
            false,
        )
        .unwrap_or_else(|e| panic!("{} seed {seed}: {e}", G::TITLE));
        assert!(
            verified(&report),
            "{} seed {seed}: {:?}",
            G::TITLE,
            report.verdicts
        );
        total = Some(match total {
            None => report,
            Some(mut t) => {
                t.sealed_steps += report.sealed_steps;
                t.shuffles += report.shuffles;
                t.passed += report.passed;
                t.deck_steps += report.deck_steps;
                t
            }
        });
    }
    total.expect("at least one game")
}

mod counter {
    use super::*;
    use hoard_rules::counter::Counter;

    /// The devices' settings: every seat a bot, so every answer waits out the window.
    fn cfg(memo: &SignatureMemo) -> CoreConfig<Counter> {
        sim::bot_table(memo)
    }

    /// One seeded game of 2 to 5 seats; faulty games are the short game.
    fn game(seed: u64, faulty: bool, memo: &SignatureMemo, trace: bool) -> Result<Report, String> {
        let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0063_6f75_6e74_6572);
        let seats = 2 + (r.next_u32() % 4) as u8;
        let mut config = Counter::config(seats);
        let faults = if faulty {
            Counter::set_variant(&mut config, "short")?;
            Faults::random(&mut r)
        } else {
            Faults::none()
        };
        sim::play::<Counter>(&config, seats, faults, seed, cfg(memo), trace)
    }

    #[test]
    fn a_perfect_network_deals_shows_passes_and_ends_verified() {
        let memo = SignatureMemo::new();
        let (mut reshuffles, mut passed, mut windows) = (0, 0, 0);
        for seed in 0..20 {
            let report =
                game(seed, false, &memo, false).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(
                report
                    .verdicts
                    .iter()
                    .all(|v| v.as_ref().is_some_and(|v| v.is_verified())),
                "seed {seed}: {:?}",
                report.verdicts
            );
            assert!(
                report.deck_steps > report.seats as u32,
                "seed {seed}: a shuffle and deals"
            );
            reshuffles += report.shuffles - 1;
            passed += report.passed;
            windows += report.sealed_steps;
        }
        assert!(
            reshuffles > 0,
            "some game made its deck again from the discards"
        );
        assert!(passed > 0, "some card was passed");
        assert!(windows > 10, "reaction windows: {windows}");
    }

    #[test]
    fn a_seat_that_dies_for_good_is_removed_and_its_escrowed_key_keeps_the_deck_dealing() {
        // The dead seat's shares are needed at every deal; once the table removes it, the
        // others open their parts of its key and every device makes its shares itself.
        let memo = SignatureMemo::new();
        let mut dealt_after = 0;
        for seed in 0..40u64 {
            let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0xdead);
            let seats = 3 + (r.next_u32() % 3) as u8;
            let mut faults = if seed % 2 == 0 {
                Faults::random(&mut r)
            } else {
                Faults::none()
            };
            faults.dead_seat = Some((r.next_u32() % u32::from(seats)) as u8);
            let config = Counter::config(seats);
            let cfg = cfg(&memo);
            let report = sim::play::<Counter>(&config, seats, faults, seed, cfg, false)
                .unwrap_or_else(|e| panic!("{e}\nseed {seed}"));
            assert!(
                report.verdicts.iter().flatten().all(|v| v.is_verified()),
                "seed {seed}: {:?}",
                report.verdicts
            );
            dealt_after += report.deck_steps;
        }
        assert!(dealt_after > 40 * 4, "deck steps: {dealt_after}");
    }

    /// Issue 31: "At the audit every secret is revealed to every device: the replay offers
    /// 'Show every hand', with each seat's hand, each sealed play and each deck's order at
    /// every step." After a verified game the audit reads every card of every making of the
    /// deck, each making holds each of its cards once, and each face a seat learned when a
    /// card came to it is the one the audit read for that card: the order shown is the order
    /// the cards were dealt in. Where a seat died for good and never revealed its secret,
    /// its key is put together from the parts it escrowed, and every card still reads.
    #[test]
    fn the_audit_reads_every_card_of_every_making_of_the_deck_in_the_order_it_was_dealt() {
        use hoard_rules::{CardId, Game, Handle};
        use std::collections::{BTreeMap, BTreeSet};
        let memo = SignatureMemo::new();
        for seed in 0..6u64 {
            let seats = 3 + (seed % 2) as u8;
            let mut faults = Faults::none();
            faults.dead_seat = (seed >= 4).then_some(1);
            let config = Counter::config(seats);
            let table = sim::Sim::<Counter>::new(&config, seats, faults, seed, cfg(&memo))
                .expect("a table");
            let (report, cores) = table
                .run_keeping()
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            assert!(
                report.verdicts.iter().flatten().all(|v| v.is_verified()),
                "seed {seed}: {:?}",
                report.verdicts
            );
            let core = cores.iter().flatten().next().expect("a device left");
            let shown = core.shown().expect("every hand, after the audit");
            let history = core.public_history();
            // What a seat learned is what the audit reads.
            for (h, f) in shown
                .hands
                .iter()
                .flatten()
                .flatten()
                .flat_map(|p| &p.faces)
            {
                assert_eq!(shown.faces.get(h), Some(f), "seed {seed}: {h:?}");
            }
            // Every making: its positions, each card once.
            let makings: BTreeMap<u16, u16> = history
                .iter()
                .filter_map(|p| Some((p.deck.generation?, p.deck.len)))
                .collect();
            assert!(!makings.is_empty(), "seed {seed}: the deck was made");
            for (generation, len) in makings {
                let read: BTreeMap<u16, CardId> = shown
                    .faces
                    .iter()
                    .filter(|(h, _)| h.generation == generation)
                    .map(|(h, f)| (h.position, *f))
                    .collect();
                let distinct: BTreeSet<CardId> = read.values().copied().collect();
                assert_eq!(distinct.len(), read.len(), "seed {seed}: a card read twice");
                assert!(read.keys().all(|p| *p < len), "seed {seed}: past the deck");
                assert_eq!(
                    read.len(),
                    usize::from(len),
                    "seed {seed}: making {generation}"
                );
            }
            // The replay's lines: after the first shuffle the deck is listed top first, by
            // the faces read, and the top card is the next one dealt.
            let name = |seat| format!("seat {seat}");
            let face = |card: Handle| shown.faces.get(&card).copied();
            let (k, public) = history
                .iter()
                .enumerate()
                .find(|(_, p)| p.deck.generation.is_some() && p.deck.left() > 0)
                .expect("a made deck");
            let privates: Vec<_> = shown.hands[k].iter().map(Option::as_ref).collect();
            let lines = Counter::deck_order(public, &privates, &face, &name);
            let top = public.deck.peek(1)[0];
            let top_name = hoard_rules::counter::number(face(top).expect("read")).to_string();
            assert!(
                lines.len() == 1
                    && lines[0].starts_with(&format!("The deck, top first: {top_name},")),
                "seed {seed}: {lines:?}"
            );
            assert!(!lines[0].contains('?'), "seed {seed}: {lines:?}");
        }
    }

    /// Issue 27: "A second removal in a deck game splits honest devices". Two seats of four or
    /// five die for good, at once or one after the other, and the table removes both. One after
    /// the other, every deal after that opens both keys (the second from the parts the first
    /// removed seat held, read with its key) and the game plays to its end; at the same moment,
    /// each held a part of the other's key and the cards cannot be opened again, so every device
    /// stops the game at the same deal, accusing no one. Either way every device left ends on
    /// the same log, verified.
    #[test]
    fn two_seats_that_die_are_both_removed_and_every_device_ends_alike() {
        let memo = SignatureMemo::new();
        let (mut played_out, mut stopped, mut second_removed) = (0, 0, 0);
        let seeds: Vec<u64> = match sim::replay_seed() {
            Some(s) => vec![s],
            None => (0..30).collect(),
        };
        for seed in seeds {
            let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x2dead);
            let seats = 4 + (r.next_u32() % 2) as u8;
            let mut faults = if seed % 2 == 0 {
                Faults::random(&mut r)
            } else {
                Faults::none()
            };
            let (first, second) = sim::two_seats(&mut r, seats);
            faults.dead_seat = Some(first);
            // In a row: long enough apart for the table to remove the first before the second.
            let after = if seed % 3 == 0 { 0 } else { 20_000 };
            faults.more_dead = vec![(second, after)];
            let config = Counter::config(seats);
            let cfg = cfg(&memo);
            let trace = sim::replay_seed() == Some(seed);
            let report = sim::play::<Counter>(&config, seats, faults, seed, cfg, trace)
                .unwrap_or_else(|e| panic!("{e}\nreplay: HOARD_SIM_SEED={seed}"));
            assert!(
                report.verdicts.iter().flatten().all(|v| v.is_verified()),
                "seed {seed}: {:?}",
                report.verdicts
            );
            match report.ended_by_agreement {
                None => played_out += 1,
                Some(_) => stopped += 1,
            }
            if report.ended_by_agreement.is_none() && report.removed[second as usize] > 0 {
                second_removed += 1;
            }
        }
        assert!(
            played_out >= 10 && second_removed >= 5,
            "{played_out} games played to their end ({second_removed} after a second removal), {stopped} stopped"
        );
    }
}

mod greedquest {
    use super::*;
    use hoard_net::session::TableGame;
    use hoard_rules::greedquest::{Config, GreedQuest, Length};

    fn cfg(memo: &SignatureMemo) -> CoreConfig<GreedQuest> {
        CoreConfig {
            away_after: 5_000,
            resync_after: 1_000,
            chain_len: 64,
            memo: Some(memo.clone()),
            ..GreedQuest::core_config()
        }
    }

    /// Issue 27: "Two seats gone at once stall the table for good (4-seat GreedQuest ...)".
    /// Two seats of four to six die for good at the same moment, in full-length games under
    /// faults; the table removes both together and every device left ends verified.
    #[test]
    fn two_seats_that_die_at_once_are_removed_together_and_the_game_ends_verified() {
        let memo = SignatureMemo::new();
        let seeds: Vec<u64> = match sim::replay_seed() {
            Some(s) => vec![s],
            None => (0..24).collect(),
        };
        let mut both = 0;
        for seed in seeds {
            let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0002_dead);
            let seats = 4 + (r.next_u32() % 3) as u8;
            let mut config = Config::new(seats);
            config.length = Length::Shortest;
            let mut faults = if seed.is_multiple_of(2) {
                Faults::random(&mut r)
            } else {
                Faults::none()
            };
            let (first, second) = sim::two_seats(&mut r, seats);
            faults.dead_seat = Some(first);
            faults.more_dead = vec![(second, 0)];
            let trace = sim::replay_seed() == Some(seed);
            let report = sim::play::<GreedQuest>(&config, seats, faults, seed, cfg(&memo), trace)
                .unwrap_or_else(|e| panic!("{e}\nreplay: HOARD_SIM_SEED={seed}"));
            assert!(
                report.verdicts.iter().flatten().all(|v| v.is_verified()),
                "seed {seed}: {:?}",
                report.verdicts
            );
            if report.removed[first as usize] > 0 && report.removed[second as usize] > 0 {
                both += 1;
            }
        }
        assert!(both >= 12, "both seats removed in {both} games");
    }

    /// Issue 33: "a 201-byte commitment sent to 5 peers and echoed by each". On a perfect
    /// network a seat's commitment now goes to each of the five other seats once and no
    /// device passes it on: each tells the others only the digest of what it holds, once per
    /// sealed step. The game still ends verified on every device.
    #[test]
    fn at_six_seats_a_commitment_goes_out_five_times_and_is_not_echoed() {
        let cfg = CoreConfig {
            away_after: 30_000,
            resync_after: 1_500,
            ..CoreConfig::<GreedQuest>::default()
        };
        let config = Config::new(6);
        let mut sim =
            sim::Sim::<GreedQuest>::new(&config, 6, Faults::none(), 7, cfg).expect("a table");
        sim.tally(true);
        let report = sim.run().expect("the game ends");
        assert!(
            report
                .verdicts
                .iter()
                .all(|v| v.as_ref().is_some_and(|v| v.is_verified()))
        );
        let tally = report.tally.expect("the tally");
        let sent = |kind: &str| tally.by_kind.get(kind).map_or(0, |(n, _)| *n);
        assert!(report.sealed_plays > 0 && report.sealed_steps > 0);
        let commitments = report.sealed_plays + report.closed_plays;
        assert_eq!(sent("Commit"), 5 * u64::from(commitments));
        assert_eq!(sent("Open"), 5 * u64::from(report.sealed_plays));
        // One statement from each of the six devices to each of the five others per sealed step
        // (steps sealed until the audit too: a split there is caught by the same comparison).
        let steps = report.sealed_steps + report.closed_steps;
        assert_eq!(sent("Holding"), 30 * u64::from(steps));
    }
}

mod spree {
    use super::*;
    use hoard_rules::spree::Spree;

    fn cfg(memo: &SignatureMemo) -> CoreConfig<Spree> {
        sim::bot_table(memo)
    }

    #[test]
    fn aces_stop_plays_in_reaction_windows_on_a_network() {
        // "You may play an Ace at any time to stop another player's action."
        let total = perfect::<Spree>(4, Some("short"), 0..3);
        assert!(
            total.sealed_steps > 0,
            "some play could be stopped by an Ace"
        );
    }

    #[test]
    fn a_whole_game_on_a_faulty_network_makes_its_deck_again_from_the_discards() {
        // "When the deck runs out, you will shuffle the discards and replace the deck."
        let memo = SignatureMemo::new();
        let mut r = ChaCha8Rng::seed_from_u64(77);
        let config = Spree::config(4);
        let report = sim::play::<Spree>(&config, 4, Faults::random(&mut r), 77, cfg(&memo), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(
            report.verdicts.iter().flatten().all(|v| v.is_verified()),
            "{:?}",
            report.verdicts
        );
        assert!(report.shuffles > 1, "shuffles: {}", report.shuffles);
        println!(
            "{} steps, {} shuffles, {} Ace windows",
            report.steps, report.shuffles, report.sealed_steps
        );
    }

    /// Issue 27: "A Spree! table of eight where three seats are removed one after another".
    /// Three of eight devices die for good, each some seconds after the last; the table removes
    /// each in turn (a second and third removal read the parts of the keys the removed seats
    /// held with their keys), the deck keeps dealing, and the five left end verified on one log.
    #[test]
    fn a_table_of_eight_removes_three_seats_one_after_another_and_ends_verified() {
        let memo = SignatureMemo::new();
        let seeds: Vec<u64> = match sim::replay_seed() {
            Some(s) => vec![s],
            None => vec![0, 1],
        };
        for seed in seeds {
            let mut r = ChaCha8Rng::seed_from_u64(seed ^ 0x0008_0003);
            let mut config = Spree::config(8);
            Spree::set_variant(&mut config, "short")
                .map_err(|e| e.to_string())
                .unwrap();
            let mut faults = if seed % 2 == 0 {
                Faults::none()
            } else {
                Faults::random(&mut r)
            };
            faults.crashes = 0;
            faults.blackouts = 0;
            let first = (r.next_u32() % 8) as u8;
            faults.dead_seat = Some(first);
            faults.dead_at = Some(2_000);
            faults.more_dead = vec![((first + 3) % 8, 20_000), ((first + 5) % 8, 40_000)];
            let trace = sim::replay_seed() == Some(seed);
            let report = sim::play::<Spree>(&config, 8, faults.clone(), seed, cfg(&memo), trace)
                .unwrap_or_else(|e| panic!("{e}\nreplay: HOARD_SIM_SEED={seed}"));
            assert!(
                report.verdicts.iter().flatten().all(|v| v.is_verified()),
                "seed {seed}: {:?}",
                report.verdicts
            );
            assert!(
                report.ended_by_agreement.is_none(),
                "seed {seed}: the game stopped"
            );
            let removed = [first, (first + 3) % 8, (first + 5) % 8]
                .iter()
                .filter(|s| report.removed[**s as usize] > 0)
                .count();
            assert_eq!(removed, 3, "seed {seed}: {:?}", report.removed);
        }
    }
}

mod freeloader {
    use super::*;
    use hoard_rules::freeloader::Freeloader;

    #[test]
    fn trades_pass_hidden_cards_from_hand_to_hand_on_a_network() {
        let total = perfect::<Freeloader>(4, None, 0..6);
        assert!(
            total.passed > 0,
            "some hand-to-hand trade passed a hidden card"
        );
    }
}

mod spammers {
    use super::*;
    use hoard_rules::spammers::Spammers;

    #[test]
    fn mailing_rolls_are_answered_out_of_turn_and_both_decks_made_again() {
        let games = 12;
        let total = perfect::<Spammers>(4, Some("quick-answers"), 0..games);
        println!(
            "{} sealed steps, {} shuffles",
            total.sealed_steps, total.shuffles
        );
        assert!(
            u64::from(total.sealed_steps) > games,
            "Mailing rolls were answered in windows"
        );
        assert!(
            total.shuffles > 2 * games as u32,
            "a deck was made again from its discards"
        );
    }
}
