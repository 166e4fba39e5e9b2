//! A table of in-process devices on loopback, for measuring: each device is the real
//! per-device stack below the handle — a [`Session`] of protocol cores with its store on
//! disk, a [`Mesh`] of iroh connections, the same frames — run as its own task, with the
//! test playing its seat step by step (or letting it play and vote by itself) and every
//! step it completes reported with the moment it did.

use crate::rounds::{self, Input, Rounds};
use hoard_net::core::{CoreConfig, Time};
use hoard_net::device::{Envelope, table_links};
use hoard_net::handle::AwayVote;
use hoard_net::identity::SystemRandom;
use hoard_net::session::TableGame;
use hoard_net::session::{SeatMeta, Session, SessionMeta, session_dir};
use hoard_net::storage::{DiskStorage, Folder};
use hoard_net::transport::mesh::{self, Mesh, MeshEvent};
use hoard_net::transport::{EndpointOptions, NetMode, bind_endpoint};
use hoard_net::{SeatSpec, SecretKey, Start};
use hoard_rules::{Game, Pending, Seat};
use iroh::{Endpoint, EndpointAddr, TransportAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc as std_mpsc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// What the test tells a device.
enum Cmd {
    /// A move, as postcard bytes of the table's game's input.
    Submit(Vec<u8>),
    /// Play by bot, and vote to skip a seat that is away once it is known to be gone.
    Auto(bool),
    /// A seat's device was stopped (`true`) or started again (`false`): as at a real
    /// table, only a seat whose player is known to have left is voted on, not one that is
    /// merely slow for a moment.
    Gone(Seat, bool),
    Stop,
}

/// What a device reports after its work, whenever something changed.
#[derive(Clone, Debug)]
pub struct Status {
    pub device: usize,
    /// When the device finished the work that produced this status.
    pub at: Instant,
    pub step: u32,
    pub pending: Option<Pending>,
    /// Bit `s`: seat `s`'s move for this step is in (as this device sees it).
    pub committed: u8,
    pub away: u8,
    /// Bit `s`: the table waits for something from seat `s`.
    pub owed: u8,
    /// Milliseconds until the device's next timer, if any.
    pub timer_ms: Option<i64>,
    pub state: [u8; 32],
    /// `Some(true)` once the audit verified the game.
    pub verified: Option<bool>,
    /// By seat: the last step of this device's log at which the seat made a move of its
    /// own (not sat out, not removed).
    pub last_move: Vec<Option<u32>>,
}

/// Protocol settings for the measured tables: a quiet seat counts as away quickly, and the
/// table can go on without it.
fn config(away_after_ms: u64) -> CoreConfig<Rounds> {
    CoreConfig {
        away_after: away_after_ms,
        sit_out: Some(rounds::sit_out),
        ..CoreConfig::default()
    }
}

/// Starts one device's task at the table's game, its cores set as the game wants and a
/// quiet seat counted as away after the given milliseconds.
type Spawn =
    fn(&tokio::runtime::Runtime, Device, Option<Endpoint>, mpsc::UnboundedReceiver<Cmd>, u64);

/// [`Spawn`] for the measured game of rounds.
fn spawn_rounds(
    rt: &tokio::runtime::Runtime,
    device: Device,
    endpoint: Option<Endpoint>,
    cmds: mpsc::UnboundedReceiver<Cmd>,
    away_after: u64,
) {
    rt.spawn(device.run::<Rounds>(endpoint, cmds, config(away_after)));
}

/// [`Spawn`] for one of Hoard's games, with its own rules for a seat that sits out.
fn spawn_game<G: TableGame>(
    rt: &tokio::runtime::Runtime,
    device: Device,
    endpoint: Option<Endpoint>,
    cmds: mpsc::UnboundedReceiver<Cmd>,
    away_after: u64,
) {
    let cfg = CoreConfig {
        away_after,
        ..G::core_config()
    };
    rt.spawn(device.run::<G>(endpoint, cmds, cfg));
}

struct Slot {
    key: SecretKey,
    dir: PathBuf,
    port: u16,
    ctl: Option<mpsc::UnboundedSender<Cmd>>,
}

/// A table of `n` devices, one seat each.
pub struct LoopTable {
    pub rt: tokio::runtime::Runtime,
    slots: Vec<Slot>,
    meta: SessionMeta,
    spawn: Spawn,
    away_after_ms: u64,
    tx: std_mpsc::Sender<Status>,
    rx: std_mpsc::Receiver<Status>,
    /// The latest status of every device.
    pub last: Vec<Option<Status>>,
    /// For each device, when it first reached each step.
    pub reached: Vec<Vec<Option<Instant>>>,
}

fn addr_of(endpoint: &Endpoint) -> EndpointAddr {
    EndpointAddr::from_parts(
        endpoint.id(),
        endpoint
            .bound_sockets()
            .into_iter()
            .filter(|a| a.ip().is_loopback())
            .map(TransportAddr::Ip),
    )
}

impl LoopTable {
    /// Binds `n` endpoints on loopback, seats them at a game of `rounds` rounds and starts
    /// every device. Data directories live under `dir`.
    pub fn new(dir: &std::path::Path, n: u8, rounds: u32, away_after_ms: u64) -> LoopTable {
        let start = |specs| {
            Start::new::<Rounds>(&rounds::Config { seats: n, rounds }, specs, [42; 32])
                .expect("start")
        };
        LoopTable::seat(dir, n, spawn_rounds, start, away_after_ms)
    }

    /// As [`LoopTable::new`], at a game of `G` played as `config` says, with the game's own
    /// rules for a seat that sits out.
    pub fn playing<G: TableGame>(
        dir: &std::path::Path,
        config: &G::Config,
        away_after_ms: u64,
    ) -> LoopTable {
        let start = |specs| Start::new::<G>(config, specs, [42; 32]).expect("start");
        LoopTable::seat(dir, G::seats(config), spawn_game::<G>, start, away_after_ms)
    }

    fn seat(
        dir: &std::path::Path,
        n: u8,
        spawn: Spawn,
        start: impl FnOnce(Vec<SeatSpec>) -> Start,
        away_after_ms: u64,
    ) -> LoopTable {
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime");
        let keys: Vec<SecretKey> = (0..n)
            .map(|i| SecretKey::from_bytes(&[i + 11; 32]))
            .collect();
        let endpoints: Vec<Endpoint> = rt.block_on(async {
            let mut eps = Vec::new();
            for k in &keys {
                let bound = bind_endpoint(k.clone(), &EndpointOptions::new(NetMode::Loopback))
                    .await
                    .expect("bind");
                eps.push(bound.endpoint);
            }
            eps
        });
        let specs = keys
            .iter()
            .enumerate()
            .map(|(i, k)| SeatSpec {
                key: k.public(),
                name: format!("Seat {i}"),
            })
            .collect();
        let start = start(specs);
        let meta = SessionMeta {
            start,
            seats: endpoints
                .iter()
                .map(|e| SeatMeta {
                    device: e.id(),
                    addr: addr_of(e),
                    colour: [9, 9, 9],
                    bot: false,
                })
                .collect(),
        };
        let (tx, rx) = std_mpsc::channel();
        let mut table = LoopTable {
            rt,
            slots: Vec::new(),
            meta,
            spawn,
            away_after_ms,
            tx,
            rx,
            last: vec![None; n as usize],
            reached: vec![Vec::new(); n as usize],
        };
        for (i, (key, endpoint)) in keys.into_iter().zip(endpoints).enumerate() {
            let port = addr_of(&endpoint)
                .ip_addrs()
                .next()
                .map(|a| a.port())
                .unwrap_or(0);
            table.slots.push(Slot {
                key,
                dir: dir.join(format!("device-{i}")),
                port,
                ctl: None,
            });
            table.spawn(i, Some(endpoint), false);
        }
        table
    }

    pub fn seats(&self) -> usize {
        self.slots.len()
    }

    /// Starts device `i`'s task: on `endpoint`, or (after a stop) a new endpoint on the
    /// same port; `resume` rebuilds its seat from its store.
    fn spawn(&mut self, i: usize, endpoint: Option<Endpoint>, resume: bool) {
        let (ctl, cmds) = mpsc::unbounded_channel();
        let slot = &mut self.slots[i];
        slot.ctl = Some(ctl);
        let key = slot.key.clone();
        let port = slot.port;
        let data = Folder::root(Arc::new(DiskStorage::new(&slot.dir)));
        let dir = session_dir(&data, &self.meta.session());
        let meta = self.meta.clone();
        let away_after = self.away_after_ms;
        let report = self.tx.clone();
        let device = Device {
            me: i,
            key,
            port,
            dir,
            meta,
            resume,
            report,
        };
        (self.spawn)(&self.rt, device, endpoint, cmds, away_after);
    }

    /// Stops device `i` politely (its connections close at once).
    pub fn stop(&mut self, i: usize) {
        if let Some(ctl) = self.slots[i].ctl.take() {
            let _ = ctl.send(Cmd::Stop);
        }
        self.tell_others(i, true);
    }

    fn tell_others(&self, i: usize, gone: bool) {
        for (j, slot) in self.slots.iter().enumerate() {
            if let Some(ctl) = slot.ctl.as_ref().filter(|_| j != i) {
                let _ = ctl.send(Cmd::Gone(i as Seat, gone));
            }
        }
    }

    /// Starts device `i` again from its data directory.
    pub fn restart(&mut self, i: usize) {
        // The others hear it is no longer gone before it can say it is back, so none of
        // them chooses again to go on without it after its word.
        self.tell_others(i, false);
        self.spawn(i, None, true);
    }

    pub fn submit(&self, i: usize, input: Input) {
        if let Some(ctl) = &self.slots[i].ctl {
            let _ = ctl.send(Cmd::Submit(postcard::to_stdvec(&input).unwrap_or_default()));
        }
    }

    pub fn auto(&self, i: usize, on: bool) {
        if let Some(ctl) = &self.slots[i].ctl {
            let _ = ctl.send(Cmd::Auto(on));
        }
    }

    /// Takes reports until `done` holds, or panics after `limit`.
    pub fn until(&mut self, limit: Duration, what: &str, mut done: impl FnMut(&LoopTable) -> bool) {
        let deadline = Instant::now() + limit;
        while !done(self) {
            let left = deadline
                .checked_duration_since(Instant::now())
                .unwrap_or_else(|| {
                    panic!("timed out waiting for {what}; devices at: {}", self.brief())
                });
            // Woken now and then without a report too, for a `done` that watches the clock.
            if let Ok(status) = self.rx.recv_timeout(left.min(Duration::from_millis(10))) {
                let d = status.device;
                let steps = &mut self.reached[d];
                if steps.len() <= status.step as usize {
                    steps.resize(status.step as usize + 1, None);
                }
                steps[status.step as usize].get_or_insert(status.at);
                self.last[d] = Some(status);
            }
        }
    }

    /// One line per device: step, pending, who has moved, who is away.
    pub fn brief(&self) -> String {
        self.last
            .iter()
            .enumerate()
            .map(|(d, s)| match s {
                Some(s) => format!(
                    "\n  device {d}: step {} {:?} committed {:08b} owed {:08b} away {:08b} timer {:?} verified {:?}",
                    s.step, s.pending, s.committed, s.owed, s.away, s.timer_ms, s.verified
                ),
                None => format!("\n  device {d}: no report"),
            })
            .collect()
    }

    /// Device `i`'s data directory.
    pub fn data_dir(&self, i: usize) -> PathBuf {
        self.slots[i].dir.clone()
    }

    /// Drops what device `i` reported, as if it had never run (before it starts again from
    /// an older copy of its data directory).
    pub fn forget(&mut self, i: usize) {
        while let Ok(status) = self.rx.try_recv() {
            let d = status.device;
            if d != i {
                self.last[d] = Some(status);
            }
        }
        self.last[i] = None;
        self.reached[i].clear();
    }

    /// The step device `i` is at.
    pub fn step(&self, i: usize) -> u32 {
        self.last[i].as_ref().map_or(0, |s| s.step)
    }

    /// Whether every listed device is at `step` or beyond.
    pub fn all_at(&self, devices: &[usize], step: u32) -> bool {
        devices.iter().all(|d| self.step(*d) >= step)
    }

    /// Panics unless every device that reported ended verified, on the same step and state.
    pub fn assert_all_verified_alike(&self) {
        let first = self.last[0].clone().expect("device 0 reported");
        for s in self.last.iter().flatten() {
            assert_eq!(s.verified, Some(true), "device {} audit", s.device);
            assert_eq!(
                (s.step, s.state),
                (first.step, first.state),
                "device {} differs",
                s.device
            );
        }
    }
}

/// What one device's task needs to sit down at the table.
struct Device {
    me: usize,
    key: SecretKey,
    port: u16,
    dir: Folder,
    meta: SessionMeta,
    resume: bool,
    report: std_mpsc::Sender<Status>,
}

impl Device {
    /// Binds (or rebinds, after a stop, on the same port), opens the session and runs.
    async fn run<G: Game>(
        self,
        endpoint: Option<Endpoint>,
        cmds: mpsc::UnboundedReceiver<Cmd>,
        cfg: CoreConfig<G>,
    ) {
        let endpoint = match endpoint {
            Some(e) => e,
            None => {
                let mut options = EndpointOptions::new(NetMode::Loopback);
                options.port = Some(self.port);
                bind_endpoint(self.key.clone(), &options)
                    .await
                    .expect("rebind")
                    .endpoint
            }
        };
        // The links come up while the store is read, as on a device.
        let (events_tx, events) = mpsc::unbounded_channel();
        let mesh = dial_table(&endpoint, &self.meta, self.resume, events_tx);
        let clock = Instant::now();
        let now = || Time(clock.elapsed().as_millis() as u64);
        let session = Session::<G>::open_with(
            self.dir,
            self.meta.clone(),
            &self.key,
            &[],
            false,
            now(),
            self.resume,
            cfg,
            &mut SystemRandom,
        )
        .expect("session");
        run_device(
            self.me,
            endpoint,
            mesh,
            events,
            session,
            self.meta,
            cmds,
            self.report,
            clock,
        )
        .await;
    }
}

impl Drop for LoopTable {
    fn drop(&mut self) {
        for i in 0..self.slots.len() {
            self.stop(i);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A mesh with a link (dialled or awaited) to every other device at the table; a device
/// that was stopped also knocks on the peers that dial it.
fn dial_table(
    endpoint: &Endpoint,
    meta: &SessionMeta,
    resumed: bool,
    events: mpsc::UnboundedSender<MeshEvent>,
) -> Mesh {
    let mut mesh = Mesh::new(endpoint.clone(), events);
    for (addr, dial) in table_links(meta, endpoint.id()) {
        mesh.connect(addr.clone(), dial);
        if resumed && !dial {
            mesh.knock(addr);
        }
    }
    mesh
}

#[allow(clippy::too_many_arguments)]
async fn run_device<G: Game>(
    me: usize,
    endpoint: Endpoint,
    mut mesh: Mesh,
    mut events: mpsc::UnboundedReceiver<MeshEvent>,
    mut session: Session<G>,
    meta: SessionMeta,
    mut cmds: mpsc::UnboundedReceiver<Cmd>,
    report: std_mpsc::Sender<Status>,
    clock: Instant,
) {
    let now = || Time(clock.elapsed().as_millis() as u64);
    let mut auto = false;
    let mut gone = std::collections::BTreeSet::new();
    let mut rng = hoard_rules::rng::from_seed(&[me as u8; 32], "table bot");
    let mut last_step = None;
    let session_id = meta.session();
    let mut last_sent: Option<(u32, u8, u16, bool)> = None;
    loop {
        let deadline = session
            .next_timeout()
            .map(|t| clock + Duration::from_millis(t.as_millis()));
        tokio::select! {
            cmd = cmds.recv() => match cmd {
                Some(Cmd::Submit(bytes)) => {
                    let submitted = postcard::from_bytes::<G::Input>(&bytes)
                        .map_err(|e| e.to_string())
                        .and_then(|input| session.submit(now(), input).map_err(|e| e.to_string()));
                    if let Err(e) = submitted {
                        tracing::warn!("device {me} could not move: {e}");
                    }
                }
                Some(Cmd::Auto(on)) => auto = on,
                Some(Cmd::Gone(seat, true)) => {
                    gone.insert(seat);
                }
                Some(Cmd::Gone(seat, false)) => {
                    gone.remove(&seat);
                }
                Some(Cmd::Stop) | None => break,
            },
            Some(event) = events.recv() => {
                let mut next = Some(event);
                let mut taken = 0;
                while let Some(event) = next {
                    handle(&mut session, &mut mesh, &meta, event, now());
                    taken += 1;
                    next = if taken < 256 { events.try_recv().ok() } else { None };
                }
            }
            _ = async {
                match deadline {
                    Some(at) => tokio::time::sleep_until(at.into()).await,
                    None => std::future::pending().await,
                }
            } => session.timeout(now()),
        }
        loop {
            send_all(&mut session, &mesh, session_id, now());
            if !auto {
                break;
            }
            // Playing by itself: move, and vote to go on without any seat that is away
            // (a vote already cast at this step is refused; nothing to do then).
            // Skipped while it was gone, its player says it is back (the table's "I'm
            // back"), as a person at the table would.
            if session.core().sat_out().is_some() {
                session.back(now());
            }
            let core = session.core();
            let mut moved = false;
            if core.my_move()
                && let Some(public) = core.public()
                && let Some(input) = G::bot_input(public, core.private(), core.my_seat(), &mut rng)
            {
                moved = session.submit(now(), input).is_ok();
            }
            let mine = session.core().my_seat();
            for s in 0..meta.seats.len() as Seat {
                let status = session.core().seat_status(s);
                if s != mine && status.away && !status.removed && gone.contains(&s) {
                    let _ = session.vote(now(), s, AwayVote::Skip);
                }
            }
            if !moved {
                send_all(&mut session, &mesh, session_id, now());
                break;
            }
        }
        let core = session.core();
        let at = Instant::now();
        let n = meta.seats.len();
        let mut committed = 0u8;
        let mut away = 0u8;
        let mut owed = 0u8;
        for s in 0..n {
            let st = core.seat_status(s as Seat);
            if st.committed {
                committed |= 1 << s;
            }
            if st.away {
                away |= 1 << s;
            }
            if st.owed {
                owed |= 1 << s;
            }
        }
        let step = core.step();
        let verified = core.verdict().map(|v| v.is_verified());
        let mut last_move = vec![None; n];
        for (i, r) in core.records().iter().enumerate() {
            if let hoard_net::log::StepRecord::Inputs { plays, .. } = r {
                for (seat, p) in plays {
                    if hoard_net::Absence::of(p).is_none()
                        && let Some(m) = last_move.get_mut(usize::from(*seat))
                    {
                        *m = Some(i as u32);
                    }
                }
            }
        }
        let timer_ms = session
            .next_timeout()
            .map(|t| t.as_millis() as i64 - now().as_millis() as i64);
        let key = (
            step,
            committed,
            u16::from(away) | u16::from(owed) << 8,
            verified.is_some(),
        );
        if last_sent != Some(key) {
            last_sent = Some(key);
            // Report every step passed, so the moment each was reached is known.
            let from = last_step.map_or(step, |l: u32| (l + 1).min(step));
            for s in from..=step {
                let _ = report.send(Status {
                    device: me,
                    at,
                    step: s,
                    pending: if s == step { core.pending() } else { None },
                    committed: if s == step { committed } else { 0 },
                    away,
                    owed,
                    timer_ms,
                    state: core.state_hash(),
                    verified,
                    last_move: last_move.clone(),
                });
            }
            last_step = Some(step);
        }
    }
    drop(mesh);
    let _ = tokio::time::timeout(Duration::from_millis(300), endpoint.close()).await;
}

/// Lets the session do its work and sends what it produced.
fn send_all<G: Game>(
    session: &mut Session<G>,
    mesh: &Mesh,
    session_id: hoard_net::SessionId,
    now: Time,
) {
    let pumped = session.pump(now);
    for out in pumped.sends {
        let device = out.device;
        let frame = Envelope::core(session_id, out);
        mesh.send_synced(&device, postcard::to_stdvec(&frame).unwrap_or_default());
    }
}

fn handle<G: Game>(
    session: &mut Session<G>,
    mesh: &mut Mesh,
    meta: &SessionMeta,
    event: MeshEvent,
    now: Time,
) {
    match event {
        MeshEvent::Incoming { conn } => {
            if meta.devices().contains(&conn.remote_id()) {
                mesh.adopt(conn);
            } else {
                mesh::refuse(&conn, "not seated at this table");
            }
        }
        MeshEvent::Up { peer } => session.peer_up(now, peer),
        MeshEvent::Down { peer, .. } => session.set_connected(peer, false),
        MeshEvent::Frame { peer, bytes } => {
            if let Ok(Envelope::Core {
                from, to, messages, ..
            }) = postcard::from_bytes::<Envelope>(&bytes)
            {
                let _ = session.deliver(now, peer, from, to, &messages);
            }
        }
    }
}
