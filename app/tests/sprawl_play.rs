//! Sprawl through the real screens, offline, by their labels: host, choose Sprawl with
//! Counting Coup, two bots, then play every move by tapping a square the board offers and
//! one of the moves listed for it, answer the "Are you sure?" questions, and reach the
//! verified end screen.

use crate::support;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::HoardApp;
use std::time::{Duration, Instant};
use support::*;

/// The words every board move's button starts with.
const MOVES: [&str; 4] = ["Place a ", "Build a ", "Branch a ", "Spore a "];
/// The Counting Coup answers, in the order this player prefers them.
const ANSWERS: [&str; 4] = ["Are you sure?", "Keep it", "Let it be", "Take it back"];
/// How a square says it can be played on.
const PLAYABLE: &str = "(tap to play here)";

fn enabled_buttons(h: &Harness<'_, HoardApp>) -> Vec<String> {
    h.query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// Hosts Sprawl (Counting Coup on) against `bots` bots and starts it.
fn host_sprawl(h: &mut Harness<'_, HoardApp>, bots: usize) {
    host_with_bots(h, bots);
    click(h, "Sprawl");
    wait_until(h, "Sprawl's variants", |h| has(h, "Counting Coup"));
    click(h, "Counting Coup");
    start(h);
    wait_until(h, "the Sprawl board", |h| {
        h.query_all_by_label_contains("A1:").next().is_some()
    });
}

/// Does one thing the game asks of me, if it asks anything: answers a question, or taps
/// a square the board offers and then one of its moves. `me` is my name; `pick` varies
/// the choices.
fn play_once(h: &mut Harness<'_, HoardApp>, me: &str, pick: usize) -> bool {
    let buttons = enabled_buttons(h);
    if let Some(answer) = ANSWERS.iter().find(|a| buttons.iter().any(|b| b == *a)) {
        click(h, answer);
        return true;
    }
    // Like a careful player: the starting tower a 3, then cap it with a 2 and a 1 so
    // that it holds every size and no branch can neutralize it; then anything offered.
    let moves: Vec<&String> = buttons
        .iter()
        .filter(|b| MOVES.iter().any(|m| b.starts_with(m)))
        .collect();
    let careful = moves
        .iter()
        .find(|b| b.starts_with("Build a ") || b.starts_with("Place a 3"));
    if let Some(chosen) = careful.or(moves.get(pick % moves.len().max(1))) {
        let chosen = (*chosen).clone();
        click(h, &chosen);
        return true;
    }
    let squares: Vec<&String> = buttons.iter().filter(|b| b.ends_with(PLAYABLE)).collect();
    let mine = squares
        .iter()
        .find(|b| b.contains(&format!("{me}'s tower")));
    if let Some(square) = mine.or(squares.get(pick % squares.len().max(1))) {
        let square = (*square).clone();
        click(h, &square);
        wait_until(h, "the moves at the square", |h| {
            enabled_buttons(h)
                .iter()
                .any(|b| MOVES.iter().any(|m| b.starts_with(m)))
        });
        return true;
    }
    false
}

#[test]
fn a_player_plays_sprawl_with_counting_coup_to_the_end_by_tapping_the_board() {
    let dir = scratch("sprawl-e2e");
    let mut h = app(dir.clone(), [360.0, 780.0], true);
    create_profile(&mut h, "Mia", "Blue");
    host_sprawl(&mut h, 2);

    assert!(
        h.query_by_label_contains("Stashes").is_some(),
        "every stash is listed"
    );
    assert!(
        has(&h, "Targets of Mia"),
        "the switch for whose targeted squares are shown"
    );

    let mut taps = 0usize;
    let mut saw_playable = false;
    let deadline = Instant::now() + Duration::from_secs(240);
    while !has(&h, "Back to home") {
        assert!(Instant::now() < deadline, "the game did not end in time");
        saw_playable |= h.query_all_by_label_contains(PLAYABLE).next().is_some();
        if play_once(&mut h, "Mia", taps * 7 + 3) {
            taps += 1;
            assert!(taps < 400, "no end after {taps} taps");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    assert!(saw_playable, "the board offered squares to play on");
    // At least the starting tower (a square, then its move); the bots may neutralize a
    // young tower at once, which ends the game for good reason.
    assert!(
        taps >= 2,
        "the starting tower was placed by tapping, taps: {taps}"
    );
    wait_until(&mut h, "the audit's verdict", |h| {
        h.query_by_label_contains("Verified").is_some()
    });
    assert!(
        h.query_all_by_label_contains("pips left in the stash")
            .count()
            == 3,
        "the end screen tells every stash"
    );
    assert!(
        h.query_by_label_contains(" won").is_some(),
        "the end screen names the winner"
    );
    click(&mut h, "Back to home");
    wait_until(&mut h, "Home", |h| has(h, "Play against bots"));
    let _ = std::fs::remove_dir_all(&dir);
}
