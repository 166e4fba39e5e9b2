//! SPAMMERS over real iroh on loopback: four seats on four separate `hoard` processes, two
//! shared hidden decks dealt, the starting Lists chosen in a sealed step, Mailing rolls
//! answered out of turn; one guest is SIGKILLed mid-game and started again from its data
//! directory, and every process ends on the same verified game, its audit having replayed
//! every shuffle.

use hoard_tests::procs::game_through_a_kill;
use hoard_tests::with_timeout;
use std::time::Duration;

#[test]
fn a_four_seat_spammers_game_survives_a_killed_peer_over_real_iroh() {
    with_timeout(Duration::from_secs(280), || {
        let (log, steps) = game_through_a_kill(
            env!("CARGO_BIN_EXE_hoard-peer"),
            "spammers-network",
            "host --game spammers --seats 4 --variant quick-answers --name Host --loopback \
             --timeout 260",
            3,
            3,
            40,
            60,
        );
        assert!(
            log.iter().any(|l| l.contains(" wins with Scams rated")),
            "someone won: {log:?}"
        );
        println!("game over at step {steps}, {} lines of log", log.len());
    });
}
