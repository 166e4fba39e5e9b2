//! Spree! through the real screens by their labels: host offline against two bots with the
//! one-second time to stop and the short game, then play Mia's seat by tapping as a player would (park on a
//! free space, roll, tap a square to draw a walk and "Go", tap a card and "Buy", "Score"
//! at the car, "End turn", and "Let it go" when someone else's play may be stopped) until
//! the verified end screen.

use crate::support;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::HoardApp;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use support::*;

fn enabled_buttons(h: &Harness<'_, HoardApp>) -> Vec<String> {
    h.query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// Hosts Spree! against `bots` bots, one second to stop a play, and starts it.
fn host_spree(h: &mut Harness<'_, HoardApp>, bots: usize) {
    host_with_bots(h, bots);
    click(h, "Spree!");
    wait_until(h, "Spree!'s options", |h| has(h, "Hong Kong rules"));
    click(h, "1 s");
    // A quarter of the target, so the whole game fits a test's time.
    click(h, "Short game");
    wait_until(h, "the short game's target", |h| {
        h.query_by_label_contains("First to lock 50 points")
            .is_some()
    });
    // Spree!'s options push "Start the game" below a phone's fold: bring it up and let the
    // scroll settle before the tap.
    h.get_by_label("Start the game").scroll_to_me();
    for _ in 0..30 {
        h.step();
    }
    start(h);
    wait_until(h, "the mall", |h| {
        h.query_by_label_contains("The mall").is_some()
    });
}

/// Where Mia's car is parked ("D1"), read off the board's description.
fn my_car(h: &Harness<'_, HoardApp>) -> Option<String> {
    let board = h
        .query_all_by_label_contains("The mall: ")
        .find_map(|n| n.accesskit_node().label())?;
    let rest = board.split("Mia's car at ").nth(1)?;
    Some(rest.split(',').next()?.to_string())
}

/// The points in Mia's cart, from the "Score N" button.
fn score_button(buttons: &[String]) -> Option<(String, i32)> {
    buttons.iter().find_map(|b| {
        let points = b.strip_prefix("Score ")?.parse().ok()?;
        Some((b.clone(), points))
    })
}

/// Steps from the square a "Walk to F3, ..." button names to the nearest shop selling one
/// of the cards named in `hand` ("10 of Spades").
fn nearest_shop(walk: &str, hand: &[String]) -> u8 {
    use hoard_rules::spree::board::{Sq, board};
    use hoard_rules::spree::cards;
    let Some(rest) = walk.strip_prefix("Walk to ") else {
        return u8::MAX;
    };
    let mut chars = rest.chars();
    let Some(column) = chars.next() else {
        return u8::MAX;
    };
    let row: String = chars.take_while(char::is_ascii_digit).collect();
    let (Some(x), Ok(y)) = ((column as u32).checked_sub('A' as u32), row.parse::<u8>()) else {
        return u8::MAX;
    };
    let at = Sq::new(x as u8, y.saturating_sub(1));
    (0..cards::POKER)
        .filter(|id| hand.contains(&cards::name(*id)))
        .filter_map(cards::face)
        .flat_map(|face| board().shops_of(face))
        .map(|shop| board().distance(at, shop))
        .min()
        .unwrap_or(u8::MAX)
}

/// What Mia has done, to check the game was played by tapping.
#[derive(Default)]
struct Tally {
    parked: bool,
    rolls: usize,
    walks: usize,
    bought: usize,
    scored: usize,
    let_go: usize,
    stopped: usize,
    ended: usize,
}

/// Taps a square of the mall: on a phone the mall is drawn larger than the screen and
/// panned, so the square is brought into view first, as a thumb would drag it there.
fn tap_square(h: &mut Harness<'_, HoardApp>, label: &str) {
    if let Some(node) = h.query_by_label(label) {
        node.scroll_to_me();
    }
    h.run_steps(2);
    click(h, label);
}

/// Hosts a game against two bots and plays Mia's seat by tapping to the verified end screen.
fn play_a_game(h: &mut Harness<'_, HoardApp>, tally: &mut Tally) {
    host_spree(h, 2);
    for seat in ["Mia (you): ", "Bot 1: ", "Bot 2: "] {
        assert!(
            h.query_by_label_contains(seat).is_some(),
            "{seat} has a place in the strip of seats"
        );
    }
    let mut tried = HashSet::new();
    let mut taps = 0usize;
    let deadline = Instant::now() + Duration::from_secs(200);
    while !has(h, "Back to home") {
        assert!(Instant::now() < deadline, "the game did not end in time");
        if play_once(h, tally, &mut tried) {
            taps += 1;
            assert!(taps < 3_000, "no end after {taps} taps");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    wait_until(h, "the audit's verdict", |h| {
        h.query_by_label_contains("Verified").is_some()
            || h.query_by_label_contains("Not verified").is_some()
    });
    assert!(
        h.query_by_label_contains("Verified: every hidden card")
            .is_some(),
        "the audit verifies an honest game"
    );
    assert!(
        h.query_by_label_contains(" won").is_some(),
        "the end screen names the winner"
    );
    assert!(
        h.query_all_by_label_contains("points locked in the car")
            .count()
            >= 3,
        "the end screen tells what every seat banked"
    );
}

/// Does one thing the game asks of Mia, if it asks anything. `tried` holds the cards
/// already tapped since the last walk (each is tried once for a purchase).
fn play_once(
    h: &mut Harness<'_, HoardApp>,
    tally: &mut Tally,
    tried: &mut HashSet<String>,
) -> bool {
    let buttons = enabled_buttons(h);
    let has_button = |b: &str| buttons.iter().any(|x| x == b);
    // Once in the game, Mia stops a play with her Ace (or Joker).
    // A window's answers close by themselves when it ends, so each is tapped only while
    // still offered.
    if tally.stopped == 0
        && let Some(stop) = buttons.iter().find(|b| b.starts_with("Stop! ("))
    {
        let stop = stop.clone();
        if click_if_offered(h, &stop) {
            tally.stopped += 1;
        }
        return true;
    }
    if has_button("Let it go") {
        if click_if_offered(h, "Let it go") {
            tally.let_go += 1;
        }
        return true;
    }
    // Issue 31: "Nothing irreversible from a single tap on the board": the first tap on a
    // parking space chooses it, a second tap there parks.
    if let Some(space) = buttons.iter().find(|b| b.ends_with(": tap again to go")) {
        let space = space.clone();
        tap_square(h, &space);
        tally.parked = true;
        return true;
    }
    if let Some(space) = buttons.iter().find(|b| b.starts_with("Park at ")) {
        let space = space.clone();
        tap_square(h, &space);
        return true;
    }
    for buy in ["Buy the pair", "Buy"] {
        if has_button(buy) {
            click(h, buy);
            tally.bought += 1;
            return true;
        }
    }
    if has_button("Go") {
        click(h, "Go");
        tally.walks += 1;
        tried.clear();
        return true;
    }
    if let Some((score, points)) = score_button(&buttons)
        && points > 0
    {
        click(h, &score);
        tally.scored += 1;
        return true;
    }
    if has_button("Roll") {
        click(h, "Roll");
        tally.rolls += 1;
        tried.clear();
        return true;
    }
    // A card to buy with, wherever Mia stands (each tried once after each walk); a tap that
    // offers no purchase is taken back.
    if let Some(card) = buttons
        .iter()
        .find(|b| b.starts_with("Your ") && !tried.contains(*b))
    {
        let card = card.clone();
        tried.insert(card.clone());
        click(h, &card);
        let_buttons_settle(h);
        let offered = enabled_buttons(h);
        if !offered.iter().any(|b| b == "Buy" || b == "Buy the pair") && has(h, &card) {
            click(h, &card);
        }
        return true;
    }
    // A walk: to the shop of a card in hand, else home with a full cart, else far.
    let walks: Vec<&String> = buttons
        .iter()
        .filter(|b| b.starts_with("Walk to "))
        .collect();
    if !walks.is_empty() {
        // Every card in hand, the ones that cannot be played now (dimmed) too.
        let hand: Vec<String> = h
            .query_all_by_role(Role::Button)
            .filter_map(|n| n.accesskit_node().label())
            .filter_map(|b| b.strip_prefix("Your ").map(str::to_string))
            .collect();
        let cart_full = tally.bought >= 2 * (tally.scored + 1);
        let home = my_car(h).and_then(|car| {
            walks
                .iter()
                .find(|w| w.starts_with(&format!("Walk to {car},")))
                .copied()
        });
        let shop = walks
            .iter()
            .find(|w| hand.iter().any(|c| w.contains(&format!("the {c} shop"))))
            .copied();
        // Else as near as the roll allows to a shop of a card in hand.
        let far = walks.iter().min_by_key(|w| nearest_shop(w, &hand)).copied();
        let target = if cart_full {
            home.or(shop)
        } else {
            shop.or(home)
        };
        if let Some(target) = target.or(far) {
            let target = target.clone();
            tap_square(h, &target);
            return true;
        }
    }
    if has_button("End turn") {
        click(h, "End turn");
        tally.ended += 1;
        return true;
    }
    false
}

#[test]
fn a_player_plays_spree_against_two_bots_to_the_verified_end_by_tapping() {
    let dir = scratch("spree-e2e");
    let mut h = app(dir.clone(), [360.0, 640.0], true);
    create_profile(&mut h, "Mia", "Blue");
    let started = Instant::now();
    let mut tally = Tally::default();
    // A short game can end before Mia's dice ever bring her to a shop of a card she holds:
    // then she plays another, up to three, each to its verified end.
    for game in 1..=3 {
        play_a_game(&mut h, &mut tally);
        println!(
            "Spree! game {game} ended after {:.1} s: {} rolls, {} walks, {} bought, {} scored, {} let go, {} stopped, {} turns ended",
            started.elapsed().as_secs_f32(),
            tally.rolls,
            tally.walks,
            tally.bought,
            tally.scored,
            tally.let_go,
            tally.stopped,
            tally.ended
        );
        click(&mut h, "Back to home");
        wait_until(&mut h, "Home", |h| has(h, "Play against bots"));
        if tally.bought > 0 {
            break;
        }
    }
    assert!(tally.parked, "Mia parked by tapping a space");
    assert!(tally.rolls > 0 && tally.walks > 0, "Mia rolled and walked");
    assert!(tally.bought > 0, "Mia bought a card by tapping it and Buy");
    assert!(
        tally.let_go > 0,
        "Mia answered a Stop! prompt with Let it go"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
