//! Four peers, each a separate `hoard` process with its own data directory, play a full
//! GreedQuest game over real iroh connections on loopback; one of them may be SIGKILLed
//! mid-game and restarted from its data directory.

use hoard_tests::procs::ProcTable;
use hoard_tests::{Scratch, tail, with_timeout};
use std::time::{Duration, Instant};

const PEERS: usize = 4;
const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// Starts the host and three guests.
fn start_table(scratch: &Scratch) -> ProcTable {
    let guests: Vec<String> = (1..PEERS).map(|i| format!("guest{i}")).collect();
    ProcTable::start(
        PEER,
        scratch,
        &words("host --game greedquest --seats 4 --loopback --timeout 150"),
        &guests,
        |ticket| words(&format!("join {ticket} --bot --loopback --timeout 150")),
    )
}

#[test]
fn four_peer_processes_play_a_full_greedquest_game_and_agree() {
    with_timeout(Duration::from_secs(150), || {
        let scratch = Scratch::new("four-peers");
        let mut table = start_table(&scratch);
        let got = table.results(Duration::from_secs(120), |_| {});
        table.assert_agree(&got, 10);
        // Each exits by itself, with success, after its verified result.
        let deadline = Instant::now() + Duration::from_secs(10);
        for p in &mut table.peers {
            while p.exit_code().is_none() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            assert_eq!(p.exit_code(), Some(0), "{} did not exit cleanly", p.name);
        }
    });
}

/// A small seedable generator for the victim and the step (xorshift), seeded from the
/// clock unless `HOARD_KILL_SEED` replays a run.
fn pick(seed: &mut u64, n: u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed % n
}

#[test]
fn a_peer_killed_at_a_random_step_restarts_from_its_data_dir_and_the_game_completes() {
    with_timeout(Duration::from_secs(170), || {
        let mut seed: u64 = std::env::var("HOARD_KILL_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map(|d| d.as_nanos() as u64)
                    .unwrap_or(1)
                    | 1
            });
        println!("HOARD_KILL_SEED={seed}");
        let victim = pick(&mut seed, PEERS as u64) as usize;
        // A 4-seat game runs about 40-70 steps; kill somewhere in its first part.
        let kill_at = 2 + pick(&mut seed, 24) as u32;
        println!("killing peer {victim} at step {kill_at}");

        let scratch = Scratch::new("kill-restart");
        let mut table = start_table(&scratch);
        let name = table.peers[victim].name.clone();
        table.kill_at_step(victim, kill_at, Duration::from_secs(60));
        let mut resumed = false;
        let got = table.results(Duration::from_secs(120), |l| {
            if l.peer == name && l.text.contains("resuming the unfinished game") {
                resumed = true;
            }
        });
        assert!(
            resumed,
            "{name} did not resume from its data dir:\n{}",
            tail(&table.seen, 40)
        );
        table.assert_agree(&got, 10);
    });
}
