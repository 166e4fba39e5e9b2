//! `cargo bench -p hoard-net`: full 6-seat GreedQuest games through the simulator on a
//! perfect network — games per second, the CPU of a game in signature checks (one check
//! timed in the same run), and bytes per sealed turn per seat.
//!
//! Every device verifies every signature it receives, as real devices do (no shared
//! memo), and every message is echoed as the protocol echoes it. Bytes are everything the
//! six devices hand to the network. Last, the cost of one signature check, alone and in
//! batches of the sizes a catching-up device sees.

#[path = "support/baseline.rs"]
mod baseline;

use hoard_net::identity::SeatKey;
use hoard_net::sim::{self, Faults, Report};
use hoard_net::wire::{Body, Signed, verify_many};
use hoard_net::{Basis, CoreConfig, SecretKey, SessionId};
use hoard_rules::greedquest::{Config, GreedQuest};
use std::time::Instant;

const SEATS: u8 = 6;
const GAMES: u64 = 40;

fn game(seed: u64, tally: bool) -> Report {
    let config = Config::new(SEATS);
    let cfg = CoreConfig {
        away_after: 30_000,
        resync_after: 1_500,
        ..CoreConfig::<GreedQuest>::default()
    };
    let mut sim = sim::Sim::<GreedQuest>::new(&config, SEATS, Faults::none(), seed, cfg)
        .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    sim.tally(tally);
    let report = sim.run().unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report
            .verdicts
            .iter()
            .all(|v| v.as_ref().is_some_and(|v| v.is_verified()))
    );
    report
}

fn main() {
    let check = baseline::signature_check();
    // Warm up, and measure bytes on one pass with the tally on.
    let mut tally = sim::Tally::default();
    let mut plays = 0u64;
    for seed in 0..5 {
        let r = game(1_000 + seed, true);
        tally.add(&r.tally.unwrap_or_default());
        plays += r.sealed_plays as u64;
    }

    let t = Instant::now();
    let (mut steps, mut sealed, mut messages, mut bytes, mut fsyncs) =
        (0u64, 0u64, 0u64, 0u64, 0u64);
    for seed in 0..GAMES {
        let r = game(seed, false);
        steps += r.steps as u64;
        sealed += r.sealed_plays as u64;
        messages += r.messages;
        bytes += r.bytes;
        fsyncs += r.fsyncs;
    }
    let secs = t.elapsed().as_secs_f64();

    println!("hoard-net protocol bench: {SEATS}-seat GreedQuest (full game), simulator, no faults");
    println!(
        "  {GAMES} games in {secs:.2} s: {:.2} games/s ({:.0} steps/game, {:.0} sealed plays/game)",
        GAMES as f64 / secs,
        steps as f64 / GAMES as f64,
        sealed as f64 / GAMES as f64,
    );
    let game_cpu = secs / GAMES as f64;
    println!(
        "  CPU per game (all six devices, one core): {:.0} signature checks' worth \
         ({:.1} ms a game, one signature check {} in this run)",
        game_cpu / check.as_secs_f64(),
        game_cpu * 1000.0,
        baseline::us(check),
    );
    println!(
        "  {:.0} messages/game, {:.1} KB/game on the network (all six devices)",
        messages as f64 / GAMES as f64,
        bytes as f64 / GAMES as f64 / 1000.0
    );
    println!(
        "  fsyncs per sealed play (all that the stores make, over the sealed plays): {:.2}",
        fsyncs as f64 / sealed as f64
    );
    let per = |b: u64| b as f64 / plays as f64;
    let [commits, openings, holdings] = ["Commit", "Open", "Holding"].map(|k| tally.bytes(&[k]));
    println!(
        "  bytes per sealed turn per seat: {:.0} (commitment {} B sent to 5 peers, \
         opening {} B sent to 5 peers, the digest of the commitments held sent to 5 peers: \
         {:.0} + {:.0} + {:.0})",
        per(commits + openings + holdings),
        tally.commit_size,
        tally.opening_size,
        per(commits),
        per(openings),
        per(holdings),
    );
    let hellos = tally.bytes(&["Hello"]);
    let rest = tally.total_bytes() - commits - openings - holdings - hellos;
    println!(
        "  all traffic per sealed turn per seat (hellos {:.0}, draws/moves/reveals {:.0}): {:.0}",
        per(hellos),
        per(rest),
        per(tally.total_bytes()),
    );
    let kinds: Vec<String> = tally
        .by_kind
        .iter()
        .map(|(kind, (n, b))| format!("{kind} {:.1} ({:.0} B)", *n as f64 / 5.0, *b as f64 / 5.0))
        .collect();
    println!(
        "  messages sent per game by kind (bytes): {}",
        kinds.join(", ")
    );
    signatures(check);
}

/// Microseconds per signature checked: one at a time (the run's yardstick, `one`), then in
/// batches (one frame of a catch-up carries about 700 signed messages from five seats).
fn signatures(one: std::time::Duration) {
    const N: usize = 4_200;
    const SESSION: SessionId = SessionId([9; 32]);
    let keys: Vec<SecretKey> = (1..=5u8).map(|b| SecretKey::from_bytes(&[b; 32])).collect();
    let seat_keys: Vec<SeatKey> = keys
        .iter()
        .map(|k| SeatKey::new(&k.public()).expect("a key"))
        .collect();
    let msgs: Vec<Signed> = (0..N)
        .map(|i| {
            Signed::sign(
                &keys[i % 5],
                SESSION,
                (i % 5) as u8,
                i as u32,
                Basis::default(),
                Body::Commit([i as u8; 32]),
            )
        })
        .collect();
    let items: Vec<(&Signed, &SeatKey)> = msgs
        .iter()
        .enumerate()
        .map(|(i, s)| (s, &seat_keys[i % 5]))
        .collect();
    let mut line = format!(
        "  signature check, wall-clock us each (batches of 128 or more use every core): \
         one at a time {:.1};",
        one.as_secs_f64() * 1e6
    );
    for batch in [64, 700] {
        let t = Instant::now();
        for chunk in items.chunks(batch) {
            assert!(verify_many(&SESSION, chunk, None).iter().all(|ok| *ok));
        }
        let each = t.elapsed().as_secs_f64() / N as f64;
        line.push_str(&format!(
            " in batches of {batch} {:.1} ({:.2} of one alone);",
            each * 1e6,
            each / one.as_secs_f64()
        ));
    }
    println!("{}", line.trim_end_matches(';'));
}
