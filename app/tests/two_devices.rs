//! Two copies of the app on this machine's network, each with its own data folder: one
//! hosts, the other joins with the host's join code typed into the Join field, and they
//! play GreedQuest together through the real screens to the verified end, or end it early
//! by agreement.

use crate::support;

use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::NetworkChoice;
use std::time::{Duration, Instant};
use support::*;

type App = egui_kittest::Harness<'static, hoard_app::HoardApp>;

/// Mia hosts on a phone, Ana joins by code on a laptop, and the game begins.
fn seated_pair(dir_a: &std::path::Path, dir_b: &std::path::Path) -> (App, App) {
    let (dir_a, dir_b) = (dir_a.to_path_buf(), dir_b.to_path_buf());
    let mut host = app_on(dir_a.clone(), [360.0, 780.0], true, NetworkChoice::Wifi);
    let mut guest = app_on(dir_b.clone(), [1280.0, 800.0], false, NetworkChoice::Wifi);
    create_profile(&mut host, "Mia", "Blue");

    click(&mut host, "Host a table");
    wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
    let ticket = shown_code(&host);

    // The guest, on a laptop, types the code on the keyboard.
    laptop_uses_code(&mut guest, "Ana", &ticket, "Join");
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
    (host, guest)
}

#[test]
fn a_guest_joins_by_code_and_both_play_greedquest_to_a_verified_end() {
    let (dir_a, dir_b) = (scratch("host"), scratch("guest"));
    let (mut host, mut guest) = seated_pair(&dir_a, &dir_b);

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

/// Plays (both devices, whatever they are asked) until `done` holds for both.
fn play_both_until(host: &mut App, guest: &mut App, what: &str, done: impl Fn(&App) -> bool) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(done(host) && done(guest)) {
        assert!(Instant::now() < deadline, "timed out playing until {what}");
        // A device already where it should be plays nothing more: a card it laid now would
        // be a move at the step the test is about to ask about.
        let a = !done(host) && play_once(host);
        let b = !done(guest) && play_once(guest);
        if !a && !b {
            host.step();
            guest.step();
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

/// Issue 14 between two people: Mia asks to end the game; Ana is asked ("Mia wants to end
/// the game here"), plays on instead, and the game goes on. Asked again later, Ana agrees,
/// and both screens say the game ended by agreement and was verified.
#[test]
fn a_guest_asked_to_end_the_game_first_plays_on_then_agrees_and_both_see_it_verified() {
    let (dir_a, dir_b) = (scratch("host-end"), scratch("guest-end"));
    let (mut host, mut guest) = seated_pair(&dir_a, &dir_b);
    let my_card = |h: &App| has(h, "Play");
    play_both_until(&mut host, &mut guest, "the first cards", |h| {
        h.query_by_label_contains("Turn 1").is_some() || my_card(h)
    });

    open_end_question(&mut host);
    click(&mut host, "Ask to end the game");
    wait_until(&mut guest, "the question", |h| {
        h.query_all_by_label_contains("Mia wants to end the game here")
            .next()
            .is_some()
    });
    wait_until(&mut host, "the wait", |h| {
        h.query_by_label_contains("Waiting for Ana to agree")
            .is_some()
    });
    click(&mut guest, "Keep playing");
    // The game goes on: a turn later, neither device has ended it.
    play_both_until(&mut host, &mut guest, "the next turn", |h| {
        h.query_by_label_contains("Turn 2").is_some()
    });
    assert!(!has(&host, "Back to home") && !has(&guest, "Back to home"));

    play_both_until(&mut host, &mut guest, "a card to choose", my_card);
    open_end_question(&mut host);
    click(&mut host, "Ask to end the game");
    wait_until(&mut guest, "the question again", |h| {
        h.query_all_by_label_contains("Mia wants to end the game here")
            .next()
            .is_some()
    });
    // A tap can land while a notice above the table moves the buttons (as open_end_question
    // knows): tap End again until the guest's agreement shows, or the game has ended.
    for _ in 0..5 {
        click(&mut guest, "End");
        let agreed = |h: &App| {
            h.query_by_label_contains("You asked to end the game here")
                .is_some()
                || has(h, "The game ended by agreement.")
        };
        for _ in 0..40 {
            guest.step();
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        if agreed(&guest) {
            break;
        }
    }
    for h in [&mut host, &mut guest] {
        wait_until(h, "the end by agreement, verified", |h| {
            has(h, "The game ended by agreement.")
                && h.query_by_label_contains("Verified: every hidden card")
                    .is_some()
        });
    }
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}

/// Issue 18: "A laptop or a TV at the table joins as a screen, not a seat: it shows the
/// public table large (the board, every seat's public state, the last plays, whose turn,
/// the dice), never a hand, and follows the game live; phones hold the hands. It [...] may
/// join or leave any time, also mid-game." Mia plays on her phone against two bots; a
/// laptop joins by code mid-game as the screen and follows along at 1920×1080.
#[test]
fn a_laptop_joins_mid_game_as_the_shared_screen_shows_the_board_and_never_a_hand() {
    let (dir_a, dir_b) = (scratch("screen-host"), scratch("screen"));
    let mut host = app_on(dir_a.clone(), [360.0, 780.0], true, NetworkChoice::Wifi);
    create_profile(&mut host, "Mia", "Blue");
    click(&mut host, "Host a table");
    wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
    let ticket = shown_code(&host);
    for n in 0..2 {
        click(&mut host, "Add a bot");
        wait_until(&mut host, "the bot to sit down", |h| {
            h.query_all_by_label("Remove").count() > n
        });
    }
    start(&mut host);
    play_until(&mut host, "a turn played", |h| {
        h.query_by_label_contains("Turn 2").is_some()
    });

    let mut screen = app_on(dir_b.clone(), [1920.0, 1080.0], false, NetworkChoice::Wifi);
    laptop_uses_code(&mut screen, "Living room", &ticket, "Show the table here");
    // Issue 31: "'Joining the table…' covers Leave for 4 s" and "none for what the screen
    // already shows": the screen's title says it is joining, and no notice covers Leave.
    let covering = |h: &App| {
        let leave = h.get_by_label("< Leave").rect();
        h.query_all_by(|n| n.label().is_some_and(|l| l.starts_with("Put away: ")))
            .any(|n| n.rect().intersects(leave))
    };
    for _ in 0..40 {
        assert!(!covering(&screen), "a notice covers Leave while joining");
        host.step();
        screen.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    let deadline = Instant::now() + Duration::from_secs(30);
    while !(has(&screen, "Last plays") && has(&screen, "Room 12: The Hoard")) {
        assert!(
            Instant::now() < deadline,
            "the screen never showed the table"
        );
        host.step();
        screen.step();
        std::thread::sleep(Duration::from_millis(5));
    }
    screen.check_accessibility();
    for name in ["Mia", "Bot 1", "Bot 2"] {
        assert!(has(&screen, name), "every seat is on the screen: {name}");
    }
    let move_shown = |h: &App| {
        h.query_all_by(|n| {
            n.label()
                .or(n.value())
                .is_some_and(|l| l.starts_with("Move "))
        })
        .find_map(|n| n.accesskit_node().label().or(n.accesskit_node().value()))
        .and_then(|l| l.trim_start_matches("Move ").parse::<u32>().ok())
    };
    let joined_at = move_shown(&screen).expect("the screen says which move it shows");
    assert!(joined_at > 0, "the screen joined mid-game");

    // The game goes on on the phone; the screen follows and never shows a hand.
    let deadline = Instant::now() + Duration::from_secs(60);
    while move_shown(&screen).is_none_or(|m| m < joined_at + 6) {
        assert!(
            Instant::now() < deadline,
            "the screen did not follow the game"
        );
        if !play_once(&mut host) {
            host.step();
        }
        screen.step();
        let hand: Vec<String> = screen
            .query_all_by_role(egui::accesskit::Role::Button)
            .filter_map(|n| n.accesskit_node().label())
            .filter(|l| CARD_NAMES.contains(&l.as_str()) || l == "Play")
            .collect();
        assert!(hand.is_empty(), "the screen shows a hand: {hand:?}");
        std::thread::sleep(Duration::from_millis(2));
    }

    // It may leave at any time; the game goes on without it.
    click(&mut screen, "< Leave");
    wait_until(&mut screen, "home again", |h| has(h, "Host a table"));
    let _ = std::fs::remove_dir_all(&dir_a);
    let _ = std::fs::remove_dir_all(&dir_b);
}

/// Issue 31: "feedback on 'Copy the code'". The host is told the code was copied, until it
/// hides the code.
#[test]
fn copying_the_join_code_says_it_was_copied() {
    let dir = scratch("copy-code");
    let mut host = app_on(dir.clone(), [360.0, 780.0], true, NetworkChoice::Wifi);
    create_profile(&mut host, "Mia", "Blue");
    click(&mut host, "Host a table");
    wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
    fn copied(h: &App) -> bool {
        h.query_by_label_contains("Copied: paste it").is_some()
    }
    assert!(!copied(&host), "nothing was copied yet");
    click(&mut host, "Copy the code");
    wait_until(&mut host, "word that the code was copied", |h| {
        h.query_by_label_contains("Copied: paste it").is_some()
    });
    click(&mut host, "Hide the join code");
    wait_until(&mut host, "the code hidden", |h| {
        has(h, "Show the join code")
    });
    assert!(!copied(&host));
    drop(host);
    let _ = std::fs::remove_dir_all(dir);
}

/// Issue 28: "the app's table and lobby screens ... show an address and a QR code,
/// `http://<its LAN address>:<port>/`, that a phone's camera opens. The join ticket travels in
/// the address (fragment), so one scan seats the player." The host's lobby shows the address
/// with the code in its QR, the page is served there, and the same address pasted into
/// another Hoard's join field seats that player too.
#[test]
fn the_hosts_lobby_shows_phones_the_pages_address_which_serves_the_page_and_seats_by_its_code() {
    static PAGE: &[(&str, &[u8])] = &[
        (
            "index.html",
            b"<!doctype html><title>Hoard at the table</title>",
        ),
        ("hoard_web.js", b"// the app"),
    ];
    let (dir_a, dir_b) = (scratch("page-host"), scratch("page-guest"));
    let builder = egui_kittest::Harness::builder().with_size([360.0, 780.0]);
    let mut host = app_serving(builder, dir_a.clone(), true, NetworkChoice::Wifi, PAGE);
    create_profile(&mut host, "Mia", "Blue");
    click(&mut host, "Host a table");
    wait_until(&mut host, "the join code", |h| has(h, "Copy the code"));
    let ticket = shown_code(&host);
    let opened = host
        .query_all_by(|_| true)
        .find_map(|n| {
            let node = n.accesskit_node();
            [node.label(), node.value()]
                .into_iter()
                .flatten()
                .find(|l| l.starts_with("Or open http://"))
        })
        .unwrap_or_else(|| {
            let labels: Vec<String> = host
                .query_all_by(|_| true)
                .filter_map(|n| n.accesskit_node().label())
                .collect();
            panic!("the page's address is not shown: {labels:?}")
        });
    let url = opened.trim_start_matches("Or open ").to_string();
    assert!(url.ends_with('/'), "{url}");
    assert!(
        host.query_by_label("QR code of the page's address, with the join code")
            .is_some(),
        "the QR holds the page's address"
    );

    let (head, body) = http_get(&url, "/");
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(body.contains("<title>Hoard at the table</title>"), "{body}");
    let (head, body) = http_get(&url, "/hoard_web.js");
    assert!(head.contains("text/javascript"), "{head}");
    assert_eq!(body, "// the app");

    // What the QR holds, pasted into Hoard on a laptop, seats its player.
    let mut guest = app_on(dir_b.clone(), [1280.0, 800.0], false, NetworkChoice::Wifi);
    let address = hoard_app::screens::home::join_address(&url, &ticket);
    laptop_uses_code(&mut guest, "Ana", &address, "Join");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !has(&guest, "I'm ready") {
        assert!(Instant::now() < deadline, "the guest never sat down");
        host.step();
        guest.step();
        std::thread::sleep(Duration::from_millis(10));
    }
    drop((host, guest));
    let _ = std::fs::remove_dir_all(dir_a);
    let _ = std::fs::remove_dir_all(dir_b);
}

/// A plain HTTP GET of `path` at `url` (`http://host:port/`): the head and the body.
fn http_get(url: &str, path: &str) -> (String, String) {
    use std::io::{Read, Write};
    let authority = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut stream = std::net::TcpStream::connect(&authority).expect("the page's port answers");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("a timeout");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {authority}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request is sent");
    let mut reply = String::new();
    stream.read_to_string(&mut reply).expect("the page answers");
    let (head, body) = reply.split_once("\r\n\r\n").expect("a head and a body");
    (head.to_string(), body.to_string())
}
