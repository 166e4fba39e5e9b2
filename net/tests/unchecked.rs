//! What the audit could not check of a seat removed before it revealed its secret, read from
//! the log of a real game (issue 29): the end screen names each part, so "verified" never
//! claims more than was checked.

use crate::common;

use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::audit::{Unchecked, UncheckedSeat, unchecked_parts, unchecked_words};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::{Absence, CoreConfig, Verdict, VoteAction};
use hoard_rules::counter::{self as ctr, Counter};
use hoard_rules::{Game, Pending, Play, Seat, Step};

const CAT: Seat = 2;

fn cfg() -> CoreConfig<Counter> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 256,
        sit_out: Some(<Counter as Game>::sit_out),
        memo: None,
        reaction: Default::default(),
    }
}

/// The public table before every step of `records`, as every device replayed it (what
/// `Core::public_history` gives a session).
fn history(config: &ctr::Config, records: &[StepRecord]) -> Vec<ctr::Public> {
    let mut public = Counter::setup(config).expect("set up");
    let mut out = vec![public.clone()];
    for record in records {
        let step = match record {
            StepRecord::Ended { .. } => break,
            StepRecord::Chance { draw, .. } => Step::Chance(*draw),
            StepRecord::Deck { faces, .. } => match Counter::pending(&public) {
                Pending::Shuffle { .. } => Step::Shuffled,
                Pending::Deal { .. } => Step::Dealt,
                _ => Step::Revealed(faces.clone()),
            },
            StepRecord::Inputs { plays, .. } => Step::Inputs(
                plays
                    .iter()
                    .map(|(seat, p)| {
                        let play = match p {
                            PlayRecord::Open(b) | PlayRecord::Opened { input: b, .. } => {
                                Play::Open(postcard::from_bytes(b).expect("an input"))
                            }
                            PlayRecord::Closed { .. } => Play::Closed,
                            PlayRecord::SatOut | PlayRecord::Removed => {
                                let absence = Absence::of(p).expect("an absence");
                                Counter::sit_out(&public, *seat, absence)
                                    .map_or(Play::Closed, Play::Open)
                            }
                        };
                        (*seat, play)
                    })
                    .collect(),
            ),
        };
        Counter::apply(&mut public, &mut [], &step).expect("the log replays");
        out.push(public.clone());
    }
    out
}

/// Counter: "the deck is shuffled so that nobody knows its order. Each player is dealt 3
/// cards." Cat shuffled, was dealt, and lost power at her turn; the table removed her and
/// played on. Her hand is named as unchecked (her shuffle is not: it was proven when it
/// arrived), and so is every answer she sealed and never opened; the words name her.
#[test]
fn a_seat_removed_mid_game_is_named_for_its_hand_and_its_sealed_answers() {
    let keys = keys(3, 57);
    let mut config = ctr::Config::new(3);
    config.turns = 30;
    let start = start_for::<Counter>(&config, &keys, 57);
    let devices: Vec<Box<dyn Device>> = (0..3)
        .map(|i| bot::<Counter>(&start, &keys[i], i as u8, cfg()) as Box<dyn Device>)
        .collect();
    let mut t = Table::new(devices, keys, start.clone());
    assert!(t.run_until(400_000, 10, |t| {
        t.devices[0].pending() == Some(Pending::Turn { seat: CAT })
            && t.devices.iter().all(|d| d.step() == t.devices[0].step())
    }));
    t.devices[CAT as usize].set_down(true);
    assert!(t.run_until(200_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.is_away(CAT))
    }));
    for i in 0..2 {
        t.devices[i]
            .go_on_without(t.now, CAT, VoteAction::Remove)
            .unwrap();
    }
    assert!(t.run_until(4_000_000, 100, |t| {
        t.devices[..2].iter().all(|d| d.verdict().is_some())
    }));
    assert_eq!(
        t.devices[0].verdict(),
        Some(Verdict::Verified {
            unchecked: vec![CAT]
        })
    );

    let records = t.devices[0].records();
    let parts = unchecked_parts::<Counter>(&config, &records, &history(&config, &records), CAT);
    let sealed: Vec<u32> = records
        .iter()
        .enumerate()
        .filter(|(_, r)| {
            matches!(r, StepRecord::Inputs { plays, .. }
                if plays.iter().any(|(s, p)| *s == CAT && matches!(p, PlayRecord::Closed { .. })))
        })
        .map(|(n, _)| n as u32)
        .collect();
    assert_eq!(
        parts.iter().find(|p| matches!(p, Unchecked::Sealed { .. })),
        (!sealed.is_empty())
            .then_some(Unchecked::Sealed { steps: sealed })
            .as_ref(),
        "every answer Cat sealed and never opened is named: {parts:?}"
    );
    // Cat's part in the first shuffle is not named: it was proven when it arrived.
    assert!(
        parts
            .iter()
            .any(|p| matches!(p, Unchecked::Held { cards } if *cards >= 3)),
        "the hand Cat was dealt is named: {parts:?}"
    );
    assert!(
        !parts.contains(&Unchecked::OwnDeck),
        "Counter has no own decks"
    );

    let words = unchecked_words(&[UncheckedSeat { seat: CAT, parts }], &|s| start.name(s));
    assert!(words.starts_with("Cat's "), "{words}");
    assert!(
        words.ends_with("which Cat never revealed: Cat left the game before the end"),
        "{words}"
    );
}
