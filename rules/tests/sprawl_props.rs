//! Properties of whole Sprawl games: seeded bot games always end, replaying the steps gives
//! the same state hash, no piece is lost or made, and the legal-move list is exactly what
//! the move check accepts.

mod sprawl_support;

use hoard_rules::sprawl::{Cell, Config, Dir, Input, Public, Sprawl, Square, Strength, choose};
use hoard_rules::{Game, Pending, Play, Step, public_hash, rng};
use proptest::prelude::*;
use sprawl_support::{draw, play, replay};

fn config_from(seats: u8, flags: u8) -> Config {
    Config {
        seats,
        counting_coup: flags & 1 != 0,
        sprawlgami: flags & 2 != 0,
        overload: flags & 4 != 0,
        superior_forces: flags & 8 != 0,
        loose_branching: flags & 16 != 0,
    }
}

/// Every seat's pieces, on the board and in the stash, by size: always five of each.
fn assert_pieces_kept(p: &Public) {
    let mut count: Vec<[u8; 3]> = p.stashes.iter().map(|st| st.counts).collect();
    for cell in &p.board.cells {
        match cell {
            Cell::Tower(t) => {
                for (owner, size) in t.pieces() {
                    count[usize::from(owner)][usize::from(size - 1)] += 1;
                }
            }
            Cell::Branch(b) => count[usize::from(b.owner)][usize::from(b.size - 1)] += 1,
            Cell::Empty => {}
        }
    }
    assert!(count.iter().all(|c| *c == [5, 5, 5]), "{count:?}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn seeded_bot_games_end_and_replay_to_the_same_hash(
        seed in any::<u64>(),
        seats in 3u8..=8,
        flags in 0u8..32,
        greedy in proptest::collection::vec(0u8..8, 0..=2),
    ) {
        let config = config_from(seats, flags);
        // Up to two greedy seats (the rest random), which keeps a debug run quick.
        let bots: Vec<Strength> = (0..seats)
            .map(|s| if greedy.contains(&s) { Strength::Greedy } else { Strength::Random })
            .collect();
        // 15 pieces a seat, plus the first-player draw, the deal and coup answers.
        let g = play(&config, seed, &bots, 40 * usize::from(seats) + 10);
        prop_assert_eq!(g.outcome.scores.len(), usize::from(seats));
        prop_assert!(!g.outcome.winners.is_empty());
        assert_pieces_kept(&g.end);
        let hashes = replay(&config, &g.steps);
        prop_assert_eq!(hashes.last().copied(), Some(public_hash(&g.end)));
        prop_assert_eq!(hashes, replay(&config, &g.steps));
    }

    #[test]
    fn legal_inputs_are_exactly_what_the_move_check_accepts(
        seed in any::<u64>(),
        seats in 3u8..=5,
        flags in 0u8..32,
    ) {
        let config = config_from(seats, flags);
        let mut p = Sprawl::setup(&config).unwrap();
        let mut bots = rng::from_seed(&draw(seed, 0), "bots");
        let mut probe = rng::from_seed(&draw(seed, 1), "probe");
        let mut draws = 0;
        for _ in 0..200 {
            let step = match Sprawl::pending(&p) {
                Pending::Over(_) => break,
                Pending::Chance => {
                    draws += 1;
                    Step::Chance(draw(seed, 100 + draws))
                }
                Pending::Turn { seat } => {
                    let legal = Sprawl::legal_inputs(&p, None, seat);
                    check_against_probes(&p, seat, &legal, &mut probe);
                    for other in (0..seats).filter(|&s| s != seat) {
                        prop_assert!(Sprawl::legal_inputs(&p, None, other).is_empty());
                    }
                    Step::turn(seat, choose(&p, seat, Strength::Random, &mut bots).unwrap())
                }
                Pending::Together { seats: asked, .. } => Step::Inputs(
                    asked
                        .iter()
                        .map(|&s| (s, Play::Open(choose(&p, s, Strength::Random, &mut bots).unwrap())))
                        .collect(),
                ),
                other => panic!("Sprawl has no shared deck, yet waits for {other:?}"),
            };
            Sprawl::apply(&mut p, &mut [], &step).unwrap();
            assert_pieces_kept(&p);
        }
    }
}

/// Every legal input passes the check and applies; random inputs pass the check only if
/// they are in the list.
fn check_against_probes(
    p: &Public,
    seat: u8,
    legal: &[Input],
    probe: &mut rand_chacha::ChaCha8Rng,
) {
    for input in legal {
        assert_eq!(Sprawl::check_input(p, seat, input), Ok(()), "{input:?}");
    }
    // Apply a few legal inputs to copies: none may be refused.
    for _ in 0..3.min(legal.len()) {
        let input = legal[rng::below(probe, legal.len() as u32) as usize];
        let mut copy = p.clone();
        Sprawl::apply(&mut copy, &mut [], &Step::turn(seat, input)).unwrap();
    }
    let (cols, rows) = (u32::from(p.board.cols), u32::from(p.board.rows));
    let square = |probe: &mut rand_chacha::ChaCha8Rng| {
        // One past the edge now and then, to probe the board's bounds.
        Square::new(
            rng::below(probe, cols + 1) as u8,
            rng::below(probe, rows + 1) as u8,
        )
    };
    for _ in 0..200 {
        let size = rng::below(probe, 4) as u8;
        let input = match rng::below(probe, if legal.is_empty() { 5 } else { 7 }) {
            0 => Input::Place {
                at: square(probe),
                size,
            },
            1 => Input::Build { at: square(probe) },
            2 => {
                let from = square(probe);
                let dir = Dir::ALL[rng::below(probe, 4) as usize];
                let step = Dir::ALL[rng::below(probe, 4) as usize];
                let at = p.board.step(from, step, 1).unwrap_or(from);
                Input::Branch {
                    from,
                    at,
                    dir,
                    size,
                }
            }
            3 => Input::Spore {
                at: square(probe),
                size,
                builds: rng::below(probe, 3) as u8,
            },
            4 => [Input::Ask, Input::Pass, Input::TakeBack, Input::Keep]
                [rng::below(probe, 4) as usize],
            // A legal move with one thing changed: the near misses.
            _ => {
                let dir = Dir::ALL[rng::below(probe, 4) as usize];
                let other = square(probe);
                match legal[rng::below(probe, legal.len() as u32) as usize] {
                    Input::Branch { from, at, .. } if size.is_multiple_of(2) => Input::Branch {
                        from,
                        at,
                        dir,
                        size: size.max(1),
                    },
                    Input::Branch {
                        from, dir, size, ..
                    } => Input::Branch {
                        from,
                        at: p.board.step(from, dir, 1).unwrap_or(other),
                        dir,
                        size,
                    },
                    Input::Spore { at, size, .. } => Input::Spore {
                        at,
                        size,
                        builds: rng::below(probe, 3) as u8,
                    },
                    Input::Place { size, .. } => Input::Place { at: other, size },
                    Input::Build { .. } => Input::Build { at: other },
                    legal_one => legal_one,
                }
            }
        };
        assert_eq!(
            Sprawl::check_input(p, seat, &input).is_ok(),
            legal.contains(&input),
            "{input:?}: {:?}",
            Sprawl::check_input(p, seat, &input)
        );
    }
}

#[test]
fn the_generic_driver_plays_sprawl_and_a_device_without_private_sides_replays_it() {
    // Sprawl has no hidden information: the common driver needs no special case, and a
    // device holding no seat's private side reaches the same hash after every step.
    use hoard_rules::play::{play_out, replay as replay_steps};
    for seed in 0..4u8 {
        let config = config_from(3 + seed, 1 + seed * 7);
        let secrets = vec![[seed; 32]; usize::from(config.seats)];
        let played = play_out::<Sprawl>(&config, &secrets, &[seed; 32], 1_000).unwrap();
        assert!(played.outcome.is_some(), "seed {seed}: the game ended");
        let mut hashes = Vec::new();
        let (end, _) = replay_steps::<Sprawl>(
            &config,
            vec![None; usize::from(config.seats)],
            &played.steps,
            &played.dealer,
            &mut |p, _, _| hashes.push(public_hash(p)),
        )
        .unwrap();
        assert_eq!(public_hash(&end), public_hash(&played.public));
        assert_eq!(hashes.len(), played.steps.len());
    }
}
