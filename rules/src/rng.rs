//! Every random number the rules use, from a 32-byte seed through ChaCha8, with
//! sampling written out here so the same seed gives the same numbers on every
//! platform and every version of the `rand` crates.

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

/// A generator seeded from a beacon draw (or any 32-byte seed) and a label, so that
/// one draw can feed several independent uses without reusing numbers.
pub fn from_seed(seed: &[u8; 32], label: &str) -> ChaCha8Rng {
    let mut hasher = blake3::Hasher::new_derive_key("hoard v1 rules rng");
    hasher.update(seed);
    hasher.update(label.as_bytes());
    ChaCha8Rng::from_seed(*hasher.finalize().as_bytes())
}

/// A uniform number in `0..n` (`n > 0`), by rejection, free of modulo bias.
pub fn below(rng: &mut ChaCha8Rng, n: u32) -> u32 {
    assert!(n > 0, "below(0) has no value");
    let zone = u32::MAX - (u32::MAX % n);
    loop {
        let x = rng.next_u32();
        if x < zone {
            return x % n;
        }
    }
}

/// A die roll, 1 to `sides`.
pub fn roll(rng: &mut ChaCha8Rng, sides: u32) -> u32 {
    below(rng, sides) + 1
}

/// Fisher–Yates shuffle in place.
pub fn shuffle<T>(rng: &mut ChaCha8Rng, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        items.swap(i, j);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_numbers_and_labels_separate_streams() {
        let seed = [7u8; 32];
        let a: Vec<u32> = (0..8)
            .map(|_| below(&mut from_seed(&seed, "a"), 100))
            .collect();
        let mut r1 = from_seed(&seed, "a");
        let mut r2 = from_seed(&seed, "a");
        let mut r3 = from_seed(&seed, "b");
        let x: Vec<u32> = (0..16).map(|_| below(&mut r1, 1000)).collect();
        let y: Vec<u32> = (0..16).map(|_| below(&mut r2, 1000)).collect();
        let z: Vec<u32> = (0..16).map(|_| below(&mut r3, 1000)).collect();
        assert_eq!(x, y);
        assert_ne!(x, z);
        assert!(a.iter().all(|v| *v < 100));
    }

    #[test]
    fn shuffle_is_a_permutation_and_rolls_stay_in_range() {
        let mut rng = from_seed(&[1u8; 32], "t");
        let mut v: Vec<u8> = (0..28).collect();
        shuffle(&mut rng, &mut v);
        let mut sorted = v.clone();
        sorted.sort();
        assert_eq!(sorted, (0..28).collect::<Vec<u8>>());
        assert_ne!(v, sorted, "a 28-card shuffle left the deck in order");
        for _ in 0..1000 {
            let r = roll(&mut rng, 6);
            assert!((1..=6).contains(&r));
        }
    }
}
