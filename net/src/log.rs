//! The log: the ordered list of completed steps every device builds from the same signed
//! messages, and the hash chain over it that each message's basis names.

use crate::identity::SessionId;
use crate::mental::Ciphertext;
use crate::mental::table::DeckRecord;
use crate::wire::{Basis, Hash};
use hoard_rules::Seat;
use serde::{Deserialize, Serialize};

/// One seat's part of a completed input step, as the log keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlayRecord {
    /// An open input (postcard bytes).
    Open(Vec<u8>),
    /// A sealed input, opened once every commitment of the step was in.
    Opened { commitment: Hash, input: Vec<u8> },
    /// A decision sealed until the audit: only its commitment is known.
    Closed { commitment: Hash },
    /// The table skipped the seat: it sits out this step.
    SatOut,
    /// The table removed the seat, at this step or before: it sits out this step, gone
    /// for good (the game may treat it so: see [`crate::audit::Absence`]).
    Removed,
}

/// A completed step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StepRecord {
    /// A beacon draw, with the seats whose links made it.
    Chance { draw: Hash, from: Vec<Seat> },
    /// Every awaited seat's part, in ascending seat order, and the hidden cards the inputs
    /// passed to other seats, as each receiver got them (by giving seat, in the order of
    /// its input's card moves; empty in games without shared decks).
    Inputs {
        plays: Vec<(Seat, PlayRecord)>,
        passed: Vec<(Seat, Vec<Ciphertext>)>,
    },
    /// A step of a shared hidden deck: every part (a shuffle's, in the order they were
    /// made; a deal's or a reveal's decryption shares), by seat, and the faces a reveal
    /// turned up (empty for a shuffle or a deal).
    Deck {
        parts: Vec<(Seat, DeckRecord)>,
        faces: Vec<hoard_rules::CardId>,
    },
    /// The table agreed to end the game here: every seat still in the game signed
    /// [`crate::wire::Body::End`] for this step. Nothing is played; the game is over after
    /// it, and it is always the last record.
    Ended { by: Vec<Seat> },
}

/// The log hash before the first step.
pub fn genesis(session: &SessionId) -> Hash {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 log");
    h.update(&session.0);
    *h.finalize().as_bytes()
}

/// The log hash after `record`, given the log hash before it.
pub fn extend(log: &Hash, record: &StepRecord) -> Hash {
    let bytes = postcard::to_stdvec(record).unwrap_or_default();
    let mut h = blake3::Hasher::new_derive_key("hoard v1 log");
    h.update(log);
    h.update(&bytes);
    *h.finalize().as_bytes()
}

/// The basis of the step after `record`.
pub fn next_basis(before: &Basis, record: &StepRecord, state_after: Hash) -> Basis {
    Basis {
        log: extend(&before.log, record),
        state: state_after,
    }
}
