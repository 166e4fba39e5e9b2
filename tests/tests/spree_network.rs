//! Spree! over real iroh on loopback: five seats on four separate `hoard` processes (the
//! host plays one seat and a bot another), the shared hidden deck dealt, shown and
//! reshuffled, Aces answered out of turn; one guest is SIGKILLed mid-game and started again
//! from its data directory, and every process ends on the same verified game, its audit
//! having replayed every shuffle.

use hoard_tests::procs::game_through_a_kill;
use hoard_tests::with_timeout;
use std::time::Duration;

#[test]
fn a_five_seat_spree_game_survives_a_killed_peer_over_real_iroh() {
    with_timeout(Duration::from_secs(280), || {
        let (log, steps) = game_through_a_kill(
            env!("CARGO_BIN_EXE_hoard-peer"),
            "spree-network",
            "host --game spree --bots 1 --seats 5 --variant short,quick-answers \
             --name Host --loopback --timeout 260",
            3,
            2,
            40,
            60,
        );
        assert!(
            log.iter()
                .any(|l| l.contains("locks") && l.contains("points in the car")),
            "someone scored: {log:?}"
        );
        println!("game over at step {steps}, {} lines of log", log.len());
    });
}
