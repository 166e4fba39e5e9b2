//! Motion on the table shows what changed without getting in the way: a GreedQuest pawn
//! slides along the track to its new room, a Spree! shopper walks to its new square, a card
//! laid in Counter turns face up, and dice tumble a moment. Every move ends at the new state,
//! the table stays tappable while it runs, an idle table asks for no frames once it is over,
//! and with motion turned off (Settings) every change shows on the very first frame.

use crate::support;

use egui::accesskit::Role;
use egui::epaint::{ClippedShape, Shape};
use egui::{Color32, Pos2, Rect, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::games::counter::CounterUi;
use hoard_app::games::greedquest::GreedQuestUi;
use hoard_app::games::spree::SpreeUi;
use hoard_app::games::{GameUi, TableFrame, TableIntent};
use hoard_app::net::{AnyInput, AnyState, GameView, SeatView};
use hoard_app::screens::table::{self, GameIntent};
use hoard_rules::greedquest::{Card, Config, Facing, Length, Position};
use hoard_rules::{CardId, Game, Seat};
use std::time::Duration;
use support::spree_table;
use support::views::{me_and_bots, seated_view};

/// Seconds a frame of the harness lasts: fine enough to catch a move half way.
const DT: f32 = 0.05;
/// The frames a pawn's slide (0.4 s) and a card's turn (0.3 s) take at [`DT`].
const SLIDE_FRAMES: usize = 8;
const FLIP_FRAMES: usize = 6;

const NAMES: [&str; 4] = ["Mia", "Ann", "Bo", "Cyrus"];
const COLOURS: [[u8; 3]; 4] = [[40, 120, 220], [220, 60, 50], [40, 160, 80], [240, 190, 30]];

/// One game's table drawn alone, as the table screen draws it, with motion on or off.
struct Table {
    view: GameView,
    game: Box<dyn GameUi>,
    still: bool,
    said: Vec<GameIntent>,
}

fn table_of(view: GameView, game: Box<dyn GameUi>, still: bool) -> Harness<'static, Table> {
    Harness::builder()
        .with_size([360.0, 780.0])
        .with_step_dt(DT)
        .with_max_steps(200)
        .with_context_setup(|ctx| hoard_app::theme::apply(ctx, hoard_app::theme::ThemeChoice::Dark))
        .build_ui_state(
            |ui, t: &mut Table| {
                let frame = TableFrame {
                    now: ui.input(|i| i.time),
                    portrait: ui.available_height() > ui.available_width(),
                    still: t.still,
                    screen: false,
                };
                let mut code = table::TableCode::default();
                let said = table::show(ui, &t.view, Some(&mut t.game), frame, false, &mut code);
                t.said.extend(said);
            },
            Table {
                view,
                game,
                still,
                said: Vec::new(),
            },
        )
}

fn seats(n: usize) -> Vec<SeatView> {
    me_and_bots(&NAMES[..n], &COLOURS[..n])
}

fn view_of(
    state: AnyState,
    seats_n: usize,
    pending: hoard_rules::Pending,
    my_turn: bool,
) -> GameView {
    seated_view(3, seats(seats_n), state, pending, my_turn, 10)
}

/// Whether the last frame asked for the next one at once.
fn asks_for_next_frame(h: &Harness<'_, Table>) -> bool {
    repaint_delay(h) == Duration::ZERO
}

/// How long until the frame after the last one was asked for (`Duration::MAX`: never).
fn repaint_delay(h: &Harness<'_, Table>) -> Duration {
    h.output()
        .viewport_output
        .get(&ViewportId::ROOT)
        .map_or(Duration::MAX, |v| v.repaint_delay)
}

/// Steps frames until the table asks for none, then checks that a few more ask for none
/// either: the idle table draws nothing.
fn settles_and_stays_idle(h: &mut Harness<'_, Table>) {
    let steps = h.run();
    assert!(
        steps < 60,
        "the motion ends within a few seconds ({steps} frames)"
    );
    for k in 0..5 {
        h.step();
        assert_eq!(
            repaint_delay(h),
            Duration::MAX,
            "frame {k} after the motion ended asked for another"
        );
    }
}

/// With motion off, a change asks for no frames of its own: at most one more frame (egui
/// asks for one to style a widget it has not seen before, such as a new button) and then
/// none.
fn no_motion_follows(h: &mut Harness<'_, Table>) {
    let steps = h.run();
    assert!(steps <= 2, "{steps} frames followed the change");
    h.step();
    assert_eq!(
        repaint_delay(h),
        Duration::MAX,
        "the still table asks for no frame"
    );
}

/// Where the circles of `fill` are drawn inside `area`.
fn circles(h: &Harness<'_, Table>, fill: Color32, area: Rect) -> Vec<Pos2> {
    h.output()
        .shapes
        .iter()
        .filter_map(|ClippedShape { shape, .. }| match shape {
            Shape::Circle(c) if c.fill == fill && area.contains(c.center) => Some(c.center),
            _ => None,
        })
        .collect()
}

// ---- GreedQuest: a pawn slides along the track ---------------------------------------

/// Mia in Room 2 with Ann and Bo in Room 1: a Short Game of three.
fn greedquest_view() -> GameView {
    let config = Config {
        length: Length::Short,
        ..Config::new(3)
    };
    let (public, privates) = Position::new(config)
        .room(0, 2, Facing::In)
        .hand(0, &[Card::Go1, Card::Go2, Card::Go3, Card::Go4, Card::Go5])
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let pending = hoard_rules::greedquest::GreedQuest::pending(&public);
    view_of(
        AnyState::GreedQuest {
            public,
            private: privates[0].clone(),
        },
        3,
        pending,
        true,
    )
}

fn move_mia_to(h: &mut Harness<'_, Table>, room: u8) {
    if let AnyState::GreedQuest { public, .. } = &mut h.state_mut().view.state {
        public.seats[0].room = room;
    }
}

/// The tile of room `n` on the track.
fn room_tile(h: &Harness<'_, Table>, n: u8) -> Rect {
    let prefix = format!("Room {n}:");
    h.query_all_by_role(Role::Button)
        .find(|node| {
            node.accesskit_node()
                .label()
                .is_some_and(|l| l.starts_with(&prefix))
        })
        .unwrap_or_else(|| panic!("no tile for room {n}"))
        .rect()
}

/// The track: every room's tile and the gaps between them.
fn track(h: &Harness<'_, Table>) -> Rect {
    (1..=12).fold(Rect::NOTHING, |r, n| r.union(room_tile(h, n)))
}

/// Where Mia's pawn is drawn on the track.
fn mias_pawn(h: &Harness<'_, Table>) -> Pos2 {
    let found = circles(h, hoard_app::theme::colour(COLOURS[0]), track(h));
    assert_eq!(
        found.len(),
        1,
        "one pawn of Mia's colour on the track: {found:?}"
    );
    found[0]
}

#[test]
fn a_greedquest_pawn_slides_along_the_track_from_its_old_room_to_its_new_one() {
    let mut h = table_of(greedquest_view(), Box::new(GreedQuestUi::default()), false);
    h.run();
    let old = mias_pawn(&h);
    assert!(room_tile(&h, 2).contains(old), "Mia starts in Room 2");

    move_mia_to(&mut h, 3);
    h.step();
    assert!(
        asks_for_next_frame(&h),
        "the slide asks for frames while it runs"
    );
    assert_eq!(mias_pawn(&h), old, "the pawn sets off from its old room");
    for _ in 0..SLIDE_FRAMES / 2 {
        h.step();
    }
    let mid = mias_pawn(&h);
    assert!(asks_for_next_frame(&h));
    let (two, three) = (room_tile(&h, 2), room_tile(&h, 3));
    assert!(
        two.union(three).contains(mid) && mid.distance(old) > 10.0,
        "half way the pawn is between Room 2 {two:?} and Room 3 {three:?}: {mid:?}"
    );

    settles_and_stays_idle(&mut h);
    let end = mias_pawn(&h);
    assert!(
        three.contains(end) && mid.distance(end) > 10.0,
        "the pawn ends in Room 3 {three:?}: {end:?}"
    );
}

#[test]
fn with_motion_off_a_greedquest_pawn_is_in_its_new_room_on_the_first_frame() {
    let mut h = table_of(greedquest_view(), Box::new(GreedQuestUi::default()), true);
    h.run();
    assert!(room_tile(&h, 2).contains(mias_pawn(&h)));

    move_mia_to(&mut h, 3);
    h.step();
    assert!(
        room_tile(&h, 3).contains(mias_pawn(&h)),
        "the pawn is in Room 3 at once"
    );
    assert_eq!(
        repaint_delay(&h),
        Duration::MAX,
        "and nothing asks for a frame"
    );
}

#[test]
fn a_pawn_that_moves_several_rooms_passes_through_the_rooms_between() {
    let mut h = table_of(greedquest_view(), Box::new(GreedQuestUi::default()), false);
    h.run();
    // Room 2 to Room 5 is three rooms along the track, past Rooms 3 and 4.
    move_mia_to(&mut h, 5);
    h.step();
    for _ in 0..SLIDE_FRAMES / 2 {
        h.step();
    }
    let mid = mias_pawn(&h);
    let between = room_tile(&h, 3).union(room_tile(&h, 4));
    assert!(
        between.contains(mid),
        "half way the pawn is among the rooms between, {between:?}: {mid:?}"
    );
    settles_and_stays_idle(&mut h);
    assert!(room_tile(&h, 5).contains(mias_pawn(&h)));
}

/// The table before and after a turn in which Mia, Ann and Bo played Go! 1 to 3, each
/// with its log as the rules tell it.
fn greedquest_turn_played() -> (GameView, GameView) {
    use hoard_rules::greedquest::{GreedQuest, Input};
    use hoard_rules::{Play, Step};
    let config = Config {
        length: Length::Short,
        ..Config::new(3)
    };
    let (mut public, mut privates) = Position::new(config)
        .hand(0, &[Card::Go1, Card::Go4, Card::Go5, Card::Go6, Card::Go7])
        .hand(1, &[Card::Go2, Card::Go4, Card::Go5, Card::Go6, Card::Go7])
        .hand(2, &[Card::Go3, Card::Go4, Card::Go5, Card::Go6, Card::Go7])
        .build()
        .unwrap_or_else(|e| panic!("{e}"));
    let name = |s: Seat| NAMES[usize::from(s)].to_string();
    let mut log = vec![GreedQuest::narrate(
        &hoard_rules::greedquest::Event::TurnBegins { turn: public.turn },
        &name,
    )];
    let step = Step::Inputs(
        [Card::Go1, Card::Go2, Card::Go3]
            .iter()
            .enumerate()
            .map(|(s, c)| (s as Seat, Play::Open(Input::Card(*c))))
            .collect(),
    );
    let mut before = view_of(
        AnyState::GreedQuest {
            public: public.clone(),
            private: privates[0].clone(),
        },
        3,
        GreedQuest::pending(&public),
        true,
    );
    before.log = log.clone();
    let events = GreedQuest::apply(&mut public, &mut privates, &step)
        .unwrap_or_else(|e| panic!("the rules refused the turn: {e}"));
    log.extend(events.iter().map(|e| GreedQuest::narrate(e, &name)));
    // The turn's story ends where the next turn begins.
    let next = GreedQuest::narrate(
        &hoard_rules::greedquest::Event::TurnBegins { turn: public.turn },
        &name,
    );
    if let Some(end) = log.iter().skip(1).position(|l| *l == next) {
        log.truncate(end + 1);
    }
    let pending = GreedQuest::pending(&public);
    let mut view = view_of(
        AnyState::GreedQuest {
            public,
            private: privates[0].clone(),
        },
        3,
        pending,
        true,
    );
    view.log = log;
    (before, view)
}

#[test]
fn with_motion_off_the_turned_up_cards_and_the_whole_story_show_on_the_first_frame() {
    let (before, after) = greedquest_turn_played();
    let told = after.log.clone();
    let last_line = told
        .iter()
        .rev()
        .find(|l| !l.starts_with("Turn "))
        .cloned()
        .expect("the turn has lines");
    for still in [false, true] {
        let mut h = table_of(before.clone(), Box::new(GreedQuestUi::default()), still);
        h.run();
        h.state_mut().view = after.clone();
        h.step();
        let shown = h.query_by_label(&last_line).is_some();
        // Frames asked for at once after the turn came (the cards turning over).
        let steps = h.run();
        if still {
            assert!(shown, "the whole turn is told at once: {last_line:?}");
            assert!(steps <= 2, "no card turns, yet {steps} frames followed");
        } else {
            assert!(
                !shown,
                "with motion the cards turn before the story is told"
            );
            assert!(steps >= 10, "the cards turn over, {steps} frames");
        }
    }
}

// ---- Spree!: a shopper walks to its square; dice tumble ------------------------------

fn spree_view() -> GameView {
    use hoard_rules::spree::Spree;
    let (public, private) = spree_table::spree_table(spree_table::mias_walk());
    let pending = Spree::pending(&public);
    view_of(
        AnyState::Spree {
            public,
            private: Some(private),
        },
        4,
        pending,
        true,
    )
}

fn spree_public<'a>(h: &'a mut Harness<'static, Table>) -> &'a mut hoard_rules::spree::Public {
    match &mut h.state_mut().view.state {
        AnyState::Spree { public, .. } => public,
        _ => panic!("a Spree! table"),
    }
}

/// The mall on the screen.
fn mall(h: &Harness<'_, Table>) -> Rect {
    h.get_by_label_contains("The mall: ").rect()
}

/// Where Ann's shopper's head is drawn on the mall.
fn anns_head(h: &Harness<'_, Table>) -> Pos2 {
    let found = circles(h, hoard_app::theme::colour(COLOURS[1]), mall(h));
    assert_eq!(
        found.len(),
        1,
        "one head of Ann's colour on the mall: {found:?}"
    );
    found[0]
}

/// A square two steps' walk from `from`, and the square between.
fn two_steps_from(
    from: hoard_rules::spree::board::Sq,
) -> (hoard_rules::spree::board::Sq, hoard_rules::spree::board::Sq) {
    use hoard_rules::spree::board::{Dir, board};
    for first in Dir::ALL {
        let Some(a) = board().walk(from, first) else {
            continue;
        };
        if let Some(b) = board().walk(a, first)
            && board().distance(from, b) == 2
        {
            return (a, b);
        }
    }
    panic!("no straight walk of two steps from {from:?}");
}

#[test]
fn a_spree_shopper_walks_to_its_new_square_and_the_board_stays_tappable_meanwhile() {
    let mut h = table_of(spree_view(), Box::new(SpreeUi::default()), false);
    h.run();
    let start = anns_head(&h);
    let from = spree_public(&mut h).pawns[1].shopper;
    let (_, to) = two_steps_from(from);
    spree_public(&mut h).pawns[1].shopper = to;
    h.step();
    assert!(asks_for_next_frame(&h));
    for _ in 0..SLIDE_FRAMES / 2 {
        h.step();
    }
    let mid = anns_head(&h);

    // Mia's walk can be drawn while Ann's shopper is still on her way.
    let reach = h
        .query_all_by_role(Role::Button)
        .filter_map(|n| n.accesskit_node().label())
        .find(|l| l.starts_with("Walk to "))
        .expect("squares within Mia's reach");
    h.get_by_label(&reach).click();
    // The tap is taken on this frame; the path shows on the next.
    h.step();
    h.step();
    assert!(
        h.query_all_by_role(Role::Button)
            .filter_map(|n| n.accesskit_node().label())
            .any(|l| l.starts_with("Path ends at ")),
        "the tap during the walk drew Mia's path"
    );

    settles_and_stays_idle(&mut h);
    let end = anns_head(&h);
    let step = start.distance(end) / 2.0;
    assert!(step > 10.0, "Ann's shopper moved: {start:?} to {end:?}");
    assert!(
        mid.distance(start) > step * 0.5 && mid.distance(end) > step * 0.5,
        "half way Ann is on the square between {start:?} and {end:?}: {mid:?}"
    );
}

#[test]
fn with_motion_off_a_spree_shopper_and_the_dice_land_at_once() {
    let mut h = table_of(spree_view(), Box::new(SpreeUi::default()), true);
    h.run();
    let from = spree_public(&mut h).pawns[1].shopper;
    let (_, to) = two_steps_from(from);
    let mall_before = mall(&h);
    {
        let public = spree_public(&mut h);
        public.pawns[1].shopper = to;
        public.dice = Some((6, 5));
    }
    h.step();
    assert_eq!(repaint_delay(&h), Duration::MAX, "nothing asks for a frame");
    assert!(
        h.query_by_label("Dice: 6, 5").is_some(),
        "the dice lie as rolled"
    );
    let head = anns_head(&h);
    let cell = mall_before.width() / f32::from(hoard_rules::spree::board::WIDTH);
    let square = Rect::from_min_size(
        mall_before.min + egui::vec2(f32::from(to.x) * cell, f32::from(to.y) * cell),
        egui::Vec2::splat(cell),
    );
    assert!(
        square.contains(head),
        "Ann's shopper is on her new square {square:?} at once: {head:?}"
    );
}

#[test]
fn new_dice_tumble_a_moment_then_lie_still() {
    let mut h = table_of(spree_view(), Box::new(SpreeUi::default()), false);
    h.run();
    assert_eq!(
        repaint_delay(&h),
        Duration::MAX,
        "the first sight of the dice is still"
    );
    spree_public(&mut h).dice = Some((6, 5));
    h.step();
    assert!(asks_for_next_frame(&h), "the dice tumble");
    settles_and_stays_idle(&mut h);
    assert!(h.query_by_label("Dice: 6, 5").is_some());
}

// ---- Counter: a card laid turns face up ----------------------------------------------

fn counter_card(n: u8, copy: u16) -> CardId {
    (u16::from(n) - 1) * hoard_rules::counter::COPIES + copy
}

/// Three at the table, Ann (seat 1) to play and Mia holding two 5s.
fn counter_view() -> GameView {
    use hoard_rules::counter::{Config, Counter, Phase, Private};
    let mut public = Counter::setup(&Config::new(3)).unwrap_or_else(|e| panic!("{e}"));
    public.deck.shuffled(24);
    for (seat, count) in [(0usize, 3), (1, 3), (2, 3)] {
        public.hands[seat] = public.deck.take(count);
    }
    let faces = public.hands[0]
        .iter()
        .zip([counter_card(5, 0), counter_card(2, 0), counter_card(5, 1)])
        .map(|(h, c)| (*h, c))
        .collect();
    public.discard = vec![counter_card(4, 0)];
    public.turns = 3;
    public.phase = Phase::Turn { seat: 1 };
    let private = Private { seat: 0, faces };
    let pending = Counter::pending(&public);
    view_of(
        AnyState::Counter {
            public,
            private: Some(private),
        },
        3,
        pending,
        false,
    )
}

/// Ann plays a 5: the window opens for Mia and Bo to counter it.
fn ann_plays_a_five(h: &mut Harness<'_, Table>) {
    use hoard_rules::counter::{Counter, Phase};
    let view = &mut h.state_mut().view;
    if let AnyState::Counter { public, private } = &mut view.state {
        public.hands[1].remove(0);
        public.phase = Phase::Window {
            laid: vec![(1, counter_card(5, 2))],
            seats: vec![0, 2],
        };
        view.pending = Counter::pending(public);
        view.my_turn = !Counter::legal_inputs(public, private.as_ref(), 0).is_empty();
    }
}

fn counters(h: &Harness<'_, Table>) -> Vec<hoard_rules::counter::Input> {
    h.state()
        .said
        .iter()
        .filter_map(|i| match i {
            GameIntent::Table(TableIntent::Play(AnyInput::Counter(input))) => Some(*input),
            _ => None,
        })
        .collect()
}

#[test]
fn a_card_laid_in_counter_turns_face_up_and_can_be_countered_while_it_turns() {
    let mut h = table_of(counter_view(), Box::new(CounterUi::default()), false);
    h.run();
    ann_plays_a_five(&mut h);
    h.step();
    assert!(asks_for_next_frame(&h), "the card turns over");
    assert!(
        h.query_by_label("The exchange: Ann played a 5").is_some(),
        "the exchange names the card from the first frame"
    );
    // Half way through the turn Mia counters with one of her 5s: the tap counts.
    for _ in 0..FLIP_FRAMES / 2 - 1 {
        h.step();
    }
    assert!(asks_for_next_frame(&h), "still turning");
    h.get_all_by_label("Counter with your 5")
        .next()
        .expect("a 5 to counter with")
        .click();
    h.step();
    assert!(
        matches!(
            counters(&h).as_slice(),
            [hoard_rules::counter::Input::Counter { face, .. }] if *face == counter_card(5, 0) || *face == counter_card(5, 1)
        ),
        "the counter was sent: {:?}",
        counters(&h)
    );
    settles_and_stays_idle(&mut h);
}

#[test]
fn with_motion_off_a_card_laid_in_counter_is_face_up_at_once() {
    let mut h = table_of(counter_view(), Box::new(CounterUi::default()), true);
    h.run();
    ann_plays_a_five(&mut h);
    h.step();
    assert!(h.query_by_label("The exchange: Ann played a 5").is_some());
    no_motion_follows(&mut h);
}
