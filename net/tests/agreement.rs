//! Ending a game by agreement (issue 14): every seat still in the game signs "I agree to end
//! the game here" for the same step; the log records it, and the reveal and the audit run as
//! after any end. Fewer than all is no end; an away seat blocks it until the table removes it;
//! a device restarted after agreeing comes back to the same end.

use crate::common;

use common::highcard::{self, Config, HighCard};
use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::log::StepRecord;
use hoard_net::wire::Body;
use hoard_net::{CoreConfig, Verdict, VoteAction};
use hoard_rules::{Outcome, Pending};

fn cfg() -> CoreConfig<HighCard> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 64,
        sit_out: Some(highcard::sit_out),
        memo: None,
        reaction: Default::default(),
    }
}

fn table(nonce: u8) -> Table {
    let keys = keys(3, nonce);
    let start = start_for::<HighCard>(
        &Config {
            seats: 3,
            rounds: 4,
        },
        &keys,
        nonce,
    );
    let devices: Vec<Box<dyn Device>> = (0..3)
        .map(|i| bot::<HighCard>(&start, &keys[i], i as u8, cfg()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

/// Whether every device is at the same step, waiting on players' moves, with nothing in
/// flight.
fn settled(t: &Table) -> bool {
    let step = t.devices[0].step();
    t.queue.is_empty()
        && t.devices.iter().all(|d| d.step() == step)
        && matches!(
            t.devices[0].pending(),
            Some(Pending::Turn { .. } | Pending::Together { .. })
        )
}

/// A table a round or so into the game, every player thinking: the table waits on moves.
fn mid_game(nonce: u8) -> Table {
    let mut t = table(nonce);
    assert!(t.run_until(100_000, 10, |t| t.devices[0].step() >= 4));
    for d in &mut t.devices {
        d.set_plays(false);
    }
    assert!(t.run_until(100_000, 10, settled), "the table never settled");
    t
}

fn all_equal(t: &Table) {
    for (i, d) in t.devices.iter().enumerate() {
        assert_eq!(d.records(), t.devices[0].records(), "device {i}'s log");
        assert_eq!(d.state(), t.devices[0].state(), "device {i}'s state");
    }
}

/// "Every seated player votes": two of three agreeing is not the table's decision. The step
/// is played as usual (the two hold it only until the third shows it went on), and so is the
/// rest of the game.
#[test]
fn two_of_three_agreeing_is_no_end_and_the_game_plays_on_to_a_verified_finish() {
    let mut t = mid_game(3);
    let n = t.devices[0].step();
    t.devices[0].agree_to_end(t.now).unwrap();
    t.devices[1].agree_to_end(t.now).unwrap();
    t.collect(0);
    t.collect(1);
    t.run_until(10_000, 10, |t| t.queue.is_empty());
    assert!(
        t.devices
            .iter()
            .all(|d| d.step() == n && d.verdict().is_none())
    );

    for d in &mut t.devices {
        d.set_plays(true);
    }
    assert!(t.finish());
    all_equal(&t);
    for (i, d) in t.devices.iter().enumerate() {
        assert!(
            d.verdict().is_some_and(|v| v.is_verified()),
            "device {i}: {:?}",
            d.verdict()
        );
        assert_eq!(d.ended_by_agreement(), None, "device {i}");
    }
    // The third seat told the two how step n ended: a head on the next step.
    assert!(
        t.signed_from(2)
            .iter()
            .any(|s| s.step == n + 1 && s.body == Body::Head),
        "no head from seat 2"
    );
    let records = t.devices[0].records();
    assert!(
        records.len() as u32 > n + 1,
        "the game went on past step {n}"
    );
    assert!(matches!(records[n as usize], StepRecord::Inputs { .. }));
    assert!(
        !records
            .iter()
            .any(|r| matches!(r, StepRecord::Ended { .. }))
    );
    // Played out, it has winners.
    assert!(matches!(
        t.devices[0].pending(),
        Some(Pending::Over(Outcome { winners, .. })) if !winners.is_empty()
    ));
}

/// "Every seated player votes; the log records it; the audit runs": the step all three agreed
/// at is the log's last record, every device reaches the same end with no winner, and every
/// device's audit verifies the game so far.
#[test]
fn every_seat_agreeing_ends_the_game_there_and_every_device_verifies_it() {
    let mut t = mid_game(4);
    let n = t.devices[0].step();
    let state = t.devices[0].state();
    for i in 0..3 {
        t.devices[i].agree_to_end(t.now).unwrap();
        t.collect(i);
    }
    assert!(t.finish());
    all_equal(&t);
    for (i, d) in t.devices.iter().enumerate() {
        assert_eq!(d.ended_by_agreement(), Some(n), "device {i}");
        let records = d.records();
        assert_eq!(
            records.len() as u32,
            n + 1,
            "device {i}: nothing after the end"
        );
        assert_eq!(
            records.last(),
            Some(&StepRecord::Ended { by: vec![0, 1, 2] })
        );
        assert_eq!(d.verdict(), Some(Verdict::Verified { unchecked: vec![] }));
        assert_eq!(d.pending(), Some(Pending::Over(Outcome::default())));
        assert_eq!(d.state(), state, "device {i}: ending plays nothing");
    }
    assert!(t.devices[0].agree_to_end(t.now).is_err(), "over is over");
}

/// A device killed just after its player agreed keeps that agreement (it was written before
/// it was sent): the others agree while it restarts, and it comes back to the same end. A
/// device restarted after the end comes back ended and verified, with nothing to wait for.
#[test]
fn a_device_restarted_after_agreeing_comes_back_to_the_same_end() {
    let mut t = mid_game(5);
    let n = t.devices[0].step();
    t.devices[0].agree_to_end(t.now).unwrap();
    t.collect(0);
    t.devices[0].restart(t.now).unwrap();
    let keys = t.keys.clone();
    for i in [1, 2] {
        t.devices[i].connected(t.now, keys[0].public());
        t.devices[0].connected(t.now, keys[i].public());
    }
    t.collect(0);
    for i in [1, 2] {
        t.devices[i].agree_to_end(t.now).unwrap();
        t.collect(i);
    }
    assert!(t.finish());
    all_equal(&t);
    assert_eq!(t.devices[0].ended_by_agreement(), Some(n));
    assert!(t.devices[0].verdict().is_some_and(|v| v.is_verified()));

    t.devices[1].restart(t.now).unwrap();
    assert_eq!(t.devices[1].ended_by_agreement(), Some(n));
    assert_eq!(
        t.devices[1].verdict(),
        Some(Verdict::Verified { unchecked: vec![] })
    );
    assert_eq!(t.devices[1].records(), t.devices[0].records());
}

/// "An away seat blocks it (it must agree too), unless removed by vote": with seat 2 gone,
/// the other two agreeing ends nothing; once they vote to remove it, the game ends there by
/// their agreement and the audit verifies every seat but the removed one.
#[test]
fn an_away_seat_blocks_the_end_until_the_table_removes_it() {
    let mut t = mid_game(6);
    let n = t.devices[0].step();
    t.devices[2].set_down(true);
    t.devices[0].set_plays(true);
    t.devices[1].set_plays(true);
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    assert_eq!(t.devices[0].step(), n, "the table waits for seat 2");
    for i in 0..2 {
        t.devices[i].agree_to_end(t.now).unwrap();
        t.collect(i);
    }
    assert!(
        !t.run_until(2_000, 100, |t| t.devices[0].ended_by_agreement().is_some()),
        "two of three ended the game"
    );
    for i in 0..2 {
        t.devices[i].vote(t.now, 2, VoteAction::Remove).unwrap();
        t.collect(i);
    }
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    for (i, d) in t.devices[..2].iter().enumerate() {
        assert_eq!(d.ended_by_agreement(), Some(n), "device {i}");
        assert_eq!(
            d.records().last(),
            Some(&StepRecord::Ended { by: vec![0, 1] })
        );
        assert_eq!(d.verdict(), Some(Verdict::Verified { unchecked: vec![2] }));
    }
}
