//! ElGamal on ristretto255. A card is a point `m`; under a public key `P = x·G` it travels
//! as `(a, b) = (r·G, m + r·P)`. With the table's joint key (the sum of every seat's key
//! share) no card can be read until every seat has given its decryption share `x_i·a`.
//!
//! On the wire a point is its 32-byte compressed encoding, checked when it is read: bytes
//! that are not a valid point make the whole message unreadable, so nothing past decoding
//! ever holds a bad point.

use curve25519_dalek::ristretto::{CompressedRistretto, RistrettoBasepointTable};
use curve25519_dalek::{RistrettoPoint, Scalar};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// One card, encrypted: `(a, b)`, two points, each kept with its 32-byte encoding. A deck's
/// cards are hashed into the log at every step that moves them, sent, and written into
/// proof transcripts, and encoding a point costs an inversion: a card is encoded once, when
/// it is made, or not at all when it was read from bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CiphertextBytes", into = "CiphertextBytes")]
pub struct Ciphertext {
    a: RistrettoPoint,
    b: RistrettoPoint,
    bytes: [[u8; 32]; 2],
}

/// A ciphertext as it is written: its two points' encodings.
#[derive(Clone, Copy, Serialize, Deserialize)]
struct CiphertextBytes {
    #[serde(with = "crate::bytes::bytes32")]
    a: [u8; 32],
    #[serde(with = "crate::bytes::bytes32")]
    b: [u8; 32],
}

impl TryFrom<CiphertextBytes> for Ciphertext {
    type Error = &'static str;
    fn try_from(c: CiphertextBytes) -> Result<Ciphertext, &'static str> {
        let point = |bytes| decompress(bytes).ok_or("not a point of the group");
        Ok(Ciphertext {
            a: point(c.a)?,
            b: point(c.b)?,
            bytes: [c.a, c.b],
        })
    }
}

impl From<Ciphertext> for CiphertextBytes {
    fn from(c: Ciphertext) -> CiphertextBytes {
        CiphertextBytes {
            a: c.bytes[0],
            b: c.bytes[1],
        }
    }
}

impl Ciphertext {
    /// The ciphertext `(a, b)`.
    pub fn new(a: RistrettoPoint, b: RistrettoPoint) -> Ciphertext {
        let bytes = [encode(&a), encode(&b)];
        Ciphertext { a, b, bytes }
    }

    /// Its first point: `r·G` for randomness `r`.
    pub fn a(&self) -> RistrettoPoint {
        self.a
    }

    /// Its second point: the card plus `r` times the key.
    pub fn b(&self) -> RistrettoPoint {
        self.b
    }

    /// The encoding of `a`.
    pub fn a_bytes(&self) -> &[u8; 32] {
        &self.bytes[0]
    }

    /// The encoding of `b`.
    pub fn b_bytes(&self) -> &[u8; 32] {
        &self.bytes[1]
    }

    /// A card in the open, as a deck starts before its first shuffle: `m` encrypted with
    /// randomness 0, `(identity, m)`, which every device makes the same.
    pub fn plain(m: RistrettoPoint) -> Ciphertext {
        Ciphertext::plain_encoded(m, m.compress().to_bytes())
    }

    /// [`Ciphertext::plain`] with the encoding of `m` at hand (from [`encoded_card_point`]).
    pub(crate) fn plain_encoded(m: RistrettoPoint, m_bytes: [u8; 32]) -> Ciphertext {
        Ciphertext {
            a: RistrettoPoint::default(),
            b: m,
            bytes: [CompressedRistretto::default().to_bytes(), m_bytes],
        }
    }

    /// `m` encrypted to `key` with randomness `r`: `(r·G, m + r·key)`.
    pub fn encrypt(m: &RistrettoPoint, key: &RistrettoPoint, r: &Scalar) -> Ciphertext {
        Ciphertext::new(RistrettoPoint::mul_base(r), m + r * key)
    }

    /// The same card under the same key, unlinkable to this ciphertext without the key:
    /// `(a + r·G, b + r·key)`. `key` is given as a table because a shuffle re-encrypts
    /// every card of a deck to one key.
    pub fn rerandomize(&self, key: &RistrettoBasepointTable, r: &Scalar) -> Ciphertext {
        Ciphertext::new(self.a + RistrettoPoint::mul_base(r), self.b + r * key)
    }

    /// One seat's decryption share of this card: `x·a`.
    pub fn share(&self, secret: &Scalar) -> RistrettoPoint {
        secret * self.a
    }

    /// The card once the shares of every holder of a part of its key are in.
    pub fn open<'a>(&self, shares: impl IntoIterator<Item = &'a RistrettoPoint>) -> RistrettoPoint {
        shares.into_iter().fold(self.b, |m, d| m - d)
    }

    /// The card as a ciphertext under the key parts not yet shared: with some shares
    /// published, `(a, b − Σ shares)` is the same card under the remaining holders' keys.
    pub fn strip<'a>(&self, shares: impl IntoIterator<Item = &'a RistrettoPoint>) -> Ciphertext {
        let b = self.open(shares);
        Ciphertext {
            a: self.a,
            b,
            bytes: [self.bytes[0], encode(&b)],
        }
    }
}

/// The point of one physical card: the `copy`-th card (counted over the whole deck list)
/// of deck `deck` in game `game`. Two copies of the same card face are two points, so a
/// card shown twice is caught the moment it shows. Nobody knows a discrete logarithm of
/// any card point, or a relation between two of them (they come from a hash).
pub fn card_point(game: &str, deck: &str, copy: u32) -> RistrettoPoint {
    encoded_card_point(game, deck, copy).0
}

/// How many card points [`encoded_card_point`] keeps before it forgets them all: every deck
/// of every game many times over.
const CARD_MEMO: usize = 1 << 14;

/// [`card_point`] and its encoding. Hashing to the group and encoding cost an inverse square
/// root each, and every core in a process (a host holding bots' seats, a simulated table)
/// makes the same decks: the points made are kept, for the whole process. The point is a
/// pure function of its name, so the memo changes no result.
pub fn encoded_card_point(game: &str, deck: &str, copy: u32) -> (RistrettoPoint, [u8; 32]) {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    type Memo = HashMap<(String, String, u32), (RistrettoPoint, [u8; 32])>;
    static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();
    let memo = MEMO.get_or_init(Default::default);
    let name = (game.to_string(), deck.to_string(), copy);
    if let Some(made) = memo.lock().ok().and_then(|m| m.get(&name).copied()) {
        return made;
    }
    let p = hash_to_card(game, deck, copy);
    let made = (p, p.compress().to_bytes());
    if let Ok(mut m) = memo.lock() {
        if m.len() >= CARD_MEMO {
            m.clear();
        }
        m.insert(name, made);
    }
    made
}

fn hash_to_card(game: &str, deck: &str, copy: u32) -> RistrettoPoint {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck card point");
    for part in [game, deck] {
        h.update(&(part.len() as u32).to_le_bytes());
        h.update(part.as_bytes());
    }
    h.update(&copy.to_le_bytes());
    let mut wide = [0u8; 64];
    h.finalize_xof().fill(&mut wide);
    RistrettoPoint::from_uniform_bytes(&wide)
}

/// A uniform scalar from 64 bytes of hash output under `label`, for randomness that must
/// come out the same when replayed (a shuffle's, from its committed seed).
pub fn scalar_from_hash(label: &str, parts: &[&[u8]]) -> Scalar {
    let mut h = blake3::Hasher::new_derive_key(label);
    for part in parts {
        h.update(&(part.len() as u32).to_le_bytes());
        h.update(part);
    }
    let mut wide = [0u8; 64];
    h.finalize_xof().fill(&mut wide);
    Scalar::from_bytes_mod_order_wide(&wide)
}

/// Serde for a point as its 32 compressed bytes; reading bytes that are no point fails.
pub mod point {
    use super::*;

    pub fn serialize<S: Serializer>(p: &RistrettoPoint, s: S) -> Result<S::Ok, S::Error> {
        crate::bytes::bytes32::serialize(&encode(p), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<RistrettoPoint, D::Error> {
        let bytes = crate::bytes::bytes32::deserialize(d)?;
        decompress(bytes).ok_or_else(|| serde::de::Error::custom("not a point of the group"))
    }
}

/// How many decompressed points [`decompress`] keeps before it forgets them all (about
/// 12 MB): a whole deck's worth of messages many times over.
const POINT_MEMO: usize = 1 << 16;

/// The points read or made on this device, by their encodings (see [`decompress`]).
fn point_memo()
-> std::sync::MutexGuard<'static, std::collections::HashMap<[u8; 32], RistrettoPoint>> {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static MEMO: OnceLock<Mutex<HashMap<[u8; 32], RistrettoPoint>>> = OnceLock::new();
    MEMO.get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
}

/// The point 32 bytes encode, if they encode one. Decompressing costs an inverse square
/// root, and every core on a device (a host holding bots' seats, a simulated table) reads
/// the same messages: the points read are kept, for the whole process, by their bytes, and
/// so are the points this process encoded itself ([`encode`]). Decompression is a pure
/// function, so the memo changes no result.
pub fn decompress(bytes: [u8; 32]) -> Option<RistrettoPoint> {
    if let Some(p) = point_memo().get(&bytes).copied() {
        return Some(p);
    }
    let p = CompressedRistretto(bytes).decompress()?;
    remember(bytes, p);
    Some(p)
}

/// `p`'s encoding, kept for [`decompress`]: a point a core of this process made and sent is
/// read back by the others without its inverse square root.
pub fn encode(p: &RistrettoPoint) -> [u8; 32] {
    let bytes = p.compress().to_bytes();
    remember(bytes, *p);
    bytes
}

/// `bytes` encode `p`: [`decompress`] gives `p` for them from now on.
fn remember(bytes: [u8; 32], p: RistrettoPoint) {
    let mut memo = point_memo();
    if memo.len() >= POINT_MEMO {
        memo.clear();
    }
    memo.insert(bytes, p);
}

/// Serde for a scalar as its 32 canonical bytes; a non-canonical encoding fails.
pub mod scalar {
    use super::*;

    pub fn serialize<S: Serializer>(x: &Scalar, s: S) -> Result<S::Ok, S::Error> {
        crate::bytes::bytes32::serialize(&x.to_bytes(), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Scalar, D::Error> {
        let bytes = crate::bytes::bytes32::deserialize(d)?;
        Option::from(Scalar::from_canonical_bytes(bytes))
            .ok_or_else(|| serde::de::Error::custom("not a canonical scalar"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secret(i: u8) -> Scalar {
        scalar_from_hash("hoard test secret", &[&[i]])
    }

    /// The memo gives what decompressing gives, the second time too, and keeps no
    /// answer for bytes that are no point.
    #[test]
    fn points_read_through_the_memo_are_the_points_the_bytes_encode() {
        for i in 0..50u8 {
            let p = card_point("hoard test", "memo", u32::from(i));
            let bytes = p.compress().to_bytes();
            assert_eq!(decompress(bytes), Some(p));
            assert_eq!(decompress(bytes), Some(p));
        }
        let mut not_a_point = [0xffu8; 32];
        not_a_point[31] = 0x7f;
        assert_eq!(CompressedRistretto(not_a_point).decompress(), None);
        assert_eq!(decompress(not_a_point), None);
        assert_eq!(decompress(not_a_point), None);
    }

    #[test]
    fn a_card_under_a_joint_key_opens_only_with_every_share() {
        let secrets: Vec<Scalar> = (0..4).map(secret).collect();
        let joint: RistrettoPoint = secrets.iter().map(RistrettoPoint::mul_base).sum();
        let m = card_point("test", "deck", 7);
        let c = Ciphertext::encrypt(&m, &joint, &secret(9));
        let shares: Vec<RistrettoPoint> = secrets.iter().map(|x| c.share(x)).collect();
        assert_eq!(c.open(&shares), m);
        assert_ne!(
            c.open(&shares[..3]),
            m,
            "three of four shares read the card"
        );
        // With three shares out, the card is the fourth seat's alone.
        let held = c.strip(&shares[1..]);
        assert_eq!(held.open([&held.share(&secrets[0])]), m);
    }

    #[test]
    fn rerandomizing_keeps_the_card_and_changes_every_byte() {
        let x = secret(1);
        let key = RistrettoPoint::mul_base(&x);
        let table = RistrettoBasepointTable::create(&key);
        let m = card_point("test", "deck", 0);
        let c = Ciphertext::encrypt(&m, &key, &secret(2));
        let d = c.rerandomize(&table, &secret(3));
        assert_ne!(c.a, d.a);
        assert_ne!(c.b, d.b);
        assert_eq!(d.open([&d.share(&x)]), m);
    }

    #[test]
    fn card_points_differ_by_game_deck_and_copy() {
        let a = card_point("spree", "deck", 0);
        assert_ne!(a, card_point("spree", "deck", 1));
        assert_ne!(a, card_point("spree", "deck2", 0));
        assert_ne!(
            a,
            card_point("spre", "edeck", 0),
            "the parts are length-prefixed"
        );
        assert_eq!(a, card_point("spree", "deck", 0));
    }

    #[test]
    fn bytes_that_are_no_point_are_refused_when_read() {
        let c = Ciphertext::encrypt(
            &card_point("t", "d", 1),
            &card_point("t", "k", 0),
            &secret(4),
        );
        let bytes = postcard::to_stdvec(&c).unwrap();
        assert_eq!(postcard::from_bytes::<Ciphertext>(&bytes).unwrap(), c);
        let mut bad = bytes.clone();
        // All-ones is not a canonical field element, so never a point's encoding (byte 0
        // is the length postcard puts before the 32 bytes).
        bad[1..33].fill(0xff);
        assert!(postcard::from_bytes::<Ciphertext>(&bad).is_err());
    }

    #[test]
    fn a_card_is_written_as_its_two_points_encodings_however_it_was_made() {
        let key = RistrettoPoint::mul_base(&secret(2));
        let made = Ciphertext::encrypt(&card_point("t", "d", 3), &key, &secret(5));
        let stripped = made.strip([&made.share(&secret(2))]);
        for c in [made, stripped, Ciphertext::plain(card_point("t", "d", 4))] {
            let mut expected = vec![32];
            expected.extend(c.a().compress().to_bytes());
            expected.push(32);
            expected.extend(c.b().compress().to_bytes());
            assert_eq!(postcard::to_stdvec(&c).unwrap(), expected);
            let read: Ciphertext = postcard::from_bytes(&expected).unwrap();
            assert_eq!((read.a(), read.b()), (c.a(), c.b()));
            assert_eq!((read.a_bytes(), read.b_bytes()), (c.a_bytes(), c.b_bytes()));
        }
    }
}
