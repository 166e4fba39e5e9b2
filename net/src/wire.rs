//! The bytes devices exchange: signed messages bound to a session, a seat and a step;
//! unsigned beacon links (self-authenticating through their hash chain) and openings (bound
//! by their signed commitments); the sync hello and statements of commitments held. No
//! message names its session: the frame it travels in does, once, and signatures,
//! commitments, chains and digests all cover it, so a message of another session is refused
//! or opens nothing. Everything is postcard, and every decoder here refuses bad input with an
//! error, never a panic.

pub use crate::bytes::Hash;
use crate::bytes::{bytes32, fixed_bytes};
use crate::error::{NetError, Result};
use crate::identity::{PublicKey, SeatKey, SecretKey, SessionId, Signature};
use hoard_rules::{Absence, Seat};
use serde::{Deserialize, Serialize};

/// The largest message a device accepts, in bytes.
pub const MAX_WIRE: usize = 256 * 1024;
/// The largest encoded game input a message may carry, in bytes.
pub const MAX_INPUT: usize = 4 * 1024;
/// The largest message about the shared deck (a shuffle part, shares, opened key parts, a
/// complaint), in bytes. The largest an honest device makes is a shuffle part of 108 cards
/// with its proof, 25.3 KB, and its escrow 0.7 KB once (`cargo bench -p hoard-net --bench
/// deck`); a peer cannot park more than this in one slot.
pub const MAX_DECK_MESSAGE: usize = 64 * 1024;

/// What a signed message was made against: the log and the public state the signer held
/// just before the step it belongs to. Two devices that agree on the log but not on the
/// state hash have diverged; a message on another log is stale and ignored.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
pub struct Basis {
    /// Hash chain over every completed step record before this step.
    #[serde(with = "bytes32")]
    pub log: Hash,
    /// [`hoard_rules::public_hash`] of the public state before this step.
    #[serde(with = "bytes32")]
    pub state: Hash,
}

/// A seat's commitments, signed once when it accepts the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    /// Link 0 of the seat's beacon chain; link `k` is revealed for draw `k`.
    #[serde(with = "bytes32")]
    pub chain_head: Hash,
    /// How many links the chain has after its head.
    pub chain_len: u32,
    /// [`crate::seal::secret_commitment`] of the 32-byte secret the game mixes into the
    /// seat's private side (its deck order); revealed at the audit.
    #[serde(with = "bytes32")]
    pub secret: Hash,
    /// The seat's part of the table's key for shared hidden decks, drawn from the same
    /// secret, with the proof that the seat knows it.
    pub deck: Box<crate::mental::table::DeckKey>,
}

/// What the table does about an away seat. Waiting is not a vote: it is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum VoteAction {
    /// The seat sits out this one step.
    Skip,
    /// The seat sits out this step and every later one, and is not waited for at the audit.
    Remove,
    /// The voter holds the seat's move for this step and goes on with it: a veto, which
    /// takes the voter's slot, so the table can no longer skip the seat at this step.
    Keep,
}

impl VoteAction {
    /// Whether this is a vote to go on without the seat.
    pub fn skips(self) -> bool {
        matches!(self, VoteAction::Skip | VoteAction::Remove)
    }

    /// How the seat is away if the vote passes.
    pub fn absence(self) -> Absence {
        match self {
            VoteAction::Remove => Absence::Removed,
            VoteAction::Skip | VoteAction::Keep => Absence::Skipped,
        }
    }
}

/// A sealed decision opened at the audit ([`hoard_rules::Seal::UntilAudit`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditOpening {
    pub step: u32,
    #[serde(with = "bytes32")]
    pub salt: Hash,
    #[serde(with = "byte_vec")]
    pub input: Vec<u8>,
}

/// Everything a seat reveals once the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// The secret committed in the seat's [`Accept`].
    #[serde(with = "bytes32")]
    pub secret: Hash,
    /// The openings of all the seat's decisions sealed until the audit, by step.
    pub sealed: Vec<AuditOpening>,
}

/// The content of a signed message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Body {
    /// The seat takes its seat, with its commitments (step 0, empty basis).
    Accept(Accept),
    /// An open input: a [`hoard_rules::Pending::Turn`] or an open `Together` step.
    Input(#[serde(with = "byte_vec")] Vec<u8>),
    /// The commitment to a sealed input; its opening is an [`Opening`], which needs no
    /// signature of its own.
    Commit(#[serde(with = "bytes32")] Hash),
    /// A vote about an away seat at this step.
    Vote { target: Seat, action: VoteAction },
    /// "I completed the previous step; this is my basis for this one": sent when a vote
    /// raced the step, so that voters learn how the step ended.
    Head,
    /// The audit's reveal, at the step where the game is over.
    Reveal(Reveal),
    /// "My player is back": the seat's word, after the table went on without it, that its
    /// player is at the table again. It ends every seat's standing choice to go on without
    /// it, as a move does; without it, where a step waits on this seat alone, the standing
    /// votes are in the moment the step opens, before the player could move.
    Back,
    /// "I agree to end the game here": signed for one step of an unfinished game, it holds
    /// for that step only. When every seat still in the game has signed it for the same
    /// step on the same log, the game ends there (see [`crate::log::StepRecord::Ended`]).
    End,
    /// The seat's part of a step of a shared hidden deck: its turn in a shuffle, its
    /// decryption shares of a deal or a reveal, or the proofs of the cards its input at this
    /// step shows or passes.
    Deck(Box<crate::mental::table::DeckPart>),
    /// The seat's escrowed parts of the deck keys of seats the table removes, opened at a
    /// deal or a reveal that needs those seats' shares.
    Escrow(Vec<crate::mental::table::Opened>),
    /// "A card I hold opens to no card of its deck": the seat's own share of it and the
    /// proof its key made the share, so every device opens it and sees.
    Complaint(Box<crate::mental::table::Complaint>),
}

/// What kind of body a message carries; with seat and step (and a vote's target) it names
/// the one slot a seat may fill. Two different messages in one slot on one log are an
/// equivocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Accept,
    Input,
    Commit,
    Vote(Seat),
    Head,
    Reveal,
    Back,
    End,
    Deck,
    Escrow,
    Complaint,
}

impl Kind {
    /// A move of the seat's player (an open input, or a sealed one's commitment), not
    /// something its device sends by itself (links, openings, heads).
    pub fn is_move(self) -> bool {
        matches!(self, Kind::Input | Kind::Commit)
    }

    /// Word that the seat's player is at the table: a move, or its [`Body::Back`]. Either
    /// ends the others' standing choices to go on without the seat.
    pub fn shows_player(self) -> bool {
        self.is_move() || self == Kind::Back
    }
}

impl Body {
    pub fn kind(&self) -> Kind {
        match self {
            Body::Accept(_) => Kind::Accept,
            Body::Input(_) => Kind::Input,
            Body::Commit(_) => Kind::Commit,
            Body::Vote { target, .. } => Kind::Vote(*target),
            Body::Head => Kind::Head,
            Body::Reveal(_) => Kind::Reveal,
            Body::Back => Kind::Back,
            Body::End => Kind::End,
            Body::Deck(_) => Kind::Deck,
            Body::Escrow(_) => Kind::Escrow,
            Body::Complaint(_) => Kind::Complaint,
        }
    }
}

/// A message signed by a seat's device key. The signature covers the session too, which the
/// message does not carry: the frame it travels in names it once for all its messages, and a
/// device holds messages of one session only.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signed {
    pub seat: Seat,
    /// The log position the message belongs to.
    pub step: u32,
    pub basis: Basis,
    pub body: Body,
    #[serde(with = "signature_bytes")]
    pub sig: Signature,
}

/// Signatures already found valid, shared by devices simulated in one process so each
/// message is checked once instead of once per device. Verifying is a pure function of key,
/// bytes and signature, and the memo is keyed by all three, so it changes nothing but the
/// time taken. Real devices do not use one.
#[derive(Clone, Default)]
pub struct SignatureMemo(std::sync::Arc<std::sync::Mutex<std::collections::HashSet<Hash>>>);

impl SignatureMemo {
    pub fn new() -> SignatureMemo {
        SignatureMemo::default()
    }
    fn contains(&self, id: &Hash) -> bool {
        self.0.lock().map(|set| set.contains(id)).unwrap_or(false)
    }
    fn insert(&self, id: Hash) {
        if let Ok(mut set) = self.0.lock() {
            set.insert(id);
        }
    }
}

/// Below this many signatures a batch check saves nothing.
const BATCH_MIN: usize = 8;
/// From this many signatures on, a batch is split across threads.
const PARALLEL_MIN: usize = 128;

/// Checks many signed messages, each against its seat's key: whether each is valid, in
/// order. Valid signatures are checked as one batch (several, across threads, when there
/// are many), about 4 times faster than one by one; a batch that fails is split until the
/// bad ones are found, so the answers are exactly those of checking each alone.
pub fn verify_many(
    session: &SessionId,
    items: &[(&Signed, &SeatKey)],
    memo: Option<&SignatureMemo>,
) -> Vec<bool> {
    let mut valid = vec![false; items.len()];
    let mut todo: Vec<Check> = Vec::with_capacity(items.len());
    for (i, (signed, key)) in items.iter().enumerate() {
        let check = Check::new(i, session, signed, key, memo.is_some());
        if let (Some(memo), Some(id)) = (memo, check.memo_id)
            && memo.contains(&id)
        {
            valid[i] = true;
            continue;
        }
        todo.push(check);
    }
    let threads = if todo.len() >= PARALLEL_MIN {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    } else {
        1
    };
    let results: Vec<Vec<bool>> = if threads > 1 {
        let per = todo.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = todo
                .chunks(per)
                .map(|chunk| scope.spawn(move || check_batch(chunk)))
                .collect();
            handles
                .into_iter()
                .zip(todo.chunks(per))
                .map(|(h, chunk)| h.join().unwrap_or_else(|_| vec![false; chunk.len()]))
                .collect()
        })
    } else {
        vec![check_batch(&todo)]
    };
    for (check, ok) in todo.iter().zip(results.into_iter().flatten()) {
        valid[check.index] = ok;
        if ok && let (Some(memo), Some(id)) = (memo, check.memo_id) {
            memo.insert(id);
        }
    }
    valid
}

/// Whether every signature of `items` is valid. A frame from a peer is taken whole or not
/// at all: an honest device sends only messages it has checked, so one forgery shows the
/// whole frame's sender dishonest, and nothing of it is kept. The frame is checked from the
/// front in batches that double in size, and checking stops at the first batch that fails:
/// a frame of forgeries costs the receiver about one small batch, and a forgery anywhere
/// costs it no more than an honest frame of the same size.
pub fn verify_all(
    session: &SessionId,
    items: &[(&Signed, &SeatKey)],
    memo: Option<&SignatureMemo>,
) -> bool {
    let mut done = 0;
    let mut size = BATCH_MIN;
    while done < items.len() {
        let end = (done + size).min(items.len());
        if !verify_many_all(session, &items[done..end], memo) {
            return false;
        }
        done = end;
        size = size.saturating_mul(2);
    }
    true
}

/// Whether every signature of `items` is valid (one batch, or a few across threads).
fn verify_many_all(
    session: &SessionId,
    items: &[(&Signed, &SeatKey)],
    memo: Option<&SignatureMemo>,
) -> bool {
    let mut todo: Vec<Check> = Vec::with_capacity(items.len());
    for (i, (signed, key)) in items.iter().enumerate() {
        let check = Check::new(i, session, signed, key, memo.is_some());
        if let (Some(memo), Some(id)) = (memo, check.memo_id)
            && memo.contains(&id)
        {
            continue;
        }
        todo.push(check);
    }
    let threads = if todo.len() >= PARALLEL_MIN {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(4))
    } else {
        1
    };
    let ok = if threads > 1 {
        let per = todo.len().div_ceil(threads);
        std::thread::scope(|scope| {
            let handles: Vec<_> = todo
                .chunks(per)
                .map(|chunk| scope.spawn(move || batch_ok(chunk)))
                .collect();
            handles.into_iter().all(|h| h.join().unwrap_or(false))
        })
    } else {
        batch_ok(&todo)
    };
    if ok && let Some(memo) = memo {
        for id in todo.iter().filter_map(|c| c.memo_id) {
            memo.insert(id);
        }
    }
    ok
}

/// One signature to check.
struct Check {
    index: usize,
    key: ed25519_zebra::VerificationKey,
    sig: ed25519_zebra::Signature,
    bytes: Vec<u8>,
    memo_id: Option<Hash>,
}

impl Check {
    fn new(index: usize, session: &SessionId, signed: &Signed, key: &SeatKey, memo: bool) -> Check {
        let bytes = signed.signing_bytes(session);
        let sig = ed25519_zebra::Signature::from_bytes(&signed.sig.to_bytes());
        let memo_id = memo.then(|| {
            let mut h = blake3::Hasher::new_derive_key("hoard v1 verified signature");
            h.update(key.key.as_ref());
            h.update(&sig.to_bytes());
            h.update(&bytes);
            *h.finalize().as_bytes()
        });
        Check {
            index,
            key: key.key,
            sig,
            bytes,
            memo_id,
        }
    }
}

/// Whether every signature is valid, as one batch (one by one when there are few).
fn batch_ok(checks: &[Check]) -> bool {
    if checks.len() < BATCH_MIN {
        return checks
            .iter()
            .all(|c| c.key.verify(&c.sig, &c.bytes).is_ok());
    }
    let mut batch = ed25519_zebra::batch::Verifier::new();
    let mut draw = blake3::Hasher::new_derive_key("hoard v1 signature batch");
    for c in checks {
        batch.queue((c.key.into(), c.sig, &c.bytes[..]));
        draw.update(c.key.as_ref());
        draw.update(&c.sig.to_bytes());
        draw.update(&(c.bytes.len() as u64).to_le_bytes());
        draw.update(&c.bytes);
    }
    batch.verify(Coefficients(draw.finalize_xof())).is_ok()
}

/// Whether each signature is valid: all in one batch, halving a batch that fails.
fn check_batch(checks: &[Check]) -> Vec<bool> {
    if checks.len() < BATCH_MIN {
        return checks
            .iter()
            .map(|c| c.key.verify(&c.sig, &c.bytes).is_ok())
            .collect();
    }
    if batch_ok(checks) {
        return vec![true; checks.len()];
    }
    let (a, b) = checks.split_at(checks.len() / 2);
    let mut valid = check_batch(a);
    valid.extend(check_batch(b));
    valid
}

/// The batch check's random coefficients, read from a hash of everything in the batch (as
/// ed25519-dalek's batch check draws them): no signer can pick them without changing the
/// batch, and the protocol core takes no randomness from the system.
struct Coefficients(blake3::OutputReader);

impl rand_core_06::RngCore for Coefficients {
    fn next_u32(&mut self) -> u32 {
        let mut b = [0; 4];
        self.0.fill(&mut b);
        u32::from_le_bytes(b)
    }
    fn next_u64(&mut self) -> u64 {
        let mut b = [0; 8];
        self.0.fill(&mut b);
        u64::from_le_bytes(b)
    }
    fn fill_bytes(&mut self, dest: &mut [u8]) {
        self.0.fill(dest);
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core_06::Error> {
        self.0.fill(dest);
        Ok(())
    }
}

impl rand_core_06::CryptoRng for Coefficients {}

/// The exact bytes a signature covers: a domain tag, then everything but the signature.
#[derive(Serialize)]
struct ToSign<'a> {
    domain: &'a str,
    session: &'a SessionId,
    seat: Seat,
    step: u32,
    basis: &'a Basis,
    body: &'a Body,
}

const SIGN_DOMAIN: &str = "hoard v1 signed message";

impl Signed {
    /// Signs a message with `key` (the seat's device key).
    pub fn sign(
        key: &SecretKey,
        session: SessionId,
        seat: Seat,
        step: u32,
        basis: Basis,
        body: Body,
    ) -> Signed {
        let bytes = signing_bytes(&session, seat, step, &basis, &body);
        let sig = key.sign(&bytes);
        Signed {
            seat,
            step,
            basis,
            body,
            sig,
        }
    }

    /// Whether `key` signed exactly this message for `session` (one signature of
    /// [`verify_many`]).
    pub fn verify(&self, session: &SessionId, key: &PublicKey) -> bool {
        SeatKey::new(key).is_some_and(|k| verify_many(session, &[(self, &k)], None)[0])
    }

    /// The exact bytes the signature covers.
    fn signing_bytes(&self, session: &SessionId) -> Vec<u8> {
        signing_bytes(session, self.seat, self.step, &self.basis, &self.body)
    }

    pub fn kind(&self) -> Kind {
        self.body.kind()
    }
}

fn signing_bytes(
    session: &SessionId,
    seat: Seat,
    step: u32,
    basis: &Basis,
    body: &Body,
) -> Vec<u8> {
    let unsigned = ToSign {
        domain: SIGN_DOMAIN,
        session,
        seat,
        step,
        basis,
        body,
    };
    // Plain data always serialises; an empty buffer would only fail verification.
    postcard::to_stdvec(&unsigned).unwrap_or_default()
}

/// A beacon link: link `k` of a seat's hash chain, for the beacon draw at `step`. Needs no
/// signature: only the chain's owner can produce a preimage of its last revealed link.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    pub seat: Seat,
    pub step: u32,
    #[serde(with = "bytes32")]
    pub link: Hash,
}

/// The opening of a seat's sealed play at `step`: the salt and input of its signed
/// commitment. Needs no signature: the commitment binds session, step, seat, salt and input
/// (see [`crate::seal::commitment`]), so only the seat can make an opening that matches it,
/// and one that does not match is nobody's play. It names no log: it is matched against
/// the seat's commitment on whichever log a device holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opening {
    pub seat: Seat,
    pub step: u32,
    #[serde(with = "bytes32")]
    pub salt: Hash,
    #[serde(with = "byte_vec")]
    pub input: Vec<u8>,
}

impl Opening {
    /// Whether this opens `commitment` (made at `session` for this opening's step and seat).
    pub fn opens(&self, session: &SessionId, commitment: &Hash) -> bool {
        crate::seal::commitment(session, self.step, self.seat, &self.salt, &self.input)
            == *commitment
    }
}

/// Sync: "I am at `step`, hold these messages of it, and share your log up to `shared`;
/// send me what I lack". Sent on (re)connect and whenever the table has not moved for a
/// while.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    /// The step the sender is waiting on.
    pub step: u32,
    /// Ids ([`Wire::id_of`]) of the messages the sender holds for `step`.
    #[serde(with = "ids")]
    pub have: Vec<Hash>,
    /// Ask the receiver for its own hello back, so the sender can send what it lacks.
    pub reply: bool,
    /// The sender has heard nothing for a while: if it is behind, send it every seat's
    /// messages from `step` on, not only your own (see `Core`'s sync).
    pub full: bool,
    /// The last step (at most `step`) at which a peer has shown the sender it holds the
    /// same log: history is sent from here. Below `step` on a device that went on alone
    /// at a step the table then skipped it in, and so holds a log of its own after it.
    pub shared: u32,
    /// Bytes that mean nothing, sent by a device that knows it is behind: a peer answers
    /// hellos with at most [`crate::core::ANSWER_RATIO`] times what it has received from
    /// their sender, so a device that must catch up on more than that pays its way.
    #[serde(with = "byte_vec")]
    pub pad: Vec<u8>,
}

/// "I hold every commitment of `step`, and these are they": sent once to each peer when
/// the sender holds the commitment of every seat the step waits on. `digest` is
/// [`holding_digest`] over them and the log they were made on. Equal digests are a peer's
/// word that it holds the very same commitments, which a seat waits for before it opens its
/// own (see `Core`'s sealing); unequal ones make each side send the other its commitments,
/// so two versions of one meet as a proof. Unsigned: it comes over the link authenticated as
/// its sender's, and a false one can only make its sender's own word worth nothing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Holding {
    pub step: u32,
    #[serde(with = "fixed_bytes")]
    pub digest: HoldingDigest,
}

/// A [`holding_digest`]: the first 16 bytes of a BLAKE3 hash. Two sets of commitments that
/// give one digest are all a cheat would need, so it is as long as that search must be
/// hopeless: the digest covers the step's log and every other seat's fresh commitment, so
/// the search can only begin once those are sent, and finding two of the cheat's own
/// commitments whose digests agree then takes about 2^64 hashes (a birthday search), years
/// of a large cluster's work, while the table waits for one move. A commitment itself, which
/// its maker can search for at leisure, keeps all 32 bytes.
pub type HoldingDigest = [u8; 16];

/// The digest a [`Holding`] states: the session, step and log, and each awaited seat's
/// commitment, in ascending seat order. Two devices on one log get the same digest exactly
/// when they hold the same commitments: a seat's commitment is one signed message per step
/// and log (signatures are deterministic), so the same commitment is the same message.
pub fn holding_digest(
    session: &SessionId,
    step: u32,
    log: &Hash,
    commitments: impl IntoIterator<Item = (Seat, Hash)>,
) -> HoldingDigest {
    let mut h = blake3::Hasher::new_derive_key("hoard v3 holding");
    h.update(&session.0);
    h.update(&step.to_le_bytes());
    h.update(log);
    for (seat, commitment) in commitments {
        h.update(&[seat]);
        h.update(&commitment);
    }
    let mut digest = [0; 16];
    h.finalize_xof().fill(&mut digest);
    digest
}

/// Every message on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wire {
    Signed(Signed),
    Link(Link),
    Hello(Hello),
    Holding(Holding),
    Open(Opening),
}

impl Wire {
    /// Decodes one message; anything malformed or oversized is an error.
    pub fn decode(bytes: &[u8]) -> Result<Wire> {
        if bytes.len() > MAX_WIRE {
            return Err(NetError::Malformed(format!(
                "{} bytes is more than any message can be",
                bytes.len()
            )));
        }
        let (wire, rest): (Wire, &[u8]) =
            postcard::take_from_bytes(bytes).map_err(|e| NetError::Malformed(e.to_string()))?;
        if !rest.is_empty() {
            return Err(NetError::Malformed(
                "trailing bytes after the message".into(),
            ));
        }
        Ok(wire)
    }

    /// The canonical bytes of this message.
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).unwrap_or_default()
    }

    /// A message's id: the hash of its bytes. Honest devices send canonical bytes, so one
    /// message has one id; a re-spelled copy is at worst held twice, and two different
    /// messages in one slot are still caught by content.
    pub fn id_of(canonical: &[u8]) -> Hash {
        *blake3::hash(canonical).as_bytes()
    }
}

mod signature_bytes {
    use super::fixed_bytes::Exact;
    use crate::identity::Signature;
    use serde::{Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Signature, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&v.to_bytes())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Signature, D::Error> {
        d.deserialize_bytes(Exact::<64>)
            .map(|b| Signature::from_bytes(&b))
    }
}

mod byte_vec {
    use serde::de::{Error, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    struct Bytes;
    impl<'de> Visitor<'de> for Bytes {
        type Value = Vec<u8>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("bytes")
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
            Ok(v.to_vec())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        d.deserialize_bytes(Bytes)
    }
}

/// A list of ids as one byte string of 32-byte ids.
mod ids {
    use super::Hash;
    use serde::de::{Error, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer>(v: &[Hash], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(&v.concat())
    }

    struct Ids;
    impl<'de> Visitor<'de> for Ids {
        type Value = Vec<Hash>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("32-byte ids")
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<Vec<Hash>, E> {
            if !v.len().is_multiple_of(32) {
                return Err(E::invalid_length(v.len(), &self));
            }
            Ok(v.chunks_exact(32)
                .map(|c| {
                    let mut id = [0u8; 32];
                    id.copy_from_slice(c);
                    id
                })
                .collect())
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Hash>, D::Error> {
        d.deserialize_bytes(Ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: SessionId = SessionId([7; 32]);

    fn signed(key: &SecretKey, seat: Seat, step: u32) -> Signed {
        Signed::sign(
            key,
            SESSION,
            seat,
            step,
            Basis::default(),
            Body::Commit([step as u8; 32]),
        )
    }

    /// A batch answers exactly what checking each alone answers, whichever messages in it
    /// are forged, and across threads when it is large.
    #[test]
    fn a_batch_of_signatures_finds_exactly_the_forged_ones() {
        let keys: Vec<SecretKey> = (1..=3).map(|b| SecretKey::from_bytes(&[b; 32])).collect();
        let seat_keys: Vec<SeatKey> = keys
            .iter()
            .map(|k| SeatKey::new(&k.public()).expect("a key"))
            .collect();
        for count in [3, 40, PARALLEL_MIN + 60] {
            let mut msgs: Vec<(Signed, usize)> = (0..count)
                .map(|i| (signed(&keys[i % 3], (i % 3) as Seat, i as u32), i % 3))
                .collect();
            // A changed body under the old signature, and a message signed by another seat's
            // key than the one it claims.
            let forged = [count / 2, count - 1];
            msgs[forged[0]].0.step += 1;
            let claimed = (msgs[forged[1]].1 + 1) % 3;
            msgs[forged[1]].1 = claimed;
            let items: Vec<(&Signed, &SeatKey)> =
                msgs.iter().map(|(s, k)| (s, &seat_keys[*k])).collect();
            let valid = verify_many(&SESSION, &items, None);
            for (i, (s, k)) in msgs.iter().enumerate() {
                assert_eq!(valid[i], !forged.contains(&i), "message {i} of {count}");
                assert_eq!(
                    valid[i],
                    s.verify(&SESSION, &keys[*k].public()),
                    "message {i} alone"
                );
            }
        }
    }

    /// A frame is valid only with every signature valid, wherever its forgery is.
    #[test]
    fn a_frame_with_one_forgery_anywhere_is_not_valid() {
        let key = SecretKey::from_bytes(&[4; 32]);
        let seat_key = SeatKey::new(&key.public()).expect("a key");
        for (count, bad) in [(5, Some(2)), (300, Some(0)), (300, Some(299)), (300, None)] {
            let mut msgs: Vec<Signed> = (0..count).map(|i| signed(&key, 0, i as u32)).collect();
            if let Some(b) = bad {
                msgs[b].step += 1_000_000;
            }
            let items: Vec<(&Signed, &SeatKey)> = msgs.iter().map(|s| (s, &seat_key)).collect();
            assert_eq!(
                verify_all(&SESSION, &items, None),
                bad.is_none(),
                "{count} {bad:?}"
            );
        }
    }

    /// A message names no session, but its signature covers one: signed for one session, it
    /// is valid at no other.
    #[test]
    fn a_message_signed_at_one_session_is_forged_at_any_other() {
        let key = SecretKey::from_bytes(&[5; 32]);
        let seat_key = SeatKey::new(&key.public()).expect("a key");
        let msgs: Vec<Signed> = (0..12).map(|i| signed(&key, 0, i)).collect();
        let items: Vec<(&Signed, &SeatKey)> = msgs.iter().map(|s| (s, &seat_key)).collect();
        assert!(verify_all(&SESSION, &items, None));
        let other = SessionId([8; 32]);
        assert!(!verify_all(&other, &items, None));
        assert!(!msgs[0].verify(&other, &key.public()));
        assert_eq!(verify_many(&other, &items, None), vec![false; 12]);
    }

    /// A statement of the commitments held is 19 bytes on the wire (its 16-byte digest, the
    /// step and the kind), covers everything its digest names, and a digest of any other
    /// length is refused.
    #[test]
    fn a_holding_statement_is_nineteen_bytes_and_covers_session_step_log_and_commitments() {
        let log = [3; 32];
        let commitments = [(0, [1; 32]), (2, [2; 32])];
        let digest = holding_digest(&SESSION, 7, &log, commitments);
        let bytes = Wire::Holding(Holding { step: 7, digest }).encode();
        assert_eq!(bytes.len(), 19);
        assert_eq!(
            Wire::decode(&bytes).ok(),
            Some(Wire::Holding(Holding { step: 7, digest }))
        );
        for other in [
            holding_digest(&SessionId([8; 32]), 7, &log, commitments),
            holding_digest(&SESSION, 8, &log, commitments),
            holding_digest(&SESSION, 7, &[4; 32], commitments),
            holding_digest(&SESSION, 7, &log, [(0, [1; 32]), (2, [9; 32])]),
            holding_digest(&SESSION, 7, &log, [(0, [1; 32]), (1, [2; 32])]),
            holding_digest(&SESSION, 7, &log, [(0, [1; 32])]),
        ] {
            assert_ne!(other, digest);
        }
        // The digest's length prefix is the third byte: 15 or 17 bytes are refused.
        let mut short = bytes.clone();
        short[2] = 15;
        short.pop();
        assert!(Wire::decode(&short).is_err());
        let mut long = bytes.clone();
        long[2] = 17;
        long.push(0);
        assert!(Wire::decode(&long).is_err());
    }

    #[test]
    fn a_key_of_small_order_cannot_be_a_seat() {
        // The identity point: every signature would verify under it.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        let key = PublicKey::from_bytes(&identity).expect("a point");
        assert!(SeatKey::new(&key).is_none());
    }
}
