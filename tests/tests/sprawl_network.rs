//! Sprawl over real iroh on loopback: separate peer processes (the headless `hoard` CLI)
//! host and join a table, bots play every seat to the end, and every device finishes with
//! the same session, the same number of steps and the same public state hash, verified.

use hoard_tests::{GameResult, Line, Peer, Scratch, tail, wait_line, with_timeout};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

fn args(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

/// Hosts Sprawl with `host_bots` bots on the host's device and `joiners` more devices,
/// each a bot playing its own seat; returns every device's result line.
fn play(label: &str, variant: Option<&str>, host_bots: u8, joiners: usize) -> Vec<GameResult> {
    let scratch = Scratch::new(label);
    let (tx, lines) = mpsc::channel::<Line>();
    let seats = 1 + usize::from(host_bots) + joiners;
    let mut host_args = format!(
        "host --game sprawl --bots {host_bots} --seats {seats} --name Host --loopback --timeout 150"
    );
    if let Some(v) = variant {
        host_args.push_str(&format!(" --variant {v}"));
    }
    let mut peers = vec![Peer::spawn(
        Path::new(PEER),
        "host",
        &args(&host_args),
        &scratch.dir("host"),
        &tx,
    )];
    let mut seen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    let ticket = wait_line(&lines, deadline, &mut seen, |l| {
        (l.peer == "host" && !l.stderr)
            .then(|| l.text.strip_prefix("TICKET ").map(String::from))
            .flatten()
    })
    .unwrap_or_else(|| panic!("the host printed no join code:\n{}", tail(&seen, 30)));
    for n in 0..joiners {
        let name = format!("guest{n}");
        peers.push(Peer::spawn(
            Path::new(PEER),
            &name,
            &args(&format!(
                "join {ticket} --bot --name Guest{n} --loopback --timeout 150"
            )),
            &scratch.dir(&name),
            &tx,
        ));
    }
    let mut results: Vec<(String, GameResult)> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(150);
    while results.len() < peers.len() {
        let got = wait_line(&lines, deadline, &mut seen, |l| {
            (!l.stderr)
                .then(|| GameResult::parse(&l.text).map(|r| (l.peer.clone(), r)))
                .flatten()
        });
        match got {
            Some(r) => results.push(r),
            None => panic!(
                "only {} of {} devices finished:\n{}",
                results.len(),
                peers.len(),
                tail(&seen, 40)
            ),
        }
    }
    drop(peers);
    results.into_iter().map(|(_, r)| r).collect()
}

fn assert_same_game(results: &[GameResult]) {
    let first = &results[0];
    assert!(first.step > 10, "a whole game takes many steps: {first:?}");
    for r in results {
        assert_eq!(r.audit, "verified", "every device verifies the game: {r:?}");
        assert_eq!(
            (&r.session, r.step, &r.state),
            (&first.session, first.step, &first.state),
            "every device ends on the same step with the same state hash"
        );
    }
}

#[test]
fn three_devices_play_sprawl_over_loopback_and_end_with_equal_state_hashes() {
    with_timeout(Duration::from_secs(200), || {
        let results = play("sprawl-net", None, 0, 2);
        assert_eq!(results.len(), 3);
        assert_same_game(&results);
    });
}

#[test]
fn counting_coup_offers_cross_the_network_and_every_device_agrees() {
    // Two devices, four seats: the host's two bots and a guest answer the open
    // "Are you sure?" steps together.
    with_timeout(Duration::from_secs(200), || {
        let results = play("sprawl-coup", Some("counting-coup,overload"), 2, 1);
        assert_eq!(results.len(), 2);
        assert_same_game(&results);
    });
}
