//! The beacon: every shared random number of a game, from per-seat hash chains.
//!
//! Each seat draws a random seed `x_L` and hashes it down, `x_{i-1} = H(x_i)`, to the
//! chain's head `x_0`, which it commits to in its accept. Draw `k` needs `x_k` from every
//! seat; anyone checks a link by hashing it back to the seat's last known link. The draw is
//! `H("hoard v1 beacon", session, k, x_k of every contributing seat in seat order)`: nobody
//! can predict it before the last link is out, and nobody can steer it, because every link
//! was fixed before the game began. The last seat to reveal can only stall, which the table
//! handles like any away seat.

use crate::identity::SessionId;
use crate::wire::Hash;
use hoard_rules::Seat;

/// Links per chain unless the driver asks otherwise: far more draws than any game needs.
pub const DEFAULT_CHAIN_LEN: u32 = 4096;
/// The most links an accept may announce (checking a link costs one hash per skipped link).
pub const MAX_CHAIN_LEN: u32 = 1 << 16;

/// One step down the chain.
pub fn link_hash(x: &Hash) -> Hash {
    blake3::derive_key("hoard v1 beacon chain", x)
}

/// A seat's own chain, all links kept (32 bytes each) so revealing one is a lookup.
#[derive(Clone)]
pub struct Chain {
    /// `links[i]` is `x_i`; `links[0]` is the head.
    links: Vec<Hash>,
}

impl Chain {
    /// The chain of `len` links below `seed` (which becomes `x_len`).
    pub fn new(seed: Hash, len: u32) -> Chain {
        let mut links = vec![[0u8; 32]; len as usize + 1];
        let mut x = seed;
        for slot in links.iter_mut().rev() {
            *slot = x;
            x = link_hash(&x);
        }
        Chain { links }
    }

    pub fn head(&self) -> Hash {
        self.links[0]
    }

    /// How many links follow the head.
    pub fn len(&self) -> u32 {
        (self.links.len() - 1) as u32
    }

    /// Whether the chain has no links after its head.
    pub fn is_empty(&self) -> bool {
        self.links.len() == 1
    }

    /// Link `k` (1-based), if the chain is that long.
    pub fn link(&self, k: u32) -> Option<Hash> {
        if k == 0 {
            return None;
        }
        self.links.get(k as usize).copied()
    }
}

/// Whether `x` is link `k` of a chain whose link `known_k` is `known` (and whose length is
/// `len`): hashing `x` down `k - known_k` times must give `known`.
pub fn verify_link(known_k: u32, known: &Hash, k: u32, x: &Hash, len: u32) -> bool {
    if k <= known_k || k > len {
        return false;
    }
    let mut y = *x;
    for _ in known_k..k {
        y = link_hash(&y);
    }
    &y == known
}

/// Draw `k` from the links of the contributing seats, in seat order.
pub fn draw(session: &SessionId, k: u32, links: &[(Seat, Hash)]) -> Hash {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 beacon");
    h.update(&session.0);
    h.update(&k.to_le_bytes());
    for (seat, x) in links {
        h.update(&[*seat]);
        h.update(x);
    }
    *h.finalize().as_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_link_hashes_back_to_the_head_and_no_other_value_does() {
        let chain = Chain::new([9; 32], 50);
        assert_eq!(chain.len(), 50);
        for k in 1..=50 {
            let x = chain.link(k).unwrap();
            assert!(verify_link(0, &chain.head(), k, &x, 50));
            assert!(verify_link(
                k - 1,
                &chain.link(k - 1).unwrap_or(chain.head()),
                k,
                &x,
                50
            ));
        }
        assert!(!verify_link(0, &chain.head(), 3, &[1; 32], 50));
        // A link cannot be reused for an earlier or the same draw, nor beyond the chain.
        let x5 = chain.link(5).unwrap();
        assert!(!verify_link(5, &x5, 5, &x5, 50));
        assert!(!verify_link(0, &chain.head(), 51, &[0; 32], 50));
    }
}
