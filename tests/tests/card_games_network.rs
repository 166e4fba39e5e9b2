//! The card games over real iroh on loopback, each a whole game on four separate `hoard`
//! processes with one guest SIGKILLed mid-game and started again from its data directory,
//! every process ending on the same verified game. One of these tables runs at a time: each
//! is four processes on a small machine. Other files' tests run beside it; these processes
//! mostly wait (about 8 s of CPU for the three games' 67 s).

use hoard_tests::procs::game_through_a_kill;
use hoard_tests::with_timeout;
use std::sync::Mutex;
use std::time::Duration;

static ONE_TABLE: Mutex<()> = Mutex::new(());

// Spree! over real iroh on loopback: five seats on four separate `hoard` processes (the
// host plays one seat and a bot another), the shared hidden deck dealt, shown and
// reshuffled, Aces answered out of turn; one guest is SIGKILLed mid-game and started again
// from its data directory, and every process ends on the same verified game, its audit
// having replayed every shuffle.
#[test]
fn a_five_seat_spree_game_survives_a_killed_peer_over_real_iroh() {
    let _one_at_a_time = ONE_TABLE.lock().unwrap_or_else(|e| e.into_inner());
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

// Freeloader over real iroh on loopback: four seats on four separate `hoard` processes, the
// 54-card shared hidden deck dealt, turned up beside the houses, drawn, played and passed in
// secret in hand-to-hand trades; one guest is SIGKILLed mid-game and started again from its
// data directory, and every process ends on the same verified game, whose audit replayed
// every shuffle and checked every card passed in a trade.
#[test]
fn a_four_seat_freeloader_game_survives_a_killed_peer_over_real_iroh() {
    let _one_at_a_time = ONE_TABLE.lock().unwrap_or_else(|e| e.into_inner());
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

// SPAMMERS over real iroh on loopback: four seats on four separate `hoard` processes, two
// shared hidden decks dealt, the starting Lists chosen in a sealed step, Mailing rolls
// answered out of turn; one guest is SIGKILLed mid-game and started again from its data
// directory, and every process ends on the same verified game, its audit having replayed
// every shuffle.
#[test]
fn a_four_seat_spammers_game_survives_a_killed_peer_over_real_iroh() {
    let _one_at_a_time = ONE_TABLE.lock().unwrap_or_else(|e| e.into_inner());
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
