//! The bytes devices exchange: signed messages bound to a session, a seat and a step;
//! unsigned beacon links (self-authenticating through their hash chain); and the sync
//! hello. Everything is postcard, and every decoder here refuses bad input with an error,
//! never a panic.

use crate::error::{NetError, Result};
use crate::identity::{PublicKey, SecretKey, SessionId, Signature};
use hoard_rules::Seat;
use serde::{Deserialize, Serialize};

/// A BLAKE3 hash.
pub type Hash = [u8; 32];

/// The largest message a device accepts, in bytes.
pub const MAX_WIRE: usize = 256 * 1024;
/// The largest encoded game input a message may carry, in bytes.
pub const MAX_INPUT: usize = 4 * 1024;

/// What a signed message was made against: the log and the public state the signer held
/// just before the step it belongs to. Two devices that agree on the log but not on the
/// state hash have diverged; a message on another log is stale and ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Basis {
    /// Hash chain over every completed step record before this step.
    pub log: Hash,
    /// [`hoard_rules::public_hash`] of the public state before this step.
    pub state: Hash,
}

/// A seat's commitments, signed once when it accepts the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Accept {
    /// Link 0 of the seat's beacon chain; link `k` is revealed for draw `k`.
    pub chain_head: Hash,
    /// How many links the chain has after its head.
    pub chain_len: u32,
    /// [`crate::seal::secret_commitment`] of the 32-byte secret the game mixes into the
    /// seat's private side (its deck order); revealed at the audit.
    pub secret: Hash,
}

/// What the table does about an away seat. Waiting is not a vote: it is the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum VoteAction {
    /// The seat sits out this one step.
    Skip,
    /// The seat sits out this step and every later one, and is not waited for at the audit.
    Remove,
}

/// A sealed decision opened at the audit ([`hoard_rules::Seal::UntilAudit`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditOpening {
    pub step: u32,
    pub salt: Hash,
    pub input: Vec<u8>,
}

/// Everything a seat reveals once the game is over.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reveal {
    /// The secret committed in the seat's [`Accept`].
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
    Input(Vec<u8>),
    /// The commitment to a sealed input.
    Commit(Hash),
    /// The opening of a commitment: salt and input.
    Open { salt: Hash, input: Vec<u8> },
    /// A vote about an away seat at this step.
    Vote { target: Seat, action: VoteAction },
    /// "I completed the previous step; this is my basis for this one": sent when a vote
    /// raced the step, so that voters learn how the step ended.
    Head,
    /// The audit's reveal, at the step where the game is over.
    Reveal(Reveal),
}

/// What kind of body a message carries; with seat and step (and a vote's target) it names
/// the one slot a seat may fill. Two different messages in one slot on one log are an
/// equivocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    Accept,
    Input,
    Commit,
    Open,
    Vote(Seat),
    Head,
    Reveal,
}

impl Body {
    pub fn kind(&self) -> Kind {
        match self {
            Body::Accept(_) => Kind::Accept,
            Body::Input(_) => Kind::Input,
            Body::Commit(_) => Kind::Commit,
            Body::Open { .. } => Kind::Open,
            Body::Vote { target, .. } => Kind::Vote(*target),
            Body::Head => Kind::Head,
            Body::Reveal(_) => Kind::Reveal,
        }
    }
}

/// A message signed by a seat's device key.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signed {
    pub session: SessionId,
    pub seat: Seat,
    /// The log position the message belongs to.
    pub step: u32,
    pub basis: Basis,
    pub body: Body,
    pub sig: Signature,
}

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
            session,
            seat,
            step,
            basis,
            body,
            sig,
        }
    }

    /// Whether `key` signed exactly this message.
    pub fn verify(&self, key: &PublicKey) -> bool {
        let bytes = signing_bytes(&self.session, self.seat, self.step, &self.basis, &self.body);
        key.verify(&bytes, &self.sig).is_ok()
    }

    pub fn kind(&self) -> Kind {
        self.body.kind()
    }
}

fn signing_bytes(session: &SessionId, seat: Seat, step: u32, basis: &Basis, body: &Body) -> Vec<u8> {
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
    pub session: SessionId,
    pub seat: Seat,
    pub step: u32,
    pub link: Hash,
}

/// Sync: "I am at `step` and hold these messages of it; send me what I lack". Sent on
/// (re)connect and whenever the table has not moved for a while.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub session: SessionId,
    /// The step the sender is waiting on.
    pub step: u32,
    /// Ids ([`Wire::id`]) of the messages the sender holds for `step`.
    pub have: Vec<Hash>,
    /// Ask the receiver for its own hello back, so the sender can send what it lacks.
    pub reply: bool,
}

/// Every message on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Wire {
    Signed(Signed),
    Link(Link),
    Hello(Hello),
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
            return Err(NetError::Malformed("trailing bytes after the message".into()));
        }
        Ok(wire)
    }

    /// The canonical bytes of this message.
    pub fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).unwrap_or_default()
    }

    /// The message's id: the hash of its canonical bytes (decoding then re-encoding gives
    /// the same id however the sender spelled the bytes).
    pub fn id_of(canonical: &[u8]) -> Hash {
        *blake3::hash(canonical).as_bytes()
    }

    pub fn session(&self) -> &SessionId {
        match self {
            Wire::Signed(s) => &s.session,
            Wire::Link(l) => &l.session,
            Wire::Hello(h) => &h.session,
        }
    }
}
