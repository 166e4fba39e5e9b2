//! SPAMMERS through the real screens by their labels: host offline against a bot with the
//! one-second time to answer, then play Mia's seat by tapping as a player would (give a
//! List to the Masses at the start, tap a card to read it and "Play the Scam" or "Mail with
//! it" at the List with the best Target Number, draw, end the turn, and "Let it stand"
//! after a roll) until the verified end screen.

use crate::support;

use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::HoardApp;
use std::collections::HashSet;
use std::time::{Duration, Instant};
use support::spammers_table::enabled_buttons;
use support::*;

/// Hosts SPAMMERS against `bots` bots, one second to answer a roll, and starts it.
fn host_spammers(h: &mut Harness<'_, HoardApp>, bots: usize) {
    host_with_bots(h, bots);
    click(h, "SPAMMERS");
    wait_until(h, "SPAMMERS' options", |h| {
        h.query_by_label_contains("Time to answer").is_some()
    });
    click(h, "1 s");
    start(h);
    wait_until(h, "the Masses", |h| {
        h.query_all_by_label_contains("Unwashed Masses (").count() > 0
    });
}

/// What Mia has done, to check the game was played by tapping.
#[derive(Default)]
struct Tally {
    chose: bool,
    scams: usize,
    mailed: usize,
    drawn: usize,
    let_stand: usize,
    ended: usize,
}

/// The Target Number a "List (Masses): target N" button offers.
fn target_of(label: &str) -> Option<i32> {
    label.rsplit_once(": target ")?.1.parse().ok()
}

/// Does one thing the game asks of Mia, if it asks anything. `tried` holds the cards
/// tapped since the last move that found nothing to do.
fn play_once(
    h: &mut Harness<'_, HoardApp>,
    tally: &mut Tally,
    tried: &mut HashSet<String>,
) -> bool {
    let buttons = enabled_buttons(h);
    let has_button = |b: &str| buttons.iter().any(|x| x == b);
    if has_button("Let it stand") {
        click(h, "Let it stand");
        tally.let_stand += 1;
        return true;
    }
    if let Some(give) = buttons
        .iter()
        .find(|b| b.starts_with("Give ") && b.ends_with(" to the Masses"))
    {
        let give = give.clone();
        click(h, &give);
        tally.chose = true;
        return true;
    }
    if has_button("To the Masses") {
        click(h, "To the Masses");
        return true;
    }
    if has_button("Play the Scam") {
        click(h, "Play the Scam");
        tally.scams += 1;
        tried.clear();
        return true;
    }
    // Mailing: the List with the best Target Number.
    if let Some(best) = buttons
        .iter()
        .filter(|b| target_of(b).is_some())
        .max_by_key(|b| target_of(b))
    {
        let best = best.clone();
        click(h, &best);
        tally.mailed += 1;
        tried.clear();
        return true;
    }
    if let Some(scam) = buttons.iter().find(|b| b.starts_with("For ")) {
        let scam = scam.clone();
        click(h, &scam);
        return true;
    }
    if has_button("Mail with it") {
        click(h, "Mail with it");
        return true;
    }
    if !has_button("End turn") {
        return false;
    }
    // A card not tried yet this turn: tap it to read it; put it back if it can do nothing
    // wanted here.
    if let Some(card) = buttons
        .iter()
        .find(|b| b.starts_with("Card: ") && !tried.contains(*b))
    {
        let card = card.clone();
        tried.insert(card.clone());
        click(h, &card);
        let offered = enabled_buttons(h);
        if !offered
            .iter()
            .any(|b| b == "Play the Scam" || b == "Mail with it")
        {
            click(h, &card);
        }
        return true;
    }
    // Nothing to play: draw once a turn, or as often as the turn allows while no Scam has
    // been played yet (a hand dealt without one finds one).
    if has_button("Draw an Action") && (tally.drawn <= tally.ended || tally.scams == 0) {
        click(h, "Draw an Action");
        tally.drawn += 1;
        return true;
    }
    click(h, "End turn");
    tally.ended += 1;
    tried.clear();
    true
}

/// Plays one game from the lobby to its end screen by tapping, adding to `tally`, and
/// checks the end screen. Returns home.
fn play_to_the_end(h: &mut Harness<'_, HoardApp>, tally: &mut Tally) {
    host_spammers(h, 1);
    let started = Instant::now();
    let mut tried = HashSet::new();
    let mut taps = 0usize;
    let deadline = started + Duration::from_secs(300);
    while !has(h, "Back to home") {
        assert!(Instant::now() < deadline, "the game did not end in time");
        if play_once(h, tally, &mut tried) {
            taps += 1;
            assert!(taps < 4_000, "no end after {taps} taps");
        } else {
            h.step();
            std::thread::sleep(Duration::from_millis(3));
        }
    }
    println!(
        "SPAMMERS ended after {:.1} s and {taps} taps: {} Scams, {} mailed, {} drawn, {} let stand, {} turns ended",
        started.elapsed().as_secs_f32(),
        tally.scams,
        tally.mailed,
        tally.drawn,
        tally.let_stand,
        tally.ended
    );
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
        h.query_all_by_label_contains("Scam ratings total").count() >= 2,
        "the end screen tells every seat's ratings"
    );
    click(h, "Back to home");
    wait_until(h, "Home", |h| has(h, "Play against bots"));
}

#[test]
fn a_player_plays_spammers_against_a_bot_to_the_verified_end_by_tapping() {
    let dir = scratch("spammers-e2e");
    let mut h = app(dir.clone(), [360.0, 640.0], true);
    create_profile(&mut h, "Mia", "Blue");
    // The deck is shuffled for real, and now and then the bot wins before Mia has played a
    // Scam: another game, up to three, until she has done everything below.
    let mut tally = Tally::default();
    for _ in 0..3 {
        play_to_the_end(&mut h, &mut tally);
        if tally.scams > 0 && tally.mailed > 0 && tally.let_stand > 0 {
            break;
        }
    }
    assert!(tally.chose, "Mia gave a List to the Masses by tapping");
    assert!(tally.scams > 0, "Mia played a Scam by tapping a card");
    assert!(tally.mailed > 0, "Mia mailed a List by tapping");
    assert!(tally.drawn > 0, "Mia drew an Action");
    assert!(tally.ended > 0, "Mia ended a turn");
    assert!(tally.let_stand > 0, "Mia let a roll stand");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tapping_a_card_reads_it_and_offers_its_moves() {
    use hoard_app::games::spammers::SpammersUi;
    use hoard_rules::spammers::Input;
    use support::spammers_table::{mias_turn, spammers_table, spammers_view};
    use support::table_screen::table_screen;
    let (public, private) = spammers_table(|_| mias_turn());
    let view = spammers_view(public, private, None);
    let mut h = table_screen(view, Box::new(SpammersUi::default()), [360.0, 640.0]);
    h.run();
    h.get_by_label("Card: Make Money Fast").click();
    h.run();
    h.get_by_label("Play the Scam").click();
    h.run();
    let sent = spammers_played(&h);
    assert!(
        matches!(sent.as_slice(), [Input::PlayScam { .. }]),
        "{sent:?}"
    );
}

/// "It is extremely rare for a player to be in a position where his hand has nine cards in it
/// and none of them are playable. If that occurs, the player is allowed to discard Scams in
/// order to draw new cards." The screen says so, and a tap on a Scam of the hand drops it.
#[test]
fn a_full_hand_with_nothing_playable_is_told_and_drops_a_scam_for_a_card() {
    use hoard_app::games::spammers::SpammersUi;
    use hoard_rules::spammers::cards::{action, action_deck};
    use hoard_rules::spammers::data::ActionKind;
    use hoard_rules::spammers::{Input, Scam};
    use support::spammers_table::{mias_turn, spammers_table, spammers_view};
    use support::table_screen::table_screen;
    let (mut public, mut private) = spammers_table(|_| mias_turn());
    let scams: Vec<_> = action_deck()
        .into_iter()
        .filter(|id| matches!(action(*id).kind, ActionKind::Scam { .. }))
        .collect();
    // Five Scams in play: nine Scams in hand are nine cards none of which is playable.
    public.areas[0].scams = scams[..5]
        .iter()
        .map(|c| Scam {
            card: *c,
            rating: 1,
        })
        .collect();
    let hand = public.actions.take(9);
    private.faces.clear();
    for (h, c) in hand.iter().zip(&scams[5..14]) {
        private.faces.insert(*h, *c);
    }
    public.areas[0].hand = hand;
    let view = spammers_view(public, private, None);
    let mut h = table_screen(view, Box::new(SpammersUi::default()), [360.0, 640.0]);
    h.run();
    assert!(
        h.query_by_label_contains("nothing in your full hand can be played")
            .is_some()
    );
    let first = action(scams[5]).name;
    h.get_by_label(&format!("Card: {first}")).click();
    h.run();
    h.get_by_label("Drop it, draw an Action").click();
    h.run();
    let sent = spammers_played(&h);
    assert!(
        matches!(sent.as_slice(), [Input::DiscardHeldScam { face, .. }] if *face == scams[5]),
        "{sent:?}"
    );
}

/// The SPAMMERS moves a table screen under test has sent.
fn spammers_played(
    h: &egui_kittest::Harness<'_, support::table_screen::Screen>,
) -> Vec<hoard_rules::spammers::Input> {
    support::table_screen::played(h, |i| match i {
        hoard_app::net::AnyInput::Spammers(i) => Some(i.clone()),
        #[allow(unreachable_patterns)]
        _ => None,
    })
}

/// Issue 31: "'1 Scams'". The end's summary counts each seat's Scams with the noun agreeing.
#[test]
fn the_summary_counts_one_scam_as_one_scam() {
    use hoard_app::games::GameUi;
    use hoard_app::games::spammers::SpammersUi;
    use support::spammers_table::{mias_turn, spammers_table, spammers_view};
    let (mut public, private) = spammers_table(|_| mias_turn());
    let one = public
        .areas
        .iter()
        .find_map(|a| a.scams.first().cloned())
        .expect("the table has a Scam in play");
    public.areas[0].scams = vec![one];
    public.areas[1].scams.clear();
    let view = spammers_view(public, private, None);
    let lines = SpammersUi::default().summary(&view);
    assert!(lines[0].ends_with(", 1 Scam)"), "{lines:?}");
    assert!(lines[1].ends_with(", 0 Scams)"), "{lines:?}");
}

/// Issue 31: a replay drawn with another seat's hand "still says 'You'". Once the audit has
/// made every hand public, a replay may draw the table with Mia's hand on a device that is
/// not hers: the hand and her seat are hers by name, and nothing on the table says "your".
#[test]
fn a_replay_with_another_seats_hand_names_that_seat_and_never_says_your() {
    use hoard_app::games::spammers::SpammersUi;
    use support::spammers_table::{mias_turn, spammers_table, spammers_view};
    use support::table_screen::table_screen;
    let (public, private) = spammers_table(|_| mias_turn());
    let labels = |as_another_seat: bool| {
        let mut view = spammers_view(public.clone(), private.clone(), None);
        view.my_turn = false;
        view.as_another_seat = as_another_seat;
        let mut h = table_screen(view, Box::new(SpammersUi::default()), [360.0, 640.0]);
        h.run();
        h.query_all_by(|n| n.role() == egui::accesskit::Role::Label)
            .filter_map(|n| n.accesskit_node().value().or(n.accesskit_node().label()))
            .collect::<Vec<String>>()
    };
    let own = labels(false);
    assert!(
        own.iter().any(|l| l.starts_with("Your hand: 7 of ")),
        "on her own device Mia's hand is hers: {own:?}"
    );
    let watched = labels(true);
    assert!(
        watched.iter().any(|l| l.starts_with("Mia's hand: 7 of ")),
        "{watched:?}"
    );
    // A card's own name may say it ("Hot Singles in Your Area Code"): not the table's words.
    let yours: Vec<&String> = watched
        .iter()
        .map(|l| (l, l.replace("in Your Area Code", "")))
        .filter(|(_, l)| {
            l.to_lowercase()
                .split(|c: char| !c.is_alphabetic())
                .any(|w| w == "your" || w == "you")
        })
        .map(|(l, _)| l)
        .collect();
    assert!(
        yours.is_empty(),
        "said to a watcher of Mia's hand: {yours:?}"
    );
}
