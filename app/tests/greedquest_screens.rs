//! The GreedQuest table as a function of what it is shown: positions set up with the
//! rules engine, drawn by the real screen, and the player's answer read back. Each test
//! reaches one of the rulebook's decisions (WILD value, duel, who changes places, whom to
//! track, Room 11) or a table concern (an away seat's vote, a failed audit).

use crate::support;

use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{By, Queryable};
use hoard_app::games::greedquest::GreedQuestUi;
use hoard_app::net::{
    AnyInput, AnyState, AuditVerdict, AwayVote, AwayVoteView, EndView, GameView, Unchecked,
    UncheckedSeat,
};
use hoard_app::screens::table::GameIntent;
use hoard_rules::greedquest::{
    Card, Config, Facing, GreedQuest, Input, Length, Position, Private, Public, Stage,
};
use hoard_rules::{Game, Outcome, Play, Seat, Step};
use support::table_screen::{Screen, table_screen};
use support::views::{seat, seated_view};

const NAMES: [&str; 3] = ["Mia", "Bot 1", "Bot 2"];

fn short(seats: u8) -> Config {
    Config {
        length: Length::Short,
        ..Config::new(seats)
    }
}

/// Plays one step of openly given inputs, panicking with the rules' words if refused.
fn step(public: &mut Public, privates: &mut [Option<Private>], inputs: &[(Seat, Input)]) {
    let step = Step::Inputs(inputs.iter().map(|(s, i)| (*s, Play::Open(*i))).collect());
    if let Err(e) = GreedQuest::apply(public, privates, &step) {
        panic!("the rules refused the step: {e}");
    }
}

/// What the network would show seat 0 at this moment.
fn view(public: &Public, privates: &[Option<Private>]) -> GameView {
    let pending = GreedQuest::pending(public);
    let me: Seat = 0;
    let my_turn = !GreedQuest::legal_inputs(public, privates[0].as_ref(), me).is_empty();
    let seats = NAMES
        .iter()
        .enumerate()
        .map(|(i, n)| seat(n, [[40, 120, 220], [220, 60, 50], [40, 160, 80]][i], i > 0))
        .collect();
    let state = AnyState::GreedQuest {
        public: public.clone(),
        private: privates[0].clone(),
    };
    seated_view(9, seats, state, pending, my_turn, 1)
}

fn screen(view: GameView) -> Harness<'static, Screen> {
    screen_sized(view, [360.0, 780.0])
}

fn screen_sized(view: GameView, size: [f32; 2]) -> Harness<'static, Screen> {
    table_screen(view, Box::new(GreedQuestUi::default()), size)
}

/// The inputs the screen sent.
fn played(h: &Harness<'_, Screen>) -> Vec<Input> {
    support::table_screen::played(h, |i| match i {
        AnyInput::GreedQuest(input) => Some(*input),
        #[allow(unreachable_patterns)]
        _ => None,
    })
}

#[test]
fn go_wild_is_valued_after_every_card_is_seen_with_a_choice_of_one_to_eight() {
    // "This special Go! card may be any whole number from 1 to 8 . . . and you don't have to
    // declare what number it is until you've seen all the other cards!"
    let (mut public, mut privates) = Position::new(short(3))
        .hand(0, &[Card::Wild, Card::Go1, Card::Go2, Card::Go3, Card::Go4])
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    step(
        &mut public,
        &mut privates,
        &[
            (0, Input::Card(Card::Wild)),
            (1, Input::Card(Card::Go1)),
            (2, Input::Card(Card::Go2)),
        ],
    );
    assert!(
        matches!(public.stage, Stage::Wild { .. }),
        "{:?}",
        public.stage
    );
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(h.query_by_label_contains("Name your Go WILD!").is_some());
    for v in 1..=8 {
        assert!(
            h.query_by_label(&v.to_string()).is_some(),
            "no button for {v}"
        );
    }
    // Every card is face up on the table while the value is chosen.
    assert!(h.query_by_label("Bot 1 played Go! 1").is_some());
    h.get_by_label("6").click();
    h.run();
    assert_eq!(played(&h), vec![Input::Wild(6)]);
}

#[test]
fn tied_winners_on_an_even_go_duel_and_the_duel_winner_picks_who_swaps() {
    // "If two or more players both play the same (even) winning Go! card, they fight a duel,
    // with the winner deciding who switches places with the player of Even Chance."
    let (mut public, mut privates) = Position::new(short(3))
        .room(0, 2, Facing::In)
        .room(1, 2, Facing::In)
        .room(2, 5, Facing::In)
        .hand(0, &[Card::Go8, Card::Wild, Card::Go1, Card::Go2, Card::Go3])
        .hand(1, &[Card::Go8, Card::Go1, Card::Go2, Card::Go3, Card::Go4])
        .hand(
            2,
            &[Card::EvenChance, Card::Go1, Card::Go2, Card::Go3, Card::Go4],
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    step(
        &mut public,
        &mut privates,
        &[
            (0, Input::Card(Card::Go8)),
            (1, Input::Card(Card::Go8)),
            (2, Input::Card(Card::EvenChance)),
        ],
    );
    assert!(
        matches!(public.stage, Stage::Duel { .. }),
        "{:?}",
        public.stage
    );
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(h.query_by_label_contains("Duel!").is_some());
    assert!(
        h.query_by_label_contains("trades places with Bot 2")
            .is_some()
    );
    h.get_by_label("Go WILD!").click();
    h.run();
    h.get_by_label("Play in the duel").click();
    h.run();
    assert_eq!(played(&h), vec![Input::Card(Card::Wild)]);

    // "For purposes of dueling only, a Go WILD! card beats all other Go! cards."
    step(
        &mut public,
        &mut privates,
        &[(0, Input::Card(Card::Wild)), (1, Input::Card(Card::Go1))],
    );
    assert!(
        matches!(public.stage, Stage::Pick { chooser: 0, .. }),
        "{:?}",
        public.stage
    );
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(
        h.query_by_label_contains("Choose who trades places with Bot 2")
            .is_some()
    );
    let button = |label| By::new().role(Role::Button).label(label);
    assert!(h.query(button("Me")).is_some() && h.query(button("Bot 1")).is_some());
    h.get(button("Bot 1")).click();
    h.run();
    assert_eq!(played(&h), vec![Input::Swap(1)]);
}

#[test]
fn tracking_asks_whom_to_follow_when_the_winners_lead_to_different_rooms() {
    // "If there is more than one winning Go! card, you may choose which player to track."
    let (mut public, mut privates) = Position::new(short(3))
        .room(0, 4, Facing::In)
        .room(1, 3, Facing::In)
        .room(2, 6, Facing::In)
        .hand(
            0,
            &[Card::Tracking, Card::Go1, Card::Go2, Card::Go3, Card::Go4],
        )
        .hand(1, &[Card::Go5, Card::Go1, Card::Go2, Card::Go3, Card::Go4])
        .hand(2, &[Card::Go5, Card::Go1, Card::Go2, Card::Go3, Card::Go4])
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    step(
        &mut public,
        &mut privates,
        &[
            (0, Input::Card(Card::Tracking)),
            (1, Input::Card(Card::Go5)),
            (2, Input::Card(Card::Go5)),
        ],
    );
    assert!(
        matches!(public.stage, Stage::Track { seat: 0 }),
        "{:?}",
        public.stage
    );
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(
        h.query_by_label_contains("Choose whom your Tracking follows")
            .is_some()
    );
    h.get_by_label("Track Bot 2").click();
    h.run();
    assert_eq!(played(&h), vec![Input::Track(2)]);
}

#[test]
fn room_eleven_shows_the_first_card_drawn_and_asks_keep_or_discard() {
    // Room 11: "Draw enough cards to refill your hand whether or not you discard the first
    // card you look at."
    let (mut public, mut privates) = Position::new(Config::new(3))
        .room(0, 11, Facing::In)
        .hand(0, &[Card::Go1, Card::Go2, Card::Go3, Card::Go4, Card::Go5])
        .deck_top(0, &[Card::Curse])
        .hand(1, &[Card::Go2, Card::Go1, Card::Go3, Card::Go4, Card::Go5])
        .hand(2, &[Card::Go3, Card::Go1, Card::Go2, Card::Go4, Card::Go5])
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    step(
        &mut public,
        &mut privates,
        &[
            (0, Input::Card(Card::Go1)),
            (1, Input::Card(Card::Go2)),
            (2, Input::Card(Card::Go3)),
        ],
    );
    assert!(
        matches!(public.stage, Stage::LastParty { .. }),
        "{:?}",
        public.stage
    );
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(h.query_by_label_contains("Only you will know").is_some());
    assert!(
        h.query_by_label_contains("Everyone who moves").is_some(),
        "the drawn Curse! is shown with its effect"
    );
    h.get_by_label("Discard it, draw another").click();
    h.run();
    assert_eq!(played(&h), vec![Input::DiscardDrawn]);
}

/// A table where Bot 1's device has gone, away for `secs` seconds, with this player's
/// choice about it so far.
fn bot_one_away(secs: u32, my_vote: Option<AwayVote>) -> GameView {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.seats[1].connected = false;
    v.seats[1].away_for_secs = Some(secs);
    v.votes = vec![AwayVoteView {
        seat: 1,
        away_for_secs: secs,
        my_vote,
        skip_cannot: None,
        remove_cannot: None,
        too_few: None,
    }];
    v
}

/// Whether the screen said this vote about Bot 1.
fn voted(h: &Harness<'_, Screen>, vote: AwayVote) -> bool {
    h.state()
        .said
        .iter()
        .any(|i| matches!(i, GameIntent::Vote { seat: 1, vote: v } if *v == vote))
}

#[test]
fn an_away_seat_is_marked_and_the_table_votes_on_it() {
    let mut h = screen(bot_one_away(40, None));
    h.run();
    assert!(h.query_by_label("away 40s").is_some());
    assert!(
        h.query_by_label_contains("Bot 1 has been away for 40 seconds")
            .is_some()
    );
    h.get_by_label("Skip their turns").click();
    h.run();
    assert!(voted(&h, AwayVote::Skip));
}

/// Issue: "a step that cannot be skipped asks for what it needs": a player skipping an
/// away seat's turns is told, at a deal, that only removing it goes on, and can.
#[test]
fn a_deal_that_cannot_skip_an_away_seat_asks_to_remove_it() {
    let mut v = bot_one_away(70, Some(AwayVote::Skip));
    v.votes[0].skip_cannot = Some(
        "the cards cannot be dealt or shown without Bot 1's key: remove them to go on, or wait"
            .into(),
    );
    let mut h = screen(v);
    h.run();
    assert!(
        h.query_by_label_contains("The cards cannot be dealt or shown without Bot 1's key")
            .is_some()
    );
    h.get_by_label("Remove them").click();
    h.run();
    assert!(voted(&h, AwayVote::Remove));
}

/// A table with too few seats here to decide without the rest says so over its choices,
/// before a deal's need for a removal: no choice made here can pass until more are back.
#[test]
fn a_table_with_too_few_seats_here_says_it_waits_for_more() {
    let mut v = bot_one_away(70, None);
    v.votes[0].skip_cannot = Some(
        "the cards cannot be dealt or shown without Bot 1's key: remove them to go on, or wait"
            .into(),
    );
    v.votes[0].too_few = Some(
        "only 1 of the 3 seats in the game are here: more must be back before the table can go on without the rest (a table split in two must not play two games). Wait, or leave: the game is kept"
            .into(),
    );
    let mut h = screen(v);
    h.run();
    assert!(
        h.query_by_label_contains("Only 1 of the 3 seats in the game are here")
            .is_some()
    );
    assert!(
        h.query_by_label_contains("The cards cannot be dealt")
            .is_none()
    );
}

#[test]
fn a_seat_whose_turns_are_skipped_says_so_until_it_is_back_and_can_be_waited_for() {
    let mut h = screen(bot_one_away(0, Some(AwayVote::Skip)));
    h.run();
    assert!(
        h.query_by_label_contains("skipping Bot 1's turns until Bot 1 is back")
            .is_some()
    );
    h.get_by_label("Wait").click();
    h.run();
    assert!(voted(&h, AwayVote::Wait));
}

#[test]
fn a_player_whose_turns_the_table_skipped_is_told_and_can_say_they_are_back() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.skipped_me = true;
    let mut h = screen(v);
    h.run();
    assert!(
        h.query_by_label("The table skipped your turns while you were away")
            .is_some()
    );
    let back = h.get_by_label("I'm back").rect();
    assert!(
        back.width() >= 48.0 && back.height() >= 48.0,
        "\"I'm back\" is smaller than a finger: {back:?}"
    );
    h.get_by_label("I'm back").click();
    h.run();
    assert!(h.state().said.iter().any(|i| matches!(i, GameIntent::Back)));
}

#[test]
fn a_player_the_table_has_not_skipped_is_not_asked_whether_they_are_back() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut h = screen(view(&public, &privates));
    h.run();
    assert!(h.query_by_label("I'm back").is_none());
}

#[test]
fn a_failed_audit_names_the_seat_the_step_and_what_was_wrong() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.outcome = Some(Outcome {
        winners: vec![2],
        scores: vec![],
    });
    v.audit = Some(AuditVerdict::Fault {
        seat: Some(1),
        step: Some(12),
        what: "played a Curse! that was not in the hand".into(),
    });
    let mut h = screen(v);
    h.run();
    assert!(h.query_by_label("Bot 2 won!").is_some());
    assert!(
        h.query_by_label_contains("Not verified: Bot 1 at step 12: played a Curse!")
            .is_some()
    );
}

#[test]
fn a_phone_on_its_side_keeps_the_hand_and_play_on_screen_beside_the_board() {
    let (public, privates) = Position::new(short(3))
        .hand(
            0,
            &[
                Card::Go8,
                Card::Curse,
                Card::SeeYa,
                Card::Tracking,
                Card::Loot,
            ],
        )
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut h = screen_sized(view(&public, &privates), [780.0, 360.0]);
    h.run();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(780.0, 360.0));
    for label in ["Go! 8", "Loot the Bodies!", "Room 12: The Hoard"] {
        let rect = h.get_by_label(label).rect();
        assert!(
            screen.contains_rect(rect),
            "{label} is off screen at {rect:?}"
        );
    }
    h.get_by_label("Curse!").click();
    h.run();
    let play = h.get_by_label("Play");
    assert!(screen.contains_rect(play.rect()), "Play is off screen");
    play.click();
    h.run();
    assert_eq!(played(&h), vec![Input::Card(Card::Curse)]);
}

/// "GreedQuest, removed: it leaves the race; its piece stays where it stood but plays no
/// part" (README, Away seats): the table says so under its place, not "away".
#[test]
fn a_seat_the_table_removed_is_shown_out_of_the_race() {
    let (mut public, mut privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let first = match GreedQuest::pending(&public) {
        hoard_rules::Pending::Together { .. } => {
            let mine = GreedQuest::legal_inputs(&public, privates[0].as_ref(), 0)[0];
            let theirs = GreedQuest::legal_inputs(&public, privates[2].as_ref(), 2)[0];
            vec![(0, mine), (1, Input::Leave), (2, theirs)]
        }
        other => panic!("a fresh table waits for a turn of all seats, not {other:?}"),
    };
    step(&mut public, &mut privates, &first);
    assert!(
        public.left.contains(1),
        "the rules took Bot 1 out of the race"
    );
    let mut v = view(&public, &privates);
    v.seats[1].connected = false;
    let mut h = screen(v);
    h.run();
    assert!(h.query_by_label("left the game").is_some());
    assert!(h.query_by_label_contains("away").is_none());
}

/// Whether the screen said this about ending the game.
fn said_end(h: &Harness<'_, Screen>, agree: bool) -> bool {
    h.state()
        .said
        .iter()
        .any(|i| matches!(i, GameIntent::End { agree: a } if *a == agree))
}

/// "Ann and Bo want to end the game here: End / Keep playing" (issue 14): the players who
/// asked are named, and this player answers with one tap either way.
#[test]
fn others_asking_to_end_the_game_are_named_and_the_player_agrees_or_plays_on() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.end = EndView {
        agreed: vec![1, 2],
        mine: false,
        declined: false,
    };
    let mut h = screen(v.clone());
    h.run();
    assert!(
        h.query_by_label_contains("Bot 1 and Bot 2 want to end the game here")
            .is_some()
    );
    h.get_by_label("End").click();
    h.run();
    assert!(said_end(&h, true));
    h.get_by_label("Keep playing").click();
    h.run();
    assert!(said_end(&h, false));

    // Once this player has agreed, the screen says whom the table waits for instead.
    v.end = EndView {
        agreed: vec![0, 2],
        mine: true,
        declined: false,
    };
    let mut h = screen(v.clone());
    h.run();
    assert!(
        h.query_by_label_contains("You asked to end the game here. Waiting for Bot 1 to agree")
            .is_some()
    );
    assert!(h.query_by_label("Keep playing").is_none());
    // Having chosen to play on, the question is not asked again at this step.
    v.end = EndView {
        agreed: vec![1],
        mine: false,
        declined: true,
    };
    let mut h = screen(v);
    h.run();
    assert!(h.query_by_label_contains("want to end the game").is_none());
    assert!(h.query_by_label_contains("wants to end the game").is_none());
}

/// On a phone held upright the bar keeps every button on screen: leave, end the game, log.
#[test]
fn the_bar_has_room_for_leave_end_game_and_log_on_a_phone() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut h = screen(view(&public, &privates));
    h.run();
    let screen = egui::Rect::from_min_size(egui::Pos2::ZERO, egui::vec2(360.0, 780.0));
    let mut rects = Vec::new();
    for label in ["< Leave", "End game", "Log"] {
        let rect = h.get_by_label(label).rect();
        assert!(
            screen.contains_rect(rect),
            "{label} is off screen at {rect:?}"
        );
        rects.push(rect);
    }
    assert!(!rects[0].intersects(rects[1]) && !rects[1].intersects(rects[2]));
    let title = h.get_by_label("GreedQuest").rect();
    assert!(
        !title.intersects(rects[0]) && !title.intersects(rects[1]),
        "the title {title:?} runs into the buttons {rects:?}"
    );
    h.get_by_label("End game").click();
    h.run();
    assert!(
        h.state()
            .said
            .iter()
            .any(|i| matches!(i, GameIntent::AskToEnd))
    );
}

/// The end of a game the table agreed to stop says so, with no winner, and the audit's word.
#[test]
fn a_game_ended_by_agreement_says_so_on_the_end_screen() {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.outcome = Some(Outcome::default());
    v.ended_by_agreement = true;
    v.audit = Some(AuditVerdict::Verified);
    let mut h = screen(v);
    h.run();
    assert!(h.query_by_label("The game ended by agreement.").is_some());
    assert!(
        h.query_by_label_contains("Verified: every hidden card")
            .is_some()
    );
    assert!(h.query_by_label("Nobody won.").is_none());
    assert!(h.query_by_label("End game").is_none(), "over is over");
}

/// The end screen of a game over, with the audit's verdict `audit`.
fn end_screen(audit: AuditVerdict) -> Harness<'static, Screen> {
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.outcome = Some(Outcome {
        winners: vec![0],
        scores: vec![],
    });
    v.audit = Some(audit);
    let mut h = screen(v);
    h.run();
    h
}

const PLAIN_VERIFIED: &str =
    "Verified: every hidden card and choice was legal, and every device saw the same game.";

/// Issue 29: "any `unchecked` part (a seat's own deck, a sealed play never opened, a secret
/// never revealed) is named in words ... never the unqualified sentence."
#[test]
fn a_seat_that_left_before_revealing_is_named_and_the_game_is_never_plainly_verified() {
    let h = end_screen(AuditVerdict::VerifiedExcept {
        unchecked: vec![UncheckedSeat {
            seat: 2,
            parts: vec![
                Unchecked::Sealed {
                    steps: vec![12, 30],
                },
                Unchecked::OwnDeck,
            ],
        }],
    });
    assert!(
        h.query_by_label_contains(
            "Verified, except Bot 2's sealed choices at steps 12 and 30 and the cards Bot 2 \
             drew from Bot 2's own deck, which Bot 2 never revealed: Bot 2 left the game"
        )
        .is_some()
    );
    assert!(h.query_by_label_contains(PLAIN_VERIFIED).is_none());
    assert!(
        h.query_by_label_contains("Verified: every hidden card")
            .is_none()
    );
}

/// A long list stays readable on a phone: the steps past the first few are counted, not
/// listed.
#[test]
fn many_unopened_sealed_choices_are_summed_up_on_the_end_screen() {
    let h = end_screen(AuditVerdict::VerifiedExcept {
        unchecked: vec![UncheckedSeat {
            seat: 1,
            parts: vec![Unchecked::Sealed {
                steps: vec![4, 9, 15, 22, 31, 40, 47, 52],
            }],
        }],
    });
    assert!(
        h.query_by_label_contains(
            "Verified, except Bot 1's sealed choices at steps 4, 9, 15 and 5 more, which Bot 1 \
             never revealed"
        )
        .is_some()
    );
    assert!(h.query_by_label_contains(PLAIN_VERIFIED).is_none());
}

/// With every secret revealed, the plain sentence stays.
#[test]
fn a_fully_checked_game_is_plainly_verified() {
    let h = end_screen(AuditVerdict::Verified);
    assert!(h.query_by_label_contains(PLAIN_VERIFIED).is_some());
    assert!(h.query_by_label_contains("Verified, except").is_none());
}

/// The shared screen (a TV at the table) says the same, in its own shorter words.
#[test]
fn the_shared_screen_never_plainly_verifies_a_game_a_seat_left_unrevealed() {
    use hoard_app::games::{GameUi, TableFrame};
    use hoard_app::net::ScreenView;
    use hoard_app::screens::shared;
    let (public, privates) = Position::new(short(3))
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut v = view(&public, &privates);
    v.me = None;
    v.my_turn = false;
    v.audit = Some(AuditVerdict::VerifiedExcept {
        unchecked: vec![UncheckedSeat {
            seat: 2,
            parts: vec![Unchecked::Sealed { steps: vec![12] }],
        }],
    });
    let mut h = Harness::builder()
        .with_size([1280.0, 720.0])
        .build_ui_state(
            move |ui, (view, games): &mut (ScreenView, Vec<Box<dyn GameUi>>)| {
                let frame = TableFrame {
                    now: ui.input(|i| i.time),
                    portrait: false,
                    still: true,
                    screen: false,
                };
                let _ = shared::show(ui, Some(&*view), games, frame);
            },
            (ScreenView::Game(Box::new(v)), hoard_app::games::all()),
        );
    h.run();
    assert!(
        h.query_by_label_contains(
            "Verified, except Bot 2's sealed choice at step 12, which Bot 2 never revealed"
        )
        .is_some()
    );
    assert!(
        h.query_by_label_contains("Verified: every hidden card")
            .is_none()
    );
}
