//! The browser seat in a real browser: the page (`web/`, built by `web/build.sh`) served by a
//! native `hoard page` process on loopback, opened in headless Chromium at a phone's size,
//! and played by tapping it with touch events where it shows what a player would tap.
//!
//! Each test runs in a network namespace of its own holding only loopback, so nothing at the
//! table can reach beyond this machine (where namespaces are forbidden, on loopback here).
//! The page is built once per run (release wasm, into `target/page`, with a target folder of
//! its own so it never waits on the test build's). Needs Chromium and wasm-bindgen-cli, which
//! `.ci/run` installs (see the README's "The two commands").
//!
//! A test binary of its own, whose tests take turns: a browser drawn in software takes a core
//! to itself, and beside other tests (or another browser) a loaded 2-core machine lost taps.
//! The default run holds three of them; the whole GreedQuest game and the second laptop wait
//! behind `--ignored`, to keep CI's time.
#![cfg(target_os = "linux")]

use hoard_rules::greedquest::Card;
use hoard_tests::browser::{Browser, Shown, TAP, buttons, page, serve};
use hoard_tests::netns;
use hoard_tests::{GameResult, Line, Peer, Scratch, tail, wait_line};
use std::path::Path;
use std::sync::{Mutex, MutexGuard, mpsc};
use std::time::{Duration, Instant};

const PEER: &str = env!("CARGO_BIN_EXE_hoard-peer");

/// Waits for the browser test before it to end, builds the page, then runs the test `name`
/// again in a network namespace with no route out of this machine (`netns::offline`): `Some`
/// in that run, where the test goes on, holding its turn until it ends.
fn offline(name: &str) -> Option<MutexGuard<'static, ()>> {
    static TURN: Mutex<()> = Mutex::new(());
    // A test that failed holding its turn gives it up all the same.
    let turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    page();
    netns::offline(module_path!(), name).then_some(turn)
}

/// Waits for the audit's verdict on `b`'s end screen and asserts it is "Verified"; `what`
/// says what was played, for the failure's message.
fn assert_verified(b: &mut Browser, what: impl Fn() -> String) {
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.contains("Verified") || x.words.contains("Not verified"))
            .then_some(())
    })
    .unwrap_or_else(|e| panic!("no verdict on the end screen: {e}; {}", what()));
    assert!(
        b.shows("Verified: every hidden card"),
        "not verified: {}",
        what()
    );
}

/// A sign the game has begun: Counter's deck, or GreedQuest's turn.
fn at_the_table(x: &Shown) -> bool {
    x.words.starts_with("Deck: ") || x.words.starts_with("Turn ")
}

/// Says "I'm ready" if the lobby asks, tapping again if a tap missed: the button moves down
/// as the seats above it fill, and a tap read from the frame before may land on a seat.
fn say_ready(b: &mut Browser) {
    let asked = |s: &[Shown]| {
        s.iter()
            .find(|x| (x.tap && x.words == "I'm ready") || at_the_table(x))
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

fn words(shown: &[Shown]) -> Vec<String> {
    shown
        .iter()
        .map(|s| format!("{}{}", if s.tap { "[tap] " } else { "" }, s.words))
        .collect()
}

/// Plays until the end screen, at most `moves` taps of moves (`None`: to the end); returns
/// the moves made.
fn play(b: &mut Browser, moves: Option<usize>, deadline: Instant) -> Result<usize, String> {
    let mut made = 0;
    while !b.shows("Back to home") && moves.is_none_or(|m| made < m) {
        if Instant::now() > deadline {
            return Err(format!("no end in time after {made} moves"));
        }
        if b.play_counter_once()? {
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
fn a_phone_browser_plays_counter_against_bots_by_tapping_and_a_reload_loses_nothing() {
    let Some(_turn) =
        offline("a_phone_browser_plays_counter_against_bots_by_tapping_and_a_reload_loses_nothing")
    else {
        return;
    };
    let scratch = Scratch::new("browser-counter");
    let (_server, url) = serve(Path::new(PEER), &scratch);
    let mut b = Browser::open(&url, 360, 640).expect("chromium opens the page");
    b.first_run("Mia", "Blue");
    // A table of its own (with the table's relay at hand, the page hosts as a laptop does).
    b.host_counter_with_bots(2);
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
    assert_verified(&mut b, || {
        format!(
            "the audit verifies the game played in the browser ({before} moves, a reload, \
         {after} more)"
        )
    });
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
fn a_phone_browser_at_a_laptops_table_closes_its_tab_comes_back_and_the_game_ends_verified() {
    let Some(_turn) = offline(
        "a_phone_browser_at_a_laptops_table_closes_its_tab_comes_back_and_the_game_ends_verified",
    ) else {
        return;
    };
    at_a_laptops_table("browser-table", false);
}

/// Issue 28: "every native device at a table with a browser seat" reaches it. A second
/// laptop (`hoard join --bot`, which serves no page and has no relay of its own) sits at the
/// table too: the browser reaches only the relay of the laptop that served its page, so the
/// second laptop dials the browser there, whichever of their ids is lower. All three devices
/// end verified, on the same game.
#[test]
#[ignore = "kept out of the default run for CI's time (77 s here): run with --ignored"]
fn a_phone_browser_and_a_second_laptop_reach_each_other_through_the_table_relay() {
    let Some(_turn) =
        offline("a_phone_browser_and_a_second_laptop_reach_each_other_through_the_table_relay")
    else {
        return;
    };
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
    b.first_run("Mia", "Blue");
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
    assert_verified(&mut b, || {
        format!("the browser verifies the game it played ({moves} moves)")
    });
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
fn a_tvs_browser_opened_at_the_tables_code_follows_the_game_and_never_shows_a_hand() {
    let Some(_turn) =
        offline("a_tvs_browser_opened_at_the_tables_code_follows_the_game_and_never_shows_a_hand")
    else {
        return;
    };
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
    phone.first_run("Mia", "Blue");
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
        if !phone.play_counter_once().expect("the phone plays") {
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

/// One thing GreedQuest asks of a player, if it asks anything: plays the card chosen, or
/// chooses the first card the hand lets it play, or answers a choice that is not a card
/// (a Go WILD!'s value, whom a swap or Tracking names, Room 11's first card drawn), or lets
/// a seat that went quiet be waited for. Returns whether it tapped anything.
fn play_greedquest_once(b: &mut Browser) -> Result<bool, String> {
    let shown = b.shown();
    let taps = buttons(&shown);
    // Play, tapped once: until the table takes the card, Play stays where it was, and a
    // second tap there could land on whatever comes next (the end screen's "Play again").
    let play = |b: &mut Browser, label: &str, wait: Duration| {
        b.tap(label, wait)?;
        let gone = |s: &[Shown]| (!s.iter().any(|x| x.tap && x.words == label)).then_some(());
        b.wait_for(Duration::from_secs(5), gone)
    };
    for label in ["Play", "Play in the duel"] {
        if taps.iter().any(|x| x == label) {
            // The table may move on under the finger (a duel resolved): tapped if still there.
            return Ok(play(b, label, Duration::from_millis(500)).is_ok());
        }
    }
    let is_card = |x: &String| Card::ALL.iter().any(|c| c.name() == x);
    if let Some(card) = taps.iter().find(|x| is_card(x)) {
        // Gone before the finger came down (the table moved on): nothing tapped.
        if b.tap(card, Duration::from_secs(2)).is_err() {
            return Ok(false);
        }
        // Play is enabled the frame after: tapped when it is.
        for label in ["Play", "Play in the duel"] {
            if play(b, label, Duration::from_secs(2)).is_ok() {
                return Ok(true);
            }
        }
        return Ok(true);
    }
    // What else the game asks, by what its prompt says: the names on the board are
    // buttons too, so a name is tapped only when the prompt asks for one.
    let asks = |part: &str| shown.iter().any(|x| x.words.contains(part));
    let choice = if asks("Name your Go WILD!'s value") {
        Some("8".to_string())
    } else if asks("Choose whom your Tracking follows") {
        taps.iter().find(|x| x.starts_with("Track ")).cloned()
    } else if asks("keep the first card you drew") {
        Some("Keep it".to_string())
    } else if asks("Choose whose") || asks("Choose who trades places") {
        ["Me", "Lap", "Mia", "Zoe"]
            .into_iter()
            .find(|n| taps.iter().any(|x| x == n))
            .map(String::from)
    } else {
        taps.iter().find(|x| *x == "Wait").cloned()
    };
    if let Some(choice) = choice {
        // The prompt may go as the table moves on: tapped only if still there.
        return Ok(b.tap(&choice, Duration::from_millis(500)).is_ok());
    }
    Ok(false)
}

/// The issue's "two browser seats and one native bot play a whole GreedQuest game to the
/// verified audit by tapping the page". A laptop (`hoard host --page`) hosts GreedQuest for
/// three, its own seat played by its bot; two phones' browsers open the page's address with
/// the join code in it, each types a name and sits down, and both play every turn by
/// tapping a card and Play (and answering what else the game asks), through the laptop's
/// relay, with the sealed plays, the shared beacon and the mental deck of every game. The
/// game ends verified on both pages and on the laptop.
#[test]
#[ignore = "kept out of the default run for CI's time (142 s here): run with --ignored"]
fn two_phone_browsers_and_a_laptops_bot_play_greedquest_to_the_verified_end() {
    let Some(_turn) =
        offline("two_phone_browsers_and_a_laptops_bot_play_greedquest_to_the_verified_end")
    else {
        return;
    };
    let scratch = Scratch::new("browser-greedquest");
    let (tx, lines) = mpsc::channel::<Line>();
    let mut seen = Vec::new();
    let args = [
        "--game",
        "greedquest",
        "--variant",
        "shortest",
        "--seats",
        "3",
        "--timeout",
        "400",
    ];
    let (_host, url, ticket) = laptop_hosting(&scratch, &args, &tx, &lines, &mut seen);
    let mut phones = Vec::new();
    for (name, colour) in [("Mia", "Blue"), ("Zoe", "Green")] {
        let mut b = Browser::open(&format!("{url}#join={ticket}"), 360, 640).expect("chromium");
        b.first_run(name, colour);
        say_ready(&mut b);
        phones.push(b);
    }
    for b in &mut phones {
        b.wait_for(Duration::from_secs(60), |s| {
            s.iter().any(at_the_table).then_some(())
        })
        .unwrap_or_else(|e| panic!("the game started: {e}; {}", tail(&seen, 20)));
    }
    let deadline = Instant::now() + Duration::from_secs(400);
    let mut moves = 0;
    // A phone at its end screen is tapped no more.
    let mut ended = [false, false];
    while !ended.iter().all(|e| *e) {
        if Instant::now() > deadline {
            let shown: Vec<Vec<String>> = phones.iter_mut().map(|b| words(&b.shown())).collect();
            for (i, b) in phones.iter_mut().enumerate() {
                shoot(b, &format!("browser-greedquest-stuck-{i}"));
            }
            panic!(
                "no end in time after {moves} taps; the phones show {shown:?}; the laptop said: {}",
                tail(&seen, 20)
            );
        }
        let mut tapped = false;
        for (b, ended) in phones.iter_mut().zip(&mut ended) {
            *ended = *ended || b.shows("Back to home");
            if !*ended && play_greedquest_once(b).expect("a phone plays") {
                moves += 1;
                tapped = true;
                if moves == 12 {
                    shoot(b, "browser-greedquest-table");
                }
            }
        }
        if !tapped {
            std::thread::sleep(Duration::from_millis(100));
        }
    }
    for (i, b) in phones.iter_mut().enumerate() {
        assert_verified(b, || {
            format!("phone {i} verifies the game it played ({moves} taps between them)")
        });
    }
    shoot(&mut phones[0], "browser-greedquest");
    let result = wait_line(
        &lines,
        Instant::now() + Duration::from_secs(60),
        &mut seen,
        |l| GameResult::parse(&l.text),
    )
    .unwrap_or_else(|| panic!("no result from the laptop: {}", tail(&seen, 30)));
    assert_eq!(
        result.audit, "verified",
        "the laptop verifies the same game"
    );
}
