//! A deterministic simulator: N cores wired through a seeded network that delays, loses,
//! reorders and duplicates messages, splits the table into partitions, and crashes devices
//! and restarts them from what their store kept. Bots play every seat. The same seed gives
//! the same run, event for event, so a failure replays exactly.
//!
//! Modelled on FoundationDB's and TigerBeetle's simulation testing: the code under test is
//! the real [`Core`]; only the world around it (clock, network, disk, crashes) is simulated.

pub mod devices;

use crate::Verdict;
use crate::core::{Core, CoreConfig, CoreEvent, Persist, Saved, Time};
use crate::identity::{PublicKey, SeatSpec, SecretKey, Start};
use crate::log::{PlayRecord, StepRecord};
use crate::store;
use crate::wire::{Hash, VoteAction};
use hoard_rules::{Game, Seat};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

/// What the network and the devices do wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Faults {
    /// Delivery delay range, ms.
    pub min_delay: u64,
    pub max_delay: u64,
    /// Per mille of messages lost.
    pub loss: u32,
    /// Per mille of messages delivered twice.
    pub duplicate: u32,
    /// Per mille of messages held back much longer than the rest (reordering).
    pub straggle: u32,
    /// How many times the table is split in two for a while.
    pub partitions: u32,
    /// How many device crashes (each restarted from its store).
    pub crashes: u32,
    /// Of those crash moments, per mille where the last messages the device had written
    /// to its store never left it.
    pub lose_unsent: u32,
    /// A seat whose device dies for good; the others vote to remove it once it is away.
    pub dead_seat: Option<Seat>,
    /// How many times every device crashes at the same moment (a power cut, a router
    /// reboot that kills every app): each comes back after its own while, from its store.
    pub blackouts: u32,
    /// When the dead seat dies, ms; `None`: at a time drawn from the seed.
    pub dead_at: Option<u64>,
    /// More seats whose devices die for good, removed the same way, each this many ms after
    /// the dead seat (0: at the same moment): seats gone at once, or one after another.
    pub more_dead: Vec<(Seat, u64)>,
    /// A seat whose device goes quiet at [`Faults::away_at`] for [`Faults::away_for`] ms
    /// and then comes back (from its store); the others skip it ("go on without") once it is
    /// away, and its device, restarted, says it is back: nobody presses "Wait".
    pub away_seat: Option<Seat>,
    /// When the away seat goes quiet, and for how long, ms.
    pub away_at: u64,
    pub away_for: u64,
    /// Per mille of steps at which each seat's player, on reaching it, also agrees to end
    /// the game there (the bots still play on): the game ends by agreement at a step where
    /// every seat so agreed, and the agreements that fall short race the step's moves.
    pub agree: u32,
}

/// Two different seats of `seats` (at least four), drawn from `rng`, whose devices may die
/// at once and leave a quorum to decide without them: at a table of four, the first seat
/// stays (two of four decide only holding it), so the table must be able to go on.
pub fn two_seats(rng: &mut ChaCha8Rng, seats: u8) -> (Seat, Seat) {
    let low = u32::from(seats <= 4);
    let n = u32::from(seats) - low;
    let first = rng.next_u32() % n;
    let second = (first + 1 + rng.next_u32() % (n - 1)) % n;
    ((first + low) as Seat, (second + low) as Seat)
}

impl Faults {
    /// Whether `seat`'s device dies for good in this game.
    pub fn dies(&self, seat: Seat) -> bool {
        self.dead_seat == Some(seat) || self.more_dead.iter().any(|(s, _)| *s == seat)
    }

    /// A perfect network: small delays, nothing lost.
    pub fn none() -> Faults {
        Faults {
            min_delay: 1,
            max_delay: 5,
            loss: 0,
            duplicate: 0,
            straggle: 0,
            partitions: 0,
            crashes: 0,
            lose_unsent: 0,
            dead_seat: None,
            blackouts: 0,
            dead_at: None,
            away_seat: None,
            away_at: 0,
            away_for: 0,
            more_dead: Vec::new(),
            agree: 0,
        }
    }

    /// A random mix of every fault, from `rng`.
    pub fn random(rng: &mut ChaCha8Rng) -> Faults {
        let pick = |rng: &mut ChaCha8Rng, lo: u64, hi: u64| lo + rng.next_u64() % (hi - lo + 1);
        Faults {
            min_delay: pick(rng, 1, 10),
            max_delay: pick(rng, 20, 120),
            loss: pick(rng, 0, 100) as u32,
            duplicate: pick(rng, 0, 50) as u32,
            straggle: pick(rng, 0, 50) as u32,
            partitions: pick(rng, 0, 2) as u32,
            crashes: pick(rng, 0, 2) as u32,
            lose_unsent: 500,
            dead_seat: None,
            // Drawn last, so the faults drawn before it are the same as before it existed.
            blackouts: rng.next_u32().is_multiple_of(4) as u32,
            dead_at: None,
            away_seat: None,
            away_at: 0,
            away_for: 0,
            more_dead: Vec::new(),
            agree: 0,
        }
    }
}

/// How one simulated game went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub seed: u64,
    pub seats: u8,
    /// Steps in the final log.
    pub steps: u32,
    /// Steps with a sealed play opened (sealed until all were in, or a reaction window).
    pub sealed_steps: u32,
    /// Steps whose sealed plays all stayed closed until the audit.
    pub closed_steps: u32,
    /// Sealed plays made and opened: one per seat per sealed step it took part in.
    pub sealed_plays: u32,
    /// Sealed plays kept closed until the audit.
    pub closed_plays: u32,
    /// Steps of a shared hidden deck (shuffles, deals, reveals), and of them shuffles.
    pub deck_steps: u32,
    pub shuffles: u32,
    /// Hidden cards passed from one seat to another.
    pub passed: u32,
    /// Messages and bytes handed to the network (echoes and syncs included).
    pub messages: u64,
    pub bytes: u64,
    /// Simulated time the game took, ms.
    pub sim_time: u64,
    pub crashes: u32,
    /// The fsyncs every device's store would have made (one per durable file a flush
    /// touched), all devices together.
    pub fsyncs: u64,
    /// Every device's verdict, by seat (a dead seat's is `None`).
    pub verdicts: Vec<Option<Verdict>>,
    /// Every device's final state hash, by seat.
    pub final_states: Vec<Option<Hash>>,
    pub divergences: usize,
    /// Bytes sent by kind of message, when [`Sim::tally`] was asked for.
    pub tally: Option<Tally>,
    /// By seat: the input steps at which the table skipped it, and at which it sat out
    /// removed.
    pub skipped: Vec<u32>,
    pub removed: Vec<u32>,
    /// By seat: whether it made a move after the table had skipped it.
    pub returned: Vec<bool>,
    /// The step at which the table agreed to end the game, if it did.
    pub ended_by_agreement: Option<u32>,
}

/// Every device's core at the end of a simulated game, by seat (`None` for a dead seat).
pub type Cores<G> = Vec<Option<Core<G>>>;

/// The away-seat story the real games' simulator tests play at 4 seats: seat 3 dies for
/// good early; seat 1 goes quiet after the table removed seat 3 (a seat away cannot vote,
/// and the table goes on without a seat only when every other seat still in agrees), and
/// comes back while the game is still on. Devices count a seat away after
/// [`AWAY_STORY_AFTER`] ms. [`Report::away_story`] checks how it went.
pub fn away_story() -> Faults {
    Faults {
        away_seat: Some(AWAY_STORY_SEATS.0),
        away_at: 500,
        away_for: 400,
        dead_seat: Some(AWAY_STORY_SEATS.1),
        dead_at: Some(100),
        ..Faults::none()
    }
}

/// The away and the dead seat of [`away_story`].
pub const AWAY_STORY_SEATS: (Seat, Seat) = (1, 3);

/// How long a seat owes the table before it counts as away, in [`away_story`] (ms).
pub const AWAY_STORY_AFTER: u64 = 200;

impl Report {
    /// Checks how a game played with [`away_story`] went: the away seat was skipped and
    /// played again, the dead one was removed, and every other device's audit verified.
    /// `Ok` tells the story in a line.
    pub fn away_story(&self) -> Result<String, String> {
        let (away, dead) = AWAY_STORY_SEATS;
        let seed = self.seed;
        let (a, d) = (away as usize, dead as usize);
        let line = format!(
            "seed {seed}: {} steps in {} simulated ms; seat {away} sat out {} steps, back: {}; seat {dead} removed at {} steps",
            self.steps, self.sim_time, self.skipped[a], self.returned[a], self.removed[d]
        );
        if self.skipped[a] == 0 {
            return Err(format!("{line}: seat {away} was never skipped"));
        }
        if !self.returned[a] {
            return Err(format!("{line}: seat {away} never played again"));
        }
        if self.removed[d] == 0 {
            return Err(format!("{line}: seat {dead} was never removed"));
        }
        for (seat, verdict) in self.verdicts.iter().enumerate() {
            if seat != d && !verdict.as_ref().is_some_and(|v| v.is_verified()) {
                return Err(format!("{line}: seat {seat}'s audit: {verdict:?}"));
            }
        }
        Ok(line)
    }
}

/// What was handed to the network, by kind of message (echoes and resends included).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Every message sent, by what it is ("Commit", "Open", "Holding", "Hello", ...): how
    /// many, and their bytes.
    pub by_kind: std::collections::BTreeMap<&'static str, (u64, u64)>,
    /// The size of one commitment message and one opening, as sent.
    pub commit_size: usize,
    pub opening_size: usize,
}

impl Tally {
    /// The bytes of the messages of these kinds.
    pub fn bytes(&self, kinds: &[&str]) -> u64 {
        kinds
            .iter()
            .filter_map(|k| self.by_kind.get(k))
            .map(|(_, bytes)| bytes)
            .sum()
    }

    /// The bytes of every message.
    pub fn total_bytes(&self) -> u64 {
        self.by_kind.values().map(|(_, bytes)| bytes).sum()
    }

    /// Adds `other`'s counts to these (the sizes of one commitment and one opening are
    /// taken from `other`).
    pub fn add(&mut self, other: &Tally) {
        self.commit_size = other.commit_size;
        self.opening_size = other.opening_size;
        for (kind, (n, bytes)) in &other.by_kind {
            let e = self.by_kind.entry(kind).or_default();
            e.0 += n;
            e.1 += bytes;
        }
    }
}

/// A short name for what a message is, for the tally.
fn kind_name(wire: &crate::wire::Wire) -> &'static str {
    use crate::wire::{Kind, Wire};
    match wire {
        Wire::Link(_) => "Link",
        Wire::Hello(_) => "Hello",
        Wire::Holding(_) => "Holding",
        Wire::Open(_) => "Open",
        Wire::Signed(s) => match s.kind() {
            Kind::Accept => "Accept",
            Kind::Input => "Input",
            Kind::Commit => "Commit",
            Kind::Vote(_) => "Vote",
            Kind::Head => "Head",
            Kind::Reveal => "Reveal",
            Kind::Back => "Back",
            Kind::End => "End",
            Kind::Deck => "Deck",
            Kind::Escrow => "Escrow",
            Kind::Complaint => "Complaint",
        },
    }
}

/// A device's disk: the store's append-only files, byte for byte as
/// [`crate::store::SeatStore`] writes them, so restarts go through the real readers.
#[derive(Clone)]
struct Disk {
    start: Start,
    log: Vec<u8>,
    secrets: Vec<u8>,
    /// The messages kept without an fsync (peers', and the seat's commitments, openings and
    /// links).
    inbox: Vec<u8>,
    /// Where the last flushed batch began in each file.
    batch_from: (usize, usize),
    /// Where each of the last few batches began in the inbox.
    inbox_marks: VecDeque<usize>,
    /// The fsyncs a real store would have made: one per durable file a flush touched.
    fsyncs: u64,
}

/// How many of its last batches a crash may take from the inbox.
const INBOX_LOSS: usize = 8;

impl Disk {
    fn new(start: Start) -> Disk {
        Disk {
            start,
            log: store::LOG_MAGIC.to_vec(),
            secrets: store::SECRETS_MAGIC.to_vec(),
            inbox: store::INBOX_MAGIC.to_vec(),
            batch_from: (store::LOG_MAGIC.len(), store::SECRETS_MAGIC.len()),
            inbox_marks: VecDeque::new(),
            fsyncs: 0,
        }
    }

    /// One flush: every record the core asked for since the last one.
    fn flush(&mut self, records: Vec<Persist>) {
        self.batch_from = (self.log.len(), self.secrets.len());
        self.inbox_marks.push_back(self.inbox.len());
        if self.inbox_marks.len() > INBOX_LOSS {
            self.inbox_marks.pop_front();
        }
        let log = records.iter().any(|p| matches!(p, Persist::Message(_)));
        let secrets = records.iter().any(|p| matches!(p, Persist::Secret(_)));
        self.fsyncs += u64::from(log) + u64::from(secrets);
        for p in records {
            match p {
                Persist::Message(b) => store::frame(&mut self.log, &b),
                Persist::Replayable(b) => store::frame(&mut self.inbox, &b),
                Persist::Secret(s) => store::frame(
                    &mut self.secrets,
                    &postcard::to_stdvec(&s).unwrap_or_default(),
                ),
            }
        }
    }

    /// A crash: the inbox, never fsync'd, loses what its last few batches wrote, from one
    /// of them on (chosen by `r`), whatever the log kept.
    fn lose_inbox(&mut self, r: u64) {
        if !self.inbox_marks.is_empty() {
            let k = (r % self.inbox_marks.len() as u64) as usize;
            self.inbox.truncate(self.inbox_marks[k]);
            self.inbox_marks.truncate(k);
        }
    }

    /// A crash in the middle of the last flush: the secrets file is written first, then
    /// the log, and everything from byte `cut` of that batch on never reached the disk.
    fn tear(&mut self, cut: u64) {
        let (log_from, secrets_from) = self.batch_from;
        let in_secrets = self.secrets.len() - secrets_from;
        let total = in_secrets + (self.log.len() - log_from);
        if total == 0 {
            return;
        }
        let cut = (cut % total as u64) as usize;
        if cut < in_secrets {
            self.secrets.truncate(secrets_from + cut);
            self.log.truncate(log_from);
        } else {
            self.log.truncate(log_from + cut - in_secrets);
        }
    }

    /// What a restarted device reads back (trimming any torn tail, as the store does).
    fn read(&mut self) -> Result<Saved, String> {
        let (mut messages, log_torn) = store::read_log(&self.log).map_err(|e| e.to_string())?;
        let (received, inbox_torn) = store::read_inbox(&self.inbox).map_err(|e| e.to_string())?;
        messages.extend(received);
        if let Some(at) = inbox_torn {
            self.inbox.truncate(at.max(store::INBOX_MAGIC.len()));
        }
        let (secrets, secrets_torn) =
            store::read_secrets(&self.secrets).map_err(|e| e.to_string())?;
        if let Some(at) = log_torn {
            self.log.truncate(at.max(store::LOG_MAGIC.len()));
        }
        if let Some(at) = secrets_torn {
            self.secrets.truncate(at.max(store::SECRETS_MAGIC.len()));
        }
        Ok(Saved {
            start: Some(self.start.clone()),
            messages,
            secrets,
        })
    }

    fn records(&self) -> usize {
        self.log.len() + self.secrets.len() + self.inbox.len()
    }
}

struct Node<G: Game> {
    key: SecretKey,
    core: Option<Core<G>>,
    disk: Disk,
    bot: ChaCha8Rng,
    /// The generation of this node's scheduled wake-up (older ones are stale).
    wake_gen: u64,
    wake_at: Option<Time>,
    think_at: Option<Time>,
    /// Which batch of sends the node's last drive produced.
    batch: u64,
    dead: bool,
    voted: Vec<(u32, Seat)>,
    /// Bytes on disk after the last drive.
    written: usize,
    /// The drive whose flush is the last on disk.
    flushed: u64,
    /// The latest drive of which some send has been delivered.
    delivered: u64,
    /// The last step at which the player chose whether to agree to end the game.
    end_decided: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Ev {
    Deliver {
        to: Seat,
        from: Seat,
        batch: u64,
        bytes: Vec<u8>,
    },
    Wake {
        node: Seat,
        generation: u64,
    },
    Think {
        node: Seat,
    },
    /// The player agrees to end the game at the step its device is at.
    Agree {
        node: Seat,
    },
    Crash {
        node: Seat,
        down_for: u64,
    },
    Restart {
        node: Seat,
    },
    Split {
        side: u8,
        until: u64,
    },
}

/// One simulated table.
pub struct Sim<G: Game> {
    seed: u64,
    faults: Faults,
    cfg: CoreConfig<G>,
    nodes: Vec<Node<G>>,
    keys: Vec<PublicKey>,
    queue: BinaryHeap<Reverse<(Time, u64, Ev)>>,
    seq: u64,
    now: Time,
    net: ChaCha8Rng,
    /// A bit per seat: seats on the other side of a partition, until when.
    split: Option<(u8, u64)>,
    messages: u64,
    bytes: u64,
    crashes: u32,
    divergences: usize,
    tally: Option<Tally>,
    trace: bool,
    failure: Option<String>,
}

/// The longest a simulated game may take before it counts as stuck (simulated ms).
pub const TIME_LIMIT: u64 = 6 * 3600 * 1000;

/// The step from which every seat's player has had enough and agrees to end the game, and
/// its bot stops playing: what a table of people does about a game the rules let run for
/// ever (GreedQuest's Room 9 lock, see [`hoard_rules::greedquest`]). Whole games end well
/// before it (the longest the long run plays out, a SPAMMERS game, takes 507 steps), so a
/// game that reaches it is one that goes round in circles, and [`Report::ended_by_agreement`]
/// says so.
pub const PATIENCE: u32 = 3_000;

fn derive(seed: u64, label: &str, n: u64) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 simulator");
    h.update(&seed.to_le_bytes());
    h.update(label.as_bytes());
    h.update(&n.to_le_bytes());
    *h.finalize().as_bytes()
}

impl<G: Game> Sim<G> {
    /// A table of `config`'s seats, every seat a bot, with faults from `faults`.
    pub fn new(
        config: &G::Config,
        seats: u8,
        faults: Faults,
        seed: u64,
        cfg: CoreConfig<G>,
    ) -> Result<Sim<G>, String> {
        let keys: Vec<SecretKey> = (0..seats)
            .map(|s| SecretKey::from_bytes(&derive(seed, "key", s as u64)))
            .collect();
        let specs = keys
            .iter()
            .enumerate()
            .map(|(i, k)| SeatSpec {
                key: k.public(),
                name: format!("Bot {}", i + 1),
            })
            .collect();
        let start =
            Start::new::<G>(config, specs, derive(seed, "nonce", 0)).map_err(|e| e.to_string())?;
        let mut sim = Sim {
            seed,
            cfg,
            keys: keys.iter().map(|k| k.public()).collect(),
            nodes: Vec::new(),
            queue: BinaryHeap::new(),
            seq: 0,
            now: Time(0),
            net: ChaCha8Rng::from_seed(derive(seed, "network", 0)),
            split: None,
            messages: 0,
            bytes: 0,
            crashes: 0,
            divergences: 0,
            tally: None,
            trace: false,
            failure: None,
            faults,
        };
        for (i, key) in keys.into_iter().enumerate() {
            let bot = ChaCha8Rng::from_seed(derive(seed, "bot", i as u64));
            let core = Core::new(
                start.clone(),
                key.clone(),
                derive(seed, "entropy", i as u64),
                Time(0),
                sim.cfg.clone(),
            )
            .map_err(|e| e.to_string())?;
            sim.nodes.push(Node {
                key,
                core: Some(core),
                disk: Disk::new(start.clone()),
                bot,
                wake_gen: 0,
                wake_at: None,
                think_at: None,
                batch: 0,
                dead: false,
                voted: Vec::new(),
                written: 0,
                flushed: 0,
                delivered: 0,
                end_decided: None,
            });
        }
        // Schedule the world's faults up front, from the seed.
        let mut plan = ChaCha8Rng::from_seed(derive(seed, "plan", 0));
        for _ in 0..sim.faults.partitions {
            let at = 200 + plan.next_u64() % 20_000;
            let len = 300 + plan.next_u64() % 4_000;
            let side = (plan.next_u32() % ((1u32 << seats) - 2) + 1) as u8;
            sim.push(
                Time(at),
                Ev::Split {
                    side,
                    until: at + len,
                },
            );
        }
        for _ in 0..sim.faults.crashes {
            let at = 100 + plan.next_u64() % 30_000;
            let node = (plan.next_u32() % seats as u32) as Seat;
            let down_for = 50 + plan.next_u64() % 3_000;
            sim.push(Time(at), Ev::Crash { node, down_for });
        }
        for _ in 0..sim.faults.blackouts {
            // Early, so that short games have one too.
            let at = 100 + plan.next_u64() % 1_000;
            for node in 0..seats {
                let down_for = 50 + plan.next_u64() % 3_000;
                sim.push(Time(at), Ev::Crash { node, down_for });
            }
        }
        if let Some(dead) = sim.faults.dead_seat {
            let drawn = 500 + plan.next_u64() % 5_000;
            let at = sim.faults.dead_at.unwrap_or(drawn);
            sim.push(
                Time(at),
                Ev::Crash {
                    node: dead,
                    down_for: u64::MAX,
                },
            );
            for (node, after) in sim.faults.more_dead.clone() {
                sim.push(
                    Time(at + after),
                    Ev::Crash {
                        node,
                        down_for: u64::MAX,
                    },
                );
            }
        }
        if let Some(away) = sim.faults.away_seat {
            let down_for = sim.faults.away_for;
            sim.push(
                Time(sim.faults.away_at),
                Ev::Crash {
                    node: away,
                    down_for,
                },
            );
        }
        for i in 0..seats {
            sim.drive(i);
        }
        Ok(sim)
    }

    /// Count bytes by kind of message (decodes every send: for measuring, not testing).
    pub fn tally(&mut self, on: bool) {
        self.tally = on.then(Tally::default);
    }

    /// Print every delivery and event (for replaying a failing seed).
    pub fn trace(&mut self, on: bool) {
        self.trace = on;
    }

    fn push(&mut self, at: Time, ev: Ev) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, ev)));
    }

    fn roll(&mut self, per_mille: u32) -> bool {
        per_mille > 0 && self.net.next_u32() % 1000 < per_mille
    }

    fn delay(&mut self) -> u64 {
        let (lo, hi) = (
            self.faults.min_delay,
            self.faults.max_delay.max(self.faults.min_delay),
        );
        let mut d = lo + self.net.next_u64() % (hi - lo + 1);
        if self.roll(self.faults.straggle) {
            d += 200 + self.net.next_u64() % 2_000;
        }
        d
    }

    fn blocked(&self, a: Seat, b: Seat) -> bool {
        match self.split {
            Some((side, until)) if self.now.0 < until => ((side >> a) & 1) != ((side >> b) & 1),
            _ => false,
        }
    }

    /// Carries out what node `i`'s core asks: writes, then sends, then events, then timers.
    fn drive(&mut self, i: Seat) {
        let now = self.now;
        let idx = i as usize;
        self.nodes[idx].batch += 1;
        let batch = self.nodes[idx].batch;
        let mut sends = Vec::new();
        let mut events = Vec::new();
        {
            let node = &mut self.nodes[idx];
            let Some(core) = node.core.as_mut() else {
                return;
            };
            // Write before send: everything persisted now is on "disk" before any send.
            let mut batch = Vec::new();
            while let Some(p) = core.poll_persist() {
                batch.push(p);
            }
            if !batch.is_empty() {
                node.disk.flush(batch);
                node.flushed = node.batch;
            }
            while let Some(t) = core.poll_transmit() {
                sends.push(t);
            }
            while let Some(e) = core.poll_event() {
                events.push(e);
            }
        }
        // A repeat the core dropped changes nothing: no timers or moves to look at.
        let wrote = self.nodes[idx].disk.records() != self.nodes[idx].written;
        if !wrote && sends.is_empty() && events.is_empty() && self.nodes[idx].wake_at.is_some() {
            return;
        }
        self.nodes[idx].written = self.nodes[idx].disk.records();
        for t in sends {
            let to_bytes = t.to.as_bytes();
            let Some(to) = self.keys.iter().position(|k| k.as_bytes() == to_bytes) else {
                continue;
            };
            self.messages += 1;
            self.bytes += t.bytes.len() as u64;
            if let Some(tally) = self.tally.as_mut() {
                let len = t.bytes.len();
                let kind = crate::wire::Wire::decode(&t.bytes)
                    .as_ref()
                    .map_or("Undecodable", kind_name);
                match kind {
                    "Commit" => tally.commit_size = len,
                    "Open" => tally.opening_size = len,
                    _ => {}
                }
                let e = tally.by_kind.entry(kind).or_default();
                e.0 += 1;
                e.1 += len as u64;
            }

            if self.blocked(i, to as Seat) || self.roll(self.faults.loss) {
                continue;
            }
            if self.roll(self.faults.duplicate) {
                let at = now.plus(self.delay());
                let bytes = t.bytes.clone();
                self.push(
                    at,
                    Ev::Deliver {
                        to: to as Seat,
                        from: i,
                        batch,
                        bytes,
                    },
                );
            }
            let at = now.plus(self.delay());
            self.push(
                at,
                Ev::Deliver {
                    to: to as Seat,
                    from: i,
                    batch,
                    bytes: t.bytes,
                },
            );
        }
        // A vote made below is sent by another drive, at once (not at the next timer).
        let mut voted = false;
        for e in events {
            if self.trace {
                println!("{:>8} seat {i}: {e:?}", now.0);
            }
            match e {
                CoreEvent::Diverged(d) => {
                    self.divergences += 1;
                    self.fail(format!(
                        "seat {i} saw seat {} diverge at step {}",
                        d.seat, d.step
                    ));
                }
                CoreEvent::Halted(f) => self.fail(format!("seat {i} halted: {}", f.what)),
                CoreEvent::Away { seat } if self.faults.dies(seat) => {
                    self.vote_remove(i, seat);
                    voted = true;
                }
                CoreEvent::Away { seat } if Some(seat) == self.faults.away_seat => {
                    if let Some(core) = self.nodes[idx].core.as_mut() {
                        // Refused only where the table has already moved on.
                        let _ = core.go_on_without(now, seat, VoteAction::Skip);
                        voted = true;
                    }
                }
                _ => {}
            }
        }
        let node = &mut self.nodes[idx];
        let Some(core) = node.core.as_ref() else {
            return;
        };
        if let Some(t) = core.poll_timeout()
            && node.wake_at.is_none_or(|w| t < w || w <= now)
        {
            node.wake_gen += 1;
            node.wake_at = Some(t);
            let generation = node.wake_gen;
            self.push(
                t.max(now),
                Ev::Wake {
                    node: i,
                    generation,
                },
            );
        }
        // The dead seat is still away at a later step (a vote that raced its last move
        // failed, and no new "away" comes while it stays away): vote again at this step.
        let dead: Vec<Seat> = self
            .faults
            .dead_seat
            .into_iter()
            .chain(self.faults.more_dead.iter().map(|(s, _)| *s))
            .collect();
        for dead in dead {
            if dead != i
                && self.nodes[idx].core.as_ref().is_some_and(|c| {
                    let status = c.seat_status(dead);
                    status.away && status.owed && !status.removed
                })
            {
                self.vote_remove(i, dead);
            }
        }
        // A step reached for the first time: the player may agree to end the game here.
        let reached = self.nodes[idx].core.as_ref().and_then(|c| {
            let open = c.began() && !matches!(c.pending(), Some(hoard_rules::Pending::Over(_)));
            open.then(|| c.step())
        });
        if let Some(step) = reached
            && self.nodes[idx].end_decided.is_none_or(|d| d < step)
        {
            self.nodes[idx].end_decided = Some(step);
            if self.roll(self.faults.agree) || step >= PATIENCE {
                let at = now.plus(1 + self.net.next_u64() % 40);
                self.push(at, Ev::Agree { node: i });
            }
        }
        let node = &mut self.nodes[idx];
        if node.think_at.is_none()
            && node
                .core
                .as_ref()
                .is_some_and(|c| c.my_move() && c.step() < PATIENCE)
        {
            let at = now.plus(1 + node.bot.next_u64() % 40);
            node.think_at = Some(at);
            self.push(at, Ev::Think { node: i });
        }
        if voted {
            self.drive(i);
        }
    }

    fn vote_remove(&mut self, i: Seat, target: Seat) {
        let now = self.now;
        let node = &mut self.nodes[i as usize];
        let Some(core) = node.core.as_mut() else {
            return;
        };
        let step = core.step();
        if node.voted.contains(&(step, target)) {
            return;
        }
        if core.vote(now, target, VoteAction::Remove).is_ok() {
            node.voted.push((step, target));
        }
    }

    fn fail(&mut self, why: String) {
        if self.failure.is_none() {
            self.failure = Some(why);
        }
    }

    fn finished(&self) -> bool {
        self.nodes
            .iter()
            .all(|n| n.dead || n.core.as_ref().is_some_and(|c| c.verdict().is_some()))
    }

    /// Runs the game to its end (every live device has its audit verdict) and checks that
    /// every device agrees. An `Err` names the seed and what went wrong.
    pub fn run(mut self) -> Result<Report, String> {
        self.run_on()
    }

    /// [`Sim::run`], keeping every device's core as the game left it (a dead seat's is
    /// `None`): what a test reads the end of a game from.
    pub fn run_keeping(mut self) -> Result<(Report, Cores<G>), String> {
        let report = self.run_on()?;
        Ok((report, self.nodes.into_iter().map(|n| n.core).collect()))
    }

    fn run_on(&mut self) -> Result<Report, String> {
        while !self.finished() && self.failure.is_none() {
            let Some(Reverse((at, _, ev))) = self.queue.pop() else {
                self.fail("nothing left to happen but the game is not over".into());
                break;
            };
            if at.0 > TIME_LIMIT {
                if self.trace {
                    for (i, n) in self.nodes.iter().enumerate() {
                        if let Some(c) = n.core.as_ref() {
                            let seats: Vec<String> = (0..self.nodes.len() as Seat)
                                .map(|s| format!("{s}:{:?}", c.seat_status(s)))
                                .collect();
                            println!(
                                "seat {i} at step {} {:?}: {}",
                                c.step(),
                                c.pending(),
                                seats.join(" ")
                            );
                        }
                    }
                }
                self.fail("the game did not finish in six simulated hours".into());
                break;
            }
            self.now = self.now.max(at);
            self.step(ev);
        }
        self.check()
    }

    fn step(&mut self, ev: Ev) {
        let now = self.now;
        match ev {
            Ev::Deliver {
                to,
                from,
                bytes,
                batch,
            } => {
                if self.blocked(from, to) {
                    return;
                }
                let sender = &mut self.nodes[from as usize];
                sender.delivered = sender.delivered.max(batch);
                let from_key = self.keys[from as usize];
                let Some(core) = self.nodes[to as usize].core.as_mut() else {
                    return;
                };
                if let Err(e) = core.handle_message(now, from_key, &bytes) {
                    self.fail(format!(
                        "seat {to} refused a message from honest seat {from}: {e}"
                    ));
                }
                self.drive(to);
            }
            Ev::Wake { node, generation } => {
                let n = &mut self.nodes[node as usize];
                if n.wake_gen != generation {
                    return;
                }
                n.wake_at = None;
                let Some(core) = n.core.as_mut() else { return };
                core.handle_timeout(now);
                self.drive(node);
            }
            Ev::Think { node } => {
                let n = &mut self.nodes[node as usize];
                n.think_at = None;
                let Some(core) = n.core.as_mut() else { return };
                if !core.my_move() {
                    return;
                }
                let seat = core.my_seat();
                let (Some(public), private) = (core.public(), core.private()) else {
                    return;
                };
                let Some(input) = G::bot_input(public, private, seat, &mut n.bot) else {
                    self.fail(format!("seat {node}'s bot found no move"));
                    return;
                };
                if let Err(e) = core.submit(now, input) {
                    self.fail(format!("seat {node}'s bot move was refused: {e}"));
                }
                self.drive(node);
            }
            Ev::Agree { node } => {
                let Some(core) = self.nodes[node as usize].core.as_mut() else {
                    return;
                };
                // The table may have moved on (or ended) since: the agreement is then for
                // the step the device is at now, or refused, as a late tap would be.
                let _ = core.agree_to_end(now);
                self.drive(node);
            }
            Ev::Crash { node, down_for } => {
                let lose = self.roll(self.faults.lose_unsent);
                let n = &mut self.nodes[node as usize];
                if n.core.is_none() {
                    return;
                }
                n.core = None;
                n.think_at = None;
                n.wake_at = None;
                n.wake_gen += 1;
                let (delivered, batch) = (n.delivered, n.batch);
                self.crashes += 1;
                let r = self.net.next_u64();
                self.nodes[node as usize].disk.lose_inbox(r);
                if self.trace {
                    println!("{:>8} seat {node}: CRASH (lose unsent: {lose})", now.0);
                }
                // The device died inside its last drive: part of that flush never reached
                // the disk, and none of its sends left. (Once one of them has arrived, the
                // flush before it was complete.)
                if lose && delivered < batch {
                    let cut = self.net.next_u64();
                    let n = &mut self.nodes[node as usize];
                    if n.flushed == n.batch {
                        n.disk.tear(cut);
                    }
                    let batch = n.batch;
                    let kept: Vec<_> = std::mem::take(&mut self.queue)
                        .into_iter()
                        .filter(|Reverse((_, _, ev))| {
                            !matches!(ev, Ev::Deliver { from, batch: b, .. } if *from == node && *b == batch)
                        })
                        .collect();
                    self.queue = kept.into_iter().collect();
                }
                if down_for == u64::MAX {
                    self.nodes[node as usize].dead = true;
                } else {
                    self.push(now.plus(down_for), Ev::Restart { node });
                }
            }
            Ev::Restart { node } => {
                let entropy = derive(self.seed, "restart entropy", self.seq);
                let n = &mut self.nodes[node as usize];
                // Votes it made and had not yet sent died with it: it may make them again.
                n.voted.clear();
                let saved = match n.disk.read() {
                    Ok(saved) => saved,
                    Err(e) => {
                        self.fail(format!("seat {node}'s store could not be read: {e}"));
                        return;
                    }
                };
                match Core::resume(saved, n.key.clone(), entropy, now, self.cfg.clone()) {
                    Ok(core) => n.core = Some(core),
                    Err(e) => {
                        self.fail(format!("seat {node} could not restart from its store: {e}"));
                        return;
                    }
                }
                if self.trace {
                    println!("{:>8} seat {node}: RESTART", now.0);
                }
                // Its links come up anew, as a restarted device's connections do: each side
                // learns the other may have lost what went over the old one (a peer that
                // had gone ahead and lost it in the crash is no longer taken to be ahead).
                let keys = self.keys.clone();
                for other in 0..self.nodes.len() {
                    if other == node as usize || self.nodes[other].core.is_none() {
                        continue;
                    }
                    if let Some(c) = self.nodes[other].core.as_mut() {
                        c.peer_connected(now, keys[node as usize]);
                    }
                    if let Some(c) = self.nodes[node as usize].core.as_mut() {
                        c.peer_connected(now, keys[other]);
                    }
                    self.drive(other as Seat);
                }
                // The away seat's player is back with it: its core says so by itself once
                // it has caught up and sees the table went on without it, which ends the
                // others' standing skips. Nobody else presses "Wait".
                self.drive(node);
            }
            Ev::Split { side, until } => {
                self.split = Some((side, until));
                if self.trace {
                    println!("{:>8} PARTITION {side:#b} until {until}", now.0);
                }
            }
        }
    }

    /// Where every device stands, for a trace.
    fn dump(&self) {
        for (i, n) in self.nodes.iter().enumerate() {
            let Some(c) = n.core.as_ref() else {
                println!("seat {i}: down (dead: {})", n.dead);
                continue;
            };
            println!("seat {i}: {}", c.describe());
        }
    }

    fn check(&mut self) -> Result<Report, String> {
        if self.trace && self.failure.is_some() {
            self.dump();
        }
        let seed = self.seed;
        let fail = |why: String| Err(format!("seed {seed}: {why}"));
        if let Some(why) = self.failure.clone() {
            return fail(why);
        }
        let live: Vec<&Core<G>> = self
            .nodes
            .iter()
            .filter(|n| !n.dead)
            .filter_map(|n| n.core.as_ref())
            .collect();
        let Some(first) = live.first() else {
            return fail("no device finished".into());
        };
        for c in &live {
            if c.basis() != first.basis() {
                return fail(format!(
                    "seat {} ended on another log or state than seat {}",
                    c.my_seat(),
                    first.my_seat()
                ));
            }
            match c.verdict() {
                Some(v) if v.is_verified() => {}
                other => return fail(format!("seat {}'s audit: {other:?}", c.my_seat())),
            }
        }
        // Sealed plays opened and kept closed, and the steps that had any of them (those
        // with none opened counted apart).
        let (mut sealed_plays, mut closed_plays, mut sealed_steps, mut closed_steps) =
            (0u32, 0u32, 0u32, 0u32);
        for r in first.records() {
            let StepRecord::Inputs { plays, .. } = r else {
                continue;
            };
            let count = |opened: bool| {
                plays
                    .iter()
                    .filter(|(_, p)| match p {
                        PlayRecord::Opened { .. } => opened,
                        PlayRecord::Closed { .. } => !opened,
                        _ => false,
                    })
                    .count() as u32
            };
            let (opened, closed) = (count(true), count(false));
            sealed_plays += opened;
            closed_plays += closed;
            if opened > 0 {
                sealed_steps += 1;
            } else if closed > 0 {
                closed_steps += 1;
            }
        }
        let (mut deck_steps, mut shuffles, mut passed) = (0, 0, 0);
        for r in first.records() {
            match r {
                StepRecord::Deck { parts, .. } => {
                    deck_steps += 1;
                    if parts
                        .iter()
                        .any(|(_, p)| matches!(p, crate::mental::table::DeckRecord::Shuffle { .. }))
                    {
                        shuffles += 1;
                    }
                }
                StepRecord::Inputs { passed: p, .. } => {
                    passed += p.iter().map(|(_, c)| c.len() as u32).sum::<u32>();
                }
                _ => {}
            }
        }
        let seats = self.nodes.len();
        let (mut skipped, mut removed) = (vec![0u32; seats], vec![0u32; seats]);
        let mut returned = vec![false; seats];
        for record in first.records() {
            let StepRecord::Inputs { plays, .. } = record else {
                continue;
            };
            for (seat, play) in plays {
                let s = *seat as usize;
                match play {
                    PlayRecord::SatOut => skipped[s] += 1,
                    PlayRecord::Removed => removed[s] += 1,
                    _ if skipped[s] > 0 => returned[s] = true,
                    _ => {}
                }
            }
        }
        Ok(Report {
            seed,
            seats: self.nodes.len() as u8,
            steps: first.step(),
            sealed_steps,
            closed_steps,
            sealed_plays,
            closed_plays,
            deck_steps,
            shuffles,
            passed,
            messages: self.messages,
            bytes: self.bytes,
            sim_time: self.now.0,
            crashes: self.crashes,
            fsyncs: self.nodes.iter().map(|n| n.disk.fsyncs).sum(),
            verdicts: self
                .nodes
                .iter()
                .map(|n| n.core.as_ref().and_then(|c| c.verdict().cloned()))
                .collect(),
            final_states: self
                .nodes
                .iter()
                .map(|n| n.core.as_ref().map(|c| c.state_hash()))
                .collect(),
            divergences: self.divergences,
            tally: self.tally.clone(),
            skipped,
            removed,
            returned,
            ended_by_agreement: first.ended_by_agreement(),
        })
    }
}

/// The device settings of a simulated table where every seat is a bot: quick away and
/// resync timers, short beacon chains, signatures checked once for all devices (`memo`),
/// the game's own way of sitting a seat out, and every answer to a play held to the end of
/// its window, as a bot's is.
pub fn bot_table<G: Game>(memo: &crate::wire::SignatureMemo) -> CoreConfig<G> {
    CoreConfig {
        away_after: 5_000,
        resync_after: 1_000,
        chain_len: 16,
        sit_out: Some(<G as Game>::sit_out),
        memo: Some(memo.clone()),
        reaction: crate::core::ReactionTiming {
            hold_to_end: true,
            ..crate::core::ReactionTiming::default()
        },
    }
}

/// Plays one seeded game of `G` with `seats` seats and `faults`; the seed fixes everything.
pub fn play<G: Game>(
    config: &G::Config,
    seats: u8,
    faults: Faults,
    seed: u64,
    cfg: CoreConfig<G>,
    trace: bool,
) -> Result<Report, String> {
    let mut sim =
        Sim::<G>::new(config, seats, faults, seed, cfg).map_err(|e| format!("seed {seed}: {e}"))?;
    sim.trace(trace);
    sim.run()
}

/// The seed to replay, from `HOARD_SIM_SEED`, if set.
pub fn replay_seed() -> Option<u64> {
    std::env::var("HOARD_SIM_SEED").ok()?.trim().parse().ok()
}

/// Plays the games of `seeds` with `game`, and fails at the end naming every seed that
/// failed and how to replay it (`test`: the replaying test's path in the crate's test
/// binary). Returns the games played and their steps.
pub fn run_seeds(
    seeds: impl Iterator<Item = u64>,
    test: &str,
    mut game: impl FnMut(u64) -> Result<Report, String>,
) -> (u64, u64) {
    let (mut games, mut steps) = (0, 0);
    let mut failed = Vec::new();
    for seed in seeds {
        match game(seed) {
            Ok(r) => {
                games += 1;
                steps += u64::from(r.steps);
            }
            Err(e) => failed.push(format!(
                "{e}\nreplay: HOARD_SIM_SEED={seed} cargo test -p hoard-net --test all {test} -- --nocapture"
            )),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} games failed:\n{}",
        failed.len(),
        games + failed.len() as u64,
        failed.join("\n")
    );
    (games, steps)
}
