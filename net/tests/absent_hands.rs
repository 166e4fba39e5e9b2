//! A seat removed while the table waits on its hidden hand (issue: "a Freeloader trade and a
//! SPAMMERS opening choice asked of a seat then removed: each game goes on and ends
//! verified"). The rules' own move for a removed seat says what the table does without the
//! hand: a removed player gives nothing from a hidden hand, and its Lists leave the game
//! unseen (`Game::sit_out`); no card of that hand is ever needed again.

use crate::common;

use common::table::{Device, Table, bot, keys, start_for};
use hoard_net::log::{PlayRecord, StepRecord};
use hoard_net::{CoreConfig, Verdict, VoteAction};
use hoard_rules::freeloader::Freeloader;
use hoard_rules::spammers::Spammers;
use hoard_rules::{Game, Listed, Pending, Seat};

fn cfg<G: Game>() -> CoreConfig<G> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 512,
        sit_out: Some(G::sit_out),
        memo: None,
        reaction: Default::default(),
    }
}

fn table<G: Listed>(seats: u8, nonce: u8) -> Table {
    let keys = keys(seats, nonce);
    let start = start_for::<G>(&G::config(seats), &keys, nonce);
    let devices: Vec<Box<dyn Device>> = (0..seats as usize)
        .map(|i| bot::<G>(&start, &keys[i], i as u8, cfg::<G>()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

/// Seat `gone` loses power; every other device sees it away and chooses to remove it.
fn remove(t: &mut Table, gone: Seat) {
    let here: Vec<usize> = (0..t.devices.len())
        .filter(|i| *i != gone as usize)
        .collect();
    t.devices[gone as usize].set_down(true);
    assert!(t.run_until(400_000, 100, |t| {
        here.iter().all(|&i| t.devices[i].is_away(gone))
    }));
    for &i in &here {
        t.devices[i]
            .go_on_without(t.now, gone, VoteAction::Remove)
            .unwrap();
    }
}

/// Every device but `gone` ends the game verified on the same log, in which `gone` was
/// removed at a step that asked it for a move; returns that step.
fn ends_verified_without(t: &mut Table, gone: Seat) -> usize {
    let here: Vec<usize> = (0..t.devices.len())
        .filter(|i| *i != gone as usize)
        .collect();
    let done = t.run_until(6_000_000, 100, |t| {
        here.iter().all(|&i| t.devices[i].verdict().is_some())
    });
    assert!(
        done,
        "stuck: {}",
        here.iter()
            .map(|&i| t.devices[i].describe())
            .collect::<Vec<_>>()
            .join("; ")
    );
    let records = t.devices[here[0]].records();
    for &i in &here {
        assert!(
            matches!(t.devices[i].verdict(), Some(Verdict::Verified { .. })),
            "{:?}",
            t.devices[i].verdict()
        );
        assert_eq!(t.devices[i].records(), records);
    }
    records
        .iter()
        .position(|r| {
            matches!(r, StepRecord::Inputs { plays, .. }
                if plays.contains(&(gone, PlayRecord::Removed)))
        })
        .expect("the removed seat sat out a step that asked it for a move")
}

/// "If you trade hand to hand, choose a player. That player chooses a card from his hand and
/// puts it in yours." The player chosen loses power before choosing and is removed: the
/// trade goes on (a hidden hand gives nothing once its player has left), and so does the game.
#[test]
fn a_freeloader_trade_asked_of_a_seat_then_removed_goes_on_and_ends_verified() {
    let mut t = table::<Freeloader>(3, 61);
    // Stop where a hand-to-hand trade waits on the player asked.
    let asked = |t: &Table| -> Option<Seat> {
        let d = &t.devices[0];
        let traded = d.public_debug().contains("phase: TradeGive { seat: ")
            && d.public_debug().contains("kind: Hand }");
        match d.pending() {
            Some(Pending::Turn { seat }) if traded => Some(seat),
            _ => None,
        }
    };
    assert!(
        t.run_until(4_000_000, 10, |t| asked(t).is_some()),
        "no hand-to-hand trade in this game: {}",
        t.devices[0].describe()
    );
    let with = asked(&t).expect("a trade waits");
    let trade = t.devices[0].step() as usize;
    // Everyone else stops here until the player asked is gone.
    remove(&mut t, with);
    let at = ends_verified_without(&mut t, with);
    assert_eq!(at, trade, "the removed seat sat out the trade asked of it");
}

/// "Each player is dealt three Lists ... chooses one to send to the Unwashed Masses" (the
/// opening choice, sealed until all have chosen). A player gone during the deal is removed:
/// its deal is finished from its escrowed key, its Lists leave the game with it unseen, and
/// the game goes on to a verified end.
#[test]
fn a_spammers_opening_choice_of_a_removed_seat_leaves_its_lists_unseen_and_ends_verified() {
    let mut t = table::<Spammers>(3, 67);
    assert!(t.run_until(400_000, 10, |t| {
        matches!(t.devices[0].pending(), Some(Pending::Deal { .. }))
    }));
    remove(&mut t, 1);
    // The choice of Lists comes with seat 1 removed, and the others choose.
    let at = ends_verified_without(&mut t, 1);
    let records = t.devices[0].records();
    assert!(matches!(&records[at], StepRecord::Inputs { plays, .. } if plays.len() == 3));
}
