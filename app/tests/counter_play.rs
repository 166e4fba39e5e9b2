//! Counter through the real screens by their labels: a whole game offline against two bots,
//! played by tapping cards and moves, to the verified end screen; the table laid out with
//! nothing over anything else on a phone and on a laptop; and a reaction window's
//! countdown, answered with "Let it stand".

use crate::support;

use egui::accesskit::Role;
use egui::{Pos2, Rect, Vec2};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::HoardApp;
use hoard_app::games::counter::CounterUi;
use hoard_app::net::{AnyInput, AnyState, GameView};
use hoard_rules::counter::{COPIES, Config, Counter, Input, Phase, Private, Public};
use hoard_rules::{CardId, Game, Pending, Seal};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};
use support::table_screen::{Screen, table_screen};
use support::views::{seat, seated_view};
use support::*;

fn enabled_buttons(h: &Harness<'_, HoardApp>) -> Vec<String> {
    h.query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// The number on a hand card's label ("Your 5", "Counter with your 5").
fn card_number(label: &str) -> Option<u8> {
    let rest = label
        .strip_prefix("Counter with your ")
        .or(label.strip_prefix("Your "))?;
    rest.parse().ok()
}

/// Hosts Counter against `bots` bots and starts it.
fn host_counter(h: &mut Harness<'_, HoardApp>, bots: usize) {
    host_with_bots(h, bots);
    click(h, "Counter");
    wait_until(h, "Counter chosen", |h| {
        h.query_by_label_contains("First to 10 points").is_some()
    });
    // The table's time to counter: one second keeps the game short.
    click(h, "1 s");
    start(h);
    wait_until(h, "the Counter table", |h| {
        h.query_by_label_contains("Deck: ").is_some()
    });
}

/// Does one thing the game asks of me, if it asks anything: counters with a glowing card
/// once (every counter opens one more window), else lets a card stand; on my turn gives my lowest card away once, then plays my
/// highest, or draws, or waits. Returns whether it did anything.
fn play_once(h: &mut Harness<'_, HoardApp>, gave: &mut bool, countered: &mut bool) -> bool {
    let buttons = enabled_buttons(h);
    if !*countered
        && let Some(counter) = buttons.iter().find(|b| b.starts_with("Counter with your "))
    {
        // A window's answers close by themselves when it ends: tapped only while offered.
        let counter = counter.clone();
        if click_if_offered(h, &counter) {
            *countered = true;
        }
        return true;
    }
    if buttons.iter().any(|b| b == "Let it stand") {
        click_if_offered(h, "Let it stand");
        return true;
    }
    let mut cards: Vec<(u8, String)> = buttons
        .iter()
        .filter(|b| b.starts_with("Your "))
        .filter_map(|b| Some((card_number(b)?, b.clone())))
        .collect();
    cards.sort();
    // A card can be given only when one could be drawn (a full hand gives nothing): the
    // "Draw" button says so.
    if !*gave
        && cards.len() >= 2
        && buttons.iter().any(|b| b == "Draw")
        && let Some((_, lowest)) = cards.first()
    {
        click(h, lowest);
        click(h, "Give to Bot 1");
        *gave = true;
        return true;
    }
    if let Some((_, highest)) = cards.last() {
        click(h, highest);
        click(h, "Play it");
        return true;
    }
    for mv in ["Draw", "Wait"] {
        if buttons.iter().any(|b| b == mv) {
            click(h, mv);
            return true;
        }
    }
    false
}

#[test]
fn a_player_plays_counter_against_two_bots_to_the_verified_end_by_tapping_cards() {
    let dir = scratch("counter-e2e");
    let mut h = app(dir.clone(), [360.0, 640.0], true);
    create_profile(&mut h, "Mia", "Blue");
    host_counter(&mut h, 2);
    for seat in ["Bot 1: ", "Bot 2: "] {
        assert!(
            h.query_by_label_contains(seat).is_some(),
            "{seat} has a place at the top of the table"
        );
    }
    assert!(
        h.query_by_label_contains("Discard pile: ").is_some(),
        "the discard pile is on the table"
    );
    h.check_accessibility();

    let (mut taps, mut gave, mut countered) = (0usize, false, false);
    let deadline = Instant::now() + Duration::from_secs(240);
    while !has(&h, "Back to home") {
        assert!(Instant::now() < deadline, "the game did not end in time");
        if play_once(&mut h, &mut gave, &mut countered) {
            taps += 1;
            assert!(taps < 400, "no end after {taps} taps");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    assert!(gave, "a card was given by tapping it and \"Give to Bot 1\"");
    wait_until(&mut h, "the audit's verdict", |h| {
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
        h.query_all_by_label_contains(" points").count() >= 3,
        "the end screen tells every score"
    );
    click(&mut h, "Back to home");
    wait_until(&mut h, "Home", |h| has(h, "Play against bots"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reaction_window_counts_down_and_let_it_stand_answers_it() {
    let dir = scratch("counter-window");
    let mut h = app_in_real_time(dir.clone(), [360.0, 640.0]);
    create_profile(&mut h, "Mia", "Blue");
    host_counter(&mut h, 2);

    // Mia only waits, keeping her cards, until a bot plays and she may answer.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !enabled_buttons(&h).iter().any(|b| b == "Let it stand") {
        assert!(Instant::now() < deadline, "no window came to Mia");
        if enabled_buttons(&h).iter().any(|b| b == "Wait") {
            click(&mut h, "Wait");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    assert!(
        h.query_by_label_contains("— counter?").is_some(),
        "the banner asks whether to counter"
    );
    let seconds = |h: &Harness<'_, HoardApp>| {
        h.query_all_by_label_contains(" s left")
            .map(|n| label_of(&n))
            .find_map(|l| l.strip_suffix(" s left")?.parse::<u64>().ok())
    };
    let first = seconds(&h).expect("the countdown is shown");
    assert!((1..=3).contains(&first), "{first} s left");
    let exchange = h
        .query_all_by_label_contains("The exchange: ")
        .find_map(|n| n.accesskit_node().label())
        .expect("the card laid is on the table");
    if first > 1 {
        wait_until(&mut h, "the countdown to tick", |h| {
            seconds(h).is_some_and(|s| s < first)
        });
    }

    click(&mut h, "Let it stand");
    assert!(
        !has(&h, "Let it stand"),
        "the answer is sent: the button is gone"
    );
    assert!(
        h.query_by_label_contains("Your answer is in").is_some(),
        "the banner says the answer is in"
    );
    // The window closes (the bots answer at its end) and the game goes on.
    wait_until(&mut h, "the game to go on", |h| {
        !has(h, &exchange) && h.query_by_label_contains("Your answer is in").is_none()
    });
    // (A countdown may show again at once: the next play can open the next window.)
    let _ = std::fs::remove_dir_all(&dir);
}

// ---- The table as a function of what it is shown -------------------------------------

const NAMES: [&str; 3] = ["Mia", "Bot 1", "Bot 2"];

/// The card of number `n`, copy `copy`.
fn card(n: u8, copy: u16) -> CardId {
    (u16::from(n) - 1) * COPIES + copy
}

/// A table of three six turns in: Mia (seat 0) holds 5, 2, 5, 3; Bot 1 has 3 cards and
/// Bot 2 has 4; a 4 on top of the discard pile; the scores 3, 7 and 2.
fn table_of_three(phase: Phase) -> (Public, Private) {
    let mut public = Counter::setup(&Config::new(3)).unwrap_or_else(|e| panic!("{e}"));
    public.deck.shuffled(24);
    let mine = [card(5, 0), card(2, 0), card(5, 1), card(3, 0)];
    let mut faces = BTreeMap::new();
    for (seat, count) in [(0usize, 4), (1, 3), (2, 4)] {
        public.hands[seat] = public.deck.take(count);
    }
    for (h, c) in public.hands[0].iter().zip(mine) {
        faces.insert(*h, c);
    }
    public.discard = vec![card(1, 0), card(3, 1), card(4, 0)];
    public.scores = vec![3, 7, 2];
    public.turns = 6;
    public.phase = phase;
    (public, Private { seat: 0, faces })
}

fn view_of(public: Public, private: Private, reaction_left_ms: Option<u64>) -> GameView {
    let pending = Counter::pending(&public);
    let my_turn = !Counter::legal_inputs(&public, Some(&private), 0).is_empty();
    let seats = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| seat(n, [[40, 120, 220], [220, 60, 50], [240, 190, 30]][i], i > 0))
        .collect();
    let state = AnyState::Counter {
        public,
        private: Some(private),
    };
    GameView {
        reaction_left_ms,
        as_another_seat: false,
        ..seated_view(7, seats, state, pending, my_turn, 40)
    }
}

fn screen(view: GameView, size: [f32; 2]) -> Harness<'static, Screen> {
    table_screen(view, Box::new(CounterUi::default()), size)
}

fn played(h: &Harness<'_, Screen>) -> Vec<Input> {
    support::table_screen::played(h, |i| match i {
        AnyInput::Counter(input) => Some(*input),
        #[allow(unreachable_patterns)]
        _ => None,
    })
}

/// A node's words: a label's text is its value.
fn label_of(node: &egui_kittest::Node<'_>) -> String {
    let n = node.accesskit_node();
    if n.role() == Role::Label {
        n.value()
    } else {
        n.label()
    }
    .unwrap_or_default()
}

/// Every node whose label is one of `labels` (or starts with it, for those ending in
/// `*`) lies on the screen, each label is found, and no two of them overlap.
fn laid_out_apart(h: &Harness<'_, Screen>, size: [f32; 2], labels: &[&str]) {
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::from(size));
    let mut found: Vec<(String, Rect)> = Vec::new();
    for pattern in labels {
        let (text, prefix) = match pattern.strip_suffix('*') {
            Some(prefix) => (prefix, true),
            None => (*pattern, false),
        };
        let nodes: Vec<(String, Rect)> = h
            .query_all_by_label_contains(text)
            .map(|n| (label_of(&n), n.rect()))
            .filter(|(l, _)| {
                if prefix {
                    l.starts_with(text)
                } else {
                    l == text
                }
            })
            .collect();
        if nodes.is_empty() {
            let all: Vec<String> = h.query_all_by(|_| true).map(|n| label_of(&n)).collect();
            panic!("nothing labelled {pattern:?} at {size:?}; the screen shows {all:?}");
        }
        found.extend(nodes);
    }
    for (label, rect) in &found {
        assert!(
            screen.contains_rect(*rect),
            "{label:?} is off a {size:?} screen at {rect:?}"
        );
    }
    for (i, (a, ra)) in found.iter().enumerate() {
        for (b, rb) in &found[i + 1..] {
            let both = ra.intersect(*rb);
            assert!(
                both.width() < 0.5 || both.height() < 0.5,
                "{a:?} at {ra:?} overlaps {b:?} at {rb:?} on a {size:?} screen"
            );
        }
    }
}

const PHONE: [f32; 2] = [360.0, 640.0];
const LAPTOP: [f32; 2] = [1280.0, 800.0];

#[test]
fn on_a_phone_and_a_laptop_nothing_on_the_table_overlaps_in_a_window_or_on_my_turn() {
    for size in [PHONE, LAPTOP] {
        // Bot 1 has played a 5, countered by nobody yet; Mia and Bot 2 may answer.
        let window = Phase::Window {
            laid: vec![(1, card(5, 2))],
            seats: vec![0, 2],
        };
        let (public, private) = table_of_three(window);
        assert!(matches!(
            Counter::pending(&public),
            Pending::Together {
                seal: Seal::Reaction,
                ..
            }
        ));
        let mut h = screen(view_of(public, private, Some(2_400)), size);
        h.run();
        assert!(
            h.query_by_label("3 s left").is_some(),
            "the countdown at {size:?}"
        );
        laid_out_apart(
            &h,
            size,
            &[
                "< Leave",
                "End game",
                "Log",
                "Counter",
                "Bot 1: *",
                "Bot 2: *",
                "Deck: *",
                "Discard pile: *",
                "The exchange: Bot 1 played a 5",
                "Bot 1 played a 5 — counter?",
                "3 s left",
                "Mia (you)",
                "3 points",
                "turn 6 of 30*",
                "Counter with your 5",
                "Your 2",
                "Your 3",
                "Let it stand",
            ],
        );
        assert!(
            h.query_by_label_contains("Bot 2: 2 points, 4 cards in hand, answering")
                .is_some(),
            "Bot 2's place says it is answering"
        );
        let glowing = h.query_all_by_label("Counter with your 5").count();
        assert_eq!(glowing, 2, "both 5s can counter, and only they");
        h.get_all_by_label("Counter with your 5")
            .next()
            .expect("a 5")
            .click();
        h.run();
        assert!(
            matches!(played(&h).as_slice(), [Input::Counter { face, .. }] if *face == card(5, 0)),
            "one tap on a glowing 5 counters with it: {:?}",
            played(&h)
        );

        // Mia's turn: a tapped 5 offers to be played or given, beside Draw and Wait.
        let (public, private) = table_of_three(Phase::Turn { seat: 0 });
        let mut h = screen(view_of(public, private, None), size);
        h.run();
        h.get_all_by_label("Your 5").next().expect("a 5").click();
        h.run();
        laid_out_apart(
            &h,
            size,
            &[
                "< Leave",
                "End game",
                "Log",
                "Counter",
                "Bot 1: *",
                "Bot 2: *",
                "Deck: *",
                "Discard pile: *",
                "Your 5: play it*",
                "Mia (you)",
                "3 points",
                "Your 5",
                "Your 2",
                "Your 3",
                "Play it",
                "Draw",
                "Wait",
                "Give to Bot 1",
                "Give to Bot 2",
            ],
        );
        for button in ["Play it", "Draw", "Wait", "Give to Bot 1"] {
            let rect = h.get_by_label(button).rect();
            assert!(
                rect.width() >= 48.0 && rect.height() >= 48.0,
                "{button} is smaller than a finger at {size:?}: {rect:?}"
            );
        }
        h.get_by_label("Play it").click();
        h.run();
        assert!(
            matches!(played(&h).as_slice(), [Input::Play { face, .. }] if *face == card(5, 0)),
            "{:?}",
            played(&h)
        );
    }
}

#[test]
fn out_of_the_window_the_table_says_who_is_still_answering() {
    // Mia played a 5: the bots may counter it; nobody has answered yet.
    let (mut public, private) = table_of_three(Phase::Window {
        laid: vec![(0, card(5, 0))],
        seats: vec![1, 2],
    });
    public.hands[0].remove(0);
    let mut view = view_of(public, private, None);
    view.seats[2].committed = true;
    let mut h = screen(view, PHONE);
    h.run();
    assert!(
        h.query_by_label("You played a 5. Waiting for Bot 1 to answer.")
            .is_some()
    );
    assert!(h.query_by_label("Let it stand").is_none());
    assert!(h.query_by_label_contains(" s left").is_none());
}
