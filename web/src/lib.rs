//! The page's entry point: the browser runs this when the page loads its script, and the app
//! starts on the page's canvas (see `hoard_app::web`). Built only for
//! `wasm32-unknown-unknown`; elsewhere this crate is empty.

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen(start)]
pub fn main() {
    hoard_app::web::start();
}

/// What the page shows, for its tests: see `hoard_app::web::shown`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hoard_shown() -> String {
    hoard_app::web::shown()
}

/// The CPU of the frames drawn since the last call, for the page's bench: see
/// `hoard_app::web::frame_times`.
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hoard_frame_times() -> String {
    hoard_app::web::frame_times()
}

/// The mental deck's work at the size the games need, run by the page's own code for its
/// bench (which times each call with the page's clock): see [`deck::run`].
#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn hoard_deck(what: &str) -> Result<(), String> {
    deck::run(what)
}

#[cfg(target_arch = "wasm32")]
mod deck {
    use curve25519_dalek::RistrettoPoint;
    use curve25519_dalek::ristretto::RistrettoBasepointTable;
    use hoard_net::mental::elgamal::{Ciphertext, card_point, scalar_from_hash};
    use hoard_net::mental::proof::Context;
    use hoard_net::mental::shuffle;
    use hoard_net::mental::shuffle_proof::ShuffleProof;
    use std::cell::OnceCell;

    /// As in `cargo bench -p hoard-net --bench deck`: 108 cards, 8 seats.
    const SEATS: u8 = 8;
    const CARDS: u32 = 108;
    const SEED: [u8; 32] = [1; 32];
    const SESSION: [u8; 32] = [7; 32];

    /// The table's joint key, the deck as it comes to the first seat, and that seat's part
    /// with its proof.
    struct Deck {
        joint: RistrettoPoint,
        table: RistrettoBasepointTable,
        plain: Vec<Ciphertext>,
        part: Vec<Ciphertext>,
        proof: ShuffleProof,
    }

    thread_local! {
        static DECK: OnceCell<Deck> = const { OnceCell::new() };
    }

    fn ctx() -> Context<'static> {
        Context {
            session: &SESSION,
            deck: 0,
            seat: 0,
            step: 0,
        }
    }

    fn made() -> Deck {
        let joint: RistrettoPoint = (0..SEATS)
            .map(|s| RistrettoPoint::mul_base(&scalar_from_hash("hoard bench secret", &[&[s]])))
            .sum();
        let plain: Vec<Ciphertext> = (0..CARDS)
            .map(|j| Ciphertext::plain(card_point("bench", "deck", j)))
            .collect();
        let (part, proof) = shuffle::shuffle_and_prove(&ctx(), &SEED, &joint, &plain);
        Deck {
            joint,
            table: RistrettoBasepointTable::create(&joint),
            plain,
            part,
            proof,
        }
    }

    /// `what`: "setup" makes the table's key and deck (the first call does, whatever it
    /// asks); "part" is one seat's part of the shuffle (every card re-encrypted, in a new
    /// order); "prove" is the part made with its proof; "check" checks one part's proof as a
    /// device seeing it for the first time does.
    pub fn run(what: &str) -> Result<(), String> {
        DECK.with(|deck| {
            let deck = deck.get_or_init(made);
            match what {
                "setup" => Ok(()),
                "part" => {
                    shuffle::shuffle(&SEED, &deck.table, &deck.plain);
                    Ok(())
                }
                "prove" => {
                    shuffle::shuffle_and_prove(&ctx(), &SEED, &deck.joint, &deck.plain);
                    Ok(())
                }
                "check" => deck
                    .proof
                    .verify_afresh(&ctx(), &deck.joint, &deck.plain, &deck.part)
                    .map_err(|e| format!("{e}")),
                other => Err(format!("no deck work called {other:?}")),
            }
        })
    }
}
