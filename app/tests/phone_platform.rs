//! The app on a phone's platform: nothing is drawn under the system bars the phone reports,
//! the screen is kept awake only while the player sits at a table, and the player's turn is
//! felt.

use crate::support;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::platform::{Insets, Platform};
use hoard_app::{AppConfig, HoardApp, NetworkChoice};
use std::sync::{Arc, Mutex};
use support::*;

/// A phone as the tests see it: bars they set, and every `at_table` call kept.
#[derive(Clone, Default)]
struct FakePhone {
    insets: Arc<Mutex<Option<Insets>>>,
    at_table: Arc<Mutex<Vec<bool>>>,
    your_turn: Arc<Mutex<Vec<bool>>>,
}

impl Platform for FakePhone {
    fn insets(&mut self) -> Option<Insets> {
        *self.insets.lock().expect("insets")
    }
    fn at_table(&mut self, on: bool) {
        self.at_table.lock().expect("calls").push(on);
    }
    fn your_turn(&mut self, mine: bool) {
        self.your_turn.lock().expect("calls").push(mine);
    }
}

fn phone_app(dir: std::path::PathBuf, phone: FakePhone) -> Harness<'static, HoardApp> {
    Harness::builder()
        .with_size([360.0, 780.0])
        .with_max_steps(10_000)
        .build_eframe(move |cc| {
            HoardApp::new(
                cc,
                AppConfig {
                    data_dir: dir,
                    phone: true,
                    network: Some(NetworkChoice::Offline),
                    platform: Some(Box::new(phone)),
                    opened: None,
                    page: &[],
                },
            )
        })
}

/// The highest top and the lowest bottom of everything on the screen.
fn extent(h: &Harness<'_, HoardApp>) -> (f32, f32) {
    // Nodes without bounds (the window's root) and the window-sized ones are left out.
    h.query_all_by(|_| true)
        .filter_map(|n| n.accesskit_node().bounding_box())
        .filter(|r| r.width() > 0.0 && r.height() > 0.0 && r.height() < 700.0)
        .fold((f32::MAX, f32::MIN), |(top, bottom), r| {
            (top.min(r.y0 as f32), bottom.max(r.y1 as f32))
        })
}

#[test]
fn nothing_is_drawn_under_the_status_bar_or_the_navigation_bar_the_phone_reports() {
    let dir = scratch("phone-bars");
    let phone = FakePhone::default();
    // A tall status bar and a three-button navigation bar, in pixels (one per point here).
    *phone.insets.lock().expect("insets") = Some(Insets {
        top: 44,
        bottom: 90,
        left: 0,
        right: 0,
    });
    let mut h = phone_app(dir.clone(), phone.clone());
    create_profile(&mut h, "Ida", "Blue");
    // The welcome screen and home are short: all of them fits between the bars.
    let (top, bottom) = extent(&h);
    assert!(
        top >= 44.0,
        "something drawn under the status bar, at y = {top}"
    );
    assert!(
        bottom <= 780.0 - 90.0,
        "something drawn under the navigation bar, down to y = {bottom}"
    );

    // The status bar changes (a cutout's notification, a different mode): followed within
    // half a second of the app's clock (each step is a quarter of a second).
    *phone.insets.lock().expect("insets") = Some(Insets {
        top: 30,
        bottom: 90,
        left: 0,
        right: 0,
    });
    let mut steps = 0;
    while !(30.0..44.0).contains(&extent(&h).0) {
        assert!(steps < 3, "the smaller status bar is not followed");
        h.step();
        steps += 1;
    }

    // The phone is turned: the window changes shape and the navigation bar moves to the
    // side; the very next frame keeps clear of it (a quarter of a second after the bars were
    // last asked for: a new size is reason enough to ask again).
    *phone.insets.lock().expect("insets") = Some(Insets {
        top: 24,
        bottom: 0,
        left: 0,
        right: 90,
    });
    h.set_size(egui::vec2(780.0, 360.0));
    h.step();
    let rightmost = h
        .query_all_by(|_| true)
        .filter_map(|n| n.accesskit_node().bounding_box())
        .filter(|r| r.width() > 0.0 && r.width() < 700.0)
        .map(|r| r.x1 as f32)
        .fold(f32::MIN, f32::max);
    let (top, _) = extent(&h);
    assert!((24.0..30.0).contains(&top), "top at y = {top}");
    assert!(
        rightmost <= 780.0 - 90.0,
        "something drawn under the navigation bar on the right, out to x = {rightmost}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_screen_is_kept_awake_at_the_table_and_let_sleep_at_home() {
    let dir = scratch("phone-awake");
    let phone = FakePhone::default();
    let calls = || phone.at_table.lock().expect("calls").clone();
    let mut h = phone_app(dir.clone(), phone.clone());
    create_profile(&mut h, "Oz", "Red");
    assert_eq!(calls(), vec![false], "at home the screen may sleep");
    // Waiting in the lobby for friends to join: nobody touches the phone.
    host_with_bots(&mut h, 1);
    assert_eq!(calls(), vec![false, true]);
    start(&mut h);
    wait_until(&mut h, "my hand", |h| has(h, "Play"));
    assert_eq!(calls(), vec![false, true], "still at the table");

    h.key_press(egui::Key::Escape);
    click(&mut h, "Leave the game");
    wait_until(&mut h, "Home", |h| has(h, "Play against bots"));
    h.step();
    assert_eq!(
        calls(),
        vec![false, true, false],
        "leaving the table lets the screen sleep again"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 31: "'your turn' felt on a phone (vibration where the platform has it)". The phone
/// is told when the game comes to its player (it buzzes), and when it no longer waits on
/// them (here: she leaves); never twice the same.
#[test]
fn the_phone_is_told_when_the_turn_comes_to_its_player_and_when_it_has_gone() {
    let dir = scratch("phone-turn");
    let phone = FakePhone::default();
    let calls = || phone.your_turn.lock().expect("calls").clone();
    let mut h = phone_app(dir.clone(), phone.clone());
    create_profile(&mut h, "Oz", "Red");
    host_with_bots(&mut h, 1);
    assert!(calls().is_empty(), "nothing to feel before the game");
    start(&mut h);
    wait_until(&mut h, "my hand", |h| has(h, "Play"));
    wait_until(&mut h, "the turn felt", |_| calls() == vec![true]);
    // Playing on against a bot that answers at once keeps the turn with her: nothing new
    // to feel.
    play_once(&mut h);
    for _ in 0..20 {
        h.step();
    }
    assert!(calls().first() == Some(&true), "{:?}", calls());
    h.key_press(egui::Key::Escape);
    click(&mut h, "Leave the game");
    wait_until(&mut h, "Home again", |h| has(h, "Play against bots"));
    let told = calls();
    assert!(
        told.len() >= 2
            && told.last() == Some(&false)
            && told
                .iter()
                .enumerate()
                .all(|(i, mine)| *mine == (i % 2 == 0)),
        "felt, then gone, never felt twice in a row: {told:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
