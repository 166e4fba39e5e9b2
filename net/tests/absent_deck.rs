//! Absent seats at a table dealing from a shared hidden deck (Counter): a seat the table
//! skips meets a deal, which cannot go on without its key.

use crate::common;

use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::{CoreConfig, Verdict, VoteAction};
use hoard_rules::counter::{self as ctr, Counter};
use hoard_rules::{Game, Pending, Seat};

fn cfg() -> CoreConfig<Counter> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 256,
        sit_out: Some(<Counter as Game>::sit_out),
        memo: None,
        reaction: Default::default(),
    }
}

fn counter_table(seats: u8, nonce: u8) -> Table {
    let keys = keys(seats, nonce);
    let mut config = ctr::Config::new(seats);
    config.turns = 40;
    let start = start_for::<Counter>(&config, &keys, nonce);
    let devices: Vec<Box<dyn Device>> = (0..seats as usize)
        .map(|i| bot::<Counter>(&start, &keys[i], i as u8, cfg()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

fn is_deal(p: Option<Pending>) -> bool {
    matches!(p, Some(Pending::Deal { .. } | Pending::Reveal { .. }))
}

/// Issue: "Skip, then a deal: stuck. A standing 'skip their turns' signs a skip vote at the
/// next deal ... and switching to 'Remove' is silently ignored". A skip is never signed
/// where it cannot pass: the deal says it needs a removal, the players switch, and the
/// game plays to a verified end.
#[test]
fn a_table_skipping_a_seat_that_meets_a_deal_is_asked_to_remove_it_and_goes_on() {
    let mut t = counter_table(3, 51);
    let turn_of_2 = |t: &Table| {
        t.devices[0].pending() == Some(Pending::Turn { seat: 2 })
            && t.devices.iter().all(|d| d.step() == t.devices[0].step())
    };
    assert!(t.run_until(400_000, 10, turn_of_2));
    t.devices[2].set_down(true);
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Skip)
            .unwrap();
    }
    // The table skips seat 2 until a deal waits on its decryption shares.
    let skipped_from = t.devices[0].step() as usize;
    assert!(
        t.run_until(400_000, 100, |t| is_deal(t.devices[0].pending())
            && t.devices[0].step() as usize > skipped_from
            && t.devices[..2].iter().all(|d| d.is_away(2))),
        "no deal waited on seat 2 (step {}, {:?})",
        t.devices[0].step(),
        t.devices[0].pending()
    );
    let records = t.devices[0].records();
    assert!(
        records[skipped_from..].iter().any(|r| matches!(r,
            StepRecord::Inputs { plays, .. } if plays.contains(&(2, PlayRecord::SatOut)))),
        "seat 2 was skipped before the deal"
    );
    let deal = t.devices[0].step();
    t.run_until(2_000, 100, |_| false);
    assert_eq!(
        t.devices[0].step(),
        deal,
        "a deal went on without seat 2's key"
    );
    // No skip vote was signed at the deal, and the screen is told what the step needs.
    for i in 0..2 {
        assert!(
            !t.signed_from(i)
                .iter()
                .any(|s| s.step == deal && matches!(s.body, hoard_net::wire::Body::Vote { .. })),
            "device {i} signed a vote that cannot pass"
        );
        let why = t.devices[i].cannot_go_on_without(2, VoteAction::Skip);
        assert!(why.is_some_and(|w| w.contains("remove")));
        assert_eq!(
            t.devices[i].cannot_go_on_without(2, VoteAction::Remove),
            None
        );
    }
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Remove)
            .unwrap();
    }
    assert!(t.run_until(4_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    for d in &t.devices[..2] {
        assert_eq!(d.verdict(), Some(Verdict::Verified { unchecked: vec![2] }));
    }
    assert_eq!(t.devices[0].records(), t.devices[1].records());
    let _: Seat = 0;
}

/// Runs until the table waits on seat `seat` at a turn of its own, with every device of
/// `here` there.
fn until_turn_of(t: &mut Table, seat: Seat, here: &[usize]) {
    assert!(t.run_until(400_000, 10, |t| {
        t.devices[0].pending() == Some(Pending::Turn { seat })
            && here
                .iter()
                .all(|&i| t.devices[i].step() == t.devices[0].step())
    }));
}

/// Seat `gone` loses power; every device in `here` sees it away and chooses to remove it.
fn remove(t: &mut Table, gone: Seat, here: &[usize]) {
    t.devices[gone as usize].set_down(true);
    assert!(t.run_until(200_000, 100, |t| {
        here.iter().all(|&i| t.devices[i].is_away(gone))
    }));
    for &i in here {
        t.devices[i]
            .go_on_without(t.now, gone, VoteAction::Remove)
            .unwrap();
    }
}

/// Issue: "A second removal in a deck game splits honest devices". Two seats of four are
/// removed one after the other, the second after the first is gone for good: the deck goes
/// on (the second seat's key is put together from the parts the others hold, the first
/// removed seat's part read with its own key, which the table already knows), and the game
/// ends verified on both devices left.
#[test]
fn a_second_seat_removed_after_the_first_keeps_the_deck_alive() {
    let mut t = counter_table(4, 53);
    until_turn_of(&mut t, 3, &[0, 1, 2, 3]);
    remove(&mut t, 3, &[0, 1, 2]);
    assert!(t.run_until(400_000, 100, |t| {
        t.devices[..3].iter().all(|d| {
            d.records().iter().any(|r| {
                matches!(r,
                StepRecord::Inputs { plays, .. } if plays.contains(&(3, PlayRecord::Removed)))
            })
        })
    }));
    until_turn_of(&mut t, 2, &[0, 1, 2]);
    remove(&mut t, 2, &[0, 1]);
    let done = t.run_until(4_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    });
    assert!(
        done,
        "stuck at step {} / {}: {:?}",
        t.devices[0].step(),
        t.devices[1].step(),
        t.devices[0].pending()
    );
    for d in &t.devices[..2] {
        assert_eq!(
            d.verdict(),
            Some(Verdict::Verified {
                unchecked: vec![2, 3]
            })
        );
    }
    assert_eq!(t.devices[0].records(), t.devices[1].records());
}

/// Issue: "A removal before the first shuffle gives the false verdict 'a shuffle was
/// dishonest'". A seat gone before it shuffled has escrowed no part of its key, and the deck
/// is locked with it: the shuffle cannot go on without it (the players are told so), but
/// they can end the game, removing it, and the audit finds nothing wrong.
#[test]
fn a_seat_gone_before_its_first_shuffle_can_be_removed_only_by_ending_the_game() {
    let mut t = counter_table(3, 55);
    // Seat 2's device goes before its first shuffle part.
    t.devices[2].set_down(true);
    assert!(t.run_until(200_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    assert!(matches!(
        t.devices[0].pending(),
        Some(Pending::Shuffle { .. })
    ));
    let step = t.devices[0].step();
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Remove)
            .unwrap();
        let why = t.devices[i].cannot_go_on_without(2, VoteAction::Remove);
        assert!(why.is_some_and(|w| w.contains("end the game")));
    }
    t.run_until(20_000, 100, |_| false);
    assert_eq!(
        t.devices[0].step(),
        step,
        "the deck was made without seat 2's key"
    );
    for i in 0..2 {
        t.devices[i].agree_to_end(t.now).unwrap();
    }
    let done = t.run_until(4_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    });
    assert!(
        done,
        "stuck at step {}: {:?}",
        t.devices[0].step(),
        t.devices[0].pending()
    );
    for d in &t.devices[..2] {
        assert!(d.ended_by_agreement().is_some());
        assert_eq!(d.verdict(), Some(Verdict::Verified { unchecked: vec![2] }));
    }
    assert_eq!(t.devices[0].records(), t.devices[1].records());
}
