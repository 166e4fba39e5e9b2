//! What the moment asks, and the buttons to answer it: the prompt (with a Mailing's die,
//! which tumbles a moment when it changes, its Target Number in parts, and an answer
//! window's countdown), my hand as a strip of small cards with the tapped one read whole,
//! and the moves as finger-sized buttons. A move that needs aiming (a Mailing's Scam and
//! List, a Special Effect's aim, two Lists to merge) is chosen a tap at a time.

use super::{
    Frame, SpammersUi, Step, action_card, action_name, list_card, list_said, scam_facts, seat_name,
    specialty_chip, specialty_name, whose,
};
use crate::theme::{Palette, TOUCH};
use egui::{Button, Color32, Pos2, Rect, RichText, Sense, Stroke, StrokeKind, Vec2};
use hoard_rules::spammers::data::{ActionKind, Effect, Timing};
use hoard_rules::spammers::{ACTION_DECK, ACTIONS_PER_TURN, Aim, Input, Mailing, Phase, Stack};
use hoard_rules::{CardId, Handle, Seat};

/// Space between buttons.
const GAP: f32 = 8.0;
/// The narrowest a move button gets before the row wraps, and the widest.
const BUTTON_MIN: f32 = 96.0;
const BUTTON_MAX: f32 = 240.0;
/// The die's side.
const DIE: f32 = 34.0;
/// A card of the hand strip.
const CARD: Vec2 = Vec2::new(112.0, 58.0);

/// What a button does: send a move, or take a step toward one.
#[derive(Clone, Debug, PartialEq)]
enum Tap {
    Send(Input),
    Begin(Step),
}

/// "You draw" or "Ann draws".
fn says(f: &Frame, seat: Seat, you: &str, they: &str) -> String {
    if f.me() == Some(seat) {
        format!("You {you}")
    } else {
        format!("{} {they}", seat_name(f.view, seat))
    }
}

fn signed(n: i32) -> String {
    if n < 0 {
        format!("-{}", -n)
    } else {
        format!("+{n}")
    }
}

/// A card's kind in a few words: "Scam, GRQ, from 1", "Mailing +1", "Hardware".
fn kind_words(id: CardId) -> String {
    match action_card(id).map(|c| c.kind) {
        Some(ActionKind::Scam { category, initial }) => format!(
            "Scam, {}, from {initial}",
            category.map_or("Misc", |c| specialty_chip(c).0)
        ),
        Some(ActionKind::Mailing {
            modifier, timing, ..
        }) => format!(
            "Mailing {}{}",
            signed(i32::from(modifier)),
            if timing == Timing::AfterRoll {
                ", answer"
            } else {
                ""
            }
        ),
        Some(ActionKind::Hardware(_)) => "Hardware".into(),
        None => "Unknown card".into(),
    }
}

/// The parts of a Mailing's Target Number: List Size, the Mailing's modifier, the
/// Specialty match, Hardware, and the answers' adjustment. The Size is what the base
/// leaves of the others, so the parts always add up to the number shown.
fn target_parts(f: &Frame, m: &Mailing) -> Vec<(String, i32)> {
    let modifier = match action_card(m.card).map(|c| c.kind) {
        Some(ActionKind::Mailing { modifier, .. }) => i32::from(modifier),
        _ => 0,
    };
    let area = f.public.areas.get(usize::from(m.seat));
    let category = area
        .and_then(|a| a.scams.get(usize::from(m.scam)))
        .and_then(|s| scam_facts(s.card).0);
    let matching = category.is_some_and(|c| {
        f.public
            .stack(m.target)
            .is_some_and(|s| s.specialties.contains(&c))
    });
    let hardware: i32 = area.map_or(0, |a| {
        a.hardware
            .iter()
            .map(|c| match action_card(*c).map(|c| c.kind) {
                Some(ActionKind::Hardware(hoard_rules::spammers::data::Continuous::Target(n))) => {
                    i32::from(n)
                }
                _ => 0,
            })
            .sum()
    });
    let specialty = if matching { 2 } else { 0 };
    let size = m.base - modifier - specialty - hardware;
    let mut out = vec![("Size".to_string(), size), ("modifier".into(), modifier)];
    if specialty != 0 {
        out.push(("Specialty".into(), specialty));
    }
    if hardware != 0 {
        out.push(("Hardware".into(), hardware));
    }
    if m.adjust != 0 {
        out.push(("answers".into(), m.adjust));
    }
    out
}

/// What a roll against a Target Number gains.
fn gain(roll: u8, target: i32) -> u8 {
    let roll = i32::from(roll);
    if roll <= target - 4 {
        2
    } else if roll <= target {
        1
    } else {
        0
    }
}

/// The Mailing under way, in words: "Ann mails Coupon Clippers (Masses) with Make Money Fast".
fn mailing_words(f: &Frame, m: &Mailing) -> String {
    let scam = f
        .public
        .areas
        .get(usize::from(m.seat))
        .and_then(|a| a.scams.get(usize::from(m.scam)))
        .map_or("a Scam", |s| action_name(s.card));
    let list = list_said(f, m.target);
    says(
        f,
        m.seat,
        &format!("mail {list} for {scam}"),
        &format!("mails {list} for {scam}"),
    )
}

/// A Special Effect aimed, as its button says it.
fn aim_words(f: &Frame, face: CardId, aim: &Aim) -> String {
    let name = action_name(face);
    let effect = match action_card(face).map(|c| c.kind) {
        Some(ActionKind::Mailing { effect, .. }) => effect,
        _ => return format!("{name}: play it"),
    };
    match (effect, aim) {
        (Effect::Rating(n), Aim::Scam { scam, up }) => {
            let target = f
                .public
                .scam(*scam)
                .map_or("a Scam", |s| action_name(s.card));
            format!(
                "{}{n} to {} {target}",
                if *up { "+" } else { "-" },
                whose(f.view, scam.seat)
            )
        }
        (Effect::Target(n), Aim::Roll { up }) => {
            format!("{name}: target {}{n}", if *up { "+" } else { "-" })
        }
        (Effect::AddSpecialty(sp), Aim::List(at)) => {
            format!("Add {} to {}", specialty_name(sp), list_said(f, *at))
        }
        (Effect::RemoveSpecialty, Aim::Specialty { list, specialty }) => format!(
            "Remove {} from {}",
            specialty_name(*specialty),
            list_said(f, *list)
        ),
        (Effect::Gruntle(n), Aim::List(at)) => format!("{n} Gruntle to {}", list_said(f, *at)),
        (Effect::Ungruntle(n), Aim::List(at)) => {
            format!("Take {n} Gruntle off {}", list_said(f, *at))
        }
        (Effect::Harvest, Aim::List(at)) => format!("Harvest {}", list_said(f, *at)),
        (Effect::Crash, Aim::Hardware { seat, index }) => {
            let hw = f
                .public
                .areas
                .get(usize::from(*seat))
                .and_then(|a| a.hardware.get(usize::from(*index)))
                .map_or("Hardware", |c| action_name(*c));
            format!("Crash {} {hw}", whose(f.view, *seat))
        }
        (Effect::Draw(n), _) => format!("{name}: draw {n}"),
        (Effect::ExtraMailing, _) => format!("{name}: one more Mailing"),
        _ => format!("{name}: play it"),
    }
}

/// A Mailing's Target Number with its parts, and what the roll gains as it stands.
fn roll_lines(ui: &mut egui::Ui, f: &Frame, m: &Mailing) {
    let palette = Palette::of(ui);
    let rolling = matches!(f.public.phase, Phase::Rolling { .. });
    let target = m.target_number();
    let parts: Vec<String> = target_parts(f, m)
        .iter()
        .enumerate()
        .map(|(k, (name, n))| {
            if k == 0 {
                format!("{name} {n}")
            } else {
                format!("{name} {}", signed(*n))
            }
        })
        .collect();
    ui.label(
        RichText::new(format!("Target Number {target}: {}", parts.join(", ")))
            .size(14.0)
            .color(palette.accent),
    );
    if !rolling {
        let words = match gain(m.roll, target) {
            0 => format!("Rolled {}: no gain as it stands", m.roll),
            n => format!("Rolled {}: +{n} Rating as it stands", m.roll),
        };
        ui.label(RichText::new(words).size(13.0).color(palette.muted));
    }
}

/// My cards of the Action deck, with their faces.
fn my_hand(f: &Frame) -> Vec<(Handle, Option<CardId>)> {
    let Some(area) = f.me().and_then(|m| f.public.areas.get(usize::from(m))) else {
        return Vec::new();
    };
    area.hand
        .iter()
        .filter(|h| h.deck == ACTION_DECK)
        .map(|h| (*h, f.private.and_then(|p| p.face(h))))
        .collect()
}

fn card_of(input: &Input) -> Option<Handle> {
    match input {
        Input::PlayScam { card, .. }
        | Input::PlayHardware { card, .. }
        | Input::Mail { card, .. }
        | Input::Special { card, .. }
        | Input::DiscardHeldScam { card, .. } => Some(*card),
        _ => None,
    }
}

impl SpammersUi {
    /// The prompt (unless drawn elsewhere), my hand and the moves; returns the move made.
    pub(super) fn controls(&mut self, ui: &mut egui::Ui, f: &Frame, prompt: bool) -> Option<Input> {
        let palette = Palette::of(ui);
        if prompt {
            self.prompt(ui, f);
        }
        if f.me().is_none() {
            ui.label(RichText::new("You are watching this game.").color(palette.muted));
            return None;
        }
        if matches!(f.public.phase, Phase::Choose) {
            dealt_lists(ui, f);
        }
        // The moves right under the prompt, where the shortest screen still shows them;
        // the hand and the card read whole below.
        let moves = self.move_list(f);
        let tapped = moves_rows(ui, &moves);
        self.hand(ui, f);
        if let Some(face) = self.picked.and_then(|h| f.private.and_then(|p| p.face(&h))) {
            card_detail(ui, face);
        }
        match tapped? {
            Tap::Send(input) => Some(input),
            Tap::Begin(step) => {
                self.step = self.settle_step(f, step);
                None
            }
        }
    }

    /// A step with only one way on is taken at once (a Mailing with only one Scam).
    fn settle_step(&self, f: &Frame, step: Step) -> Step {
        if let Step::Mail { card, scam: None } = step {
            let mut scams: Vec<u8> = f
                .legal
                .iter()
                .filter_map(|i| match i {
                    Input::Mail { card: c, scam, .. } if *c == card => Some(*scam),
                    _ => None,
                })
                .collect();
            scams.dedup();
            if let [only] = scams.as_slice() {
                return Step::Mail {
                    card,
                    scam: Some(*only),
                };
            }
        }
        step
    }

    /// The moves on offer now, each with whether it is the main one.
    fn move_list(&self, f: &Frame) -> Vec<(String, Tap, bool)> {
        let mut out: Vec<(String, Tap, bool)> = Vec::new();
        let send = |out: &mut Vec<(String, Tap, bool)>, words: String, input: &Input, main| {
            if !out.iter().any(|(w, ..)| *w == words) {
                out.push((words, Tap::Send(input.clone()), main));
            }
        };
        if f.legal.contains(&Input::Pass) {
            send(&mut out, "Let it stand".into(), &Input::Pass, true);
            for input in &f.legal {
                if let Input::Special { face, aim, .. } = input {
                    send(&mut out, aim_words(f, *face, aim), input, false);
                }
            }
            return out;
        }
        for input in &f.legal {
            match input {
                Input::Choose { masses, .. } => {
                    let name = list_card(masses.1).map_or("this List", |l| l.name);
                    send(&mut out, format!("Give {name} to the Masses"), input, false);
                }
                Input::KeepList { scam } => {
                    let name = f
                        .me()
                        .and_then(|m| {
                            f.public.scam(hoard_rules::spammers::ScamRef {
                                seat: m,
                                index: *scam,
                            })
                        })
                        .map_or("a Scam", |s| action_name(s.card));
                    send(
                        &mut out,
                        format!("Keep it: 1 point of {name}"),
                        input,
                        false,
                    );
                }
                Input::ListToMasses => send(&mut out, "To the Masses".into(), input, true),
                _ => {}
            }
        }
        if !f.legal.contains(&Input::EndTurn) {
            return out;
        }
        let back = |out: &mut Vec<(String, Tap, bool)>| {
            out.push(("Back".into(), Tap::Begin(Step::None), false));
        };
        match self.step {
            Step::Mail { card, scam: None } => {
                for input in &f.legal {
                    if let Input::Mail { card: c, scam, .. } = input
                        && *c == card
                    {
                        let name = f
                            .me()
                            .and_then(|m| f.public.areas.get(usize::from(m)))
                            .and_then(|a| a.scams.get(usize::from(*scam)))
                            .map_or("a Scam".to_string(), |s| {
                                format!("{} ({})", action_name(s.card), s.rating)
                            });
                        let words = format!("For {name}");
                        if !out.iter().any(|(w, ..)| *w == words) {
                            out.push((
                                words,
                                Tap::Begin(Step::Mail {
                                    card,
                                    scam: Some(*scam),
                                }),
                                false,
                            ));
                        }
                    }
                }
                back(&mut out);
            }
            Step::Mail {
                card,
                scam: Some(scam),
            } => {
                for input in &f.legal {
                    if let Input::Mail {
                        card: c,
                        face,
                        scam: s,
                        target,
                    } = input
                        && *c == card
                        && *s == scam
                        && let Some(me) = f.me()
                    {
                        let number = f.public.target_number(me, scam, *face, *target);
                        let words = format!("{}: target {number}", list_said(f, *target));
                        send(&mut out, words, input, false);
                    }
                }
                back(&mut out);
            }
            Step::Special { card } => {
                for input in &f.legal {
                    if let Input::Special {
                        card: c, face, aim, ..
                    } = input
                        && *c == card
                    {
                        send(&mut out, aim_words(f, *face, aim), input, false);
                    }
                }
                back(&mut out);
            }
            Step::Merge { first: None } => {
                for input in &f.legal {
                    if let Input::Merge { a, b } = input {
                        for at in [a, b] {
                            let words = format!("Merge {}", list_said(f, *at));
                            if !out.iter().any(|(w, ..)| *w == words) {
                                out.push((
                                    words,
                                    Tap::Begin(Step::Merge { first: Some(*at) }),
                                    false,
                                ));
                            }
                        }
                    }
                }
                back(&mut out);
            }
            Step::Merge { first: Some(first) } => {
                for input in &f.legal {
                    if let Input::Merge { a, b } = input {
                        let other = if *a == first {
                            b
                        } else if *b == first {
                            a
                        } else {
                            continue;
                        };
                        send(
                            &mut out,
                            format!("With {}", list_said(f, *other)),
                            input,
                            false,
                        );
                    }
                }
                back(&mut out);
            }
            Step::Discard => {
                for input in &f.legal {
                    if let Input::DiscardScam { scam, list } = input {
                        let name = f
                            .me()
                            .and_then(|m| f.public.areas.get(usize::from(m)))
                            .and_then(|a| a.scams.get(usize::from(*scam)))
                            .map_or("a Scam", |s| action_name(s.card));
                        let what = if *list { "a List" } else { "an Action" };
                        send(&mut out, format!("Drop {name}, draw {what}"), input, false);
                    }
                }
                back(&mut out);
            }
            Step::None => {
                if let Some(picked) = self.picked {
                    let mine: Vec<&Input> = f
                        .legal
                        .iter()
                        .filter(|i| card_of(i) == Some(picked))
                        .collect();
                    for input in &mine {
                        match input {
                            Input::PlayScam { .. } => {
                                send(&mut out, "Play the Scam".into(), input, true)
                            }
                            Input::PlayHardware { .. } => {
                                send(&mut out, "Play the Hardware".into(), input, true)
                            }
                            _ => {}
                        }
                    }
                    if mine.iter().any(|i| matches!(i, Input::Mail { .. })) {
                        out.push((
                            "Mail with it".into(),
                            Tap::Begin(Step::Mail {
                                card: picked,
                                scam: None,
                            }),
                            true,
                        ));
                    }
                    if mine.iter().any(|i| matches!(i, Input::Special { .. })) {
                        out.push((
                            "Special Effect".into(),
                            Tap::Begin(Step::Special { card: picked }),
                            false,
                        ));
                    }
                    // A full hand with nothing playable: a Scam of it goes for a new card.
                    for input in &mine {
                        if let Input::DiscardHeldScam { .. } = input {
                            send(&mut out, "Drop it, draw an Action".into(), input, true);
                        }
                    }
                }
                let lead = out.iter().any(|(_, _, main)| *main);
                if f.legal.contains(&Input::DrawAction) {
                    send(&mut out, "Draw an Action".into(), &Input::DrawAction, !lead);
                }
                if f.legal.contains(&Input::DrawList) {
                    send(&mut out, "Draw a List".into(), &Input::DrawList, false);
                }
                if f.legal.iter().any(|i| matches!(i, Input::Merge { .. })) {
                    out.push((
                        "Merge two Lists".into(),
                        Tap::Begin(Step::Merge { first: None }),
                        false,
                    ));
                }
                if f.legal
                    .iter()
                    .any(|i| matches!(i, Input::DiscardScam { .. }))
                {
                    out.push(("Discard a Scam".into(), Tap::Begin(Step::Discard), false));
                }
                send(&mut out, "End turn".into(), &Input::EndTurn, false);
            }
        }
        out
    }

    /// What the moment asks, in a tinted box, with a Mailing's die and Target Number.
    pub(super) fn prompt(&self, ui: &mut egui::Ui, f: &Frame) {
        let palette = Palette::of(ui);
        let (text, tint, countdown) = self.prompt_words(f, &palette);
        let mailing = match &f.public.phase {
            Phase::Rolling { mailing, .. } | Phase::Window { mailing, .. } => Some(mailing),
            _ => None,
        };
        egui::Frame::new()
            .fill(tint.gamma_multiply(0.16))
            .stroke(Stroke::new(1.0, tint))
            .corner_radius(10)
            .inner_margin(egui::Margin::symmetric(10, 6))
            .show(ui, |ui| {
                ui.set_width(ui.available_width());
                let roll = mailing
                    .map(|m| (m.roll, true))
                    .or(f.public.last_roll.map(|r| (r, false)));
                let die_w = if roll.is_some() { DIE + 18.0 } else { 0.0 };
                ui.horizontal_top(|ui| {
                    ui.vertical(|ui| {
                        ui.set_width((ui.available_width() - die_w).max(60.0));
                        ui.spacing_mut().item_spacing.y = 2.0;
                        ui.label(
                            RichText::new(text)
                                .size(16.0)
                                .strong()
                                .color(ui.visuals().strong_text_color()),
                        );
                        if let Some(m) = mailing {
                            roll_lines(ui, f, m);
                        }
                        if countdown {
                            self.countdown(ui, f.view.reaction_left_ms);
                        }
                    });
                    if let Some((value, _)) = roll {
                        let rolling = matches!(f.public.phase, Phase::Rolling { .. });
                        self.die(ui, f, value, rolling);
                    }
                });
            });
    }

    fn prompt_words(&self, f: &Frame, palette: &Palette) -> (String, Color32, bool) {
        let mine = |s: Seat| crate::games::is_you(f.view, s);
        let sent = self.sent_at.waiting();
        let muted = |t: String| (t, palette.muted, false);
        let asked = !f.legal.is_empty();
        match &f.public.phase {
            Phase::ShuffleLists | Phase::ShuffleActions => muted("Shuffling the decks...".into()),
            Phase::DealLists { .. } | Phase::DealActions { .. } => {
                muted("Dealing three Lists and six Actions each...".into())
            }
            Phase::Choose if asked => (
                "Choose the List you give to the Unwashed Masses; you keep the other two.".into(),
                palette.accent,
                false,
            ),
            Phase::Choose => muted("Waiting for everyone to choose their Lists...".into()),
            Phase::Masses => muted("More Lists join the Unwashed Masses...".into()),
            Phase::First => muted("Drawing who goes first...".into()),
            Phase::Turn(turn) if mine(turn.seat) && asked => {
                let left = format!("{} of {ACTIONS_PER_TURN} actions left", turn.actions);
                let text = match self.step {
                    Step::Mail { scam: None, .. } => "Mail: for which Scam?".to_string(),
                    Step::Mail { .. } => "Mail: which List? Each shows its Target Number.".into(),
                    Step::Special { .. } => "Special Effect: at what?".into(),
                    Step::Merge { first: None } => "Merge: the first List.".into(),
                    Step::Merge { .. } => "Merge: the List to join it.".into(),
                    Step::Discard => "Discard which Scam for a card?".into(),
                    Step::None if self.picked.is_some() => {
                        format!("Your turn, {left}: what does this card do?")
                    }
                    // The rulebook's rare full hand: say how out of it.
                    Step::None
                        if f.legal
                            .iter()
                            .any(|i| matches!(i, Input::DiscardHeldScam { .. })) =>
                    {
                        format!(
                            "Your turn, {left}: nothing in your full hand can be played. Tap a Scam to drop it and draw an Action."
                        )
                    }
                    Step::None => format!(
                        "Your turn: {left}, {} of {} Mailings used.",
                        turn.mailings, turn.mailings_allowed
                    ),
                };
                (text, palette.accent, false)
            }
            Phase::Turn(turn) if mine(turn.seat) => muted("Your move is in.".into()),
            Phase::Turn(turn) => muted(format!(
                "{}'s turn: {} of {ACTIONS_PER_TURN} actions left.",
                seat_name(f.view, turn.seat),
                turn.actions
            )),
            Phase::DrawAction { turn, .. } => muted(says(
                f,
                turn.seat,
                "draw an Action...",
                "draws an Action...",
            )),
            Phase::DrawList { turn } => {
                muted(says(f, turn.seat, "draw a List...", "draws a List..."))
            }
            Phase::ListDrawn { turn, card } => {
                let about = list_card(*card).map_or("a List".to_string(), |l| {
                    let sp: Vec<&str> = l.specialties.iter().map(|s| specialty_name(*s)).collect();
                    if sp.is_empty() {
                        format!("{} (Size {})", l.name, l.size)
                    } else {
                        format!("{} (Size {}, {})", l.name, l.size, sp.join(", "))
                    }
                });
                if mine(turn.seat) && asked {
                    (
                        format!(
                            "You drew {about}. Keep it for a point of a Scam, or send it to the Masses."
                        ),
                        palette.accent,
                        false,
                    )
                } else {
                    muted(says(
                        f,
                        turn.seat,
                        &format!("drew {about}."),
                        &format!("drew {about}."),
                    ))
                }
            }
            Phase::Rolling { mailing, .. } => {
                muted(format!("{}: rolling...", mailing_words(f, mailing)))
            }
            Phase::Window { mailing, seats, .. } => {
                let what = mailing_words(f, mailing);
                if f.legal.contains(&Input::Pass) {
                    let question = if f.legal.len() > 1 {
                        "Answer it?"
                    } else {
                        "You hold no answer."
                    };
                    (format!("{what}. {question}"), palette.accent, true)
                } else if seats.iter().any(|s| mine(*s)) || sent {
                    muted(format!("{what}. Your answer is in."))
                } else {
                    muted(format!("{what}. Anyone may answer..."))
                }
            }
            Phase::Over(_) => muted("The game is over.".into()),
        }
    }

    /// The seconds left to answer, and a bar that empties with them.
    fn countdown(&self, ui: &mut egui::Ui, left: Option<u64>) {
        if let Some(ms) = left {
            let full = self.window_from.unwrap_or(ms);
            crate::widgets::countdown(ui, ms, full, "Letting it stand...");
        }
    }

    /// The die as it lies, or tumbling while rolling and a moment after it changes.
    fn die(&self, ui: &mut egui::Ui, f: &Frame, value: u8, rolling: bool) {
        let tumbling = (rolling && !f.still) || self.die.moving(f.now);
        let (rect, response) = ui.allocate_exact_size(Vec2::splat(DIE + 6.0), Sense::hover());
        let painter = ui.painter_at(rect);
        let (shown, hop) = if tumbling {
            // A face a tenth of a second, hopping less as it settles.
            let t = (f.now * 10.0) as u64;
            let face = (t.wrapping_mul(2_654_435_761) >> 7) % 6 + 1;
            let left = if rolling {
                1.0
            } else {
                1.0 - self.die.linear(f.now)
            };
            let hop = -(f.now as f32 * 20.0).sin().abs() * 3.0 * left.clamp(0.0, 1.0);
            (face as u8, hop)
        } else {
            (value.clamp(1, 6), 0.0)
        };
        let body = Rect::from_center_size(rect.center() + Vec2::new(0.0, hop), Vec2::splat(DIE));
        painter.rect(
            body,
            6,
            Color32::from_rgb(250, 248, 240),
            Stroke::new(1.0, Color32::from_black_alpha(160)),
            StrokeKind::Inside,
        );
        let q = DIE * 0.26;
        let spots = crate::widgets::die_pips(shown);
        for (x, y) in spots {
            painter.circle_filled(
                body.center() + Vec2::new(x * q, y * q),
                DIE * 0.085,
                Color32::from_rgb(25, 25, 30),
            );
        }
        let label = if rolling {
            "Die: rolling".to_string()
        } else {
            format!("Die: {}", value.clamp(1, 6))
        };
        response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Image, true, &label));
    }

    /// My hand as a strip of small cards that scrolls sideways; a tap picks a card (and
    /// shows it whole), a second tap puts it back.
    fn hand(&mut self, ui: &mut egui::Ui, f: &Frame) {
        let palette = Palette::of(ui);
        let hand = my_hand(f);
        let limit = f
            .me()
            .and_then(|m| f.public.areas.get(usize::from(m)))
            .map_or(9, |a| a.hand_limit());
        ui.label(
            RichText::new(format!(
                "{}: {} of {limit}",
                crate::games::hand_title(f.view),
                hand.len()
            ))
                .size(13.0)
                .color(palette.muted),
        );
        if hand.is_empty() {
            return;
        }
        let mut tapped = None;
        egui::ScrollArea::horizontal()
            .id_salt("spammers-hand")
            .show(ui, |ui| {
                ui.horizontal(|ui| {
                    ui.spacing_mut().item_spacing.x = 6.0;
                    for (h, face) in &hand {
                        let playable = f.legal.iter().any(|i| card_of(i) == Some(*h));
                        if hand_card(ui, *face, self.picked == Some(*h), playable).clicked() {
                            tapped = Some(*h);
                        }
                    }
                });
            });
        if let Some(h) = tapped {
            self.picked = if self.picked == Some(h) {
                None
            } else {
                Some(h)
            };
            self.step = Step::None;
        }
    }
}

/// One card of the hand: its name over its kind; lit when picked, dim when it can do
/// nothing now.
fn hand_card(
    ui: &mut egui::Ui,
    face: Option<CardId>,
    picked: bool,
    playable: bool,
) -> egui::Response {
    let palette = Palette::of(ui);
    let (rect, response) = ui.allocate_exact_size(CARD, Sense::click());
    let name = face.map_or("A card", action_name);
    let kind = face.map_or(String::new(), kind_words);
    let painter = ui.painter_at(rect);
    let fill = if picked { palette.accent } else { palette.card };
    let ink = if playable || picked {
        palette.card_ink
    } else {
        palette.card_ink.gamma_multiply(0.6)
    };
    painter.rect(
        rect.shrink(1.0),
        6,
        fill,
        Stroke::new(1.0, Color32::from_black_alpha(120)),
        StrokeKind::Inside,
    );
    let mut job = egui::text::LayoutJob::simple(
        name.to_string(),
        egui::FontId::proportional(13.0),
        ink,
        rect.width() - 10.0,
    );
    job.wrap.max_rows = 2;
    let galley = painter.layout_job(job);
    painter.galley(rect.left_top() + Vec2::new(5.0, 4.0), galley, ink);
    let mut job = egui::text::LayoutJob::simple_singleline(
        kind,
        egui::FontId::proportional(11.0),
        ink.gamma_multiply(0.8),
    );
    job.wrap = egui::text::TextWrapping::truncate_at_width(rect.width() - 10.0);
    let galley = painter.layout_job(job);
    painter.galley(
        Pos2::new(rect.left() + 5.0, rect.bottom() - 16.0),
        galley,
        ink,
    );
    let label = format!("Card: {name}");
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, &label));
    response
}

/// The picked card read whole: name, kind and modifier, and its text.
fn card_detail(ui: &mut egui::Ui, face: CardId) {
    let palette = Palette::of(ui);
    let Some(card) = action_card(face) else {
        return;
    };
    egui::Frame::new()
        .fill(palette.card)
        .corner_radius(8)
        .inner_margin(egui::Margin::symmetric(10, 6))
        .show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.spacing_mut().item_spacing.y = 2.0;
            ui.label(
                RichText::new(card.name)
                    .size(16.0)
                    .strong()
                    .color(palette.card_ink),
            );
            let kind = match card.kind {
                ActionKind::Scam { category, initial } => format!(
                    "Scam: {}, Initial Rating {initial}",
                    category.map_or("Miscellaneous", specialty_name)
                ),
                ActionKind::Mailing {
                    modifier, timing, ..
                } => format!(
                    "Mailing: modifier {}; Special Effect {}",
                    signed(i32::from(modifier)),
                    match timing {
                        Timing::Action => "on your turn",
                        Timing::AfterRoll => "right after any roll",
                    }
                ),
                ActionKind::Hardware(_) => "Hardware: works while in play".into(),
            };
            ui.label(RichText::new(kind).size(13.0).color(palette.card_ink));
            ui.label(RichText::new(card.text).size(13.0).color(palette.card_ink));
        });
}

/// The three Lists dealt at the start, to choose one for the Masses.
fn dealt_lists(ui: &mut egui::Ui, f: &Frame) {
    let Some(private) = f.private else {
        return;
    };
    for h in &private.dealt_lists {
        let Some(card) = private
            .face(h)
            .and_then(|id| list_card(id).map(|l| (id, l)))
        else {
            continue;
        };
        let stack = Stack {
            cards: vec![card.0],
            specialties: card.1.specialties.to_vec(),
            gruntles: 0,
        };
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 4.0;
            ui.label(
                RichText::new(format!("{} (Size {})", card.1.name, card.1.size))
                    .size(14.0)
                    .strong(),
            );
            super::table::chips(ui, &stack);
        });
    }
}

/// Rows of move buttons sharing the width, as many across as their words allow; returns
/// the one tapped.
fn moves_rows(ui: &mut egui::Ui, moves: &[(String, Tap, bool)]) -> Option<Tap> {
    if moves.is_empty() {
        return None;
    }
    let palette = Palette::of(ui);
    let avail = ui.available_width();
    let longest = moves
        .iter()
        .map(|(w, ..)| w.chars().count())
        .max()
        .unwrap_or(1);
    let min = (longest as f32 * 8.6 + 16.0).clamp(BUTTON_MIN, avail.max(BUTTON_MIN));
    let per_row = (((avail + GAP) / (min + GAP)).floor() as usize).clamp(1, moves.len());
    let mut tapped = None;
    for row in moves.chunks(per_row) {
        let n = per_row as f32;
        let w = ((avail - GAP * (n - 1.0)) / n)
            .min(BUTTON_MAX.max(min))
            .floor();
        let used = w * row.len() as f32 + GAP * (row.len() as f32 - 1.0);
        ui.horizontal(|ui| {
            ui.spacing_mut().item_spacing.x = GAP;
            ui.spacing_mut().button_padding.x = 4.0;
            ui.add_space(((avail - used) / 2.0).max(0.0).floor());
            for (text, tap, primary) in row {
                let mut label = RichText::new(text).size(15.5);
                let mut button = Button::new(label.clone()).truncate();
                if *primary {
                    label = label.strong().color(Color32::from_rgb(30, 24, 10));
                    button = Button::new(label).truncate().fill(palette.accent);
                }
                if ui.add_sized(Vec2::new(w, TOUCH), button).clicked() {
                    tapped = Some(tap.clone());
                }
            }
        });
    }
    tapped
}
