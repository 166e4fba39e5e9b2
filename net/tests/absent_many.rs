//! Absent seats in combination: two and three seats gone at once, one after another, a
//! table cut in two, and a vote about a step long past. The table goes on, or ends, without
//! any seats gone as long as the seats left are a quorum (more than half, or half holding
//! the first seat); seats gone one at a time can be removed down to one player; two halves
//! never both go on; and no late vote may take an honest device back.

use crate::common;

use common::highcard::{self, Config, HighCard};
use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::wire::{Body, Signed, Wire};
use hoard_net::{CoreConfig, Verdict, VoteAction};
use hoard_rules::{Pending, Seat};

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

fn table(seats: u8, nonce: u8, rounds: u8) -> Table {
    let keys = keys(seats, nonce);
    let start = start_for::<HighCard>(&Config { seats, rounds }, &keys, nonce);
    let devices: Vec<Box<dyn Device>> = (0..seats as usize)
        .map(|i| bot::<HighCard>(&start, &keys[i], i as u8, cfg()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

/// A table of `seats` at a round's sealed plays, whose seats `gone` have just lost power,
/// and whose other devices all see them away.
fn gone_at_a_round(seats: u8, gone: &[usize]) -> Table {
    let mut t = table(seats, 31, 6);
    let plays_together = |t: &Table| {
        matches!(t.devices[0].pending(), Some(Pending::Together { .. }))
            && t.devices.iter().all(|d| d.step() == t.devices[0].step())
    };
    assert!(t.run_until(100_000, 10, plays_together));
    for &g in gone {
        t.devices[g].set_down(true);
    }
    let here: Vec<usize> = (0..seats as usize).filter(|i| !gone.contains(i)).collect();
    assert!(t.run_until(100_000, 100, |t| {
        here.iter()
            .all(|&i| gone.iter().all(|&g| t.devices[i].is_away(g as Seat)))
    }));
    t
}

/// The steps at which `seat` sat out, in a log.
fn sat_out_count(records: &[StepRecord], seat: Seat) -> usize {
    records
        .iter()
        .filter(|r| {
            matches!(r, StepRecord::Inputs { plays, .. }
                if plays.iter().any(|(s, p)| *s == seat && *p == PlayRecord::SatOut))
        })
        .count()
}

/// The devices' logs agree: each is the start of the longest (a device may be a step
/// behind in the middle of a game), and none has seen a divergence.
fn same_logs(t: &Table, devices: &[usize]) {
    let longest = devices
        .iter()
        .map(|&i| t.devices[i].records())
        .max_by_key(|r| r.len())
        .unwrap_or_default();
    for &i in devices {
        let records = t.devices[i].records();
        assert_eq!(records[..], longest[..records.len()], "device {i}'s log");
        assert!(t.devices[i].divergences().is_empty(), "device {i} diverged");
    }
}

/// The devices' logs and states are the same.
fn same_ends(t: &Table, devices: &[usize]) {
    same_logs(t, devices);
    for &i in devices {
        assert_eq!(t.devices[i].records(), t.devices[devices[0]].records());
        assert_eq!(t.devices[i].state(), t.devices[devices[0]].state());
    }
}

/// Issue: "Two seats gone at once stall the table for good: each dead seat is part of the
/// other's electorate". The two seats left skip both, round after round, then remove both,
/// and finish the game to a verified audit.
#[test]
fn two_seats_gone_at_once_are_skipped_together_and_then_removed() {
    let mut t = gone_at_a_round(4, &[2, 3]);
    for i in 0..2 {
        for g in [2, 3] {
            t.devices[i]
                .go_on_without(t.now, g, VoteAction::Skip)
                .unwrap();
        }
    }
    assert!(
        t.run_until(200_000, 100, |t| {
            let r = t.devices[0].records();
            sat_out_count(&r, 2) >= 3 && sat_out_count(&r, 3) >= 3
        }),
        "the table did not go on without seats 2 and 3 (at step {})",
        t.devices[0].step()
    );
    same_logs(&t, &[0, 1]);
    for i in 0..2 {
        for g in [2, 3] {
            t.devices[i]
                .go_on_without(t.now, g, VoteAction::Remove)
                .unwrap();
        }
    }
    assert!(t.run_until(2_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    for d in &t.devices[..2] {
        assert_eq!(
            d.verdict(),
            Some(Verdict::Verified {
                unchecked: vec![2, 3]
            })
        );
    }
    same_ends(&t, &[0, 1]);
}

/// Issue: "'End game' by everyone left does nothing either". With two of four seats gone,
/// the two left end the game by agreement, removing the two gone, and the audit runs.
#[test]
fn the_players_left_end_the_game_with_two_seats_gone() {
    let mut t = gone_at_a_round(4, &[2, 3]);
    for i in 0..2 {
        for g in [2, 3] {
            t.devices[i]
                .go_on_without(t.now, g, VoteAction::Remove)
                .unwrap();
        }
        t.devices[i].agree_to_end(t.now).unwrap();
    }
    assert!(t.run_until(2_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    for d in &t.devices[..2] {
        assert!(d.ended_by_agreement().is_some(), "not ended by agreement");
        assert!(
            d.verdict().is_some_and(|v| v.is_verified()),
            "{:?}",
            d.verdict()
        );
    }
    same_ends(&t, &[0, 1]);
}

/// Three of four seats gone at once: the one player left cannot tell them gone from its
/// own device cut off, so it cannot decide for the table alone (DESIGN: "Any two quorums
/// share a seat"). Its choices to remove them and to end stand, the table waits and says
/// why, and when the three are back the game plays on to the same end on every device.
#[test]
fn the_one_player_left_of_four_waits_for_three_gone_at_once_and_plays_on_when_they_are_back() {
    let mut t = gone_at_a_round(4, &[1, 2, 3]);
    let step = t.devices[0].step();
    for g in [1, 2, 3] {
        t.devices[0]
            .go_on_without(t.now, g, VoteAction::Remove)
            .unwrap();
    }
    t.devices[0].agree_to_end(t.now).unwrap();
    assert!(!t.run_until(200_000, 100, |t| t.devices[0].step() != step));
    assert!(t.devices[0].verdict().is_none());
    assert!(t.devices[0].ended_by_agreement().is_none());
    let why = t.devices[0]
        .too_few_to_decide()
        .expect("the screen says why");
    assert!(why.contains("only 1 of the 4 seats"), "{why}");
    for g in [1, 2, 3] {
        t.devices[g].set_down(false);
        for other in 0..4 {
            if other != g {
                let key = t.keys[other].public();
                t.devices[g].connected(t.now, key);
            }
        }
    }
    assert!(
        t.finish(),
        "the table did not finish once the three were back"
    );
    same_ends(&t, &[0, 1, 2, 3]);
    for d in &t.devices {
        assert!(d.verdict().is_some_and(|v| v.is_verified()));
    }
}

/// Seats that go one at a time can each be removed as they go, down to one player, who
/// plays the game out alone: each removal was decided by more than half of the seats
/// still in (three of four, two of three, one of two holding the first seat).
#[test]
fn seats_gone_one_at_a_time_are_removed_down_to_one_player_who_plays_to_the_end() {
    let mut t = gone_at_a_round(4, &[3]);
    for left in [3usize, 2, 1] {
        if left != 3 {
            t.devices[left].set_down(true);
            let here: Vec<usize> = (0..left).collect();
            assert!(t.run_until(200_000, 100, |t| {
                here.iter().all(|&i| t.devices[i].is_away(left as Seat))
            }));
        }
        for i in 0..left {
            t.devices[i]
                .go_on_without(t.now, left as Seat, VoteAction::Remove)
                .unwrap();
        }
        assert!(
            t.run_until(400_000, 100, |t| {
                t.devices[0].records().iter().any(|r| {
                    matches!(r, StepRecord::Inputs { plays, .. }
                        if plays.iter().any(|(s, p)| *s as usize == left && *p == PlayRecord::Removed))
                })
            }),
            "seat {left} was not removed (at step {})",
            t.devices[0].step()
        );
    }
    assert!(t.run_until(2_000_000, 100, |t| t.devices[0].verdict().is_some()));
    assert!(t.devices[0].ended_by_agreement().is_none());
    assert_eq!(
        t.devices[0].verdict(),
        Some(Verdict::Verified {
            unchecked: vec![1, 2, 3]
        })
    );
}

/// The returning-device table the device simulator found (its seed 64): two halves of a
/// table that cannot hear each other each see the other away and each choose to go on
/// without it. Only the half that is a quorum (two of four, holding the first seat) goes
/// on; the other waits, and once the two halves hear each other again every device ends
/// on the same game. Before quorums, each half played its own game to a different end.
#[test]
fn two_halves_of_a_table_cut_apart_never_play_two_games() {
    use std::cell::Cell;
    use std::rc::Rc;
    let mut t = table(4, 37, 6);
    let plays_together = |t: &Table| {
        matches!(t.devices[0].pending(), Some(Pending::Together { .. }))
            && t.devices.iter().all(|d| d.step() == t.devices[0].step())
    };
    assert!(t.run_until(100_000, 10, plays_together));
    let cut = Rc::new(Cell::new(true));
    let keys: Vec<_> = t.keys.iter().map(|k| k.public()).collect();
    let cut_now = cut.clone();
    t.tamper = Some(Box::new(move |from, tr| {
        let to = keys.iter().position(|k| *k == tr.to)?;
        (cut_now.get() && (from < 2) != (to < 2)).then(Vec::new)
    }));
    let halves = [[0usize, 1], [2, 3]];
    assert!(t.run_until(200_000, 100, |t| {
        halves.iter().all(|h| {
            let other = if h[0] == 0 { [2, 3] } else { [0, 1] };
            h.iter()
                .all(|&i| other.iter().all(|&o| t.devices[i].is_away(o as Seat)))
        })
    }));
    let step = t.devices[2].step();
    for h in halves {
        let other = if h[0] == 0 { [2, 3] } else { [0, 1] };
        for &i in &h {
            for &o in &other {
                t.devices[i]
                    .go_on_without(t.now, o as Seat, VoteAction::Skip)
                    .unwrap();
            }
        }
    }
    assert!(
        t.run_until(400_000, 100, |t| sat_out_count(&t.devices[0].records(), 2)
            >= 3),
        "the half holding the first seat did not go on"
    );
    assert_eq!(t.devices[2].step(), step, "the other half went on too");
    assert_eq!(t.devices[3].step(), step, "the other half went on too");
    assert!(t.devices[2].too_few_to_decide().is_some());
    cut.set(false);
    for i in 0..4 {
        for o in 0..4 {
            if i != o {
                let key = t.keys[o].public();
                t.devices[i].connected(t.now, key);
            }
        }
    }
    assert!(
        t.finish(),
        "the table did not finish once whole again:\n{}",
        t.devices
            .iter()
            .map(|d| d.describe())
            .collect::<Vec<_>>()
            .join("\n")
            + &format!(
                "\nrefused: {:?}",
                &t.refused[t.refused.len().saturating_sub(6)..]
            )
    );
    same_ends(&t, &[0, 1, 2, 3]);
    for d in &t.devices {
        assert!(
            d.verdict().is_some_and(|v| v.is_verified()),
            "{:?}",
            d.verdict()
        );
    }
}

/// Plays a 2-seat game to step 24, then seat 0 signs a vote to skip seat 1 at the step
/// `pick` chooses, one at which seat 1 played and seat 0 went on: device 1 must not go
/// back, and the game ends the same on both.
fn a_late_vote_about(pick: impl Fn(&[usize], &[u32]) -> usize) {
    let mut t = table(2, 35, 8);
    assert!(t.run_until(1_000_000, 10, |t| t.devices[0].step() >= 24));
    let records = t.devices[1].records();
    let played: Vec<usize> = (0..records.len() - 1)
        .filter(|i| {
            matches!(&records[*i], StepRecord::Inputs { plays, .. }
                if plays.iter().any(|(s, p)| *s == 1 && *p != PlayRecord::SatOut))
        })
        .collect();
    let signed: Vec<u32> = t.signed_from(0).iter().map(|s| s.step).collect();
    let past = pick(&played, &signed) as u32;
    // Seat 0's own message at that step gives the step's basis.
    let theirs = t
        .signed_from(0)
        .into_iter()
        .find(|s| s.step == past)
        .expect("seat 0 signed at that step");
    let vote = Signed::sign(
        &t.keys[0],
        t.start.session(),
        0,
        past,
        theirs.basis,
        Body::Vote {
            target: 1,
            action: VoteAction::Skip,
        },
    );
    let before = t.devices[1].step();
    let from = t.keys[0].public();
    let _ = t.inject(1, from, &Wire::Signed(vote).encode());
    assert!(
        t.devices[1].step() >= before,
        "device 1 went back from step {before} to {} for a vote about step {past}",
        t.devices[1].step()
    );
    assert!(t.finish());
    same_ends(&t, &[0, 1]);
}

/// Issue: "A vote about a step long past rewinds a 2-seat game: one signed skip vote about
/// step 5, sent at step 61, sent the other device back to step 6". A vote reaches back
/// only so far.
#[test]
fn a_vote_about_a_step_long_past_takes_no_device_back() {
    a_late_vote_about(|played, _| played[0]);
}

/// "Refuse a vote that contradicts what its own seat has signed since": seat 0 signed a
/// later step on the log where this one went on with seat 1's move, so its vote about it
/// counts for nothing, however recent.
#[test]
fn a_vote_its_own_seat_has_contradicted_since_takes_no_device_back() {
    a_late_vote_about(|played, signed| {
        let last = *signed.iter().max().expect("seat 0 signed");
        *played
            .iter()
            .rev()
            .find(|p| (**p as u32) < last)
            .expect("seat 1 played before seat 0's last message")
    });
}

/// Issue 27: "votes about 'seats' that do not exist" were kept and echoed. A vote about a
/// seat the table does not have, or a seat's vote about itself, is refused on arrival.
#[test]
fn a_vote_about_no_seat_or_about_its_own_seat_is_refused() {
    let mut t = table(4, 37, 4);
    assert!(t.run_until(100_000, 10, |t| t.devices[0].step() >= 2));
    let theirs = t.signed_from(0).pop().expect("seat 0 signed");
    for target in [4, 200, 0] {
        let vote = Signed::sign(
            &t.keys[0],
            t.start.session(),
            0,
            theirs.step,
            theirs.basis,
            Body::Vote {
                target,
                action: VoteAction::Skip,
            },
        );
        let from = t.keys[0].public();
        let refused = t.inject(1, from, &Wire::Signed(vote).encode());
        assert!(refused.is_err(), "a vote about seat {target} was taken");
    }
    // Nothing of them was passed on.
    t.run_until(1_000, 10, |t| t.queue.is_empty());
    assert!(t.signed_from(1).iter().all(|s| !matches!(
        s.body,
        Body::Vote { target, .. } if target >= 4 || target == s.seat
    )));
}

/// A seat whose vote is needed about another, and whose device is up, is not called away
/// while its player thinks: only a seat not heard from is. (A seat gone too is: see
/// `two_seats_gone_at_once_are_skipped_together_and_then_removed`.)
#[test]
fn a_player_yet_to_choose_about_an_away_seat_is_not_called_away() {
    let mut t = gone_at_a_round(3, &[2]);
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    // Seat 1's player looks at the question for a minute and chooses nothing.
    let start = t.now;
    t.run_until(200_000, 100, |t| {
        t.now.as_millis() > start.as_millis() + 60_000
    });
    assert!(
        !t.devices[0].is_away(1),
        "seat 1 was called away while there"
    );
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    assert!(t.run_until(200_000, 100, |t| {
        sat_out_count(&t.devices[0].records(), 2) >= 1
    }));
}

/// A late vote from a seat that went on cannot split two honest devices. Seat 2 comes back
/// with its move just as seat 0 votes to skip it; seat 1 plays on with the move, then (as a
/// modified device) signs a vote to skip seat 2 too. Seat 0, holding its step for its own
/// vote, takes the two votes and skips seat 2; seat 2's device, though seat 1 went on, must
/// go back to the step, since seat 0 (whose vote the skip needs) never went on.
#[test]
fn a_late_vote_from_a_seat_that_went_on_does_not_split_the_honest_devices() {
    let mut t = table(3, 39, 6);
    let owes = |t: &Table| {
        t.devices[0].pending() == Some(Pending::Turn { seat: 2 })
            && t.devices.iter().all(|d| d.step() == t.devices[0].step())
    };
    assert!(t.run_until(200_000, 10, owes), "seat 2 never won a round");
    let n = t.devices[0].step();
    t.devices[2].set_plays(false);
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    // Seat 2 moves; seat 0 votes to skip it before the move reaches it.
    t.devices[2].set_plays(true);
    assert!(t.devices[2].act(t.now));
    t.collect(2);
    t.devices[0].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.collect(0);
    // Seat 1 gets the move first and plays on; nothing reaches seat 0 for now.
    t.hold = vec![0];
    assert!(t.run_until(10_000, 10, |t| t.devices[1].step() > n));
    let basis = t
        .signed_from(0)
        .into_iter()
        .find(|s| s.step == n)
        .expect("seat 0's vote")
        .basis;
    let vote = Signed::sign(
        &t.keys[1],
        t.start.session(),
        1,
        n,
        basis,
        Body::Vote {
            target: 2,
            action: VoteAction::Skip,
        },
    );
    let bytes = Wire::Signed(vote).encode();
    let from = t.keys[1].public();
    let _ = t.inject(0, from, &bytes);
    let _ = t.inject(2, from, &bytes);
    let skipped = |t: &Table, i: usize| {
        matches!(t.devices[i].records().get(n as usize), Some(StepRecord::Inputs { plays, .. })
            if plays.contains(&(2, PlayRecord::SatOut)))
    };
    assert!(skipped(&t, 0), "seat 0 took the two votes");
    t.run_until(2_000, 10, |t| t.queue.is_empty());
    assert!(
        skipped(&t, 2),
        "seat 2's device stayed on the move seat 0 skipped"
    );
    t.release();
    assert!(t.finish());
    same_ends(&t, &[0, 2]);
}
