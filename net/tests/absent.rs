//! Seats that go away and come back: the table's votes, a vote racing the seat's own move,
//! a restart from the store's real files, catching up after many skipped steps, and a
//! device whose rules disagree with the table's.

use crate::common;

use common::highcard::{self, Config, HighCard, Input, Phase, Private, Public};
use common::table::{Device, Table, bot, keys, start_for, stored_bot};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::wire::{Body, Wire};
use hoard_net::{CoreConfig, VoteAction};
use hoard_rules::{Game, Pending, RuleError, Seat, Step};

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

fn table(nonce: u8, rounds: u8) -> Table {
    let keys = keys(3, nonce);
    let start = start_for::<HighCard>(&Config { seats: 3, rounds }, &keys, nonce);
    let devices: Vec<Box<dyn Device>> = (0..3)
        .map(|i| bot::<HighCard>(&start, &keys[i], i as u8, cfg()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

fn all_verified_and_equal(t: &Table) {
    for (i, d) in t.devices.iter().enumerate() {
        assert!(
            d.verdict().is_some_and(|v| v.is_verified()),
            "device {i}: {:?}",
            d.verdict()
        );
        assert_eq!(d.records(), t.devices[0].records(), "device {i}'s log");
        assert_eq!(d.state(), t.devices[0].state(), "device {i}'s state");
    }
}

/// A table where seat 2 has just won a round and the table waits for its open choice, with
/// seat 2's player gone quiet and the others seeing it away.
fn seat_two_owes_a_turn() -> Table {
    for nonce in 20..60 {
        let mut t = table(nonce, 4);
        let owes = |t: &Table| t.devices[2].pending() == Some(Pending::Turn { seat: 2 });
        if !t.run_until(100_000, 10, |t| owes(t) || t.devices[0].verdict().is_some()) || !owes(&t) {
            continue;
        }
        t.devices[2].set_plays(false);
        assert!(t.run_until(100_000, 100, |t| {
            t.devices[..2].iter().all(|d| d.is_away(2))
        }));
        return t;
    }
    panic!("seat 2 never won a round");
}

/// A table that waits on seat 2's open choice, seat 2's device up and its player thinking
/// (it does not move).
fn seat_two_thinking() -> Table {
    for nonce in 20..60 {
        let mut t = table(nonce, 4);
        let owes = |t: &Table| {
            t.devices
                .iter()
                .all(|d| d.pending() == Some(Pending::Turn { seat: 2 }))
        };
        if !t.run_until(100_000, 10, |t| owes(t) || t.devices[0].verdict().is_some()) || !owes(&t) {
            continue;
        }
        t.devices[2].set_plays(false);
        return t;
    }
    panic!("seat 2 never won a round");
}

/// Runs the table for `ms` of its clock.
fn run_for(t: &mut Table, ms: u64) {
    let until = t.now.plus(ms);
    assert!(t.run_until(1_000_000, 100, |t| t.now >= until));
}

/// Issue 31: "A player thinking 34 s on her own turn was called away ... A player's own phone
/// said 'Dee is away' about herself." Away means "this device has not been heard from";
/// thinking is not being away, and a device never calls its own player away. (A player who
/// has not moved for six times the wait, device up, has left the table with the app open:
/// away too, so nobody can hold a table forever.)
#[test]
fn a_player_thinking_is_not_away_and_no_device_calls_its_own_player_away() {
    let mut t = seat_two_thinking();
    // Three times the wait (5 s here), its device up and saying hello.
    run_for(&mut t, 15_000);
    for d in &t.devices {
        assert!(!d.is_away(2), "thinking is not being away");
    }
    // Six times the wait without a move: away, on the others' screens only.
    assert!(t.run_until(1_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    assert!(
        !t.devices[2].is_away(2),
        "its own device never calls it away"
    );
}

/// Issue 31: "After a device came back (killed and restarted, back in its seat in 4 s), the
/// others kept seeing 'Cal has been away 55…75 s' until he moved." A device not heard from
/// is away once the wait passes, and back the moment it is heard again, before it moves.
#[test]
fn a_device_not_heard_from_is_away_and_back_the_moment_it_is_heard() {
    let mut t = seat_two_thinking();
    let gone = t.now;
    t.devices[2].set_down(true);
    assert!(t.run_until(1_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    let waited = t.now.as_millis() - gone.as_millis();
    assert!(
        (5_000..10_000).contains(&waited),
        "away once unheard for the wait: {waited} ms"
    );
    t.devices[2].set_down(false);
    let back = t.now;
    assert!(t.run_until(1_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| !d.is_away(2))
    }));
    let took = t.now.as_millis() - back.as_millis();
    assert!(
        took < 3_000,
        "back when heard, not when it moves: {took} ms"
    );
    assert_eq!(
        t.devices[0].pending(),
        Some(Pending::Turn { seat: 2 }),
        "it has not moved"
    );
}

#[test]
fn the_tables_vote_skips_an_away_seat_and_the_log_records_it() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step();
    // One vote is not the table's decision.
    t.devices[0].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.run_until(1_000, 10, |t| t.queue.is_empty());
    assert_eq!(t.devices[0].step(), step);
    // A seat cannot vote about itself, nor about a seat the table is not waiting for.
    assert!(t.devices[2].vote(t.now, 2, VoteAction::Skip).is_err());
    assert!(t.devices[0].vote(t.now, 1, VoteAction::Skip).is_err());
    t.devices[1].vote(t.now, 2, VoteAction::Skip).unwrap();
    assert!(t.run_until(10_000, 10, |t| t.devices.iter().all(|d| d.step() > step)));
    assert_eq!(
        t.devices[0].records()[step as usize],
        StepRecord::Inputs {
            plays: vec![(2, PlayRecord::SatOut)],
            passed: vec![]
        }
    );
    t.devices[2].set_plays(true);
    assert!(t.finish());
    all_verified_and_equal(&t);
}

/// Seats 0 and 1 finish the game and its audit without seat 2, which the table removed.
fn the_game_ends_verified_without_seat_two(t: &mut Table) {
    assert!(t.run_until(2_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    for d in &t.devices[..2] {
        assert_eq!(
            d.verdict(),
            Some(hoard_net::Verdict::Verified { unchecked: vec![2] })
        );
    }
}

/// The steps at which `seat` sat out, in a log.
fn sat_out_at(records: &[StepRecord], seat: Seat) -> Vec<usize> {
    records
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            matches!(r, StepRecord::Inputs { plays, .. }
                if plays.iter().any(|(s, p)| *s == seat && *p == PlayRecord::SatOut))
        })
        .map(|(i, _)| i)
        .collect()
}

/// Whether `seat` made a move of its own at step `from` or later, in a log.
fn played_from(records: &[StepRecord], seat: Seat, from: usize) -> bool {
    records.iter().skip(from).any(|r| {
        matches!(r, StepRecord::Inputs { plays, .. }
            if plays.iter().any(|(s, p)| *s == seat && *p != PlayRecord::SatOut))
    })
}

/// The game plays to its end, with a move of seat 2's own at step `back_at` or later, and
/// every device ends on the same verified log.
fn seat_two_plays_again_to_a_verified_end(t: &mut Table, back_at: usize) {
    assert!(t.finish());
    assert!(
        played_from(&t.devices[0].records(), 2, back_at),
        "seat 2 plays again once it is back"
    );
    all_verified_and_equal(t);
}

/// DESIGN.md, absent seats: "when the table agrees, the away seat is skipped (plays
/// nothing, as a player who sits out) ... When the device comes back, it catches up and
/// plays on." A player's "skip their turns" is one choice, not a tap at every step.
#[test]
fn a_choice_to_skip_an_away_seat_lasts_until_it_plays_again() {
    let mut t = seat_two_owes_a_turn();
    let first = t.devices[0].step() as usize;
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    // No one votes again, yet the table goes on past step after step that waits on seat 2.
    assert!(t.run_until(100_000, 10, |t| {
        sat_out_at(&t.devices[0].records(), 2).len() >= 4
    }));
    let skipped = sat_out_at(&t.devices[0].records(), 2);
    assert_eq!(skipped[0], first);
    assert!(t.devices[..2].iter().all(|d| d.skipping(2) && d.is_away(2)));
    // Seat 2's player is back: its first move may still meet the table's votes, but after
    // that step the table waits for it again and it plays on to the end.
    let back_at = t.devices[0].step() as usize;
    t.devices[2].set_plays(true);
    assert!(t.finish());
    all_verified_and_equal(&t);
    assert!(t.devices[..2].iter().all(|d| !d.skipping(2)));
    let records = t.devices[0].records();
    let later_skips = sat_out_at(&records, 2)
        .into_iter()
        .filter(|s| *s >= back_at)
        .count();
    assert!(
        later_skips <= 1,
        "skipped {later_skips} times after coming back"
    );
    assert!(
        played_from(&records, 2, back_at),
        "seat 2 plays again once it is back"
    );
}

/// The player's "skip their turns" outlives a restart of their own device: the choice is
/// kept with the seat's secrets, so the restarted device goes on voting it at each step
/// that waits on the away seat. "Wait" is kept the same way.
#[test]
fn a_choice_to_skip_an_away_seat_survives_a_restart_of_the_device_that_made_it() {
    let mut t = seat_two_owes_a_turn();
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    assert!(t.run_until(100_000, 10, |t| {
        sat_out_at(&t.devices[0].records(), 2).len() >= 2
    }));
    // Device 0 is killed and starts again from what it kept; nobody chooses anything again.
    t.devices[0].restart(t.now).unwrap();
    assert!(
        t.devices[0].skipping(2),
        "the choice came back from the store"
    );
    let keys = t.keys.clone();
    for i in [1, 2] {
        t.devices[i].connected(t.now, keys[0].public());
        t.devices[0].connected(t.now, keys[i].public());
    }
    let before = sat_out_at(&t.devices[1].records(), 2).len();
    assert!(
        t.run_until(100_000, 10, |t| {
            sat_out_at(&t.devices[1].records(), 2).len() >= before + 2
        }),
        "the table stopped skipping seat 2 after device 0 restarted"
    );

    // Device 1's player chooses to wait; that too is kept across a restart.
    // (Its driver writes the choice down at once, as a device's pump does after a vote.)
    t.devices[1].wait_for(2);
    t.collect(1);
    t.devices[1].restart(t.now).unwrap();
    assert!(
        !t.devices[1].skipping(2),
        "waiting came back from the store"
    );
    assert!(t.devices[0].skipping(2));
    for i in [0, 2] {
        t.devices[i].connected(t.now, keys[1].public());
        t.devices[1].connected(t.now, keys[i].public());
    }
    // Seat 2's player is back: the game plays to its end, verified.
    t.devices[2].set_plays(true);
    assert!(t.finish());
    all_verified_and_equal(&t);
}

/// A seat the table went on without needs no vote at each dice draw that follows: it sits
/// the draws out until it plays again, and the draws take everyone else's links. (Before,
/// every other seat signed a vote at every draw too: half the votes of a long absence.)
#[test]
fn a_skipped_seat_sits_out_the_dice_draws_that_follow_without_a_vote() {
    let mut t = seat_two_owes_a_turn();
    let first = t.devices[0].step() as usize;
    let keys = t.keys.clone();
    t.devices[2].set_down(true);
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    let draws_after = |t: &Table| {
        t.devices[0].records()[first..]
            .iter()
            .filter(|r| matches!(r, StepRecord::Chance { .. }))
            .count()
    };
    assert!(t.run_until(100_000, 10, |t| draws_after(t) >= 1));
    let records = t.devices[0].records();
    let draws: Vec<usize> = (first..records.len())
        .filter(|i| matches!(records[*i], StepRecord::Chance { .. }))
        .collect();
    for i in &draws {
        assert!(
            matches!(&records[*i], StepRecord::Chance { from, .. } if from == &vec![0, 1]),
            "step {i}: {:?}",
            records[*i]
        );
    }
    let votes_at_draws = t
        .sent
        .iter()
        .filter(|(_, sent)| {
            matches!(Wire::decode(&sent.bytes), Ok(Wire::Signed(s))
                if matches!(s.body, Body::Vote { .. }) && draws.contains(&(s.step as usize)))
        })
        .count();
    assert_eq!(votes_at_draws, 0);
    // Seat 2 comes back, plays again, and gives its links to the draws again.
    let back_at = t.devices[0].step() as usize;
    t.devices[2].set_down(false);
    t.devices[2].set_plays(true);
    for i in 0..2 {
        t.devices[i].connected(t.now, keys[2].public());
        t.devices[2].connected(t.now, keys[i].public());
    }
    assert!(t.finish());
    all_verified_and_equal(&t);
    // Once it has played, every draw takes its link again.
    let records = t.devices[0].records();
    let played = records[back_at..].iter().position(|r| {
        matches!(r, StepRecord::Inputs { plays, .. }
            if plays.iter().any(|(s, p)| *s == 2 && *p != PlayRecord::SatOut))
    });
    let played = back_at + played.expect("seat 2 plays again");
    for r in &records[played..] {
        if let StepRecord::Chance { from, .. } = r {
            assert!(from.contains(&2), "{from:?}");
        }
    }
}

/// A table skipping a seat's turns may decide to remove it instead, though between the
/// seat's turns the table is not waiting for it: the choice takes effect at its next step.
#[test]
fn a_table_skipping_a_seat_can_remove_it_between_its_turns() {
    let mut t = seat_two_owes_a_turn();
    let owed_at = t.devices[0].step();
    t.devices[2].set_down(true);
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    // The table goes past the step that waited on seat 2, to one that does not wait on it.
    let waits_on_seat_2 = |p: Option<Pending>| match p {
        Some(Pending::Turn { seat }) => seat == 2,
        Some(Pending::Together { seats, .. }) => seats.contains(&2),
        _ => false,
    };
    assert!(t.run_until(100_000, 10, |t| {
        t.devices[0].step() > owed_at && !waits_on_seat_2(t.devices[0].pending())
    }));
    assert!(t.devices[0].vote(t.now, 2, VoteAction::Remove).is_err());
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Remove)
            .unwrap();
    }
    the_game_ends_verified_without_seat_two(&mut t);
}

/// The choice is withdrawn by waiting: the table waits for the seat again.
#[test]
fn a_player_who_stops_skipping_makes_the_table_wait_again() {
    let mut t = seat_two_owes_a_turn();
    t.devices[0]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    t.devices[1]
        .go_on_without(t.now, 2, VoteAction::Skip)
        .unwrap();
    assert!(t.run_until(100_000, 10, |t| {
        sat_out_at(&t.devices[0].records(), 2).len() >= 2
    }));
    t.devices[1].wait_for(2);
    // A vote already signed stands; the table goes on through steps that need nothing
    // from seat 2's player (its device still adds its links to the dice), then holds at
    // the next that waits on the player, though Ann still votes to skip at every step.
    let skipped = sat_out_at(&t.devices[0].records(), 2).len();
    t.run_until(20_000, 100, |_| false);
    let held_at = t.devices[0].step();
    assert!(sat_out_at(&t.devices[0].records(), 2).len() <= skipped + 1);
    let waits_on_seat_2 = |p: Option<Pending>| match p {
        Some(Pending::Turn { seat }) => seat == 2,
        Some(Pending::Together { seats, .. }) => seats.contains(&2),
        _ => false,
    };
    assert!(waits_on_seat_2(t.devices[0].pending()));
    t.run_until(20_000, 100, |_| false);
    assert!(t.devices.iter().all(|d| d.step() == held_at));
    assert!(t.devices[0].skipping(2) && !t.devices[1].skipping(2));
    // Ben waits, seat 2 comes back, and the game ends the same everywhere.
    t.devices[2].set_plays(true);
    assert!(t.finish());
    all_verified_and_equal(&t);
}

#[test]
fn a_skip_vote_that_races_the_seats_own_move_ends_the_same_on_every_device() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step() as usize;
    // The votes are on their way to seat 2 when its player comes back and moves.
    t.hold = vec![2];
    t.devices[0].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.devices[1].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.devices[2].set_plays(true);
    assert!(t.devices[2].act(t.now));
    t.run_until(10_000, 10, |t| t.queue.is_empty());
    // Seat 2 went ahead with its own move; the table skipped it.
    assert!(
        matches!(&t.devices[2].records()[step], StepRecord::Inputs { plays: p, .. } if p[0].1 != PlayRecord::SatOut)
    );
    assert_eq!(
        t.devices[0].records()[step],
        StepRecord::Inputs {
            plays: vec![(2, PlayRecord::SatOut)],
            passed: vec![]
        }
    );
    // The votes arrive: seat 2 goes back and follows the table.
    t.release();
    assert!(t.finish());
    assert!(
        t.devices[2]
            .events()
            .iter()
            .any(|e| e.starts_with("Rewound"))
    );
    assert_eq!(
        t.devices[2].records()[step],
        StepRecord::Inputs {
            plays: vec![(2, PlayRecord::SatOut)],
            passed: vec![]
        }
    );
    all_verified_and_equal(&t);
}

/// A player whose move raced the table's choice to go on without the seat: the table skipped
/// it at the very step its late move was signed. "Its next turns wait for it again" once it
/// says it is back (DESIGN, absent seats), so the screen must still offer "I'm back", and
/// saying so must end the others' choice. Before, the late move counted as the player
/// being back: no "I'm back" was offered, the seat signed none after a restart, and a
/// 4-seat GreedQuest table over iroh skipped the returning seat to the end of its game.
#[test]
fn a_seat_skipped_at_the_step_of_its_own_late_move_can_still_say_it_is_back() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step();
    t.hold = vec![2];
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Skip)
            .unwrap();
    }
    // The choices are on their way to seat 2 when its player moves, and then looks away.
    t.devices[2].set_plays(true);
    assert!(t.devices[2].act(t.now));
    t.devices[2].set_plays(false);
    t.run_until(10_000, 10, |t| t.queue.is_empty());
    t.release();
    // Seat 2 hears how the step ended (it had gone on with its own move), and its device
    // goes quiet there.
    let skipped = StepRecord::Inputs {
        plays: vec![(2, PlayRecord::SatOut)],
        passed: vec![],
    };
    assert!(t.run_until(100_000, 1, |t| {
        t.devices[2].records().get(step as usize) == Some(&skipped)
    }));
    t.devices[2].set_down(true);
    assert_eq!(t.devices[2].step(), step + 1);
    assert_eq!(
        t.devices[2].sat_out(),
        Some(step),
        "\"I'm back\" is offered"
    );
    assert!(t.devices[..2].iter().all(|d| d.skipping(2)));

    // Its player says so; the device comes back up and the others wait for it again.
    t.devices[2].set_down(false);
    t.devices[2].back(t.now);
    t.collect(2);
    assert!(
        t.signed_from(2)
            .iter()
            .any(|s| s.step > step && matches!(s.body, Body::Back)),
        "seat 2 signed no Back after step {step}"
    );
    let back_at = t.devices[0].step() as usize;
    t.devices[2].set_plays(true);
    assert!(t.run_until(1_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| !d.skipping(2))
    }));
    seat_two_plays_again_to_a_verified_end(&mut t, back_at);
}

#[test]
fn a_vote_that_cannot_pass_lets_the_seats_own_move_stand() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step() as usize;
    // Only Ann votes; Ben hears seat 2's move first and goes on with it. Ann, holding the
    // step for her vote, follows once Ben shows how the step ended.
    t.devices[0].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.devices[2].set_plays(true);
    assert!(t.finish());
    assert!(
        matches!(&t.devices[0].records()[step], StepRecord::Inputs { plays: p, .. } if p[0].1 != PlayRecord::SatOut)
    );
    all_verified_and_equal(&t);
}

#[test]
fn a_seat_that_holds_the_move_others_voted_against_keeps_it_and_the_voter_goes_on() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step();
    // Ann votes to skip seat 2; seat 2 moves before Ben votes. Ben keeps the move (a signed
    // veto in his vote's place, so the skip can never pass), and Ann goes on with it
    // without waiting for any later step to show her how this one ended.
    t.devices[0].vote(t.now, 2, VoteAction::Skip).unwrap();
    t.devices[2].set_plays(true);
    assert!(t.run_until(10_000, 10, |t| t.devices.iter().all(|d| d.step() > step)));
    let kept = format!("Voted {{ step: {step}, voter: 1, target: 2, action: Keep }}");
    assert!(
        t.devices[0].events().contains(&kept),
        "Ann saw no Keep from Ben: {:?}",
        t.devices[0].events()
    );
    // Keeping is the protocol's own answer to a vote, not one a player casts by hand.
    assert!(t.devices[1].vote(t.now, 2, VoteAction::Keep).is_err());
    assert!(t.finish());
    assert!(
        matches!(&t.devices[0].records()[step as usize], StepRecord::Inputs { plays: p, .. } if p[0].1 != PlayRecord::SatOut)
    );
    all_verified_and_equal(&t);
}

#[test]
fn a_seat_removed_by_the_table_is_not_waited_for_again_nor_at_the_audit() {
    let mut t = seat_two_owes_a_turn();
    t.devices[2].set_down(true);
    for i in 0..2 {
        t.devices[i].vote(t.now, 2, VoteAction::Remove).unwrap();
    }
    the_game_ends_verified_without_seat_two(&mut t);
}

/// A device that went on alone at a step (its own turn, written down but never sent) and
/// died before it heard the table skip it there comes back one step ahead on its own log.
/// "When the device comes back, it catches up and plays on" (DESIGN, absent seats): its
/// hello names the last step a peer showed it shares its log at, the peers send history
/// from there, the table's votes among it, and it goes back to where the table went another
/// way. Before, it waited forever on messages for its own log.
#[test]
fn a_device_that_went_on_alone_and_died_follows_the_tables_vote_when_it_comes_back() {
    let mut t = seat_two_owes_a_turn();
    let step = t.devices[0].step();
    // Seat 2's player moves, but the device dies before its move leaves it.
    t.tamper = Some(Box::new(|from, _| (from == 2).then(Vec::new)));
    t.devices[2].set_plays(true);
    assert!(t.devices[2].act(t.now));
    t.run_until(1_000, 10, |t| t.queue.is_empty());
    assert_eq!(t.devices[2].step(), step + 1, "seat 2 went on by itself");
    t.devices[2].set_down(true);
    t.tamper = None;
    // The table skips it there, and at the steps after while it is gone.
    while t.devices[0].step() < step + 4 {
        assert!(t.run_until(100_000, 100, |t| {
            t.devices[..2].iter().all(|d| d.is_away(2))
        }));
        for i in 0..2 {
            t.devices[i].vote(t.now, 2, VoteAction::Skip).unwrap();
        }
        let at = t.devices[0].step();
        assert!(t.run_until(100_000, 10, |t| {
            t.devices[..2].iter().all(|d| d.step() > at)
        }));
    }
    // It comes back on new links, on its own log past the table's vote.
    t.devices[2].restart(t.now).unwrap();
    assert!(
        t.devices[2].step() > step
            && t.devices[2].records()[step as usize]
                != StepRecord::Inputs {
                    plays: vec![(2, PlayRecord::SatOut)],
                    passed: vec![]
                }
    );
    let keys = t.keys.clone();
    for i in 0..2 {
        t.devices[i].connected(t.now, keys[2].public());
        t.devices[2].connected(t.now, keys[i].public());
    }
    assert!(t.finish(), "the returning device never caught up");
    assert_eq!(
        t.devices[2].records()[step as usize],
        StepRecord::Inputs {
            plays: vec![(2, PlayRecord::SatOut)],
            passed: vec![]
        }
    );
    all_verified_and_equal(&t);
}

/// A table of `seats` where the last seat keeps its store in `dir`: it plays until step
/// `play_to`, its device dies, and the others vote it out for `skipped` steps, one at a
/// time. Returns the table and the step the dead seat had reached.
fn last_seat_skipped_while_away(
    seats: u8,
    nonce: u8,
    dir: &std::path::Path,
    play_to: u32,
    skipped: u32,
) -> (Table, u32) {
    let _ = std::fs::remove_dir_all(dir);
    let keys = keys(seats, nonce);
    let start = start_for::<HighCard>(&Config { seats, rounds: 8 }, &keys, nonce);
    let away = usize::from(seats - 1);
    let devices: Vec<Box<dyn Device>> = (0..seats)
        .map(|i| {
            let key = &keys[usize::from(i)];
            if usize::from(i) == away {
                stored_bot::<HighCard>(&start, key, i, cfg(), dir) as Box<dyn Device>
            } else {
                bot::<HighCard>(&start, key, i, cfg())
            }
        })
        .collect();
    let mut t = Table::new(devices, keys, start);
    assert!(t.run_until(100_000, 10, |t| t.devices[0].step() >= play_to
        && t.queue.is_empty()));
    t.devices[away].set_down(true);
    let left_at = t.devices[away].step();
    while t.devices[0].step() < left_at + skipped {
        assert!(t.run_until(100_000, 100, |t| {
            t.devices[..away].iter().all(|d| d.is_away(away as Seat))
        }));
        for i in 0..away {
            t.devices[i]
                .vote(t.now, away as Seat, VoteAction::Skip)
                .unwrap();
        }
        let at = t.devices[0].step();
        assert!(t.run_until(100_000, 10, |t| {
            t.devices[..away].iter().all(|d| d.step() > at)
        }));
    }
    (t, left_at)
}

#[test]
fn an_away_seat_skipped_for_many_steps_restarts_from_its_store_catches_up_and_plays_on() {
    let dir = std::env::temp_dir().join(format!("hoard-absent-{}", std::process::id()));
    let (mut t, left_at) = last_seat_skipped_while_away(3, 70, &dir, 6, 12);
    // It comes back: a new process, from the files alone.
    t.devices[2].restart(t.now).unwrap();
    assert!(t.devices[2].step() <= left_at + 1);
    assert!(t.finish());
    all_verified_and_equal(&t);
    // Catching up, it learned how each missed step ended; it never went ahead at one the
    // table had left (spending a beacon link), only to be sent back when the votes came.
    assert!(
        !t.devices[2]
            .events()
            .iter()
            .any(|e| e.starts_with("Rewound")),
        "{:?}",
        t.devices[2].events()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// "When the device comes back, it catches up and plays on" (DESIGN, absent seats), though
/// one peer's device cannot reach it (its link never comes up) while the table plays on
/// without it. Each peer sends a returning device its own messages; those of the seat it
/// cannot hear from come only when it asks every peer for everything, which it does once
/// it has heard nothing that moves it on for a while. Before, every new message of the
/// table's (of steps it could not reach yet) counted as the table not being quiet, so it
/// never asked while the table played, and the table skipped it to the end of the game.
#[test]
fn a_returning_device_that_cannot_reach_one_peer_catches_up_while_the_table_plays_on() {
    // Seat 2's device dies just before it hears that its turn has come (a step the table
    // plays the same way every time from the same keys); the others see it away and
    // choose to go on without it.
    let owes = |t: &Table| t.devices[0].pending() == Some(Pending::Turn { seat: 2 });
    let nonce = 20;
    let mut t = table(nonce, 4);
    assert!(t.run_until(100_000, 10, |t| owes(t)));
    let turn = t.devices[0].step();
    let mut t = table(nonce, 4);
    assert!(t.run_until(100_000, 10, |t| t.devices[2].step() + 1 == turn));
    t.hold = vec![2];
    assert!(t.run_until(100_000, 10, |t| owes(t)));
    assert_eq!(t.devices[0].step(), turn, "the same game");
    t.held_back.clear();
    t.hold.clear();
    t.devices[2].set_down(true);
    let left_at = t.devices[2].step();
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(2))
    }));
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, 2, VoteAction::Skip)
            .unwrap();
    }
    assert!(t.run_until(100_000, 100, |t| t.devices[0].step() >= left_at + 4));
    // Seat 2 comes back; Ann's device and its device cannot reach each other.
    let keys = t.keys.clone();
    let (ann, two) = (keys[0].public(), keys[2].public());
    t.tamper = Some(Box::new(move |from, tr| {
        (from == 0 && tr.to == two || from == 2 && tr.to == ann).then(Vec::new)
    }));
    t.devices[2].restart(t.now).unwrap();
    t.devices[2].set_plays(true);
    t.devices[1].connected(t.now, two);
    t.devices[2].connected(t.now, keys[1].public());
    t.collect(1);
    t.collect(2);
    // The table plays at a person's pace: a move each every 300 ms.
    let table_at = |t: &Table| t.devices[0].step();
    let mut rounds = 0;
    while t.devices[2].step() < table_at(&t) && t.devices[0].verdict().is_none() {
        rounds += 1;
        assert!(rounds < 1_000, "seat 2 never caught up");
        for i in 0..3 {
            if t.devices[i].act(t.now) {
                t.collect(i);
            }
        }
        while t.deliver_one() {}
        t.now = t.now.plus(300);
        for i in 0..3 {
            t.devices[i].timeout(t.now);
            t.collect(i);
        }
        while t.deliver_one() {}
    }
    assert!(
        t.devices[0].verdict().is_none(),
        "the game ended before seat 2 caught up"
    );
    let back_at = table_at(&t) as usize;
    // Ann's link comes up at last, and the game plays to its end.
    t.tamper = None;
    t.devices[0].connected(t.now, two);
    t.devices[2].connected(t.now, ann);
    t.collect(0);
    t.collect(2);
    seat_two_plays_again_to_a_verified_end(&mut t, back_at);
}

/// "When the device comes back, it catches up and plays on" (DESIGN, absent seats), from the
/// peers it reconnects to: each missed message reaches it once, from the seat that signed it,
/// not once from every peer.
/// Seat 3 of 4 is skipped for 8 steps, then (after `meanwhile`) restarts from its store
/// and catches up: how many times each message of the steps it missed was sent to it, and
/// how many steps it missed.
fn missed_messages_sent_to_a_returning_seat(
    nonce: u8,
    label: &str,
    meanwhile: impl FnOnce(&mut Table),
) -> (std::collections::BTreeMap<[u8; 32], usize>, usize) {
    let dir = std::env::temp_dir().join(format!("hoard-absent-{label}-{}", std::process::id()));
    let (mut t, _) = last_seat_skipped_while_away(4, nonce, &dir, 4, 8);
    meanwhile(&mut t);
    let keys = t.keys.clone();
    let table_at = t.devices[0].step();
    // It comes back and its links to the others are new.
    t.devices[3].restart(t.now).unwrap();
    let back_at = t.devices[3].step();
    for i in 0..3 {
        t.devices[i].connected(t.now, keys[3].public());
        t.devices[3].connected(t.now, keys[i].public());
    }
    let mark = t.sent.len();
    assert!(t.run_until(100_000, 1, |t| t.devices[3].step() >= table_at));
    let mut times: std::collections::BTreeMap<[u8; 32], usize> = Default::default();
    for (_, sent) in &t.sent[mark..] {
        if sent.to != keys[3].public() {
            continue;
        }
        let step = match Wire::decode(&sent.bytes) {
            Ok(Wire::Signed(s)) => s.step,
            Ok(Wire::Link(l)) => l.step,
            Ok(Wire::Open(o)) => o.step,
            _ => continue,
        };
        if step > back_at && step < table_at {
            *times.entry(Wire::id_of(&sent.bytes)).or_default() += 1;
        }
    }
    for d in &mut t.devices {
        d.set_plays(true);
    }
    assert!(t.finish());
    all_verified_and_equal(&t);
    let _ = std::fs::remove_dir_all(&dir);
    (times, (table_at - back_at - 1) as usize)
}

fn assert_each_sent_once(times: &std::collections::BTreeMap<[u8; 32], usize>, missed: usize) {
    assert!(
        times.len() >= 3 * missed,
        "{} missed messages sent for {missed} missed steps",
        times.len(),
    );
    let repeated = times.values().filter(|n| **n > 1).count();
    assert_eq!(
        repeated,
        0,
        "{repeated} of {} missed messages sent more than once",
        times.len()
    );
}

#[test]
fn a_returning_device_gets_each_missed_message_once() {
    let (times, missed) = missed_messages_sent_to_a_returning_seat(90, "once", |_| {});
    assert_each_sent_once(&times, missed);
}

/// A seat that is slow to move is away too, yet its device is up and sends its own
/// messages: the others do not send them as well. Before, a device coming back to a table
/// where everyone was thinking got every missed message from every peer.
#[test]
fn a_returning_device_gets_each_missed_message_once_while_the_table_is_slow() {
    let (times, missed) = missed_messages_sent_to_a_returning_seat(92, "slow", |t| {
        // The links among the three are up, and every player stops to think.
        let keys = t.keys.clone();
        for i in 0..3 {
            for j in (0..3).filter(|j| *j != i) {
                t.devices[i].connected(t.now, keys[j].public());
            }
            t.devices[i].set_plays(false);
        }
        assert!(t.run_until(100_000, 100, |t| {
            (0..3).any(|i| (0..3).any(|j| i != j && t.devices[i].is_away(j as Seat)))
        }));
    });
    assert_each_sent_once(&times, missed);
}

/// A returning device whose link to one peer is still coming up does not pass the history
/// it catches up on back out to that peer: the table settled those steps long ago.
#[test]
fn a_returning_device_does_not_echo_the_history_it_catches_up_on() {
    let dir = std::env::temp_dir().join(format!("hoard-absent-echo-{}", std::process::id()));
    let (mut t, _) = last_seat_skipped_while_away(4, 93, &dir, 4, 8);
    let keys = t.keys.clone();
    let table_at = t.devices[0].step();
    t.devices[3].restart(t.now).unwrap();
    // Seat 2's link is not up yet: nothing gets through to it, and it has not said hello.
    t.hold = vec![2];
    for i in 0..2 {
        t.devices[i].connected(t.now, keys[3].public());
        t.devices[3].connected(t.now, keys[i].public());
    }
    let mark = t.sent.len();
    assert!(t.run_until(100_000, 10, |t| t.devices[3].step() >= table_at));
    let echoed = t.sent[mark..]
        .iter()
        .filter(|(from, sent)| {
            *from == 3
                && sent.to == keys[2].public()
                && matches!(Wire::decode(&sent.bytes),
                    Ok(Wire::Signed(m)) if m.seat != 3 && m.step + 1 < table_at)
        })
        .count();
    assert_eq!(echoed, 0, "old messages passed back out to seat 2");
    t.release();
    assert!(t.finish());
    all_verified_and_equal(&t);
    let _ = std::fs::remove_dir_all(&dir);
}

/// "When the table agrees, the away seat is skipped" (DESIGN, absent seats): a vote that
/// passed ends the step the same way on every voter, so the table signs nothing more for
/// it. Before, each seat signed a "how this step ended" head at every skipped step: after
/// 1,000 skipped steps at six seats, 5,000 of the 12,500 signatures a returning device
/// checked.
#[test]
fn a_table_skipping_an_away_seat_signs_votes_and_no_heads() {
    let dir = std::env::temp_dir().join(format!("hoard-absent-heads-{}", std::process::id()));
    let (t, left_at) = last_seat_skipped_while_away(4, 91, &dir, 4, 8);
    let table_at = t.devices[0].step();
    let (mut votes, mut heads) = (0, 0);
    for (_, sent) in &t.sent {
        if let Ok(Wire::Signed(s)) = Wire::decode(&sent.bytes)
            && s.step > left_at
            && s.step <= table_at
        {
            match s.body {
                Body::Vote { .. } => votes += 1,
                Body::Head => heads += 1,
                _ => {}
            }
        }
    }
    assert!(votes >= 8, "{votes} votes sent for 8 skipped steps");
    assert_eq!(heads, 0, "heads sent while the table skipped seat 3");
    let _ = std::fs::remove_dir_all(&dir);
}

/// High card whose rules differ from everyone else's in one detail: a device running it
/// computes another public state from the same log.
struct Drifting;

impl Game for Drifting {
    const NAME: &'static str = HighCard::NAME;
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = highcard::Event;
    fn seat_range() -> std::ops::RangeInclusive<u8> {
        HighCard::seat_range()
    }
    fn setup(config: &Config) -> Result<Public, RuleError> {
        HighCard::setup(config)
    }
    fn private(config: &Config, seat: Seat, secret: [u8; 32]) -> Private {
        HighCard::private(config, seat, secret)
    }
    fn pending(public: &Public) -> Pending {
        HighCard::pending(public)
    }
    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        HighCard::legal_inputs(public, private, seat)
    }
    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        HighCard::check_input(public, seat, input)
    }
    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<highcard::Event>, RuleError> {
        let events = HighCard::apply(public, privates, step)?;
        if public.phase == Phase::Swap {
            // Every round ends with a point for seat 0 here, and nowhere else.
            public.scores[0] += 1;
        }
        Ok(events)
    }
    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        HighCard::bot_input(public, private, seat, rng)
    }
    fn narrate(event: &highcard::Event, name: &dyn Fn(Seat) -> String) -> String {
        HighCard::narrate(event, name)
    }
}

#[test]
fn a_device_whose_rules_disagree_is_reported_with_both_hashes_and_the_step() {
    let keys = keys(3, 80);
    let start = start_for::<HighCard>(
        &Config {
            seats: 3,
            rounds: 3,
        },
        &keys,
        80,
    );
    let drifting = CoreConfig::<Drifting> {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 64,
        sit_out: None,
        memo: None,
        reaction: Default::default(),
    };
    let devices: Vec<Box<dyn Device>> = vec![
        bot::<HighCard>(&start, &keys[0], 0, cfg()),
        bot::<HighCard>(&start, &keys[1], 1, cfg()),
        bot::<Drifting>(&start, &keys[2], 2, drifting),
    ];
    let mut t = Table::new(devices, keys, start);
    assert!(t.run_until(100_000, 100, |t| {
        t.devices[..2].iter().all(|d| !d.divergences().is_empty())
    }));
    let d = &t.devices[0].divergences()[0];
    assert_eq!(d.seat, 2);
    assert_ne!(d.ours, d.theirs);
    // The step is the first one made on the state the two computed differently.
    let n = d.step as usize;
    let records = t.devices[0].records();
    assert!(n <= records.len());
    assert!(matches!(
        t.devices[0].records().get(n - 1),
        Some(StepRecord::Inputs { .. })
    ));
    // Ben sees the same.
    assert!(
        t.devices[1]
            .divergences()
            .iter()
            .any(|x| x.seat == 2 && x.step == d.step)
    );
}
