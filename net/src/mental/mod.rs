//! The mental deck's cryptography (DESIGN.md, "The mental deck"): cards as ristretto255
//! points, ElGamal under a key that every seat holds a part of, shuffles that no seat can
//! follow, decryption shares that only finish a card for the seat it is dealt to, and the
//! proofs that make each of those steps checkable by everyone at once.
//!
//! Plain functions on plain values: no state, no I/O, no randomness but what the caller
//! passes in. The protocol core decides when each step happens; this module says whether a
//! step was done honestly.
//!
//! - [`elgamal`]: points on the wire, card points, ciphertexts, encryption and re-encryption.
//! - [`proof`]: a seat's key share (Schnorr proof of knowledge), its decryption shares
//!   (one Chaum–Pedersen proof for any number of cards), and a handover of a held card to
//!   another seat's key (a plaintext-equality proof).
//! - [`shuffle`]: a seat's part of a shuffle, made from one committed seed.
//! - [`shuffle_proof`]: the proof that goes with it, checked by every device on arrival:
//!   the deck passed on is the deck given, re-encrypted and reordered, and nothing else.
//!
//! Every proof is made non-interactive through a Merlin transcript bound to its
//! [`Context`] (session, deck, seat, what is being proved), so a proof made for one place
//! cannot be replayed in another.

pub mod elgamal;
pub mod proof;
pub mod shuffle;
pub mod shuffle_proof;
pub mod table;

pub use elgamal::{Ciphertext, card_point};
pub use proof::{Context, DleqProof, HandoverProof, KeyProof};

/// Checks this process found to hold, each remembered by a 32-byte hash that binds the whole
/// statement and every byte of what was checked. Every core in a process (a host holding
/// bots' seats, a simulated table) checks the same parts of the same deck: one found to
/// hold is not checked again. Only successes are kept, and at most [`Checked::KEPT`] of
/// them (then all are forgotten), so a peer cannot grow it beyond that.
pub(crate) struct Checked(
    std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<[u8; 32]>>>,
);

impl Checked {
    /// Every shuffle and deal of many games.
    const KEPT: usize = 4096;

    pub(crate) const fn new() -> Checked {
        Checked(std::sync::OnceLock::new())
    }

    fn set(&self) -> std::sync::MutexGuard<'_, std::collections::HashSet<[u8; 32]>> {
        self.0
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner())
    }

    /// Whether the check `id` names was found to hold.
    pub(crate) fn holds(&self, id: &[u8; 32]) -> bool {
        self.set().contains(id)
    }

    /// The check `id` names held.
    pub(crate) fn held(&self, id: [u8; 32]) {
        let mut set = self.set();
        if set.len() >= Checked::KEPT {
            set.clear();
        }
        set.insert(id);
    }
}

/// Why a piece of the mental deck was refused. The protocol turns it into a fault naming
/// the seat.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DeckError {
    #[error("a key share's proof does not show its owner knows the key")]
    BadKeyProof,
    #[error("a decryption share's proof does not match the seat's key")]
    BadShareProof,
    #[error("a card handed to another seat may not be the card it was")]
    BadHandoverProof,
    #[error("the lists of cards and of shares are not the same length")]
    Mismatch,
    #[error("a shuffle does not replay from the seed its seat committed to")]
    BadShuffle,
    #[error(
        "a shuffle's proof does not show that the deck passed on is the deck given, \
         re-encrypted and reordered"
    )]
    BadShuffleProof,
}
