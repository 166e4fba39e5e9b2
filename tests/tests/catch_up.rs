//! A seat whose device goes away while the table votes to go on without it comes back,
//! catches up on every step it missed from its peers (over iroh on loopback), and plays
//! on to a game every device agrees on and the audit verifies.

use hoard_tests::table::LoopTable;
use hoard_tests::{Scratch, with_timeout};
use std::time::{Duration, Instant};

#[test]
fn a_seat_away_for_dozens_of_skipped_steps_catches_up_and_plays_on() {
    with_timeout(Duration::from_secs(120), || {
        let scratch = Scratch::new("catch-up");
        let mut table = LoopTable::new(&scratch.path, 4, 60, 150);
        let all: Vec<usize> = (0..4).collect();
        let live: Vec<usize> = (0..3).collect();
        for d in &all {
            table.auto(*d, true);
        }
        table.until(Duration::from_secs(30), "step 10", |t| t.all_at(&all, 10));

        table.stop(3);
        let left_at = table.step(0);
        table.until(Duration::from_secs(60), "40 steps without seat 3", |t| {
            t.all_at(&live, left_at + 40)
        });
        for d in &live {
            table.auto(*d, false);
        }
        // Let the table settle where it waits for the live seats' moves.
        let settle = Instant::now() + Duration::from_millis(400);
        table.until(Duration::from_secs(5), "a quiet table", |_| {
            Instant::now() >= settle
        });
        let target = live.iter().map(|d| table.step(*d)).max().unwrap_or(0);
        assert!(target >= left_at + 40);

        let back = Instant::now();
        table.restart(3);
        table.until(Duration::from_secs(30), "seat 3 caught up", |t| {
            t.step(3) >= target
        });
        println!(
            "seat 3 caught up {} steps in {:?}",
            target.saturating_sub(left_at),
            back.elapsed()
        );

        for d in &all {
            table.auto(*d, true);
        }
        table.until(Duration::from_secs(60), "every audit", |t| {
            t.last
                .iter()
                .all(|s| s.as_ref().is_some_and(|s| s.verified.is_some()))
        });
        table.assert_all_verified_alike();
    });
}
