//! The shared hidden decks of one game, as every device at the table holds them: each
//! seat's key share, and every card the game named by a handle, as a ciphertext nobody can
//! read alone, as a card held under its holder's key alone, or face up.
//!
//! The protocol core drives it step by step. For each kind of step the game asks for it
//! makes this seat's part, checks another seat's part the moment it arrives (so a bad
//! decryption share or a bad handover is refused with proof, naming its seat), and applies
//! the step once every part is in. Everything here is deterministic: every device applies
//! the same parts and holds the same table.
//!
//! Keys and secrets: a seat's deck key and its shuffle seeds come from the 32-byte secret
//! it committed to when it took its seat, so the audit, where secrets are revealed, can
//! replay every shuffle and read every card.

use super::elgamal::{self, Ciphertext, scalar_from_hash};
use super::proof::{Context, DleqProof, HandoverProof, KeyProof};
use super::shuffle_proof::ShuffleProof;
use super::{DeckError, shuffle};
use curve25519_dalek::ristretto::CompressedRistretto;
use curve25519_dalek::{RistrettoPoint, Scalar};
use hoard_rules::{CardId, CardMove, DeckId, Handle, Pending, Seat, Step};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// A decryption share on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Share(#[serde(with = "elgamal::point")] pub RistrettoPoint);

/// A seat's deck key share, with its proof of knowledge (in its accept).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeckKey {
    #[serde(with = "elgamal::point")]
    pub key: RistrettoPoint,
    pub proof: KeyProof,
}

/// A card handed to another seat's key, and the proof that it is the same card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Handover {
    pub card: Ciphertext,
    pub proof: HandoverProof,
}

/// One seat's part of its deck key, escrowed with another seat (see [`TableDeck`]'s
/// "Removal"): `S = s·G` in the open, and `s` sealed to the other seat's deck key by hashed
/// ElGamal (`R = r·G`, `s` masked with a hash of `r·P`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Escrowed {
    #[serde(with = "elgamal::point")]
    pub commitment: RistrettoPoint,
    #[serde(with = "elgamal::point")]
    pub r: RistrettoPoint,
    #[serde(with = "crate::bytes::bytes32")]
    pub sealed: [u8; 32],
}

/// One seat's escrow part of a removed seat's key, opened for the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Opened {
    /// The removed seat.
    pub of: Seat,
    #[serde(with = "elgamal::scalar")]
    pub part: Scalar,
}

/// A seat's word that a card it holds opens to no card of its deck: its own share of the
/// card, with the proof that its key made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Complaint {
    pub card: Handle,
    pub share: Share,
    pub proof: DleqProof,
}

/// One seat's part of a deck step, signed in its own message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeckPart {
    /// Its turn in a shuffle: the deck as it passes it on, with the proof that it is the
    /// deck it was given re-encrypted and reordered; in the game's first shuffle, also its
    /// deck key escrowed with every other seat (in seat order).
    Shuffle {
        cards: Vec<Ciphertext>,
        escrow: Vec<Escrowed>,
        proof: Box<ShuffleProof>,
    },
    /// Its decryption shares of the cards of a deal or a reveal, in the step's order.
    Shares {
        shares: Vec<Share>,
        proof: DleqProof,
    },
    /// What its input does with cards it holds: its own shares of the cards it shows (in
    /// the order of the input's card moves) and the cards it passes, each to its receiver.
    Moves {
        shares: Vec<Share>,
        proof: Option<DleqProof>,
        passed: Vec<Handover>,
    },
}

/// The part of a [`DeckPart`] the log keeps: what rebuilds the table's decks and lets the
/// audit replay them (proofs were checked on arrival and are not needed again).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DeckRecord {
    Shuffle {
        cards: Vec<Ciphertext>,
        escrow: Vec<Escrowed>,
    },
    Shares {
        shares: Vec<Share>,
        opened: Vec<Opened>,
    },
    /// The cards an input passed, each as its receiver got it.
    Passed(Vec<Ciphertext>),
}

impl DeckPart {
    /// What the log keeps of it.
    pub fn record(&self) -> DeckRecord {
        match self {
            DeckPart::Shuffle { cards, escrow, .. } => DeckRecord::Shuffle {
                cards: cards.clone(),
                escrow: escrow.clone(),
            },
            DeckPart::Shares { shares, .. } => DeckRecord::Shares {
                shares: shares.clone(),
                opened: Vec::new(),
            },
            DeckPart::Moves { passed, .. } => {
                DeckRecord::Passed(passed.iter().map(|h| h.card).collect())
            }
        }
    }
}

/// A seat's deck key from its secret.
pub fn deck_secret(secret: &[u8; 32]) -> Scalar {
    scalar_from_hash("hoard v1 mental deck key", &[secret])
}

/// The seed of a seat's part in the `generation`-th making of `deck`.
pub fn shuffle_seed(secret: &[u8; 32], deck: DeckId, generation: u16) -> [u8; 32] {
    let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck shuffle seed");
    h.update(secret);
    h.update(&[deck]);
    h.update(&generation.to_le_bytes());
    *h.finalize().as_bytes()
}

/// The randomness of a seat's handover of a card at a step.
fn handover_randomness(secret: &Scalar, step: u32, card: &Handle) -> Scalar {
    scalar_from_hash(
        "hoard v1 mental deck handover",
        &[
            secret.as_bytes(),
            &step.to_le_bytes(),
            &[card.deck],
            &card.generation.to_le_bytes(),
            &card.position.to_le_bytes(),
        ],
    )
}

/// This seat's deck key and its proof, for its accept.
pub fn make_key(session: &[u8; 32], seat: Seat, secret: &[u8; 32]) -> DeckKey {
    let (key, proof) = KeyProof::prove(&key_context(session, seat), &deck_secret(secret));
    DeckKey { key, proof }
}

/// Checks another seat's deck key.
pub fn check_key(session: &[u8; 32], seat: Seat, key: &DeckKey) -> Result<(), DeckError> {
    key.proof.verify(&key_context(session, seat), &key.key)
}

fn key_context(session: &[u8; 32], seat: Seat) -> Context<'_> {
    Context {
        session,
        deck: u32::MAX,
        seat,
        step: 0,
    }
}

/// Where a hidden card is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Card {
    /// In a deck (or put back): under the joint key, nobody's shares out.
    Hidden(Ciphertext),
    /// Held by `seat`: every other seat's share is out, so it is under `seat`'s key alone.
    Held { seat: Seat, card: Ciphertext },
    /// Face up.
    Open(CardId),
}

/// One making of a deck: its cards (face known to all), and what turned up from it.
#[derive(Clone, Debug, Default)]
struct Making {
    cards: Vec<CardId>,
    /// Cards of this making opened so far, and the handle each opened as.
    opened: BTreeMap<CardId, Handle>,
}

/// A deck step in progress: a shuffle collects its parts in seat order.
#[derive(Clone, Debug)]
struct Shuffling {
    deck: DeckId,
    cards: Vec<CardId>,
    /// The deck as it stands after the last part in.
    current: Vec<Ciphertext>,
}

/// Why a card could not be read or shown: the deck's makers cheated, or a seat did.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CardFault {
    #[error("seat {seat}'s part: {why}")]
    Seat { seat: Seat, why: String },
    /// A card opened to something that is no card of its deck, or to a card already seen:
    /// a shuffle was dishonest (the audit names whose).
    #[error("{0}")]
    Deck(String),
}

impl CardFault {
    fn seat(seat: Seat, why: impl std::fmt::Display) -> CardFault {
        CardFault::Seat {
            seat,
            why: why.to_string(),
        }
    }
}

/// Every shared deck of one game at one table.
#[derive(Clone)]
pub struct TableDeck {
    game: &'static str,
    session: [u8; 32],
    keys: Vec<RistrettoPoint>,
    joint: RistrettoPoint,
    cards: BTreeMap<Handle, Card>,
    makings: BTreeMap<(DeckId, u16), Making>,
    generations: BTreeMap<DeckId, u16>,
    shuffling: Option<Shuffling>,
    /// Every card point of every deck the game has named, by its compressed bytes.
    points: BTreeMap<(DeckId, [u8; 32]), CardId>,
    /// Each seat's deck key split among the others, from its first shuffle part.
    escrows: BTreeMap<Seat, Vec<Escrowed>>,
    /// Seats the table removed.
    removed: std::collections::BTreeSet<Seat>,
    /// Escrow parts opened so far: removed seat → opening seat → part.
    opened: BTreeMap<Seat, BTreeMap<Seat, Scalar>>,
    /// Keys of removed seats, put together from every other seat's part.
    gone_keys: BTreeMap<Seat, Scalar>,
}

impl TableDeck {
    /// The table's decks, with every seat's key share (already checked).
    pub fn new(game: &'static str, session: [u8; 32], keys: Vec<RistrettoPoint>) -> TableDeck {
        let joint = keys.iter().sum();
        TableDeck {
            game,
            session,
            keys,
            joint,
            cards: BTreeMap::new(),
            makings: BTreeMap::new(),
            generations: BTreeMap::new(),
            shuffling: None,
            points: BTreeMap::new(),
            escrows: BTreeMap::new(),
            removed: Default::default(),
            opened: BTreeMap::new(),
            gone_keys: BTreeMap::new(),
        }
    }

    fn ctx(&self, deck: DeckId, seat: Seat, step: u32) -> Context<'_> {
        Context {
            session: &self.session,
            deck: u32::from(deck),
            seat,
            step,
        }
    }

    /// The point of `card` of `deck` in this game.
    fn card_point(&self, deck: DeckId, card: CardId) -> RistrettoPoint {
        self.encoded_card_point(deck, card).0
    }

    /// [`TableDeck::card_point`] and its encoding.
    fn encoded_card_point(&self, deck: DeckId, card: CardId) -> (RistrettoPoint, [u8; 32]) {
        elgamal::encoded_card_point(self.game, &format!("deck {deck}"), u32::from(card))
    }

    /// The card in the open, its point kept so that a face can be read back from it.
    fn plain_card(&mut self, deck: DeckId, card: CardId) -> Ciphertext {
        let (p, bytes) = self.encoded_card_point(deck, card);
        self.points.entry((deck, bytes)).or_insert(card);
        Ciphertext::plain_encoded(p, bytes)
    }

    fn card_of(&self, deck: DeckId, p: &RistrettoPoint) -> Option<CardId> {
        self.points.get(&(deck, p.compress().to_bytes())).copied()
    }

    fn key(&self, seat: Seat) -> RistrettoPoint {
        self.keys
            .get(usize::from(seat))
            .copied()
            .unwrap_or_default()
    }

    // ---- Shuffles --------------------------------------------------------------------

    /// A shuffle of `deck` from `cards` begins (or goes on: nothing changes if it is the
    /// one already under way).
    pub fn begin_shuffle(&mut self, deck: DeckId, cards: &[CardId]) {
        if let Some(s) = &self.shuffling
            && s.deck == deck
            && s.cards == cards
        {
            return;
        }
        let current = cards.iter().map(|c| self.plain_card(deck, *c)).collect();
        self.shuffling = Some(Shuffling {
            deck,
            cards: cards.to_vec(),
            current,
        });
    }

    /// The deck as the next shuffler receives it.
    pub fn shuffle_input(&self) -> &[Ciphertext] {
        self.shuffling.as_ref().map_or(&[], |s| &s.current[..])
    }

    /// The generation the shuffle under way makes.
    fn next_generation(&self, deck: DeckId) -> u16 {
        self.generations
            .get(&deck)
            .map_or(0, |g| g.saturating_add(1))
    }

    /// This seat's part of the shuffle under way, without its proof (devices make theirs with
    /// [`TableDeck::shuffle_part`]; the audit checks with [`TableDeck::replays_shuffle`]).
    #[cfg(test)]
    fn make_shuffle(&self, secret: &[u8; 32]) -> Vec<Ciphertext> {
        let Some(s) = &self.shuffling else {
            return Vec::new();
        };
        let seed = shuffle_seed(secret, s.deck, self.next_generation(s.deck));
        let table = curve25519_dalek::ristretto::RistrettoBasepointTable::create(&self.joint);
        shuffle::shuffle(&seed, &table, &s.current)
    }

    /// Whether `output` is what `secret` makes of the shuffle under way: the audit's replay
    /// of a seat's part.
    pub fn replays_shuffle(&self, secret: &[u8; 32], output: &[Ciphertext]) -> bool {
        let Some(s) = &self.shuffling else {
            return false;
        };
        let seed = shuffle_seed(secret, s.deck, self.next_generation(s.deck));
        shuffle::replay(&seed, &self.joint, &s.current, output).is_ok()
    }

    /// The deck a shuffle of `deck` from `cards` starts from: every card in the open.
    fn plain_deck(&self, deck: DeckId, cards: &[CardId]) -> Vec<Ciphertext> {
        cards
            .iter()
            .map(|c| {
                let (p, bytes) = self.encoded_card_point(deck, *c);
                Ciphertext::plain_encoded(p, bytes)
            })
            .collect()
    }

    /// The proof's place: the seat, the deck and the making its part is for.
    fn shuffle_ctx(&self, deck: DeckId, seat: Seat) -> Context<'_> {
        self.ctx(deck, seat, u32::from(self.next_generation(deck)))
    }

    /// `seat`'s part of a shuffle of `deck` from `cards`, with its proof, given the deck as
    /// the last seat before it passed it on (`None`: this seat shuffles first).
    pub fn shuffle_part(
        &self,
        seat: Seat,
        deck: DeckId,
        cards: &[CardId],
        previous: Option<&[Ciphertext]>,
        secret: &[u8; 32],
    ) -> (Vec<Ciphertext>, ShuffleProof) {
        let input = match previous {
            Some(p) => p.to_vec(),
            None => self.plain_deck(deck, cards),
        };
        let seed = shuffle_seed(secret, deck, self.next_generation(deck));
        shuffle::shuffle_and_prove(&self.shuffle_ctx(deck, seat), &seed, &self.joint, &input)
    }

    /// Checks `seat`'s part of a shuffle of `deck` from `cards` when it arrives: `output`
    /// is the deck it was given (`previous`, or the cards in the open if it shuffles
    /// first) re-encrypted to the table's key and reordered, as its proof shows.
    pub fn check_shuffle(
        &self,
        seat: Seat,
        deck: DeckId,
        cards: &[CardId],
        previous: Option<&[Ciphertext]>,
        output: &[Ciphertext],
        proof: &ShuffleProof,
    ) -> Result<(), CardFault> {
        let plain;
        let input = match previous {
            Some(p) => p,
            None => {
                plain = self.plain_deck(deck, cards);
                &plain[..]
            }
        };
        proof
            .verify(&self.shuffle_ctx(deck, seat), &self.joint, input, output)
            .map_err(|_| {
                CardFault::seat(
                    seat,
                    format!(
                        "its shuffle of deck {deck} is not the deck it was given, re-encrypted \
                         and reordered: its proof does not hold"
                    ),
                )
            })
    }

    /// Takes a seat's part (the next in order): the same number of cards. What it did to
    /// them is known only at the audit.
    pub fn add_shuffle(&mut self, seat: Seat, cards: &[Ciphertext]) -> Result<(), CardFault> {
        let Some(s) = &mut self.shuffling else {
            return Err(CardFault::seat(seat, "no shuffle is under way"));
        };
        if cards.len() != s.current.len() {
            return Err(CardFault::seat(
                seat,
                format!("it passed on {} cards of {}", cards.len(), s.current.len()),
            ));
        }
        s.current = cards.to_vec();
        Ok(())
    }

    /// The shuffle is done: its cards lie face down under the handles of the new making.
    pub fn finish_shuffle(&mut self) {
        let Some(s) = self.shuffling.take() else {
            return;
        };
        let generation = self.next_generation(s.deck);
        self.generations.insert(s.deck, generation);
        for (position, card) in s.current.into_iter().enumerate() {
            let handle = Handle {
                deck: s.deck,
                generation,
                position: position as u16,
            };
            self.cards.insert(handle, Card::Hidden(card));
        }
        self.makings.insert(
            (s.deck, generation),
            Making {
                cards: s.cards,
                opened: BTreeMap::new(),
            },
        );
    }

    // ---- Deals and reveals -----------------------------------------------------------

    fn hidden(&self, cards: &[Handle]) -> Result<Vec<Ciphertext>, CardFault> {
        cards
            .iter()
            .map(|h| match self.cards.get(h) {
                Some(Card::Hidden(c)) => Ok(*c),
                _ => Err(CardFault::Deck(format!(
                    "{h:?} is not a face-down card of a deck"
                ))),
            })
            .collect()
    }

    /// This seat's decryption shares of `cards` (a deal to another seat, or a reveal).
    pub fn make_shares(
        &self,
        step: u32,
        seat: Seat,
        secret: &[u8; 32],
        cards: &[Handle],
    ) -> Result<DeckPart, CardFault> {
        let cts = self.hidden(cards)?;
        let deck = cards.first().map_or(0, |h| h.deck);
        let (shares, proof) =
            DleqProof::prove(&self.ctx(deck, seat, step), &deck_secret(secret), &cts);
        Ok(DeckPart::Shares {
            shares: shares.into_iter().map(Share).collect(),
            proof,
        })
    }

    /// Checks a seat's shares of `cards` the moment they arrive.
    pub fn check_shares(
        &self,
        step: u32,
        seat: Seat,
        cards: &[Handle],
        shares: &[Share],
        proof: &DleqProof,
    ) -> Result<(), CardFault> {
        let cts = self.hidden(cards)?;
        let deck = cards.first().map_or(0, |h| h.deck);
        let points: Vec<RistrettoPoint> = shares.iter().map(|s| s.0).collect();
        proof
            .verify(&self.ctx(deck, seat, step), &self.key(seat), &cts, &points)
            .map_err(|e| CardFault::seat(seat, e))
    }

    /// A deal is done: every seat but `to` gave its shares (`parts`, by seat), so each card
    /// is under `to`'s key alone.
    pub fn finish_deal(&mut self, to: Seat, cards: &[Handle], parts: &[(Seat, Vec<Share>)]) {
        for (i, h) in cards.iter().enumerate() {
            if let Some(Card::Hidden(c)) = self.cards.get(h) {
                let held = c.strip(parts.iter().filter_map(|(_, s)| s.get(i).map(|s| &s.0)));
                self.cards.insert(
                    *h,
                    Card::Held {
                        seat: to,
                        card: held,
                    },
                );
            }
        }
    }

    /// Whether `card` may open to `face`: a card of its making not yet seen as another
    /// handle. A [`CardFault::Deck`] otherwise.
    pub fn check_open(&self, card: &Handle, face: CardId) -> Result<(), CardFault> {
        let making = self
            .makings
            .get(&(card.deck, card.generation))
            .ok_or_else(|| CardFault::Deck(format!("{card:?} is of no deck made")))?;
        if !making.cards.contains(&face) {
            return Err(CardFault::Deck(format!(
                "card {face} turned up in deck {}, which was not made with it: a shuffle was \
                 dishonest",
                card.deck
            )));
        }
        match making.opened.get(&face) {
            Some(other) if other != card => Err(CardFault::Deck(format!(
                "card {face} turned up twice in deck {} ({other:?} and {card:?}): a shuffle \
                 was dishonest",
                card.deck
            ))),
            _ => Ok(()),
        }
    }

    /// Marks `card` as opened to `face`: a face no card of its making has turned up as
    /// before (the same handle may show again), and one its making holds.
    fn opened(&mut self, card: &Handle, face: CardId) -> Result<(), CardFault> {
        let making = self
            .makings
            .get_mut(&(card.deck, card.generation))
            .ok_or_else(|| CardFault::Deck(format!("{card:?} is of no deck made")))?;
        if !making.cards.contains(&face) {
            return Err(CardFault::Deck(format!(
                "card {face} turned up in deck {}, making {}, which was not made with it: \
                 a shuffle was dishonest",
                card.deck, card.generation
            )));
        }
        match making.opened.get(&face) {
            Some(other) if other != card => Err(CardFault::Deck(format!(
                "card {face} turned up twice in deck {} ({other:?} and {card:?}): a shuffle \
                 was dishonest",
                card.deck
            ))),
            _ => {
                making.opened.insert(face, *card);
                self.cards.insert(*card, Card::Open(face));
                Ok(())
            }
        }
    }

    /// The faces a reveal's shares open its cards to, checked as [`Self::finish_reveal`]
    /// checks them, without moving anything.
    pub fn reveal_faces(
        &self,
        cards: &[Handle],
        parts: &[(Seat, DeckRecord)],
    ) -> Result<Vec<CardId>, CardFault> {
        let mut copy = self.clone();
        let shares = copy.shares_with_gone(cards, parts, None)?;
        copy.finish_reveal(cards, &shares)
    }

    /// A reveal is done: every seat gave its shares; the faces, in order.
    pub fn finish_reveal(
        &mut self,
        cards: &[Handle],
        parts: &[(Seat, Vec<Share>)],
    ) -> Result<Vec<CardId>, CardFault> {
        let cts = self.hidden(cards)?;
        let mut faces = Vec::with_capacity(cards.len());
        for (i, (h, c)) in cards.iter().zip(cts).enumerate() {
            let m = c.open(parts.iter().filter_map(|(_, s)| s.get(i).map(|s| &s.0)));
            let face = self.card_of(h.deck, &m).ok_or_else(|| {
                CardFault::Deck(format!(
                    "a card turned up as no card of deck {}: a shuffle was dishonest",
                    h.deck
                ))
            })?;
            self.opened(h, face)?;
            faces.push(face);
        }
        Ok(faces)
    }

    /// The face of a card this seat holds, read with its own key.
    pub fn read(&self, card: &Handle, secret: &[u8; 32]) -> Result<CardId, CardFault> {
        match self.cards.get(card) {
            Some(Card::Held { card: c, .. }) => {
                let m = c.open([&c.share(&deck_secret(secret))]);
                self.card_of(card.deck, &m).ok_or_else(|| {
                    CardFault::Deck(format!(
                        "the card dealt as {card:?} is no card of its deck: a shuffle was \
                         dishonest"
                    ))
                })
            }
            Some(Card::Open(face)) => Ok(*face),
            _ => Err(CardFault::Deck(format!("{card:?} is held by nobody"))),
        }
    }

    /// This seat's share of a card it holds that opens to no card of its deck, with the
    /// proof its key made it: what shows the table a dishonest deal.
    pub fn complain(
        &self,
        step: u32,
        seat: Seat,
        secret: &[u8; 32],
        card: &Handle,
    ) -> Option<(Share, DleqProof)> {
        let held = self.held_by(seat, card).ok()?;
        let (shares, proof) = DleqProof::prove(
            &self.ctx(card.deck, seat, step),
            &deck_secret(secret),
            &[held],
        );
        Some((Share(*shares.first()?), proof))
    }

    /// Checks a complaint: the share is `seat`'s own for the card it holds; then why the card
    /// shows a dishonest deck, or a [`CardFault::Seat`] if the card is a good one after all.
    pub fn check_complaint(
        &self,
        step: u32,
        seat: Seat,
        card: &Handle,
        share: &Share,
        proof: &DleqProof,
    ) -> Result<String, CardFault> {
        let held = self.held_by(seat, card)?;
        proof
            .verify(
                &self.ctx(card.deck, seat, step),
                &self.key(seat),
                &[held],
                &[share.0],
            )
            .map_err(|e| CardFault::seat(seat, e))?;
        let m = held.open([&share.0]);
        match self.card_of(card.deck, &m) {
            None => Ok(format!(
                "the card dealt as {card:?} opens to no card of deck {}: a shuffle was dishonest",
                card.deck
            )),
            Some(face) => match self.check_open(card, face) {
                Err(CardFault::Deck(why)) => Ok(why),
                _ => Err(CardFault::seat(
                    seat,
                    format!("it said the card it holds as {card:?} was no card, and it is one"),
                )),
            },
        }
    }

    // ---- Cards moved by an input -------------------------------------------------------

    fn held_by(&self, seat: Seat, card: &Handle) -> Result<Ciphertext, CardFault> {
        match self.cards.get(card) {
            Some(Card::Held { seat: s, card: c }) if *s == seat => Ok(*c),
            Some(Card::Open(_)) => Err(CardFault::seat(seat, format!("{card:?} is face up"))),
            _ => Err(CardFault::seat(seat, format!("it does not hold {card:?}"))),
        }
    }

    /// A held card shown a second time (a counter that came too late, shown again later)
    /// needs no share: it is already face up to everyone.
    fn shown_before(&self, card: &Handle) -> Option<CardId> {
        match self.cards.get(card) {
            Some(Card::Open(face)) => Some(*face),
            _ => None,
        }
    }

    /// This seat's part for an input that makes `moves`.
    pub fn make_moves(
        &self,
        step: u32,
        seat: Seat,
        secret: &[u8; 32],
        moves: &[CardMove],
    ) -> Result<DeckPart, CardFault> {
        let x = deck_secret(secret);
        let mut shown = Vec::new();
        let mut passed = Vec::new();
        let deck = moves
            .iter()
            .map(|m| match m {
                CardMove::Show { card, .. }
                | CardMove::Pass { card, .. }
                | CardMove::PutBack { card } => card.deck,
            })
            .next()
            .unwrap_or(0);
        for m in moves {
            match m {
                CardMove::Show { card, .. } if self.shown_before(card).is_some() => {}
                CardMove::Show { card, .. } => shown.push(self.held_by(seat, card)?),
                // A card already face up (a counter that came too late) needs no handover.
                CardMove::Pass { card, .. } | CardMove::PutBack { card }
                    if self.shown_before(card).is_some() => {}
                CardMove::Pass { .. } | CardMove::PutBack { .. } => {
                    let (card, to) = self.handover_target(m);
                    let held = self.held_by(seat, &card)?;
                    let r = handover_randomness(&x, step, &card);
                    let (given, proof) =
                        HandoverProof::prove(&self.ctx(card.deck, seat, step), &x, &held, &to, &r);
                    passed.push(Handover { card: given, proof });
                }
            }
        }
        let (shares, proof) = if shown.is_empty() {
            (Vec::new(), None)
        } else {
            let (s, p) = DleqProof::prove(&self.ctx(deck, seat, step), &x, &shown);
            (s.into_iter().map(Share).collect(), Some(p))
        };
        Ok(DeckPart::Moves {
            shares,
            proof,
            passed,
        })
    }

    /// Checks a seat's part for its input's `moves` the moment both are in: every shown
    /// card opens to the face the input claims, every passed card is the card it held.
    pub fn check_moves(
        &self,
        step: u32,
        seat: Seat,
        moves: &[CardMove],
        part: &DeckPart,
    ) -> Result<(), CardFault> {
        let DeckPart::Moves {
            shares,
            proof,
            passed,
        } = part
        else {
            return Err(CardFault::seat(seat, "its deck part is not for a move"));
        };
        let mut shown = Vec::new();
        let mut claimed = Vec::new();
        let mut handovers = passed.iter();
        let mut deck = None;
        for m in moves {
            match m {
                CardMove::Show { card, face } => {
                    if let Some(f) = self.shown_before(card) {
                        if f != *face {
                            return Err(CardFault::seat(
                                seat,
                                format!("it showed {card:?}, face up as {f}, as {face}"),
                            ));
                        }
                        continue;
                    }
                    deck.get_or_insert(card.deck);
                    shown.push(self.held_by(seat, card)?);
                    claimed.push((card.deck, *face));
                }
                CardMove::Pass { card, .. } | CardMove::PutBack { card }
                    if self.shown_before(card).is_some() => {}
                CardMove::Pass { .. } | CardMove::PutBack { .. } => {
                    let (card, to) = self.handover_target(m);
                    deck.get_or_insert(card.deck);
                    let held = self.held_by(seat, &card)?;
                    let Some(h) = handovers.next() else {
                        return Err(CardFault::seat(seat, "a passed card is missing"));
                    };
                    h.proof
                        .verify(
                            &self.ctx(card.deck, seat, step),
                            &self.key(seat),
                            &held,
                            &to,
                            &h.card,
                        )
                        .map_err(|e| CardFault::seat(seat, e))?;
                }
            }
        }
        if handovers.next().is_some() || shares.len() != shown.len() {
            return Err(CardFault::seat(
                seat,
                "its deck part does not match its move's cards",
            ));
        }
        if !shown.is_empty() {
            let Some(proof) = proof else {
                return Err(CardFault::seat(seat, "its shown cards come with no proof"));
            };
            let points: Vec<RistrettoPoint> = shares.iter().map(|s| s.0).collect();
            proof
                .verify(
                    &self.ctx(deck.unwrap_or(0), seat, step),
                    &self.key(seat),
                    &shown,
                    &points,
                )
                .map_err(|e| CardFault::seat(seat, e))?;
            for ((c, share), (d, face)) in shown.iter().zip(shares).zip(&claimed) {
                let m = c.open([&share.0]);
                let p = self.card_point(*d, *face);
                if m != p {
                    return Err(CardFault::seat(
                        seat,
                        format!("it claimed a card to be {face}, which it is not"),
                    ));
                }
            }
        }
        // The proofs hold; a face its deck cannot have shows a dishonest shuffle.
        for m in moves {
            if let CardMove::Show { card, face } = m {
                self.check_open(card, *face)?;
            }
        }
        Ok(())
    }

    /// The card a pass or a put-back hands over, and the key it goes to: the receiver's,
    /// or the table's for a card put back.
    fn handover_target(&self, m: &CardMove) -> (Handle, RistrettoPoint) {
        match m {
            CardMove::Pass { card, to } => (*card, self.key(*to)),
            CardMove::PutBack { card } | CardMove::Show { card, .. } => (*card, self.joint),
        }
    }

    /// Applies an input's moves (checked): shown cards face up, passed cards to their
    /// receivers' keys.
    pub fn finish_moves(
        &mut self,
        seat: Seat,
        moves: &[CardMove],
        passed: &[Ciphertext],
    ) -> Result<(), CardFault> {
        let mut passed = passed.iter();
        for m in moves {
            match m {
                CardMove::Show { card, face } => self.opened(card, *face)?,
                // Face up already: it moves in the open, with no handover.
                CardMove::Pass { card, .. } | CardMove::PutBack { card }
                    if self.shown_before(card).is_some() => {}
                CardMove::Pass { card, to } => {
                    if let Some(c) = passed.next() {
                        self.cards.insert(
                            *card,
                            Card::Held {
                                seat: *to,
                                card: *c,
                            },
                        );
                    }
                }
                // Under the table's key again: it takes every seat's share to open.
                CardMove::PutBack { card } => {
                    if let Some(c) = passed.next() {
                        self.cards.insert(*card, Card::Hidden(*c));
                    }
                }
            }
        }
        let _ = seat;
        Ok(())
    }

    // ---- Removal ------------------------------------------------------------------------
    //
    // A seat the table removes must not freeze the decks: every card still needs its
    // decryption share. So in the game's first shuffle each seat splits its deck key into
    // one part per other seat (the parts sum to the key, and their points `s·G`, public,
    // sum to its key share, which everyone checks) and seals each part to that seat's deck
    // key. When the table removes a seat, every other seat opens its part of the removed
    // seat's key with its next decryption shares; with every part in, every device knows
    // the removed seat's key and makes its shares itself. It costs the removed seat's hand
    // its secrecy (it has left the game); and all the other seats together could read a
    // seat's hand, which no fewer of them can.

    fn escrow_pad(point: &RistrettoPoint, owner: Seat, to: Seat, session: &[u8; 32]) -> [u8; 32] {
        let mut h = blake3::Hasher::new_derive_key("hoard v1 mental deck escrow pad");
        h.update(session);
        h.update(&[owner, to]);
        h.update(point.compress().as_bytes());
        *h.finalize().as_bytes()
    }

    /// This seat's deck key split among the other seats, for its first shuffle part.
    pub fn make_escrow(&self, seat: Seat, secret: &[u8; 32]) -> Vec<Escrowed> {
        let x = deck_secret(secret);
        let others: Vec<Seat> = (0..self.keys.len() as Seat)
            .filter(|s| *s != seat)
            .collect();
        let mut sum = Scalar::ZERO;
        let mut out = Vec::with_capacity(others.len());
        for (k, to) in others.iter().enumerate() {
            let part = if k + 1 == others.len() {
                x - sum
            } else {
                scalar_from_hash("hoard v1 mental deck escrow part", &[secret, &[*to]])
            };
            sum += part;
            let r = scalar_from_hash("hoard v1 mental deck escrow r", &[secret, &[*to]]);
            let pad = Self::escrow_pad(&(r * self.key(*to)), seat, *to, &self.session);
            let mut sealed = part.to_bytes();
            sealed.iter_mut().zip(pad).for_each(|(b, p)| *b ^= p);
            out.push(Escrowed {
                commitment: RistrettoPoint::mul_base(&part),
                r: RistrettoPoint::mul_base(&r),
                sealed,
            });
        }
        out
    }

    /// Checks a seat's escrow in the open (one part per other seat, summing to its key
    /// share) and keeps it; an empty escrow (a later shuffle) changes nothing.
    pub fn keep_escrow(&mut self, seat: Seat, escrow: &[Escrowed]) -> Result<(), CardFault> {
        if escrow.is_empty() || self.escrows.contains_key(&seat) {
            return Ok(());
        }
        self.check_escrow(seat, escrow)?;
        self.escrows.insert(seat, escrow.to_vec());
        Ok(())
    }

    /// Checks a seat's escrow in the open: one part per other seat, summing to its key.
    pub fn check_escrow(&self, seat: Seat, escrow: &[Escrowed]) -> Result<(), CardFault> {
        let sum: RistrettoPoint = escrow.iter().map(|e| e.commitment).sum();
        if escrow.len() + 1 != self.keys.len() || sum != self.key(seat) {
            return Err(CardFault::seat(
                seat,
                "its escrowed key parts do not add up to its key",
            ));
        }
        Ok(())
    }

    /// Whether `seat` has yet to escrow its key (its first shuffle part carries it).
    pub fn escrow_due(&self, seat: Seat) -> bool {
        !self.escrows.contains_key(&seat)
    }

    /// The escrow part `owner` sealed for `seat` (counted among the others in seat order).
    fn escrow_for(&self, owner: Seat, seat: Seat) -> Option<&Escrowed> {
        let index = (0..self.keys.len() as Seat)
            .filter(|s| *s != owner)
            .position(|s| s == seat)?;
        self.escrows.get(&owner)?.get(index)
    }

    /// This seat's part of `owner`'s key, unsealed and checked against its commitment.
    pub fn read_escrow(
        &self,
        owner: Seat,
        seat: Seat,
        secret: &[u8; 32],
    ) -> Result<Scalar, CardFault> {
        let e = self
            .escrow_for(owner, seat)
            .ok_or_else(|| CardFault::seat(owner, "it escrowed no part of its key"))?;
        self.unseal_escrow(owner, seat, e, &deck_secret(secret))
    }

    /// `seat`'s part of `owner`'s key, unsealed with `seat`'s deck key `x`.
    fn unseal_escrow(
        &self,
        owner: Seat,
        seat: Seat,
        e: &Escrowed,
        x: &Scalar,
    ) -> Result<Scalar, CardFault> {
        let pad = Self::escrow_pad(&(x * e.r), owner, seat, &self.session);
        let mut bytes = e.sealed;
        bytes.iter_mut().zip(pad).for_each(|(b, p)| *b ^= p);
        match Option::<Scalar>::from(Scalar::from_canonical_bytes(bytes)) {
            Some(part) if RistrettoPoint::mul_base(&part) == e.commitment => Ok(part),
            _ => Err(CardFault::seat(
                owner,
                "the part of its key it sealed for this seat is not the one it committed to",
            )),
        }
    }

    /// Marks `seat` removed by the table: its key is to be opened from the escrow.
    pub fn remove(&mut self, seat: Seat) {
        self.removed.insert(seat);
    }

    /// Whether the table knows the key of removed seat `seat`.
    pub fn key_known(&self, seat: Seat) -> bool {
        self.gone_keys.contains_key(&seat)
    }

    /// Whether `seat` escrowed its key, so that its removal can be undone for the deck.
    pub fn escrowed(&self, seat: Seat) -> bool {
        self.escrows.contains_key(&seat)
    }

    /// The seats of `gone` (removed, or being removed) whose keys the table can never put
    /// together: a part of each is held by another seat of `gone` whose key cannot be put
    /// together either (two seats that left at once, each holding a part of the other's
    /// key), or it escrowed nothing. The seats still in open their parts at the next deal.
    pub fn lost_keys(&self, gone: &std::collections::BTreeSet<Seat>) -> Vec<Seat> {
        let mut known: std::collections::BTreeSet<Seat> = self.gone_keys.keys().copied().collect();
        loop {
            let more: Vec<Seat> = gone
                .iter()
                .copied()
                .filter(|r| !known.contains(r) && self.escrowed(*r))
                .filter(|r| {
                    (0..self.keys.len() as Seat)
                        .filter(|s| s != r)
                        .all(|s| !gone.contains(&s) || known.contains(&s))
                })
                .collect();
            if more.is_empty() {
                break;
            }
            known.extend(more);
        }
        gone.iter()
            .copied()
            .filter(|r| !known.contains(r))
            .collect()
    }

    /// This seat's escrow parts of the keys of `gone` (seats being removed), to open.
    pub fn open_escrow(&self, seat: Seat, secret: &[u8; 32], gone: &[Seat]) -> Vec<Opened> {
        gone.iter()
            .filter(|r| **r != seat && !self.gone_keys.contains_key(r))
            .filter_map(|r| {
                self.read_escrow(*r, seat, secret)
                    .ok()
                    .map(|part| Opened { of: *r, part })
            })
            .collect()
    }

    /// Checks parts a seat opened: each the one its commitment names.
    pub fn check_opened(&self, seat: Seat, opened: &[Opened]) -> Result<(), CardFault> {
        for o in opened {
            let ok = self
                .escrow_for(o.of, seat)
                .is_some_and(|e| RistrettoPoint::mul_base(&o.part) == e.commitment);
            if !ok {
                return Err(CardFault::seat(
                    seat,
                    format!(
                        "it opened a part of seat {}'s key that is not the escrowed one",
                        o.of
                    ),
                ));
            }
        }
        Ok(())
    }

    /// The step's shares, with those of removed seats made from their opened keys.
    fn shares_with_gone(
        &mut self,
        cards: &[Handle],
        parts: &[(Seat, DeckRecord)],
        to: Option<Seat>,
    ) -> Result<Vec<(Seat, Vec<Share>)>, CardFault> {
        let mut shares = Vec::new();
        for (seat, part) in parts {
            let DeckRecord::Shares { shares: s, opened } = part else {
                return Err(CardFault::seat(*seat, "its part of a deal holds no shares"));
            };
            for o in opened {
                let ok = self
                    .escrow_for(o.of, *seat)
                    .is_some_and(|e| RistrettoPoint::mul_base(&o.part) == e.commitment);
                if !ok {
                    return Err(CardFault::seat(
                        *seat,
                        format!(
                            "it opened a part of seat {}'s key that is not the escrowed one",
                            o.of
                        ),
                    ));
                }
                self.removed.insert(o.of);
                self.opened.entry(o.of).or_default().insert(*seat, o.part);
            }
            shares.push((*seat, s.clone()));
        }
        self.put_gone_keys_together();
        let cts = self.hidden(cards)?;
        for (r, x) in &self.gone_keys {
            if Some(*r) != to && !shares.iter().any(|(s, _)| s == r) {
                shares.push((*r, cts.iter().map(|c| Share(c.share(x))).collect()));
            }
        }
        Ok(shares)
    }

    /// A removed seat's key is known once every other seat's part of it is: opened by the
    /// seats still in, or, for a part held by a seat removed before, read by the table
    /// with that seat's key, which it already knows. So every further removal keeps the
    /// deck alive while one seat remains, and no fewer seats than before can read a hand:
    /// a removed seat's parts were its own to read, and it has left the game.
    fn put_gone_keys_together(&mut self) {
        loop {
            let mut learned = false;
            for r in self.removed.clone() {
                if self.gone_keys.contains_key(&r) {
                    continue;
                }
                let opened = |s: Seat| self.opened.get(&r).and_then(|p| p.get(&s)).copied();
                let read = |s: Seat| self.read_part(r, s, self.gone_keys.get(&s)?);
                if let Some(key) = self.key_from_parts(r, |s| opened(s).or_else(|| read(s))) {
                    self.gone_keys.insert(r, key);
                    learned = true;
                }
            }
            if !learned {
                return;
            }
        }
    }

    /// `owner`'s key from every other seat's part of it (`part` gives each, or `None`):
    /// the sum of the parts it escrowed, once all of them are known.
    fn key_from_parts(&self, owner: Seat, part: impl Fn(Seat) -> Option<Scalar>) -> Option<Scalar> {
        (0..self.keys.len() as Seat)
            .filter(|s| *s != owner)
            .map(part)
            .sum()
    }

    /// `seat`'s part of `owner`'s escrowed key, unsealed with `seat`'s deck key `x`.
    fn read_part(&self, owner: Seat, seat: Seat, x: &Scalar) -> Option<Scalar> {
        let e = self.escrow_for(owner, seat)?;
        self.unseal_escrow(owner, seat, e, x).ok()
    }

    // ---- Recorded steps ----------------------------------------------------------------

    /// Applies a recorded deck step (the game waited for `pending`) and returns the step
    /// the engine sees. With `secrets` (the audit's, by seat) every shuffle part of a seat
    /// whose secret is there is replayed from it, and one that does not replay is its
    /// seat's fault.
    pub fn apply_record<I>(
        &mut self,
        pending: &Pending,
        parts: &[(Seat, DeckRecord)],
        secrets: Option<&[Option<[u8; 32]>]>,
    ) -> Result<Step<I>, CardFault> {
        match pending {
            Pending::Shuffle { deck, cards } => {
                self.begin_shuffle(*deck, cards);
                for (seat, part) in parts {
                    let DeckRecord::Shuffle { cards: out, escrow } = part else {
                        return Err(CardFault::seat(*seat, "its part of a shuffle is no deck"));
                    };
                    if let Some(Some(secret)) = secrets.and_then(|s| s.get(usize::from(*seat)))
                        && !self.replays_shuffle(secret, out)
                    {
                        return Err(CardFault::seat(
                            *seat,
                            format!(
                                "its shuffle of deck {deck} does not replay from its secret: \
                                 it changed, dropped or doubled cards"
                            ),
                        ));
                    }
                    self.add_shuffle(*seat, out)?;
                    self.keep_escrow(*seat, escrow)?;
                }
                self.finish_shuffle();
                Ok(Step::Shuffled)
            }
            Pending::Deal { to, cards } => {
                self.hidden(cards)?;
                let shares = self.shares_with_gone(cards, parts, Some(*to))?;
                self.finish_deal(*to, cards, &shares);
                Ok(Step::Dealt)
            }
            Pending::Reveal { cards } => {
                let shares = self.shares_with_gone(cards, parts, None)?;
                Ok(Step::Revealed(self.finish_reveal(cards, &shares)?))
            }
            other => Err(CardFault::Deck(format!(
                "a deck step is in the log where the game waits for {other:?}"
            ))),
        }
    }

    /// Applies the card moves of a completed input step: `moves` by seat, and the cards
    /// each seat passed as the log keeps them.
    pub fn apply_moves(
        &mut self,
        moves: &[(Seat, Vec<CardMove>)],
        passed: &[(Seat, Vec<Ciphertext>)],
    ) -> Result<(), CardFault> {
        for (seat, moves) in moves {
            let given = passed
                .iter()
                .find(|(s, _)| s == seat)
                .map_or(&[][..], |(_, c)| &c[..]);
            let passes = moves
                .iter()
                .filter(|m| match m {
                    CardMove::Pass { card, .. } | CardMove::PutBack { card } => {
                        self.shown_before(card).is_none()
                    }
                    CardMove::Show { .. } => false,
                })
                .count();
            if given.len() != passes {
                return Err(CardFault::seat(
                    *seat,
                    "the log does not hold every card it passed",
                ));
            }
            self.finish_moves(*seat, moves, given)?;
        }
        Ok(())
    }

    /// Adds to `known` the face of every card now hidden in a deck or held that it does not
    /// have yet, read with every seat's secret (`None` for a seat whose secret is not out; a
    /// removed seat's key put together from its escrow stands in for it): the audit's view
    /// of the decks' order, for the replay. A card keeps its handle and its face until its
    /// deck is made again, which gives new handles, so each card is read once.
    pub fn read_every(&self, secrets: &[Option<[u8; 32]>], known: &mut BTreeMap<Handle, CardId>) {
        // Most steps bring no card the replay has not read (new ones come with a making).
        if self.cards.keys().all(|h| known.contains_key(h)) {
            return;
        }
        let own = |seat: usize| {
            secrets
                .get(seat)
                .copied()
                .flatten()
                .map(|s| deck_secret(&s))
                .or_else(|| self.gone_keys.get(&(seat as Seat)).copied())
        };
        // A seat whose secret never came out (removed before the end): its key from the
        // parts it escrowed, each unsealed with its holder's key, once all of those are out.
        let key = |seat: usize| {
            own(seat).or_else(|| {
                let r = seat as Seat;
                self.key_from_parts(r, |s| self.read_part(r, s, &own(usize::from(s))?))
                    .filter(|x| RistrettoPoint::mul_base(x) == self.key(r))
            })
        };
        let keys: Vec<Option<Scalar>> = (0..self.keys.len()).map(key).collect();
        // The joint key's secret: a hidden card opens with one share of it.
        let joint: Option<Scalar> = keys.iter().copied().sum();
        for (h, c) in &self.cards {
            if known.contains_key(h) {
                continue;
            }
            let face = match c {
                Card::Open(face) => Some(*face),
                Card::Held { seat, card } => keys
                    .get(usize::from(*seat))
                    .copied()
                    .flatten()
                    .and_then(|x| self.card_of(h.deck, &card.open([&card.share(&x)]))),
                Card::Hidden(card) => {
                    joint.and_then(|x| self.card_of(h.deck, &card.open([&card.share(&x)])))
                }
            };
            if let Some(face) = face {
                known.insert(*h, face);
            }
        }
    }
}

/// The compressed bytes of a point (for keys in maps).
pub fn point_bytes(p: &RistrettoPoint) -> [u8; 32] {
    CompressedRistretto::to_bytes(&p.compress())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SESSION: [u8; 32] = [5; 32];

    fn secrets(n: u8) -> Vec<[u8; 32]> {
        (0..n).map(|i| [i + 1; 32]).collect()
    }

    /// Three seats, one deck of 10 cards shuffled by all.
    fn table() -> (TableDeck, Vec<[u8; 32]>) {
        let secrets = secrets(3);
        let keys = secrets
            .iter()
            .enumerate()
            .map(|(s, x)| {
                let k = make_key(&SESSION, s as Seat, x);
                check_key(&SESSION, s as Seat, &k).unwrap();
                k.key
            })
            .collect();
        let mut t = TableDeck::new("test", SESSION, keys);
        t.begin_shuffle(0, &(0..10).collect::<Vec<_>>());
        for (s, x) in secrets.iter().enumerate() {
            let part = t.make_shuffle(x);
            t.add_shuffle(s as Seat, &part).unwrap();
        }
        t.finish_shuffle();
        (t, secrets)
    }

    fn h(position: u16) -> Handle {
        Handle {
            deck: 0,
            generation: 0,
            position,
        }
    }

    fn deal(t: &mut TableDeck, secrets: &[[u8; 32]], step: u32, to: Seat, cards: &[Handle]) {
        let mut parts = Vec::new();
        for (s, x) in secrets.iter().enumerate().filter(|(s, _)| *s as Seat != to) {
            let DeckPart::Shares { shares, proof, .. } =
                t.make_shares(step, s as Seat, x, cards).unwrap()
            else {
                unreachable!()
            };
            t.check_shares(step, s as Seat, cards, &shares, &proof)
                .unwrap();
            parts.push((s as Seat, shares));
        }
        t.finish_deal(to, cards, &parts);
    }

    #[test]
    fn a_dealt_card_is_read_by_its_receiver_alone_and_every_card_turns_up_once() {
        let (mut t, secrets) = table();
        let cards: Vec<Handle> = (0..10).map(h).collect();
        deal(&mut t, &secrets, 1, 1, &cards);
        let faces: Vec<CardId> = cards
            .iter()
            .map(|c| t.read(c, &secrets[1]).unwrap())
            .collect();
        let mut sorted = faces.clone();
        sorted.sort();
        assert_eq!(sorted, (0..10).collect::<Vec<_>>(), "each card once");
        assert_ne!(
            faces,
            (0..10).collect::<Vec<_>>(),
            "in an order nobody chose"
        );
        for other in [0, 2] {
            assert!(
                cards.iter().all(|c| t.read(c, &secrets[other]).is_err()),
                "seat {other} reads nothing of seat 1's hand"
            );
        }
    }

    #[test]
    fn a_wrong_share_is_refused_naming_its_seat() {
        let (t, secrets) = table();
        let cards = [h(0), h(1)];
        let DeckPart::Shares {
            mut shares, proof, ..
        } = t.make_shares(3, 2, &secrets[2], &cards).unwrap()
        else {
            unreachable!()
        };
        shares[1] = Share(shares[1].0 + RistrettoPoint::mul_base(&Scalar::ONE));
        let err = t.check_shares(3, 2, &cards, &shares, &proof).unwrap_err();
        assert!(matches!(err, CardFault::Seat { seat: 2, .. }), "{err}");
        // A share made with another seat's key is refused as that seat's.
        let DeckPart::Shares { shares, proof, .. } =
            t.make_shares(3, 0, &secrets[0], &cards).unwrap()
        else {
            unreachable!()
        };
        assert!(t.check_shares(3, 2, &cards, &shares, &proof).is_err());
    }

    #[test]
    fn a_shown_card_opens_to_its_claimed_face_and_no_other() {
        let (mut t, secrets) = table();
        deal(&mut t, &secrets, 1, 0, &[h(4)]);
        let face = t.read(&h(4), &secrets[0]).unwrap();
        let show = [CardMove::Show { card: h(4), face }];
        let part = t.make_moves(2, 0, &secrets[0], &show).unwrap();
        t.check_moves(2, 0, &show, &part).unwrap();
        let lie = [CardMove::Show {
            card: h(4),
            face: (face + 1) % 10,
        }];
        let err = t.check_moves(2, 0, &lie, &part).unwrap_err();
        assert!(matches!(err, CardFault::Seat { seat: 0, .. }), "{err}");
        t.finish_moves(0, &show, &[]).unwrap();
        assert_eq!(t.read(&h(4), &secrets[2]).unwrap(), face, "face up for all");
    }

    #[test]
    fn a_passed_card_is_read_by_its_receiver_and_not_by_the_table() {
        let (mut t, secrets) = table();
        deal(&mut t, &secrets, 1, 0, &[h(2)]);
        let face = t.read(&h(2), &secrets[0]).unwrap();
        let pass = [CardMove::Pass { card: h(2), to: 2 }];
        let part = t.make_moves(2, 0, &secrets[0], &pass).unwrap();
        t.check_moves(2, 0, &pass, &part).unwrap();
        let DeckRecord::Passed(given) = part.record() else {
            unreachable!()
        };
        t.finish_moves(0, &pass, &given).unwrap();
        assert_eq!(t.read(&h(2), &secrets[2]).unwrap(), face);
        // The giver's old key no longer opens it; nor does seat 1's, nor the shares the
        // table gave at the deal.
        assert!(t.read(&h(2), &secrets[0]).is_err());
        assert!(t.read(&h(2), &secrets[1]).is_err());
        // A handover to another key than the receiver's is refused.
        let to_1 = [CardMove::Pass { card: h(2), to: 1 }];
        let (mut t2, _) = table();
        deal(&mut t2, &secrets, 1, 0, &[h(2)]);
        let part = t2.make_moves(2, 0, &secrets[0], &pass).unwrap();
        assert!(t2.check_moves(2, 0, &to_1, &part).is_err());
    }

    #[test]
    fn a_card_shown_and_kept_is_passed_in_the_open_with_no_handover() {
        // A counter that came too late was shown and stays in its hand; given away later,
        // it moves face up, and the receiver knows it as everyone does.
        let (mut t, secrets) = table();
        deal(&mut t, &secrets, 1, 0, &[h(6)]);
        let face = t.read(&h(6), &secrets[0]).unwrap();
        let show = [CardMove::Show { card: h(6), face }];
        let part = t.make_moves(2, 0, &secrets[0], &show).unwrap();
        t.check_moves(2, 0, &show, &part).unwrap();
        t.finish_moves(0, &show, &[]).unwrap();
        let pass = [CardMove::Pass { card: h(6), to: 1 }];
        let part = t.make_moves(3, 0, &secrets[0], &pass).unwrap();
        t.check_moves(3, 0, &pass, &part).unwrap();
        let DeckRecord::Passed(given) = part.record() else {
            unreachable!()
        };
        assert!(given.is_empty(), "no handover for a card everyone has seen");
        t.apply_moves(&[(0, pass.to_vec())], &[]).unwrap();
        assert_eq!(t.read(&h(6), &secrets[1]).unwrap(), face);
    }

    #[test]
    fn a_card_put_back_face_down_is_dealt_again_and_read_by_its_new_holder_only() {
        let (mut t, secrets) = table();
        deal(&mut t, &secrets, 1, 0, &[h(5)]);
        let face = t.read(&h(5), &secrets[0]).unwrap();
        let back = [CardMove::PutBack { card: h(5) }];
        let part = t.make_moves(2, 0, &secrets[0], &back).unwrap();
        t.check_moves(2, 0, &back, &part).unwrap();
        // Handed to seat 2's key instead of the table's, it is refused.
        let to_2 = [CardMove::Pass { card: h(5), to: 2 }];
        assert!(t.check_moves(2, 0, &to_2, &part).is_err());
        let DeckRecord::Passed(given) = part.record() else {
            unreachable!()
        };
        t.finish_moves(0, &back, &given).unwrap();
        assert!(t.read(&h(5), &secrets[0]).is_err(), "held by nobody now");
        deal(&mut t, &secrets, 3, 1, &[h(5)]);
        assert_eq!(t.read(&h(5), &secrets[1]).unwrap(), face);
        assert!(t.read(&h(5), &secrets[2]).is_err());
    }

    #[test]
    fn a_shuffler_who_doubles_a_card_is_caught_when_both_copies_turn_up() {
        let secrets = secrets(3);
        let keys = secrets
            .iter()
            .enumerate()
            .map(|(s, x)| make_key(&SESSION, s as Seat, x).key)
            .collect();
        let mut t = TableDeck::new("test", SESSION, keys);
        t.begin_shuffle(0, &(0..10).collect::<Vec<_>>());
        for (s, x) in secrets.iter().enumerate() {
            let mut part = t.make_shuffle(x);
            if s == 1 {
                part[1] = part[0]; // the same card twice, one card dropped
            }
            t.add_shuffle(s as Seat, &part).unwrap();
        }
        t.finish_shuffle();
        let cards: Vec<Handle> = (0..10).map(h).collect();
        let mut parts = Vec::new();
        for (s, x) in secrets.iter().enumerate() {
            let DeckPart::Shares { shares, .. } = t.make_shares(1, s as Seat, x, &cards).unwrap()
            else {
                unreachable!()
            };
            parts.push((s as Seat, shares));
        }
        let err = t.finish_reveal(&cards, &parts).unwrap_err();
        assert!(
            matches!(err, CardFault::Deck(ref why) if why.contains("twice")),
            "{err}"
        );
    }
}
