//! Freeloader over real iroh on loopback: four seats on four separate `hoard` processes, the
//! 54-card shared hidden deck dealt, turned up beside the houses, drawn, played and passed in
//! secret in hand-to-hand trades; one guest is SIGKILLed mid-game and started again from its
//! data directory, and every process ends on the same verified game, whose audit replayed
//! every shuffle and checked every card passed in a trade.

use hoard_tests::procs::game_through_a_kill;
use hoard_tests::with_timeout;
use std::time::Duration;

#[test]
fn a_four_seat_freeloader_game_survives_a_killed_peer_over_real_iroh() {
    with_timeout(Duration::from_secs(280), || {
        let (log, steps) = game_through_a_kill(
            env!("CARGO_BIN_EXE_hoard-peer"),
            "freeloader-network",
            "host --game freeloader --seats 4 --name Host --loopback --timeout 260",
            3,
            1,
            30,
            60,
        );
        // A hidden card given in a trade is told without its face ("gives X a card").
        let secret = log
            .iter()
            .filter(|l| l.contains(" gives ") && l.ends_with(" a card."))
            .count();
        assert!(
            log.iter().any(|l| l.contains("The last card is drawn")),
            "the game ran the deck out: {log:?}"
        );
        println!("game over at step {steps}, {secret} hidden cards given in trades");
    });
}
