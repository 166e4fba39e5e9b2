//! Every decoder that reads bytes from the network or the disk, fed random bytes and
//! mutations of real messages and files: it may refuse them, it must never panic. Over
//! 100,000 inputs in all (the case counts below), plus a live core taking mutated messages.

mod common;

use common::highcard::{self, Config, HighCard};
use common::table::{Table, bot, keys, start_for};
use hoard_net::store::{self, SeatStore};
use hoard_net::wire::Wire;
use hoard_net::{CoreConfig, Persist, SecretRecord};
use proptest::prelude::*;
use std::sync::OnceLock;

/// Real messages of every kind, from a whole game of high card.
fn corpus() -> &'static (Vec<Vec<u8>>, hoard_net::Start) {
    static CORPUS: OnceLock<(Vec<Vec<u8>>, hoard_net::Start)> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let keys = keys(3, 40);
        let config = Config {
            seats: 3,
            rounds: 3,
        };
        let start = start_for::<HighCard>(&config, &keys, 40);
        let cfg = CoreConfig {
            sit_out: Some(highcard::sit_out),
            chain_len: 64,
            ..CoreConfig::default()
        };
        let devices: Vec<Box<dyn common::table::Device>> = (0..3)
            .map(|i| {
                bot::<HighCard>(&start, &keys[i], i as u8, cfg.clone())
                    as Box<dyn common::table::Device>
            })
            .collect();
        let mut t = Table::new(devices, keys, start.clone());
        assert!(t.finish());
        let mut seen = std::collections::BTreeSet::new();
        let msgs: Vec<Vec<u8>> = t
            .sent
            .iter()
            .map(|(_, tx)| tx.bytes.clone())
            .filter(|b| seen.insert(b.clone()))
            .collect();
        (msgs, start)
    })
}

/// A store's three files, with records of every kind.
fn files() -> &'static (Vec<u8>, Vec<u8>, Vec<u8>) {
    static FILES: OnceLock<(Vec<u8>, Vec<u8>, Vec<u8>)> = OnceLock::new();
    FILES.get_or_init(|| {
        let (msgs, start) = corpus();
        let dir = std::env::temp_dir().join(format!("hoard-decoders-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let mut s = SeatStore::create(&dir, start).unwrap();
        for m in msgs.iter().take(40) {
            s.persist(&Persist::Message(m.clone())).unwrap();
        }
        s.persist(&Persist::Secret(SecretRecord::Keys {
            secret: [1; 32],
            chain_seed: [2; 32],
            chain_len: 64,
        }))
        .unwrap();
        s.persist(&Persist::Secret(SecretRecord::Sealed {
            step: 3,
            log: [4; 32],
            salt: [5; 32],
            input: vec![0, 7],
        }))
        .unwrap();
        s.flush().unwrap();
        let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
        let out = (read("start"), read("log"), read("secrets"));
        let _ = std::fs::remove_dir_all(&dir);
        out
    })
}

/// Applies byte edits, then maybe cuts or extends.
fn mutate(mut bytes: Vec<u8>, edits: &[(usize, u8)], cut: Option<usize>, extra: &[u8]) -> Vec<u8> {
    for (at, b) in edits {
        if !bytes.is_empty() {
            let i = at % bytes.len();
            bytes[i] ^= b | 1;
        }
    }
    if let Some(c) = cut {
        bytes.truncate(c % (bytes.len() + 1));
    }
    bytes.extend_from_slice(extra);
    bytes
}

fn edits() -> impl Strategy<Value = Vec<(usize, u8)>> {
    prop::collection::vec((any::<usize>(), any::<u8>()), 0..6)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 30_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn wire_decoder_survives_random_bytes(bytes in prop::collection::vec(any::<u8>(), 0..600)) {
        let _ = Wire::decode(&bytes);
    }

    #[test]
    fn wire_decoder_survives_mutated_messages(
        pick in any::<usize>(), e in edits(), cut in prop::option::of(any::<usize>()),
        extra in prop::collection::vec(any::<u8>(), 0..4),
    ) {
        let (msgs, _) = corpus();
        let bytes = mutate(msgs[pick % msgs.len()].clone(), &e, cut, &extra);
        if let Ok(w) = Wire::decode(&bytes) {
            // Whatever decodes re-encodes.
            prop_assert!(!w.encode().is_empty());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 15_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn store_readers_survive_mutated_files(
        which in 0..3usize, e in edits(), cut in prop::option::of(any::<usize>()),
        extra in prop::collection::vec(any::<u8>(), 0..40),
    ) {
        let (start, log, secrets) = files();
        match which {
            0 => { let _ = store::read_start(&mutate(start.clone(), &e, cut, &extra)); }
            1 => {
                let bytes = mutate(log.clone(), &e, cut, &extra);
                let _ = store::read_log(&bytes);
                // The same records as an inbox, which reads up to the first bad one.
                let mut inbox = bytes;
                let n = inbox.len().min(store::INBOX_MAGIC.len());
                inbox[..n].copy_from_slice(&store::INBOX_MAGIC[..n]);
                if let Ok((records, _)) = store::read_inbox(&inbox) {
                    prop_assert!(records.len() <= 40 + extra.len());
                }
            }
            _ => { let _ = store::read_secrets(&mutate(secrets.clone(), &e, cut, &extra)); }
        }
    }

    #[test]
    fn store_readers_survive_random_files(
        magic in 0..5usize, body in prop::collection::vec(any::<u8>(), 0..300),
    ) {
        // Behind a real header, so the record parser (not just the magic check) is reached.
        let mut bytes = match magic {
            0 => store::START_MAGIC.to_vec(),
            1 => store::LOG_MAGIC.to_vec(),
            2 => store::SECRETS_MAGIC.to_vec(),
            3 => store::INBOX_MAGIC.to_vec(),
            _ => Vec::new(),
        };
        bytes.extend_from_slice(&body);
        let _ = store::read_start(&bytes);
        let _ = store::read_log(&bytes);
        let _ = store::read_inbox(&bytes);
        let _ = store::read_secrets(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// A live core mid-game takes mutated versions of real messages from a seated peer:
    /// refusals are fine, panics are not, and the table still finishes verified.
    #[test]
    fn a_core_survives_mutated_messages(
        pick in any::<usize>(), e in edits(), cut in prop::option::of(any::<usize>()),
    ) {
        let (msgs, _) = corpus();
        let bytes = mutate(msgs[pick % msgs.len()].clone(), &e, cut, &[]);
        with_live_core(|t| {
            let from = t.devices[2].key();
            let _ = t.inject(0, from, &bytes);
        });
    }
}

thread_local! {
    /// A three-seat table a few steps into a game, kept across cases: whatever a mutated
    /// message does to it, the next one must be taken without panicking too.
    static LIVE: std::cell::RefCell<Option<Table>> = const { std::cell::RefCell::new(None) };
}

fn with_live_core(f: impl FnOnce(&mut Table)) {
    LIVE.with(|live| {
        let mut live = live.borrow_mut();
        let t = live.get_or_insert_with(|| {
            let (_, start) = corpus();
            let keys = keys(3, 40);
            let cfg = CoreConfig {
                sit_out: Some(highcard::sit_out),
                chain_len: 64,
                ..CoreConfig::default()
            };
            let devices: Vec<Box<dyn common::table::Device>> = (0..3)
                .map(|i| {
                    bot::<HighCard>(start, &keys[i], i as u8, cfg.clone())
                        as Box<dyn common::table::Device>
                })
                .collect();
            let mut t = Table::new(devices, keys, start.clone());
            t.run_until(10_000, 10, |t| {
                t.devices[0].step() >= 2 && t.queue.is_empty()
            });
            // Nothing the core answers is delivered: only its intake is under test.
            t
        });
        f(t);
        t.queue.clear();
    });
}
