//! Who plays: the iroh ed25519 keys that identify devices, the session's start proposal, and
//! the session id every signed message is bound to.
//!
//! A device's identity is its iroh endpoint key ([`SecretKey`] / [`PublicKey`], the same
//! type the transport uses), persisted as 32 bytes. A session is fixed by its [`Start`]:
//! game, options, the seats in order (each a key and a name) and a nonce; the session id is
//! the hash of the start's bytes, so two different starts can never share signed messages.

use crate::error::{NetError, Result};
use hoard_rules::{Game, Seat};
use serde::{Deserialize, Serialize};
use std::fmt;

pub use iroh_base::{PublicKey, SecretKey, Signature};

/// The hash of a [`Start`]: every signed message of the session carries and signs it.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SessionId(#[serde(with = "crate::bytes::bytes32")] pub [u8; 32]);

impl fmt::Debug for SessionId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SessionId({self})")
    }
}

impl fmt::Display for SessionId {
    /// The first 8 bytes in hex: enough to tell sessions apart in a list or a folder name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for b in &self.0[..8] {
            write!(f, "{b:02x}")?;
        }
        Ok(())
    }
}

impl SessionId {
    /// The full id in hex (64 characters), e.g. for a folder name on disk.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// One seat of a proposed table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSpec {
    /// The device that sits here: only this key's signatures count for the seat.
    pub key: PublicKey,
    /// The player's name as shown at the table.
    pub name: String,
}

/// The host's proposal that starts a session. After it, the host has no special power:
/// the game begins when every seat has signed its accept.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    /// [`Game::NAME`] of the game played.
    pub game: String,
    /// The game's `Config`, postcard-encoded.
    pub config: Vec<u8>,
    /// The seats in order; seat `i` is `seats[i]`.
    pub seats: Vec<SeatSpec>,
    /// Fresh randomness so that a rematch with the same table is a new session.
    pub nonce: [u8; 32],
}

/// The most seats any Hoard game has (Sprawl and Spree! seat 8).
pub const MAX_SEATS: usize = 8;
/// The longest player name a start may carry, in bytes.
pub const MAX_NAME: usize = 64;

impl Start {
    /// A start for game `G` with `config`, checked as [`Start::check`] does.
    pub fn new<G: Game>(
        config: &G::Config,
        seats: Vec<SeatSpec>,
        nonce: [u8; 32],
    ) -> Result<Start> {
        let config = postcard::to_stdvec(config).map_err(|e| {
            NetError::BadStart(format!("the game options could not be written: {e}"))
        })?;
        let start = Start {
            game: G::NAME.to_string(),
            config,
            seats,
            nonce,
        };
        start.check::<G>()?;
        Ok(start)
    }

    /// The session id: BLAKE3 (domain-separated) of the start's postcard bytes.
    pub fn session(&self) -> SessionId {
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        SessionId(blake3::derive_key("hoard v1 session", &bytes))
    }

    /// Checks that the start can be played as game `G` and returns its decoded options.
    pub fn check<G: Game>(&self) -> Result<G::Config> {
        if self.game != G::NAME {
            return Err(NetError::BadStart(format!(
                "this table is set up for {}, not {}",
                self.game,
                G::NAME
            )));
        }
        let config: G::Config = postcard::from_bytes(&self.config).map_err(|e| {
            NetError::BadStart(format!(
                "the options for {} could not be read: {e}",
                G::NAME
            ))
        })?;
        let n = self.seats.len();
        let range = G::seat_range();
        if n > MAX_SEATS || !range.contains(&(n as u8)) {
            return Err(NetError::BadStart(format!(
                "{} is played by {} to {} players, not {n}",
                G::NAME,
                range.start(),
                range.end()
            )));
        }
        for (i, seat) in self.seats.iter().enumerate() {
            if seat.name.len() > MAX_NAME {
                return Err(NetError::BadStart(format!("seat {i}'s name is too long")));
            }
            if SeatKey::new(&seat.key).is_none() {
                return Err(NetError::BadStart(format!(
                    "{}'s device key cannot sign (a point of small order)",
                    seat.name
                )));
            }
            if self.seats[..i].iter().any(|s| s.key == seat.key) {
                return Err(NetError::BadStart(format!(
                    "{} is seated twice with the same device",
                    seat.name
                )));
            }
        }
        // `setup` also validates the options against the seat count.
        G::setup(&config).map_err(|e| NetError::BadStart(e.to_string()))?;
        Ok(config)
    }

    /// The seat a device holds, if it is seated.
    pub fn seat_of(&self, key: &PublicKey) -> Option<Seat> {
        // Public keys need no constant-time comparison: compare their bytes.
        let bytes = key.as_bytes();
        self.seats
            .iter()
            .position(|s| s.key.as_bytes() == bytes)
            .map(|i| i as Seat)
    }

    /// A seat's name, or "seat N" for a seat that does not exist.
    pub fn name(&self, seat: Seat) -> String {
        self.seats
            .get(seat as usize)
            .map(|s| s.name.clone())
            .unwrap_or_else(|| format!("seat {seat}"))
    }

    /// How many seats the table has.
    pub fn seat_count(&self) -> usize {
        self.seats.len()
    }
}

/// A fresh random 32 bytes from the operating system.
pub(crate) fn entropy() -> Result<[u8; 32]> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| {
        NetError::Io(std::io::Error::other(format!(
            "no randomness from the system: {e}"
        )))
    })?;
    Ok(bytes)
}

/// Where a device's fresh randomness comes from (keys, nonces, a seat's chain seed, a
/// bot's choices): the system's on a real device, a seeded generator in the simulator, so
/// that a simulated table's life replays from its seed.
pub trait Random: Send {
    fn bytes32(&mut self) -> Result<[u8; 32]>;

    fn key(&mut self) -> Result<SecretKey> {
        Ok(SecretKey::from_bytes(&self.bytes32()?))
    }
}

/// The operating system's randomness.
pub struct SystemRandom;

impl Random for SystemRandom {
    fn bytes32(&mut self) -> Result<[u8; 32]> {
        entropy()
    }
}

/// Randomness drawn from a seed: the simulator's.
pub struct SeededRandom(rand_chacha::ChaCha8Rng);

impl SeededRandom {
    pub fn new(seed: [u8; 32]) -> SeededRandom {
        use rand_core::SeedableRng;
        SeededRandom(rand_chacha::ChaCha8Rng::from_seed(seed))
    }
}

impl Random for SeededRandom {
    fn bytes32(&mut self) -> Result<[u8; 32]> {
        use rand_core::Rng;
        let mut bytes = [0u8; 32];
        self.0.fill_bytes(&mut bytes);
        Ok(bytes)
    }
}

/// A seat's key, decoded once, ready to check the seat's signatures.
///
/// Signatures are checked by the rule of ZIP 215 (`[8][s]B = [8]R + [8][k]A`, `s` canonical):
/// under it a signature is valid or not the same way whether it is checked alone or in a
/// batch, so a device that checks thousands at once when it catches up can never decide
/// differently from one that checked them one by one as they came. A third party cannot
/// re-spell a valid signature (`k` hashes `R`'s bytes, `s` must be canonical), so a message
/// still has one id; only the key's owner could sign one message two ways, and two
/// versions in one slot are proof against it.
#[derive(Clone, Copy, Debug)]
pub struct SeatKey {
    pub(crate) key: ed25519_zebra::VerificationKey,
}

impl SeatKey {
    /// The key, or `None` for bytes that are not a point or are of small order (a key of
    /// small order would let anyone sign for its seat).
    pub fn new(key: &PublicKey) -> Option<SeatKey> {
        let weak = key.as_verifying_key().is_weak();
        let key = ed25519_zebra::VerificationKey::try_from(*key.as_bytes()).ok()?;
        (!weak).then_some(SeatKey { key })
    }
}
