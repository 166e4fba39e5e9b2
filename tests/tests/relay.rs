//! Play over the internet, through a relay: three `hoard` processes, each in a network
//! namespace of its own that reaches only an iroh relay server (the `iroh-relay` crate's, as
//! the public relays run it) in a hub that forwards nothing, so no device can reach another
//! directly. They play a whole game of Counter on the shared hidden deck through the relay;
//! one guest is SIGKILLed mid-game and started again from its data directory, and every
//! device ends on the same verified game.
//!
//! Needs root (or user namespaces) and iproute2, as the LAN discovery test does; where the
//! sandbox forbids namespaces the test says so and is skipped, unless `HOARD_REQUIRE_NETNS=1`
//! makes that a failure.

use hoard_tests::netns::{RELAY_IP, RelayNet, RelayServer};
use hoard_tests::procs::{Launch, game_through_a_kill_via};
use hoard_tests::with_timeout;
use std::time::Duration;

#[test]
fn a_three_seat_game_plays_through_a_relay_with_no_direct_path_and_a_device_dropping() {
    with_timeout(Duration::from_secs(280), || {
        let net = match RelayNet::new(3) {
            Ok(net) => net,
            Err(why) => {
                let required = std::env::var("HOARD_REQUIRE_NETNS").is_ok_and(|v| v == "1");
                assert!(!required, "no network namespaces here: {why}");
                eprintln!("SKIPPED: the relay test needs network namespaces: {why}");
                return;
            }
        };
        let mut relay = RelayServer::start(
            &RelayNet::launcher(&net.hub),
            env!("CARGO_BIN_EXE_hoard-relay"),
            RELAY_IP,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let launch = Launch {
            bin: env!("CARGO_BIN_EXE_hoard-peer").into(),
            guest_network: format!("--relay-url {}", relay.url),
            launchers: net
                .devices
                .iter()
                .map(|ns| RelayNet::launcher(ns))
                .collect(),
        };
        let (log, steps) = game_through_a_kill_via(
            &launch,
            "relay",
            &format!(
                "host --game counter --seats 3 --variant quick-answers --name Host \
                 --relay-url {} --timeout 260",
                relay.url
            ),
            2,
            1,
            8,
            // Past the kill: a game of three can end as early as step 13 (seen in CI).
            9,
        );
        let (packets, bytes) = relay.relayed();
        println!(
            "game over at step {steps}, {} lines of log; the relay passed {packets} datagrams, \
             {bytes} bytes",
            log.len()
        );
        // Every step of the game crossed the relay: there is no other way between devices.
        assert!(
            packets > u64::from(steps),
            "the relay passed only {packets} datagrams in a game of {steps} steps"
        );
    });
}
