//! Whole tables' lives in the device simulator: every game, 2 to 8 seats, people and bots,
//! a host opening the table, guests finding it (mDNS) and sitting down by tap or by code,
//! a passer-by sitting down and leaving, a shared screen joining mid-game, a player
//! leaving on purpose and resuming from the home list, crash-restarts in the lobby and in
//! the game, blackouts, partitions and breaking links, to the end with its audit. Every
//! table must end with every seat on the same step and state, verified. A failure prints
//! its seed; `HOARD_SIM_SEED=<seed> cargo test -p hoard-net --test all sim_devices::replay -- --exact
//! --nocapture` replays it with a trace.

use hoard_net::games::{self, GameSetup};
use hoard_net::sim::devices::{self, Outcome};
use std::time::Instant;

/// Tables per default run, split in slices that run side by side.
const SLICES: u64 = 4;
const DEFAULT_TABLES: u64 = 2_000;
const LONG_TABLES: u64 = 10_000;

/// The game of table `seed`: all six in turn.
fn setup(seed: u64) -> GameSetup {
    let all = games::all();
    let mut setup = all[(seed % all.len() as u64) as usize].clone();
    if let GameSetup::Counter(c) = &mut setup {
        // A short deck game that plays out to its own end before the people agree to stop.
        c.turns = 6;
    }
    setup
}

fn table(seed: u64, trace: bool) -> Result<Outcome, String> {
    // One table in four on a quiet network, the rest with faults.
    devices::table(setup(seed), seed, !seed.is_multiple_of(4), trace)
}

/// Tables that stick today, each a story still open, left out of the default run and played
/// by `known_open_tables`. 6467 (SPAMMERS, three seats, found by the third 10,000-table
/// run) forks two honest devices' logs: every seat signed both its decryption shares for
/// the reveal at step 9 and its agreement to end there, so the step can end either way; the
/// first guest had every share before the last agreement and completed the reveal, the host
/// and the second guest had every agreement first and ended the game at step 9. The rule
/// `plan` leans on, "no seat that agreed has completed it otherwise", is not kept: a device
/// sends a deck step's shares by itself, and agreeing does not check for them (nor sending
/// them for an agreement). The host had lost the step to a power cut and played it again.
/// It fails the same with the code of protocol 11.
/// The one before, 994 (Freeloader): split from the host, two guests
/// completed the second guest's turn (step 12) with its move and signed the deal after it
/// (13); both then lost power, the first losing the move (a peer's message, not written
/// through) but not its own deal part. The table skipped the second guest at 12 and played
/// on. Back, the second guest was on a log of its own past 12 and asked for history from
/// 13, the last step another seat (the first guest, by that old deal part) had signed on
/// its log, so the votes of 12 that take it back never came. A device nothing moves on now
/// asks from the last step on its log that every seat ahead of it signed. (566 and 878,
/// Counter after a power cut, the same story, went on once a device back gets every seat's
/// history apart from its own.)
const KNOWN_OPEN: &[u64] = &[6467];

/// Tables of the long run that failed once, played in every default run. Stuck: 2567
/// (SPAMMERS, two seats: a device that lost what it heard in a power cut voted, as it
/// caught up, to skip the other seat at a step both had played, and went on alone; a seat
/// now signs no vote below the furthest step it had signed), 4247, 3979, 8815, 10699, 5931
/// and 8949 (a device killed at a game's end had its audit done but not its peer's, and was
/// never opened at the table again to give its part: a game over is reopened like one
/// unfinished), 9203 (a refusal queued for a guest whose seat was given away reached it
/// after the host had seated it again). No device at the table at the end (7323, 7390,
/// 7442, 7842, 8499, 8546, 8917, 9430, 9894, 10434, 10771): the check now opens the replay
/// of a game a device only lists, which found that a game listed as over could not be
/// audited again from the disk (what the seat heard was never made durable). The next long
/// run found the replay check itself wrong where the game ended by agreement (6559, 7123,
/// 8006, 8511, 8545, 8778): a replay has no frame for the agreement's step, so only its
/// last state is compared. The third found the simulated people wrong in 8670 (GreedQuest):
/// a guest back from a power cut agreed to end at step 5 on a log of its own, the table
/// having skipped it at step 4, and, caught up to the table's step 5, never agreed again
/// there, while the host's player, having agreed, waited: a person now agrees again when
/// the same step shows another state ("End game" not agreed), as a person at the screen
/// would.
const FOUND_IN_THE_LONG_RUN: &[u64] = &[
    2567, 4247, 9203, 3979, 8815, 10699, 5931, 8949, 7323, 7390, 7442, 7842, 8499, 8546, 8917,
    9430, 9894, 10434, 10771, 6559, 7123, 8006, 8511, 8545, 8778, 8670,
];

#[test]
fn tables_the_long_run_found_stuck_or_unchecked_end_verified() {
    let (tables, _, _) = run(FOUND_IN_THE_LONG_RUN.iter().copied());
    assert_eq!(tables, FOUND_IN_THE_LONG_RUN.len() as u64);
}

fn run(seeds: impl Iterator<Item = u64>) -> (u64, u64, u32) {
    let (mut tables, mut steps, mut restarts) = (0, 0, 0);
    let mut failed = Vec::new();
    for seed in seeds.filter(|s| !KNOWN_OPEN.contains(s)) {
        match table(seed, false) {
            Ok(o) => {
                tables += 1;
                steps += u64::from(o.steps);
                restarts += o.restarts;
            }
            Err(e) => failed.push(format!(
                "{e}\nreplay: HOARD_SIM_SEED={seed} cargo test -p hoard-net --test all sim_devices::replay -- --exact --nocapture"
            )),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} tables failed:\n{}",
        failed.len(),
        tables + failed.len() as u64,
        failed.join("\n")
    );
    (tables, steps, restarts)
}

fn slice(i: u64) {
    let t = Instant::now();
    let per = DEFAULT_TABLES / SLICES;
    let (tables, steps, restarts) = run(i * per..(i + 1) * per);
    println!(
        "slice {i}: {tables} tables, {steps} steps, {restarts} crash-restarts, all verified, in {:?}",
        t.elapsed()
    );
}

#[test]
fn tables_live_from_hosting_to_a_verified_end_slice_0() {
    slice(0);
}

#[test]
fn tables_live_from_hosting_to_a_verified_end_slice_1() {
    slice(1);
}

#[test]
fn tables_live_from_hosting_to_a_verified_end_slice_2() {
    slice(2);
}

#[test]
fn tables_live_from_hosting_to_a_verified_end_slice_3() {
    slice(3);
}

#[test]
#[ignore = "long: 10,000 more tables"]
fn ten_thousand_more_tables() {
    let t = Instant::now();
    let (tables, steps, restarts) = run(DEFAULT_TABLES..DEFAULT_TABLES + LONG_TABLES);
    println!(
        "{tables} tables, {steps} steps, {restarts} crash-restarts, all verified, in {:?}",
        t.elapsed()
    );
}

/// The returning-device stories: a person's device goes quiet longer than the table waits
/// (its app killed in a pocket), the others skip its seats and play on, and it comes back
/// behind them. Bugs lived here: a seat skipped at the step of its own late move could never
/// say it was back; a device behind the table whose link to one peer was slow caught up only
/// once the game had ended; and (found here) a device whose unsynced writes a power cut took
/// stayed at a beacon step the table had left, as no peer sends a device its own link and it
/// made it again only at a step the table was still at (seed 37); and (found here too) a
/// person's phone holding one seat skipped, alone, the five seats of a device that had gone
/// quiet and finished the game, while that device, back, skipped the one seat and played on
/// to another end: two games on two honest devices (seed 64). Seats gone at once are now
/// decided only by a quorum of the seats still in.
#[test]
fn a_device_gone_longer_than_the_table_waits_comes_back_to_a_table_that_played_on() {
    let t = Instant::now();
    let mut failed = Vec::new();
    for seed in (0..RETURNING).filter(|s| !KNOWN_OPEN_RETURNING.contains(s)) {
        if let Err(e) = devices::returning(returning_setup(seed), seed, false) {
            failed.push(format!(
                "{e}\nreplay: HOARD_SIM_SEED={seed} cargo test -p hoard-net --test all sim_devices::replay_returning -- --exact --nocapture"
            ));
        }
    }
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
    println!(
        "{} returning devices, all back and verified, in {:?}",
        RETURNING - KNOWN_OPEN_RETURNING.len() as u64,
        t.elapsed()
    );
}

/// Tables with a returning device per default run.
const RETURNING: u64 = 100;

/// Returning-device tables that stick today, played by `known_open_tables`.
const KNOWN_OPEN_RETURNING: &[u64] = &[];

/// GreedQuest and Counter in turn: a game of open moves and sealed ones, and one on the deck.
fn returning_setup(seed: u64) -> GameSetup {
    setup(if seed.is_multiple_of(2) { 0 } else { 2 })
}

/// Replays the returning-device seed in `HOARD_SIM_SEED` with a trace.
#[test]
fn replay_returning() {
    let Some(seed) = std::env::var("HOARD_SIM_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    else {
        return;
    };
    match devices::returning(returning_setup(seed), seed, true) {
        Ok(o) => println!("seed {seed}: {o:?}"),
        Err(e) => panic!("{e}"),
    }
}

/// The tables of [`KNOWN_OPEN`]: fails while any still sticks.
#[test]
#[ignore = "open stories, issue 27"]
fn known_open_tables() {
    let stuck: Vec<u64> = KNOWN_OPEN
        .iter()
        .copied()
        .filter(|seed| table(*seed, false).is_err())
        .collect();
    let returning: Vec<u64> = KNOWN_OPEN_RETURNING
        .iter()
        .copied()
        .filter(|seed| devices::returning(returning_setup(*seed), *seed, false).is_err())
        .collect();
    assert!(
        stuck.is_empty() && returning.is_empty(),
        "still stuck: tables {stuck:?}, returning {returning:?}"
    );
}

/// Replays the seed in `HOARD_SIM_SEED` with a trace.
#[test]
fn replay() {
    let Some(seed) = std::env::var("HOARD_SIM_SEED")
        .ok()
        .and_then(|s| s.trim().parse().ok())
    else {
        return;
    };
    match table(seed, true) {
        Ok(o) => println!("seed {seed}: {o:?}"),
        Err(e) => panic!("{e}"),
    }
}

/// Plays the seeds `HOARD_SIM_FROM..HOARD_SIM_TO` one by one, printing each as it ends.
#[test]
#[ignore = "a survey of seeds, by hand"]
fn survey() {
    let var = |name: &str, or: u64| {
        std::env::var(name)
            .ok()
            .and_then(|s| s.trim().parse().ok())
            .unwrap_or(or)
    };
    for seed in var("HOARD_SIM_FROM", 0)..var("HOARD_SIM_TO", 20) {
        let t = Instant::now();
        let result = table(seed, false);
        let line = match &result {
            Ok(o) => format!("{o:?}"),
            Err(e) => e.lines().next().unwrap_or("").to_string(),
        };
        println!(
            "{seed}: {:?} {} {line}",
            t.elapsed(),
            setup(seed).game_name()
        );
    }
}
