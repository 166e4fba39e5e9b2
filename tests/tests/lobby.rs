//! What a guest brings to the lobby is the host's to check before it goes to anyone else:
//! its address is kept under its own id and cut to a few entries, and its name is cut to
//! what a game's start accepts. A rogue guest here is a bare endpoint that speaks frames
//! itself; the others are real devices over iroh on loopback.

use hoard_net::device::{Envelope, MAX_ADDRS, Roster, table_links};
use hoard_net::handle::{Command, Update};
use hoard_net::identity::SystemRandom;
use hoard_net::session::{Session, SessionMeta, session_dir};
use hoard_net::storage::{DiskStorage, Folder};
use hoard_net::transport::frame::MAX_FRAME;
use hoard_net::transport::mesh::{self, Mesh, MeshEvent};
use hoard_net::transport::{EndpointOptions, NetMode, bind_endpoint};
use hoard_net::transport::{PROTOCOL_VERSION, ticket};
use hoard_net::{SecretKey, Time};
use hoard_rules::greedquest::GreedQuest;
use hoard_tests::{Device, Scratch, with_timeout};
use iroh::endpoint::Connection;
use iroh::{Endpoint, EndpointAddr, EndpointId, TransportAddr};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(20);

/// Secret keys sorted by their ids: which side of a pair dials follows that order, and
/// the split below needs a given order.
fn keys_by_id(n: usize) -> Vec<SecretKey> {
    let mut keys: Vec<SecretKey> = (1..=n as u8)
        .map(|i| SecretKey::from_bytes(&[i.wrapping_mul(37); 32]))
        .collect();
    keys.sort_by_key(|k| k.public());
    keys
}

/// A real device whose identity is `key`.
fn device_with(dir: &Path, key: &SecretKey) -> Device {
    std::fs::create_dir_all(dir).expect("data dir");
    std::fs::write(dir.join("identity.key"), key.to_bytes()).expect("identity");
    Device::start(dir)
}

/// The rogue: a bare endpoint and mesh, sending whatever frames the test says.
struct Rogue {
    key: SecretKey,
    endpoint: Endpoint,
    mesh: Mesh,
    events: mpsc::UnboundedReceiver<MeshEvent>,
    /// Seated devices that dialed before the rogue took its seat.
    early: Vec<Connection>,
}

impl Rogue {
    async fn new(key: SecretKey) -> Rogue {
        let bound = bind_endpoint(key.clone(), &EndpointOptions::new(NetMode::Loopback))
            .await
            .expect("rogue endpoint");
        let (tx, events) = mpsc::unbounded_channel();
        Rogue {
            key,
            endpoint: bound.endpoint.clone(),
            mesh: Mesh::new(bound.endpoint, tx),
            events,
            early: Vec::new(),
        }
    }

    fn id(&self) -> EndpointId {
        self.key.public()
    }

    /// Where the rogue really listens.
    fn sockets(&self) -> Vec<TransportAddr> {
        self.endpoint
            .bound_sockets()
            .into_iter()
            .filter(|a| a.ip().is_loopback())
            .map(TransportAddr::Ip)
            .collect()
    }

    fn send(&self, to: &EndpointId, frame: &Envelope) {
        let bytes = postcard::to_stdvec(frame).expect("encode");
        assert!(self.mesh.send(to, bytes), "the rogue has a link to {to}");
    }

    /// Dials the host and asks for a seat with `addr`, ready to play.
    async fn join(&mut self, host: EndpointAddr, name: &str, addr: EndpointAddr) {
        let host_id = host.id;
        self.mesh.connect(host, true);
        self.until(
            WAIT,
            |e| matches!(e, MeshEvent::Up { peer } if *peer == host_id),
        )
        .await
        .expect("the rogue reaches the host");
        let join = Envelope::Join {
            version: PROTOCOL_VERSION,
            name: name.into(),
            colour: [1, 2, 3],
            addr,
        };
        self.send(&host_id, &join);
        self.send(&host_id, &Envelope::Ready { ready: true });
    }

    /// Takes link events until one satisfies `pick`, up to `limit`.
    async fn until(
        &mut self,
        limit: Duration,
        mut pick: impl FnMut(&MeshEvent) -> bool,
    ) -> Option<MeshEvent> {
        let until = tokio::time::Instant::now() + limit;
        loop {
            let event = tokio::time::timeout_at(until, self.events.recv())
                .await
                .ok()??;
            if pick(&event) {
                return Some(event);
            }
            if let MeshEvent::Incoming { conn } = event {
                self.early.push(conn);
            }
        }
    }

    /// The next frame from `peer` that `pick` takes, up to `limit`.
    async fn frame<T>(
        &mut self,
        peer: EndpointId,
        limit: Duration,
        mut pick: impl FnMut(Envelope) -> Option<T>,
    ) -> Option<T> {
        let until = tokio::time::Instant::now() + limit;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            let Some(MeshEvent::Frame { bytes, .. }) = self
                .until(
                    left,
                    |e| matches!(e, MeshEvent::Frame { peer: p, .. } if *p == peer),
                )
                .await
            else {
                return None;
            };
            if let Some(found) = postcard::from_bytes(&bytes).ok().and_then(&mut pick) {
                return Some(found);
            }
        }
    }

    /// From here on plays its seat honestly, by bot, until dropped: its only lie was its
    /// address.
    fn play(self, dir: &Path, meta: SessionMeta) -> tokio::task::JoinHandle<()> {
        let Rogue {
            key,
            endpoint,
            mut mesh,
            mut events,
            early,
        } = self;
        let me = key.public();
        let session_id = meta.session();
        let clock = Instant::now();
        let now = move || Time(clock.elapsed().as_millis() as u64);
        let data = Folder::root(Arc::new(DiskStorage::new(dir)));
        let dir = session_dir(&data, &session_id);
        let mut session = Session::<GreedQuest>::create(
            dir,
            meta.clone(),
            &key,
            &[],
            true,
            now(),
            &mut SystemRandom,
        )
        .expect("the rogue's seat");
        for (addr, dial) in table_links(&meta, me) {
            mesh.connect(addr, dial);
        }
        for conn in early {
            if meta.devices().contains(&conn.remote_id()) {
                mesh.adopt(conn);
            }
        }
        tokio::spawn(async move {
            let _endpoint = endpoint;
            loop {
                let deadline = session
                    .next_timeout()
                    .map(|t| clock + Duration::from_millis(t.as_millis()));
                tokio::select! {
                    event = events.recv() => match event {
                        Some(MeshEvent::Incoming { conn }) => {
                            if meta.devices().contains(&conn.remote_id()) {
                                mesh.adopt(conn);
                            } else {
                                mesh::refuse(&conn, "not seated at this table");
                            }
                        }
                        Some(MeshEvent::Up { peer }) => session.peer_up(now(), peer),
                        Some(MeshEvent::Down { peer, .. }) => session.set_connected(peer, false),
                        Some(MeshEvent::Frame { peer, bytes }) => {
                            if let Ok(Envelope::Core { from, to, messages, .. }) =
                                postcard::from_bytes::<Envelope>(&bytes)
                            {
                                let _ = session.deliver(now(), peer, from, to, &messages);
                            }
                        }
                        None => return,
                    },
                    _ = async {
                        match deadline {
                            Some(at) => tokio::time::sleep_until(at.into()).await,
                            None => std::future::pending().await,
                        }
                    } => session.timeout(now()),
                }
                for out in session.pump(now()).sends {
                    let device = out.device;
                    let frame = Envelope::core(session_id, out);
                    mesh.send_synced(&device, postcard::to_stdvec(&frame).unwrap_or_default());
                }
            }
        })
    }
}

/// Hosts a table on `host` and returns its address.
fn host_table(host: &mut Device) -> EndpointAddr {
    let code = host.host("The cellar", None);
    ticket::decode(&code).expect("own ticket reads back")
}

/// `guest` joins `host`'s table and says it is ready.
fn sit_down(guest: &mut Device, host: &EndpointAddr) {
    guest.sit_down(&ticket::encode(host));
}

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .expect("runtime")
}

/// A rogue guest names honest guest Ana's id in its join address. Kept as given, every
/// other device would file the rogue's address under Ana's link: Bea (who dials Ana) would
/// dial the rogue's socket expecting Ana's key, forever, while Ana waits for her — the
/// two honest guests split, and the first sealed step waits on each for the other.
#[test]
fn a_guest_naming_another_guests_id_is_seated_under_its_own() {
    with_timeout(Duration::from_secs(120), || {
        let rt = runtime();
        let _runtime = rt.enter();
        let scratch = Scratch::new("lobby-id");
        // Bea dials the rogue and Ana; the rogue dials Ana.
        let keys = keys_by_id(4);
        let (bea, rogue_key, ana, host_key) = (&keys[0], &keys[1], &keys[2], &keys[3]);
        let mut host = device_with(&scratch.dir("host"), host_key);
        let mut a = device_with(&scratch.dir("ana"), ana);
        let mut b = device_with(&scratch.dir("bea"), bea);
        for d in [&mut host, &mut a, &mut b] {
            d.handle.send(Command::Autoplay { on: true });
        }
        let host_addr = host_table(&mut host);
        sit_down(&mut a, &host_addr);
        sit_down(&mut b, &host_addr);

        let mut rogue = rt.block_on(Rogue::new(rogue_key.clone()));
        let lie = EndpointAddr::from_parts(ana.public(), rogue.sockets());
        rt.block_on(rogue.join(host_addr.clone(), "Mallory", lie));
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.can_start && l.seats.len() == 4 => Some(()),
            _ => None,
        })
        .expect("the table can start");
        host.handle.send(Command::Start);

        let meta = rt
            .block_on(rogue.frame(host_addr.id, WAIT, |f| match f {
                Envelope::Begin(meta) => Some(meta),
                _ => None,
            }))
            .expect("the rogue is sent the start");
        let seat = meta
            .start
            .seat_of(&rogue.id())
            .expect("the rogue is seated") as usize;
        assert_eq!(
            meta.seats[seat].addr.id,
            rogue.id(),
            "the rogue's address is filed under its own id"
        );
        let _rogue = rogue.play(&scratch.dir("rogue"), meta);

        // Every seat reaches every other, and the table plays past its first sealed steps.
        for (name, d) in [("Ana", &mut a), ("Bea", &mut b)] {
            d.wait_for(Duration::from_secs(40), |e| match e {
                Update::Game(v) if v.step >= 3 && v.seats.iter().all(|s| s.connected) => Some(()),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name}'s table stalled; last view: {:?}", d.last));
        }
    });
}

/// A rogue guest pads its join address to just under the largest frame. Kept whole, the
/// lobby (every seat's address, sent to every guest) would no longer fit in a frame, and
/// no guest would hear of the lobby again.
#[test]
fn a_huge_join_address_is_cut_and_the_lobby_still_works() {
    with_timeout(Duration::from_secs(90), || {
        let rt = runtime();
        let _runtime = rt.enter();
        let scratch = Scratch::new("lobby-huge");
        let mut host = Device::start(&scratch.dir("host"));
        let mut guest = Device::start(&scratch.dir("guest"));
        let host_addr = host_table(&mut host);
        sit_down(&mut guest, &host_addr);

        let mut rogue = rt.block_on(Rogue::new(SecretKey::from_bytes(&[77; 32])));
        let huge = padded_addr(rogue.id(), rogue.sockets(), MAX_FRAME - 256);
        rt.block_on(rogue.join(host_addr.clone(), "Mallory", huge));

        let me = rogue.id();
        let lobby: Roster = rt
            .block_on(rogue.frame(host_addr.id, WAIT, |f| match f {
                Envelope::Lobby(l) if l.seats.iter().any(|s| s.key == me) => Some(l),
                _ => None,
            }))
            .expect("the rogue hears of the lobby");
        let kept = lobby.seats.iter().find(|s| s.key == me).expect("seated");
        assert!(
            kept.addr.addrs.len() <= MAX_ADDRS,
            "{} addresses kept",
            kept.addr.addrs.len()
        );
        assert_eq!(kept.addr.id, me);

        guest
            .wait_for(WAIT, |e| match e {
                Update::Lobby(l) if l.seats.iter().any(|s| s.name == "Mallory") => Some(()),
                _ => None,
            })
            .expect("the honest guest still hears of the lobby");
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.can_start && l.seats.len() == 3 => Some(()),
            _ => None,
        })
        .expect("the table can start");
    });
}

/// `id`'s address with its real sockets and made-up ones, its join frame `size` bytes.
fn padded_addr(id: EndpointId, real: Vec<TransportAddr>, size: usize) -> EndpointAddr {
    let with = |n: u32| {
        let fake = (0..n).map(|i| {
            TransportAddr::Ip(std::net::SocketAddr::from((
                std::net::Ipv4Addr::from(0x0a00_0000 + i),
                9,
            )))
        });
        EndpointAddr::from_parts(id, real.iter().cloned().chain(fake))
    };
    let len = |addr: &EndpointAddr| {
        let join = Envelope::Join {
            version: PROTOCOL_VERSION,
            name: "Mallory".into(),
            colour: [1, 2, 3],
            addr: addr.clone(),
        };
        postcard::to_stdvec(&join).expect("encode").len()
    };
    // The most made-up addresses that keep the frame within `size`.
    let (mut lo, mut hi) = (0u32, 1 << 20);
    while lo + 1 < hi {
        let mid = (lo + hi) / 2;
        if len(&with(mid)) <= size {
            lo = mid
        } else {
            hi = mid
        }
    }
    let addr = with(lo);
    assert!(len(&addr) > size - 16, "padded to {} bytes", len(&addr));
    addr
}

/// Seventeen emoji are 17 characters but 68 bytes: a name cut at 32 characters passed the
/// lobby and then failed the start's 64-byte check, and the table could not start.
#[test]
fn a_seventeen_emoji_name_can_start_a_table() {
    with_timeout(Duration::from_secs(90), || {
        let scratch = Scratch::new("lobby-emoji");
        let name = "\u{1F409}".repeat(17);
        let mut host = Device::start(&scratch.dir("host"));
        let mut guest = Device::start(&scratch.dir("guest"));
        for d in [&mut host, &mut guest] {
            d.handle.send(Command::SetProfile {
                name: name.clone(),
                colour: [200, 30, 30],
            });
            d.handle.send(Command::Autoplay { on: true });
        }
        let host_addr = host_table(&mut host);
        sit_down(&mut guest, &host_addr);
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.can_start && l.seats.len() == 2 => Some(()),
            _ => None,
        })
        .expect("the table can start");
        host.handle.send(Command::Start);
        for d in [&mut host, &mut guest] {
            let view = d
                .wait_for(WAIT, |e| match e {
                    Update::Game(v) => Some(v.clone()),
                    Update::Error(e) => panic!("the table did not start: {e}"),
                    _ => None,
                })
                .expect("the game starts");
            for seat in &view.seats {
                assert!(seat.name.len() <= hoard_net::identity::MAX_NAME);
                assert!(name.starts_with(&seat.name) && !seat.name.is_empty());
            }
        }
    });
}

/// Issue 31: "the lobby lets the host choose the table's size". A Counter table made for
/// three takes the host and two bots and no third; it cannot be made smaller than the seats
/// taken; made bigger, it takes the third bot.
#[test]
fn the_host_sets_the_tables_size_in_the_lobby_never_below_the_seats_taken() {
    with_timeout(Duration::from_secs(60), || {
        let scratch = Scratch::new("lobby-size");
        let mut host = Device::start(&scratch.dir("host"));
        host.host("The porch", None);
        use hoard_rules::Listed;
        let counter = hoard_rules::counter::Counter::config(2);
        host.handle.send(Command::ChooseGame {
            setup: hoard_net::handle::GameSetup::Counter(counter),
        });
        host.handle.send(Command::SetSize { seats: Some(3) });
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.size == Some(3) => Some(()),
            _ => None,
        })
        .expect("the host sees the table at three seats");
        for _ in 0..3 {
            host.handle.send(Command::AddBot);
        }
        let full = host
            .wait_for(WAIT, |e| match e {
                Update::Error(text) => Some(text.clone()),
                _ => None,
            })
            .expect("the third bot finds no seat");
        assert!(full.contains("all are taken"), "{full}");
        host.handle.send(Command::SetSize { seats: Some(2) });
        let smaller = host
            .wait_for(WAIT, |e| match e {
                Update::Error(text) => Some(text.clone()),
                _ => None,
            })
            .expect("a table cannot shrink below its seats");
        assert!(smaller.contains("3 seats are taken"), "{smaller}");
        host.handle.send(Command::SetSize { seats: Some(4) });
        host.handle.send(Command::AddBot);
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.size == Some(4) && l.seats.len() == 4 => Some(()),
            _ => None,
        })
        .expect("made bigger, the table takes a third bot");
    });
}

/// Issue 31: "'Play again' with the same seats from the end screen". After a game of
/// Counter (host, guest and a bot, every move made for them), the guest asks first, while the
/// host is still at the end: it waits, not taken back into the game just played. Then the
/// host asks: a new table for the same game and options with as many bots, and the guest is
/// seated at it by its own asking.
#[test]
fn play_again_seats_the_same_people_and_bots_at_a_new_table_for_the_same_game() {
    with_timeout(Duration::from_secs(150), || {
        let scratch = Scratch::new("lobby-again");
        let mut host = Device::start(&scratch.dir("host"));
        let mut guest = Device::start(&scratch.dir("guest"));
        for d in [&mut host, &mut guest] {
            d.handle.send(Command::Autoplay { on: true });
        }
        let host_addr = host_table(&mut host);
        use hoard_rules::Listed;
        let setup = hoard_net::handle::GameSetup::Counter(hoard_rules::counter::Counter::config(3));
        host.handle.send(Command::ChooseGame {
            setup: setup.clone(),
        });
        host.handle.send(Command::AddBot);
        sit_down(&mut guest, &host_addr);
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.can_start && l.seats.len() == 3 => Some(()),
            _ => None,
        })
        .expect("the table can start");
        host.handle.send(Command::Start);
        let mut played = None;
        for d in [&mut host, &mut guest] {
            let end = d
                .wait_for(Duration::from_secs(90), |e| match e {
                    Update::Game(v) if v.audit.is_some() => Some(v.clone()),
                    _ => None,
                })
                .expect("the game ends and is audited");
            assert_eq!(
                end.audit,
                Some(hoard_net::handle::AuditVerdict::Verified),
                "an honest game"
            );
            played = Some(end.session);
        }
        let played = played.expect("a game");

        guest.drain();
        let before = guest.events.len();
        guest.handle.send(Command::PlayAgain);
        std::thread::sleep(Duration::from_secs(3));
        guest.drain();
        assert!(
            !guest.events[before..].iter().any(|e| matches!(
                e,
                Update::Game(v) if v.session == played
            )),
            "the guest is not taken back into the game just played"
        );
        host.handle.send(Command::PlayAgain);
        let lobby = host
            .wait_for(Duration::from_secs(30), |e| match e {
                Update::Lobby(l) if l.seats.len() == 3 => Some(l.clone()),
                Update::Error(e) => panic!("the host could not play again: {e}"),
                _ => None,
            })
            .expect("the guest sits down at the new table");
        assert!(lobby.host);
        assert_eq!(lobby.setup, setup, "the same game with the same options");
        assert_eq!(lobby.seats.iter().filter(|s| s.bot).count(), 1, "one bot");
        guest
            .wait_for(WAIT, |e| match e {
                Update::Lobby(l) if l.seats.iter().any(|s| s.me) => Some(()),
                _ => None,
            })
            .expect("the guest sees itself seated");
    });
}
