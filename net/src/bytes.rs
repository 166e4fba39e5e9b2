//! Fixed-size byte strings as every encoding here spells them: the 32-byte hash type, and
//! serde helpers that write a fixed-size array as one length-prefixed byte string. A leaf:
//! the keys, the deck and the wire all build on it, and it on nothing of theirs.

/// A BLAKE3 hash.
pub type Hash = [u8; 32];

/// Fixed-size byte arrays as one length-prefixed byte string on the wire (one read, not one
/// per byte); anything but the exact length is refused.
pub(crate) mod fixed_bytes {
    use serde::de::{Error, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    pub fn serialize<S: Serializer, const N: usize>(v: &[u8; N], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }
    pub fn deserialize<'de, D: Deserializer<'de>, const N: usize>(
        d: D,
    ) -> Result<[u8; N], D::Error> {
        d.deserialize_bytes(Exact::<N>)
    }

    pub struct Exact<const N: usize>;

    impl<'de, const N: usize> Visitor<'de> for Exact<N> {
        type Value = [u8; N];
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{N} bytes")
        }
        fn visit_bytes<E: Error>(self, v: &[u8]) -> Result<[u8; N], E> {
            v.try_into().map_err(|_| E::invalid_length(v.len(), &self))
        }
    }
}

/// The 32-byte arrays (hashes, keys, points), the most common case of [`fixed_bytes`].
pub(crate) use fixed_bytes as bytes32;
