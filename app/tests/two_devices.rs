//! Two copies of the app on this machine's network, each with its own data folder: one
//! hosts, the other joins with the host's join code typed into the Join field, and they
//! play GreedQuest together through the real screens to the verified end.

mod support;

use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::NetworkChoice;
use std::time::{Duration, Instant};
use support::*;

#[test]
fn a_guest_joins_by_code_and_both_play_greedquest_to_a_verified_end() {
    let (dir_a, dir_b) = (scratch("host"), scratch("guest"));
    let mut host = app_on(dir_a.clone(), [360.0, 780.0], true, NetworkChoice::Wifi);
    let mut guest = app_on(dir_b.clone(), [1280.0, 800.0], false, NetworkChoice::Wifi);
    create_profile(&mut host, "Mia", "Blue");

    click(&mut host, "Host a table");
    wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
    let ticket = host
        .query_all_by(|n| n.value().is_some_and(|v| v.starts_with("endpoint")))
        .find_map(|n| n.accesskit_node().value())
        .expect("the join code is shown as text");

    // The guest, on a laptop, types the code on the keyboard.
    wait_until(&mut guest, "the welcome screen", |h| {
        has(h, "Welcome to Hoard")
    });
    guest.get_by_label("Your name").focus();
    guest.step();
    guest.get_by_label("Your name").type_text("Ana");
    guest.step();
    click(&mut guest, "Let's play");
    click(&mut guest, "Join with a code");
    guest.get_by_label("Join code").focus();
    guest.step();
    guest.get_by_label("Join code").type_text(&ticket);
    guest.step();
    click(&mut guest, "Join");
    wait_until(&mut guest, "the guest's lobby", |h| has(h, "I'm ready"));
    click(&mut guest, "I'm ready");

    // The host sees the guest ready and starts.
    let deadline = Instant::now() + Duration::from_secs(30);
    while !host
        .query_all_by_label("Start the game")
        .any(|n| !n.accesskit_node().is_disabled())
    {
        assert!(
            Instant::now() < deadline,
            "the guest never sat down at the host's table"
        );
        host.step();
        guest.step();
        if has(&host, "I'm ready") {
            click(&mut host, "I'm ready");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    click(&mut host, "Start the game");

    // Both play whatever they are asked until both see the end.
    let deadline = Instant::now() + Duration::from_secs(300);
    while !(has(&host, "Back to home") && has(&guest, "Back to home")) {
        assert!(Instant::now() < deadline, "the game did not end in time");
        let a = play_once(&mut host);
        let b = play_once(&mut guest);
        if !a && !b {
            host.step();
            guest.step();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
    for h in [&mut host, &mut guest] {
        wait_until(h, "the audit's verdict", |h| {
            h.query_by_label_contains("Verified: every hidden card")
                .is_some()
        });
    }
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}
