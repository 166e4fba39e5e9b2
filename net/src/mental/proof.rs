//! The proofs that keep the mental deck honest, each a sigma protocol made
//! non-interactive through a Merlin transcript bound to its [`Context`]:
//!
//! - [`KeyProof`]: a seat knows the secret behind its key share (Schnorr). Without it a
//!   seat could pick its share to cancel the others' and read every card alone.
//! - [`DleqProof`]: a seat's decryption shares of any number of cards are made with the
//!   secret behind its key share (Chaum–Pedersen, the cards folded with weights drawn
//!   from the transcript, so one proof and two multiscalar multiplications check them
//!   all). A wrong share is refused at once, with this as proof.
//! - [`HandoverProof`]: a card held under its holder's key alone, re-encrypted to
//!   another seat's key, is the same card (a plaintext-equality proof that also shows the
//!   holder's key), so a card can pass from hand to hand without the table learning it.
//!
//! Nonces are derived from the transcript and the witness, as a deterministic signature's
//! are: the same statement gives the same proof bytes (a seat restarted mid-step makes its
//! proof again the same), and different statements never share a nonce.

use super::DeckError;
use super::elgamal::{Ciphertext, scalar};
use curve25519_dalek::traits::{IsIdentity, VartimeMultiscalarMul};
use curve25519_dalek::{RistrettoPoint, Scalar};
use merlin::Transcript;
use serde::{Deserialize, Serialize};

/// Where a proof belongs. A proof is bound to every field, so it proves nothing for
/// another session, deck, seat or moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Context<'a> {
    pub session: &'a [u8; 32],
    /// The deck it is about, as the game numbers its decks (0 for a seat's key share).
    pub deck: u32,
    /// The seat making the proof.
    pub seat: u8,
    /// Where in the game: the step of a deal, a show or a handover.
    pub step: u32,
}

impl Context<'_> {
    pub(super) fn transcript(&self, what: &'static [u8]) -> Transcript {
        let mut t = Transcript::new(b"hoard v1 mental deck");
        t.append_message(b"what", what);
        t.append_message(b"session", self.session);
        t.append_u64(b"deck", self.deck as u64);
        t.append_u64(b"seat", self.seat as u64);
        t.append_u64(b"step", self.step as u64);
        t
    }
}

fn append(t: &mut Transcript, label: &'static [u8], p: &RistrettoPoint) {
    t.append_message(label, p.compress().as_bytes());
}

pub(super) fn challenge(t: &mut Transcript, label: &'static [u8]) -> Scalar {
    let mut wide = [0u8; 64];
    t.challenge_bytes(label, &mut wide);
    Scalar::from_bytes_mod_order_wide(&wide)
}

/// The prover's nonce number `which` for the statement in `t`, from the transcript and the
/// witnesses: only the prover can make it, and the same statement always gives the same.
fn nonce(t: &Transcript, witnesses: &[&Scalar], which: &'static [u8]) -> Scalar {
    let mut t = t.clone();
    for w in witnesses {
        t.append_message(b"witness", w.as_bytes());
    }
    challenge(&mut t, which)
}

/// `s·G − c·P`, the commitment a Schnorr-style check recomputes.
fn recommit(s: &Scalar, c: &Scalar, p: &RistrettoPoint) -> RistrettoPoint {
    RistrettoPoint::vartime_double_scalar_mul_basepoint(&-c, p, s)
}

/// A seat knows the secret behind its key share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeyProof {
    #[serde(with = "scalar")]
    c: Scalar,
    #[serde(with = "scalar")]
    s: Scalar,
}

impl KeyProof {
    /// The key share of `secret` and the proof that its owner knows it.
    pub fn prove(ctx: &Context<'_>, secret: &Scalar) -> (RistrettoPoint, KeyProof) {
        let key = RistrettoPoint::mul_base(secret);
        let mut t = ctx.transcript(b"key share");
        append(&mut t, b"key", &key);
        let k = nonce(&t, &[secret], b"k");
        append(&mut t, b"R", &RistrettoPoint::mul_base(&k));
        let c = challenge(&mut t, b"c");
        (
            key,
            KeyProof {
                c,
                s: k + c * secret,
            },
        )
    }

    pub fn verify(&self, ctx: &Context<'_>, key: &RistrettoPoint) -> Result<(), DeckError> {
        // The identity is nobody's key: it would add nothing to the table's key.
        if key.is_identity() {
            return Err(DeckError::BadKeyProof);
        }
        let mut t = ctx.transcript(b"key share");
        append(&mut t, b"key", key);
        append(&mut t, b"R", &recommit(&self.s, &self.c, key));
        (challenge(&mut t, b"c") == self.c)
            .then_some(())
            .ok_or(DeckError::BadKeyProof)
    }
}

/// A seat's decryption shares of a list of cards are all made with the secret behind its
/// key share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DleqProof {
    #[serde(with = "scalar")]
    c: Scalar,
    #[serde(with = "scalar")]
    s: Scalar,
}

/// The share proofs this process found to hold, by a challenge drawn from the transcript
/// up to the fold (the statement: context, key, cards and shares) with the proof appended.
static SHARES_PROVEN: super::Checked = super::Checked::new();

/// The transcript of a share proof up to the fold, and the weights of the fold. The weights
/// are drawn from the transcript after every card and share is in it, so no prover can pick
/// shares whose errors cancel in the fold.
fn share_statement(
    ctx: &Context<'_>,
    key: &RistrettoPoint,
    cards: &[Ciphertext],
    shares: &[RistrettoPoint],
) -> (Transcript, Vec<Scalar>) {
    let mut t = ctx.transcript(b"decryption shares");
    append(&mut t, b"key", key);
    t.append_u64(b"cards", cards.len() as u64);
    for (card, share) in cards.iter().zip(shares) {
        t.append_message(b"a", card.a_bytes());
        append(&mut t, b"d", share);
    }
    let mut seed = [0u8; 32];
    t.challenge_bytes(b"weights", &mut seed);
    let weights: Vec<Scalar> = (0..cards.len() as u32)
        .map(|j| {
            super::elgamal::scalar_from_hash(
                "hoard v1 mental deck weight",
                &[&seed, &j.to_le_bytes()],
            )
        })
        .collect();
    (t, weights)
}

/// The folded card `A = Σ w_j·a_j`.
fn fold_cards(weights: &[Scalar], cards: &[Ciphertext]) -> RistrettoPoint {
    RistrettoPoint::vartime_multiscalar_mul(weights, cards.iter().map(|c| c.a()))
}

impl DleqProof {
    /// This seat's decryption share of every card in `cards`, and one proof for them all.
    pub fn prove(
        ctx: &Context<'_>,
        secret: &Scalar,
        cards: &[Ciphertext],
    ) -> (Vec<RistrettoPoint>, DleqProof) {
        let key = RistrettoPoint::mul_base(secret);
        let shares: Vec<RistrettoPoint> = cards.iter().map(|c| c.share(secret)).collect();
        let (mut t, weights) = share_statement(ctx, &key, cards, &shares);
        let folded = fold_cards(&weights, cards);
        let k = nonce(&t, &[secret], b"k");
        append(&mut t, b"R1", &RistrettoPoint::mul_base(&k));
        append(&mut t, b"R2", &(k * folded));
        let c = challenge(&mut t, b"c");
        (
            shares,
            DleqProof {
                c,
                s: k + c * secret,
            },
        )
    }

    /// Checks `shares` (one per card, in order) against the key share `key`. A proof this
    /// process found to hold for the very same statement is not checked again (see
    /// [`super::Checked`]).
    pub fn verify(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        cards: &[Ciphertext],
        shares: &[RistrettoPoint],
    ) -> Result<(), DeckError> {
        self.check(ctx, key, cards, shares, true)
    }

    /// [`DleqProof::verify`] as a device's first sight of the proof: the whole check,
    /// whatever this process checked before (what the deck bench measures).
    pub fn verify_afresh(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        cards: &[Ciphertext],
        shares: &[RistrettoPoint],
    ) -> Result<(), DeckError> {
        self.check(ctx, key, cards, shares, false)
    }

    fn check(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        cards: &[Ciphertext],
        shares: &[RistrettoPoint],
        remember: bool,
    ) -> Result<(), DeckError> {
        if cards.len() != shares.len() {
            return Err(DeckError::Mismatch);
        }
        let (mut t, weights) = share_statement(ctx, key, cards, shares);
        let mut seen = [0u8; 32];
        let mut bound = t.clone();
        bound.append_message(b"c", self.c.as_bytes());
        bound.append_message(b"s", self.s.as_bytes());
        bound.challenge_bytes(b"proven", &mut seen);
        if remember && SHARES_PROVEN.holds(&seen) {
            return Ok(());
        }
        let folded = fold_cards(&weights, cards);
        let folded_share = RistrettoPoint::vartime_multiscalar_mul(&weights, shares);
        append(&mut t, b"R1", &recommit(&self.s, &self.c, key));
        let r2 = RistrettoPoint::vartime_multiscalar_mul([self.s, -self.c], [folded, folded_share]);
        append(&mut t, b"R2", &r2);
        if challenge(&mut t, b"c") != self.c {
            return Err(DeckError::BadShareProof);
        }
        if remember {
            SHARES_PROVEN.held(seen);
        }
        Ok(())
    }
}

/// A card held under its holder's key alone went to another seat's key unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HandoverProof {
    #[serde(with = "scalar")]
    c: Scalar,
    #[serde(with = "scalar")]
    s_key: Scalar,
    #[serde(with = "scalar")]
    s_r: Scalar,
}

fn handover_transcript(
    ctx: &Context<'_>,
    from: &RistrettoPoint,
    held: &Ciphertext,
    to: &RistrettoPoint,
    given: &Ciphertext,
) -> Transcript {
    let mut t = ctx.transcript(b"handover");
    for (label, p) in [
        (b"from" as &'static [u8], &from.compress().to_bytes()),
        (b"held a", held.a_bytes()),
        (b"held b", held.b_bytes()),
        (b"to", &to.compress().to_bytes()),
        (b"given a", given.a_bytes()),
        (b"given b", given.b_bytes()),
    ] {
        t.append_message(label, p);
    }
    t
}

impl HandoverProof {
    /// `held` is a card under the key of `secret` alone (every other share stripped); it is
    /// re-encrypted to `to` with randomness `r`. Returns the card as `to` receives it.
    pub fn prove(
        ctx: &Context<'_>,
        secret: &Scalar,
        held: &Ciphertext,
        to: &RistrettoPoint,
        r: &Scalar,
    ) -> (Ciphertext, HandoverProof) {
        let from = RistrettoPoint::mul_base(secret);
        let m = held.open([&held.share(secret)]);
        let given = Ciphertext::encrypt(&m, to, r);
        let mut t = handover_transcript(ctx, &from, held, to, &given);
        let k_key = nonce(&t, &[secret, r], b"k key");
        let k_r = nonce(&t, &[secret, r], b"k r");
        append(&mut t, b"T1", &RistrettoPoint::mul_base(&k_key));
        append(&mut t, b"T2", &RistrettoPoint::mul_base(&k_r));
        append(&mut t, b"T3", &(k_key * held.a() - k_r * to));
        let c = challenge(&mut t, b"c");
        let proof = HandoverProof {
            c,
            s_key: k_key + c * secret,
            s_r: k_r + c * r,
        };
        (given, proof)
    }

    /// Checks that `given` (under `to`) holds the card `held` held (under `from` alone).
    pub fn verify(
        &self,
        ctx: &Context<'_>,
        from: &RistrettoPoint,
        held: &Ciphertext,
        to: &RistrettoPoint,
        given: &Ciphertext,
    ) -> Result<(), DeckError> {
        let mut t = handover_transcript(ctx, from, held, to, given);
        let c = self.c;
        append(&mut t, b"T1", &recommit(&self.s_key, &c, from));
        append(&mut t, b"T2", &recommit(&self.s_r, &c, &given.a()));
        // held.b − given.b = x·held.a − r·to when the card is the same.
        let t3 = RistrettoPoint::vartime_multiscalar_mul(
            [self.s_key, -self.s_r, -c],
            [held.a(), *to, held.b() - given.b()],
        );
        append(&mut t, b"T3", &t3);
        (challenge(&mut t, b"c") == c)
            .then_some(())
            .ok_or(DeckError::BadHandoverProof)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mental::elgamal::{card_point, scalar_from_hash};

    const SESSION: [u8; 32] = [5; 32];

    fn ctx(seat: u8, step: u32) -> Context<'static> {
        Context {
            session: &SESSION,
            deck: 1,
            seat,
            step,
        }
    }

    fn secret(i: u8) -> Scalar {
        scalar_from_hash("hoard test secret", &[&[i]])
    }

    fn deck(key: &RistrettoPoint, n: u32) -> Vec<Ciphertext> {
        (0..n)
            .map(|j| {
                let m = card_point("test", "deck", j);
                Ciphertext::encrypt(&m, key, &secret(100 + j as u8))
            })
            .collect()
    }

    #[test]
    fn a_key_proof_holds_only_for_its_key_and_its_place() {
        let (key, proof) = KeyProof::prove(&ctx(2, 0), &secret(1));
        assert_eq!(proof.verify(&ctx(2, 0), &key), Ok(()));
        let other = RistrettoPoint::mul_base(&secret(2));
        assert_eq!(
            proof.verify(&ctx(2, 0), &other),
            Err(DeckError::BadKeyProof)
        );
        assert_eq!(proof.verify(&ctx(3, 0), &key), Err(DeckError::BadKeyProof));
        // A share chosen to cancel another's is a key whose secret nobody knows.
        let rogue = other - RistrettoPoint::mul_base(&secret(3));
        assert_eq!(
            proof.verify(&ctx(2, 0), &rogue),
            Err(DeckError::BadKeyProof)
        );
    }

    #[test]
    fn the_same_statement_gives_the_same_proof_bytes() {
        let cards = deck(&RistrettoPoint::mul_base(&secret(9)), 3);
        let a = DleqProof::prove(&ctx(1, 4), &secret(1), &cards);
        let b = DleqProof::prove(&ctx(1, 4), &secret(1), &cards);
        assert_eq!(a, b);
        assert_ne!(a.1, DleqProof::prove(&ctx(1, 5), &secret(1), &cards).1);
    }

    #[test]
    fn decryption_shares_check_together_and_one_wrong_share_is_caught() {
        let x = secret(1);
        let key = RistrettoPoint::mul_base(&x);
        let cards = deck(&(key + RistrettoPoint::mul_base(&secret(2))), 20);
        let (mut shares, proof) = DleqProof::prove(&ctx(0, 7), &x, &cards);
        // Checked twice (the second time from what this process remembers) and afresh.
        for _ in 0..2 {
            assert_eq!(proof.verify(&ctx(0, 7), &key, &cards, &shares), Ok(()));
        }
        assert_eq!(
            proof.verify_afresh(&ctx(0, 7), &key, &cards, &shares),
            Ok(())
        );
        // Remembered or not, the proof holds for its own statement only.
        assert_eq!(
            proof.verify(&ctx(0, 8), &key, &cards, &shares),
            Err(DeckError::BadShareProof),
            "a proof is bound to its step"
        );
        shares[13] += RistrettoPoint::mul_base(&secret(3));
        assert_eq!(
            proof.verify(&ctx(0, 7), &key, &cards, &shares),
            Err(DeckError::BadShareProof)
        );
        assert_eq!(
            proof.verify(&ctx(0, 7), &key, &cards, &shares[..19]),
            Err(DeckError::Mismatch)
        );
    }

    #[test]
    fn a_card_handed_over_opens_for_the_receiver_and_the_proof_binds_it() {
        let (x_a, x_b) = (secret(1), secret(2));
        let (from, to) = (
            RistrettoPoint::mul_base(&x_a),
            RistrettoPoint::mul_base(&x_b),
        );
        let m = card_point("test", "deck", 4);
        let held = Ciphertext::encrypt(&m, &from, &secret(3));
        let (given, proof) = HandoverProof::prove(&ctx(0, 2), &x_a, &held, &to, &secret(4));
        assert_eq!(proof.verify(&ctx(0, 2), &from, &held, &to, &given), Ok(()));
        assert_eq!(given.open([&given.share(&x_b)]), m);
        // Another card under the same key, with the same proof: refused.
        let swapped = Ciphertext::encrypt(&card_point("test", "deck", 5), &to, &secret(4));
        assert_eq!(
            proof.verify(&ctx(0, 2), &from, &held, &to, &swapped),
            Err(DeckError::BadHandoverProof)
        );
        // A holder cannot make a proof that passes for a different card.
        let (given2, proof2) = HandoverProof::prove(&ctx(0, 2), &x_a, &held, &to, &secret(5));
        assert_eq!(
            proof2.verify(&ctx(0, 2), &from, &held, &to, &given2),
            Ok(())
        );
        let forged = Ciphertext::new(given2.a(), given2.b() + card_point("test", "deck", 6) - m);
        assert_eq!(
            proof2.verify(&ctx(0, 2), &from, &held, &to, &forged),
            Err(DeckError::BadHandoverProof)
        );
    }
}
