//! A device that is not seated cannot get an input accepted: it may knock at an open
//! table, but once the game starts its link is dropped, every new connection it makes to a
//! seated device is refused, and the input it forges for a seat goes nowhere. The game
//! goes on untouched and ends verified on every seated device.

use hoard_net::device::Envelope;
use hoard_net::handle::{AnyInput, AnyState, AuditVerdict, Command, GameView, Update};
use hoard_net::transport::mesh::{Mesh, MeshEvent};
use hoard_net::transport::ticket;
use hoard_net::transport::{EndpointOptions, NetMode, bind_endpoint};
use hoard_net::wire::{Basis, Body, Signed, Wire};
use hoard_net::{PublicKey, SecretKey};
use hoard_rules::Game;
use hoard_rules::greedquest::GreedQuest;
use hoard_tests::{Device, Scratch, with_timeout};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(20);

/// A legal move for the guest, as the guest's bot would make it.
fn guest_move(view: &GameView) -> Option<AnyInput> {
    let AnyState::GreedQuest { public, private } = &view.state else {
        return None;
    };
    let mut rng = hoard_rules::rng::from_seed(&[1; 32], "the move a rogue forges");
    GreedQuest::bot_input(public, private.as_ref(), view.me?, &mut rng).map(AnyInput::GreedQuest)
}

/// Where a loopback device listens: the port it keeps in its data directory.
fn loopback_addr(id: PublicKey, data_dir: &std::path::Path) -> iroh::EndpointAddr {
    let bytes = std::fs::read(data_dir.join("port")).expect("the device saved its port");
    let port = u16::from_le_bytes(bytes.as_slice().try_into().expect("two bytes"));
    iroh::EndpointAddr::new(id).with_ip_addr(std::net::SocketAddr::from(([127, 0, 0, 1], port)))
}

/// The rogue's side: an iroh endpoint and mesh of its own, no seat anywhere.
struct Rogue {
    key: SecretKey,
    mesh: Mesh,
    events: mpsc::UnboundedReceiver<MeshEvent>,
    downs: Vec<String>,
}

impl Rogue {
    async fn new() -> Rogue {
        let key = SecretKey::from_bytes(&[66; 32]);
        let bound = bind_endpoint(key.clone(), &EndpointOptions::new(NetMode::Loopback))
            .await
            .expect("rogue endpoint");
        let (tx, events) = mpsc::unbounded_channel();
        Rogue {
            key,
            mesh: Mesh::new(bound.endpoint, tx),
            events,
            downs: Vec::new(),
        }
    }

    /// Takes link events for `time`; returns whether a link came up.
    async fn watch(&mut self, time: Duration) -> bool {
        let mut up = false;
        let until = tokio::time::Instant::now() + time;
        while let Ok(Some(e)) = tokio::time::timeout_at(until, self.events.recv()).await {
            match e {
                MeshEvent::Up { .. } => up = true,
                MeshEvent::Down { why, .. } => self.downs.push(why),
                MeshEvent::Incoming { conn } => hoard_net::transport::mesh::refuse(&conn, "no"),
                MeshEvent::Frame { .. } => {}
            }
        }
        up
    }
}

#[test]
fn an_unseated_device_cannot_get_an_input_accepted() {
    with_timeout(Duration::from_secs(90), || {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        // The rogue's links run on this runtime in the background.
        let _runtime = rt.enter();
        let scratch = Scratch::new("unseated");
        let mut host = Device::start(&scratch.dir("host"));
        let mut guest = Device::start(&scratch.dir("guest"));
        host.handle.send(Command::Autoplay { on: true });
        let code = host.host("Locked", None);
        host.handle.send(Command::AddBot);
        let host_addr = ticket::decode(&code).expect("own ticket reads back");

        // The rogue knocks while the table is open: that much anyone may do.
        let mut rogue = rt.block_on(Rogue::new());
        rogue.mesh.connect(host_addr.clone(), true);
        assert!(
            rt.block_on(rogue.watch(Duration::from_secs(3))),
            "an open table lets anyone knock"
        );

        guest.sit_down(&code);
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.can_start && l.seats.len() == 3 => Some(()),
            _ => None,
        })
        .expect("the table can start");
        host.handle.send(Command::Start);

        // The game waits for the guest's move.
        let view = guest
            .wait_for(WAIT, |e| match e {
                Update::Game(v) if v.my_turn => Some(v.clone()),
                _ => None,
            })
            .expect("the guest's turn");
        let guest_seat = view.me.expect("guest seated");
        let waiting_step = view.step;

        // Forge the guest's input with the rogue's key, claiming to speak for every seat in
        // turn, and send it every way the rogue can.
        let Some(AnyInput::GreedQuest(input)) = guest_move(&view) else {
            panic!("the guest has a move")
        };
        let input = postcard::to_stdvec(&input).expect("encode");
        let forged = Wire::Signed(Signed::sign(
            &rogue.key,
            view.session,
            guest_seat,
            view.step,
            Basis {
                log: [0; 32],
                state: view.state_hash,
            },
            Body::Input(input),
        ))
        .encode();
        let host_key: PublicKey = host.handle.me();
        let guest_key: PublicKey = guest.handle.me();
        rogue
            .mesh
            .connect(loopback_addr(guest_key, &scratch.dir("guest")), true);
        for from in 0..3 {
            for to in 0..3 {
                let frame = Envelope::Core {
                    session: view.session,
                    from,
                    to,
                    messages: vec![forged.clone().into()],
                };
                let bytes = postcard::to_stdvec(&frame).expect("encode");
                rogue.mesh.send(&host_key, bytes.clone());
                rogue.mesh.send(&guest_key, bytes);
            }
        }
        rt.block_on(rogue.watch(Duration::from_secs(2)));
        assert!(
            rogue
                .downs
                .iter()
                .any(|why| why.contains("not seated at this table")),
            "seated devices refuse the rogue by name; its links ended with: {:?}",
            rogue.downs
        );

        // Nothing moved: the table still waits for the guest, whose move is not in.
        host.drain();
        let seen = host.last.clone().expect("host view");
        assert_eq!(seen.step, waiting_step, "the table moved without the guest");
        assert!(
            !seen.seats[guest_seat as usize].committed,
            "a forged move counted for the guest"
        );

        // The guest plays on (by bot); the game ends verified and the same everywhere.
        guest.handle.send(Command::Autoplay { on: true });
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut results = Vec::new();
        for device in [&mut host, &mut guest] {
            let left = deadline.saturating_duration_since(Instant::now());
            let done = device
                .wait_for(left, |e| match e {
                    Update::Game(v) if v.audit.is_some() => Some(v.clone()),
                    _ => None,
                })
                .expect("the game ends");
            results.push(done);
        }
        for r in &results {
            assert_eq!(r.audit, Some(AuditVerdict::Verified));
        }
        assert_eq!(results[0].state_hash, results[1].state_hash);
        assert_eq!(results[0].step, results[1].step);
        drop(rogue);
    });
}
