//! The protocol core: one device's seat at one game session, as a plain state machine.
//!
//! No sockets, no clock, no disk. The driver (the iroh loop, the offline table, the
//! simulator) feeds it messages and the time, and carries out what it asks for:
//!
//! ```text
//!   Core::new(start, key, entropy, now, config)    a new session: signs this seat's accept
//!   Core::resume(saved, key, entropy, now, config) rebuild from what the store kept
//!   core.handle_message(now, from, bytes)          bytes from a peer (its iroh key)
//!   core.peer_connected(now, peer)                 a (re)connection: swap log heads
//!   core.peer_disconnected(peer)                   a link broke
//!   core.handle_timeout(now)                       when poll_timeout's time has come
//!   core.submit(now, input) / core.vote(..)        this seat's move / an away vote
//!   core.go_on_without(..) / wait_for(..)          a vote at every step, until it moves
//!   core.back(now)                                 this seat's player is back after a skip
//!   core.agree_to_end(now)                         "end the game here", for this step
//!   core.poll_persist()   -> Persist               write (durably if asked), BEFORE ...
//!   core.poll_transmit()  -> Transmit              ... sending these
//!   core.poll_timeout()   -> Option<Time>          when to call handle_timeout
//!   core.poll_event()     -> Event<G>              what happened, for the screen
//! ```
//!
//! After any call, drain `poll_persist` and write every record, making secrets and
//! [`Persist::Message`]s durable (the store fsyncs), before draining `poll_transmit`: a
//! seat must never have sent what it could forget in a crash (a sealed play's salt, a
//! signed move), or it could be made to contradict itself. A [`Persist::Replayable`] need
//! not wait on the disk: the table sends it again, or the seat makes it again the same.
//!
//! Read access for the screen: [`Core::public`], [`Core::private`], [`Core::pending`],
//! [`Core::my_move`], [`Core::seat_status`], [`Core::events_log`], [`Core::verdict`].
//!
//! How the table agrees with no leader: the engine's `pending` says what step `n` waits for;
//! every device collects the signed messages for step `n` made on the same log ("basis"),
//! and completes the step the moment the same set is in, so every device builds the same
//! log. Sealed steps are commit–reveal; every message is echoed once to every peer, so a
//! seat that signs two versions of one message is caught with both signatures. A seat that
//! does not deliver is shown as away; when every other seat votes to skip (or remove) it,
//! the step goes on without it and the log records that. A seat so skipped sits out the
//! beacon draws after it without a vote, until it plays an input step again. Its player,
//! back, says so ([`Body::Back`], signed on restart or by [`Core::back`]): that ends the
//! others' standing choices to go on without it, so its next turn waits for it.
//!
//! Ending by agreement: any seat may sign "I agree to end the game here" ([`Body::End`])
//! at the step the table is at. It holds for that step only. When every seat still in the
//! game (an away seat must agree too, unless the table votes to remove it) has signed
//! it for the same step on the same log, that step is recorded as
//! [`StepRecord::Ended`] instead of being played, the game is over with no winner, and the
//! reveal and the audit run as after any end. A step cannot both end and be played: a seat
//! that signed the agreement does not complete the step the ordinary way until a seat that
//! did not sign it shows it has (a message on the next step of that log, or a head); a
//! seat that has completed it never signs the agreement for it, so that agreement can no
//! longer be whole, and it tells the proposers so with a head.

use crate::audit::{self, Absence, AuditInput, Fault, SitOut, Verdict};
use crate::beacon::{self, Chain};
use crate::error::{NetError, Result};
use crate::identity::{PublicKey, SecretKey, SessionId, Start};
use crate::log::{self, PlayRecord, StepRecord};
use crate::seal;
use crate::wire::{
    Accept, AuditOpening, Basis, Body, Hash, Hello, Kind, Link, MAX_INPUT, Reveal, SeatKey,
    SignatureMemo, Signed, VoteAction, Wire, verify_until_bad,
};
use hoard_rules::{Game, Outcome, Pending, Play, Seal, Seat, Step, public_hash};
use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet, HashMap, VecDeque};
use std::hash::{BuildHasherDefault, Hasher};

/// A map keyed by message ids (already uniform BLAKE3 output) or slots holding them. Only
/// ever looked up, never iterated, so its order cannot leak into what devices compute.
type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<FoldHasher>>;

/// Folds the key's bytes into 64 bits: enough for keys that are mostly hash output, and
/// far cheaper than SipHash, which guards against chosen keys that cannot matter here
/// (an attacker choosing message ids would have to find BLAKE3 preimages).
#[derive(Default)]
struct FoldHasher(u64);

impl Hasher for FoldHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        // Ids are uniform: their first eight bytes (and length) are plenty.
        let mut word = [0u8; 8];
        let n = bytes.len().min(8);
        word[..n].copy_from_slice(&bytes[..n]);
        self.write_u64(u64::from_le_bytes(word) ^ bytes.len() as u64);
    }
    fn write_u8(&mut self, i: u8) {
        self.write_u64(i as u64)
    }
    fn write_u32(&mut self, i: u32) {
        self.write_u64(i as u64)
    }
    fn write_u64(&mut self, i: u64) {
        self.0 = (self.0.rotate_left(5) ^ i).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_usize(&mut self, i: usize) {
        self.write_u64(i as u64)
    }
}

/// Messages further ahead of the table than this many steps are refused (they come again
/// with the next sync), so a peer cannot fill memory with far-future messages.
pub const WINDOW: u32 = 4096;

/// A peer whose messages have been refused this many times (a forged frame counts once)
/// is to be cut off for a while: the core asks for it with [`Event::DropLink`].
pub const REFUSALS_TO_DROP: u32 = 32;

/// Logs other than this device's own on which one seat's messages for one step are kept.
/// An honest seat signs on one log, or on two around a step the table skipped it in; past
/// this, a seat signing on logs of its own making is only filling memory.
const OTHER_LOGS: usize = 3;

/// Beacon links kept per seat and step: one, or two around a step the table skipped.
const LINKS_PER_STEP: u8 = 2;

/// A point in time, in milliseconds on the driver's monotonic clock.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Time(pub u64);

impl Time {
    pub fn from_millis(ms: u64) -> Time {
        Time(ms)
    }
    pub fn as_millis(self) -> u64 {
        self.0
    }
    /// This time plus `ms` milliseconds.
    pub fn plus(self, ms: u64) -> Time {
        Time(self.0.saturating_add(ms))
    }
}

/// How a core behaves. Every device at a table must use the same `sit_out`.
pub struct CoreConfig<G: Game> {
    /// A seat that owes the table something for this long is shown as away (ms).
    pub away_after: u64,
    /// When the table has not moved for this long, ask every peer for what we lack (ms).
    pub resync_after: u64,
    /// Links in this device's beacon chain.
    pub chain_len: u32,
    /// How a skipped seat sits out an input step; `None`: skipping is possible only at
    /// beacon draws and at the audit (by removing the seat).
    pub sit_out: Option<SitOut<G>>,
    /// For simulators running many devices in one process only: see [`SignatureMemo`].
    pub memo: Option<SignatureMemo>,
}

impl<G: Game> Clone for CoreConfig<G> {
    fn clone(&self) -> Self {
        CoreConfig {
            away_after: self.away_after,
            resync_after: self.resync_after,
            chain_len: self.chain_len,
            sit_out: self.sit_out,
            memo: self.memo.clone(),
        }
    }
}

impl<G: Game> Default for CoreConfig<G> {
    fn default() -> Self {
        CoreConfig {
            away_after: 30_000,
            resync_after: 1_500,
            chain_len: beacon::DEFAULT_CHAIN_LEN,
            sit_out: None,
            memo: None,
        }
    }
}

/// Bytes to send to one peer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transmit {
    pub to: PublicKey,
    pub bytes: Vec<u8>,
}

/// A secret this device must keep across restarts (the store's secrets file).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SecretRecord {
    /// The seat's game secret and beacon chain seed, made before its accept is signed.
    Keys {
        secret: Hash,
        chain_seed: Hash,
        chain_len: u32,
    },
    /// A sealed input and its salt, written before its commitment is sent.
    Sealed {
        step: u32,
        log: Hash,
        salt: Hash,
        input: Vec<u8>,
    },
    /// The player's standing choice about an away seat ([`Core::go_on_without`]: the step
    /// it was left at, and skip or remove), or its end ([`Core::wait_for`], `None`): kept so
    /// that a restarted device goes on choosing what its player chose. The last one about a
    /// seat is the one that holds.
    Standing {
        target: Seat,
        choice: Option<(u32, VoteAction)>,
    },
}

/// A record the store writes before the transmits that follow it (durably, unless it is
/// [`Persist::Replayable`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Persist {
    /// A message this seat signed and could not make again the same way after a crash (a
    /// commitment, an open move, a vote, ...), canonical wire bytes: durable before it
    /// leaves, so that the seat can never forget what it said and then say something else.
    Message(Vec<u8>),
    /// A message kept without waiting on the disk: a peer's (lost in a crash, it comes
    /// again from the table), or one of ours that the seat makes again byte for byte after
    /// a crash (an opening of a commitment it kept, a link of its chain).
    Replayable(Vec<u8>),
    /// A secret, for the session's secrets file.
    Secret(SecretRecord),
}

/// What a store kept of a session: enough for [`Core::resume`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Saved {
    pub start: Option<Start>,
    pub messages: Vec<Vec<u8>>,
    pub secrets: Vec<SecretRecord>,
}

/// Proof that a seat cheated, checkable by anyone holding the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Proof {
    /// Two different messages signed by one seat for the same slot on the same log: for
    /// a sealed step, different commitments shown to different peers.
    Equivocation { first: Signed, second: Signed },
    /// A signed opening that does not match the same seat's signed commitment.
    BadOpening { commit: Signed, open: Signed },
}

impl Proof {
    /// Checks the proof against the start and says what it proves; `None` if it proves
    /// nothing (bad signatures, messages that do not conflict).
    pub fn check(&self, start: &Start) -> Option<Fault> {
        let session = start.session();
        let (a, b) = match self {
            Proof::Equivocation { first, second } => (first, second),
            Proof::BadOpening { commit, open } => (commit, open),
        };
        let key = &start.seats.get(a.seat as usize)?.key;
        let same =
            a.session == session && b.session == session && a.seat == b.seat && a.step == b.step;
        if !same || a.basis.log != b.basis.log || !a.verify(key) || !b.verify(key) {
            return None;
        }
        let who = format!("{} (seat {})", start.name(a.seat), a.seat);
        match self {
            Proof::Equivocation { .. } => (a.kind() == b.kind() && a != b).then(|| Fault {
                seat: Some(a.seat),
                step: Some(a.step),
                what: match a.kind() {
                    Kind::Commit => format!(
                        "{who} showed different sealed plays to different players at step {}",
                        a.step
                    ),
                    _ => format!(
                        "{who} signed two different versions of one message at step {}",
                        a.step
                    ),
                },
            }),
            Proof::BadOpening { .. } => match (&a.body, &b.body) {
                (Body::Commit(c), Body::Open { salt, input })
                    if seal::commitment(&session, a.step, a.seat, salt, input) != *c =>
                {
                    Some(Fault {
                        seat: Some(a.seat),
                        step: Some(a.step),
                        what: format!(
                            "{who} opened a play that does not match its sealed play at step {}",
                            a.step
                        ),
                    })
                }
                _ => None,
            },
        }
    }
}

/// Two devices on the same log whose public states differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    pub seat: Seat,
    pub step: u32,
    pub ours: Hash,
    pub theirs: Hash,
}

/// What happened, for the screen and the game log; `E` is the game's event type.
#[derive(Clone, Debug, PartialEq)]
pub enum Event<E> {
    /// Every seat has accepted: the game is on.
    Began,
    /// A step completed; the engine's events for it.
    Stepped { step: u32, events: Vec<E> },
    /// A seat's sealed play is in (its content stays hidden).
    Committed { step: u32, seat: Seat },
    /// A seat has owed the table something for too long.
    Away { seat: Seat },
    /// An away seat delivered.
    Back { seat: Seat },
    /// A seat voted about an away seat.
    Voted {
        step: u32,
        voter: Seat,
        target: Seat,
        action: VoteAction,
    },
    /// The table skipped a seat at a step.
    Skipped { step: u32, seat: Seat },
    /// The table removed a seat from this step on.
    Removed { step: u32, seat: Seat },
    /// A seat agreed to end the game at this step.
    EndProposed { step: u32, seat: Seat },
    /// Every seat still in the game agreed: the game ended at this step, unplayed.
    Ended { step: u32 },
    /// This device had gone ahead on a step the table had meanwhile voted to skip it in;
    /// it went back to that step and caught up with the table.
    Rewound { step: u32 },
    /// A seat's public state differs from ours on the same log: a determinism failure.
    Diverged(Divergence),
    /// A proven fault: the game stops here.
    Halted(Fault),
    /// The audit is done.
    Audited(Verdict),
    /// The device at this seat keeps sending messages that are refused (forged, made up,
    /// or more than a game can use): the driver should close its link for a while. It can
    /// come back and sync like any device that dropped off.
    DropLink { seat: Seat },
}

/// What the screen shows about one seat.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SeatStatus {
    /// The table waits for something from this seat.
    pub owed: bool,
    /// Since when it has been waited for.
    pub owed_since: Option<Time>,
    /// Waited for longer than `away_after`.
    pub away: bool,
    /// Its sealed play (or move) for the current step is in.
    pub committed: bool,
    /// Removed by the table.
    pub removed: bool,
}

/// A message held by the core: decoded, and its canonical bytes for resending.
struct Held {
    wire: Wire,
    bytes: Vec<u8>,
    /// The peers it has reached us from (a bit per seat): an echo is a peer's word that
    /// it holds this very message.
    heard_from: u16,
}

/// The state of the game itself, rebuilt from the log whenever needed.
struct GameState<G: Game> {
    public: G::Public,
    /// `G::pending(&public)`, kept because it is asked for on every message; `Over` once
    /// the table agreed to end the game.
    pending: Pending,
    /// Indexed by seat; only this device's own seat is `Some`.
    privates: Vec<Option<G::Private>>,
    records: Vec<StepRecord>,
    /// `bases[n]` is the basis of step `n`; one longer than `records`.
    bases: Vec<Basis>,
    /// The engine's events, by step.
    events: Vec<(u32, G::Event)>,
    /// Per seat: the last verified beacon link and its index.
    links: Vec<(u32, Hash)>,
    /// Beacon draws made so far.
    draws: u32,
    /// Seats removed, and the step from which.
    removed: BTreeMap<Seat, u32>,
    /// Steps at which seats were skipped (including removals).
    skipped: BTreeSet<(u32, Seat)>,
}

/// Messages of one step on our log, sorted by kind, built up message by message.
struct View<G: Game> {
    /// The step and basis this view is of.
    n: u32,
    basis: Basis,
    /// How many of the step's messages (in arrival order) have been sorted in.
    seen: usize,
    /// Commitment message ids by seat, and openings still waiting for theirs.
    commit_ids: BTreeMap<Seat, Hash>,
    open_ids: Vec<(Seat, Hash)>,
    inputs: BTreeMap<Seat, (Vec<u8>, G::Input)>,
    commits: BTreeMap<Seat, Hash>,
    opens: BTreeMap<Seat, (Vec<u8>, G::Input)>,
    links: BTreeMap<Seat, Hash>,
    /// target -> voter -> action
    votes: BTreeMap<Seat, BTreeMap<Seat, VoteAction>>,
    reveals: BTreeMap<Seat, Reveal>,
    /// Seats that agreed to end the game at this step.
    ends: BTreeSet<Seat>,
}

impl<G: Game> View<G> {
    fn new(n: u32, basis: Basis) -> Self {
        View {
            n,
            basis,
            seen: 0,
            commit_ids: BTreeMap::new(),
            open_ids: Vec::new(),
            inputs: BTreeMap::new(),
            commits: BTreeMap::new(),
            opens: BTreeMap::new(),
            links: BTreeMap::new(),
            votes: BTreeMap::new(),
            reveals: BTreeMap::new(),
            ends: BTreeSet::new(),
        }
    }
}

/// What this seat has sent one peer in answer to its hellos since this seat's own step last
/// changed (or the peer last connected, or `resync_after` passed): history at most once of
/// each kind, and no message twice, so that hellos, however many, cost at most one copy of
/// what this device holds per step or resync period.
#[derive(Default)]
struct Answered {
    /// Our step these answers were made at.
    at: u32,
    /// Since when.
    since: Time,
    /// This seat's own messages (and absent seats') from the peer's step on.
    own: bool,
    /// Every seat's messages from the peer's step on.
    all: bool,
    /// Every message sent in answer.
    sent: IdMap<Hash, ()>,
}

/// What is kept for one seat and step beyond the slots of our own log.
#[derive(Default)]
struct Extra {
    /// The other logs the seat signed messages for this step on.
    logs: Vec<Hash>,
    /// Beacon links of the seat for this step.
    links: u8,
}

/// A beacon link kept until its seat's accept comes (see `Core::early_links`).
struct EarlyLink {
    from: Seat,
    wire: Wire,
    bytes: Vec<u8>,
    id: Hash,
}

/// How many links of one seat are kept before its accept: the first draw's, and one more.
const EARLY_LINKS: usize = 2;

/// Where a message came from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Origin {
    /// Made here: persist and send to every peer.
    Own,
    /// From a peer: persist and echo to the others.
    Peer(Seat),
    /// From our own store at resume: already persisted and sent.
    Store,
}

/// A message as it arrived, decoded, not yet checked.
struct Arrival {
    wire: Wire,
    bytes: Vec<u8>,
    id: Hash,
}

/// The result of trying to complete the current step.
enum Progress {
    /// The step completed (or we sent something): look again.
    Again,
    /// Waiting for these seats.
    Waiting(BTreeSet<Seat>),
}

/// One device's seat at one session. See the module docs for how to drive it.
pub struct Core<G: Game> {
    cfg: CoreConfig<G>,
    start: Start,
    session: SessionId,
    config: G::Config,
    key: SecretKey,
    me: Seat,
    keys: Vec<PublicKey>,
    verifiers: Vec<SeatKey>,

    secret: Hash,
    chain: Chain,
    /// Our sealed inputs by (step, log): salt and input bytes.
    sealed: BTreeMap<(u32, Hash), (Hash, Vec<u8>)>,
    rng: ChaCha20Rng,

    /// Boxed: a catching-up device adds thousands at a time, and the map's regrowth then
    /// moves pointers, not whole messages.
    msgs: IdMap<Hash, Box<Held>>,
    /// Inputs decoded from messages, by message id (`None`: unreadable).
    decoded: IdMap<Hash, Option<G::Input>>,
    /// `check_input` verdicts on inputs, by message id: fixed by the message's basis.
    checked: IdMap<Hash, Option<String>>,
    /// The ids of the messages held for each step, in arrival order, with each one's author
    /// (so a history for a peer is gathered without looking up the rest).
    by_step: BTreeMap<u32, Vec<(Hash, Seat)>>,
    /// (seat, step, kind, log) -> message id: one message per slot and log.
    slots: IdMap<(Seat, u32, Kind, Hash), Hash>,
    accepts: Vec<Option<Accept>>,

    game: Option<GameState<G>>,
    /// The current step's view, kept between messages.
    view: Option<View<G>>,
    owed_since: Vec<Option<Time>>,
    away: Vec<bool>,
    /// Seats this seat has chosen to go on without until their players move again: the
    /// step the choice was made at and the vote (skip or remove) it signs at every step
    /// that waits on the seat. A choice of this device, not of the table's log (each vote
    /// is still a signed message of its step).
    standing: Vec<Option<(u32, VoteAction)>>,
    /// This seat's player is at the device (the app restarted, or the player said so): the
    /// seat says [`Body::Back`] once its log shows the table went on without it (a restarted
    /// device learns that as it catches up). Over once said, or once it moves at the
    /// table's step: a player who then walks away can be skipped again.
    back_due: bool,
    /// Whether the device has a live connection to each seat's device, as the driver
    /// last said (`None`: it never said, as in the simulator).
    linked: Vec<Option<bool>>,
    quiet_since: Time,
    /// Each peer's latest hello: the step it waits on and the ids it holds for it.
    peer_have: Vec<Option<(u32, Vec<Hash>)>>,
    /// Per peer, the step from which our history went to it since it last (re)connected:
    /// a later hello from it then needs only the gaps of its own step, not the history
    /// again (every new message since went to it as it came).
    streamed: Vec<Option<u32>>,
    /// Per peer, the step from which it last got every seat's messages on asking with a
    /// full hello: asking again from the same step gets only the gaps of that step, so a
    /// device stuck for another reason is not sent the whole game at every resync.
    sent_all: Vec<Option<u32>>,
    /// Per peer, what went to it in answer to its hellos since our step last changed.
    answered: Vec<Answered>,
    /// Per peer, the lowest step we have asked it for history from, since it connected: a
    /// link or an opening of another seat is taken from it only as such history.
    asked: Vec<Option<u32>>,
    /// Per peer, messages refused since it was last reported ([`Event::DropLink`]).
    refusals: Vec<u32>,
    /// Per seat, the latest beacon link checked on arrival: its step, its index in the
    /// chain, and the link, so the next one is checked with a hash or two.
    link_tips: Vec<Option<(u32, u32, Hash)>>,
    /// Beacon links that came before their seat's accept (which holds the chain's head, so
    /// nothing could check them yet): a few per seat, taken in when the accept comes. Links
    /// are not echoed, so one dropped here would be missing until the next resync.
    early_links: Vec<EarlyLink>,
    /// What is kept per (seat, step) beyond our own log's slots.
    extra: IdMap<(Seat, u32), Extra>,
    /// Peers known to hold every commitment of the current sealed step (step, log, bits).
    confirmed: (u32, Hash, u16),
    /// Heads this seat signed, by step and log: a step completed again on another log
    /// (after a rewind, or a restart that lost what the first completion was made of) is
    /// told again.
    heads_sent: BTreeSet<(u32, Hash)>,
    diverged: BTreeSet<(Seat, u32)>,
    divergences: Vec<Divergence>,
    proofs: Vec<Proof>,
    halted: Option<Fault>,
    verdict: Option<Verdict>,

    persists: VecDeque<Persist>,
    transmits: VecDeque<Transmit>,
    events: VecDeque<Event<G::Event>>,
}

fn random_hash(rng: &mut ChaCha20Rng) -> Hash {
    let mut h = [0u8; 32];
    rng.fill_bytes(&mut h);
    h
}

fn encode<T: Serialize>(value: &T) -> Vec<u8> {
    postcard::to_stdvec(value).unwrap_or_default()
}

impl<G: Game> Core<G> {
    /// Takes `key`'s seat in the session `start` proposes: makes this seat's game secret and
    /// beacon chain from `entropy` (32 fresh random bytes from the OS) and signs its accept.
    pub fn new(
        start: Start,
        key: SecretKey,
        entropy: Hash,
        now: Time,
        cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let mut rng =
            ChaCha20Rng::from_seed(blake3::derive_key("hoard v1 device entropy", &entropy));
        let keys = SecretRecord::Keys {
            secret: random_hash(&mut rng),
            chain_seed: random_hash(&mut rng),
            chain_len: cfg.chain_len.clamp(1, beacon::MAX_CHAIN_LEN),
        };
        let mut core = Core::blank(start, key, rng, keys.clone(), now, cfg)?;
        core.persists.push_back(Persist::Secret(keys));
        core.sign_accept();
        core.advance(now);
        Ok(core)
    }

    /// Rebuilds a core from its store after a restart. `entropy` seeds salts for new sealed
    /// plays; everything already committed comes from `saved` (a sealed play whose signed
    /// commitment was lost is committed again, the same, from its kept salt and input).
    pub fn resume(
        saved: Saved,
        key: SecretKey,
        entropy: Hash,
        now: Time,
        cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let start = saved
            .start
            .ok_or_else(|| NetError::Corrupt("the game's start is missing".into()))?;
        let mut rng =
            ChaCha20Rng::from_seed(blake3::derive_key("hoard v1 device entropy", &entropy));
        let keys = saved
            .secrets
            .iter()
            .find(|r| matches!(r, SecretRecord::Keys { .. }))
            .cloned();
        let fresh_keys = keys.is_none();
        let keys = keys.unwrap_or_else(|| SecretRecord::Keys {
            secret: random_hash(&mut rng),
            chain_seed: random_hash(&mut rng),
            chain_len: cfg.chain_len.clamp(1, beacon::MAX_CHAIN_LEN),
        });
        let mut core = Core::blank(start, key, rng, keys.clone(), now, cfg)?;
        if fresh_keys {
            core.persists.push_back(Persist::Secret(keys));
        }
        for record in saved.secrets {
            match record {
                SecretRecord::Sealed {
                    step,
                    log,
                    salt,
                    input,
                } => {
                    core.sealed.insert((step, log), (salt, input));
                }
                SecretRecord::Standing { target, choice } => {
                    // A seat the game does not have is damage on disk: it is ignored.
                    if let Some(s) = core.standing.get_mut(target as usize)
                        && target != core.me
                    {
                        *s = choice;
                    }
                }
                SecretRecord::Keys { .. } => {}
            }
        }
        // Room for the whole log at once: no regrowth while it is read back.
        core.msgs.reserve(saved.messages.len());
        let mut saved_messages = Vec::with_capacity(saved.messages.len());
        for bytes in saved.messages {
            let wire = Wire::decode(&bytes).map_err(|e| {
                NetError::Corrupt(format!("a saved message could not be read: {e}"))
            })?;
            let id = Wire::id_of(&bytes);
            saved_messages.push(Arrival { wire, bytes, id });
        }
        // A saved message that no longer checks out is dropped, as it would be from a peer.
        core.ingest_all(now, saved_messages, &mut None, Origin::Store);
        // A choice made about a seat whose player has moved since (as this device heard
        // before it stopped) had ended.
        for target in 0..core.keys.len() as Seat {
            if let Some((since, _)) = core.standing[target as usize]
                && core.moved_after(target, since)
            {
                core.standing[target as usize] = None;
            }
        }
        if core.accepts[core.me as usize].is_none() {
            core.sign_accept();
        }
        core.advance(now);
        // The app was started again: its player is there. If the table went on without the
        // seat (as this device knows now, or learns while it catches up), the seat says so.
        core.back_due = true;
        core.hello_all(true, false);
        Ok(core)
    }

    fn blank(
        start: Start,
        key: SecretKey,
        rng: ChaCha20Rng,
        keys: SecretRecord,
        now: Time,
        cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let config = start.check::<G>()?;
        let me = start.seat_of(&key.public()).ok_or(NetError::NotSeated)?;
        let SecretRecord::Keys {
            secret,
            chain_seed,
            chain_len,
        } = keys
        else {
            return Err(NetError::Corrupt("the seat's keys are missing".into()));
        };
        let n = start.seat_count();
        let session = start.session();
        Ok(Core {
            keys: start.seats.iter().map(|s| s.key).collect(),
            verifiers: start
                .seats
                .iter()
                .map(|s| SeatKey::new(&s.key))
                .collect::<Option<_>>()
                .ok_or_else(|| NetError::BadStart("a seat's key cannot sign".into()))?,
            cfg,
            session,
            config,
            key,
            me,
            secret,
            chain: Chain::new(chain_seed, chain_len.clamp(1, beacon::MAX_CHAIN_LEN)),
            sealed: BTreeMap::new(),
            rng,
            msgs: IdMap::default(),
            decoded: IdMap::default(),
            checked: IdMap::default(),
            by_step: BTreeMap::new(),
            slots: IdMap::default(),
            accepts: vec![None; n],
            game: None,
            view: None,
            owed_since: vec![None; n],
            away: vec![false; n],
            standing: vec![None; n],
            back_due: false,
            linked: vec![None; n],
            quiet_since: now,
            peer_have: vec![None; n],
            streamed: vec![None; n],
            sent_all: vec![None; n],
            answered: (0..n).map(|_| Answered::default()).collect(),
            asked: vec![None; n],
            refusals: vec![0; n],
            link_tips: vec![None; n],
            early_links: Vec::new(),
            extra: IdMap::default(),
            confirmed: (u32::MAX, [0; 32], 0),
            heads_sent: BTreeSet::new(),
            diverged: BTreeSet::new(),
            divergences: Vec::new(),
            proofs: Vec::new(),
            halted: None,
            verdict: None,
            persists: VecDeque::new(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            start,
        })
    }

    // ----- driver input -------------------------------------------------------------

    /// Bytes from peer `from` (the authenticated iroh key of the connection). An error
    /// means the message was refused and dropped; the core is unharmed.
    pub fn handle_message(&mut self, now: Time, from: PublicKey, bytes: &[u8]) -> Result<()> {
        self.handle_messages(now, from, &[bytes])
    }

    /// Messages from peer `from`, in the order sent: each is taken as
    /// [`Core::handle_message`] would take it, but their signatures are checked as one batch
    /// and the step machine runs once at the end. A catching-up device gets the missed
    /// steps this way, hundreds of messages to a frame. Every message is tried, up to the
    /// first forged signature: the rest of the frame is refused unread (an honest device
    /// never sends one). The first refusal is returned; every refusal counts against the
    /// peer (see [`Event::DropLink`]).
    pub fn handle_messages<B: AsRef<[u8]>>(
        &mut self,
        now: Time,
        from: PublicKey,
        batch: &[B],
    ) -> Result<()> {
        let peer = self.start.seat_of(&from).ok_or(NetError::UnseatedPeer)?;
        if peer == self.me {
            return Ok(());
        }
        let mut refused = None;
        let mut fresh: Vec<Arrival> = Vec::new();
        let mut seen: IdMap<Hash, ()> = IdMap::default();
        let mut changed = false;
        let mut forged = false;
        let at = self.step();
        for bytes in batch {
            let bytes = bytes.as_ref();
            // Echoes make most arrivals repeats: an honest peer's bytes are canonical, so
            // their hash is the id of a message we may already hold.
            let id = Wire::id_of(bytes);
            if let Some(held) = self.msgs.get_mut(&id) {
                if held.heard_from & (1 << peer) == 0 {
                    held.heard_from |= 1 << peer;
                    // A first echo of a commitment of this step may be the confirmation an
                    // opening waits on. Any other repeat changes nothing (and a catching-up
                    // device gets thousands of them, one from each peer).
                    changed |= matches!(&held.wire,
                        Wire::Signed(s) if s.step == at && s.kind() == Kind::Commit);
                }
                continue;
            }
            if seen.insert(id, ()).is_some() {
                continue;
            }
            let origin = Origin::Peer(peer);
            let wire = match Wire::decode(bytes) {
                Ok(wire) if wire.session() == &self.session => wire,
                Ok(_) => {
                    self.refuse(origin, NetError::WrongSession, &mut refused);
                    continue;
                }
                Err(e) => {
                    self.refuse(origin, e, &mut refused);
                    continue;
                }
            };
            changed = true;
            if let Wire::Hello(hello) = wire {
                // What came before the hello is ours before we answer it.
                let fresh = std::mem::take(&mut fresh);
                if self.ingest_all(now, fresh, &mut refused, origin) {
                    forged = true;
                    break;
                }
                self.answer_hello(now, peer, &hello);
                continue;
            }
            fresh.push(Arrival {
                wire,
                bytes: bytes.to_vec(),
                id,
            });
        }
        if !forged {
            self.ingest_all(now, fresh, &mut refused, Origin::Peer(peer));
        }
        if changed {
            self.advance(now);
        }
        refused.map_or(Ok(()), Err)
    }

    /// Ingests messages that arrived together, their signatures checked as one batch, up
    /// to the first forged one: whether there was one (the rest of the frame is dropped).
    fn ingest_all(
        &mut self,
        now: Time,
        fresh: Vec<Arrival>,
        refused: &mut Option<NetError>,
        origin: Origin,
    ) -> bool {
        // The store keeps only what this device made or found valid, each record with its
        // checksum, next to the device's own key: its signatures are not checked again.
        let valid = if origin == Origin::Store {
            fresh.len()
        } else {
            self.signed_until_bad(&fresh)
        };
        let forged = valid < fresh.len();
        for (i, arrival) in fresh.into_iter().enumerate() {
            if i == valid {
                let e = match &arrival.wire {
                    Wire::Signed(s) if (s.seat as usize) < self.keys.len() => {
                        NetError::BadSignature {
                            seat: s.seat,
                            name: self.start.name(s.seat),
                        }
                    }
                    Wire::Signed(s) => NetError::NoSuchSeat { seat: s.seat },
                    _ => NetError::Malformed("a message could not be checked".into()),
                };
                self.refuse(origin, e, refused);
                break;
            }
            let raw = Some((arrival.bytes, arrival.id));
            if let Err(e) = self.ingest(now, arrival.wire, raw, origin) {
                self.refuse(origin, e, refused);
            }
        }
        forged
    }

    /// How many of `fresh`, from the first, carry valid signatures (links need none: their
    /// chain authenticates them), stopping at the first that does not or that claims a
    /// seat the table does not have.
    fn signed_until_bad(&self, fresh: &[Arrival]) -> usize {
        let mut items = Vec::new();
        let mut at = Vec::new();
        let mut end = fresh.len();
        for (i, arrival) in fresh.iter().enumerate() {
            if let Wire::Signed(s) = &arrival.wire {
                match self.verifiers.get(s.seat as usize) {
                    Some(key) => {
                        items.push((s, key));
                        at.push(i);
                    }
                    None => {
                        end = i;
                        break;
                    }
                }
            }
        }
        let good = verify_until_bad(&items, self.cfg.memo.as_ref());
        at.get(good).copied().unwrap_or(end)
    }

    /// Notes a refused message: the first refusal of a call is what it returns, and every
    /// one from a peer counts toward cutting it off.
    fn refuse(&mut self, origin: Origin, e: NetError, refused: &mut Option<NetError>) {
        if let Origin::Peer(peer) = origin {
            let count = &mut self.refusals[peer as usize];
            *count += 1;
            if *count >= REFUSALS_TO_DROP {
                *count = 0;
                self.events.push_back(Event::DropLink { seat: peer });
            }
        }
        refused.get_or_insert(e);
    }

    /// A connection to `peer` is (re)established: swap log heads so each side sends what
    /// the other lacks.
    pub fn peer_connected(&mut self, _now: Time, peer: PublicKey) {
        if let Some(seat) = self.start.seat_of(&peer)
            && seat != self.me
        {
            // A new connection: what went over the old one may be lost.
            self.linked[seat as usize] = Some(true);
            self.streamed[seat as usize] = None;
            self.sent_all[seat as usize] = None;
            self.answered[seat as usize] = Answered::default();
            self.asked[seat as usize] = None;
            self.peer_have[seat as usize] = None;
            self.asking(seat);
            let hello = self.hello(true, false);
            self.transmits.push_back(Transmit {
                to: self.keys[seat as usize],
                bytes: hello,
            });
        }
    }

    /// The connection to `peer`'s device broke: a device catching up will not get that
    /// seat's messages from the seat itself, so they go with ours.
    pub fn peer_disconnected(&mut self, peer: PublicKey) {
        if let Some(seat) = self.start.seat_of(&peer)
            && seat != self.me
        {
            self.linked[seat as usize] = Some(false);
        }
    }

    /// Time has passed: mark away seats and, if the table has been quiet, resync.
    pub fn handle_timeout(&mut self, now: Time) {
        self.advance(now);
        if self.unfinished() && now >= self.quiet_since.plus(self.cfg.resync_after) {
            // Heard nothing for a while: if we are behind, every peer sends all it has.
            self.hello_all(true, true);
            self.quiet_since = now;
        }
    }

    /// This seat's move for the current step.
    pub fn submit(&mut self, now: Time, input: G::Input) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::NotYourMove("the game has not begun".into()));
        };
        let n = gs.records.len() as u32;
        let seal = match &gs.pending {
            Pending::Turn { seat } if *seat == self.me => None,
            Pending::Together { seats, seal } if seats.contains(&self.me) => Some(*seal),
            Pending::Over(_) => return Err(NetError::Rules(hoard_rules::RuleError::GameOver)),
            _ => {
                return Err(NetError::NotYourMove(
                    "the table is not waiting for you".into(),
                ));
            }
        };
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::NotYourMove(
                "the table removed you from this game".into(),
            ));
        }
        if !self.my_move() {
            return Err(NetError::NotYourMove(
                "you have already played this step".into(),
            ));
        }
        G::check_input(&gs.public, self.me, &input)?;
        if let Some(private) = gs.privates.get(self.me as usize).and_then(|p| p.as_ref())
            && !G::legal_inputs(&gs.public, Some(private), self.me).contains(&input)
        {
            return Err(NetError::Rules(hoard_rules::RuleError::Illegal {
                seat: self.me,
                why: "your hand does not allow that move".into(),
            }));
        }
        let bytes = encode(&input);
        let basis = gs.bases[n as usize];
        let body = match seal {
            None | Some(Seal::Open) => Body::Input(bytes),
            Some(Seal::UntilAll | Seal::UntilAudit) => {
                let salt = random_hash(&mut self.rng);
                let commitment = seal::commitment(&self.session, n, self.me, &salt, &bytes);
                // The salt and input reach the disk before the commitment can leave.
                self.persists
                    .push_back(Persist::Secret(SecretRecord::Sealed {
                        step: n,
                        log: basis.log,
                        salt,
                        input: bytes.clone(),
                    }));
                self.sealed.insert((n, basis.log), (salt, bytes));
                Body::Commit(commitment)
            }
        };
        self.sign_and_send(n, basis, body);
        self.advance(now);
        Ok(())
    }

    /// Signs again the commitment to this seat's kept sealed play for the current step, if
    /// the table waits for it: the store lost the signed commitment (a damaged last record
    /// of the log is taken for a torn write) but kept the salt and input, written first.
    /// That commitment may have reached the table; choosing anew would show it two sealed
    /// plays. Signatures are deterministic, so this is the very message made before.
    /// Returns whether it signed.
    fn seal_kept_play(&mut self) -> bool {
        let Some(gs) = &self.game else { return false };
        let sealed = matches!(
            gs.pending,
            Pending::Together {
                seal: Seal::UntilAll | Seal::UntilAudit,
                ..
            }
        );
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let Some((salt, input)) = self.sealed.get(&(n, basis.log)) else {
            return false;
        };
        if !sealed || !self.my_move() {
            return false;
        }
        let commitment = seal::commitment(&self.session, n, self.me, salt, input);
        self.sign_and_send(n, basis, Body::Commit(commitment));
        true
    }

    /// This seat's vote to skip or remove an away seat at the current step.
    pub fn vote(&mut self, now: Time, target: Seat, action: VoteAction) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::BadVote("the game has not begun".into()));
        };
        let name = self.start.name(target);
        if !action.skips() {
            return Err(NetError::BadVote(
                "a move that arrives is kept by itself; vote to skip or remove".into(),
            ));
        }
        if target == self.me || target as usize >= self.keys.len() {
            return Err(NetError::BadVote("choose another seat".into()));
        }
        if gs.removed.contains_key(&target) {
            return Err(NetError::BadVote(format!(
                "{name} has already been removed"
            )));
        }
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::BadVote(
                "the table removed you from this game".into(),
            ));
        }
        // Away and not waited for now: a seat the table goes on without stays away between
        // the steps that wait on it.
        if !self.away[target as usize] || self.owed_since[target as usize].is_none() {
            return Err(NetError::BadVote(format!(
                "the table is not waiting for {name}"
            )));
        }
        let n = gs.records.len() as u32;
        match &gs.pending {
            Pending::Over(_) if action == VoteAction::Skip => {
                return Err(NetError::BadVote(format!(
                    "the game is over: {name} can only be removed, to finish the audit without them"
                )));
            }
            Pending::Turn { .. } | Pending::Together { .. }
                if self
                    .cfg
                    .sit_out
                    .and_then(|f| f(&gs.public, target, action.absence()))
                    .is_none() =>
            {
                return Err(NetError::BadVote(format!(
                    "this game cannot go on without {name} at this point; wait for them"
                )));
            }
            _ => {}
        }
        let basis = gs.bases[n as usize];
        let slot = (self.me, n, Kind::Vote(target), basis.log);
        if !self.slots.contains_key(&slot) {
            self.sign_and_send(n, basis, Body::Vote { target, action });
        }
        self.advance(now);
        Ok(())
    }

    /// This seat's standing choice to go on without an away seat (`Skip` or `Remove`): the
    /// vote now, and at every later step that waits on the seat, until its player makes a
    /// move again (or [`Core::wait_for`]). The table goes on without the seat where every
    /// other seat votes so. A seat already being skipped is, as often as not, between the
    /// steps that wait on it: a new choice then takes effect at the next of them.
    pub fn go_on_without(&mut self, now: Time, target: Seat, action: VoteAction) -> Result<()> {
        let owed = self
            .owed_since
            .get(target as usize)
            .is_some_and(|o| o.is_some());
        let since = self.standing.get(target as usize).copied().flatten();
        if owed || since.is_none() {
            self.vote(now, target, action)?;
        }
        let since = since.map_or(self.step(), |(since, _)| since);
        let choice = Some((since, action));
        if self.standing[target as usize] != choice {
            self.standing[target as usize] = choice;
            self.persists
                .push_back(Persist::Secret(SecretRecord::Standing { target, choice }));
        }
        Ok(())
    }

    /// Ends a [`Core::go_on_without`]: from the next step on, the seat is waited for again
    /// (a vote already signed stands).
    pub fn wait_for(&mut self, target: Seat) {
        if let Some(s) = self.standing.get_mut(target as usize)
            && s.take().is_some()
        {
            self.persists
                .push_back(Persist::Secret(SecretRecord::Standing {
                    target,
                    choice: None,
                }));
        }
    }

    /// This seat's agreement to end the game at the current step. It holds for this step
    /// only; the game ends here when every seat still in it has agreed.
    pub fn agree_to_end(&mut self, now: Time) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::CannotEnd("the game has not begun".into()));
        };
        if matches!(gs.pending, Pending::Over(_)) {
            return Err(NetError::CannotEnd("the game is already over".into()));
        }
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::CannotEnd(
                "the table removed you from this game".into(),
            ));
        }
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        if !self.slots.contains_key(&(self.me, n, Kind::End, basis.log)) {
            self.sign_and_send(n, basis, Body::End);
        }
        self.advance(now);
        Ok(())
    }

    /// The seats that agreed to end the game at the current step (none once it is over).
    pub fn end_proposals(&self) -> Vec<Seat> {
        let Some(gs) = &self.game else {
            return Vec::new();
        };
        if matches!(gs.pending, Pending::Over(_)) {
            return Vec::new();
        }
        let n = gs.records.len() as u32;
        let log = gs.bases[n as usize].log;
        let seats: BTreeSet<Seat> = self
            .signed_at(n)
            .filter(|s| s.kind() == Kind::End && s.basis.log == log)
            .filter(|s| !gs.removed.contains_key(&s.seat))
            .map(|s| s.seat)
            .collect();
        seats.into_iter().collect()
    }

    /// The step at which the table agreed to end the game, if it did.
    pub fn ended_by_agreement(&self) -> Option<u32> {
        let records = self.records();
        match records.last() {
            Some(StepRecord::Ended { .. }) => Some(records.len() as u32 - 1),
            _ => None,
        }
    }

    /// Whether `seat`'s player made a move (an input or a commitment) or said it is back
    /// after step `since`, among the messages held.
    fn moved_after(&self, seat: Seat, since: u32) -> bool {
        self.shown_from(seat, since.saturating_add(1))
    }

    /// Whether `seat` signed a move or its [`Body::Back`] at step `from` or later.
    fn shown_from(&self, seat: Seat, from: u32) -> bool {
        self.by_step
            .range(from..)
            .flat_map(|(_, ids)| ids)
            .filter(|(_, author)| *author == seat)
            .any(|(id, _)| {
                matches!(self.msgs.get(id).map(|h| &h.wire),
                    Some(Wire::Signed(s)) if s.kind().shows_player())
            })
    }

    /// This seat's player says it is back at the table: after the table went on without the
    /// seat, its next turns wait for it again (the seat signs [`Body::Back`], which ends
    /// every other seat's standing choice to skip it). Votes already signed stand, so the
    /// step now open may still go on without it. Does nothing unless the table has skipped
    /// the seat since its last move (see [`Core::sat_out`]).
    pub fn back(&mut self, now: Time) {
        if self.sat_out().is_some() {
            self.back_due = true;
            // The player sees the skip on its screen: this device's log is where the table is.
            self.say_back(false);
            self.advance(now);
        }
    }

    /// The step at which the table last went on without this seat, if it has not moved or
    /// said it is back since: what the screen offers "I'm back" for.
    pub fn sat_out(&self) -> Option<u32> {
        let gs = self.game.as_ref()?;
        if gs.removed.contains_key(&self.me) {
            return None;
        }
        let (at, part) = self.last_part()?;
        (part == PlayRecord::SatOut && !self.shown_from(self.me, at)).then_some(at)
    }

    /// The last input step of the log that recorded this seat's part, and that part.
    fn last_part(&self) -> Option<(u32, PlayRecord)> {
        let gs = self.game.as_ref()?;
        gs.records
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, r)| match r {
                StepRecord::Inputs(plays) => plays
                    .iter()
                    .find(|(seat, _)| *seat == self.me)
                    .map(|(_, part)| (i as u32, part.clone())),
                StepRecord::Chance { .. } | StepRecord::Ended { .. } => None,
            })
    }

    /// Signs this seat's [`Body::Back`] if its player is at the device and the table went
    /// on without the seat since its last move; whether it signed. `hear_first`: only once
    /// a peer has said where the table is (after a restart, this device may be far behind).
    fn say_back(&mut self, hear_first: bool) -> bool {
        if !self.back_due || !self.unfinished() || self.sat_out().is_none() {
            return false;
        }
        let Some(gs) = &self.game else { return false };
        let n = gs.records.len() as u32;
        // A Back at a step the table has left might not end a choice made since.
        let heard = !hear_first || self.peer_have.iter().any(Option::is_some);
        if matches!(gs.pending, Pending::Over(_)) || !heard || self.table_is_past(n) {
            return false;
        }
        let basis = gs.bases[n as usize];
        self.back_due = false;
        if self
            .slots
            .contains_key(&(self.me, n, Kind::Back, basis.log))
        {
            return false;
        }
        self.sign_and_send(n, basis, Body::Back);
        true
    }

    /// This seat's standing choice about `target`, if it made one.
    pub fn going_on_without(&self, target: Seat) -> Option<VoteAction> {
        self.standing
            .get(target as usize)
            .copied()
            .flatten()
            .map(|(_, action)| action)
    }

    /// Signs the votes this seat's standing choices owe at the current step; whether it
    /// signed any.
    fn vote_standing(&mut self) -> bool {
        if self.halted.is_some() || self.standing.iter().all(|s| s.is_none()) {
            return false;
        }
        let Some(gs) = &self.game else { return false };
        if gs.removed.contains_key(&self.me) {
            return false;
        }
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let targets: Vec<(Seat, VoteAction)> = (0..self.keys.len() as Seat)
            .filter_map(|t| {
                let i = t as usize;
                let (_, action) = self.standing[i]?;
                let can_sit_out = match &gs.pending {
                    // Only a removed seat is not waited for at the audit.
                    Pending::Over(_) => action == VoteAction::Remove,
                    Pending::Turn { .. } | Pending::Together { .. } => self
                        .cfg
                        .sit_out
                        .and_then(|f| f(&gs.public, t, action.absence()))
                        .is_some(),
                    _ => true,
                };
                let due = self.owed_since[i].is_some()
                    && can_sit_out
                    && !gs.removed.contains_key(&t)
                    && !self
                        .slots
                        .contains_key(&(self.me, n, Kind::Vote(t), basis.log));
                due.then_some((t, action))
            })
            .collect();
        for (target, action) in &targets {
            self.sign_and_send(
                n,
                basis,
                Body::Vote {
                    target: *target,
                    action: *action,
                },
            );
        }
        !targets.is_empty()
    }

    // ----- driver output ------------------------------------------------------------

    /// The next record to make durable. Drain these before [`Core::poll_transmit`].
    pub fn poll_persist(&mut self) -> Option<Persist> {
        self.persists.pop_front()
    }

    /// The next message to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.transmits.pop_front()
    }

    /// When [`Core::handle_timeout`] should next be called.
    pub fn poll_timeout(&self) -> Option<Time> {
        let mut next: Option<Time> = None;
        let mut consider = |t: Time| next = Some(next.map_or(t, |n: Time| n.min(t)));
        if self.unfinished() {
            consider(self.quiet_since.plus(self.cfg.resync_after));
            for (seat, since) in self.owed_since.iter().enumerate() {
                if let Some(since) = since
                    && !self.away[seat]
                {
                    consider(since.plus(self.cfg.away_after));
                }
            }
        }
        next
    }

    /// The next thing that happened.
    pub fn poll_event(&mut self) -> Option<Event<G::Event>> {
        self.events.pop_front()
    }

    // ----- read access ----------------------------------------------------------------

    pub fn session(&self) -> SessionId {
        self.session
    }
    pub fn start(&self) -> &Start {
        &self.start
    }
    pub fn config(&self) -> &G::Config {
        &self.config
    }
    /// This device's seat.
    pub fn my_seat(&self) -> Seat {
        self.me
    }
    /// Whether every seat has accepted.
    pub fn began(&self) -> bool {
        self.game.is_some()
    }
    /// The number of completed steps (the step the table waits on).
    pub fn step(&self) -> u32 {
        self.game.as_ref().map_or(0, |g| g.records.len() as u32)
    }
    pub fn public(&self) -> Option<&G::Public> {
        self.game.as_ref().map(|g| &g.public)
    }
    /// This seat's private side (its hand).
    pub fn private(&self) -> Option<&G::Private> {
        self.game
            .as_ref()
            .and_then(|g| g.privates.get(self.me as usize))
            .and_then(|p| p.as_ref())
    }
    pub fn pending(&self) -> Option<Pending> {
        self.game.as_ref().map(|g| g.pending.clone())
    }
    /// How many messages this device holds (the table's, and whatever peers sent that it
    /// kept).
    pub fn held(&self) -> usize {
        self.msgs.len()
    }
    /// The completed steps.
    pub fn records(&self) -> &[StepRecord] {
        self.game.as_ref().map_or(&[], |g| &g.records)
    }
    /// The engine's events so far, by step, oldest first.
    pub fn events_log(&self) -> &[(u32, G::Event)] {
        self.game.as_ref().map_or(&[], |g| &g.events)
    }
    /// The basis of the current step: the log hash and the public state hash.
    pub fn basis(&self) -> Basis {
        self.game
            .as_ref()
            .and_then(|g| g.bases.last().copied())
            .unwrap_or_default()
    }
    /// [`public_hash`] of the current public state.
    pub fn state_hash(&self) -> Hash {
        self.basis().state
    }
    pub fn verdict(&self) -> Option<&Verdict> {
        self.verdict.as_ref()
    }
    pub fn halted(&self) -> Option<&Fault> {
        self.halted.as_ref()
    }
    pub fn proofs(&self) -> &[Proof] {
        &self.proofs
    }
    pub fn divergences(&self) -> &[Divergence] {
        &self.divergences
    }
    /// Seats removed by the table.
    pub fn removed(&self) -> Vec<Seat> {
        self.game
            .as_ref()
            .map_or(Vec::new(), |g| g.removed.keys().copied().collect())
    }

    /// Whether the table waits for a move from this seat that it has not made yet.
    pub fn my_move(&self) -> bool {
        let Some(gs) = &self.game else { return false };
        if self.halted.is_some() || gs.removed.contains_key(&self.me) {
            return false;
        }
        let n = gs.records.len() as u32;
        let kind = match &gs.pending {
            Pending::Turn { seat } if *seat == self.me => Kind::Input,
            Pending::Together { seats, seal } if seats.contains(&self.me) => match seal {
                Seal::Open => Kind::Input,
                _ => Kind::Commit,
            },
            _ => return false,
        };
        if gs.skipped.contains(&(n, self.me)) || self.table_is_past(n) {
            return false;
        }
        let log = gs.bases[n as usize].log;
        !self.slots.contains_key(&(self.me, n, kind, log))
    }

    /// Whether a peer has said it is past step `n`. The table then finished that step, and
    /// without anything this seat has not sent yet: a device catching up must not move (or
    /// spend a beacon link) at a step the table has already left, only learn how it ended.
    fn table_is_past(&self, n: u32) -> bool {
        self.peer_have.iter().flatten().any(|(at, _)| *at > n)
    }

    /// What the screen shows about a seat.
    pub fn seat_status(&self, seat: Seat) -> SeatStatus {
        let i = seat as usize;
        let Some(gs) = &self.game else {
            return SeatStatus {
                owed: self.owed_since.get(i).is_some_and(|o| o.is_some()),
                owed_since: self.owed_since.get(i).copied().flatten(),
                away: self.away.get(i).copied().unwrap_or(false),
                committed: self.accepts.get(i).is_some_and(|a| a.is_some()),
                removed: false,
            };
        };
        let n = gs.records.len() as u32;
        let log = gs.bases[n as usize].log;
        let committed = [Kind::Input, Kind::Commit]
            .iter()
            .any(|k| self.slots.contains_key(&(seat, n, *k, log)));
        SeatStatus {
            owed: self.owed_since.get(i).is_some_and(|o| o.is_some()),
            owed_since: self.owed_since.get(i).copied().flatten(),
            away: self.away.get(i).copied().unwrap_or(false),
            committed,
            removed: gs.removed.contains_key(&seat),
        }
    }

    // ----- messages in ----------------------------------------------------------------

    fn unfinished(&self) -> bool {
        self.halted.is_none() && self.verdict.is_none()
    }

    fn name(&self, seat: Seat) -> String {
        format!("{} (seat {seat})", self.start.name(seat))
    }

    fn sign_accept(&mut self) {
        let accept = Accept {
            chain_head: self.chain.head(),
            chain_len: self.chain.len(),
            secret: seal::secret_commitment(&self.session, self.me, &self.secret),
        };
        self.sign_and_send(0, Basis::default(), Body::Accept(accept));
    }

    fn sign_and_send(&mut self, step: u32, basis: Basis, body: Body) {
        let msg = Signed::sign(&self.key, self.session, self.me, step, basis, body);
        // Our own message passes every check a peer's would.
        let _ = self.ingest(self.quiet_since, Wire::Signed(msg), None, Origin::Own);
    }

    fn send_link(&mut self, step: u32, link: Hash) {
        let msg = Link {
            session: self.session,
            seat: self.me,
            step,
            link,
        };
        let _ = self.ingest(self.quiet_since, Wire::Link(msg), None, Origin::Own);
    }

    /// Checks a signed message or link and adds it to what we hold.
    /// `raw` is the message as it arrived and its id (the hash of those bytes); `None`
    /// encodes it afresh. A signed message from a peer comes with its signature already
    /// found valid (see [`Core::signed_until_bad`]).
    fn ingest(
        &mut self,
        now: Time,
        wire: Wire,
        raw: Option<(Vec<u8>, Hash)>,
        origin: Origin,
    ) -> Result<()> {
        let (bytes, id) = raw.unwrap_or_else(|| {
            let bytes = wire.encode();
            let id = Wire::id_of(&bytes);
            (bytes, id)
        });
        if self.msgs.contains_key(&id) {
            return Ok(());
        }
        let (seat, step) = match &wire {
            Wire::Signed(s) => (s.seat, s.step),
            Wire::Link(l) => (l.seat, l.step),
            Wire::Hello(_) => return Ok(()),
        };
        if wire.session() != &self.session {
            return Err(NetError::WrongSession);
        }
        if seat as usize >= self.keys.len() {
            return Err(NetError::NoSuchSeat { seat });
        }
        let at = self.step();
        if step > at.saturating_add(WINDOW) {
            return Err(NetError::TooFarAhead {
                seat,
                name: self.start.name(seat),
                step,
                at,
            });
        }
        if let Wire::Signed(s) = &wire {
            let too_big = match &s.body {
                Body::Input(b) | Body::Open { input: b, .. } => b.len() > MAX_INPUT,
                Body::Accept(a) => a.chain_len == 0 || a.chain_len > beacon::MAX_CHAIN_LEN,
                Body::Reveal(r) => r.sealed.iter().any(|o| o.input.len() > MAX_INPUT),
                _ => false,
            };
            if too_big || (s.kind() == Kind::Accept) != (step == 0 && s.basis == Basis::default()) {
                return Err(NetError::Malformed(format!(
                    "a message from {} does not fit its kind",
                    self.name(seat)
                )));
            }
        }

        if let (Origin::Peer(from), Wire::Link(l)) = (origin, &wire)
            && self.accepts[l.seat as usize].is_none()
        {
            let seat = l.seat;
            let held = self
                .early_links
                .iter()
                .filter(|e| matches!(&e.wire, Wire::Link(k) if k.seat == seat))
                .count();
            if held < EARLY_LINKS {
                self.early_links.push(EarlyLink {
                    from,
                    wire,
                    bytes,
                    id,
                });
            }
            return Ok(());
        }
        if let Origin::Peer(from) = origin
            && !self.admit(from, &wire)?
        {
            return Ok(());
        }

        // Keep it, write it down, pass it on.
        match origin {
            Origin::Own => {
                // Its player moves at the table's step: it is here, and says so by moving.
                if matches!(&wire, Wire::Signed(s) if s.kind().is_move())
                    && self.peer_have.iter().any(Option::is_some)
                    && !self.table_is_past(step)
                {
                    self.back_due = false;
                }
                // Signatures are deterministic: an opening or a link made again from the
                // kept secrets is the same bytes, so neither has to wait on the disk.
                let again = match &wire {
                    Wire::Link(_) => true,
                    Wire::Signed(s) => s.kind() == Kind::Open,
                    Wire::Hello(_) => false,
                };
                self.persists.push_back(if again {
                    Persist::Replayable(bytes.clone())
                } else {
                    Persist::Message(bytes.clone())
                });
                for (i, k) in self.keys.iter().enumerate() {
                    if i != self.me as usize {
                        self.transmits.push_back(Transmit {
                            to: *k,
                            bytes: bytes.clone(),
                        });
                    }
                }
            }
            Origin::Peer(_) => {
                // A seat this seat goes on without made a move, or said it is back, after
                // the step it was left at (a move from before might only now be passed
                // on): its player is back.
                let moved = matches!(&wire, Wire::Signed(s) if s.kind().shows_player());
                if moved && self.standing[seat as usize].is_some_and(|(since, _)| step > since) {
                    self.standing[seat as usize] = None;
                }
                self.persists.push_back(Persist::Replayable(bytes.clone()));
                // Echo what a seat could sign twice. An opening is bound by its commitment
                // and a link by its chain, so neither can be shown two ways: no echo needed.
                // Back to the peer it came from too: the echo tells that peer we hold it.
                // Not to a peer that has said it is past the message's step: it completed
                // that step already, and a catching-up device would otherwise send every
                // old message it is given back out to the whole table. A peer that has not
                // said where it is yet (its link is still coming up) is taken to be where
                // the table is: a step the table is two past was settled long ago, and a
                // peer still behind it gets it with the history its hello asks for.
                // Nor what was signed on another log for a step we are at or have left.
                let echo = matches!(&wire, Wire::Signed(s) if s.kind() != Kind::Open
                    && (s.kind() == Kind::Accept || !self.off_our_log(s.step, &s.basis.log)));
                let table_at = self.peer_have.iter().flatten().map(|(at, _)| *at).max();
                let settled = table_at.is_some_and(|at| at > step.saturating_add(1));
                for (i, k) in self.keys.iter().enumerate().filter(|_| echo) {
                    let past = match &self.peer_have[i] {
                        Some((at, _)) => *at > step,
                        None => settled,
                    };
                    let i = i as Seat;
                    if i != self.me && i != seat && !past {
                        self.transmits.push_back(Transmit {
                            to: *k,
                            bytes: bytes.clone(),
                        });
                    }
                }
            }
            Origin::Store => {}
        }
        let heard_from = match origin {
            Origin::Peer(from) => 1 << from,
            Origin::Own | Origin::Store => 0,
        };
        self.msgs.insert(
            id,
            Box::new(Held {
                wire,
                bytes,
                heard_from,
            }),
        );
        self.by_step.entry(step).or_default().push((id, seat));
        if origin != Origin::Store {
            self.quiet_since = self.quiet_since.max(now);
        }

        let Some(Held {
            wire: Wire::Signed(s),
            ..
        }) = self.msgs.get(&id).map(Box::as_ref)
        else {
            return Ok(());
        };
        let s = s.clone();
        let slot = (s.seat, s.step, s.kind(), s.basis.log);
        if let Some(other) = self.slots.get(&slot).copied() {
            if let Some(Held {
                wire: Wire::Signed(first),
                ..
            }) = self.msgs.get(&other).map(Box::as_ref)
                && first != &s
            {
                let proof = Proof::Equivocation {
                    first: first.clone(),
                    second: s,
                };
                self.prove(proof);
            }
            return Ok(());
        }
        self.slots.insert(slot, id);

        match &s.body {
            Body::Accept(a) => {
                self.accepts[s.seat as usize] = Some(a.clone());
            }
            // Sent before a restart: not signed again.
            Body::Head if s.seat == self.me => {
                self.heads_sent.insert((s.step, s.basis.log));
            }
            Body::Commit(_)
                if self.game.as_ref().is_some_and(|g| {
                    g.records.len() as u32 == s.step && g.bases[s.step as usize] == s.basis
                }) =>
            {
                self.events.push_back(Event::Committed {
                    step: s.step,
                    seat: s.seat,
                });
            }
            Body::Vote { target, action } => {
                self.events.push_back(Event::Voted {
                    step: s.step,
                    voter: s.seat,
                    target: *target,
                    action: *action,
                });
                self.vote_arrived(s.step, s.basis);
            }
            Body::End => {
                self.events.push_back(Event::EndProposed {
                    step: s.step,
                    seat: s.seat,
                });
                self.end_arrived(s.step, s.basis);
            }
            _ => {}
        }
        self.check_basis(s.seat, s.step, s.kind(), s.basis);
        if s.kind() == Kind::Accept {
            let (early, rest): (Vec<EarlyLink>, Vec<EarlyLink>) =
                std::mem::take(&mut self.early_links)
                    .into_iter()
                    .partition(|e| matches!(&e.wire, Wire::Link(l) if l.seat == s.seat));
            self.early_links = rest;
            for e in early {
                // Checked now that its chain's head is known; a bad one is simply not kept.
                let _ = self.ingest(now, e.wire, Some((e.bytes, e.id)), Origin::Peer(e.from));
            }
        }
        Ok(())
    }

    /// Whether `log` is not ours at `step`, a step we have completed or are at.
    fn off_our_log(&self, step: u32, log: &Hash) -> bool {
        self.game
            .as_ref()
            .and_then(|g| g.bases.get(step as usize))
            .is_some_and(|b| b.log != *log)
    }

    /// What is checked of a peer's message on arrival beyond its signature: a beacon link
    /// or an opening of another seat is taken only as history we asked that peer for (the
    /// seat's own device sends its own); a link must be on its seat's chain; and one seat
    /// fills one step with no more than a game can use. `Ok(false)`: not worth keeping
    /// (a link for a step the table has left, or one that cannot be checked yet).
    fn admit(&mut self, from: Seat, wire: &Wire) -> Result<bool> {
        let (seat, step, relayed) = match wire {
            Wire::Link(l) => (l.seat, l.step, l.seat != from),
            Wire::Signed(s) => (s.seat, s.step, s.seat != from && s.kind() == Kind::Open),
            Wire::Hello(_) => return Ok(false),
        };
        if relayed && self.asked[from as usize].is_none_or(|s| step < s) {
            return Err(NetError::Unasked {
                seat,
                name: self.start.name(seat),
                by: self.name(from),
            });
        }
        let too_many = || NetError::TooMany {
            seat,
            name: self.start.name(seat),
            step,
        };
        match wire {
            Wire::Link(l) => {
                if step < self.step() || self.accepts[seat as usize].is_none() {
                    return Ok(false);
                }
                if self
                    .extra
                    .get(&(seat, step))
                    .is_some_and(|e| e.links >= LINKS_PER_STEP)
                {
                    return Err(too_many());
                }
                self.check_link(l)?;
                self.extra.entry((seat, step)).or_default().links += 1;
            }
            Wire::Signed(s) => {
                let ours = self
                    .game
                    .as_ref()
                    .and_then(|g| g.bases.get(step as usize))
                    .is_some_and(|b| b.log == s.basis.log);
                if !ours && s.kind() != Kind::Accept {
                    let extra = self.extra.entry((seat, step)).or_default();
                    if !extra.logs.contains(&s.basis.log) {
                        if extra.logs.len() >= OTHER_LOGS {
                            return Err(too_many());
                        }
                        extra.logs.push(s.basis.log);
                    }
                }
            }
            Wire::Hello(_) => {}
        }
        Ok(true)
    }

    /// Whether a beacon link is on its seat's chain: hashed down, it must meet the seat's
    /// last link the table used (its chain's head before the first draw) or the last of its
    /// links checked on arrival, in no more hashes than there can have been draws between
    /// (at most one a step). Only the chain's owner can make such a preimage.
    fn check_link(&mut self, l: &Link) -> Result<()> {
        let i = l.seat as usize;
        let bad = || NetError::BadLink {
            seat: l.seat,
            name: self.start.name(l.seat),
            step: l.step,
        };
        let Some(accept) = &self.accepts[i] else {
            return Err(bad());
        };
        let (draws, (k0, x0)) = match &self.game {
            Some(g) => (g.draws, g.links[i]),
            None => (0, (0, accept.chain_head)),
        };
        let ahead = l.step.saturating_sub(self.step());
        let most = draws
            .saturating_add(1)
            .saturating_add(ahead)
            .min(accept.chain_len);
        let tip = self.link_tips[i].filter(|(at, _, _)| *at < l.step);
        let mut y = l.link;
        for hop in 1..=most.saturating_sub(k0) {
            y = beacon::link_hash(&y);
            let k = if y == x0 {
                k0 + hop
            } else if let Some((_, tk, tx)) = tip
                && y == tx
            {
                tk + hop
            } else {
                continue;
            };
            if k > most {
                break;
            }
            if tip.is_none_or(|(_, tk, _)| k > tk) {
                self.link_tips[i] = Some((l.step, k, l.link));
            }
            return Ok(());
        }
        Err(bad())
    }

    /// A vote for a step we may already have passed: tell the voters how that step ended,
    /// and, if the table's vote overrides how we completed it, go back.
    fn vote_arrived(&mut self, step: u32, basis: Basis) {
        let Some(gs) = &self.game else { return };
        let done = gs.records.len() as u32;
        if step >= done || gs.bases[step as usize] != basis {
            return;
        }
        let Some(public) = self.public_at(step) else {
            return;
        };
        let view = self.view(step, &G::pending(&public));
        let Some(gs) = &self.game else { return };
        let removed = removed_before(&gs.removed, step);
        let (skips, _) = quorum(&view.votes, &removed, self.keys.len());
        let overridden = match &gs.records[step as usize] {
            StepRecord::Inputs(plays) => plays
                .iter()
                .any(|(seat, p)| skips.contains(seat) && Absence::of(p).is_none()),
            // A chance step records its contributors.
            StepRecord::Chance { from, .. } => skips.iter().any(|s| from.contains(s)),
            // Nobody played it: there is no move to skip.
            StepRecord::Ended { .. } => false,
        };
        if overridden {
            self.rewind(step);
        } else if self.vote_failed(step, &skips) {
            self.send_head(step + 1);
        }
    }

    /// Whether a vote at step `n` failed to skip its target (the table's votes skip
    /// `skips`): the voters may then be holding the step, and learn from a head how it
    /// ended. A vote that passed needs no word: every voter holds the same votes and ends
    /// the step the same way, so a table skipping an away seat signs no head per step.
    fn vote_failed(&self, n: u32, skips: &BTreeSet<Seat>) -> bool {
        self.signed_at(n)
            .any(|s| matches!(s.body, Body::Vote { target, .. } if !skips.contains(&target)))
    }

    /// An agreement to end the game at a step we completed the ordinary way (it cannot be
    /// whole: this seat did not sign it): tell its signer how the step ended, so that it
    /// stops holding the step.
    fn end_arrived(&mut self, step: u32, basis: Basis) {
        let Some(gs) = &self.game else { return };
        let done = gs.records.len() as u32;
        if step >= done
            || gs.bases[step as usize] != basis
            || matches!(gs.records[step as usize], StepRecord::Ended { .. })
            || self.table_is_past(step + 1)
        {
            return;
        }
        self.send_head(step + 1);
    }

    /// Whether another seat agreed to end the game at step `n`, which then went on.
    fn end_failed(&self, n: u32) -> bool {
        self.signed_at(n)
            .any(|s| s.seat != self.me && s.kind() == Kind::End)
    }

    /// The signed messages held for step `n` (on any log).
    fn signed_at(&self, n: u32) -> impl Iterator<Item = &Signed> + '_ {
        self.by_step
            .get(&n)
            .into_iter()
            .flatten()
            .filter_map(|(id, _)| match self.msgs.get(id).map(|h| &h.wire) {
                Some(Wire::Signed(s)) => Some(s),
                _ => None,
            })
    }

    /// The public state before step `n` (by replay when `n` is in the past).
    fn public_at(&self, n: u32) -> Option<G::Public> {
        let gs = self.game.as_ref()?;
        if n as usize == gs.records.len() {
            return Some(gs.public.clone());
        }
        let mut public = G::setup(&self.config).ok()?;
        let mut none: Vec<Option<G::Private>> = Vec::new();
        for (i, record) in gs.records.iter().enumerate().take(n as usize) {
            // An ended game's last record plays nothing.
            let Some(step) = self.step_of(i as u32, record, &public, false) else {
                break;
            };
            G::apply(&mut public, &mut none, &step).ok()?;
        }
        Some(public)
    }

    fn send_head(&mut self, step: u32) {
        let Some(gs) = &self.game else { return };
        let Some(basis) = gs.bases.get(step as usize).copied() else {
            return;
        };
        if !self.heads_sent.insert((step, basis.log)) {
            return;
        }
        self.sign_and_send(step, basis, Body::Head);
    }

    /// Whether a peer's message built on our log but another state: its rules disagree.
    fn check_basis(&mut self, seat: Seat, step: u32, kind: Kind, basis: Basis) {
        let Some(gs) = &self.game else { return };
        if kind == Kind::Accept || seat == self.me {
            return;
        }
        let Some(ours) = gs.bases.get(step as usize) else {
            return;
        };
        if ours.log == basis.log && ours.state != basis.state && self.diverged.insert((seat, step))
        {
            let d = Divergence {
                seat,
                step,
                ours: ours.state,
                theirs: basis.state,
            };
            self.divergences.push(d.clone());
            self.events.push_back(Event::Diverged(d));
        }
    }

    fn prove(&mut self, proof: Proof) {
        if let Some(fault) = proof.check(&self.start) {
            self.proofs.push(proof);
            self.halt(fault);
        }
    }

    fn halt(&mut self, fault: Fault) {
        if self.halted.is_some() {
            return;
        }
        self.halted = Some(fault.clone());
        self.events.push_back(Event::Halted(fault.clone()));
        if self.verdict.is_none() {
            self.verdict = Some(Verdict::Fault(fault.clone()));
            self.events.push_back(Event::Audited(Verdict::Fault(fault)));
        }
    }

    // ----- sync -------------------------------------------------------------------------

    fn hello(&self, reply: bool, full: bool) -> Vec<u8> {
        let step = self.step();
        let have = self
            .by_step
            .get(&step)
            .map_or(Vec::new(), |ids| ids.iter().map(|(id, _)| *id).collect());
        Wire::Hello(Hello {
            session: self.session,
            step,
            have,
            reply,
            full,
            shared: self.shared_step(),
        })
        .encode()
    }

    /// The last step at which some peer has shown (by a message signed on it) that it
    /// holds the log we hold: a hello asks for history from there. Usually our own step or
    /// the one before; further back on a device that went on alone (its own move, written
    /// down but never sent) and died before it heard the table skip it there. It is then
    /// on a log of its own past that step, and the peers' messages from that step on, the
    /// table's votes among them, take it back to where the table went another way.
    fn shared_step(&self) -> u32 {
        let Some(gs) = &self.game else {
            return self.step();
        };
        let mut m = gs.records.len() as u32;
        while m > 0 {
            let Some(ours) = gs.bases.get(m as usize) else {
                return m;
            };
            if self
                .signed_at(m)
                .any(|s| s.seat != self.me && s.basis.log == ours.log)
            {
                return m;
            }
            m -= 1;
        }
        m
    }

    /// Notes that a hello goes to `peer`: what it sends back from our shared step on is
    /// history we asked for.
    fn asking(&mut self, peer: Seat) {
        let from = self.shared_step();
        let asked = &mut self.asked[peer as usize];
        *asked = Some(asked.map_or(from, |a| a.min(from)));
    }

    fn hello_all(&mut self, reply: bool, full: bool) {
        let bytes = self.hello(reply, full);
        for peer in 0..self.keys.len() as Seat {
            if peer != self.me {
                self.asking(peer);
            }
        }
        for (i, k) in self.keys.iter().enumerate() {
            if i != self.me as usize {
                self.transmits.push_back(Transmit {
                    to: *k,
                    bytes: bytes.clone(),
                });
            }
        }
    }

    fn answer_hello(&mut self, now: Time, peer: Seat, hello: &Hello) {
        let to = self.keys[peer as usize];
        // Remember what the peer holds: its confirmation that it saw the same commitments.
        let newer = self.peer_have[peer as usize]
            .as_ref()
            .is_none_or(|(step, _)| hello.step >= *step);
        if newer {
            self.peer_have[peer as usize] = Some((hello.step, hello.have.clone()));
        }
        // It holds messages of our step that we do not (perhaps another version of a
        // commitment): ask for them.
        if !hello.reply
            && hello.step == self.step()
            && hello.have.iter().any(|id| !self.msgs.contains_key(id))
        {
            self.asking(peer);
            let bytes = self.hello(false, false);
            self.transmits.push_back(Transmit { to, bytes });
        }
        // Our own hello first, so the peer knows where we stand before what we send it.
        if hello.reply {
            self.asking(peer);
            let bytes = self.hello(false, false);
            self.transmits.push_back(Transmit { to, bytes });
        }
        // Hellos cost a few bytes and can ask for the whole game: each kind of history
        // below goes to a peer at most once until our step changes (or it reconnects), and
        // no message goes twice in answer, so a peer asking again and again, from steps
        // however chosen, gets at most one copy of what we hold per step the table moves.
        // After a resync period it may ask again: what we sent may have been lost, and a
        // table that has finished (or waits on that peer) moves no more.
        let at = self.step();
        let answered = &self.answered[peer as usize];
        if answered.at != at || now >= answered.since.plus(self.cfg.resync_after) {
            self.answered[peer as usize] = Answered {
                at,
                since: now,
                ..Answered::default()
            };
        }
        // What the peer lacks of the step it waits on, from every seat. Then, once per
        // connection (or when the peer went back), the history after that step; later
        // hellos need no history, as everything new went to the peer as it came.
        // A history carries only the messages this seat made and those of seats that cannot
        // send theirs (removed, or away with no connection to us): every other seat sends
        // its own, so a device that catches up gets each missed message once, not once
        // from every peer. (A seat merely slow to move is away too, yet its device is up
        // and sends its own.) A peer that is behind and has heard nothing for a while
        // (`full`) gets every seat's messages.
        let first = self.streamed[peer as usize].is_none_or(|s| s > hello.step)
            && !self.answered[peer as usize].own;
        if first {
            self.streamed[peer as usize] = Some(hello.step);
            self.answered[peer as usize].own = true;
        }
        let all: u16 = (1u16 << self.keys.len()) - 1;
        let full = hello.full
            && hello.step < at
            && self.sent_all[peer as usize] != Some(hello.step)
            && !self.answered[peer as usize].all;
        let authors = if full {
            self.sent_all[peer as usize] = Some(hello.step);
            self.answered[peer as usize].all = true;
            all
        } else if first {
            let removed = self.game.as_ref().map(|g| &g.removed);
            let absent = (0..self.keys.len() as Seat)
                .filter(|s| {
                    let i = *s as usize;
                    self.away[i] && self.linked[i] != Some(true)
                        || removed.is_some_and(|r| r.contains_key(s))
                })
                .fold(0u16, |mask, s| mask | 1 << s);
            (absent | 1 << self.me) & !(1 << peer)
        } else {
            0
        };
        let have: BTreeSet<&Hash> = hello.have.iter().collect();
        let from = if authors == 0 {
            hello.step
        } else {
            hello.shared.min(hello.step)
        };
        let answered = &mut self.answered[peer as usize];
        for (step, ids) in self.by_step.range(from..) {
            let gap = *step == hello.step;
            // A peer behind us may be holding its step for a vote or an agreement to end
            // that did not pass, waiting for word that the step was played: our own
            // messages of the next step (a head, at least). History goes once per step, so
            // if that word was lost it would otherwise never come again.
            let next = *step == hello.step + 1 && hello.step < at;
            if !gap && !next && authors == 0 {
                break;
            }
            for (id, author) in ids {
                let wanted = if gap {
                    !have.contains(id)
                } else {
                    authors & (1 << author) != 0 || next && *author == self.me
                };
                if !wanted || answered.sent.insert(*id, ()).is_some() {
                    continue;
                }
                if let Some(held) = self.msgs.get(id) {
                    let bytes = held.bytes.clone();
                    self.transmits.push_back(Transmit { to, bytes });
                }
            }
        }
    }

    // ----- the step machine -------------------------------------------------------------

    /// Completes every step that can be completed, does this seat's duties (beacon links,
    /// openings, reveals), and updates who is away.
    fn advance(&mut self, now: Time) {
        // A step this moves to may wait on a seat this seat has chosen to go on without:
        // its vote may end that step too. Or on this seat's own sealed play, kept from
        // before a restart that lost its commitment.
        loop {
            self.advance_once(now);
            if !self.vote_standing() && !self.seal_kept_play() {
                break;
            }
        }
        self.say_back(true);
    }

    fn advance_once(&mut self, now: Time) {
        let mut owed = BTreeSet::new();
        while self.halted.is_none() {
            if self.game.is_none() {
                if self.accepts.iter().all(|a| a.is_some()) {
                    self.begin(now);
                    continue;
                }
                owed = (0..self.keys.len() as Seat)
                    .filter(|s| self.accepts[*s as usize].is_none())
                    .collect();
                break;
            }
            match self.try_step(now) {
                Ok(Progress::Again) => continue,
                Ok(Progress::Waiting(w)) => {
                    owed = w;
                    break;
                }
                Err(fault) => {
                    self.halt(fault);
                    break;
                }
            }
        }
        if !self.unfinished() {
            owed.clear();
        }
        for seat in 0..self.keys.len() {
            let is_owed = owed.contains(&(seat as Seat));
            match (is_owed, self.owed_since[seat]) {
                (true, None) => self.owed_since[seat] = Some(now),
                (false, Some(_)) => {
                    self.owed_since[seat] = None;
                    // A seat the table went on without is still away, not back.
                    if self.away[seat] && self.standing[seat].is_none() {
                        self.away[seat] = false;
                        self.events.push_back(Event::Back { seat: seat as Seat });
                    }
                }
                _ => {}
            }
            if let Some(since) = self.owed_since[seat]
                && !self.away[seat]
                && now >= since.plus(self.cfg.away_after)
            {
                self.away[seat] = true;
                self.events.push_back(Event::Away { seat: seat as Seat });
            }
        }
    }

    fn begin(&mut self, now: Time) {
        let n = self.keys.len();
        let public = match G::setup(&self.config) {
            Ok(p) => p,
            Err(e) => {
                self.halt(Fault {
                    seat: None,
                    step: None,
                    what: format!("the game could not be set up: {e}"),
                });
                return;
            }
        };
        let mut privates = vec![None; n];
        privates[self.me as usize] = Some(G::private(&self.config, self.me, self.secret));
        let links = self
            .accepts
            .iter()
            .map(|a| (0, a.as_ref().map_or([0; 32], |a| a.chain_head)))
            .collect();
        let basis = Basis {
            log: log::genesis(&self.session),
            state: public_hash(&public),
        };
        self.game = Some(GameState {
            pending: G::pending(&public),
            public,
            privates,
            records: Vec::new(),
            bases: vec![basis],
            events: Vec::new(),
            links,
            draws: 0,
            removed: BTreeMap::new(),
            skipped: BTreeSet::new(),
        });
        self.quiet_since = self.quiet_since.max(now);
        self.events.push_back(Event::Began);
        self.recheck_divergence(0);
    }

    fn recheck_divergence(&mut self, step: u32) {
        let msgs: Vec<(Seat, Kind, Basis)> = self
            .signed_at(step)
            .map(|s| (s.seat, s.kind(), s.basis))
            .collect();
        for (seat, kind, basis) in msgs {
            self.check_basis(seat, step, kind, basis);
        }
    }

    /// The view of step `n` on our log. The current step's view is kept between calls and
    /// only messages that arrived since are sorted in.
    fn view(&mut self, n: u32, pending: &Pending) -> View<G> {
        let Some(gs) = &self.game else {
            return View::new(n, Basis::default());
        };
        let Some(basis) = gs.bases.get(n as usize).copied() else {
            return View::new(n, Basis::default());
        };
        let current = n as usize == gs.records.len();
        let mut view = match self.view.take() {
            Some(v) if current && v.n == n && v.basis == basis => v,
            other => {
                if !current {
                    self.view = other;
                }
                View::new(n, basis)
            }
        };
        self.absorb(&mut view, pending);
        view
    }

    /// Sorts the step's messages that `view` has not seen yet into it, checking each. A
    /// signed message that proves a fault halts the game.
    fn absorb(&mut self, view: &mut View<G>, pending: &Pending) {
        let n = view.n;
        let basis = view.basis;
        let Some(gs) = &self.game else { return };
        let removed = removed_before(&gs.removed, n);
        let public_now = n as usize == gs.records.len();
        let (awaited, seal): (&[Seat], Option<Seal>) = match pending {
            Pending::Turn { seat } => (std::slice::from_ref(seat), None),
            Pending::Together { seats, seal } => (seats, Some(*seal)),
            _ => (&[], None),
        };
        let draw_k = gs.draws + 1;
        let ids = self.by_step.get(&n).map_or(&[][..], |v| &v[..]);
        let mut input_ids: Vec<(Seat, Hash)> = Vec::new();
        for (id, _) in ids.iter().skip(view.seen) {
            let Some(held) = self.msgs.get(id) else {
                continue;
            };
            match &held.wire {
                Wire::Link(l) => {
                    if matches!(pending, Pending::Chance)
                        && public_now
                        && !view.links.contains_key(&l.seat)
                        && !removed.contains(&l.seat)
                    {
                        let (known_k, known) = gs.links[l.seat as usize];
                        let len = self.accepts[l.seat as usize]
                            .as_ref()
                            .map_or(0, |a| a.chain_len);
                        if beacon::verify_link(known_k, &known, draw_k, &l.link, len) {
                            view.links.insert(l.seat, l.link);
                        }
                    }
                }
                Wire::Signed(s) => {
                    if s.basis != basis || removed.contains(&s.seat) {
                        continue;
                    }
                    let awaits = awaited.contains(&s.seat);
                    match &s.body {
                        Body::Input(_) if awaits && matches!(seal, None | Some(Seal::Open)) => {
                            input_ids.push((s.seat, *id));
                        }
                        Body::Commit(c)
                            if awaits
                                && matches!(seal, Some(Seal::UntilAll | Seal::UntilAudit)) =>
                        {
                            view.commits.entry(s.seat).or_insert(*c);
                            view.commit_ids.entry(s.seat).or_insert(*id);
                        }
                        Body::Open { .. } if awaits && seal == Some(Seal::UntilAll) => {
                            view.open_ids.push((s.seat, *id));
                        }
                        Body::Vote { target, action } => {
                            view.votes
                                .entry(*target)
                                .or_default()
                                .insert(s.seat, *action);
                        }
                        Body::Reveal(r) if matches!(pending, Pending::Over(_)) => {
                            view.reveals.entry(s.seat).or_insert_with(|| r.clone());
                        }
                        Body::End if !matches!(pending, Pending::Over(_)) => {
                            view.ends.insert(s.seat);
                        }
                        _ => {}
                    }
                }
                Wire::Hello(_) => {}
            }
        }
        view.seen = ids.len();

        let mut proofs: Vec<Proof> = Vec::new();
        let mut faults: Vec<Fault> = Vec::new();
        let mut waiting = Vec::new();
        for (seat, id) in std::mem::take(&mut view.open_ids) {
            if view.opens.contains_key(&seat) {
                continue;
            }
            let (Some(commit_id), Some(Wire::Signed(open))) = (
                view.commit_ids.get(&seat),
                self.msgs.get(&id).map(|h| &h.wire),
            ) else {
                // Its commitment has not come yet: look again when it does.
                waiting.push((seat, id));
                continue;
            };
            let Body::Open { salt, input } = &open.body else {
                continue;
            };
            if seal::commitment(&self.session, n, seat, salt, input) != view.commits[&seat] {
                // Its signature was checked on arrival: a signed opening that does not match
                // its seat's commitment is proof against that seat.
                if let Some(Wire::Signed(commit)) = self.msgs.get(commit_id).map(|h| &h.wire) {
                    proofs.push(Proof::BadOpening {
                        commit: commit.clone(),
                        open: open.clone(),
                    });
                }
                continue;
            }
            match self.judge(n, seat, id, public_now, "sealed a play") {
                Ok(judged) => {
                    view.opens.insert(seat, judged);
                }
                Err(f) => faults.push(f),
            }
        }
        view.open_ids = waiting;
        for (seat, id) in input_ids {
            if view.inputs.contains_key(&seat) {
                continue;
            }
            match self.judge(n, seat, id, public_now, "signed a move") {
                Ok(judged) => {
                    view.inputs.insert(seat, judged);
                }
                Err(f) => faults.push(f),
            }
        }
        for proof in proofs {
            self.prove(proof);
        }
        if let Some(f) = faults.into_iter().next() {
            self.halt(f);
        }
    }

    /// Decodes the input a message carries and, at the current step, checks it against the
    /// public state; both results are kept by message id (a message's basis fixes them).
    fn judge(
        &mut self,
        n: u32,
        seat: Seat,
        id: Hash,
        public_now: bool,
        did: &str,
    ) -> Result<(Vec<u8>, G::Input), Fault> {
        let who = || format!("{} (seat {seat})", self.start.name(seat));
        let bytes = match self.msgs.get(&id).map(|h| &h.wire) {
            Some(Wire::Signed(Signed {
                body: Body::Input(b) | Body::Open { input: b, .. },
                ..
            })) => b.clone(),
            _ => Vec::new(),
        };
        let decoded = self
            .decoded
            .entry(id)
            .or_insert_with(|| postcard::from_bytes::<G::Input>(&bytes).ok())
            .clone();
        let Some(input) = decoded else {
            return Err(Fault {
                seat: Some(seat),
                step: Some(n),
                what: format!("{} {did} that cannot be read at step {n}", who()),
            });
        };
        if public_now {
            let verdict = match self.checked.get(&id) {
                Some(v) => v.clone(),
                None => {
                    let v = self
                        .game
                        .as_ref()
                        .and_then(|g| G::check_input(&g.public, seat, &input).err())
                        .map(|e| e.to_string());
                    self.checked.insert(id, v.clone());
                    v
                }
            };
            if let Some(why) = verdict {
                return Err(Fault {
                    seat: Some(seat),
                    step: Some(n),
                    what: format!("{} {did} the rules forbid at step {n}: {why}", who()),
                });
            }
        }
        Ok((bytes, input))
    }

    /// Tries to complete the current step.
    fn try_step(&mut self, now: Time) -> Result<Progress, Fault> {
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        let n = gs.records.len() as u32;
        let pending = gs.pending.clone();
        let view = self.view(n, &pending);
        let result = if self.halted.is_some() {
            Ok(Progress::Waiting(BTreeSet::new()))
        } else {
            self.step_with(now, &pending, &view)
        };
        if self.step() == n && self.view.is_none() {
            self.view = Some(view);
        }
        result
    }

    /// [`Core::try_step`] with the current step's view.
    fn step_with(
        &mut self,
        now: Time,
        pending: &Pending,
        view: &View<G>,
    ) -> Result<Progress, Fault> {
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let pending = pending.clone();
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        let all: Vec<Seat> = (0..self.keys.len() as Seat).collect();
        let removed = removed_before(&gs.removed, n);
        let (skips, removals) = quorum(&view.votes, &removed, self.keys.len());
        let me = self.me;
        let i_am_in = !removed.contains(&me);

        if let Pending::Over(_) = pending {
            return self.over(n, basis, view, &removed, &removals);
        }
        // Every seat still in the game agreed to end it here: nothing else of this step
        // counts (no seat that agreed has completed it otherwise). A seat the table votes
        // to remove at this step need not agree; it is removed with the game's end.
        let staying: Vec<Seat> = all
            .iter()
            .copied()
            .filter(|s| !removed.contains(s) && !removals.contains(s))
            .collect();
        if !staying.is_empty() && staying.iter().all(|s| view.ends.contains(s)) {
            self.end_here(now, n, staying, &removals);
            return Ok(Progress::Again);
        }

        let awaited: Vec<Seat> = match &pending {
            Pending::Turn { seat } => vec![*seat],
            Pending::Together { seats, .. } => seats.clone(),
            Pending::Chance => all
                .iter()
                .copied()
                .filter(|s| {
                    self.accepts[*s as usize]
                        .as_ref()
                        .is_some_and(|a| a.chain_len > gs.draws)
                })
                .collect(),
            Pending::Over(_) => Vec::new(),
        };
        let sitting = match &pending {
            Pending::Chance => sitting_out(&gs.records[..n as usize], &removed, self.keys.len()),
            _ => BTreeSet::new(),
        };
        let active: Vec<Seat> = awaited
            .iter()
            .copied()
            .filter(|s| !removed.contains(s) && !skips.contains(s) && !sitting.contains(s))
            .collect();
        // Seats I voted to skip: I hold the step for the vote unless it is shown to have
        // ended with their move.
        let my_votes: BTreeSet<Seat> = view
            .votes
            .iter()
            .filter(|(t, voters)| voters.get(&me).is_some_and(|a| a.skips()) && !skips.contains(t))
            .map(|(t, _)| *t)
            .collect();

        // This seat's duties first.
        match &pending {
            Pending::Chance
                if i_am_in
                    && active.contains(&me)
                    && !view.links.contains_key(&me)
                    && !self.table_is_past(n) =>
            {
                if let Some(x) = self.chain.link(gs.draws + 1) {
                    self.send_link(n, x);
                    return Ok(Progress::Again);
                }
            }
            Pending::Together {
                seal: Seal::UntilAll,
                ..
            } if i_am_in
                && active.contains(&me)
                && view.commits.contains_key(&me)
                && !view.opens.contains_key(&me)
                && active.iter().all(|s| view.commits.contains_key(s)) =>
            {
                // Every commitment is in. Open only once each other player has shown it holds
                // the very same ones: by echoing each of them to us, or, when echoes were
                // lost, by listing them in its sync hello, or by having opened (an honest
                // seat opens only after the same check, and a cheat's word counts for
                // nothing anyway). A seat that showed different commitments to different
                // players is so caught (both signed versions meet) before anyone has opened.
                let ids: Vec<(Seat, Hash)> = active
                    .iter()
                    .filter_map(|s| view.commit_ids.get(s).map(|id| (*s, *id)))
                    .collect();
                if self.confirmed.0 != n || self.confirmed.1 != basis.log {
                    self.confirmed = (n, basis.log, 0);
                }
                let known = self.confirmed.2;
                let unconfirmed: BTreeSet<Seat> = active
                    .iter()
                    .copied()
                    .filter(|p| *p != me && known & (1 << p) == 0 && !view.opens.contains_key(p))
                    .filter(|p| {
                        let echoed = ids.iter().all(|(author, id)| {
                            *author == me
                                || author == p
                                || self.msgs.get(id).is_some_and(|h| h.heard_from & (1 << p) != 0)
                        });
                        let listed = matches!(&self.peer_have[*p as usize],
                            Some((step, have)) if *step == n && ids.iter().all(|(_, id)| have.contains(id)));
                        !(echoed || listed)
                    })
                    .collect();
                // Once shown, it stays shown: the set of commitments cannot change.
                self.confirmed.2 = active
                    .iter()
                    .filter(|p| !unconfirmed.contains(p))
                    .fold(known, |bits, p| bits | (1 << p));
                if !unconfirmed.is_empty() {
                    return Ok(Progress::Waiting(unconfirmed));
                }
                let Some((salt, input)) = self.sealed.get(&(n, basis.log)).cloned() else {
                    return Err(Fault {
                        seat: Some(me),
                        step: Some(n),
                        what: "this device lost its own sealed play and cannot open it".into(),
                    });
                };
                self.sign_and_send(n, basis, Body::Open { salt, input });
                return Ok(Progress::Again);
            }
            _ => {}
        }

        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        // What is still missing, and from whom.
        let owed: BTreeSet<Seat> = match &pending {
            Pending::Chance => active
                .iter()
                .copied()
                .filter(|s| !view.links.contains_key(s))
                .collect(),
            Pending::Turn { .. }
            | Pending::Together {
                seal: Seal::Open, ..
            } => active
                .iter()
                .copied()
                .filter(|s| !view.inputs.contains_key(s))
                .collect(),
            Pending::Together {
                seal: Seal::UntilAudit,
                ..
            } => active
                .iter()
                .copied()
                .filter(|s| !view.commits.contains_key(s))
                .collect(),
            Pending::Together {
                seal: Seal::UntilAll,
                ..
            } => {
                let uncommitted: BTreeSet<Seat> = active
                    .iter()
                    .copied()
                    .filter(|s| !view.commits.contains_key(s))
                    .collect();
                if uncommitted.is_empty() {
                    active
                        .iter()
                        .copied()
                        .filter(|s| !view.opens.contains_key(s))
                        .collect()
                } else {
                    uncommitted
                }
            }
            Pending::Over(_) => BTreeSet::new(),
        };
        if !owed.is_empty() {
            return Ok(Progress::Waiting(owed));
        }

        // Everything is in: the step's record, and the step the engine sees.
        let absence = |seat: Seat| {
            if removed.contains(&seat) || removals.contains(&seat) {
                Absence::Removed
            } else {
                Absence::Skipped
            }
        };
        let sit_out = |seat: Seat| {
            let absence = absence(seat);
            let input = self.cfg.sit_out.and_then(|f| f(&gs.public, seat, absence));
            input.map(|i| (i, absence.record()))
        };
        let (record, step) = match &pending {
            Pending::Chance => {
                let links: Vec<(Seat, Hash)> = active.iter().map(|s| (*s, view.links[s])).collect();
                let draw = beacon::draw(&self.session, gs.draws + 1, &links);
                (
                    StepRecord::Chance {
                        draw,
                        from: active.clone(),
                    },
                    Step::Chance(draw),
                )
            }
            Pending::Turn { .. } | Pending::Together { .. } => {
                let seal = match &pending {
                    Pending::Together { seal, .. } => *seal,
                    _ => Seal::Open,
                };
                let mut plays = Vec::with_capacity(awaited.len());
                let mut rec = Vec::with_capacity(awaited.len());
                let mut sorted = awaited.clone();
                sorted.sort_unstable();
                sorted.dedup();
                for seat in sorted {
                    if !active.contains(&seat) {
                        let Some((input, record)) = sit_out(seat) else {
                            // The game cannot express it; the table waits for the seat.
                            return Ok(Progress::Waiting([seat].into()));
                        };
                        plays.push((seat, Play::Open(input)));
                        rec.push((seat, record));
                        continue;
                    }
                    match seal {
                        Seal::Open => {
                            let (bytes, input) = view.inputs[&seat].clone();
                            plays.push((seat, Play::Open(input)));
                            rec.push((seat, PlayRecord::Open(bytes)));
                        }
                        Seal::UntilAll => {
                            let (bytes, input) = view.opens[&seat].clone();
                            plays.push((seat, Play::Open(input)));
                            rec.push((
                                seat,
                                PlayRecord::Opened {
                                    commitment: view.commits[&seat],
                                    input: bytes,
                                },
                            ));
                        }
                        Seal::UntilAudit => {
                            let commitment = view.commits[&seat];
                            let play = if seat == me {
                                match self
                                    .sealed
                                    .get(&(n, basis.log))
                                    .and_then(|(_, b)| postcard::from_bytes::<G::Input>(b).ok())
                                {
                                    Some(i) => Play::Open(i),
                                    None => {
                                        return Err(Fault {
                                            seat: Some(me),
                                            step: Some(n),
                                            what: "this device lost its own sealed choice".into(),
                                        });
                                    }
                                }
                            } else {
                                Play::Closed
                            };
                            plays.push((seat, play));
                            rec.push((seat, PlayRecord::Closed { commitment }));
                        }
                    }
                }
                (StepRecord::Inputs(rec), Step::Inputs(plays))
            }
            Pending::Over(_) => return Ok(Progress::Waiting(BTreeSet::new())),
        };

        let next_log = log::extend(&basis.log, &record);
        // I agreed to end the game here: this step ends that way if the others agree too,
        // so I go on with it only once a seat that did not agree shows it went on. (Not one
        // that agreed: it too may go on only so shown, so a seat that agreed and also went
        // on unshown cannot take anyone with it.) Nor do I keep a move the others vote to
        // skip while I hold the step: that veto would leave a table whose every other seat
        // agreed unable to remove a seat gone for good, and so never able to end.
        if view.ends.contains(&me)
            && !self
                .signed_at(n + 1)
                .any(|s| s.basis.log == next_log && !view.ends.contains(&s.seat))
        {
            let undecided = staying
                .iter()
                .copied()
                .filter(|s| !view.ends.contains(s))
                .collect();
            return Ok(Progress::Waiting(undecided));
        }
        // Others voted to skip a seat whose move is in, and I did not: say that I keep its
        // move. My vote slot for that seat is then taken, so the skip can no longer pass,
        // and the voters can go on (they may all be holding the step for votes of their own).
        let keep: Vec<Seat> = view
            .votes
            .iter()
            .filter(|(t, voters)| {
                active.contains(t)
                    && **t != me
                    && i_am_in
                    && !voters.contains_key(&me)
                    && voters.iter().any(|(v, a)| *v != me && a.skips())
            })
            .map(|(t, _)| *t)
            .collect();
        for target in keep {
            let slot = (me, n, Kind::Vote(target), basis.log);
            if !self.slots.contains_key(&slot) {
                let action = VoteAction::Keep;
                self.sign_and_send(n, basis, Body::Vote { target, action });
            }
        }

        // A seat I voted to skip delivered: go on with its move only once the vote can no
        // longer pass: another voter kept the move, or shows it completed the step that way.
        // A seat the table removes at this very step will never vote: a vote still waiting
        // on it can no longer pass either.
        let held: Vec<Seat> = my_votes
            .iter()
            .copied()
            .filter(|t| active.contains(t))
            .filter(|t| {
                !view.votes[t]
                    .iter()
                    .any(|(v, a)| *v != me && *a == VoteAction::Keep)
            })
            .filter(|t| {
                !removals
                    .iter()
                    .any(|s| s != t && !view.votes[t].contains_key(s))
            })
            .collect();
        if !held.is_empty() {
            let shown = self
                .signed_at(n + 1)
                .any(|s| s.basis.log == next_log && !my_votes.contains(&s.seat));
            if !shown {
                // Waiting on the seats that have yet to vote on it (or keep its move): shown
                // as owed, so a seat that went silent meanwhile can be voted on in turn.
                let removed = &removed;
                let silent = held
                    .iter()
                    .flat_map(|t| {
                        all.iter()
                            .copied()
                            .filter(move |s| s != t && *s != me && !removed.contains(s))
                            .filter(|s| !view.votes[t].contains_key(s))
                    })
                    .collect();
                return Ok(Progress::Waiting(silent));
            }
        }

        self.apply(now, n, record, step, &skips, &removals)?;
        Ok(Progress::Again)
    }

    fn apply(
        &mut self,
        now: Time,
        n: u32,
        record: StepRecord,
        step: Step<G::Input>,
        skips: &BTreeSet<Seat>,
        removals: &BTreeSet<Seat>,
    ) -> Result<(), Fault> {
        // The links that made a draw become each seat's last known link.
        let links: Vec<(Seat, Hash)> = match &record {
            StepRecord::Chance { from, .. } => from
                .iter()
                .filter_map(|s| self.chain_link_seen(n, *s).map(|x| (*s, x)))
                .collect(),
            StepRecord::Inputs(_) | StepRecord::Ended { .. } => Vec::new(),
        };
        let start = &self.start;
        let Some(gs) = &mut self.game else {
            return Ok(());
        };
        let events = G::apply(&mut gs.public, &mut gs.privates, &step).map_err(|e| {
            let what = match e.seat() {
                Some(s) => format!("{} (seat {s}) at step {n}: {e}", start.name(s)),
                None => format!("step {n} could not be played: {e}"),
            };
            Fault {
                seat: e.seat(),
                step: Some(n),
                what,
            }
        })?;
        if let StepRecord::Chance { .. } = &record {
            gs.draws += 1;
            for (s, x) in links {
                gs.links[s as usize] = (gs.draws, x);
            }
        }
        let basis = log::next_basis(&gs.bases[n as usize], &record, public_hash(&gs.public));
        gs.records.push(record);
        gs.bases.push(basis);
        gs.pending = G::pending(&gs.public);
        for e in &events {
            gs.events.push((n, e.clone()));
        }
        let mut out = Vec::new();
        for seat in skips {
            gs.skipped.insert((n, *seat));
            out.push(Event::Skipped {
                step: n,
                seat: *seat,
            });
        }
        for seat in removals {
            gs.removed.entry(*seat).or_insert(n);
            out.push(Event::Removed {
                step: n,
                seat: *seat,
            });
        }
        self.events.push_back(Event::Stepped { step: n, events });
        self.events.extend(out);
        self.quiet_since = self.quiet_since.max(now);
        // A vote that did not pass raced this step: tell everyone how it ended here. Not at
        // a step the table has left: a device catching up would sign one for every step it
        // learns, and the table knows how they ended.
        // So too an agreement to end the game here that not every seat signed.
        if (self.vote_failed(n, skips) || self.end_failed(n)) && !self.table_is_past(n + 1) {
            self.send_head(n + 1);
        }
        self.recheck_divergence(n + 1);
        Ok(())
    }

    /// Ends the game at step `n` by the agreement of the seats `by`, removing `removals`:
    /// the step is recorded, nothing is played, and the game is over (no winner: it was
    /// not played out).
    fn end_here(&mut self, now: Time, n: u32, by: Vec<Seat>, removals: &BTreeSet<Seat>) {
        let Some(gs) = &mut self.game else { return };
        for seat in removals {
            gs.removed.entry(*seat).or_insert(n);
            self.events.push_back(Event::Removed {
                step: n,
                seat: *seat,
            });
        }
        let record = StepRecord::Ended { by };
        let basis = log::next_basis(&gs.bases[n as usize], &record, public_hash(&gs.public));
        gs.records.push(record);
        gs.bases.push(basis);
        gs.pending = Pending::Over(Outcome::default());
        self.events.push_back(Event::Ended { step: n });
        self.quiet_since = self.quiet_since.max(now);
        self.recheck_divergence(n + 1);
    }

    /// The number of draws made before step `n` (on our log).
    fn step_draws(&self, n: u32) -> u32 {
        self.game.as_ref().map_or(0, |g| {
            // At the current step: the running count (counting the log each time made every
            // draw cost a pass over the whole game).
            if n as usize == g.records.len() {
                return g.draws;
            }
            g.records
                .iter()
                .take(n as usize)
                .filter(|r| matches!(r, StepRecord::Chance { .. }))
                .count() as u32
        })
    }

    /// The verified link seat `s` gave for the draw at step `n`.
    fn chain_link_seen(&self, n: u32, s: Seat) -> Option<Hash> {
        let gs = self.game.as_ref()?;
        let k = self.step_draws(n) + 1;
        let (known_k, known) = gs.links[s as usize];
        let len = self.accepts[s as usize].as_ref()?.chain_len;
        self.by_step
            .get(&n)?
            .iter()
            .filter(|(_, author)| *author == s)
            .find_map(|(id, _)| match self.msgs.get(id).map(|h| &h.wire) {
                Some(Wire::Link(l)) if beacon::verify_link(known_k, &known, k, &l.link, len) => {
                    Some(l.link)
                }
                _ => None,
            })
    }

    /// The game is over: reveal, collect every reveal, audit.
    fn over(
        &mut self,
        n: u32,
        basis: Basis,
        view: &View<G>,
        removed: &BTreeSet<Seat>,
        removals: &BTreeSet<Seat>,
    ) -> Result<Progress, Fault> {
        if self.verdict.is_some() {
            return Ok(Progress::Waiting(BTreeSet::new()));
        }
        let me = self.me;
        if !removed.contains(&me) && !view.reveals.contains_key(&me) {
            let Some(gs) = &self.game else {
                return Ok(Progress::Waiting(BTreeSet::new()));
            };
            let mut sealed = Vec::new();
            for (i, record) in gs.records.iter().enumerate() {
                if let StepRecord::Inputs(plays) = record
                    && plays
                        .iter()
                        .any(|(s, p)| *s == me && matches!(p, PlayRecord::Closed { .. }))
                    && let Some((salt, input)) = self.sealed.get(&(i as u32, gs.bases[i].log))
                {
                    sealed.push(AuditOpening {
                        step: i as u32,
                        salt: *salt,
                        input: input.clone(),
                    });
                }
            }
            let reveal = Reveal {
                secret: self.secret,
                sealed,
            };
            self.sign_and_send(n, basis, Body::Reveal(reveal));
            return Ok(Progress::Again);
        }
        let gone: BTreeSet<Seat> = removed.union(removals).copied().collect();
        let owed: BTreeSet<Seat> = (0..self.keys.len() as Seat)
            .filter(|s| !gone.contains(s) && !view.reveals.contains_key(s))
            .collect();
        if !owed.is_empty() {
            return Ok(Progress::Waiting(owed));
        }
        let Some(gs) = &self.game else {
            return Ok(Progress::Waiting(BTreeSet::new()));
        };
        let accepts: Vec<Accept> = self.accepts.iter().flatten().cloned().collect();
        let reveals: Vec<Option<Reveal>> = (0..self.keys.len() as Seat)
            .map(|s| view.reveals.get(&s).cloned())
            .collect();
        let verdict = audit::audit::<G>(&AuditInput {
            session: &self.session,
            start: &self.start,
            config: &self.config,
            accepts: &accepts,
            records: &gs.records,
            reveals: &reveals,
            sit_out: self.cfg.sit_out,
            final_state: basis.state,
        });
        for seat in removals {
            if let Some(gs) = &mut self.game
                && !gs.removed.contains_key(seat)
            {
                gs.removed.insert(*seat, n);
                self.events.push_back(Event::Removed {
                    step: n,
                    seat: *seat,
                });
            }
        }
        self.verdict = Some(verdict.clone());
        self.events.push_back(Event::Audited(verdict));
        Ok(Progress::Waiting(BTreeSet::new()))
    }

    /// The engine's view of a recorded step. With `own` the owner's sealed choices are
    /// passed open (to move its own private side), as they were live. `None` for the end
    /// the table agreed on, which the engine never sees.
    fn step_of(
        &self,
        n: u32,
        record: &StepRecord,
        public: &G::Public,
        own: bool,
    ) -> Option<Step<G::Input>> {
        Some(match record {
            StepRecord::Ended { .. } => return None,
            StepRecord::Chance { draw, .. } => Step::Chance(*draw),
            StepRecord::Inputs(plays) => Step::Inputs(
                plays
                    .iter()
                    .map(|(seat, p)| {
                        let decoded = |b: &[u8]| postcard::from_bytes::<G::Input>(b).ok();
                        let play = match p {
                            PlayRecord::Open(b) | PlayRecord::Opened { input: b, .. } => {
                                decoded(b).map_or(Play::Closed, Play::Open)
                            }
                            PlayRecord::Closed { .. } if own && *seat == self.me => self
                                .game
                                .as_ref()
                                .and_then(|g| g.bases.get(n as usize))
                                .and_then(|b| self.sealed.get(&(n, b.log)))
                                .and_then(|(_, b)| decoded(b))
                                .map_or(Play::Closed, Play::Open),
                            PlayRecord::Closed { .. } => Play::Closed,
                            PlayRecord::SatOut | PlayRecord::Removed => Absence::of(p)
                                .and_then(|a| self.cfg.sit_out?(public, *seat, a))
                                .map_or(Play::Closed, Play::Open),
                        };
                        (*seat, play)
                    })
                    .collect(),
            ),
        })
    }

    /// Goes back to just before step `n` and replays the log up to it: the table voted to
    /// skip a seat in a step this device had completed with that seat's move.
    fn rewind(&mut self, n: u32) {
        let Some(gs) = &self.game else { return };
        let records: Vec<StepRecord> = gs.records.iter().take(n as usize).cloned().collect();
        let removed_keep: BTreeMap<Seat, u32> = gs
            .removed
            .iter()
            .filter(|(_, at)| **at < n)
            .map(|(s, a)| (*s, *a))
            .collect();
        let skipped_keep: BTreeSet<(u32, Seat)> = gs
            .skipped
            .iter()
            .filter(|(at, _)| *at < n)
            .copied()
            .collect();
        let events_keep: Vec<(u32, G::Event)> = gs
            .events
            .iter()
            .filter(|(at, _)| *at < n)
            .cloned()
            .collect();
        self.heads_sent.retain(|(s, _)| *s <= n);
        self.view = None;
        self.game = None;
        self.begin(self.quiet_since);
        let Some(gs) = &mut self.game else { return };
        gs.removed = removed_keep;
        gs.skipped = skipped_keep;
        gs.events = events_keep;
        // Drop the Began event begin() queued: the game did not begin again.
        if matches!(self.events.back(), Some(Event::Began)) {
            self.events.pop_back();
        }
        for (i, record) in records.into_iter().enumerate() {
            let i = i as u32;
            let Some(gs) = &self.game else { return };
            let Some(step) = self.step_of(i, &record, &gs.public, true) else {
                // The end the table agreed on: the game is over after it.
                if let Some(gs) = &mut self.game {
                    let basis =
                        log::next_basis(&gs.bases[i as usize], &record, public_hash(&gs.public));
                    gs.records.push(record);
                    gs.bases.push(basis);
                    gs.pending = Pending::Over(Outcome::default());
                }
                break;
            };
            if let StepRecord::Chance { from, .. } = &record {
                for s in from {
                    if let Some(x) = self.chain_link_seen(i, *s) {
                        let k = self.step_draws(i) + 1;
                        if let Some(gs) = &mut self.game {
                            gs.links[*s as usize] = (k, x);
                        }
                    }
                }
            }
            let Some(gs) = &mut self.game else { return };
            if G::apply(&mut gs.public, &mut gs.privates, &step).is_err() {
                self.halt(Fault {
                    seat: None,
                    step: Some(i),
                    what: format!("step {i} no longer replays"),
                });
                return;
            }
            if matches!(record, StepRecord::Chance { .. }) {
                gs.draws += 1;
            }
            let basis = log::next_basis(&gs.bases[i as usize], &record, public_hash(&gs.public));
            gs.records.push(record);
            gs.bases.push(basis);
            gs.pending = G::pending(&gs.public);
        }
        self.events.push_back(Event::Rewound { step: n });
    }
}

/// The seats that sit out a dice draw coming after `records` without a vote: at the last
/// step that had a part for them, the table went on without them (they sat out an input
/// step, or were left out of a draw). A seat the table skipped so needs no vote at every
/// draw until it plays again; each draw still takes the links of everyone else.
fn sitting_out(records: &[StepRecord], removed: &BTreeSet<Seat>, seats: usize) -> BTreeSet<Seat> {
    let mut out = BTreeSet::new();
    let mut decided = removed.clone();
    for record in records.iter().rev() {
        match record {
            StepRecord::Inputs(plays) => {
                for (seat, play) in plays {
                    if decided.insert(*seat) && Absence::of(play).is_some() {
                        out.insert(*seat);
                    }
                }
            }
            // The last record of a game that is over: no draw comes after it.
            StepRecord::Ended { .. } => return out,
            // Every seat has a part in a draw: it gave a link or it did not.
            StepRecord::Chance { from, .. } => {
                out.extend(
                    (0..seats as Seat).filter(|s| !decided.contains(s) && !from.contains(s)),
                );
                return out;
            }
        }
    }
    out
}

/// Seats removed at a step before `n`.
fn removed_before(removed: &BTreeMap<Seat, u32>, n: u32) -> BTreeSet<Seat> {
    removed
        .iter()
        .filter(|(_, at)| **at < n)
        .map(|(s, _)| *s)
        .collect()
}

/// Which seats the table's votes skip at a step, and which of them it removes: a seat is
/// skipped when every other seat still at the table voted against it. (Every one: a seat
/// that keeps the move of a seat others voted against, or has gone on past the step, has
/// so made sure the vote cannot pass, and the voters may go on with that move.)
fn quorum(
    votes: &BTreeMap<Seat, BTreeMap<Seat, VoteAction>>,
    removed: &BTreeSet<Seat>,
    seats: usize,
) -> (BTreeSet<Seat>, BTreeSet<Seat>) {
    let mut skips = BTreeSet::new();
    let mut removals = BTreeSet::new();
    for (target, voters) in votes {
        if removed.contains(target) {
            continue;
        }
        let electorate: Vec<Seat> = (0..seats as Seat)
            .filter(|s| s != target && !removed.contains(s))
            .collect();
        let skip = |s: &Seat| voters.get(s).is_some_and(|a| a.skips());
        if electorate.is_empty() || !electorate.iter().all(skip) {
            continue;
        }
        skips.insert(*target);
        if electorate
            .iter()
            .all(|s| voters.get(s) == Some(&VoteAction::Remove))
        {
            removals.insert(*target);
        }
    }
    (skips, removals)
}
