//! The proof that goes with every shuffle part: the deck a seat passes on holds exactly the
//! cards it was given, each re-encrypted under the table's key, in an order only the seat
//! knows. Every device checks it the moment the part arrives, before any card of the deck
//! is dealt, so a shuffler who drops, doubles or swaps in a card (or stacks the deck from
//! cards it encrypted itself) is refused there, naming its seat, whether or not it ever
//! reveals its secret.
//!
//! It is the proof of a shuffle of Terelius and Wikström ("Proofs of restricted shuffles",
//! AFRICACRYPT 2010), in the form Wikström gives for Verificatum's verifier, over
//! ristretto255 and made non-interactive through a Merlin transcript bound to its
//! [`Context`]. In outline, with independent generators `H, H_0 … H_{N−1}` nobody knows a
//! relation between:
//!
//! - The shuffler commits to its permutation `π` (output `i` is input `π(i)` re-encrypted
//!   with randomness `ρ_i`) column by column: `c_j = r_j·G + H_{π⁻¹(j)}`.
//! - Challenges `u_j` are drawn from the transcript. A committed matrix is a permutation
//!   matrix exactly when its columns sum to the sum of the generators and the product of
//!   the challenges it permutes equals the product of the challenges; the shuffler proves
//!   both (the product through a chain of commitments `ĉ_i = r̂_i·G + u'_i·ĉ_{i−1}`), and
//!   that the permuted challenges `u'_i = u_{π(i)}` it committed to are the weights that
//!   make `Σ u'_i·e'_i` equal `Σ u_j·e_j` re-encrypted once: only a re-encrypting
//!   permutation of the input deck makes that hold for random `u`.
//! - The verifier checks the proof's `N + 5` equations folded into one multiscalar
//!   multiplication, with weights drawn from the transcript once every part of the proof is
//!   in it.
//!
//! A proof of `N` cards is `3N + 5` points and `2N + 4` scalars: 18,122 bytes on the wire
//! for 108 cards (`cargo bench -p hoard-net --bench deck`).
//! Its randomness comes from the shuffler's seed and the statement, as the other proofs'
//! nonces do: the same part always gets the same proof, and no two statements share one.

use super::DeckError;
use super::elgamal::{self, Ciphertext};
use super::proof::{Context, challenge};
use curve25519_dalek::constants::RISTRETTO_BASEPOINT_POINT;
use curve25519_dalek::traits::{IsIdentity, MultiscalarMul, VartimeMultiscalarMul};
use curve25519_dalek::{RistrettoPoint, Scalar};
use merlin::Transcript;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

/// A point with its 32-byte encoding, read once and written into the transcript as read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "PointBytes", into = "PointBytes")]
struct Point {
    p: RistrettoPoint,
    bytes: [u8; 32],
}

#[derive(Clone, Copy, Serialize, Deserialize)]
struct PointBytes(#[serde(with = "crate::bytes::bytes32")] [u8; 32]);

impl TryFrom<PointBytes> for Point {
    type Error = &'static str;
    fn try_from(b: PointBytes) -> Result<Point, &'static str> {
        let p = elgamal::decompress(b.0).ok_or("not a point of the group")?;
        Ok(Point { p, bytes: b.0 })
    }
}

impl From<Point> for PointBytes {
    fn from(p: Point) -> PointBytes {
        PointBytes(p.bytes)
    }
}

impl From<RistrettoPoint> for Point {
    fn from(p: RistrettoPoint) -> Point {
        Point {
            p,
            bytes: elgamal::encode(&p),
        }
    }
}

/// A scalar on the wire (canonical bytes only).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Response(#[serde(with = "elgamal::scalar")] Scalar);

/// A seat's proof that its part of a shuffle re-encrypts and reorders the deck it was
/// given, and does nothing else to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShuffleProof {
    /// The commitment to the permutation, one point per input card.
    permutation: Vec<Point>,
    /// The chain of commitments that carries the product of the permuted challenges.
    chain: Vec<Point>,
    /// The first messages of the four single equations: the permutation's column sum, the
    /// chain's end, the committed challenges, and the cards (two points).
    t: [Point; 5],
    /// The first message of each link of the chain.
    t_chain: Vec<Point>,
    /// The responses to the four single equations.
    s: [Response; 4],
    /// The response for each link's randomness.
    s_chain: Vec<Response>,
    /// The response for each permuted challenge.
    s_permuted: Vec<Response>,
}

/// The proofs this process found to hold, by the last challenge of their transcript.
static PROVEN: super::Checked = super::Checked::new();

/// One generator, from a hash: nobody knows its discrete logarithm to `G`, to the table's
/// key or to another generator.
fn generator(i: u32) -> RistrettoPoint {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck shuffle generator");
    h.update(&i.to_le_bytes());
    let mut wide = [0u8; 64];
    h.finalize_xof().fill(&mut wide);
    RistrettoPoint::from_uniform_bytes(&wide)
}

/// `H` and `H_0 … H_{n−1}`, made once per process (hashing to the group costs two
/// square roots a point). `n` is a deck's size, which the game fixes.
fn generators(n: usize) -> Vec<RistrettoPoint> {
    static MADE: Mutex<Vec<RistrettoPoint>> = Mutex::new(Vec::new());
    let mut made = MADE.lock().unwrap_or_else(|e| e.into_inner());
    while made.len() <= n {
        let i = made.len() as u32;
        made.push(generator(i));
    }
    made[..=n].to_vec()
}

/// The transcript up to the statement: where the proof belongs, the key, and both decks.
fn statement(
    ctx: &Context<'_>,
    key: &RistrettoPoint,
    input: &[Ciphertext],
    output: &[Ciphertext],
) -> Transcript {
    let mut t = ctx.transcript(b"shuffle");
    t.append_message(b"key", key.compress().as_bytes());
    t.append_u64(b"cards", input.len() as u64);
    for c in input.iter().chain(output) {
        t.append_message(b"a", c.a_bytes());
        t.append_message(b"b", c.b_bytes());
    }
    t
}

/// `n` scalars drawn from the transcript under `label`.
fn challenges(t: &mut Transcript, label: &'static [u8], n: usize) -> Vec<Scalar> {
    let mut wide = vec![0u8; 64 * n];
    t.challenge_bytes(label, &mut wide);
    wide.chunks_exact(64)
        .map(|w| {
            let mut b = [0u8; 64];
            b.copy_from_slice(w);
            Scalar::from_bytes_mod_order_wide(&b)
        })
        .collect()
}

fn append_points(t: &mut Transcript, label: &'static [u8], points: &[Point]) {
    for p in points {
        t.append_message(label, &p.bytes);
    }
}

fn append_responses(t: &mut Transcript, label: &'static [u8], responses: &[Response]) {
    for s in responses {
        t.append_message(label, s.0.as_bytes());
    }
}

/// The prover's secret randomness, a stream keyed by its seed and the whole statement.
struct Nonces(blake3::OutputReader);

impl Nonces {
    fn new(t: &Transcript, seed: &[u8; 32]) -> Nonces {
        let mut t = t.clone();
        t.append_message(b"witness", seed);
        let mut key = [0u8; 32];
        t.challenge_bytes(b"nonces", &mut key);
        Nonces(blake3::Hasher::new_keyed(&key).finalize_xof())
    }

    fn next(&mut self) -> Scalar {
        let mut wide = [0u8; 64];
        self.0.fill(&mut wide);
        Scalar::from_bytes_mod_order_wide(&wide)
    }

    fn take(&mut self, n: usize) -> Vec<Scalar> {
        (0..n).map(|_| self.next()).collect()
    }
}

impl ShuffleProof {
    /// The proof that `output` is `input` reordered by `order` (position `i` of the output
    /// takes card `order[i]` of the input) and re-encrypted to `key`, card `i` of the output
    /// with randomness `randomness[i]`. `seed` is the shuffler's secret the rest of the
    /// proof's randomness comes from.
    pub fn prove(
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        input: &[Ciphertext],
        output: &[Ciphertext],
        order: &[u32],
        randomness: &[Scalar],
        seed: &[u8; 32],
    ) -> ShuffleProof {
        let n = input.len();
        let g = RISTRETTO_BASEPOINT_POINT;
        let gens = generators(n);
        let (h, hs) = (gens[0], &gens[1..]);
        let mut t = statement(ctx, key, input, output);
        let mut nonces = Nonces::new(&t, seed);

        // Where each input card went.
        let mut to = vec![0usize; n];
        for (i, j) in order.iter().enumerate() {
            if let Some(slot) = to.get_mut(*j as usize) {
                *slot = i;
            }
        }
        let r = nonces.take(n);
        let permutation: Vec<Point> = (0..n)
            .map(|j| Point::from(RistrettoPoint::mul_base(&r[j]) + hs[to[j]]))
            .collect();
        append_points(&mut t, b"permutation", &permutation);
        let u = challenges(&mut t, b"u", n);
        let permuted: Vec<Scalar> = order.iter().map(|j| u[*j as usize]).collect();

        let r_chain = nonces.take(n);
        let (w1, w2, w3, w4) = (nonces.next(), nonces.next(), nonces.next(), nonces.next());
        let w_chain = nonces.take(n);
        let w_permuted = nonces.take(n);

        let mut chain = Vec::with_capacity(n);
        let mut t_chain = Vec::with_capacity(n);
        let mut last = h;
        for i in 0..n {
            let link = RistrettoPoint::multiscalar_mul([r_chain[i], permuted[i]], [g, last]);
            let first = RistrettoPoint::multiscalar_mul([w_chain[i], w_permuted[i]], [g, last]);
            chain.push(Point::from(link));
            t_chain.push(Point::from(first));
            last = link;
        }
        let t3 = RistrettoPoint::multiscalar_mul(
            std::iter::once(w3).chain(w_permuted.iter().copied()),
            std::iter::once(g).chain(hs.iter().copied()),
        );
        let t4a = RistrettoPoint::multiscalar_mul(
            std::iter::once(-w4).chain(w_permuted.iter().copied()),
            std::iter::once(g).chain(output.iter().map(Ciphertext::a)),
        );
        let t4b = RistrettoPoint::multiscalar_mul(
            std::iter::once(-w4).chain(w_permuted.iter().copied()),
            std::iter::once(*key).chain(output.iter().map(Ciphertext::b)),
        );
        let firsts = [
            Point::from(RistrettoPoint::mul_base(&w1)),
            Point::from(RistrettoPoint::mul_base(&w2)),
            Point::from(t3),
            Point::from(t4a),
            Point::from(t4b),
        ];
        append_points(&mut t, b"chain", &chain);
        append_points(&mut t, b"t", &firsts);
        append_points(&mut t, b"t chain", &t_chain);
        let c = challenge(&mut t, b"c");

        // What the responses open: the permutation's randomness summed, the chain's
        // randomness carried to its end, the permutation's randomness weighted by the
        // challenges, and the re-encryption's randomness weighted by the permuted challenges.
        let r_sum: Scalar = r.iter().sum();
        let mut r_end = Scalar::ZERO;
        for i in 0..n {
            r_end = r_end * permuted[i] + r_chain[i];
        }
        let r_weighted: Scalar = r.iter().zip(&u).map(|(r, u)| r * u).sum();
        let rho: Scalar = randomness.iter().zip(&permuted).map(|(r, u)| r * u).sum();
        ShuffleProof {
            permutation,
            chain,
            t: firsts,
            t_chain,
            s: [
                Response(w1 + c * r_sum),
                Response(w2 + c * r_end),
                Response(w3 + c * r_weighted),
                Response(w4 + c * rho),
            ],
            s_chain: (0..n)
                .map(|i| Response(w_chain[i] + c * r_chain[i]))
                .collect(),
            s_permuted: (0..n)
                .map(|i| Response(w_permuted[i] + c * permuted[i]))
                .collect(),
        }
    }

    /// Checks that `output` is `input` re-encrypted to `key` and reordered, as proved. Every
    /// core in a process (a host holding bots' seats, a simulated table) checks the same
    /// parts: a proof found to hold is remembered by its transcript, which binds the
    /// statement and every byte of the proof, and is not checked again.
    pub fn verify(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        input: &[Ciphertext],
        output: &[Ciphertext],
    ) -> Result<(), DeckError> {
        self.check(ctx, key, input, output, true)
    }

    /// [`ShuffleProof::verify`] as a device's first sight of the proof: the whole check,
    /// whatever this process checked before (what the deck bench measures).
    pub fn verify_afresh(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        input: &[Ciphertext],
        output: &[Ciphertext],
    ) -> Result<(), DeckError> {
        self.check(ctx, key, input, output, false)
    }

    fn check(
        &self,
        ctx: &Context<'_>,
        key: &RistrettoPoint,
        input: &[Ciphertext],
        output: &[Ciphertext],
        remember: bool,
    ) -> Result<(), DeckError> {
        let n = input.len();
        let sizes = [
            output.len(),
            self.permutation.len(),
            self.chain.len(),
            self.t_chain.len(),
            self.s_chain.len(),
            self.s_permuted.len(),
        ];
        if sizes.iter().any(|len| *len != n) {
            return Err(DeckError::BadShuffleProof);
        }
        if n == 0 {
            return Ok(());
        }
        let gens = generators(n);
        let (h, hs) = (gens[0], &gens[1..]);
        let mut t = statement(ctx, key, input, output);
        append_points(&mut t, b"permutation", &self.permutation);
        let u = challenges(&mut t, b"u", n);
        append_points(&mut t, b"chain", &self.chain);
        append_points(&mut t, b"t", &self.t);
        append_points(&mut t, b"t chain", &self.t_chain);
        let c = challenge(&mut t, b"c");
        append_responses(&mut t, b"s", &self.s);
        append_responses(&mut t, b"s chain", &self.s_chain);
        append_responses(&mut t, b"s permuted", &self.s_permuted);
        let weights = challenges(&mut t, b"weights", 5 + n);
        let mut seen = [0u8; 32];
        t.challenge_bytes(b"proven", &mut seen);
        if remember && PROVEN.holds(&seen) {
            return Ok(());
        }
        let (b1, b2, b3, b4a, b4b) = (weights[0], weights[1], weights[2], weights[3], weights[4]);
        let gamma = &weights[5..];
        let [s1, s2, s3, s4] = self.s.map(|s| s.0);
        let s_chain: Vec<Scalar> = self.s_chain.iter().map(|s| s.0).collect();
        let s_perm: Vec<Scalar> = self.s_permuted.iter().map(|s| s.0).collect();
        let u_product: Scalar = u.iter().product();

        // Each equation is zero when the proof holds; their sum, weighted, is one
        // multiscalar multiplication:
        //   t1 + c·(Σc_j − ΣH_i) − s1·G
        //   t2 + c·(ĉ_{N−1} − Πu·H) − s2·G
        //   t3 + c·Σu_j·c_j − s3·G − Σs'_i·H_i
        //   t4a + c·Σu_j·a_j + s4·G − Σs'_i·a'_i        (and likewise with b and the key)
        //   t̂_i + c·ĉ_i − ŝ_i·G − s'_i·ĉ_{i−1}          (ĉ_{−1} = H)
        let mut scalars = Vec::with_capacity(8 * n + 8);
        let mut points = Vec::with_capacity(8 * n + 8);
        let g_weight = b4a * s4
            - b1 * s1
            - b2 * s2
            - b3 * s3
            - gamma
                .iter()
                .zip(&s_chain)
                .map(|(g, s)| g * s)
                .sum::<Scalar>();
        scalars.extend([
            g_weight,
            b4b * s4,
            -(b2 * c * u_product) - gamma[0] * s_perm[0],
        ]);
        points.extend([RISTRETTO_BASEPOINT_POINT, *key, h]);
        for i in 0..n {
            scalars.push(-(b1 * c) - b3 * s_perm[i]);
            points.push(hs[i]);
            scalars.push(b1 * c + b3 * c * u[i]);
            points.push(self.permutation[i].p);
            let mut link = gamma[i] * c;
            if let Some(next) = gamma.get(i + 1) {
                link -= next * s_perm[i + 1];
            } else {
                link += b2 * c;
            }
            scalars.push(link);
            points.push(self.chain[i].p);
            scalars.push(gamma[i]);
            points.push(self.t_chain[i].p);
            scalars.push(b4a * c * u[i]);
            points.push(input[i].a());
            scalars.push(b4b * c * u[i]);
            points.push(input[i].b());
            scalars.push(-(b4a * s_perm[i]));
            points.push(output[i].a());
            scalars.push(-(b4b * s_perm[i]));
            points.push(output[i].b());
        }
        scalars.extend([b1, b2, b3, b4a, b4b]);
        points.extend(self.t.iter().map(|p| p.p));
        if !RistrettoPoint::vartime_multiscalar_mul(scalars, points).is_identity() {
            return Err(DeckError::BadShuffleProof);
        }
        if remember {
            PROVEN.held(seen);
        }
        Ok(())
    }

    /// How many cards it is about.
    pub fn cards(&self) -> usize {
        self.permutation.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mental::elgamal::{card_point, scalar_from_hash};
    use crate::mental::shuffle;
    use curve25519_dalek::ristretto::RistrettoBasepointTable;

    const SESSION: [u8; 32] = [3; 32];

    fn ctx(seat: u8) -> Context<'static> {
        Context {
            session: &SESSION,
            deck: 1,
            seat,
            step: 0,
        }
    }

    fn key() -> RistrettoPoint {
        RistrettoPoint::mul_base(&scalar_from_hash("hoard test secret", &[b"joint"]))
    }

    /// A deck of `n` cards, already shuffled once (so every card is a real ciphertext).
    fn deck(n: u32) -> Vec<Ciphertext> {
        let plain: Vec<Ciphertext> = (0..n)
            .map(|j| Ciphertext::plain(card_point("test", "deck", j)))
            .collect();
        let table = RistrettoBasepointTable::create(&key());
        shuffle::shuffle(&[40; 32], &table, &plain)
    }

    fn proved(seed: &[u8; 32], input: &[Ciphertext]) -> (Vec<Ciphertext>, ShuffleProof) {
        shuffle::shuffle_and_prove(&ctx(2), seed, &key(), input)
    }

    #[test]
    fn an_honest_shuffle_always_passes() {
        for n in [1, 2, 3, 10, 52] {
            for s in 0..3u8 {
                let input = deck(n);
                let (output, proof) = proved(&[s; 32], &input);
                assert_eq!(
                    proof.verify(&ctx(2), &key(), &input, &output),
                    Ok(()),
                    "{n} cards"
                );
                let bytes = postcard::to_stdvec(&proof).unwrap();
                let read: ShuffleProof = postcard::from_bytes(&bytes).unwrap();
                assert_eq!(read.verify(&ctx(2), &key(), &input, &output), Ok(()));
            }
        }
    }

    #[test]
    fn the_same_part_gets_the_same_proof() {
        let input = deck(8);
        assert_eq!(proved(&[5; 32], &input), proved(&[5; 32], &input));
        assert_ne!(proved(&[5; 32], &input).1, proved(&[6; 32], &input).1);
    }

    #[test]
    fn a_proof_proves_nothing_for_another_seat_key_or_deck() {
        let input = deck(6);
        let (output, proof) = proved(&[1; 32], &input);
        let bad = Err(DeckError::BadShuffleProof);
        assert_eq!(proof.verify(&ctx(3), &key(), &input, &output), bad);
        let other_key = RistrettoPoint::mul_base(&Scalar::from(7u8));
        assert_eq!(proof.verify(&ctx(2), &other_key, &input, &output), bad);
        let other_input = deck(7)[..6].to_vec();
        assert_ne!(other_input, input);
        let mut shifted = input.clone();
        shifted.rotate_left(1);
        assert_eq!(proof.verify(&ctx(2), &key(), &shifted, &output), bad);
    }

    /// The cheats a shuffler could try on the deck it passes on, each refused.
    #[test]
    fn a_shuffle_that_drops_doubles_or_replaces_a_card_is_refused() {
        let input = deck(12);
        let (output, proof) = proved(&[9; 32], &input);
        let table = RistrettoBasepointTable::create(&key());
        let bad = Err(DeckError::BadShuffleProof);

        let mut doubled = output.clone();
        doubled[4] = doubled[5];
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &doubled), bad);

        let mut doubled_fresh = output.clone();
        doubled_fresh[4] = doubled[5].rerandomize(&table, &Scalar::from(11u8));
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &doubled_fresh), bad);

        let mut replaced = output.clone();
        replaced[0] = Ciphertext::encrypt(&card_point("test", "deck", 0), &key(), &Scalar::ONE);
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &replaced), bad);

        let dropped = output[..11].to_vec();
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &dropped), bad);

        let mut swapped = output.clone();
        swapped.swap(0, 1);
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &swapped), bad);

        // A proof made honestly for a deck, then passed on with a deck stacked from
        // cards the shuffler encrypted itself: real cards, every one distinct.
        let stacked: Vec<Ciphertext> = (0..12u32)
            .rev()
            .map(|j| {
                Ciphertext::encrypt(&card_point("test", "deck", j), &key(), &Scalar::from(j + 2))
            })
            .collect();
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &stacked), bad);
    }

    /// A stacked deck with a proof made for it as an honest prover would (the best a
    /// cheater can do without breaking the group) is refused: no permutation of the input
    /// re-encrypts to it.
    #[test]
    fn a_deck_stacked_from_fresh_encryptions_cannot_be_proved() {
        let input = deck(10);
        let stacked: Vec<Ciphertext> = (0..10u32)
            .map(|j| {
                Ciphertext::encrypt(&card_point("test", "deck", j), &key(), &Scalar::from(j + 5))
            })
            .collect();
        let order: Vec<u32> = (0..10).collect();
        let randomness: Vec<Scalar> = (0..10u32).map(Scalar::from).collect();
        let proof = ShuffleProof::prove(
            &ctx(2),
            &key(),
            &input,
            &stacked,
            &order,
            &randomness,
            &[1; 32],
        );
        assert_eq!(
            proof.verify(&ctx(2), &key(), &input, &stacked),
            Err(DeckError::BadShuffleProof)
        );
    }

    /// Re-encrypting every card honestly but claiming another order (or one card's
    /// randomness wrong, or a map that is no permutation) leaves an equation that does not
    /// hold.
    #[test]
    fn re_encrypting_without_permuting_honestly_is_refused() {
        let input = deck(9);
        let seed = [4; 32];
        let (output, _) = proved(&seed, &input);
        let lie = |change: &dyn Fn(&mut Vec<u32>, &mut Vec<Scalar>)| {
            let mut order = shuffle::order(&seed, 9);
            let mut randomness = shuffle::randomness(&seed, 9);
            change(&mut order, &mut randomness);
            ShuffleProof::prove(&ctx(2), &key(), &input, &output, &order, &randomness, &seed)
                .verify(&ctx(2), &key(), &input, &output)
        };
        let bad = Err(DeckError::BadShuffleProof);
        assert_eq!(lie(&|_, _| {}), Ok(()), "the truth holds");
        assert_eq!(lie(&|order, _| order.swap(2, 3)), bad, "another order");
        assert_eq!(
            lie(&|_, r| r[0] += Scalar::ONE),
            bad,
            "one card's randomness"
        );
        // Two outputs from the same input card.
        assert_eq!(lie(&|order, _| order[1] = order[0]), bad, "no permutation");
    }

    #[test]
    fn a_proof_with_any_part_changed_is_refused() {
        let input = deck(5);
        let (output, proof) = proved(&[2; 32], &input);
        let bad = Err(DeckError::BadShuffleProof);
        let nudge = |p: &mut Point| *p = Point::from(p.p + RISTRETTO_BASEPOINT_POINT);
        let mut p = proof.clone();
        nudge(&mut p.permutation[3]);
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        let mut p = proof.clone();
        nudge(&mut p.chain[4]);
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        for k in 0..5 {
            let mut p = proof.clone();
            nudge(&mut p.t[k]);
            assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        }
        let mut p = proof.clone();
        nudge(&mut p.t_chain[0]);
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        for k in 0..4 {
            let mut p = proof.clone();
            p.s[k].0 += Scalar::ONE;
            assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        }
        let mut p = proof.clone();
        p.s_chain[2].0 += Scalar::ONE;
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        let mut p = proof.clone();
        p.s_permuted[1].0 += Scalar::ONE;
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        let mut p = proof;
        p.s_permuted.pop();
        assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
    }

    #[test]
    fn a_proof_is_remembered_only_once_it_holds_and_only_for_its_own_statement() {
        let input = deck(7);
        let (output, proof) = proved(&[12; 32], &input);
        let bad = Err(DeckError::BadShuffleProof);
        for _ in 0..2 {
            assert_eq!(proof.verify(&ctx(2), &key(), &input, &output), Ok(()));
            assert_eq!(
                proof.verify_afresh(&ctx(2), &key(), &input, &output),
                Ok(())
            );
        }
        // The same proof bytes for another deck passed on, or another seat, are checked
        // again and refused.
        let mut swapped = output.clone();
        swapped.swap(1, 2);
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &swapped), bad);
        assert_eq!(proof.verify(&ctx(1), &key(), &input, &output), bad);
        let mut p = proof.clone();
        p.s[0].0 += Scalar::ONE;
        for _ in 0..2 {
            assert_eq!(p.verify(&ctx(2), &key(), &input, &output), bad);
        }
    }

    #[test]
    fn a_proof_of_108_cards_is_under_20_kb() {
        let input = deck(108);
        let (output, proof) = proved(&[8; 32], &input);
        let bytes = postcard::to_stdvec(&proof).unwrap();
        assert!(bytes.len() <= 20_000, "{} bytes", bytes.len());
        assert_eq!(proof.verify(&ctx(2), &key(), &input, &output), Ok(()));
    }
}
