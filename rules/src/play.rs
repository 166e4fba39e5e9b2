//! A local driver that plays any [`Game`] to its end by answering what it waits for — beacon
//! draws from a seed, every seat's input from a policy (the game's bot by default) — and
//! replays recorded steps as a device holding only some private sides would. Tests,
//! benchmarks and the headless app use it; the protocol plays the same steps over the wire.

use crate::deck::{CardMove, Dealer, Handle};
use crate::{Absence, Game, Outcome, Pending, Play, RuleError, Seal, Seat, Step, rng};
use rand_chacha::ChaCha8Rng;

/// A game played out locally.
pub struct Played<G: Game> {
    pub public: G::Public,
    /// Every seat's private side, as it ended.
    pub privates: Vec<Option<G::Private>>,
    /// Every completed step, in order: enough to replay the game.
    pub steps: Vec<Step<G::Input>>,
    /// How many events the steps produced.
    pub events: usize,
    /// `None` if the step limit came first.
    pub outcome: Option<Outcome>,
    /// Every face of the game's shared decks, as they were shuffled.
    pub dealer: Dealer,
}

// By hand: a derive would ask the game's unit struct itself to be Clone and Debug.
impl<G: Game> Clone for Played<G> {
    fn clone(&self) -> Self {
        Played {
            public: self.public.clone(),
            privates: self.privates.clone(),
            steps: self.steps.clone(),
            events: self.events,
            outcome: self.outcome.clone(),
            dealer: self.dealer.clone(),
        }
    }
}

impl<G: Game> std::fmt::Debug for Played<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Played")
            .field("public", &self.public)
            .field("privates", &self.privates)
            .field("steps", &self.steps.len())
            .field("events", &self.events)
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// A seat's choice of input: what the game's bot or a test policy answers.
pub type Policy<'a, G> = dyn FnMut(
        &<G as Game>::Public,
        Option<&<G as Game>::Private>,
        Seat,
        &mut ChaCha8Rng,
    ) -> Option<<G as Game>::Input>
    + 'a;

/// What [`play_out_with`] is shown after each step: the table, the step, its events.
pub type Observer<'a, G> =
    dyn FnMut(&<G as Game>::Public, &Step<<G as Game>::Input>, &[<G as Game>::Event]) + 'a;

/// Whether a seat is away at a step of [`play_out_absent`], and how: asked with the table,
/// the step's number and the seat.
pub type Away<'a, G> = dyn Fn(&<G as Game>::Public, usize, Seat) -> Option<Absence> + 'a;

/// What [`replay`] is shown after each step: the table, the private sides, the events.
pub type ReplayObserver<'a, G> =
    dyn FnMut(&<G as Game>::Public, &[Option<<G as Game>::Private>], &[<G as Game>::Event]) + 'a;

/// Where a replay ends: the table and the private sides.
pub type Replayed<G> = (<G as Game>::Public, Vec<Option<<G as Game>::Private>>);

/// The `k`-th beacon draw of a local game seeded with `seed` (a stand-in for the protocol's
/// beacon: unpredictable to no one, but the same for the same seed).
pub fn local_draw(seed: &[u8; 32], k: u64) -> [u8; 32] {
    let mut hasher = blake3::Hasher::new_derive_key("hoard v1 local beacon");
    hasher.update(seed);
    hasher.update(&k.to_le_bytes());
    *hasher.finalize().as_bytes()
}

/// Plays a game with the game's bot in every seat, for at most `max_steps` steps.
/// `secrets` holds one secret per seat.
pub fn play_out<G: Game>(
    config: &G::Config,
    secrets: &[[u8; 32]],
    seed: &[u8; 32],
    max_steps: usize,
) -> Result<Played<G>, RuleError> {
    play_out_with::<G>(
        config,
        secrets,
        seed,
        max_steps,
        &mut G::bot_input,
        &mut |_, _, _| {},
    )
}

/// Plays a game asking `policy` for every seat's input and showing `observe` each step
/// (the table after it, the step, its events). Each seat's policy gets its own random
/// stream, derived from `seed` and the seat. The driver holds every private side, so a
/// [`Seal::UntilAudit`] input is passed opened to all of them.
pub fn play_out_with<G: Game>(
    config: &G::Config,
    secrets: &[[u8; 32]],
    seed: &[u8; 32],
    max_steps: usize,
    policy: &mut Policy<'_, G>,
    observe: &mut Observer<'_, G>,
) -> Result<Played<G>, RuleError> {
    play_out_absent(
        config,
        secrets,
        seed,
        max_steps,
        policy,
        observe,
        &|_, _, _| None,
    )
}

/// [`play_out_with`], with seats the table goes on without: `absent(table, step, seat)` says
/// whether `seat` is away at step number `step`, and how; an away seat's part of each input
/// step is the rules' own move for it ([`Game::sit_out`], as [`Play::Away`]). A step the
/// game cannot take without an away seat is an error naming it.
pub fn play_out_absent<G: Game>(
    config: &G::Config,
    secrets: &[[u8; 32]],
    seed: &[u8; 32],
    max_steps: usize,
    policy: &mut Policy<'_, G>,
    observe: &mut Observer<'_, G>,
    absent: &Away<'_, G>,
) -> Result<Played<G>, RuleError> {
    let mut public = G::setup(config)?;
    let mut privates: Vec<Option<G::Private>> = secrets
        .iter()
        .enumerate()
        .map(|(seat, secret)| Some(G::private(config, seat as Seat, *secret)))
        .collect();
    let mut rngs: Vec<ChaCha8Rng> = (0..secrets.len())
        .map(|seat| rng::from_seed(seed, &format!("seat {seat} policy")))
        .collect();
    let mut draws = 0u64;
    let mut dealer = Dealer::new();
    let mut steps = Vec::new();
    let mut events = 0usize;
    for n in 0..max_steps {
        let pending = G::pending(&public);
        let mut ask = |seat: Seat| -> Result<(Seat, Play<G::Input>), RuleError> {
            if let Some(absence) = absent(&public, n, seat) {
                let input =
                    G::sit_out(&public, seat, absence).ok_or_else(|| RuleError::Illegal {
                        seat,
                        why: format!("the game cannot go on without it ({absence:?}) at step {n}"),
                    })?;
                return Ok((seat, Play::Away(input)));
            }
            let private = privates.get(usize::from(seat)).and_then(Option::as_ref);
            let rng = rngs
                .get_mut(usize::from(seat))
                .ok_or_else(|| RuleError::Illegal {
                    seat,
                    why: "the game asks a seat that has no secret here".to_string(),
                })?;
            let input = policy(&public, private, seat, rng).ok_or_else(|| RuleError::Illegal {
                seat,
                why: "its policy found no move when the game asked for one".to_string(),
            })?;
            Ok((seat, Play::Open(input)))
        };
        let step = match pending {
            Pending::Over(outcome) => {
                return Ok(Played {
                    public,
                    privates,
                    steps,
                    events,
                    outcome: Some(outcome),
                    dealer,
                });
            }
            Pending::Shuffle { deck, cards } => {
                draws += 1;
                dealer.shuffle(deck, &cards, &local_draw(seed, draws - 1));
                Step::Shuffled
            }
            Pending::Deal { .. } => Step::Dealt,
            Pending::Reveal { cards } => Step::Revealed(
                cards
                    .iter()
                    .map(|c| dealer.face(c).ok_or_else(|| no_such_card(c)))
                    .collect::<Result<_, _>>()?,
            ),
            Pending::Chance => {
                draws += 1;
                Step::Chance(local_draw(seed, draws - 1))
            }
            Pending::Turn { seat } => Step::Inputs(vec![ask(seat)?]),
            Pending::Together { mut seats, .. } => {
                // A step's inputs come in ascending seat order, whatever order the game
                // listed the seats in.
                seats.sort_unstable();
                Step::Inputs(seats.iter().map(|s| ask(*s)).collect::<Result<_, _>>()?)
            }
        };
        check_shown::<G>(&public, &step, &dealer)?;
        let handed = handed::<G>(&public, &step);
        let happened = G::apply(&mut public, &mut privates, &step)?;
        learn::<G>(&mut privates, &handed, &dealer);
        events += happened.len();
        observe(&public, &step, &happened);
        steps.push(step);
    }
    let outcome = match G::pending(&public) {
        Pending::Over(outcome) => Some(outcome),
        _ => None,
    };
    Ok(Played {
        public,
        privates,
        steps,
        events,
        outcome,
        dealer,
    })
}

fn no_such_card(card: &Handle) -> RuleError {
    RuleError::WrongStep {
        expected: format!("a card of a deck that was made, not {card:?}"),
    }
}

/// Who learns which card's face from `step`, taken at `public` (the table before it): the
/// receiver of every card a [`Pending::Deal`] deals or an input passes.
pub fn handed<G: Game>(public: &G::Public, step: &Step<G::Input>) -> Vec<(Seat, Handle)> {
    match (G::pending(public), step) {
        (Pending::Deal { to, cards }, Step::Dealt) => cards.into_iter().map(|c| (to, c)).collect(),
        (_, Step::Inputs(plays)) => plays
            .iter()
            .flat_map(|(seat, play)| match play {
                Play::Open(input) | Play::Away(input) => G::card_moves(public, *seat, input),
                Play::Closed => Vec::new(),
            })
            .filter_map(|m| match m {
                CardMove::Pass { card, to } => Some((to, card)),
                CardMove::Show { .. } | CardMove::PutBack { .. } => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Every face a step's inputs claim for the cards they show is the face `dealer` knows;
/// otherwise the seat that claimed it is named.
fn check_shown<G: Game>(
    public: &G::Public,
    step: &Step<G::Input>,
    dealer: &Dealer,
) -> Result<(), RuleError> {
    let Step::Inputs(plays) = step else {
        return Ok(());
    };
    for (seat, play) in plays {
        let Some(input) = play.input() else { continue };
        for m in G::card_moves(public, *seat, input) {
            if let CardMove::Show { card, face } = m
                && dealer.face(&card) != Some(face)
            {
                return Err(RuleError::PrivateMismatch {
                    seat: *seat,
                    why: format!("it showed {card:?} as card {face}, which it is not"),
                });
            }
        }
    }
    Ok(())
}

/// Gives each private side present the faces `handed` says its seat now holds.
fn learn<G: Game>(privates: &mut [Option<G::Private>], handed: &[(Seat, Handle)], dealer: &Dealer) {
    for (seat, card) in handed {
        if let (Some(Some(private)), Some(face)) =
            (privates.get_mut(usize::from(*seat)), dealer.face(card))
        {
            G::learn(private, *card, face);
        }
    }
}

/// `step` as a device holding only the private sides `privates` receives it: every
/// [`Seal::UntilAudit`] input of a seat whose private side is absent stays closed.
pub fn as_received<G: Game>(
    public: &G::Public,
    privates: &[Option<G::Private>],
    step: &Step<G::Input>,
) -> Step<G::Input> {
    let sealed = matches!(
        G::pending(public),
        Pending::Together {
            seal: Seal::UntilAudit,
            ..
        }
    );
    match step {
        Step::Inputs(inputs) if sealed => Step::Inputs(
            inputs
                .iter()
                .map(|(seat, play)| {
                    let held = privates
                        .get(usize::from(*seat))
                        .is_some_and(Option::is_some);
                    (*seat, if held { play.clone() } else { Play::Closed })
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Replays recorded steps from the start, with the private sides given (indexed by seat,
/// `None` where absent), as a device holding those would: each learns the faces of the
/// shared-deck cards dealt or passed to it from `dealer`. Calls `observe` after each step.
pub fn replay<G: Game>(
    config: &G::Config,
    mut privates: Vec<Option<G::Private>>,
    steps: &[Step<G::Input>],
    dealer: &Dealer,
    observe: &mut ReplayObserver<'_, G>,
) -> Result<Replayed<G>, RuleError> {
    let mut public = G::setup(config)?;
    for step in steps {
        let received = as_received::<G>(&public, &privates, step);
        check_shown::<G>(&public, &received, dealer)?;
        let handed = handed::<G>(&public, &received);
        let events = G::apply(&mut public, &mut privates, &received)?;
        learn::<G>(&mut privates, &handed, dealer);
        observe(&public, &privates, &events);
    }
    Ok((public, privates))
}

/// A policy that measures a bot: seat `bot` plays the game's bot, every other seat a legal
/// input picked at random.
pub fn bot_against_random<G: Game>(bot: Seat) -> Box<Policy<'static, G>> {
    Box::new(move |public, private, seat, r| {
        if seat == bot {
            G::bot_input(public, private, seat, r)
        } else {
            let legal = G::legal_inputs(public, private, seat);
            (!legal.is_empty()).then(|| legal[rng::below(r, legal.len() as u32) as usize].clone())
        }
    })
}
