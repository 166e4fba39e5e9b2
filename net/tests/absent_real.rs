//! Away seats at real tables, GreedQuest and Sprawl (not the fixture games): a seat whose
//! player goes quiet is skipped by the table's vote and the table goes on; the player comes
//! back, says so, and plays, with nobody else pressing anything; another seat's device goes
//! for good and the table removes it; the game reaches its end and every audit is verified.
//!
//! Issue 20: both games once declared no way to sit out, so every vote at a turn was
//! refused ("this game cannot go on without X at this point") and a table with a quiet seat
//! stayed where it was for hours.

use crate::common;

use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::session::TableGame;
use hoard_net::{CoreConfig, VoteAction};
use hoard_rules::greedquest::{self, GreedQuest};
use hoard_rules::sprawl::{self, Sprawl};
use hoard_rules::{Pending, Seat};

const SEATS: usize = 4;
const QUIET: Seat = 2;
const GONE: Seat = 3;

fn cfg<G: TableGame>() -> CoreConfig<G> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 64,
        ..G::core_config()
    }
}

fn table<G: TableGame>(config: &G::Config, nonce: u8) -> Table {
    let keys = keys(SEATS as u8, nonce);
    let start = start_for::<G>(config, &keys, nonce);
    let devices: Vec<Box<dyn Device>> = (0..SEATS)
        .map(|i| bot::<G>(&start, &keys[i], i as u8, cfg::<G>()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

fn waits_on(p: Option<Pending>, seat: Seat) -> bool {
    match p {
        Some(Pending::Turn { seat: s }) => s == seat,
        Some(Pending::Together { seats, .. }) => seats.contains(&seat),
        _ => false,
    }
}

/// How `seat` took part in each input step of a log, from step `from` on.
fn parts(records: &[StepRecord], seat: Seat, from: usize) -> Vec<PlayRecord> {
    records[from.min(records.len())..]
        .iter()
        .filter_map(|r| match r {
            StepRecord::Inputs { plays, .. } => plays
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, p)| p.clone()),
            StepRecord::Chance { .. } | StepRecord::Deck { .. } | StepRecord::Ended { .. } => None,
        })
        .collect()
}

fn count(parts: &[PlayRecord], kind: &PlayRecord) -> usize {
    parts.iter().filter(|p| *p == kind).count()
}

/// The whole story at one table: skip, return, remove, the end, the audit.
/// Every seat's device but `but`'s, by index.
fn others(but: Seat) -> impl Iterator<Item = usize> {
    (0..SEATS).filter(move |i| *i as Seat != but)
}

/// Waits until every other seat shows `seat` as away, then has each of them choose to go
/// on without it (`action`); the step the table was at then.
fn vote_when_away(t: &mut Table, seat: Seat, action: VoteAction) -> usize {
    assert!(
        t.run_until(100_000, 100, |t| others(seat)
            .all(|i| t.devices[i].is_away(seat))),
        "seat {seat} was never shown as away"
    );
    let at = t.devices[0].step() as usize;
    for i in others(seat) {
        t.devices[i]
            .go_on_without(t.now, seat, action)
            .unwrap_or_else(|e| panic!("the choice to go on without seat {seat} was refused: {e}"));
    }
    at
}

fn skip_return_remove<G: TableGame>(config: &G::Config, nonce: u8) {
    let mut t = table::<G>(config, nonce);

    // A few steps in, the table waits on the quiet seat's player, who has gone quiet.
    assert!(t.run_until(200_000, 10, |t| {
        t.devices[0].step() > 8 && waits_on(t.devices[0].pending(), QUIET)
    }));
    t.devices[QUIET as usize].set_plays(false);
    let first = vote_when_away(&mut t, QUIET, VoteAction::Skip);
    // The table goes on, past the step it was stuck at, and past more that wait on the seat.
    assert!(
        t.run_until(400_000, 10, |t| {
            count(
                &parts(&t.devices[0].records(), QUIET, first),
                &PlayRecord::SatOut,
            ) >= 3
        }),
        "the table did not go on without the quiet seat"
    );

    // The player is back and presses "I'm back"; nobody else presses anything. In a game of
    // single turns a standing skip votes the moment the seat's turn begins, before a
    // returning player could move: only the seat's word ends it. It plays again.
    let back_at = t.devices[0].step() as usize;
    assert!(
        t.devices[QUIET as usize].sat_out().is_some(),
        "the quiet seat's device does not know the table skipped it"
    );
    t.devices[QUIET as usize].set_plays(true);
    t.devices[QUIET as usize].back(t.now);
    t.collect(QUIET as usize);
    let played = |p: &PlayRecord| !matches!(p, PlayRecord::SatOut | PlayRecord::Removed);
    assert!(
        t.run_until(400_000, 10, |t| parts(
            &t.devices[0].records(),
            QUIET,
            back_at
        )
        .iter()
        .any(played)),
        "the quiet seat did not play again once back"
    );
    for i in others(QUIET) {
        assert!(
            !t.devices[i].skipping(QUIET),
            "device {i} still skips the seat"
        );
    }

    // Another seat's device goes for good while the table waits on it; the table removes it.
    assert!(t.run_until(400_000, 10, |t| {
        waits_on(t.devices[0].pending(), GONE) || t.devices[0].verdict().is_some()
    }));
    assert!(
        waits_on(t.devices[0].pending(), GONE),
        "the game ended before the table waited on seat {GONE} again"
    );
    t.devices[GONE as usize].set_down(true);
    let removed_at = vote_when_away(&mut t, GONE, VoteAction::Remove);
    assert!(
        t.run_until(2_000_000, 100, |t| others(GONE)
            .all(|i| t.devices[i].verdict().is_some())),
        "the game did not reach its end without the removed seat"
    );

    let records = t.devices[0].records();
    for i in others(GONE) {
        assert_eq!(
            t.devices[i].verdict(),
            Some(hoard_net::Verdict::Verified {
                unchecked: vec![GONE]
            }),
            "device {i}'s audit"
        );
        assert_eq!(t.devices[i].records(), records, "device {i}'s log");
        assert_eq!(
            t.devices[i].state(),
            t.devices[0].state(),
            "device {i}'s state"
        );
    }
    let gone = parts(&records, GONE, removed_at);
    assert!(count(&gone, &PlayRecord::Removed) >= 1, "{gone:?}");
    assert!(gone.iter().all(|p| *p == PlayRecord::Removed), "{gone:?}");
    let Some(Pending::Over(outcome)) = t.devices[0].pending() else {
        panic!("the game is not over: {:?}", t.devices[0].pending());
    };
    assert!(!outcome.winners.is_empty());
    assert!(
        !outcome.winners.contains(&GONE),
        "a removed seat cannot win: {outcome:?}"
    );
    let quiet = parts(&records, QUIET, 0);
    println!(
        "{} steps; seat {QUIET} skipped at {} and played {} times after; seat {GONE} removed at step {removed_at}, winners {:?}",
        records.len(),
        count(&quiet, &PlayRecord::SatOut),
        parts(&records, QUIET, back_at)
            .iter()
            .filter(|p| played(p))
            .count(),
        outcome.winners
    );
}

/// Issue 20: "A 4-seat GreedQuest table whose seat 2 went quiet at step 6 was still at step
/// 6 after both votes and 2.5 hours."
#[test]
fn greedquest_table_skips_a_quiet_seat_takes_it_back_and_ends_after_removing_another() {
    skip_return_remove::<GreedQuest>(&greedquest::Config::new(SEATS as u8), 41);
}

#[test]
fn sprawl_table_skips_a_quiet_seat_takes_it_back_and_ends_after_removing_another() {
    let mut config = sprawl::Config::new(SEATS as u8);
    config.counting_coup = true;
    skip_return_remove::<Sprawl>(&config, 43);
}

/// How a skipped seat's player comes back.
enum Return {
    /// The device stayed on; the player presses "I'm back".
    SaysSo,
    /// The device was off the whole time; the app starts again from its store.
    Restarts,
}

/// A Sprawl seat goes quiet, the others choose to skip its turns, and the table skips it
/// at least twice; then its player returns and its next turn waits for it, though every
/// other seat still holds its standing choice to skip (nobody presses "Wait").
fn skipped_sprawl_seat_returns(how: Return, nonce: u8) {
    let mut t = table::<Sprawl>(&sprawl::Config::new(SEATS as u8), nonce);
    let quiet = QUIET as usize;
    assert!(t.run_until(200_000, 10, |t| {
        t.devices[0].step() > 8 && waits_on(t.devices[0].pending(), QUIET)
    }));
    match how {
        Return::SaysSo => t.devices[quiet].set_plays(false),
        Return::Restarts => t.devices[quiet].set_down(true),
    }
    let first = vote_when_away(&mut t, QUIET, VoteAction::Skip);
    assert!(
        t.run_until(400_000, 10, |t| count(
            &parts(&t.devices[0].records(), QUIET, first),
            &PlayRecord::SatOut
        ) >= 2),
        "the table did not go on without the quiet seat"
    );

    let back_at = t.devices[0].step() as usize;
    match how {
        Return::SaysSo => {
            t.devices[quiet].set_plays(true);
            t.devices[quiet].back(t.now);
        }
        Return::Restarts => t.devices[quiet]
            .restart(t.now)
            .expect("the seat's device starts again from its store"),
    }
    t.collect(quiet);
    assert!(
        t.run_until(400_000, 10, |t| parts(
            &t.devices[0].records(),
            QUIET,
            back_at
        )
        .iter()
        .any(|p| !matches!(p, PlayRecord::SatOut | PlayRecord::Removed))),
        "the seat back at the table never played its turn: {:?}",
        parts(&t.devices[0].records(), QUIET, back_at)
    );
    // At most the turn already open when it came back went on without it.
    let after = parts(&t.devices[0].records(), QUIET, back_at);
    assert!(count(&after, &PlayRecord::SatOut) <= 1, "{after:?}");
    for i in others(QUIET) {
        assert!(
            !t.devices[i].skipping(QUIET),
            "device {i} still skips the seat"
        );
    }
    assert_eq!(t.devices[quiet].sat_out(), None);
}

#[test]
fn a_skipped_sprawl_seat_that_says_it_is_back_plays_its_next_turn() {
    skipped_sprawl_seat_returns(Return::SaysSo, 51);
}

#[test]
fn a_skipped_sprawl_seat_whose_app_restarts_plays_its_next_turn() {
    skipped_sprawl_seat_returns(Return::Restarts, 53);
}

/// A device restarted at a table that never skipped its seat has nothing to say: it signs
/// no Back (which would end the others' choices about it for no reason).
#[test]
fn a_restarted_seat_the_table_never_skipped_does_not_say_it_is_back() {
    let mut t = table::<Sprawl>(&sprawl::Config::new(SEATS as u8), 57);
    let quiet = QUIET as usize;
    assert!(t.run_until(200_000, 10, |t| t.devices[0].step() > 8));
    t.devices[quiet]
        .restart(t.now)
        .expect("the seat's device starts again from its store");
    t.collect(quiet);
    let at = t.devices[0].step();
    assert!(t.run_until(200_000, 10, |t| t.devices[0].step() > at + 8));
    let backs = t
        .signed_from(quiet)
        .iter()
        .filter(|m| m.body == hoard_net::wire::Body::Back)
        .count();
    assert_eq!(backs, 0);
    assert_eq!(t.devices[quiet].sat_out(), None);
}
