//! What Hoard's fuzz targets share: one function per decoder of outside bytes, doing with
//! the decoded value what a device does with it (as `net/tests/decoders.rs` does), and the
//! builders of the real encodings the checked-in seed corpus is made of.
//!
//! Every decoder may refuse its input; none may panic, allocate without bound or hang.

#![allow(clippy::type_complexity)]

/// The fixtures of hoard-net's own integration tests (a deterministic table of cores with
/// bots, the high-card test game), used as they are.
#[path = "../../net/tests/common/mod.rs"]
pub mod common;

use common::table::Table;
use hoard_net::device::{Envelope, LobbyEntry, Profile, Roster};
use hoard_net::handle::GameSetup;
use hoard_net::storage::{Folder, MemStorage};
use hoard_net::store::{self, SeatStore};
use hoard_net::transport::table::TableInfo;
use hoard_net::transport::{PROTOCOL_VERSION, TableId, ticket};
use hoard_net::watch::{Feed, FeedAudit, FeedSeat, Watcher};
use hoard_net::wire::{Body, Wire};
use hoard_net::{Persist, SecretKey, SecretRecord, Start};
use hoard_rules::greedquest::{self, GreedQuest};
use hoard_rules::sprawl::{self, Sprawl};
use hoard_rules::{Game, Play, Step};
use std::cell::RefCell;
use std::sync::{Arc, OnceLock};

/// Every fuzz target, by name (the file `fuzz_targets/<name>.rs`, the folder
/// `corpus/<name>/`).
pub const TARGETS: [&str; 15] = [
    "device_frame",
    "session_meta",
    "table_card",
    "join_ticket",
    "bots_file",
    "profile",
    "greedquest_input",
    "sprawl_input",
    "protocol_message",
    "start_file",
    "log_file",
    "inbox_file",
    "secrets_file",
    "screen_feed",
    "core_message",
];

// ----- decoders -------------------------------------------------------------------------

use common::decode::{addr_of, game_input, meta_for};
pub use common::decode::{bots_file, device_frame, join_ticket, profile, session_meta, table_card};

pub fn greedquest_input(bytes: &[u8]) {
    game_input::<GreedQuest>(bytes, &greedquest_game().0);
}

pub fn sprawl_input(bytes: &[u8]) {
    game_input::<Sprawl>(bytes, &sprawl_game().0);
}

/// One protocol message from a peer.
pub fn protocol_message(bytes: &[u8]) {
    let _ = Wire::decode(bytes);
}

pub fn start_file(bytes: &[u8]) {
    let _ = store::read_start(bytes);
}

pub fn log_file(bytes: &[u8]) {
    let _ = store::read_log(bytes);
}

pub fn inbox_file(bytes: &[u8]) {
    let _ = store::read_inbox(bytes);
}

pub fn secrets_file(bytes: &[u8]) {
    let _ = store::read_secrets(bytes);
}

/// A screen's feed: the frames a seated device sends one screen, one after another, each
/// taken by the same watcher (so a later frame meets the game an earlier one opened).
pub fn screen_feed(bytes: &[u8]) {
    let mut watcher = Watcher::default();
    let mut rest = bytes;
    // Every feed takes at least one byte (its variant), so this ends.
    while let Ok((feed, after)) = postcard::take_from_bytes::<Feed>(rest) {
        let _ = watcher.take(feed);
        rest = after;
    }
}

/// How many messages one live table takes before a fresh one replaces it: whatever a
/// message did to the table, the next one must be taken without panicking too, but the
/// table must not drift for millions of inputs (nor keep growing its records).
const LIVE_FOR: u32 = 10_000;

thread_local! {
    /// A three-seat high-card table a few steps into a game, and how many inputs it took.
    static LIVE: RefCell<Option<(Table, u32)>> = const { RefCell::new(None) };
}

/// A three-seat high-card table with bots, started as `decoders.rs` starts it.
fn table_at_step_two() -> Table {
    let mut t = common::decode::high_card_table();
    t.run_until(10_000, 10, |t| {
        t.devices[0].step() >= 2 && t.queue.is_empty()
    });
    t
}

/// A live core mid-game takes a message from a seated peer (seat 2): refusals are fine,
/// panics are not. Nothing the core answers is delivered: only its intake is under test.
pub fn core_message(bytes: &[u8]) {
    LIVE.with(|live| {
        let mut live = live.borrow_mut();
        if live.as_ref().is_none_or(|(_, n)| *n >= LIVE_FOR) {
            *live = Some((table_at_step_two(), 0));
        }
        let Some((t, n)) = live.as_mut() else {
            return;
        };
        *n += 1;
        let from = t.devices[2].key();
        let _ = t.inject(0, from, bytes);
        t.queue.clear();
        t.sent.clear();
        t.refused.clear();
    });
}

/// What every target does before its first input. Run with `HOARD_FUZZ_SEEDS` set to a
/// folder, it writes its seed corpus there (`seed-NN`, replacing any old seeds), runs each
/// seed through its decoder once, and exits (see `seeds.sh`). Otherwise it builds what the
/// decoder needs (a game mid-way, a live table), so that no input pays for it.
pub fn init(target: &str) {
    if let Some(dir) = std::env::var_os("HOARD_FUZZ_SEEDS") {
        write_seeds(target, std::path::Path::new(&dir));
        std::process::exit(0);
    }
    decoder(target)(&[]);
}

fn write_seeds(target: &str, dir: &std::path::Path) {
    use std::fs;
    fs::create_dir_all(dir).expect("make the corpus folder");
    for old in fs::read_dir(dir).expect("list the corpus folder") {
        let old = old.expect("list the corpus folder").path();
        if old
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("seed-"))
        {
            fs::remove_file(&old).expect("remove an old seed");
        }
    }
    let decode = decoder(target);
    let seeds = seeds(target);
    let mut bytes = 0;
    for (i, seed) in seeds.iter().enumerate() {
        fs::write(dir.join(format!("seed-{i:02}")), seed).expect("write a seed");
        decode(seed);
        bytes += seed.len();
    }
    println!("{target}: {} seeds, {bytes} bytes", seeds.len());
}

/// The decoder a target feeds.
pub fn decoder(target: &str) -> fn(&[u8]) {
    match target {
        "device_frame" => device_frame,
        "session_meta" => session_meta,
        "table_card" => table_card,
        "join_ticket" => join_ticket,
        "bots_file" => bots_file,
        "profile" => profile,
        "greedquest_input" => greedquest_input,
        "sprawl_input" => sprawl_input,
        "protocol_message" => protocol_message,
        "start_file" => start_file,
        "log_file" => log_file,
        "inbox_file" => inbox_file,
        "secrets_file" => secrets_file,
        "screen_feed" => screen_feed,
        "core_message" => core_message,
        _ => panic!("no fuzz target {target}"),
    }
}

// ----- real encodings, for the seed corpus ----------------------------------------------

/// The most seeds a target's corpus holds.
pub const MAX_SEEDS: usize = 50;

/// Real messages of every kind, from a whole game of high card, and its start.
pub fn messages() -> &'static (Vec<Vec<u8>>, Start) {
    static CORPUS: OnceLock<(Vec<Vec<u8>>, Start)> = OnceLock::new();
    CORPUS.get_or_init(|| {
        let mut t = common::decode::high_card_table();
        let start = t.start.clone();
        assert!(t.finish(), "the high-card game finishes");
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

/// At most `n` of the game's messages, every kind of message among them: taken in turn
/// from each kind (a signed message's body, a link, a hello, a holding, an opening) in the order sent.
pub fn some_messages(n: usize) -> Vec<Vec<u8>> {
    let mut kinds: std::collections::BTreeMap<String, Vec<Vec<u8>>> = Default::default();
    for m in &messages().0 {
        let kind = match Wire::decode(m) {
            Ok(Wire::Signed(s)) => match &s.body {
                Body::Input(_) => "input".to_string(),
                other => format!("{other:?}")
                    .chars()
                    .take_while(char::is_ascii_alphanumeric)
                    .collect(),
            },
            Ok(Wire::Link(_)) => "link".into(),
            Ok(Wire::Hello(_)) => "hello".into(),
            Ok(Wire::Holding(_)) => "holding".into(),
            Ok(Wire::Open(_)) => "opening".into(),
            Err(_) => "undecodable".into(),
        };
        kinds.entry(kind).or_default().push(m.clone());
    }
    let mut out = Vec::new();
    for i in 0.. {
        let before = out.len();
        for list in kinds.values() {
            if let Some(m) = list.get(i)
                && out.len() < n
            {
                out.push(m.clone());
            }
        }
        if out.len() == before || out.len() >= n {
            break;
        }
    }
    out
}

/// A store's three files, with records of every kind.
pub fn files() -> &'static (Vec<u8>, Vec<u8>, Vec<u8>) {
    static FILES: OnceLock<(Vec<u8>, Vec<u8>, Vec<u8>)> = OnceLock::new();
    FILES.get_or_init(|| {
        let (msgs, start) = messages();
        let dir = Folder::root(Arc::new(MemStorage::new())).join("seat-0");
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
        let read = |f: &str| dir.read(f).unwrap();
        (read("start"), read("log"), read("secrets"))
    })
}

/// A few dozen steps of a bot game: the table then, every input played on the way, and
/// every step.
fn played<G: Game>(config: &G::Config, seats: usize) -> (G::Public, Vec<Vec<u8>>, Vec<Vec<u8>>) {
    let secrets: Vec<[u8; 32]> = (1..=seats as u8).map(|i| [i; 32]).collect();
    let game =
        hoard_rules::play::play_out::<G>(config, &secrets, &[9; 32], 60).expect("a bot game");
    let mut inputs = std::collections::BTreeSet::new();
    for step in &game.steps {
        if let Step::Inputs(plays) = step {
            for (_, play) in plays {
                if let Play::Open(input) = play {
                    inputs.insert(postcard::to_stdvec(input).expect("encode"));
                }
            }
        }
    }
    let steps = game
        .steps
        .iter()
        .map(|s| postcard::to_stdvec(s).expect("encode"))
        .collect();
    (game.public, inputs.into_iter().collect(), steps)
}

/// The four-seat GreedQuest table the inputs are checked against, and the inputs played.
fn greedquest_game() -> &'static (<GreedQuest as Game>::Public, Vec<Vec<u8>>) {
    static GAME: OnceLock<(<GreedQuest as Game>::Public, Vec<Vec<u8>>)> = OnceLock::new();
    GAME.get_or_init(|| {
        let (public, inputs, _) = played::<GreedQuest>(&greedquest::Config::new(4), 4);
        (public, inputs)
    })
}

fn sprawl_game() -> &'static (<Sprawl as Game>::Public, Vec<Vec<u8>>) {
    static GAME: OnceLock<(<Sprawl as Game>::Public, Vec<Vec<u8>>)> = OnceLock::new();
    GAME.get_or_init(|| {
        let (public, inputs, _) = played::<Sprawl>(&sprawl::Config::new(4), 4);
        (public, inputs)
    })
}

fn feed_seat(name: &str) -> FeedSeat {
    FeedSeat {
        name: name.into(),
        colour: [1, 2, 3],
        bot: false,
        connected: true,
        committed: false,
        away: false,
    }
}

/// Feeds a screen takes: the lobby, GreedQuest's first steps as `decoders.rs` sends them,
/// and a three-seat GreedQuest game's real steps in two frames (from step 0, then on).
fn feeds() -> Vec<Vec<Feed>> {
    let gq = meta_for::<GreedQuest>(&greedquest::Config::new(3), 3);
    let seats = vec![feed_seat("Ann"), feed_seat("Ben"), feed_seat("Cat")];
    let first: Vec<serde_bytes::ByteBuf> = [
        Step::<greedquest::Input>::Shuffled,
        Step::Dealt,
        Step::Chance([7; 32]),
    ]
    .iter()
    .map(|s| postcard::to_stdvec(s).expect("encode").into())
    .collect();
    let (_, _, steps) = played::<GreedQuest>(&greedquest::Config::new(3), 3);
    let steps: Vec<serde_bytes::ByteBuf> = steps.into_iter().map(Into::into).collect();
    let cut = steps.len().min(12);
    let game = |from: usize, steps: &[serde_bytes::ByteBuf], audit| Feed::Game {
        start: gq.start.clone(),
        seats: seats.clone(),
        from: from as u32,
        steps: steps.to_vec(),
        audit,
    };
    vec![
        vec![Feed::Lobby {
            table: "The cellar".into(),
            game: "GreedQuest".into(),
            seats: vec![feed_seat("Mia")],
        }],
        vec![game(
            0,
            &first,
            Some(FeedAudit::Fault {
                what: "a step".into(),
            }),
        )],
        vec![
            game(0, &steps[..cut], None),
            game(cut, &steps[cut..], Some(FeedAudit::Verified)),
        ],
    ]
}

/// Every kind of device frame.
fn frames() -> Vec<Vec<u8>> {
    let msgs = some_messages(3);
    let gq = meta_for::<GreedQuest>(&greedquest::Config::new(3), 3);
    let key = SecretKey::from_bytes(&[8; 32]);
    let lobby = Roster {
        name: "The cellar".into(),
        setup: GameSetup::Sprawl(sprawl::Config::new(3)),
        seats: gq
            .seats
            .iter()
            .zip(&gq.start.seats)
            .map(|(s, spec)| LobbyEntry {
                key: spec.key,
                device: s.device,
                addr: s.addr.clone(),
                name: spec.name.clone(),
                colour: s.colour,
                bot: s.bot,
                ready: true,
                connected: true,
            })
            .collect(),
        screens: vec!["The big TV".into()],
    };
    let mut frames = vec![
        Envelope::Join {
            version: PROTOCOL_VERSION,
            name: "Mia \u{1F409}".into(),
            colour: [1, 2, 3],
            addr: addr_of(&key, 1),
        },
        Envelope::Ready { ready: true },
        Envelope::Leave,
        Envelope::Lobby(lobby),
        Envelope::Refused {
            why: "The table is full".into(),
        },
        Envelope::Closed,
        Envelope::Begin(gq.clone()),
        Envelope::Watch {
            version: PROTOCOL_VERSION,
            name: "The big TV".into(),
        },
        Envelope::Core {
            session: gq.session(),
            from: 1,
            to: 2,
            messages: msgs.into_iter().map(Into::into).collect(),
        },
    ];
    frames.extend(feeds().into_iter().flatten().map(Envelope::Screen));
    frames
        .iter()
        .map(|f| postcard::to_stdvec(f).expect("encode"))
        .collect()
}

/// The seeds of `target`'s corpus: real encodings of what its decoder reads, and for the
/// decoders whose input starts with a fixed header, the header alone.
pub fn seeds(target: &str) -> Vec<Vec<u8>> {
    let mut seeds = match target {
        "device_frame" => frames(),
        "session_meta" => vec![
            postcard::to_stdvec(&meta_for::<GreedQuest>(&greedquest::Config::new(2), 2)).unwrap(),
            postcard::to_stdvec(&meta_for::<Sprawl>(&sprawl::Config::new(3), 3)).unwrap(),
        ],
        "table_card" => {
            let card = TableInfo {
                id: TableId(SecretKey::from_bytes(&[5; 32]).public()),
                name: "Friday \u{1F409} night".into(),
                host_name: "Mia".into(),
                game: "greedquest".into(),
                seats_taken: 2,
                seats_total: 6,
                version: PROTOCOL_VERSION,
            };
            let card = AsRef::<str>::as_ref(&card.to_user_data())
                .as_bytes()
                .to_vec();
            vec![card, b"hoard1|".to_vec()]
        }
        "join_ticket" => vec![
            ticket::encode(&addr_of(&SecretKey::from_bytes(&[6; 32]), 0)).into_bytes(),
            b"endpoint".to_vec(),
        ],
        // Each key read is a scalar multiplication: one or two keep the cases quick.
        "bots_file" => (1..=2u8)
            .map(|n| postcard::to_stdvec(&(0..n).map(|i| [i + 1; 32]).collect::<Vec<_>>()).unwrap())
            .collect(),
        "profile" => vec![
            postcard::to_stdvec(&Profile {
                name: "Mia".into(),
                colour: [200, 30, 30],
            })
            .unwrap(),
        ],
        "greedquest_input" => greedquest_game().1.clone(),
        "sprawl_input" => sprawl_game().1.clone(),
        "protocol_message" | "core_message" => some_messages(MAX_SEEDS),
        "start_file" => vec![files().0.clone(), store::START_MAGIC.to_vec()],
        "log_file" => vec![files().1.clone(), store::LOG_MAGIC.to_vec()],
        "inbox_file" => {
            let mut inbox = files().1.clone();
            inbox[..store::INBOX_MAGIC.len()].copy_from_slice(store::INBOX_MAGIC);
            vec![inbox, store::INBOX_MAGIC.to_vec()]
        }
        "secrets_file" => vec![files().2.clone(), store::SECRETS_MAGIC.to_vec()],
        "screen_feed" => feeds()
            .iter()
            .map(|frames| {
                frames
                    .iter()
                    .flat_map(|f| postcard::to_stdvec(f).expect("encode"))
                    .collect()
            })
            .collect(),
        _ => panic!("no fuzz target {target}"),
    };
    // Spread over the list when it is long.
    if seeds.len() > MAX_SEEDS {
        let n = seeds.len();
        seeds = (0..MAX_SEEDS)
            .map(|i| seeds[i * n / MAX_SEEDS].clone())
            .collect();
    }
    seeds
}
