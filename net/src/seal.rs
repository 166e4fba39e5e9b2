//! Commit–reveal: how a sealed input and a seat's game secret are committed to before
//! anyone else's choice is known, and checked when they are opened.

use crate::bytes::Hash;
use crate::identity::SessionId;
use hoard_rules::Seat;

/// The commitment to a sealed input: `derive_key("hoard v1 seal", session ‖ step ‖ seat ‖
/// salt ‖ input)`. The fresh 32-byte salt hides the input (no one can try the few legal
/// moves against it); binding it to session, step and seat stops a commitment from being
/// replayed anywhere else.
pub fn commitment(session: &SessionId, step: u32, seat: Seat, salt: &Hash, input: &[u8]) -> Hash {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 seal");
    h.update(&session.0);
    h.update(&step.to_le_bytes());
    h.update(&[seat]);
    h.update(salt);
    h.update(input);
    *h.finalize().as_bytes()
}

/// The commitment to a seat's 32-byte game secret, carried in its accept. The secret is
/// uniformly random, so it needs no salt.
pub fn secret_commitment(session: &SessionId, seat: Seat, secret: &Hash) -> Hash {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 game secret");
    h.update(&session.0);
    h.update(&[seat]);
    h.update(secret);
    *h.finalize().as_bytes()
}
