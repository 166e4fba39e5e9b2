//! `cargo bench -p hoard-net --bench deck`: the mental deck's cryptography at the sizes the
//! games need. A 108-card deck at 8 seats: each seat's part of the shuffle and the whole
//! round on one core; each part's proof of shuffle, made with the part and checked by every
//! device; dealing one card (seven seats' shares with their proof, checked by the
//! receiver); showing one card (its holder's share, checked by everyone); the audit of a
//! game's shuffles (every seat's part replayed); the bytes a dealt card costs each seat on
//! the wire; passing a card; and escrowing a seat's key against its removal.
use curve25519_dalek::ristretto::RistrettoBasepointTable;
use curve25519_dalek::{RistrettoPoint, Scalar};
use hoard_net::mental::elgamal::{Ciphertext, card_point, scalar_from_hash};
use hoard_net::mental::proof::{Context, DleqProof, HandoverProof, KeyProof};
use hoard_net::mental::{shuffle, table};
use std::time::{Duration, Instant};

const SEATS: u8 = 8;
const CARDS: u32 = 108;
const SESSION: [u8; 32] = [7; 32];

fn ctx(seat: u8, step: u32) -> Context<'static> {
    Context {
        session: &SESSION,
        deck: 0,
        seat,
        step,
    }
}

/// The median of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> Duration {
    let mut times: Vec<Duration> = (0..runs)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort_unstable();
    times[runs / 2]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

fn main() {
    let secrets: Vec<Scalar> = (0..SEATS)
        .map(|s| scalar_from_hash("hoard bench secret", &[&[s]]))
        .collect();
    let keys: Vec<RistrettoPoint> = secrets
        .iter()
        .enumerate()
        .map(|(s, x)| {
            let (key, proof) = KeyProof::prove(&ctx(s as u8, 0), x);
            proof
                .verify(&ctx(s as u8, 0), &key)
                .expect("a key share proves itself");
            key
        })
        .collect();
    let joint: RistrettoPoint = keys.iter().sum();
    let plain: Vec<Ciphertext> = (0..CARDS)
        .map(|j| Ciphertext::plain(card_point("bench", "deck", j)))
        .collect();

    // The shuffle: every seat in turn, each from its own seed.
    let seeds: Vec<[u8; 32]> = (0..SEATS).map(|s| [s + 1; 32]).collect();
    let round = || {
        let table = RistrettoBasepointTable::create(&joint);
        let mut decks = vec![plain.clone()];
        for seed in &seeds {
            let next = shuffle::shuffle(seed, &table, decks.last().expect("a deck"));
            decks.push(next);
        }
        decks
    };
    let decks = round();
    let whole = median(5, || {
        round();
    });
    let table = RistrettoBasepointTable::create(&joint);
    let part = median(9, || {
        shuffle::shuffle(&seeds[0], &table, &plain);
    });
    println!(
        "shuffle of {CARDS} cards at {SEATS} seats: one seat's part {}, the whole round on one core {} (goal: <= 300 ms summed over all seats)",
        ms(part),
        ms(whole)
    );

    // The proof that goes with each part: made by its seat with the part, checked by every
    // device when the part arrives.
    let proofs: Vec<_> = seeds
        .iter()
        .enumerate()
        .map(|(s, seed)| {
            let (out, proof) =
                shuffle::shuffle_and_prove(&ctx(s as u8, 0), seed, &joint, &decks[s]);
            assert_eq!(out, decks[s + 1], "the proven part is the part");
            proof
        })
        .collect();
    let proving = median(5, || {
        shuffle::shuffle_and_prove(&ctx(0, 0), &seeds[0], &joint, &plain);
    });
    let checking = median(5, || {
        for (s, proof) in proofs.iter().enumerate() {
            proof
                .verify_afresh(&ctx(s as u8, 0), &joint, &decks[s], &decks[s + 1])
                .expect("an honest shuffle is proven");
        }
    });
    let proof_bytes = postcard::to_stdvec(&proofs[0]).expect("encodes").len();
    println!(
        "proof of one seat's part: the part made and proven in {} ({:.1}x the part alone, goal: <= 10x), {proof_bytes} bytes (goal: <= 20 KB); all {SEATS} parts checked in {} (goal: <= 300 ms)",
        ms(proving),
        proving.as_secs_f64() / part.as_secs_f64(),
        ms(checking)
    );

    // The audit: every seat's part replayed from its revealed seed.
    let audit = median(3, || {
        for (s, seed) in seeds.iter().enumerate() {
            shuffle::replay_afresh(seed, &joint, &decks[s], &decks[s + 1])
                .expect("an honest shuffle replays");
        }
    });
    // One seat's shuffle part as it goes on the wire, with its proof (the escrow, sent
    // once, is measured below): what the cap on a deck message (`MAX_DECK_MESSAGE`) is set against.
    let part_bytes = postcard::to_stdvec(&decks[1]).expect("encodes").len() + proof_bytes;
    println!(
        "one seat's shuffle part of {CARDS} cards: {part_bytes} bytes (a deck message may be {} at most)",
        hoard_net::wire::MAX_DECK_MESSAGE
    );
    println!(
        "audit of one deck's shuffles ({SEATS} parts): {}",
        ms(audit)
    );

    // Deal one card to seat 0: every other seat's share and proof, checked by the receiver
    // (and by everyone, who must see the shares are right before the card counts as dealt).
    let deck = decks.last().expect("a shuffled deck");
    let card = &deck[..1];
    let mut messages = Vec::new();
    let make = median(9, || {
        messages = (1..SEATS)
            .map(|s| DleqProof::prove(&ctx(s, 1), &secrets[s as usize], card))
            .collect();
    });
    let check = median(9, || {
        for (i, (shares, proof)) in messages.iter().enumerate() {
            let s = i as u8 + 1;
            proof
                .verify_afresh(&ctx(s, 1), &keys[s as usize], card, shares)
                .expect("an honest share");
        }
    });
    let mut all: Vec<RistrettoPoint> = messages.iter().map(|(d, _)| d[0]).collect();
    all.push(card[0].share(&secrets[0]));
    assert_eq!(card[0].open(&all).compress(), {
        // The card is one of the deck's: find it.
        let m = card[0].open(&all);
        (0..CARDS)
            .map(|j| card_point("bench", "deck", j))
            .find(|p| *p == m)
            .expect("the dealt card is a card of the deck")
            .compress()
    });
    println!(
        "deal one card: each of {} seats makes its share and proof in {} (all {}), the receiver checks all in {} (goal: <= 5 ms)",
        SEATS - 1,
        ms(make / (SEATS as u32 - 1)),
        ms(make),
        ms(check)
    );
    let bytes = postcard::to_stdvec(&messages[0]).expect("encodes").len();
    println!("bytes per card dealt, per seat sharing: {bytes} (goal: <= 1 KB)");

    // A hand of eight cards dealt at once: one proof covers them all.
    let hand = &deck[1..9];
    let (shares, proof) = DleqProof::prove(&ctx(1, 2), &secrets[1], hand);
    let eight = median(9, || {
        proof
            .verify_afresh(&ctx(1, 2), &keys[1], hand, &shares)
            .expect("an honest share");
    });
    let bytes8 = postcard::to_stdvec(&(shares, proof))
        .expect("encodes")
        .len();
    println!(
        "deal eight cards at once: one seat's proof checked in {}, {bytes8} bytes ({} per card)",
        ms(eight),
        bytes8 / 8
    );

    // Show one card: its holder's share, checked by every device.
    let show = median(9, || {
        let (d, p) = DleqProof::prove(&ctx(0, 3), &secrets[0], card);
        p.verify_afresh(&ctx(0, 3), &keys[0], card, &d)
            .expect("an honest show");
    });
    println!(
        "show one card: the holder's share made and checked in {}",
        ms(show)
    );

    // Pass one card from seat 0 to seat 1: the handover to seat 1's key and its proof.
    let held = card[0].strip(messages.iter().map(|(d, _)| &d[0]));
    let r = scalar_from_hash("hoard bench handover", &[]);
    let mut given = None;
    let make = median(9, || {
        given = Some(HandoverProof::prove(
            &ctx(0, 4),
            &secrets[0],
            &held,
            &keys[1],
            &r,
        ));
    });
    let (to_1, proof) = given.expect("a handover");
    let check = median(9, || {
        proof
            .verify(&ctx(0, 4), &keys[0], &held, &keys[1], &to_1)
            .expect("an honest handover");
    });
    let bytes = postcard::to_stdvec(&(to_1, proof)).expect("encodes").len();
    println!(
        "pass one card: the handover made in {}, checked in {}, {bytes} bytes",
        ms(make),
        ms(check)
    );

    // Removal insurance: each seat's key escrowed with the seven others at the first
    // shuffle (made once per seat, checked by everyone), and one part read back.
    let seat_secrets: Vec<[u8; 32]> = (0..SEATS).map(|s| [s + 40; 32]).collect();
    let deck_keys: Vec<RistrettoPoint> = seat_secrets
        .iter()
        .map(|x| RistrettoPoint::mul_base(&table::deck_secret(x)))
        .collect();
    let mut tdeck = table::TableDeck::new("bench", SESSION, deck_keys);
    let mut escrow = Vec::new();
    let make = median(9, || escrow = tdeck.make_escrow(0, &seat_secrets[0]));
    let check = median(9, || {
        tdeck.check_escrow(0, &escrow).expect("an honest escrow")
    });
    tdeck.keep_escrow(0, &escrow).expect("kept");
    let read = median(9, || {
        tdeck.read_escrow(0, 3, &seat_secrets[3]).expect("its part");
    });
    let bytes = postcard::to_stdvec(&escrow).expect("encodes").len();
    println!(
        "escrow of one seat's key with {} others: made in {}, checked in {}, one part read in {}, {bytes} bytes",
        SEATS - 1,
        ms(make),
        ms(check),
        ms(read)
    );
}
