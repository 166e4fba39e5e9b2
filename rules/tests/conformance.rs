//! One standard for every game in the registry (`for_each_game!`), after OpenSpiel's basic
//! tests: a new game gets all of it by its registry line. For each game, at its fewest and its
//! most seats, games played by its bots and games played by picking uniformly among the legal
//! inputs, checked at every decision and every step:
//!
//! - every input `legal_inputs` lists passes `check_input` and `allows` (what a device asks
//!   before it signs a move agrees with what every device checks on receipt);
//! - the table survives its own serialisation (postcard out and in: equal, same hash);
//! - `apply` is all-or-nothing: a step with an input from no seat, or with no input at all,
//!   is refused and leaves the table as it was;
//! - the public table is the same whether a device holds every private side or none (a
//!   device replaying with only the public side reaches the same bytes);
//! - a replay with every private side reaches the same table and the same private sides.

use hoard_rules::play::{self, Played};
use hoard_rules::{Listed, Play, Seat, Step, for_each_game, public_hash};
use rand_chacha::ChaCha8Rng;
use rand_core::Rng;

/// Steps before a game is cut short (random play may wander; the bots' games end well
/// inside it).
const CAP: usize = 6_000;
/// The most listed inputs checked at one decision.
const CHECKED: usize = 48;

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

/// What one run of the suite covered, for its report.
#[derive(Default)]
struct Tally {
    games: usize,
    steps: usize,
    decisions: usize,
    inputs_checked: usize,
    refusals_checked: usize,
}

/// A decision: the listed inputs checked, the table round-tripped, then the bot's input or
/// a uniformly random legal one.
fn decide<G: Listed>(
    public: &G::Public,
    private: Option<&G::Private>,
    seat: Seat,
    rng: &mut ChaCha8Rng,
    random: bool,
    tally: &mut Tally,
) -> Option<G::Input> {
    tally.decisions += 1;
    let legal = G::legal_inputs(public, private, seat);
    let stride = legal.len().div_ceil(CHECKED).max(1);
    for input in legal.iter().step_by(stride) {
        tally.inputs_checked += 1;
        if let Err(e) = G::check_input(public, seat, input) {
            panic!(
                "{}: seat {seat} was offered {input:?}, which check_input refuses: {e}",
                G::TITLE
            );
        }
        if let Some(private) = private {
            assert!(
                G::allows(public, private, seat, input),
                "{}: seat {seat} was offered {input:?}, which allows refuses",
                G::TITLE
            );
        }
    }
    let bytes = postcard::to_stdvec(public).expect("a table serialises");
    let back: G::Public = postcard::from_bytes(&bytes).expect("and reads back");
    assert!(
        back == *public,
        "{}: the table changed in a round trip",
        G::TITLE
    );
    assert_eq!(public_hash(&back), public_hash(public));
    if random && !legal.is_empty() {
        let pick = (rng.next_u64() % legal.len() as u64) as usize;
        return Some(legal[pick].clone());
    }
    G::bot_input(public, private, seat, rng)
}

/// `step` with its inputs made impossible: from a seat the table does not have, or none.
fn broken<I: Clone>(step: &Step<I>, seats: u8) -> Vec<Step<I>> {
    let Step::Inputs(plays) = step else {
        return Vec::new();
    };
    let foreign = plays
        .iter()
        .map(|(_, play)| (seats + 1, play.clone()))
        .collect::<Vec<(Seat, Play<I>)>>();
    vec![Step::Inputs(foreign), Step::Inputs(Vec::new())]
}

/// Replays `played` with no private side, refusing a broken copy of steps along the way.
fn public_replay<G: Listed>(config: &G::Config, seats: u8, played: &Played<G>, tally: &mut Tally) {
    let mut public = G::setup(config).expect("set up");
    let mut none: Vec<Option<G::Private>> = vec![None; usize::from(seats)];
    let stride = (played.steps.len() / 40).max(1);
    for (k, step) in played.steps.iter().enumerate() {
        if k % stride == 0 {
            for bad in broken(step, seats) {
                let before = public.clone();
                let result = G::apply(&mut public, &mut none, &bad);
                assert!(result.is_err(), "{} step {k}: {bad:?} was taken", G::TITLE);
                assert!(
                    public == before,
                    "{} step {k}: a refused step changed the table",
                    G::TITLE
                );
                tally.refusals_checked += 1;
            }
        }
        let received = play::as_received::<G>(&public, &none, step);
        G::apply(&mut public, &mut none, &received)
            .unwrap_or_else(|e| panic!("{} step {k} without private sides: {e}", G::TITLE));
    }
    assert!(
        public_hash(&public) == public_hash(&played.public),
        "{}: the table replayed with no private side differs from the one played",
        G::TITLE
    );
}

fn conforms<G: Listed>() {
    let mut tally = Tally::default();
    let range = G::seat_range();
    for seats in [*range.start(), *range.end()] {
        let config = G::config(seats);
        for game in 0..4u64 {
            let random = game % 2 == 1;
            let secrets: Vec<[u8; 32]> = (0..seats)
                .map(|s| seed(game * 1000 + u64::from(s) + 7))
                .collect();
            let tally_cell = std::cell::RefCell::new(&mut tally);
            let played = play::play_out_with::<G>(
                &config,
                &secrets,
                &seed(game + 100 * u64::from(seats)),
                CAP,
                &mut |public, private, seat, rng| {
                    decide::<G>(
                        public,
                        private,
                        seat,
                        rng,
                        random,
                        &mut tally_cell.borrow_mut(),
                    )
                },
                &mut |_, _, _| {},
            )
            .unwrap_or_else(|e| panic!("{} at {seats} seats, game {game}: {e}", G::TITLE));
            if !random {
                assert!(
                    played.outcome.is_some(),
                    "{} at {seats} seats, game {game}: the bots' game did not end in {CAP} steps",
                    G::TITLE
                );
            }
            tally.games += 1;
            tally.steps += played.steps.len();
            public_replay::<G>(&config, seats, &played, &mut tally);
            let privates = (0..seats)
                .map(|s| Some(G::private(&config, s, secrets[usize::from(s)])))
                .collect();
            let (public, privates) = play::replay::<G>(
                &config,
                privates,
                &played.steps,
                &played.dealer,
                &mut |_, _, _| {},
            )
            .unwrap_or_else(|e| panic!("{} replay: {e}", G::TITLE));
            assert!(
                public == played.public,
                "{}: the replay's table differs",
                G::TITLE
            );
            assert!(
                privates == played.privates,
                "{}: the replay's private sides differ",
                G::TITLE
            );
        }
    }
    println!(
        "{}: {} games, {} steps, {} decisions, {} listed inputs checked, {} broken steps refused",
        G::TITLE,
        tally.games,
        tally.steps,
        tally.decisions,
        tally.inputs_checked,
        tally.refusals_checked
    );
}

macro_rules! conformance_tests {
    ($($module:ident::$game:ident),* $(,)?) => {
        $(
            #[test]
            #[allow(non_snake_case)]
            fn $game() {
                conforms::<hoard_rules::$module::$game>();
            }
        )*
    };
}

for_each_game!(conformance_tests);
