//! A seat's device restarting from a store that lost part of what it wrote: the seat must
//! say again exactly what it said before, never something else.

use crate::common;

use common::highcard::{Config, HighCard};
use common::table::{Device, Table, bot, keys, start_for, stored_bot};
use hoard_net::CoreConfig;
use hoard_net::wire::{Body, Kind, Signed, Wire};
use hoard_rules::{Pending, Seal};

fn cfg() -> CoreConfig<HighCard> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 64,
        sit_out: None,
        memo: None,
        reaction: Default::default(),
    }
}

/// Seat `seat`'s own commitments at step `n` among everything its device sent.
fn commitments(t: &Table, seat: u8, n: u32) -> Vec<Signed> {
    t.signed_from(usize::from(seat))
        .into_iter()
        .filter(|s| s.seat == seat && s.step == n && s.kind() == Kind::Commit)
        .collect()
}

/// Issue 20: damage to the last record of a seat's log was taken for a torn write, so a
/// commitment the seat had already sent was forgotten; restarted, the seat sealed a new
/// play for the same step, and the table held two commitments signed by it: "proof" that
/// it cheated. It now commits again to the same play, byte for byte, from the salt and
/// input it kept in its secrets. That is also why a commitment waits on one fsync, not two:
/// only the salt and input are made durable before it leaves, and the commitment is kept
/// with what the seat heard, which a crash may lose.
#[test]
fn a_lost_commitment_is_signed_again_the_same_not_proof_of_cheating() {
    let dir = std::env::temp_dir().join(format!("hoard-restart-damaged-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let keys = keys(3, 40);
    let start = start_for::<HighCard>(
        &Config {
            seats: 3,
            rounds: 3,
        },
        &keys,
        40,
    );
    let devices: Vec<Box<dyn Device>> = (0..3u8)
        .map(|i| {
            let key = &keys[usize::from(i)];
            if i == 2 {
                stored_bot::<HighCard>(&start, key, i, cfg(), &dir) as Box<dyn Device>
            } else {
                bot::<HighCard>(&start, key, i, cfg())
            }
        })
        .collect();
    let mut t = Table::new(devices, keys, start);
    // Seat 2 holds back until its table waits for a sealed card.
    t.devices[2].set_plays(false);
    let sealed = |t: &Table| {
        matches!(
            t.devices[2].pending(),
            Some(Pending::Together {
                seal: Seal::UntilAll,
                ..
            })
        ) && t.queue.is_empty()
    };
    assert!(t.run_until(100_000, 10, sealed));
    let n = t.devices[2].step();
    t.devices[2].set_plays(true);
    assert!(t.devices[2].act(t.now));
    // The salt and input fsync'd, the commitment on its way to the table.
    t.collect(2);
    let sent = commitments(&t, 2, n);
    assert_eq!(sent.len(), 2, "one to each peer");
    let is_it = |record: &[u8]| {
        matches!(Wire::decode(record), Ok(Wire::Signed(s))
            if s.seat == 2 && s.step == n && matches!(s.body, Body::Commit(_)))
    };
    let (log, _) = hoard_net::store::read_log(&std::fs::read(dir.join("log")).expect("log"))
        .expect("a good log");
    assert!(
        !log.iter().any(|r| is_it(r)),
        "the commitment waited on the durable log"
    );

    // The device dies, and the inbox, never fsync'd, loses the commitment and all after it:
    // its record reads back damaged, and the inbox is read up to there.
    let inbox = dir.join("inbox");
    let mut bytes = std::fs::read(&inbox).expect("inbox");
    let mut at = hoard_net::store::INBOX_MAGIC.len();
    loop {
        let len = u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")) as usize;
        if is_it(&bytes[at + 8..at + 8 + len]) {
            bytes[at + 8] ^= 0x40;
            break;
        }
        at += 8 + len;
        assert!(at < bytes.len(), "the commitment is kept in the inbox");
    }
    std::fs::write(&inbox, &bytes).expect("write");

    t.devices[2].restart(t.now).expect("restarts");
    // Its bot is asked at once, before any peer could send the commitment back to it.
    let chose_again = t.devices[2].act(t.now);
    t.collect(2);
    let ended = t.finish();
    for (i, d) in t.devices.iter().enumerate() {
        assert!(d.halted().is_none(), "device {i} halted: {:?}", d.halted());
    }
    assert!(ended, "the game ends");
    assert!(!chose_again, "it sealed another play for step {n}");
    for (i, d) in t.devices.iter().enumerate() {
        assert!(
            d.verdict().is_some_and(|v| v.is_verified()),
            "device {i}: {:?}",
            d.verdict()
        );
    }
    // Every commitment seat 2 ever sent for that step is the first one.
    let again = commitments(&t, 2, n);
    assert!(
        again.len() > sent.len(),
        "it committed again after the restart"
    );
    assert!(again.iter().all(|s| *s == sent[0]), "{again:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
