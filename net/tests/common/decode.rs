//! What a device does with bytes from outside, one function per decoder: it may refuse
//! them, it must never panic. Shared by `decoders.rs` (random and mutated inputs, in every
//! test run) and the coverage-guided fuzz targets in `fuzz/`.

use super::highcard::{self, Config, HighCard};
use super::table::{Device, Table, bot, keys, start_for};
use hoard_net::device::{Envelope, address_of, fit_name, read_bots, read_profile};
use hoard_net::session::{SeatMeta, SessionMeta};
use hoard_net::transport::table::TableInfo;
use hoard_net::transport::ticket;
use hoard_net::watch::Watcher;
use hoard_net::wire::Wire;
use hoard_net::{CoreConfig, SecretKey};
use hoard_rules::Game;
use hoard_rules::greedquest::GreedQuest;
use hoard_rules::sprawl::Sprawl;
use iroh::address_lookup::UserData;
use iroh::{EndpointAddr, TransportAddr};
use std::sync::OnceLock;

/// What a device does with a session's metadata, from a peer's start or from disk.
pub fn check_meta(meta: &SessionMeta) {
    let _ = meta.check();
    // As a device opens it: by the game it names.
    let _ = if meta.start.game == Sprawl::NAME {
        meta.start.check::<Sprawl>().map(drop)
    } else {
        meta.start.check::<GreedQuest>().map(drop)
    };
    let _ = meta.session();
    let _ = meta.host();
    for seat in &meta.seats {
        let _ = address_of(seat.device, &seat.addr);
    }
}

/// A frame from another device, and what the device does with what it holds.
pub fn device_frame(bytes: &[u8]) {
    match Envelope::decode(bytes) {
        Ok(Envelope::Join { name, addr, .. }) => {
            let _ = fit_name(&name);
            let _ = address_of(addr.id, &addr);
        }
        Ok(Envelope::Lobby(lobby)) => {
            for seat in &lobby.seats {
                let _ = fit_name(&seat.name);
            }
            let _ = lobby.setup.seat_range();
        }
        Ok(Envelope::Begin(meta)) => check_meta(&meta),
        // As a screen takes it: rebuilt by the rules, or refused.
        Ok(Envelope::Screen(feed)) => {
            let _ = Watcher::default().take(feed);
        }
        Ok(Envelope::Core { messages, .. }) => {
            for m in &messages {
                let _ = Wire::decode(m);
            }
        }
        _ => {}
    }
}

/// A session's metadata as kept on disk.
pub fn session_meta(bytes: &[u8]) {
    if let Ok(meta) = postcard::from_bytes::<SessionMeta>(bytes) {
        check_meta(&meta);
    }
}

/// Table cards come as mDNS user data: text of at most 245 bytes.
pub fn table_card(bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes).into_owned();
    static HOST: OnceLock<iroh::EndpointId> = OnceLock::new();
    let host = *HOST.get_or_init(|| SecretKey::from_bytes(&[5; 32]).public());
    if let Ok(data) = UserData::try_from(text) {
        let _ = TableInfo::from_user_data(host, &data);
    }
}

/// A join code as pasted, scanned or typed.
pub fn join_ticket(bytes: &[u8]) {
    let _ = ticket::decode(&String::from_utf8_lossy(bytes));
}

/// The keys of a session's bots, kept on the host.
pub fn bots_file(bytes: &[u8]) {
    let _ = read_bots(bytes);
}

/// The player's kept name and colour. A profile read back always has a name that fits a
/// start (the invariant `decoders.rs` checks too).
pub fn profile(bytes: &[u8]) {
    if let Some(p) = read_profile(bytes) {
        assert!(p.name.len() <= hoard_net::identity::MAX_NAME && !p.name.is_empty());
    }
}

/// A game input inside a signed message: decoded, then checked against the table.
pub fn game_input<G: Game>(bytes: &[u8], public: &G::Public) {
    if let Ok(input) = postcard::from_bytes::<G::Input>(bytes) {
        for seat in 0..4 {
            let _ = G::check_input(public, seat, &input);
        }
    }
}

/// The three-seat high-card table of bots that the decoder test and the fuzz targets take
/// real messages from, and feed bytes to: fixed keys and start, so the same bytes every run.
pub fn high_card_table() -> Table {
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
    let devices: Vec<Box<dyn Device>> = (0..3)
        .map(|i| bot::<HighCard>(&start, &keys[i], i as u8, cfg.clone()) as Box<dyn Device>)
        .collect();
    Table::new(devices, keys, start)
}

/// A seated table's metadata for game `G`, as the host sends it and every device keeps it.
pub fn meta_for<G: Game>(config: &G::Config, n: u8) -> SessionMeta {
    let keys = keys(n, 60);
    let start = start_for::<G>(config, &keys, 61);
    SessionMeta {
        start,
        seats: keys
            .iter()
            .enumerate()
            .map(|(i, k)| SeatMeta {
                device: k.public(),
                addr: addr_of(k, i as u16),
                colour: [i as u8, 2, 3],
                bot: i == n as usize - 1,
            })
            .collect(),
    }
}

/// A device's address as a LAN peer sees it: two direct paths and a relay.
pub fn addr_of(key: &SecretKey, i: u16) -> EndpointAddr {
    let ip = |s: &str| TransportAddr::Ip(s.parse().expect("literal"));
    EndpointAddr::from_parts(
        key.public(),
        [
            ip(&format!("192.168.1.{}:{}", 10 + i, 40000 + i)),
            ip(&format!("[fe80::{}]:{}", 10 + i, 40000 + i)),
            TransportAddr::Relay("https://relay.example.org./".parse().expect("literal")),
        ],
    )
}
