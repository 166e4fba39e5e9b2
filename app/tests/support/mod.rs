//! Driving the real app through its screens by their labels, as a player would: shared by
//! the end-to-end GUI tests and the screenshot and frame-time tools.

#![allow(dead_code)]

pub mod freeloader_table;
pub mod shot;
pub mod spammers_table;
pub mod spree_table;
pub mod table_screen;
pub mod views;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, NodeT, Queryable};
use hoard_app::{AppConfig, HoardApp, NetworkChoice};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Every card name, to tell the hand's cards from other buttons.
pub const CARD_NAMES: [&str; 19] = [
    "Go! 1",
    "Go! 2",
    "Go! 3",
    "Go! 4",
    "Go! 5",
    "Go! 6",
    "Go! 7",
    "Go! 8",
    "Go WILD!",
    "Loot the Bodies!",
    "Dragon ATTACK!!",
    "The Meek Shall Inherit",
    "Curse!",
    "Dragon Sighting",
    "Secret Door",
    "See Ya!",
    "Even Chance",
    "Odd Reversal",
    "Tracking",
];

/// A fresh data folder for one run.
pub fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "hoard-app-{name}-{}-{}",
        std::process::id(),
        Instant::now().elapsed().as_nanos()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The app, offline, in a window of `size` points.
pub fn app(data_dir: PathBuf, size: [f32; 2], phone: bool) -> Harness<'static, HoardApp> {
    app_on(data_dir, size, phone, NetworkChoice::Offline)
}

/// The app on the given network.
pub fn app_on(
    data_dir: PathBuf,
    size: [f32; 2],
    phone: bool,
    network: NetworkChoice,
) -> Harness<'static, HoardApp> {
    app_built(Harness::builder().with_size(size), data_dir, phone, network)
}

/// The app built by `builder` (size, zoom, renderer as the caller set them), with data in
/// `data_dir`.
pub fn app_built(
    builder: egui_kittest::HarnessBuilder<HoardApp>,
    data_dir: PathBuf,
    phone: bool,
    network: NetworkChoice,
) -> Harness<'static, HoardApp> {
    app_serving(builder, data_dir, phone, network, &[])
}

/// As [`app_built`], serving `page` to phones' browsers while on the Wi-Fi.
pub fn app_serving(
    builder: egui_kittest::HarnessBuilder<HoardApp>,
    data_dir: PathBuf,
    phone: bool,
    network: NetworkChoice,
    page: &'static [(&'static str, &'static [u8])],
) -> Harness<'static, HoardApp> {
    builder.with_max_steps(10_000).build_eframe(move |cc| {
        HoardApp::new(
            cc,
            AppConfig {
                data_dir,
                phone,
                network: Some(network),
                platform: None,
                opened: None,
                page,
            },
        )
    })
}

/// The app, offline, whose clock moves about as fast as the wall's while a test steps it
/// (`wait_until` steps every few milliseconds): for countdowns the network times in real time.
pub fn app_in_real_time(data_dir: PathBuf, size: [f32; 2]) -> Harness<'static, HoardApp> {
    Harness::builder()
        .with_size(size)
        .with_max_steps(10_000)
        .with_step_dt(0.01)
        .build_eframe(move |cc| {
            HoardApp::new(
                cc,
                AppConfig {
                    data_dir,
                    phone: true,
                    network: Some(NetworkChoice::Offline),
                    platform: None,
                    opened: None,
                    page: &[],
                },
            )
        })
}

/// Steps frames until `done` holds, letting the network thread work in between.
pub fn wait_until(
    h: &mut Harness<'_, HoardApp>,
    what: &str,
    mut done: impl FnMut(&Harness<'_, HoardApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        h.step();
        if done(h) {
            return;
        }
        if Instant::now() >= deadline {
            let labels: Vec<String> = h
                .query_all_by(|_| true)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("timed out waiting for {what}; the screen shows: {labels:?}");
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Steps frames until a move button that has just come into its place takes taps
/// ([`hoard_app::widgets::settle::SETTLE`] of the app's clock), so what is offered can be read.
#[allow(dead_code)]
pub fn let_buttons_settle(h: &mut Harness<'_, HoardApp>) {
    let from = h.ctx.input(|i| i.time);
    while h.ctx.input(|i| i.time) - from <= hoard_app::widgets::settle::SETTLE {
        h.step();
    }
}

/// Waits for an enabled widget labelled `label`, brings it on screen, and clicks it.
pub fn click(h: &mut Harness<'_, HoardApp>, label: &str) {
    wait_until(h, label, |h| enabled(h, label));
    assert!(tap(h, label), "{label} went away as it was tapped");
}

/// Clicks `label` if it is offered now, as [`click`] does, for a button that goes away by
/// itself (a reaction window's answers close when the window ends, and a slow machine can
/// reach that end between seeing the button and tapping it): whether it was clicked.
#[allow(dead_code)]
pub fn click_if_offered(h: &mut Harness<'_, HoardApp>, label: &str) -> bool {
    enabled(h, label) && tap(h, label)
}

fn enabled(h: &Harness<'_, HoardApp>, label: &str) -> bool {
    h.query_all_by_label(label)
        .any(|n| !n.accesskit_node().is_disabled())
}

/// Brings the enabled widget labelled `label` on screen and clicks it; `false` if it went
/// away first.
fn tap(h: &mut Harness<'_, HoardApp>, label: &str) -> bool {
    let Some(node) = h
        .query_all_by_label(label)
        .find(|n| !n.accesskit_node().is_disabled())
    else {
        return false;
    };
    let screen = h.ctx.content_rect();
    let target = node.accesskit_node().bounding_box();
    // A widget scrolled under a panel pinned over the scroll area's end (the lobby's Start
    // and the words above it) still has its box there: another button or line of text over
    // its middle (not one around the whole of it) means it is hidden.
    let covered = target.is_some_and(|b| {
        let middle = ((b.x0 + b.x1) / 2.0, (b.y0 + b.y1) / 2.0);
        let around = |o: &egui::accesskit::Rect| {
            o.x0 <= b.x0 && o.y0 <= b.y0 && b.x1 <= o.x1 && b.y1 <= o.y1
        };
        h.query_all_by(|n| matches!(n.role(), Role::Button | Role::Label))
            .filter(|n| n.accesskit_node().label().as_deref() != Some(label))
            .filter_map(|n| {
                Some((
                    n.accesskit_node().role(),
                    n.accesskit_node().bounding_box()?,
                ))
            })
            .filter(|(role, o)| *role == Role::Button || !around(o))
            .any(|(_, o)| {
                o.x0 <= middle.0 && middle.0 <= o.x1 && o.y0 <= middle.1 && middle.1 <= o.y1
            })
    });
    let seen = !covered
        && target.is_some_and(|b| {
            b.x0 as f32 >= screen.min.x
                && b.y0 as f32 >= screen.min.y
                && b.x1 as f32 <= screen.max.x
                && b.y1 as f32 <= screen.max.y
        });
    node.scroll_to_me();
    h.step();
    if !seen {
        // Off screen: a scroll starts a frame or two later and glides, so wait until the
        // widget has stood still for a few frames before tapping where it is.
        let mut last = None;
        let mut still = 0;
        for _ in 0..90 {
            h.step();
            let at = h
                .query_all_by_label(label)
                .find(|n| !n.accesskit_node().is_disabled())
                .and_then(|n| n.accesskit_node().bounding_box());
            still = if at.is_some() && at == last {
                still + 1
            } else {
                0
            };
            if still >= 6 {
                break;
            }
            last = at;
        }
    }
    put_away_notices_over(h, label);
    let Some(node) = h
        .query_all_by_label(label)
        .find(|n| !n.accesskit_node().is_disabled())
    else {
        return false;
    };
    node.click();
    // One frame takes the click, the next shows its result.
    h.step();
    h.step();
    true
}

/// Taps away the notices floating over `label`, as a person would before tapping it.
fn put_away_notices_over(h: &mut Harness<'_, HoardApp>, label: &str) {
    if label.starts_with("Put away: ") {
        return;
    }
    for _ in 0..8 {
        let target = h
            .query_all_by_label(label)
            .find(|n| !n.accesskit_node().is_disabled())
            .and_then(|n| n.accesskit_node().bounding_box());
        let Some(target) = target else { return };
        let over = h.query_all(By::new().predicate(|n| {
            n.label().is_some_and(|l| l.starts_with("Put away: "))
                && n.bounding_box()
                    .is_some_and(|b| b.intersect(target).area() > 0.0)
        }));
        let Some(notice) = over.into_iter().next() else {
            return;
        };
        notice.click();
        h.step();
        h.step();
    }
}

/// Whether some widget is labelled `label` (two cards of one face share a label).
pub fn has(h: &Harness<'_, HoardApp>, label: &str) -> bool {
    h.query_all_by_label(label).next().is_some()
}

/// Types a name on the app's own keys (the phone way), one key at a time.
pub fn type_on_keys(h: &mut Harness<'_, HoardApp>, text: &str) {
    for c in text.chars() {
        let key = if c == ' ' {
            "Space".to_string()
        } else {
            c.to_string()
        };
        // The keys show capitals only when the next letter will be one.
        let shown_upper = h.query_by_label(&key.to_uppercase()).is_some();
        if c.is_ascii_lowercase() && shown_upper {
            click(h, "ABC");
        }
        click(h, &key);
    }
}

/// First run: name and colour, then Home.
pub fn create_profile(h: &mut Harness<'_, HoardApp>, name: &str, colour: &str) {
    wait_until(h, "the welcome screen", |h| has(h, "Welcome to Hoard"));
    type_on_keys(h, name);
    click(h, colour);
    click(h, "Let's play");
    wait_until(h, "Home", |h| {
        has(h, "Play against bots") || has(h, "Host a table")
    });
}

/// The join code a host's lobby shows as text.
pub fn shown_code(h: &Harness<'_, HoardApp>) -> String {
    h.query_all_by(|n| n.value().is_some_and(|v| v.starts_with("endpoint")))
        .find_map(|n| n.accesskit_node().value())
        .expect("the join code is shown as text")
}

/// On a laptop: a first run as `name`, typed on the keyboard, then `code` typed into "Join
/// with a code" and `button` tapped ("Join", or "Show the table here").
pub fn laptop_uses_code(h: &mut Harness<'_, HoardApp>, name: &str, code: &str, button: &str) {
    wait_until(h, "the welcome screen", |h| has(h, "Welcome to Hoard"));
    h.get_by_label("Your name").focus();
    h.step();
    h.get_by_label("Your name").type_text(name);
    h.step();
    click(h, "Let's play");
    click(h, "Join with a code");
    h.get_by_label("Join code").focus();
    h.step();
    h.get_by_label("Join code").type_text(code);
    h.step();
    click(h, button);
}

/// Host a table, add `bots` bots, start GreedQuest.
pub fn host_with_bots(h: &mut Harness<'_, HoardApp>, bots: usize) {
    click(h, "Play against bots");
    wait_until(h, "the lobby", |h| has(h, "Add a bot"));
    for n in 0..bots {
        click(h, "Add a bot");
        // The host can remove every seat but its own: one Remove per bot.
        wait_until(h, "the bot to sit down", |h| {
            h.query_all_by_label("Remove").count() > n
        });
    }
    // Back to the top of the lobby, as a player would scroll to pick the game: the games
    // are not left half under the bar, where a tap would land on it.
    h.get_by_label("GreedQuest").scroll_to_me();
    for _ in 0..30 {
        h.step();
    }
}

pub fn start(h: &mut Harness<'_, HoardApp>) {
    if has(h, "I'm ready") {
        click(h, "I'm ready");
    }
    click(h, "Start the game");
    wait_until(h, "the table", |h| has(h, "Log"));
}

/// An enabled card of my hand.
fn playable_card(h: &Harness<'_, HoardApp>) -> Option<String> {
    h.query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| CARD_NAMES.contains(&l.as_str()))
}

/// Labels of the choices a prompt may offer (WILD values, who changes places, ...).
fn choice(h: &Harness<'_, HoardApp>) -> Option<String> {
    let fixed = ["Keep it", "Discard it, draw another", "Me"];
    let labels: Vec<String> = h
        .query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .collect();
    labels
        .iter()
        .find(|l| fixed.contains(&l.as_str()) || l.starts_with("Track "))
        .cloned()
        .or_else(|| {
            labels
                .iter()
                .find(|l| l.len() == 1 && l.chars().all(|c| ('1'..='8').contains(&c)))
                .cloned()
        })
        .or_else(|| {
            // Choosing who changes places: buttons named after the other players.
            labels.iter().find(|l| l.starts_with("Bot ")).cloned()
        })
}

/// Does one thing the game asks of me, if it asks anything. Returns whether it did.
pub fn play_once(h: &mut Harness<'_, HoardApp>) -> bool {
    let play = ["Play", "Play in the duel"].into_iter().find(|l| has(h, l));
    if let Some(play) = play {
        let ready = h
            .query_all_by_label(play)
            .any(|n| !n.accesskit_node().is_disabled());
        if !ready {
            if playable_card(h).is_none() {
                return false;
            }
            if play == "Play" {
                click_card_and_play(h);
                return true;
            }
            if let Some(card) = playable_card(h) {
                click(h, &card);
            }
        }
        click(h, play);
        return true;
    }
    if let Some(label) = choice(h) {
        click(h, &label);
        return true;
    }
    false
}

/// Plays until the end screen (or panics after `max_moves`).
pub fn play_to_the_end(h: &mut Harness<'_, HoardApp>, max_moves: usize) -> usize {
    let mut moves = 0;
    let deadline = Instant::now() + Duration::from_secs(240);
    while !has(h, "Back to home") {
        assert!(Instant::now() < deadline, "the game did not end in time");
        if play_once(h) {
            moves += 1;
            assert!(moves <= max_moves, "no end after {max_moves} moves");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    moves
}

/// Plays (cards and any prompt) until `done` holds.
pub fn play_until(
    h: &mut Harness<'_, HoardApp>,
    what: &str,
    mut done: impl FnMut(&Harness<'_, HoardApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        h.step();
        if done(h) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out playing until {what}");
        if !play_once(h) {
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Plays `turns` card turns (and whatever prompts come with them), then waits at the
/// start of a turn with every other seat's card face down.
pub fn play_turns_then_wait(h: &mut Harness<'_, HoardApp>, turns: usize, others: usize) {
    for _ in 0..turns {
        play_until(h, "my card choice", |h| has(h, "Play"));
        click_card_and_play(h);
    }
    // Answer any prompt until my card is asked for; then only wait (the last turn's cards
    // stay up a moment before the table shows the new turn's, face down).
    play_until(h, "my card choice", |h| has(h, "Play"));
    wait_until(h, "the others' cards face down", |h| {
        h.query_all_by_label_contains("has played face down")
            .count()
            >= others
    });
}

/// Chooses the first playable card and plays it.
pub fn click_card_and_play(h: &mut Harness<'_, HoardApp>) {
    let enabled = |h: &Harness<'_, HoardApp>| {
        h.query_all_by_label("Play")
            .any(|n| !n.accesskit_node().is_disabled())
    };
    // A tap can land just as the table rearranges (a turn's cards leaving); tap again.
    for _ in 0..3 {
        if enabled(h) {
            break;
        }
        if let Some(card) = playable_card(h) {
            click(h, &card);
        }
    }
    click(h, "Play");
}

/// Taps "End game" until its question shows: a tap can land just as a notice above the table
/// comes or goes and moves the bar.
pub fn open_end_question(h: &mut Harness<'_, HoardApp>) {
    for _ in 0..5 {
        click(h, "End game");
        for _ in 0..10 {
            if has(h, "End the game here?") {
                return;
            }
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    panic!("End game never asked its question");
}
