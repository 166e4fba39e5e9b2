//! A seat's part of a shuffle: every card re-encrypted under the table's key and the deck
//! put in a new order, both drawn from one 32-byte seed the seat committed to before it
//! shuffled. Nobody can follow a card through a shuffle without the seed, so one honest
//! shuffler is enough to hide the order from everyone. The part goes with a proof
//! ([`super::shuffle_proof`]) that every device checks when it arrives, so a shuffler who
//! swapped in, dropped or doubled a card is refused at once; at the audit each seed is
//! revealed and the shuffles are replayed as well.

use super::DeckError;
use super::elgamal::{Ciphertext, scalar_from_hash};
use super::proof::Context;
use super::shuffle_proof::ShuffleProof;
use curve25519_dalek::ristretto::RistrettoBasepointTable;
use curve25519_dalek::{RistrettoPoint, Scalar};

/// What a shuffler commits to before its shuffle leaves it.
pub fn commitment(
    session: &[u8; 32],
    deck: u32,
    round: u32,
    seat: u8,
    seed: &[u8; 32],
) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck shuffle commitment");
    h.update(session);
    h.update(&deck.to_le_bytes());
    h.update(&round.to_le_bytes());
    h.update(&[seat]);
    h.update(seed);
    *h.finalize().as_bytes()
}

/// The new order: position `i` of the output takes card `order[i]` of the input. Sorting
/// by a keyed hash of each position gives every order the same chance (a collision of
/// 256-bit hashes does not happen).
pub fn order(seed: &[u8; 32], cards: usize) -> Vec<u32> {
    let key = blake3::derive_key("hoard v1 mental deck shuffle order", seed);
    let mut order: Vec<(blake3::Hash, u32)> = (0..cards as u32)
        .map(|j| (blake3::keyed_hash(&key, &j.to_le_bytes()), j))
        .collect();
    order.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    order.into_iter().map(|(_, j)| j).collect()
}

/// The randomness each card of the output is re-encrypted with, by output position.
pub fn randomness(seed: &[u8; 32], cards: usize) -> Vec<Scalar> {
    (0..cards as u32)
        .map(|i| {
            scalar_from_hash(
                "hoard v1 mental deck shuffle randomness",
                &[seed, &i.to_le_bytes()],
            )
        })
        .collect()
}

/// The deck as the shuffler passes it on: reordered by [`order`], each card re-encrypted
/// to `key` (the table's joint key) with [`randomness`] from the seed.
pub fn shuffle(
    seed: &[u8; 32],
    key: &RistrettoBasepointTable,
    deck: &[Ciphertext],
) -> Vec<Ciphertext> {
    reencrypt(
        deck,
        &order(seed, deck.len()),
        &randomness(seed, deck.len()),
        key,
    )
}

/// Output card `i` is input card `order[i]` re-encrypted with `randomness[i]`.
fn reencrypt(
    deck: &[Ciphertext],
    order: &[u32],
    randomness: &[Scalar],
    key: &RistrettoBasepointTable,
) -> Vec<Ciphertext> {
    order
        .iter()
        .zip(randomness)
        .map(|(j, r)| deck[*j as usize].rerandomize(key, r))
        .collect()
}

/// The deck as the shuffler passes it on, and the proof that it is `deck` re-encrypted and
/// reordered, which every device checks when it arrives.
pub fn shuffle_and_prove(
    ctx: &Context<'_>,
    seed: &[u8; 32],
    key: &RistrettoPoint,
    deck: &[Ciphertext],
) -> (Vec<Ciphertext>, ShuffleProof) {
    let order = order(seed, deck.len());
    let randomness = randomness(seed, deck.len());
    let output = reencrypt(
        deck,
        &order,
        &randomness,
        &RistrettoBasepointTable::create(key),
    );
    let proof = ShuffleProof::prove(ctx, key, deck, &output, &order, &randomness, seed);
    (output, proof)
}

/// The shuffles this process found to replay, by [`replay_id`].
static REPLAYED: super::Checked = super::Checked::new();

/// What [`replay`] remembers a replay by.
fn replay_id(
    seed: &[u8; 32],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck shuffle replayed");
    h.update(seed);
    h.update(key.compress().as_bytes());
    for deck in [input, output] {
        h.update(&(deck.len() as u64).to_le_bytes());
        for card in deck {
            h.update(card.a_bytes());
            h.update(card.b_bytes());
        }
    }
    *h.finalize().as_bytes()
}

/// The audit's check: `output` is what `seed` makes of `input`. The cards are compared as
/// points, so nothing is encoded: output card `i` must be input card `order[i]` plus the
/// seed's randomness times `G` and times the key. A part this process found to replay is
/// not replayed again (see [`super::Checked`]).
pub fn replay(
    seed: &[u8; 32],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
) -> Result<(), DeckError> {
    replay_checked(seed, key, input, output, true)
}

/// [`replay`] as a device's first audit of the part: the whole replay, whatever this
/// process replayed before (what the deck bench measures).
pub fn replay_afresh(
    seed: &[u8; 32],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
) -> Result<(), DeckError> {
    replay_checked(seed, key, input, output, false)
}

fn replay_checked(
    seed: &[u8; 32],
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
    remember: bool,
) -> Result<(), DeckError> {
    if input.len() != output.len() {
        return Err(DeckError::BadShuffle);
    }
    let id = replay_id(seed, key, input, output);
    if remember && REPLAYED.holds(&id) {
        return Ok(());
    }
    let table = RistrettoBasepointTable::create(key);
    let order = order(seed, input.len());
    let randomness = randomness(seed, input.len());
    let replays = output
        .iter()
        .zip(order.iter().zip(&randomness))
        .all(|(out, (j, r))| {
            let card = &input[*j as usize];
            out.a() == card.a() + RistrettoPoint::mul_base(r) && out.b() == card.b() + r * &table
        });
    if !replays {
        return Err(DeckError::BadShuffle);
    }
    if remember {
        REPLAYED.held(id);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mental::elgamal::card_point;

    #[test]
    fn a_shuffle_hides_the_order_and_keeps_every_card() {
        let secrets: Vec<Scalar> = (0..3u8)
            .map(|i| scalar_from_hash("hoard test secret", &[&[i]]))
            .collect();
        let key: RistrettoPoint = secrets.iter().map(RistrettoPoint::mul_base).sum();
        let table = RistrettoBasepointTable::create(&key);
        let plain: Vec<Ciphertext> = (0..12)
            .map(|j| Ciphertext::plain(card_point("test", "deck", j)))
            .collect();
        let mut deck = plain.clone();
        for seat in 0..3u8 {
            let seed = [seat + 1; 32];
            let next = shuffle(&seed, &table, &deck);
            assert_eq!(replay(&seed, &key, &deck, &next), Ok(()));
            assert!(
                next.iter().all(|c| !deck.contains(c)),
                "a card went through unchanged"
            );
            deck = next;
        }
        let mut opened: Vec<[u8; 32]> = deck
            .iter()
            .map(|c| {
                let shares: Vec<RistrettoPoint> = secrets.iter().map(|x| c.share(x)).collect();
                c.open(&shares).compress().to_bytes()
            })
            .collect();
        let mut expected: Vec<[u8; 32]> = plain.iter().map(|c| *c.b_bytes()).collect();
        assert_ne!(
            opened, expected,
            "three shuffles left twelve cards in order"
        );
        opened.sort();
        expected.sort();
        assert_eq!(opened, expected);
    }

    #[test]
    fn a_replay_is_remembered_only_once_it_holds_and_only_for_its_own_decks() {
        let key = RistrettoPoint::mul_base(&scalar_from_hash("hoard test secret", &[b"m"]));
        let table = RistrettoBasepointTable::create(&key);
        let deck: Vec<Ciphertext> = (0..6)
            .map(|j| Ciphertext::plain(card_point("test", "remembered", j)))
            .collect();
        let seed = [10; 32];
        let honest = shuffle(&seed, &table, &deck);
        for _ in 0..2 {
            assert_eq!(replay(&seed, &key, &deck, &honest), Ok(()));
            assert_eq!(replay_afresh(&seed, &key, &deck, &honest), Ok(()));
        }
        // Once the honest part replayed, the same seed with any card of the output changed,
        // or with another deck before it, is replayed again and refused.
        let mut swapped = honest.clone();
        swapped.swap(0, 5);
        let mut other_input = deck.clone();
        other_input.swap(1, 2);
        for _ in 0..2 {
            assert_eq!(
                replay(&seed, &key, &deck, &swapped),
                Err(DeckError::BadShuffle)
            );
            assert_eq!(
                replay(&seed, &key, &other_input, &honest),
                Err(DeckError::BadShuffle)
            );
            assert_eq!(
                replay(&seed, &key, &deck, &honest[..5]),
                Err(DeckError::BadShuffle)
            );
        }
    }

    #[test]
    fn a_shuffle_that_swaps_in_a_card_does_not_replay() {
        let key = RistrettoPoint::mul_base(&scalar_from_hash("hoard test secret", &[b"k"]));
        let table = RistrettoBasepointTable::create(&key);
        let deck: Vec<Ciphertext> = (0..5)
            .map(|j| Ciphertext::plain(card_point("test", "deck", j)))
            .collect();
        let seed = [9; 32];
        let mut cheat = shuffle(&seed, &table, &deck);
        cheat[2] = cheat[3];
        assert_eq!(
            replay(&seed, &key, &deck, &cheat),
            Err(DeckError::BadShuffle)
        );
        assert_eq!(
            replay(&[8; 32], &key, &deck, &shuffle(&seed, &table, &deck)),
            Err(DeckError::BadShuffle),
            "another seed than the committed one"
        );
    }

    #[test]
    fn every_order_is_a_permutation() {
        for s in 0..20u8 {
            let mut o = order(&[s; 32], 52);
            o.sort_unstable();
            assert_eq!(o, (0..52).collect::<Vec<u32>>());
        }
    }
}
