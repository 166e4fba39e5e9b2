//! The simulator one floor up: whole devices ([`Device`] machines), each with its own
//! storage in memory, on a seeded network of links that come up, carry frames in order,
//! break, get cut by partitions and blackouts, and devices that crash and come back from
//! what their storage kept. Simulated people play them as the app's screens would: a host
//! opens a table, guests find it (a simulated mDNS) and sit down by tap or by code, a
//! passer-by sits down and leaves again, the host starts, the game plays (each person's
//! seat on autoplay), a shared screen joins mid-game, a player leaves on purpose and
//! resumes from the home list, and at the end the table agrees to stop or plays out; every
//! device must end on the same step and state with a verified audit (a device back only
//! after the end shows it in its replay). The same seed gives the same table's life, event
//! for event.

use crate::core::Time;
use crate::device::{Device, Envelope, Happening, Links};
use crate::games::GameSetup;
use crate::identity::{SecretKey, SeededRandom, SessionId};
use crate::storage::{Folder, MemStorage};
use crate::table_types::{
    AuditVerdict, AwayVote, Command, GameView, LobbyView, Replay, ScreenView, SessionSummary,
    Update,
};
use crate::transport::{TableId, TableInfo, ticket};
use crate::wire::{SignatureMemo, Wire};
use iroh::{EndpointAddr, EndpointId};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet, BinaryHeap};
use std::sync::{Arc, Mutex, MutexGuard};

/// How long a simulated table may take before it counts as stuck (ms).
const TIME_LIMIT: u64 = 3_600_000;
/// How often a link that dials tries again, and the people look at their screens (ms).
const DIAL_EVERY: u64 = 300;
const LOOK_EVERY: u64 = 200;
/// How often the simulated mDNS lists the tables around (ms).
const MDNS_EVERY: u64 = 1_000;
/// A device back from going quiet must reach, within this long (ms), the step the table
/// was at when it came back.
const CATCH_UP: u64 = 15_000;
/// Time a device back from going quiet has to catch up before a game that ends by its
/// rules meanwhile counts against it (ms): enough to find the table quiet and ask for all.
const OVER_GRACE: u64 = 5_000;
/// Time a device back from going quiet has to catch up and say it is back (ms), and steps
/// the table may still go on without its seats after the step it had reached by then.
const SETTLE: u64 = 10_000;
const BACK_WITHIN: u32 = 3;
/// How often a traced table prints where each core stands (a multiple of `MDNS_EVERY`).
const TRACE_CORES_EVERY: u64 = 5_000;

/// A table's life, drawn from its seed.
#[derive(Clone, Debug)]
pub struct Plan {
    pub setup: GameSetup,
    pub seats: u8,
    /// Devices with a person at the table, the host's included; the host seats bots in the
    /// rest.
    pub people: u8,
    /// Guests that sit down by code (the host's ticket) rather than by tapping the table.
    pub by_code: Vec<bool>,
    /// A device that sits down in the lobby and stands up before the start.
    pub passer_by: bool,
    /// A shared screen joins at this step.
    pub screen_at: Option<u32>,
    /// A guest (index) that leaves the game at a step and resumes it a while later.
    pub leaver: Option<(usize, u32, u64)>,
    /// After this step the people agree to end the game.
    pub end_after: u32,
    /// Crashes: device index, when (ms), for how long (ms).
    pub crashes: Vec<(usize, u64, u64)>,
    /// A device that goes quiet for longer than the table waits (a phone in a pocket, its
    /// app killed): which, when, for how long. The others skip its seats once they are
    /// away, and it comes back behind a table that played on.
    pub away: Option<(usize, u64, u64)>,
    /// Once the device that went quiet is back, its link to this device stays down this
    /// long (ms): a peer whose link comes up late, while the others' links carry the table's
    /// new steps. It must catch up from the others.
    pub apart_on_return: Option<(usize, u64)>,
    /// Hold the device that went quiet to what a player back at the table expects: it
    /// catches up within [`CATCH_UP`], and once level with the table its seats are not
    /// skipped. For tables where going quiet is the only fault (crashes, partitions and
    /// blackouts on top can keep it away for good reasons).
    pub check_return: bool,
    /// The device that goes quiet does so just as a move of its own leaves it (the first
    /// after the planned time), so the move is lost with its links: it comes back holding a
    /// move the table never saw, at a step the table went on without it.
    pub quiet_after_move: bool,
    /// With `quiet_after_move`: the device stays up but loses the network for the while
    /// planned instead (its seats are skipped, and it plays on by itself), and stops for two
    /// seconds just as the first move of its own leaves once the network is back: a move
    /// perhaps too late for its step.
    pub off_the_network: bool,
    /// The device that goes quiet does so the moment a move of its own (the first after the
    /// planned time) reaches the peer of [`Plan::apart_on_return`]: the table goes on with
    /// that move, and what the others answer it with is lost. It comes back to a step whose
    /// messages from that peer only the others can pass on, while the table skips its seats
    /// at steps it cannot reach yet.
    pub quiet_as_move_lands: bool,
    /// Every device crashes at once, and for how long each is down.
    pub blackout: Option<(u64, u64)>,
    /// The table split in two: when, for how long, and which devices are on one side.
    pub partitions: Vec<(u64, u64, BTreeSet<usize>)>,
    /// Link delay range (ms).
    pub min_delay: u64,
    pub max_delay: u64,
    /// Per mille of frames whose link breaks under them (all that was in flight is lost).
    pub breaks: u32,
}

impl Plan {
    /// A table of the game `setup`, with everything else drawn from `rng`; `faulty`:
    /// crashes, partitions, a blackout and breaking links, else a quiet network.
    pub fn draw(setup: GameSetup, rng: &mut ChaCha8Rng, faulty: bool) -> Plan {
        let range = setup.seat_range();
        let (lo, hi) = (*range.start(), (*range.end()).min(8));
        let seats = lo + (rng.next_u32() % u32::from(hi - lo + 1)) as u8;
        let people = 1 + (rng.next_u32() % u32::from(seats.min(4))) as u8;
        let guests = usize::from(people - 1);
        let by_code = (0..guests)
            .map(|_| rng.next_u32().is_multiple_of(2))
            .collect();
        let end_after = 4 + rng.next_u32() % 20;
        let mut plan = Plan {
            setup: setup.with_seats(seats),
            seats,
            people,
            by_code,
            passer_by: rng.next_u32().is_multiple_of(4),
            screen_at: (rng.next_u32().is_multiple_of(3)).then(|| rng.next_u32() % end_after),
            leaver: (guests > 0 && rng.next_u32().is_multiple_of(3)).then(|| {
                (
                    1 + (rng.next_u32() as usize % guests),
                    rng.next_u32() % end_after,
                    1_000 + u64::from(rng.next_u32() % 5_000),
                )
            }),
            end_after,
            crashes: Vec::new(),
            away: None,
            apart_on_return: None,
            check_return: false,
            quiet_after_move: false,
            off_the_network: false,
            quiet_as_move_lands: false,
            blackout: None,
            partitions: Vec::new(),
            min_delay: 1,
            max_delay: 10,
            breaks: 0,
        };
        if faulty {
            let devices = usize::from(people) + usize::from(plan.passer_by);
            for _ in 0..rng.next_u32() % 3 {
                plan.crashes.push((
                    rng.next_u32() as usize % devices,
                    u64::from(rng.next_u32() % 20_000),
                    500 + u64::from(rng.next_u32() % 6_000),
                ));
            }
            if people > 1 && rng.next_u32().is_multiple_of(4) {
                plan.away = Some((
                    rng.next_u32() as usize % usize::from(people),
                    3_000 + u64::from(rng.next_u32() % 10_000),
                    32_000 + u64::from(rng.next_u32() % 30_000),
                ));
            }
            if rng.next_u32().is_multiple_of(5) {
                plan.blackout = Some((
                    u64::from(rng.next_u32() % 20_000),
                    1_000 + u64::from(rng.next_u32() % 4_000),
                ));
            }
            if people > 1 && rng.next_u32().is_multiple_of(3) {
                let side: BTreeSet<usize> = (0..usize::from(people))
                    .filter(|_| rng.next_u32().is_multiple_of(2))
                    .collect();
                plan.partitions.push((
                    u64::from(rng.next_u32() % 20_000),
                    500 + u64::from(rng.next_u32() % 8_000),
                    side,
                ));
            }
            plan.max_delay = 5 + u64::from(rng.next_u32() % 60);
            plan.breaks = rng.next_u32() % 8;
        }
        plan
    }
}

/// What the table's life came to.
#[derive(Debug)]
pub struct Outcome {
    /// Steps the game played.
    pub steps: u32,
    /// The game ended by the people's agreement (not played out).
    pub agreed: bool,
    /// Crash-restarts, link breaks, frames carried.
    pub restarts: u32,
    pub breaks: u32,
    pub frames: u64,
    /// A shared screen was at the table (a table ends only once it shows the end with its
    /// audit, as the seats do).
    pub screen: bool,
    /// Sim time it took, ms.
    pub took: u64,
}

// ----- the links ----------------------------------------------------------------------------

/// How a device saw the game end.
#[derive(Debug)]
enum Ended {
    AtTable(Box<GameView>),
    Listed(String),
}

#[derive(Clone, Copy, Debug)]
struct Link {
    dial: bool,
    screen: bool,
}

enum Op {
    Send(EndpointId, Vec<u8>, bool),
    Disconnect(EndpointId),
    CutOff(EndpointId, u64),
    Knock(EndpointId),
}

/// One device's links as its machine sees them; the world reads the ops they queue.
#[derive(Default)]
struct Book {
    links: BTreeMap<EndpointId, Link>,
    ops: Vec<Op>,
    advert: Option<TableInfo>,
}

#[derive(Clone)]
struct SimLinks {
    me: EndpointId,
    book: Arc<Mutex<Book>>,
}

impl SimLinks {
    fn book(&self) -> MutexGuard<'_, Book> {
        self.book.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Links for SimLinks {
    fn addr(&self) -> EndpointAddr {
        EndpointAddr::new(self.me)
    }

    fn connect(&mut self, addr: EndpointAddr, dial: bool) {
        self.book().links.insert(
            addr.id,
            Link {
                dial,
                screen: false,
            },
        );
    }

    fn connect_as_screen(&mut self, addr: EndpointAddr) {
        self.book().links.insert(
            addr.id,
            Link {
                dial: true,
                screen: true,
            },
        );
    }

    fn knock(&mut self, addr: EndpointAddr) {
        self.book().ops.push(Op::Knock(addr.id));
    }

    fn disconnect(&mut self, peer: &EndpointId) {
        let mut book = self.book();
        book.links.remove(peer);
        book.ops.push(Op::Disconnect(*peer));
    }

    fn cut_off(&mut self, peer: &EndpointId, ms: u64) {
        self.book().ops.push(Op::CutOff(*peer, ms));
    }

    fn send(&mut self, peer: &EndpointId, bytes: Vec<u8>, synced: bool) -> bool {
        let mut book = self.book();
        if !book.links.contains_key(peer) {
            return false;
        }
        book.ops.push(Op::Send(*peer, bytes, synced));
        true
    }

    fn has(&self, peer: &EndpointId) -> bool {
        self.book().links.contains_key(peer)
    }

    fn peers(&self) -> Vec<EndpointId> {
        self.book().links.keys().copied().collect()
    }

    fn advertise(&mut self, table: Option<&TableInfo>) {
        self.book().advert = table.cloned();
    }
}

// ----- the world ----------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Host,
    Guest,
    PasserBy,
    Screen,
}

/// What a simulated person has seen on their device's screens.
#[derive(Default)]
struct Seen {
    lobby: Option<LobbyView>,
    game: Option<GameView>,
    games: Vec<SessionSummary>,
    tables: Vec<TableInfo>,
    ticket: Option<String>,
    screen: Option<ScreenView>,
    /// The last replay opened.
    replay: Option<Replay>,
    errors: Vec<String>,
}

/// What a person has done so far.
#[derive(Default)]
struct Done {
    set_up: bool,
    joined_at: Option<u64>,
    left_lobby: bool,
    started: bool,
    left_game: Option<u64>,
    resumed: bool,
    autoplay_off: bool,
    /// The device's life in which autoplay was last set.
    autoplay_life: u32,
    /// The host's lobby: seats whose device went away, by name, and since when.
    gone_since: BTreeMap<String, u64>,
    /// The step and state at which the person last agreed to end the game: the same step
    /// on another log (a step played again after a vote or a catch-up) is another table,
    /// where the agreement it signed does not count, and a person who sees "End game" not
    /// agreed there taps it again.
    agreed_at: Option<(u32, [u8; 32])>,
    watching: bool,
}

struct Slot {
    kind: Kind,
    key: SecretKey,
    storage: MemStorage,
    links: SimLinks,
    machine: Option<Device>,
    /// Incarnations so far (each restart is a new one: its timers and dials are its own).
    life: u32,
    timer: Option<Time>,
    seen: Seen,
    done: Done,
}

#[derive(PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ev {
    /// A link between two devices is up (for `dev`), on connection `conn`.
    Up {
        dev: usize,
        peer: usize,
        conn: u64,
    },
    /// A link one side ended, once what was on its way has arrived.
    Close {
        a: usize,
        b: usize,
        conn: u64,
    },
    /// It broke (for `dev`).
    Down {
        dev: usize,
        peer: usize,
        conn: u64,
    },
    Frame {
        dev: usize,
        peer: usize,
        conn: u64,
        bytes: Vec<u8>,
    },
    Timer {
        dev: usize,
        life: u32,
    },
    Dial {
        dev: usize,
        life: u32,
    },
    Look {
        dev: usize,
        life: u32,
    },
    Mdns,
    Crash {
        dev: usize,
        down: u64,
    },
    /// A device loses the network until a time (it stays up).
    Offline {
        dev: usize,
        until: u64,
    },
    Restart {
        dev: usize,
    },
    Blackout {
        down: u64,
    },
    Split {
        side: BTreeSet<usize>,
        until: u64,
    },
    Heal,
}

struct Conn {
    id: u64,
    /// When the last frame each way lands (frames on a link keep their order).
    last: [u64; 2],
}

/// The device that went quiet, back: when, the step the table was at then, whether the
/// device has reached that step, and the step the table was at [`SETTLE`] later.
/// Not where one of its links came up late: two devices that cannot reach each other hold
/// a sealed step up until each has the other's seats voted away, and the choices to skip
/// them last until they move again.
struct Returned {
    dev: usize,
    at: u64,
    apart: bool,
    table_step: u32,
    caught_up: bool,
    level: Option<u32>,
}

/// A simulated table's life: see the module docs.
pub struct World {
    plan: Plan,
    rng: ChaCha8Rng,
    seed: u64,
    now: u64,
    seq: u64,
    queue: BinaryHeap<Reverse<(u64, u64, Ev)>>,
    slots: Vec<Slot>,
    ids: BTreeMap<EndpointId, usize>,
    /// Live connections by pair (lower index first).
    conns: BTreeMap<(usize, usize), Conn>,
    next_conn: u64,
    /// Frames queued on a link that is down, by (from, to).
    waiting: BTreeMap<(usize, usize), Vec<Vec<u8>>>,
    /// Pairs refused until a time (cut off).
    cut: BTreeMap<(usize, usize), u64>,
    split: Option<BTreeSet<usize>>,
    /// The connection each device last saw come up, by (device, peer): only its going down
    /// is news to the device.
    shown: BTreeMap<(usize, usize), u64>,
    /// The game, once a device has shown it.
    session: Option<SessionId>,
    restarts: u32,
    breaks: u32,
    frames: u64,
    returned: Option<Returned>,
    /// The device to go quiet as its next move leaves (from when, for how long), and then
    /// once that move is on its way.
    quiet_armed: Option<(usize, u64, u64)>,
    quiet_now: Option<(usize, u64)>,
    /// The device to go quiet as its next move lands at a peer: which, from when, for how
    /// long, and the peer.
    landing_armed: Option<(usize, u64, u64, usize)>,
    /// A table found to fail while it still runs (a returning device that never caught up).
    failure: Option<String>,
    trace: bool,
    log: Vec<String>,
    memo: SignatureMemo,
}

fn derive(seed: u64, label: &str, n: u64) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"hoard device sim");
    h.update(&seed.to_le_bytes());
    h.update(label.as_bytes());
    h.update(&n.to_le_bytes());
    *h.finalize().as_bytes()
}

fn pair(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

impl World {
    pub fn new(plan: Plan, seed: u64) -> World {
        let mut kinds = vec![Kind::Host];
        kinds.extend((1..plan.people).map(|_| Kind::Guest));
        if plan.passer_by {
            kinds.push(Kind::PasserBy);
        }
        if plan.screen_at.is_some() {
            kinds.push(Kind::Screen);
        }
        let slots: Vec<Slot> = kinds
            .into_iter()
            .enumerate()
            .map(|(i, kind)| {
                let key = SecretKey::from_bytes(&derive(seed, "device", i as u64));
                let me = key.public();
                Slot {
                    kind,
                    key,
                    storage: MemStorage::new(),
                    links: SimLinks {
                        me,
                        book: Arc::default(),
                    },
                    machine: None,
                    life: 0,
                    timer: None,
                    seen: Seen::default(),
                    done: Done::default(),
                }
            })
            .collect();
        let ids = slots
            .iter()
            .enumerate()
            .map(|(i, s)| (s.key.public(), i))
            .collect();
        let mut world = World {
            rng: ChaCha8Rng::from_seed(derive(seed, "world", 0)),
            plan,
            seed,
            now: 0,
            seq: 0,
            queue: BinaryHeap::new(),
            slots,
            ids,
            conns: BTreeMap::new(),
            next_conn: 0,
            waiting: BTreeMap::new(),
            cut: BTreeMap::new(),
            split: None,
            shown: BTreeMap::new(),
            session: None,
            restarts: 0,
            breaks: 0,
            frames: 0,
            returned: None,
            quiet_armed: None,
            quiet_now: None,
            landing_armed: None,
            failure: None,
            trace: false,
            log: Vec::new(),
            memo: SignatureMemo::new(),
        };
        for dev in 0..world.slots.len() {
            world.boot(dev);
        }
        world.push(MDNS_EVERY, Ev::Mdns);
        for (dev, at, down) in world.plan.crashes.clone() {
            world.push(at, Ev::Crash { dev, down });
        }
        if let Some((dev, at, down)) = world.plan.away {
            if world.plan.off_the_network {
                world.push(
                    at,
                    Ev::Offline {
                        dev,
                        until: at + down,
                    },
                );
            } else if let Some((peer, _)) = world.plan.apart_on_return
                && world.plan.quiet_as_move_lands
            {
                world.landing_armed = Some((dev, at, down, peer));
            } else if world.plan.quiet_after_move {
                world.quiet_armed = Some((dev, at, down));
            } else {
                world.push(at, Ev::Crash { dev, down });
            }
        }
        if let Some((at, down)) = world.plan.blackout {
            world.push(at, Ev::Blackout { down });
        }
        for (at, len, side) in world.plan.partitions.clone() {
            world.push(
                at,
                Ev::Split {
                    side,
                    until: at + len,
                },
            );
        }
        world
    }

    /// Prints every event as it happens (a replayed seed).
    pub fn trace(&mut self, on: bool) {
        self.trace = on;
    }

    fn note(&mut self, what: impl FnOnce() -> String) {
        if self.trace {
            println!("{:>8} {}", self.now, what());
        } else {
            self.log.push(what());
            if self.log.len() > 200 {
                self.log.drain(..100);
            }
        }
    }

    fn push(&mut self, at: u64, ev: Ev) {
        self.seq += 1;
        self.queue.push(Reverse((at, self.seq, ev)));
    }

    fn roll(&mut self, per_mille: u32) -> bool {
        self.rng.next_u32() % 1000 < per_mille
    }

    fn delay(&mut self) -> u64 {
        let (lo, hi) = (
            self.plan.min_delay,
            self.plan.max_delay.max(self.plan.min_delay),
        );
        lo + self.rng.next_u64() % (hi - lo + 1)
    }

    /// Starts (or restarts) device `dev` from what its storage kept.
    fn boot(&mut self, dev: usize) {
        let now = Time(self.now);
        let slot = &mut self.slots[dev];
        slot.life += 1;
        slot.links = SimLinks {
            me: slot.key.public(),
            book: Arc::default(),
        };
        slot.timer = None;
        slot.seen = Seen::default();
        self.shown.retain(|(d, _), _| *d != dev);
        let random = SeededRandom::new(derive(
            self.seed,
            "random",
            (dev as u64) << 32 | u64::from(slot.life),
        ));
        let data = Folder::root(Arc::new(slot.storage.clone()));
        let links: Box<dyn Links> = Box::new(slot.links.clone());
        let mut machine = Device::new(data, slot.key.clone(), Some(links), Box::new(random), now);
        machine.share_memo(self.memo.clone());
        slot.machine = Some(machine);
        let life = slot.life;
        self.settle(dev);
        self.push(self.now + DIAL_EVERY, Ev::Dial { dev, life });
        self.push(self.now + LOOK_EVERY, Ev::Look { dev, life });
    }

    fn alive(&self, dev: usize) -> bool {
        self.slots[dev].machine.is_some()
    }

    fn reachable(&self, a: usize, b: usize) -> bool {
        let split = self
            .split
            .as_ref()
            .is_some_and(|side| side.contains(&a) != side.contains(&b));
        let cut = self
            .cut
            .get(&pair(a, b))
            .is_some_and(|until| *until > self.now);
        self.alive(a) && self.alive(b) && !split && !cut
    }

    /// Hands `what` to device `dev` and carries out what it asked for.
    fn handle(&mut self, dev: usize, what: Happening) {
        let now = Time(self.now);
        let Some(machine) = self.slots[dev].machine.as_mut() else {
            return;
        };
        machine.handle(now, what);
        self.settle(dev);
    }

    /// Carries out what device `dev` queued: frames, links ended, knocks; reads its events
    /// for its person and sets its timer.
    fn settle(&mut self, dev: usize) {
        let Some(machine) = self.slots[dev].machine.as_mut() else {
            return;
        };
        let events = machine.take_events();
        let next = machine.next_timeout();
        for event in events {
            self.see(dev, event);
        }
        if let Some(at) = next
            && self.slots[dev]
                .timer
                .is_none_or(|t| at < t || t.as_millis() < self.now)
        {
            self.slots[dev].timer = Some(at);
            let life = self.slots[dev].life;
            self.push(at.as_millis().max(self.now), Ev::Timer { dev, life });
        }
        let ops = std::mem::take(&mut self.slots[dev].links.book().ops);
        for op in ops {
            match op {
                Op::Send(peer, bytes, synced) => {
                    let Some(&to) = self.ids.get(&peer) else {
                        continue;
                    };
                    self.send(dev, to, bytes, synced);
                }
                Op::Disconnect(peer) => {
                    let Some(&to) = self.ids.get(&peer) else {
                        continue;
                    };
                    self.waiting.remove(&(dev, to));
                    // What is on its way (a goodbye queued just before) arrives first.
                    if let Some(conn) = self.conns.get(&pair(dev, to)) {
                        let at = conn.last[usize::from(dev > to)].max(self.now) + 1;
                        let conn = conn.id;
                        self.push(
                            at,
                            Ev::Close {
                                a: dev,
                                b: to,
                                conn,
                            },
                        );
                    }
                }
                Op::CutOff(peer, ms) => {
                    let Some(&to) = self.ids.get(&peer) else {
                        continue;
                    };
                    self.cut.insert(pair(dev, to), self.now + ms);
                    self.close(dev, to, 0);
                }
                Op::Knock(peer) => {
                    let Some(&to) = self.ids.get(&peer) else {
                        continue;
                    };
                    // A knock replaces the connection the peer may still think is up.
                    self.close(dev, to, 0);
                    self.dial(dev, to, false);
                }
            }
        }
    }

    fn see(&mut self, dev: usize, event: Update) {
        let seen = &mut self.slots[dev].seen;
        match event {
            Update::Tables(list) => seen.tables = list,
            Update::Ticket { ticket } => seen.ticket = Some(ticket),
            Update::Lobby(view) => seen.lobby = Some(view),
            Update::Game(view) => {
                self.session.get_or_insert(view.session);
                seen.lobby = None;
                seen.game = Some(view);
            }
            Update::Games(list) => seen.games = list,
            Update::Replay(replay) => seen.replay = Some(replay),
            Update::Notice(_) => {}
            Update::Screen(view) => {
                if let ScreenView::Game(g) = &view {
                    let step = g.step;
                    seen.screen = Some(view);
                    self.note(|| format!("dev {dev} shows step {step}"));
                } else {
                    seen.screen = Some(view);
                }
            }
            Update::Error(e) => {
                seen.errors.push(e.clone());
                self.note(|| format!("dev {dev} error: {e}"));
            }
        }
    }

    /// Whether `bytes` carry a move their sender's own seat signed.
    fn carries_own_move(bytes: &[u8]) -> bool {
        let Ok(Envelope::Core { from, messages, .. }) = Envelope::decode(bytes) else {
            return false;
        };
        messages.iter().any(|m| {
            matches!(Wire::decode(m), Ok(Wire::Signed(s)) if s.seat == from && s.kind().is_move())
        })
    }

    fn send(&mut self, from: usize, to: usize, bytes: Vec<u8>, synced: bool) {
        if let Some((dev, at, down)) = self.quiet_armed
            && dev == from
            && self.now >= at
            && Self::carries_own_move(&bytes)
        {
            self.note(|| format!("dev {dev} goes quiet as its move leaves"));
            self.quiet_armed = None;
            self.quiet_now = Some((dev, down));
        }
        let Some(conn) = self.conns.get(&pair(from, to)) else {
            if !synced {
                self.waiting.entry((from, to)).or_default().push(bytes);
            }
            return;
        };
        let id = conn.id;
        if self.roll(self.plan.breaks) {
            self.breaks += 1;
            self.note(|| format!("link {from}-{to} breaks"));
            self.close(from, to, self.plan.max_delay);
            if !synced {
                self.waiting.entry((from, to)).or_default().push(bytes);
            }
            return;
        }
        let delay = self.delay();
        let way = usize::from(from > to);
        let Some(conn) = self.conns.get_mut(&pair(from, to)) else {
            return;
        };
        let at = (self.now + delay).max(conn.last[way] + 1);
        conn.last[way] = at;
        self.frames += 1;
        let mut landing = None;
        if let Some((dev, after, down, peer)) = self.landing_armed
            && (dev, peer) == (from, to)
            && self.now >= after
            && Self::carries_own_move(&bytes)
        {
            self.landing_armed = None;
            self.note(|| format!("dev {dev} goes quiet as its move lands at dev {peer}, at {at}"));
            landing = Some(Ev::Crash { dev, down });
        }
        self.push(
            at,
            Ev::Frame {
                dev: to,
                peer: from,
                conn: id,
                bytes,
            },
        );
        // After the frame, so the frame lands first.
        if let Some(crash) = landing {
            self.push(at, crash);
        }
    }

    /// Ends the connection between `a` and `b`, if any: both sides hear of it after `after`
    /// ms (at least a frame's delay: what was in flight is lost).
    fn close(&mut self, a: usize, b: usize, after: u64) {
        let Some(conn) = self.conns.remove(&pair(a, b)) else {
            return;
        };
        let at = self.now + after.max(1);
        for (dev, peer) in [(a, b), (b, a)] {
            self.push(
                at,
                Ev::Down {
                    dev,
                    peer,
                    conn: conn.id,
                },
            );
        }
    }

    /// Device `a` dials `b`: a connection comes up if `b` can be reached and takes it.
    fn dial(&mut self, a: usize, b: usize, screen: bool) {
        if self.conns.contains_key(&pair(a, b)) || !self.reachable(a, b) {
            return;
        }
        let me = self.slots[a].key.public();
        let known = self.slots[b].links.book().links.contains_key(&me);
        if !known {
            let welcome = self.slots[b]
                .machine
                .as_ref()
                .is_some_and(|m| m.welcome(&me, screen));
            if !welcome {
                return;
            }
            self.slots[b].links.book().links.insert(
                me,
                Link {
                    dial: false,
                    screen,
                },
            );
        }
        self.next_conn += 1;
        let id = self.next_conn;
        let at = self.now + self.delay();
        self.conns.insert(pair(a, b), Conn { id, last: [at; 2] });
        for (dev, peer) in [(a, b), (b, a)] {
            self.push(
                at,
                Ev::Up {
                    dev,
                    peer,
                    conn: id,
                },
            );
        }
    }

    fn current(&self, a: usize, b: usize, conn: u64) -> bool {
        self.conns.get(&pair(a, b)).is_some_and(|c| c.id == conn)
    }

    fn crash(&mut self, dev: usize, down: u64) {
        if self.slots[dev].machine.take().is_none() {
            return;
        }
        self.restarts += 1;
        self.note(|| format!("dev {dev} crashes for {down} ms"));
        // What the system had not written back is lost, or not.
        let keep = self.rng.next_u32().is_multiple_of(2);
        self.slots[dev].storage.crash(|_| keep);
        let peers: Vec<usize> = (0..self.slots.len()).filter(|p| *p != dev).collect();
        for p in peers {
            self.waiting.remove(&(dev, p));
            // The peer notices only at its idle timeout, or when the device knocks again.
            if let Some(conn) = self.conns.remove(&pair(dev, p)) {
                let at = self.now + 2_000 + self.rng.next_u64() % 3_000;
                self.push(
                    at,
                    Ev::Down {
                        dev: p,
                        peer: dev,
                        conn: conn.id,
                    },
                );
            }
        }
        self.push(self.now + down, Ev::Restart { dev });
    }

    fn step(&mut self, ev: Ev) {
        match ev {
            Ev::Up { dev, peer, conn } => {
                if !self.current(dev, peer, conn) {
                    return;
                }
                self.note(|| format!("link {dev}-{peer} up for {dev}"));
                self.shown.insert((dev, peer), conn);
                let id = self.slots[peer].key.public();
                self.handle(dev, Happening::LinkUp(id));
                // What waited for the link goes now.
                if let Some(frames) = self.waiting.remove(&(dev, peer)) {
                    for bytes in frames {
                        self.send(dev, peer, bytes, false);
                    }
                }
            }
            Ev::Down { dev, peer, conn } => {
                // Only the link the device saw come up last goes down for it.
                if self.shown.get(&(dev, peer)) != Some(&conn) {
                    return;
                }
                self.shown.remove(&(dev, peer));
                let id = self.slots[peer].key.public();
                self.handle(dev, Happening::LinkDown(id));
            }
            Ev::Frame {
                dev,
                peer,
                conn,
                bytes,
            } => {
                if self.current(dev, peer, conn) {
                    if self.trace {
                        let kind = match crate::device::Envelope::decode(&bytes) {
                            Ok(crate::device::Envelope::Core { messages, .. }) => {
                                format!("core ×{}", messages.len())
                            }
                            Ok(f) => format!("{f:?}").chars().take(40).collect(),
                            Err(e) => format!("unreadable: {e}"),
                        };
                        self.note(|| format!("frame {peer}→{dev}: {kind}"));
                    }
                    let id = self.slots[peer].key.public();
                    self.handle(dev, Happening::Frame(id, bytes));
                }
            }
            Ev::Close { a, b, conn } => {
                if self.current(a, b, conn) {
                    self.close(a, b, 0);
                }
            }
            Ev::Timer { dev, life } => {
                if self.slots[dev].life == life && self.alive(dev) {
                    let due = self.slots[dev]
                        .timer
                        .is_some_and(|t| t.as_millis() <= self.now);
                    if due {
                        self.slots[dev].timer = None;
                        self.handle(dev, Happening::Timeout);
                    }
                }
            }
            Ev::Dial { dev, life } => {
                if self.slots[dev].life != life || !self.alive(dev) {
                    return;
                }
                let links: Vec<(EndpointId, Link)> = self.slots[dev]
                    .links
                    .book()
                    .links
                    .iter()
                    .map(|(k, l)| (*k, *l))
                    .collect();
                for (peer, link) in links {
                    if let Some(&to) = self.ids.get(&peer)
                        && link.dial
                    {
                        self.dial(dev, to, link.screen);
                    }
                }
                self.push(self.now + DIAL_EVERY, Ev::Dial { dev, life });
            }
            Ev::Look { dev, life } => {
                if self.slots[dev].life != life || !self.alive(dev) {
                    return;
                }
                self.look(dev);
                self.push(self.now + LOOK_EVERY, Ev::Look { dev, life });
            }
            Ev::Mdns => {
                for dev in 0..self.slots.len() {
                    if !self.alive(dev) {
                        continue;
                    }
                    let list: Vec<TableInfo> = (0..self.slots.len())
                        .filter(|o| *o != dev && self.reachable(dev, *o))
                        .filter_map(|o| self.slots[o].links.book().advert.clone())
                        .collect();
                    if list != self.slots[dev].seen.tables {
                        self.handle(dev, Happening::Tables(list));
                    }
                }
                // A replayed seed shows where every core stands now and then.
                if self.trace && self.now.is_multiple_of(TRACE_CORES_EVERY) {
                    for (i, s) in self.slots.iter().enumerate() {
                        if let Some(table) = s.machine.as_ref().and_then(|m| m.table()) {
                            for line in table.diagnosis().lines() {
                                println!("{:>8} dev {i} {line}", self.now);
                            }
                        }
                    }
                }
                self.watch_return();
                self.push(self.now + MDNS_EVERY, Ev::Mdns);
            }
            Ev::Crash { dev, down } => self.crash(dev, down),
            Ev::Offline { dev, until } => {
                // In the game: a host off the network in its lobby gives the seats away.
                let playing = self.slots[dev]
                    .machine
                    .as_ref()
                    .is_some_and(|m| m.table().is_some());
                if !playing {
                    let later = self.now + 1_000;
                    let until = until + 1_000;
                    self.push(later, Ev::Offline { dev, until });
                    return;
                }
                self.note(|| format!("dev {dev} is off the network until {until}"));
                for peer in (0..self.slots.len()).filter(|p| *p != dev) {
                    self.cut.insert(pair(dev, peer), until);
                    self.close(dev, peer, 0);
                }
                self.quiet_armed = Some((dev, until, 2_000));
            }
            Ev::Restart { dev } => {
                self.note(|| format!("dev {dev} restarts"));
                if self.plan.check_return
                    && self.plan.away.is_some_and(|(d, _, _)| d == dev)
                    && self.returned.is_none()
                {
                    self.returned = Some(Returned {
                        dev,
                        at: self.now,
                        apart: self.plan.apart_on_return.is_some(),
                        table_step: self.table_step(),
                        caught_up: false,
                        level: None,
                    });
                    if let Some((peer, ms)) = self.plan.apart_on_return {
                        self.note(|| format!("link {dev}-{peer} down for {ms} ms"));
                        self.cut.insert(pair(dev, peer), self.now + ms);
                    }
                }
                self.boot(dev);
            }
            Ev::Blackout { down } => {
                for dev in 0..self.slots.len() {
                    let own = down / 2 + self.rng.next_u64() % down.max(1);
                    self.crash(dev, own);
                }
            }
            Ev::Split { side, until } => {
                self.note(|| format!("the table splits: {side:?} until {until}"));
                self.split = Some(side.clone());
                let cut: Vec<(usize, usize)> = self
                    .conns
                    .keys()
                    .filter(|(a, b)| side.contains(a) != side.contains(b))
                    .copied()
                    .collect();
                for (a, b) in cut {
                    self.close(a, b, 1_000);
                }
                self.push(until, Ev::Heal);
            }
            Ev::Heal => self.split = None,
        }
    }

    /// The furthest step any seated device shows.
    fn table_step(&self) -> u32 {
        self.seated()
            .iter()
            .filter_map(|d| self.slots[*d].seen.game.as_ref())
            .map(|g| g.step)
            .max()
            .unwrap_or(0)
    }

    /// Whether a device back from going quiet is still within [`CATCH_UP`] of its return
    /// and behind where the table was then.
    fn catching_up(&self) -> bool {
        self.returned
            .as_ref()
            .is_some_and(|r| !r.caught_up && self.now < r.at + CATCH_UP)
    }

    /// A device back from going quiet catches up with where the table was when it came
    /// back, within [`CATCH_UP`]; notes when it is level with the table.
    fn watch_return(&mut self) {
        let table_step = self.table_step();
        let Some(r) = &mut self.returned else {
            return;
        };
        let step = self.slots[r.dev].seen.game.as_ref().map_or(0, |g| g.step);
        let over = self
            .slots
            .iter()
            .any(|s| s.seen.game.as_ref().is_some_and(|g| g.outcome.is_some()));
        if r.level.is_none() && self.now >= r.at + SETTLE && !r.apart {
            r.level = Some(table_step);
        }
        if r.caught_up {
            return;
        }
        if step >= r.table_step {
            r.caught_up = true;
        } else if over && self.now >= r.at + OVER_GRACE {
            // The game ended by its rules while the device was still behind: it catches up
            // only because the table went quiet.
            self.failure = Some(format!(
                "dev {} came back at {} ms with the table at step {}; the game is over at {} ms \
                 and it is still at step {step}",
                r.dev, r.at, r.table_step, self.now
            ));
        } else if self.now >= r.at + CATCH_UP {
            self.failure = Some(format!(
                "dev {} came back at {} ms with the table at step {}, and {} ms later it is at step {step}",
                r.dev, r.at, r.table_step, CATCH_UP
            ));
        }
    }

    // ----- the people -------------------------------------------------------------------

    fn command(&mut self, dev: usize, cmd: Command) {
        self.note(|| format!("dev {dev}: {cmd:?}").chars().take(160).collect());
        self.handle(dev, Happening::Command(cmd));
    }

    fn host_id(&self) -> EndpointId {
        self.slots[0].key.public()
    }

    /// Device `dev`'s person looks at the screen and does what the plan says.
    fn look(&mut self, dev: usize) {
        let kind = self.slots[dev].kind;
        if !self.slots[dev].done.set_up {
            self.slots[dev].done.set_up = true;
            let name = match kind {
                Kind::Host => "Host".to_string(),
                Kind::Screen => "TV".to_string(),
                _ => format!("Guest {dev}"),
            };
            self.command(
                dev,
                Command::SetProfile {
                    name,
                    colour: [40 * dev as u8, 90, 160],
                },
            );
        }
        // The person plays their seat (by autoplay) until the game is long enough; a device
        // back from a restart is told again.
        let life = self.slots[dev].life;
        if kind != Kind::Screen && self.slots[dev].done.autoplay_life != life {
            self.slots[dev].done.autoplay_life = life;
            let on = !self.slots[dev].done.autoplay_off;
            self.command(dev, Command::Autoplay { on });
        }
        // Back from a restart, or from leaving: the app reopens the game it was at.
        let playing = self.slots[dev]
            .machine
            .as_ref()
            .is_some_and(|m| m.table().is_some());
        if !playing && kind != Kind::Screen {
            let reopen = self.slots[dev]
                .seen
                .games
                .iter()
                .find(|s| s.interrupted)
                .map(|s| s.session);
            if let Some(session) = reopen {
                self.command(dev, Command::Resume { session });
                return;
            }
        }
        match kind {
            Kind::Host => self.host_looks(dev),
            Kind::Guest | Kind::PasserBy => self.guest_looks(dev),
            Kind::Screen => self.screen_looks(dev),
        }
        self.player_looks(dev);
    }

    fn host_looks(&mut self, dev: usize) {
        let started = self.slots[dev].done.started;
        let playing = self.slots[dev]
            .machine
            .as_ref()
            .is_some_and(|m| m.table().is_some());
        if started || playing {
            self.slots[dev].done.started = true;
            return;
        }
        if self.slots[dev].seen.lobby.is_none() {
            // A fresh start, or back from a crash in the lobby: the table is opened again.
            self.command(
                dev,
                Command::HostTable {
                    name: "The kitchen".into(),
                    seats: Some(self.plan.seats),
                },
            );
            let setup = self.plan.setup.clone();
            self.command(dev, Command::ChooseGame { setup });
            let people = usize::from(self.plan.people);
            for _ in people..usize::from(self.plan.seats) {
                self.command(dev, Command::AddBot);
            }
            return;
        }
        let Some(lobby) = self.slots[dev].seen.lobby.clone() else {
            return;
        };
        // A seat whose device is gone (its goodbye lost with its link) is given away after a
        // while, as a host would: its player can sit down again.
        let now = self.now;
        let gone = &mut self.slots[dev].done.gone_since;
        gone.retain(|name, _| lobby.seats.iter().any(|s| &s.name == name && !s.connected));
        let mut give_away = None;
        for (i, seat) in lobby.seats.iter().enumerate() {
            if !seat.connected && !seat.me {
                let since = *gone.entry(seat.name.clone()).or_insert(now);
                if now > since + 10_000 {
                    give_away = Some(i as u8);
                }
            }
        }
        if let Some(seat) = give_away {
            self.slots[dev].done.gone_since.clear();
            self.command(dev, Command::RemoveSeat { seat });
            return;
        }
        let full = lobby.seats.len() == usize::from(self.plan.seats);
        if full && lobby.can_start {
            self.command(dev, Command::Start);
        }
    }

    fn guest_looks(&mut self, dev: usize) {
        let kind = self.slots[dev].kind;
        let host = self.host_id();
        let playing = self.slots[dev]
            .machine
            .as_ref()
            .is_some_and(|m| m.table().is_some());
        if playing || self.slots[dev].done.left_game.is_some() {
            return;
        }
        if kind == Kind::PasserBy && self.slots[dev].done.left_lobby {
            return;
        }
        let seated = self.slots[dev]
            .seen
            .lobby
            .as_ref()
            .is_some_and(|l| l.seats.iter().any(|s| s.me));
        if !seated {
            // Sit down (again): by tapping the table in the list, or by its code.
            let since = self.slots[dev].done.joined_at;
            if since.is_some_and(|t| self.now < t + 3_000) {
                return;
            }
            let by_code = self
                .plan
                .by_code
                .get(dev.wrapping_sub(1))
                .copied()
                .unwrap_or(false);
            let listed = self.slots[dev].seen.tables.iter().any(|t| t.id.0 == host);
            let cmd = if by_code {
                let ticket = self.slots[0].seen.ticket.clone();
                ticket.map(|ticket| Command::JoinTicket { ticket })
            } else {
                listed.then_some(Command::JoinTable {
                    table: TableId(host),
                })
            };
            if let Some(cmd) = cmd {
                self.slots[dev].done.joined_at = Some(self.now);
                self.command(dev, cmd);
            }
            return;
        }
        match kind {
            Kind::PasserBy => {
                let since = self.slots[dev].done.joined_at.unwrap_or(0);
                if self.now > since + 1_500 {
                    self.slots[dev].done.left_lobby = true;
                    self.command(dev, Command::LeaveTable);
                }
            }
            _ => {
                let ready = self.slots[dev]
                    .seen
                    .lobby
                    .as_ref()
                    .is_some_and(|l| l.seats.iter().any(|s| s.me && s.ready));
                if !ready {
                    self.command(dev, Command::Ready { ready: true });
                }
            }
        }
    }

    fn screen_looks(&mut self, dev: usize) {
        let Some(at) = self.plan.screen_at else {
            return;
        };
        // At its step, or later if the game ended before it: a screen shows the end too.
        let step = self.slots[0].seen.game.as_ref().map(|g| {
            if g.outcome.is_some() {
                u32::MAX
            } else {
                g.step
            }
        });
        let watching = self.slots[dev].seen.screen.is_some()
            || self.slots[dev].done.watching
                && self.slots[dev]
                    .done
                    .joined_at
                    .is_some_and(|t| self.now < t + 3_000);
        if step.is_some_and(|s| s >= at) && !watching {
            self.slots[dev].done.watching = true;
            self.slots[dev].done.joined_at = Some(self.now);
            // By code as often as by the list: the seated device's ticket is its address.
            let table = TableId(self.host_id());
            let cmd = if self.rng.next_u32().is_multiple_of(2) {
                Command::WatchTable { table }
            } else {
                Command::WatchTicket {
                    ticket: ticket::encode(&EndpointAddr::new(table.0)),
                }
            };
            self.command(dev, cmd);
        }
    }

    /// A seated person in the game: leaves and comes back if the plan says so, and once the
    /// game is long enough, stops autoplay and agrees to end it.
    fn player_looks(&mut self, dev: usize) {
        let playing = self.slots[dev]
            .machine
            .as_ref()
            .is_some_and(|m| m.table().is_some());
        // Back from a break: the game is picked from the home list (the device may have
        // restarted meanwhile, its screen showing no game).
        if let Some(t) = self.slots[dev].done.left_game
            && let Some((_, _, away)) = self.plan.leaver
            && !self.slots[dev].done.resumed
            && self.now >= t + away
            && let Some(session) = self.session
        {
            self.slots[dev].done.resumed = true;
            self.command(dev, Command::Resume { session });
            return;
        }
        let Some(view) = self.slots[dev].seen.game.clone() else {
            return;
        };
        if let Some((who, at, _)) = self.plan.leaver
            && who == dev
            && self.slots[dev].done.left_game.is_none()
            && playing
            && view.step >= at
            && view.outcome.is_none()
        {
            self.slots[dev].done.left_game = Some(self.now);
            self.command(dev, Command::LeaveTable);
            return;
        }
        if !playing || view.outcome.is_some() || view.halted.is_some() {
            return;
        }
        // A seat away longer than the table waits is skipped, where the step allows.
        for vote in &view.votes {
            if vote.my_vote.is_none() && vote.skip_cannot.is_none() {
                let seat = vote.seat;
                self.command(
                    dev,
                    Command::Vote {
                        seat,
                        vote: AwayVote::Skip,
                    },
                );
            }
        }
        // The people wait for a player back at the table to catch up before they agree to
        // end: a device that catches up only once the game is over is a fault to see.
        if view.step >= self.plan.end_after && !self.catching_up() {
            if !self.slots[dev].done.autoplay_off {
                self.slots[dev].done.autoplay_off = true;
                self.command(dev, Command::Autoplay { on: false });
            }
            let here = (view.step, view.state_hash);
            if !view.end.mine && self.slots[dev].done.agreed_at != Some(here) {
                self.slots[dev].done.agreed_at = Some(here);
                self.command(dev, Command::EndGame { agree: true });
            }
        }
    }

    fn finished(&self) -> bool {
        let seated = self.seated();
        !seated.is_empty() && seated.iter().all(|d| self.ended(*d).is_some()) && self.screen_done()
    }

    /// How device `dev` saw the game end: at the table, its last view once the audit is in;
    /// back from a restart after the end, the result its list of games gives (the app does
    /// not reopen a game that is over).
    fn ended(&self, dev: usize) -> Option<Ended> {
        let slot = &self.slots[dev];
        let machine = slot.machine.as_ref()?;
        match machine.table() {
            Some(table) => {
                let view = slot.seen.game.as_ref()?;
                (table.finished() && view.audit.is_some())
                    .then(|| Ended::AtTable(Box::new(view.clone())))
            }
            None => {
                let session = self.session?;
                let listed = slot.seen.games.iter().find(|g| g.session == session)?;
                // Left on purpose and not back yet: not ended for this device.
                if slot.done.left_game.is_some() && !slot.done.resumed {
                    return None;
                }
                listed.result.clone().map(Ended::Listed)
            }
        }
    }

    fn screen_done(&self) -> bool {
        let Some(dev) = self.slots.iter().position(|s| s.kind == Kind::Screen) else {
            return true;
        };
        // The end as a seat at the table shows it; with none there (each came back after
        // the end to its list of games), there is no table left to show.
        let Some(end) = self.seated().into_iter().find_map(|d| match self.ended(d) {
            Some(Ended::AtTable(v)) => Some(*v),
            _ => None,
        }) else {
            return true;
        };
        matches!(&self.slots[dev].seen.screen,
            Some(ScreenView::Game(g)) if g.state_hash == end.state_hash && g.audit.is_some())
    }

    fn seated(&self) -> Vec<usize> {
        (0..self.slots.len())
            .filter(|d| matches!(self.slots[*d].kind, Kind::Host | Kind::Guest))
            .collect()
    }

    /// Lives the table's life to its end, and checks it.
    pub fn run(mut self) -> Result<Outcome, String> {
        while !self.finished() {
            let Some(Reverse((at, _, ev))) = self.queue.pop() else {
                return Err(self.fail("nothing left to happen"));
            };
            if at > TIME_LIMIT {
                return Err(self.fail("the table is stuck"));
            }
            self.now = self.now.max(at);
            self.step(ev);
            if let Some((dev, down)) = self.quiet_now.take() {
                self.crash(dev, down);
            }
            if let Some(why) = self.failure.take() {
                return Err(self.fail(&why));
            }
        }
        self.check()
    }

    fn fail(&self, why: &str) -> String {
        let mut out = format!(
            "seed {}: {why} at {} ms; plan {:?}\n",
            self.seed, self.now, self.plan
        );
        for (i, s) in self.slots.iter().enumerate() {
            let game = s.seen.game.as_ref().map(|g| {
                format!(
                    "step {} pending {:?} my_turn {} outcome {:?} audit {:?} halted {:?} end {:?} seats {:?}",
                    g.step,
                    g.pending,
                    g.my_turn,
                    g.outcome.is_some(),
                    g.audit,
                    g.halted,
                    g.end,
                    g.seats
                        .iter()
                        .map(|s| (s.connected, s.away_for_secs))
                        .collect::<Vec<_>>()
                )
            });
            out += &format!(
                "  dev {i} {:?} alive {} lobby {:?} game {:?} errors {:?}\n",
                s.kind,
                s.machine.is_some(),
                s.seen.lobby.as_ref().map(|l| (l.seats.len(), l.can_start)),
                game,
                s.seen.errors.iter().rev().take(3).collect::<Vec<_>>()
            );
        }
        for (i, s) in self.slots.iter().enumerate() {
            if let Some(table) = s.machine.as_ref().and_then(|m| m.table()) {
                for line in table.diagnosis().lines() {
                    out += &format!("  dev {i} {line}\n");
                }
            }
        }
        for line in self.log.iter().rev().take(30).rev() {
            out += &format!("  | {line}\n");
        }
        out
    }

    /// Whether the table went on without a seat of the device that went quiet once that
    /// device had been back a while (it said it is back, so the table waits for it), at a
    /// step before the people stop playing.
    fn skipped_once_back(&self) -> Option<String> {
        let r = self.returned.as_ref()?;
        let from = r.level? + BACK_WITHIN;
        let table = self
            .seated()
            .into_iter()
            .find_map(|d| self.slots[d].machine.as_ref()?.table())?;
        let device = self.slots[r.dev].key.public();
        let seats = &table.meta().seats;
        let (step, seat) = table.skips().into_iter().find(|(step, seat)| {
            *step >= from
                && *step < self.plan.end_after
                && seats
                    .get(usize::from(*seat))
                    .is_some_and(|m| m.device == device)
        })?;
        Some(format!(
            "seat {seat} of dev {}, back for {SETTLE} ms {BACK_WITHIN} steps before step \
             {from}, was skipped at step {step}",
            r.dev
        ))
    }

    /// Device `dev`'s person opens the game's replay.
    fn open_replay(&mut self, dev: usize) -> Result<Replay, String> {
        let session = self.session.ok_or_else(|| self.fail("no game was seen"))?;
        self.slots[dev].seen.replay = None;
        self.command(dev, Command::Replay { session });
        self.slots[dev].seen.replay.take().ok_or_else(|| {
            let errors = self.slots[dev].seen.errors.last().cloned();
            self.fail(&format!("dev {dev} cannot replay the game: {errors:?}"))
        })
    }

    /// Where device `dev`'s replay of the game ends, once its audit says the game was
    /// verified: the steps it shows after the deal (one short of the log's where the game
    /// ended by agreement, which moves nothing) and the last state.
    fn replayed_end(&mut self, dev: usize) -> Result<(u32, [u8; 32]), String> {
        let replay = self.open_replay(dev)?;
        if replay.audit != Some(AuditVerdict::Verified) {
            return Err(self.fail(&format!("dev {dev}'s replay audit: {:?}", replay.audit)));
        }
        let last = replay
            .frames
            .last()
            .ok_or_else(|| self.fail(&format!("dev {dev}'s replay has no frames")))?;
        Ok((replay.frames.len() as u32 - 1, last.state_hash))
    }

    /// Device `dev`, at the audited end `end`, shows every hand in its replay: a row per
    /// step with each seat's table, and at the last step its own seat's table is the one it
    /// held live (the audit read each hand as the device did).
    fn every_hand_shown(&mut self, dev: usize, end: &GameView) -> Result<(), String> {
        let replay = self.open_replay(dev)?;
        let seats = replay.seats.len();
        let Some(every) = &replay.every_hand else {
            return Err(self.fail(&format!("dev {dev}'s audited replay shows no hands")));
        };
        if every.tables.len() != replay.frames.len()
            || every.decks.len() != replay.frames.len()
            || every.tables.iter().any(|row| row.len() != seats)
        {
            return Err(self.fail(&format!(
                "dev {dev}'s replay shows {} rows of hands for {} steps and {seats} seats",
                every.tables.len(),
                replay.frames.len()
            )));
        }
        let me = end
            .me
            .ok_or_else(|| self.fail(&format!("dev {dev} has no seat")))?;
        let last = replay.frames.len() - 1;
        let shown = replay.view_as(last, me).map(|v| v.state);
        if shown.as_ref() != Some(&end.state) {
            return Err(self.fail(&format!(
                "dev {dev}'s replay shows its seat {me} a hand at the end that is not the one \
                 it held"
            )));
        }
        Ok(())
    }

    /// Every seated device ended on the same step and state, with a verified audit; the
    /// screen showed that end.
    fn check(mut self) -> Result<Outcome, String> {
        let seated = self.seated();
        let host_words = self.slots[0]
            .machine
            .as_ref()
            .and_then(|m| m.table())
            .and_then(|t| t.ending());
        let mut first: Option<GameView> = None;
        let mut listed = Vec::new();
        for d in seated {
            match self.ended(d) {
                Some(Ended::AtTable(v)) => {
                    if let Some(h) = &v.halted {
                        return Err(self.fail(&format!("dev {d} halted: {h}")));
                    }
                    if v.audit != Some(AuditVerdict::Verified) {
                        return Err(self.fail(&format!("dev {d}'s audit: {:?}", v.audit)));
                    }
                    if let Some(f) = &first
                        && (v.step != f.step || v.state_hash != f.state_hash)
                    {
                        return Err(self.fail(&format!(
                            "dev {d} ended at step {} ({:?}), another at {} ({:?}): a divergence",
                            v.step,
                            &v.state_hash[..4],
                            f.step,
                            &f.state_hash[..4]
                        )));
                    }
                    if first.is_none() {
                        self.every_hand_shown(d, &v)?;
                    }
                    first.get_or_insert(*v);
                }
                Some(Ended::Listed(words)) => {
                    if host_words.as_ref().is_some_and(|h| *h != words) {
                        return Err(self.fail(&format!(
                            "dev {d} lists the game as '{words}', the host as {host_words:?}"
                        )));
                    }
                    listed.push(d);
                }
                None => return Err(self.fail(&format!("dev {d} never saw the end"))),
            }
        }
        // A device that learned of the end only from its list of games (back after the
        // end): its person opens the game's replay, which must be the same game, audited.
        // The replay's frames are the table after each step that moved the game (the
        // agreement to end adds none): its last state, not its count, is what must match.
        let mut end = first.as_ref().map(|f| (f.step, f.state_hash));
        for d in listed {
            let (step, state_hash) = self.replayed_end(d)?;
            if let Some((at, hash)) = end
                && hash != state_hash
            {
                return Err(self.fail(&format!(
                    "dev {d}'s replay ends at step {step} ({:?}), another device at step {at} \
                     ({:?}): a divergence",
                    &state_hash[..4],
                    &hash[..4]
                )));
            }
            end.get_or_insert((step, state_hash));
        }
        let Some((steps, _)) = end else {
            return Err(self.fail("no device has the game"));
        };
        if let Some(why) = self.skipped_once_back() {
            return Err(self.fail(&why));
        }
        Ok(Outcome {
            steps,
            agreed: first.is_some_and(|f| f.ended_by_agreement),
            restarts: self.restarts,
            breaks: self.breaks,
            frames: self.frames,
            screen: self.plan.screen_at.is_some(),
            took: self.now,
        })
    }
}

/// One seeded table of the game `setup` where a device with a person goes quiet for longer
/// than the table waits, early in a game long enough to play on without it: the others
/// skip its seats, and it comes back behind them, on links of uneven speed.
pub fn returning(setup: GameSetup, seed: u64, trace: bool) -> Result<Outcome, String> {
    let mut rng = ChaCha8Rng::from_seed(derive(seed, "plan", 1));
    let mut plan = Plan::draw(setup, &mut rng, false);
    if plan.people < 2 {
        plan.people = 2.min(plan.seats);
        plan.by_code = vec![false];
    }
    plan.leaver = None;
    plan.end_after = 40 + rng.next_u32() % 30;
    plan.away = Some((
        rng.next_u32() as usize % usize::from(plan.people),
        2_000 + u64::from(rng.next_u32() % 4_000),
        32_000 + u64::from(rng.next_u32() % 20_000),
    ));
    plan.max_delay = 5 + u64::from(rng.next_u32() % 120);
    plan.breaks = rng.next_u32() % 5;
    plan.check_return = true;
    plan.quiet_after_move = rng.next_u32().is_multiple_of(2);
    plan.off_the_network = plan.quiet_after_move && rng.next_u32().is_multiple_of(2);
    // At a table of three devices or more, a link of the returning one comes up late.
    let returning = plan.away.map_or(0, |(dev, _, _)| dev);
    let others: Vec<usize> = (0..usize::from(plan.people))
        .filter(|d| *d != returning)
        .collect();
    if others.len() >= 2 {
        let peer = others[rng.next_u32() as usize % others.len()];
        plan.apart_on_return = Some((peer, 20_000 + u64::from(rng.next_u32() % 20_000)));
        plan.quiet_as_move_lands = !plan.quiet_after_move && rng.next_u32().is_multiple_of(2);
    }
    let mut world = World::new(plan, seed);
    world.trace(trace);
    world.run()
}

/// One seeded table of the game `setup`.
pub fn table(setup: GameSetup, seed: u64, faulty: bool, trace: bool) -> Result<Outcome, String> {
    let mut rng = ChaCha8Rng::from_seed(derive(seed, "plan", 0));
    let plan = Plan::draw(setup, &mut rng, faulty);
    let mut world = World::new(plan, seed);
    world.trace(trace);
    world.run()
}
