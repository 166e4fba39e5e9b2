//! Spree! over real iroh on loopback: five seats on four separate `hoard` processes (the
//! host plays one seat and a bot another), the shared hidden deck dealt, shown and
//! reshuffled, Aces answered out of turn; one guest is SIGKILLed mid-game and started again
//! from its data directory, and every process ends on the same verified game, its audit
//! having replayed every shuffle.

use hoard_tests::procs::ProcTable;
use hoard_tests::{Scratch, tail, with_timeout};
use std::time::Duration;

const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(String::from).collect()
}

#[test]
fn a_five_seat_spree_game_survives_a_killed_peer_over_real_iroh() {
    with_timeout(Duration::from_secs(280), || {
        let scratch = Scratch::new("spree-network");
        let guests: Vec<String> = (1..=3).map(|i| format!("guest{i}")).collect();
        let mut table = ProcTable::start(
            PEER,
            &scratch,
            &words(
                "host --game spree --bots 1 --seats 5 --variant short,quick-answers \
                 --name Host --loopback --timeout 260",
            ),
            &guests,
            |ticket| words(&format!("join {ticket} --bot --loopback --timeout 260")),
        );
        // Guest 2 is killed well into the game: the deck has been shuffled and dealt, and
        // play has begun.
        let victim = 2;
        let name = table.peers[victim].name.clone();
        table.kill_at_step(victim, 40, Duration::from_secs(120));
        let mut resumed = false;
        let got = table.results(Duration::from_secs(200), |l| {
            if l.peer == name && l.text.contains("resuming the unfinished game") {
                resumed = true;
            }
        });
        assert!(
            resumed,
            "{name} did not resume from its data dir:\n{}",
            tail(&table.seen, 40)
        );
        table.assert_agree(&got, 60);
        println!("game over at step {}", got[0].1.step);
    });
}
