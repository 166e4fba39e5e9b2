//! Four peers, each a separate `hoard` process with its own data directory, play a full
//! GreedQuest game over real iroh connections on loopback; one of them may be SIGKILLed
//! mid-game and restarted from its data directory.

use hoard_tests::{GameResult, Line, Peer, Scratch, tail, wait_line, with_timeout};
use std::sync::mpsc;
use std::time::{Duration, Instant};

const PEERS: usize = 4;
const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

fn host_args() -> Vec<String> {
    "host --game greedquest --seats 4 --loopback --timeout 150"
        .split(' ')
        .map(String::from)
        .collect()
}

fn join_args(ticket: &str) -> Vec<String> {
    vec![
        "join".into(),
        ticket.into(),
        "--bot".into(),
        "--loopback".into(),
        "--timeout".into(),
        "150".into(),
    ]
}

/// Starts the host and three guests; returns them with the output channel.
fn start_table(scratch: &Scratch, seen: &mut Vec<Line>) -> (Vec<Peer>, mpsc::Receiver<Line>) {
    let (tx, rx) = mpsc::channel();
    let bin = std::path::Path::new(PEER);
    let host = Peer::spawn(bin, "host", &host_args(), &scratch.dir("host"), &tx);
    let ticket = wait_line(&rx, Instant::now() + Duration::from_secs(20), seen, |l| {
        l.text.strip_prefix("TICKET ").map(str::to_string)
    })
    .unwrap_or_else(|| panic!("the host printed no ticket:\n{}", tail(seen, 30)));
    let mut peers = vec![host];
    for i in 1..PEERS {
        let name = format!("guest{i}");
        peers.push(Peer::spawn(
            bin,
            &name,
            &join_args(&ticket),
            &scratch.dir(&name),
            &tx,
        ));
    }
    (peers, rx)
}

/// Collects one RESULT per peer name.
fn results(
    rx: &mpsc::Receiver<Line>,
    deadline: Instant,
    seen: &mut Vec<Line>,
    mut also: impl FnMut(&Line),
) -> Vec<(String, GameResult)> {
    let mut got: Vec<(String, GameResult)> = Vec::new();
    while got.len() < PEERS {
        let Some((peer, result)) = wait_line(rx, deadline, seen, |l| {
            also(l);
            GameResult::parse(&l.text).map(|r| (l.peer.clone(), r))
        }) else {
            panic!(
                "only {} of {PEERS} peers finished in time:\n{}",
                got.len(),
                tail(seen, 60)
            );
        };
        got.retain(|(p, _)| *p != peer);
        got.push((peer, result));
    }
    got
}

fn assert_agree(results: &[(String, GameResult)], seen: &[Line]) {
    let (first_peer, first) = &results[0];
    for (peer, r) in results {
        assert_eq!(
            r.audit,
            "verified",
            "{peer}'s audit: {}\n{}",
            r.rest,
            tail(seen, 40)
        );
        assert_eq!(
            (&r.session, r.step, &r.state),
            (&first.session, first.step, &first.state),
            "{peer} and {first_peer} ended differently"
        );
    }
    assert!(
        first.step > 10,
        "a full game takes more than {} steps",
        first.step
    );
}

#[test]
fn four_peer_processes_play_a_full_greedquest_game_and_agree() {
    with_timeout(Duration::from_secs(150), || {
        let scratch = Scratch::new("four-peers");
        let mut seen = Vec::new();
        let (mut peers, rx) = start_table(&scratch, &mut seen);
        let got = results(
            &rx,
            Instant::now() + Duration::from_secs(120),
            &mut seen,
            |_| {},
        );
        assert_agree(&got, &seen);
        // Each exits by itself, with success, after its verified result.
        let deadline = Instant::now() + Duration::from_secs(10);
        for p in &mut peers {
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
        let mut seen = Vec::new();
        let (mut peers, rx) = start_table(&scratch, &mut seen);
        let name = peers[victim].name.clone();
        let reached = wait_line(
            &rx,
            Instant::now() + Duration::from_secs(60),
            &mut seen,
            |l| {
                (l.peer == name
                    && l.text
                        .strip_prefix("STEP ")
                        .and_then(|s| s.parse::<u32>().ok())
                        .is_some_and(|s| s >= kill_at))
                .then_some(())
            },
        );
        assert!(
            reached.is_some(),
            "{name} never reached step {kill_at}:\n{}",
            tail(&seen, 40)
        );
        peers[victim].kill();
        // Whatever the killed process printed but did not flush is gone with it; what it
        // printed before belongs to its first life.
        std::thread::sleep(Duration::from_millis(300));
        while let Ok(line) = rx.try_recv() {
            seen.push(line);
        }
        let (tx, rx2) = mpsc::channel::<Line>();
        let restarted = Peer::spawn(
            std::path::Path::new(PEER),
            &name,
            &peers[victim].args.clone(),
            &peers[victim].data_dir.clone(),
            &tx,
        );
        peers[victim] = restarted;
        // Merge the restarted peer's lines with everyone else's.
        let (merged_tx, merged) = mpsc::channel();
        for source in [rx, rx2] {
            let tx = merged_tx.clone();
            std::thread::spawn(move || {
                while let Ok(line) = source.recv() {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut resumed = false;
        let got = results(
            &merged,
            Instant::now() + Duration::from_secs(120),
            &mut seen,
            |l| {
                if l.peer == name && l.text.contains("resuming the unfinished game") {
                    resumed = true;
                }
            },
        );
        assert!(
            resumed,
            "{name} did not resume from its data dir:\n{}",
            tail(&seen, 40)
        );
        assert_agree(&got, &seen);
    });
}
