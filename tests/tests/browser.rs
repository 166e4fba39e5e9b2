//! The browser seat in a real browser: the page (`web/`, built by `web/build.sh`) served by a
//! native `hoard page` process on loopback, opened in headless Chromium at a phone's size,
//! and played by tapping it with touch events where it shows what a player would tap.
//!
//! The page is built once per run (release wasm, into `target/page`, with a target folder of
//! its own so it never waits on the test build's). Needs Chromium and wasm-bindgen-cli (what
//! `.ci/run` installs).
#![cfg(target_os = "linux")]

use hoard_tests::browser::{Browser, Shown, page, serve};
use hoard_tests::{GameResult, Line, Peer, Scratch, tail, wait_line};
use std::path::Path;
use std::sync::mpsc;
use std::time::{Duration, Instant};

const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

const TAP: Duration = Duration::from_secs(20);

/// Types `text` on the app's own keypad, as the kittest helper does: a letter of the case
/// the keypad is not showing changes its case first (the keypad changes case by itself after
/// a first capital, a frame later, so what it shows is looked at again before each change).
fn type_on_keys(b: &mut Browser, text: &str) -> Result<(), String> {
    for c in text.chars() {
        let key = c.to_string();
        let shown = |s: &[Shown]| s.iter().any(|x| x.tap && x.words == key).then_some(());
        for _ in 0..4 {
            if b.wait_for(Duration::from_millis(700), shown).is_ok() {
                break;
            }
            let case = ["abc", "ABC"]
                .into_iter()
                .find(|k| b.shown().iter().any(|s| s.tap && s.words == *k))
                .ok_or("no key to change case")?;
            b.tap(case, TAP)?;
        }
        b.tap(&key, TAP)?;
    }
    Ok(())
}

/// A first run: the name typed on the keypad, a colour, "Let's play".
fn first_run(b: &mut Browser, name: &str, colour: &str) {
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words == "Welcome to Hoard")
            .then_some(())
    })
    .expect("the welcome screen");
    type_on_keys(b, name).expect("typed on the keypad");
    b.tap(colour, TAP).expect("a colour");
    b.tap("Let's play", TAP).expect("Let's play");
}

/// Says "I'm ready" if the lobby asks, tapping again if a tap missed: the button moves down
/// as the seats above it fill, and a tap read from the frame before may land on a seat.
fn say_ready(b: &mut Browser) {
    let asked = |s: &[Shown]| {
        s.iter()
            .find(|x| x.tap && (x.words == "I'm ready" || x.words.starts_with("Deck: ")))
            .map(|x| x.words.clone())
    };
    for _ in 0..5 {
        match b.wait_for(Duration::from_secs(60), asked).as_deref() {
            Ok("I'm ready") => b.tap("I'm ready", TAP).expect("ready"),
            _ => return,
        }
        let ready =
            |s: &[Shown]| (!s.iter().any(|x| x.tap && x.words == "I'm ready")).then_some(());
        if b.wait_for(Duration::from_secs(3), ready).is_ok() {
            return;
        }
    }
    panic!("the lobby never took \"I'm ready\"");
}

fn buttons(shown: &[Shown]) -> Vec<String> {
    shown
        .iter()
        .filter(|s| s.tap)
        .map(|s| s.words.clone())
        .collect()
}

fn card_number(label: &str) -> Option<u8> {
    label
        .strip_prefix("Counter with your ")
        .or(label.strip_prefix("Your "))?
        .parse()
        .ok()
}

/// One thing Counter asks of the player, if it asks anything (as `counter_play.rs` plays):
/// lets a card stand, or plays the highest card, or draws, or waits. Returns whether it
/// tapped anything.
fn play_once(b: &mut Browser) -> Result<bool, String> {
    let shown = b.shown();
    let buttons = buttons(&shown);
    if buttons.iter().any(|x| x == "Let it stand") {
        // A window closes by itself: tapped only if still there.
        let _ = b.tap("Let it stand", Duration::from_millis(500));
        return Ok(true);
    }
    let mut cards: Vec<(u8, String)> = buttons
        .iter()
        .filter(|x| x.starts_with("Your "))
        .filter_map(|x| Some((card_number(x)?, x.clone())))
        .collect();
    cards.sort();
    if let Some((_, highest)) = cards.last() {
        b.tap(highest, TAP)?;
        // A card dealt a moment ago may still be sliding in under the finger: a tap that
        // picked nothing is tapped again, as a player would.
        return Ok(b.tap("Play it", Duration::from_secs(3)).is_ok());
    }
    for mv in ["Draw", "Wait"] {
        if buttons.iter().any(|x| x == mv) {
            b.tap(mv, TAP)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// Plays until the end screen, at most `moves` taps of moves (`None`: to the end); returns
/// the moves made.
fn play(b: &mut Browser, moves: Option<usize>, deadline: Instant) -> Result<usize, String> {
    let mut made = 0;
    while !b.shows("Back to home") && moves.is_none_or(|m| made < m) {
        if Instant::now() > deadline {
            return Err(format!("no end in time after {made} moves"));
        }
        if play_once(b)? {
            made += 1;
        } else {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    Ok(made)
}

/// The issue's: "a browser seat ... holds a hidden hand dealt from the mental deck" and "one
/// browser tab is closed mid-game and opened again: it returns to its seat, the game ends
/// verified". The page hosting a table with two bots (its device runs them, as a laptop's
/// does): a first run typed on the keypad, a Counter game dealt from the mental deck,
/// the page reloaded mid-game and the game resumed from what the browser kept, played to
/// the verified end by tapping.
#[test]
#[ignore = "headless Chromium lost taps on a loaded 2-core CI machine: run with --ignored"]
fn a_phone_browser_plays_counter_against_bots_by_tapping_and_a_reload_loses_nothing() {
    let scratch = Scratch::new("browser-counter");
    let (_server, url) = serve(Path::new(PEER), &scratch);
    let mut b = Browser::open(&url, 360, 640).expect("chromium opens the page");
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words == "Welcome to Hoard")
            .then_some(())
    })
    .expect("the welcome screen");
    first_run(&mut b, "Mia", "Blue");
    // A table of its own (with the table's relay at hand, the page hosts as a laptop does).
    b.tap("Host a table", TAP).expect("Host a table");
    for n in 1..=2 {
        let seated =
            |s: &[Shown]| (s.iter().filter(|x| x.words == "Remove").count() >= n).then_some(());
        // A tap read from the frame before may miss as the seats above move: tap again.
        for _ in 0..5 {
            b.tap("Add a bot", TAP).expect("Add a bot");
            if b.wait_for(Duration::from_secs(3), seated).is_ok() {
                break;
            }
        }
        b.wait_for(TAP, seated).expect("the bot sits down");
    }
    b.tap("Counter", TAP).expect("Counter");
    b.tap("1 s", TAP).expect("one second to counter");
    b.tap("Start the game", TAP).expect("start");
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.starts_with("Deck: "))
            .then_some(())
    })
    .expect("the Counter table");
    // A hand dealt from the mental deck, shown only here.
    let hand = b
        .wait_for(Duration::from_secs(60), |s| {
            let cards: Vec<String> = s
                .iter()
                .filter(|x| x.words.starts_with("Your "))
                .map(|x| x.words.clone())
                .collect();
            (!cards.is_empty()).then_some(cards)
        })
        .expect("a hand is dealt");
    assert!(!hand.is_empty());

    let deadline = Instant::now() + Duration::from_secs(300);
    let before = play(&mut b, Some(4), deadline).expect("moves before the reload");
    assert!(
        !b.shows("Back to home"),
        "the game is still going at the reload"
    );
    shoot(&mut b, "browser-table");

    // The tab closed and opened again: what the browser kept brings the game back, straight
    // to the table (as a laptop's app killed at a table does).
    b.eval("window.hoardBeforeReload = true")
        .expect("a mark on the old page");
    b.reload().expect("reload");
    let reloaded = Instant::now() + Duration::from_secs(30);
    while b.eval("window.hoardBeforeReload === true") != Ok(serde_json::Value::Bool(false)) {
        assert!(Instant::now() < reloaded, "the page did not reload");
        std::thread::sleep(Duration::from_millis(50));
    }
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.starts_with("Deck: "))
            .then_some(())
    })
    .expect("back at the Counter table after the reload");
    let after = play(&mut b, None, deadline).expect("played to the end");
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.contains("Verified") || x.words.contains("Not verified"))
            .then_some(())
    })
    .expect("the audit's verdict");
    assert!(
        b.shows("Verified: every hidden card"),
        "the audit verifies the game played in the browser ({before} moves, a reload, \
         {after} more)"
    );
    shoot(&mut b, "browser-end");
}

/// A laptop's table: `hoard host --loopback --page` with `args` (the game, bots, seats...),
/// serving the page; its process, its address and its join code.
fn laptop_hosting(
    scratch: &Scratch,
    args: &[&str],
    tx: &mpsc::Sender<Line>,
    lines: &mpsc::Receiver<Line>,
    seen: &mut Vec<Line>,
) -> (Peer, String, String) {
    let args: Vec<String> = ["host", "--name", "Lap", "--loopback", "--linger-ms", "4000"]
        .iter()
        .chain(args)
        .map(|a| a.to_string())
        .chain(["--page".to_string(), page().display().to_string()])
        .collect();
    let host = Peer::spawn(Path::new(PEER), "host", &args, &scratch.dir("host"), tx);
    let deadline = Instant::now() + Duration::from_secs(30);
    let (mut url, mut ticket) = (None, None);
    while url.is_none() || ticket.is_none() {
        let line = wait_line(lines, deadline, seen, |l| Some(l.text.clone()))
            .unwrap_or_else(|| panic!("no page and code: {}", tail(seen, 20)));
        if let Some(u) = line.strip_prefix("PAGE ") {
            url = Some(u.to_string());
        }
        if let Some(t) = line.strip_prefix("TICKET ") {
            ticket = Some(t.to_string());
        }
    }
    (host, url.unwrap_or_default(), ticket.unwrap_or_default())
}

/// The page as it looks, in `target/page-shots/<name>.png` (the README's are copied from
/// there).
fn shoot(b: &mut Browser, name: &str) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/page-shots");
    if let (Ok(png), Ok(())) = (b.screenshot(), std::fs::create_dir_all(&dir)) {
        let _ = std::fs::write(dir.join(format!("{name}.png")), png);
    }
}

/// The issue's "a browser seat ... holds a hidden hand dealt from the mental deck" and "one
/// browser tab is closed mid-game and opened again: it returns to its seat, the game ends
/// verified on every device", at a real table: a laptop (`hoard host --page`, with a bot)
/// serves the page and the table's relay on loopback; a phone's browser opens the page's
/// address with the join code in it, types a name, sits down by itself and plays Counter
/// through the relay by tapping; its tab is closed mid-game and the page's address (no code
/// in it now) opened in a new one, which comes back to the seat from what the browser kept;
/// played to the end, both devices end verified, on the same game.
#[test]
#[ignore = "headless Chromium lost taps on a loaded 2-core CI machine: run with --ignored"]
fn a_phone_browser_at_a_laptops_table_closes_its_tab_comes_back_and_the_game_ends_verified() {
    at_a_laptops_table("browser-table", false);
}

/// Issue 28: "every native device at a table with a browser seat" reaches it. A second
/// laptop (`hoard join --bot`, which serves no page and has no relay of its own) sits at the
/// table too: the browser reaches only the relay of the laptop that served its page, so the
/// second laptop dials the browser there, whichever of their ids is lower. All three devices
/// end verified, on the same game.
#[test]
#[ignore = "headless Chromium lost taps on a loaded 2-core CI machine: run with --ignored"]
fn a_phone_browser_and_a_second_laptop_reach_each_other_through_the_table_relay() {
    at_a_laptops_table("browser-two-laptops", true);
}

/// A Counter table hosted by `hoard host --page` with a bot, a phone's browser seated by the
/// page's address, and with `second_laptop` another `hoard join --bot` (without, the
/// browser's tab is closed after three moves and the page's address opened again); played to
/// the end by tapping; every device's audit verified, on the same state.
fn at_a_laptops_table(name: &str, second_laptop: bool) {
    let scratch = Scratch::new(name);
    let (tx, lines) = mpsc::channel::<Line>();
    let mut seen = Vec::new();
    let seats = if second_laptop { "4" } else { "3" };
    let game = ["--game", "counter", "--bots", "1", "--seats", seats];
    let args = [&game[..], &["--timeout", "240"]].concat();
    let (_host, url, ticket) = laptop_hosting(&scratch, &args, &tx, &lines, &mut seen);
    let _guest = second_laptop.then(|| {
        let args: Vec<String> = [
            "join",
            &ticket,
            "--bot",
            "--name",
            "Ben",
            "--loopback",
            "--timeout",
            "240",
            "--linger-ms",
            "4000",
        ]
        .iter()
        .map(|a| a.to_string())
        .collect();
        Peer::spawn(Path::new(PEER), "guest", &args, &scratch.dir("guest"), &tx)
    });
    let mut b = Browser::open(&format!("{url}#join={ticket}"), 360, 640).expect("chromium");
    first_run(&mut b, "Mia", "Blue");
    say_ready(&mut b);
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.starts_with("Deck: "))
            .then_some(())
    })
    .unwrap_or_else(|e| {
        panic!(
            "the game started at the laptop's table: {e}; {}",
            tail(&seen, 20)
        )
    });
    let hand = b.wait_for(Duration::from_secs(60), |s| {
        s.iter().any(|x| x.words.starts_with("Your ")).then_some(())
    });
    assert!(
        hand.is_ok(),
        "a hand dealt through the relay from the mental deck"
    );
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut moves = 0;
    if !second_laptop {
        moves = play(&mut b, Some(3), deadline)
            .unwrap_or_else(|e| panic!("{e}; the laptop said: {}", tail(&seen, 20)));
        assert!(
            !b.shows("Back to home"),
            "the game goes on as the tab closes"
        );
        b.close_tab_and_open(&url).expect("a new tab");
        b.wait_for(Duration::from_secs(60), |s| {
            s.iter()
                .any(|x| x.words.starts_with("Deck: "))
                .then_some(())
        })
        .unwrap_or_else(|e| panic!("back at the table in a new tab: {e}"));
    }
    moves += play(&mut b, None, deadline)
        .unwrap_or_else(|e| panic!("{e}; the laptops said: {}", tail(&seen, 20)));
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.contains("Verified") || x.words.contains("Not verified"))
            .then_some(())
    })
    .expect("the audit's verdict in the browser");
    assert!(
        b.shows("Verified: every hidden card"),
        "the browser verifies the game it played ({moves} moves)"
    );
    if !second_laptop {
        shoot(&mut b, "browser-at-a-table");
    }
    let laptops = if second_laptop { 2 } else { 1 };
    let mut results: Vec<(String, GameResult)> = Vec::new();
    while results.len() < laptops {
        let result = wait_line(
            &lines,
            Instant::now() + Duration::from_secs(60),
            &mut seen,
            |l| GameResult::parse(&l.text).map(|r| (l.peer.clone(), r)),
        )
        .unwrap_or_else(|| panic!("no result from every laptop: {}", tail(&seen, 30)));
        results.push(result);
    }
    for (peer, result) in &results {
        assert_eq!(result.audit, "verified", "{peer} verifies the same game");
        assert_eq!(
            (&result.session, &result.state),
            (&results[0].1.session, &results[0].1.state),
            "{peer} ended on the same game"
        );
    }
}

/// The move a shared screen says it shows ("Move 12").
fn move_shown(shown: &[Shown]) -> Option<u32> {
    shown
        .iter()
        .find_map(|x| x.words.strip_prefix("Move ")?.parse().ok())
}

/// The "a browser page as the shared screen shows the board and never a hand" (and
/// "A TV's browser as the shared screen"). A laptop hosts Counter with a bot, and a phone's
/// browser sits down by the page's address; a TV's browser opens the page at the table's code
/// after `#watch=` (the address the table's "Screen code" shows), is asked for no name, shows
/// the table large, and follows the game the phone plays by tapping, never showing a hand.
#[test]
#[ignore = "headless Chromium lost taps on a loaded 2-core CI machine: run with --ignored"]
fn a_tvs_browser_opened_at_the_tables_code_follows_the_game_and_never_shows_a_hand() {
    let scratch = Scratch::new("browser-tv");
    let (tx, lines) = mpsc::channel::<Line>();
    let mut seen = Vec::new();
    let args = [
        "--game",
        "counter",
        "--bots",
        "1",
        "--seats",
        "3",
        "--timeout",
        "300",
    ];
    let (_host, url, ticket) = laptop_hosting(&scratch, &args, &tx, &lines, &mut seen);
    let mut phone = Browser::open(&format!("{url}#join={ticket}"), 360, 640).expect("chromium");
    first_run(&mut phone, "Mia", "Blue");
    say_ready(&mut phone);
    phone
        .wait_for(Duration::from_secs(60), |s| {
            s.iter().any(|x| x.words.starts_with("Your ")).then_some(())
        })
        .unwrap_or_else(|e| panic!("the phone's hand: {e}; {}", tail(&seen, 20)));

    let mut tv = Browser::open(&format!("{url}#watch={ticket}"), 1280, 720).expect("chromium");
    tv.wait_for(Duration::from_secs(60), |s| {
        s.iter().any(|x| x.words == "Last plays").then_some(())
    })
    .unwrap_or_else(|e| panic!("the TV shows the table: {e}; {}", tail(&seen, 20)));
    assert!(!tv.shows("Welcome to Hoard"), "a TV is asked for no name");
    for name in ["Lap", "Bot 1", "Mia"] {
        assert!(tv.shows(name), "every seat is on the TV: {name}");
    }
    let first = tv
        .wait_for(Duration::from_secs(10), move_shown)
        .expect("the TV says which move it shows");
    shoot(&mut tv, "browser-tv");

    let deadline = Instant::now() + Duration::from_secs(240);
    while !phone.shows("Back to home") {
        assert!(Instant::now() < deadline, "no end in time");
        if !play_once(&mut phone).expect("the phone plays") {
            std::thread::sleep(Duration::from_millis(100));
        }
        let hand: Vec<String> = tv
            .shown()
            .into_iter()
            .filter(|x| x.words.starts_with("Your ") || x.words == "Play it")
            .map(|x| x.words)
            .collect();
        assert!(hand.is_empty(), "the TV shows a hand: {hand:?}");
    }
    tv.wait_for(Duration::from_secs(60), |s| {
        move_shown(s).filter(|m| *m > first)
    })
    .expect("the TV followed the game");
}
