//! A small, deterministic table for protocol tests: devices (cores with bots) exchange
//! messages in order through a queue a test can inspect and tamper with, and the clock moves
//! only when nothing else is left to do.

use hoard_net::core::CoreEvent;
use hoard_net::storage::{DiskStorage, Folder};
use hoard_net::wire::Wire;
use hoard_net::{
    Core, CoreConfig, Fault, NetError, Persist, PublicKey, Saved, SeatSpec, SecretKey, Start, Time,
    Transmit, Verdict,
};
use hoard_rules::{Game, Seat};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::VecDeque;
use std::sync::Arc;

/// One device as the table drives it, whatever game its software runs.
pub trait Device {
    fn key(&self) -> PublicKey;
    fn handle(&mut self, now: Time, from: PublicKey, bytes: &[u8]) -> Result<(), NetError>;
    /// Many messages in one frame.
    fn handle_frame(
        &mut self,
        now: Time,
        from: PublicKey,
        frame: &[Vec<u8>],
    ) -> Result<(), NetError>;
    /// How many messages the core holds.
    fn held(&self) -> usize;
    /// Bytes of every message the device has written to its inbox.
    fn inbox_bytes(&self) -> usize;
    fn timeout(&mut self, now: Time);
    /// Carries out what the core asks for: writes (to memory or real files), then returns
    /// the transmits.
    fn drain(&mut self) -> Vec<Transmit>;
    /// If the table waits on this device's move, make it (the bot's choice).
    fn act(&mut self, now: Time) -> bool;
    fn verdict(&self) -> Option<Verdict>;
    fn halted(&self) -> Option<Fault>;
    fn step(&self) -> u32;
    fn state(&self) -> [u8; 32];
    fn events(&self) -> &[String];
    fn vote(
        &mut self,
        now: Time,
        target: Seat,
        action: hoard_net::VoteAction,
    ) -> Result<(), NetError>;
    fn wait_for(&mut self, target: Seat);
    /// This seat agrees to end the game at the step the table is at.
    fn agree_to_end(&mut self, now: Time) -> Result<(), NetError>;
    /// The step at which the table agreed to end the game, if it did.
    fn ended_by_agreement(&self) -> Option<u32>;
    /// This seat's standing choice to skip or remove `target` until it is back.
    fn go_on_without(
        &mut self,
        now: Time,
        target: Seat,
        action: hoard_net::VoteAction,
    ) -> Result<(), NetError>;
    fn skipping(&self, target: Seat) -> bool;
    /// Why the step the table is at cannot go on without `target` by `action`, if it cannot.
    fn cannot_go_on_without(&self, target: Seat, action: hoard_net::VoteAction) -> Option<String>;
    /// This seat's player says it is back (the table screen's "I'm back").
    fn back(&mut self, now: Time);
    /// The step the table last went on without this seat at, if it has not moved since.
    fn sat_out(&self) -> Option<u32>;
    fn is_away(&self, seat: Seat) -> bool;
    /// Why the seats here cannot decide for the table now, if they cannot.
    fn too_few_to_decide(&self) -> Option<String>;
    /// Where the device stands, in one line (for a failing test's report).
    fn describe(&self) -> String;
    fn pending(&self) -> Option<hoard_rules::Pending>;
    /// The game's public table, in Rust's debug form (for tests that stop at a phase).
    fn public_debug(&self) -> String;
    fn set_plays(&mut self, plays: bool);
    fn records(&self) -> Vec<hoard_net::log::StepRecord>;
    fn basis(&self) -> hoard_net::Basis;
    fn divergences(&self) -> Vec<hoard_net::core::Divergence>;
    /// Kills the device and starts it again from what it had persisted.
    fn restart(&mut self, now: Time) -> Result<(), NetError>;
    /// Powers the device off (it hears and says nothing) or back on.
    fn set_down(&mut self, down: bool);
    /// A new connection to `peer` came up (as after the peer's restart).
    fn connected(&mut self, now: Time, peer: PublicKey);
}

/// A core and the bot that plays its seat.
pub struct Bot<G: Game> {
    pub core: Core<G>,
    pub rng: ChaCha8Rng,
    /// Events, in plain debug words, for assertions.
    pub log: Vec<String>,
    /// When false the bot does not move (a seat whose player is thinking, or gone).
    pub plays: bool,
    /// What the core asked to persist, kept in memory unless `store` holds real files.
    pub disk: Saved,
    pub store: Option<hoard_net::store::SeatStore>,
    pub secret_key: SecretKey,
    pub cfg: CoreConfig<G>,
    pub down: bool,
}

impl<G: Game> Device for Bot<G> {
    fn key(&self) -> PublicKey {
        self.core.start().seats[self.core.my_seat() as usize].key
    }
    fn handle(&mut self, now: Time, from: PublicKey, bytes: &[u8]) -> Result<(), NetError> {
        if self.down {
            return Ok(());
        }
        self.core.handle_message(now, from, bytes)
    }
    fn handle_frame(
        &mut self,
        now: Time,
        from: PublicKey,
        frame: &[Vec<u8>],
    ) -> Result<(), NetError> {
        if self.down {
            return Ok(());
        }
        self.core.handle_messages(now, from, frame)
    }
    fn held(&self) -> usize {
        self.core.held()
    }
    fn inbox_bytes(&self) -> usize {
        self.disk.messages.iter().map(Vec::len).sum()
    }
    fn timeout(&mut self, now: Time) {
        if !self.down {
            self.core.handle_timeout(now)
        }
    }
    fn drain(&mut self) -> Vec<Transmit> {
        while let Some(p) = self.core.poll_persist() {
            match &mut self.store {
                Some(store) => store.persist(&p).expect("persist"),
                None => match p {
                    Persist::Message(m) | Persist::Replayable(m) => self.disk.messages.push(m),
                    Persist::Secret(s) => self.disk.secrets.push(s),
                },
            }
        }
        if let Some(store) = &mut self.store {
            store.flush().expect("flush");
        }
        while let Some(e) = self.core.poll_event() {
            self.log.push(match e {
                CoreEvent::Stepped { step, .. } => format!("Stepped {step}"),
                other => format!("{other:?}"),
            });
        }
        let mut out = Vec::new();
        while let Some(t) = self.core.poll_transmit() {
            out.push(t);
        }
        out
    }
    fn act(&mut self, now: Time) -> bool {
        if self.down || !self.plays || !self.core.my_move() {
            return false;
        }
        let seat = self.core.my_seat();
        let (Some(public), private) = (self.core.public(), self.core.private()) else {
            return false;
        };
        let Some(input) = G::bot_input(public, private, seat, &mut self.rng) else {
            return false;
        };
        self.core.submit(now, input).is_ok()
    }
    fn verdict(&self) -> Option<Verdict> {
        self.core.verdict().cloned()
    }
    fn halted(&self) -> Option<Fault> {
        self.core.halted().cloned()
    }
    fn step(&self) -> u32 {
        self.core.step()
    }
    fn state(&self) -> [u8; 32] {
        self.core.state_hash()
    }
    fn events(&self) -> &[String] {
        &self.log
    }
    fn vote(
        &mut self,
        now: Time,
        target: Seat,
        action: hoard_net::VoteAction,
    ) -> Result<(), NetError> {
        self.core.vote(now, target, action)
    }
    fn wait_for(&mut self, target: Seat) {
        self.core.wait_for(target)
    }
    fn agree_to_end(&mut self, now: Time) -> Result<(), NetError> {
        self.core.agree_to_end(now)
    }
    fn ended_by_agreement(&self) -> Option<u32> {
        self.core.ended_by_agreement()
    }
    fn go_on_without(
        &mut self,
        now: Time,
        target: Seat,
        action: hoard_net::VoteAction,
    ) -> Result<(), NetError> {
        self.core.go_on_without(now, target, action)
    }
    fn skipping(&self, target: Seat) -> bool {
        self.core.going_on_without(target).is_some()
    }
    fn cannot_go_on_without(&self, target: Seat, action: hoard_net::VoteAction) -> Option<String> {
        self.core.cannot_go_on_without(target, action)
    }
    fn back(&mut self, now: Time) {
        self.core.back(now)
    }
    fn sat_out(&self) -> Option<u32> {
        self.core.sat_out()
    }
    fn is_away(&self, seat: Seat) -> bool {
        self.core.seat_status(seat).away
    }
    fn too_few_to_decide(&self) -> Option<String> {
        self.core.too_few_to_decide()
    }
    fn describe(&self) -> String {
        self.core.describe()
    }
    fn pending(&self) -> Option<hoard_rules::Pending> {
        self.core.pending()
    }
    fn public_debug(&self) -> String {
        format!("{:?}", self.core.public())
    }
    fn set_plays(&mut self, plays: bool) {
        self.plays = plays;
    }
    fn records(&self) -> Vec<hoard_net::log::StepRecord> {
        self.core.records().to_vec()
    }
    fn basis(&self) -> hoard_net::Basis {
        self.core.basis()
    }
    fn divergences(&self) -> Vec<hoard_net::core::Divergence> {
        self.core.divergences().to_vec()
    }
    fn restart(&mut self, now: Time) -> Result<(), NetError> {
        let start = self.core.start().clone();
        let saved = match &self.store {
            Some(store) => {
                let dir = store.dir().clone();
                let (store, saved) = hoard_net::store::SeatStore::open(&dir, &start)?;
                self.store = Some(store);
                saved
            }
            None => self.disk.clone(),
        };
        let entropy = [now.0 as u8 ^ 0x5a; 32];
        self.core = Core::resume(
            saved,
            self.secret_key.clone(),
            entropy,
            now,
            self.cfg.clone(),
        )?;
        self.down = false;
        Ok(())
    }
    fn set_down(&mut self, down: bool) {
        self.down = down;
    }
    fn connected(&mut self, now: Time, peer: PublicKey) {
        self.core.peer_connected(now, peer);
    }
}

/// What a tampering hook does with one transmit: pass it on, drop it, or replace it.
pub type Tamper = Box<dyn FnMut(usize, &Transmit) -> Option<Vec<Transmit>>>;

/// The table.
pub struct Table {
    pub devices: Vec<Box<dyn Device>>,
    pub keys: Vec<SecretKey>,
    pub start: Start,
    /// (sender index, transmit), delivered in order.
    pub queue: VecDeque<(usize, Transmit)>,
    /// Everything ever sent, in order (after tampering).
    pub sent: Vec<(usize, Transmit)>,
    pub now: Time,
    /// Seen before delivery; `None` passes the transmit on unchanged.
    pub tamper: Option<Tamper>,
    /// Refusals returned by `handle_message`, by receiving device.
    pub refused: Vec<(usize, String)>,
    /// Devices whose incoming messages wait in `held_back` until released.
    pub hold: Vec<usize>,
    pub held_back: VecDeque<(usize, Transmit)>,
}

pub fn keys(n: u8, salt: u8) -> Vec<SecretKey> {
    (0..n)
        .map(|i| SecretKey::from_bytes(&[i.wrapping_mul(31).wrapping_add(salt + 1); 32]))
        .collect()
}

pub fn start_for<G: Game>(config: &G::Config, keys: &[SecretKey], nonce: u8) -> Start {
    let seats = keys
        .iter()
        .enumerate()
        .map(|(i, k)| SeatSpec {
            key: k.public(),
            name: ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"][i % 6].to_string(),
        })
        .collect();
    Start::new::<G>(config, seats, [nonce; 32]).expect("a valid start")
}

pub fn bot<G: Game>(start: &Start, key: &SecretKey, seat: u8, cfg: CoreConfig<G>) -> Box<Bot<G>> {
    let core = Core::<G>::new(
        start.clone(),
        key.clone(),
        [seat + 100; 32],
        Time(0),
        cfg.clone(),
    )
    .expect("seated");
    Box::new(Bot {
        core,
        rng: ChaCha8Rng::seed_from_u64(seat as u64 + 7),
        log: Vec::new(),
        plays: true,
        disk: Saved {
            start: Some(start.clone()),
            ..Saved::default()
        },
        store: None,
        secret_key: key.clone(),
        cfg,
        down: false,
    })
}

/// A bot whose core writes to real store files in `dir` (its accept is written at once).
pub fn stored_bot<G: Game>(
    start: &Start,
    key: &SecretKey,
    seat: u8,
    cfg: CoreConfig<G>,
    dir: &std::path::Path,
) -> Box<Bot<G>> {
    let mut b = bot(start, key, seat, cfg);
    let dir = Folder::root(Arc::new(DiskStorage::new(dir)));
    b.store = Some(hoard_net::store::SeatStore::create(&dir, start).expect("store"));
    b
}

impl Table {
    pub fn new(devices: Vec<Box<dyn Device>>, keys: Vec<SecretKey>, start: Start) -> Table {
        let mut t = Table {
            devices,
            keys,
            start,
            queue: VecDeque::new(),
            sent: Vec::new(),
            now: Time(0),
            tamper: None,
            refused: Vec::new(),
            hold: Vec::new(),
            held_back: VecDeque::new(),
        };
        for i in 0..t.devices.len() {
            t.collect(i);
        }
        t
    }

    fn index_of(&self, key: &PublicKey) -> Option<usize> {
        self.devices.iter().position(|d| d.key() == *key)
    }

    /// Carries out what device `i` asks for (its writes), and queues its transmits.
    pub fn collect(&mut self, i: usize) {
        for t in self.devices[i].drain() {
            let out = match self.tamper.as_mut() {
                Some(f) => f(i, &t).unwrap_or_else(|| vec![t]),
                None => vec![t],
            };
            for t in out {
                self.sent.push((i, t.clone()));
                self.queue.push_back((i, t));
            }
        }
    }

    /// Delivers one queued message; false if the queue was empty.
    pub fn deliver_one(&mut self) -> bool {
        let Some((from, t)) = self.queue.pop_front() else {
            return false;
        };
        let from_key = self.devices[from].key();
        if let Some(to) = self.index_of(&t.to) {
            if self.hold.contains(&to) {
                self.held_back.push_back((from, t));
                return true;
            }
            if let Err(e) = self.devices[to].handle(self.now, from_key, &t.bytes) {
                self.refused.push((to, e.to_string()));
            }
            self.collect(to);
        }
        true
    }

    /// Lets everything held back for devices in `hold` through.
    pub fn release(&mut self) {
        self.hold.clear();
        let held = std::mem::take(&mut self.held_back);
        self.queue.extend(held);
    }

    /// Sends raw bytes to device `to` as if from `from_key`.
    pub fn inject(&mut self, to: usize, from_key: PublicKey, bytes: &[u8]) -> Result<(), NetError> {
        let r = self.devices[to].handle(self.now, from_key, bytes);
        self.collect(to);
        r
    }

    /// Sends raw messages to device `to` in one frame, as if from `from_key`.
    pub fn inject_frame(
        &mut self,
        to: usize,
        from_key: PublicKey,
        frame: &[Vec<u8>],
    ) -> Result<(), NetError> {
        let r = self.devices[to].handle_frame(self.now, from_key, frame);
        self.collect(to);
        r
    }

    /// Runs until `done` holds or `limit` rounds pass: deliver everything, let bots move,
    /// and when all is quiet move the clock on by `tick` ms.
    pub fn run_until(
        &mut self,
        limit: usize,
        tick: u64,
        mut done: impl FnMut(&Table) -> bool,
    ) -> bool {
        for _ in 0..limit {
            if done(self) {
                return true;
            }
            if self.deliver_one() {
                continue;
            }
            let mut moved = false;
            for i in 0..self.devices.len() {
                if self.devices[i].act(self.now) {
                    moved = true;
                    self.collect(i);
                }
            }
            if moved {
                continue;
            }
            self.now = self.now.plus(tick);
            for i in 0..self.devices.len() {
                self.devices[i].timeout(self.now);
                self.collect(i);
            }
        }
        done(self)
    }

    /// Runs until every device has a verdict.
    pub fn finish(&mut self) -> bool {
        self.run_until(2_000_000, 100, |t| {
            t.devices.iter().all(|d| d.verdict().is_some())
        })
    }

    /// The messages device `i` has sent so far, decoded, that `pick` keeps.
    fn sent_from<T>(&self, i: usize, pick: impl Fn(Wire) -> Option<T>) -> Vec<T> {
        self.sent
            .iter()
            .filter(|(from, _)| *from == i)
            .filter_map(|(_, t)| Wire::decode(&t.bytes).ok().and_then(&pick))
            .collect()
    }

    /// Decoded signed messages sent by device `i` so far.
    pub fn signed_from(&self, i: usize) -> Vec<hoard_net::wire::Signed> {
        self.sent_from(i, |w| match w {
            Wire::Signed(s) => Some(s),
            _ => None,
        })
    }

    /// The openings device `i` has sent so far.
    pub fn openings_from(&self, i: usize) -> Vec<hoard_net::wire::Opening> {
        self.sent_from(i, |w| match w {
            Wire::Open(o) => Some(o),
            _ => None,
        })
    }
}
