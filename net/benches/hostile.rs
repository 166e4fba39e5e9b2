//! `cargo bench -p hoard-net --bench hostile`: what one seated peer can cost a device, measured
//! the way the review of issue 20 measured it, on a 4-seat GreedQuest game at step 62 (or
//! its end, if sooner).
//!
//! - Hellos: 200 sync hellos alternating between two old steps, each asking for every
//!   seat's messages: bytes the device queues for the peer per byte it received.
//! - Paced hellos: the same, one per resync period, and one after each new connection.
//! - Junk: 9,000 messages no game can use (beacon links "for" other seats, openings with no
//!   commitment, signed messages on logs the table never had): how many the device keeps,
//!   how its inbox grows, and how many it refuses before it asks for the peer to be cut off.
//! - Forgeries: one frame of 3,000 forged messages against one of 3,000 valid ones: time
//!   spent checking it on the network thread; and a frame of 3,000 valid ones with one
//!   forgery at its end: how much of it is kept.
//! - Votes about past steps: the peer's own signed skip vote about every step already
//!   played, one message each: the device's time per byte against an honest message's.

use hoard_net::VoteAction;
use hoard_net::core::CoreEvent;
use hoard_net::wire::{Body, Hello, Link, Opening, Signed, Wire};
use hoard_net::{Basis, Core, CoreConfig, Persist, SeatSpec, SecretKey, Start, Time, Transmit};
use hoard_rules::Game;
use hoard_rules::greedquest::{Config, GreedQuest};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::collections::VecDeque;
use std::time::Instant;

const SEATS: usize = 4;
const ROGUE: usize = 3;
const AT_STEP: u32 = 62;

struct Dev {
    core: Core<GreedQuest>,
    rng: ChaCha8Rng,
    inbox: usize,
    dropped: usize,
}

impl Dev {
    /// Writes what the core asks to keep (counting the bytes) and returns what it sends.
    fn drain(&mut self) -> Vec<Transmit> {
        while let Some(p) = self.core.poll_persist() {
            if let Persist::Message(m) | Persist::Replayable(m) = p {
                self.inbox += m.len();
            }
        }
        while let Some(e) = self.core.poll_event() {
            if matches!(e, CoreEvent::DropLink { .. }) {
                self.dropped += 1;
            }
        }
        std::iter::from_fn(|| self.core.poll_transmit()).collect()
    }
}

/// A 4-seat game played by bots on a perfect network up to step [`AT_STEP`] (or its end).
/// Also returns the bytes the rogue seat sent device 0 while playing.
fn table() -> (Vec<Dev>, Vec<SecretKey>, Start, usize) {
    let keys: Vec<SecretKey> = (0..SEATS as u8)
        .map(|i| SecretKey::from_bytes(&[i * 17 + 3; 32]))
        .collect();
    let seats = keys
        .iter()
        .zip(["Ann", "Ben", "Cat", "Dan"])
        .map(|(k, name)| SeatSpec {
            key: k.public(),
            name: name.into(),
        })
        .collect();
    let start =
        Start::new::<GreedQuest>(&Config::new(SEATS as u8), seats, [23; 32]).expect("start");
    let mut devs: Vec<Dev> = keys
        .iter()
        .enumerate()
        .map(|(i, k)| Dev {
            core: Core::new(
                start.clone(),
                k.clone(),
                [i as u8 + 40; 32],
                Time(0),
                CoreConfig::default(),
            )
            .expect("seated"),
            rng: ChaCha8Rng::seed_from_u64(i as u64),
            inbox: 0,
            dropped: 0,
        })
        .collect();
    let mut queue: VecDeque<(usize, Transmit)> = VecDeque::new();
    let mut now = Time(0);
    let mut rogue_sent = 0;
    for (i, d) in devs.iter_mut().enumerate() {
        queue.extend(d.drain().into_iter().map(|t| (i, t)));
    }
    loop {
        if let Some((from, t)) = queue.pop_front() {
            let from_key = keys[from].public();
            let to = keys
                .iter()
                .position(|k| k.public() == t.to)
                .expect("a seat");
            if from == ROGUE && to == 0 {
                rogue_sent += t.bytes.len();
            }
            let _ = devs[to].core.handle_message(now, from_key, &t.bytes);
            queue.extend(devs[to].drain().into_iter().map(|t| (to, t)));
            continue;
        }
        let over = matches!(devs[0].core.pending(), Some(hoard_rules::Pending::Over(_)));
        if devs[0].core.step() >= AT_STEP || over {
            break;
        }
        let mut moved = false;
        for (i, d) in devs.iter_mut().enumerate() {
            if !d.core.my_move() {
                continue;
            }
            let seat = d.core.my_seat();
            let (Some(public), private) = (d.core.public(), d.core.private()) else {
                continue;
            };
            if let Some(input) = GreedQuest::bot_input(public, private, seat, &mut d.rng)
                && d.core.submit(now, input).is_ok()
            {
                moved = true;
                queue.extend(d.drain().into_iter().map(|t| (i, t)));
            }
        }
        if !moved {
            now = now.plus(100);
            for (i, d) in devs.iter_mut().enumerate() {
                d.core.handle_timeout(now);
                queue.extend(d.drain().into_iter().map(|t| (i, t)));
            }
            assert!(
                now.as_millis() < 10_000_000,
                "the game got stuck at step {}: {:?}",
                devs[0].core.step(),
                devs[0].core.pending()
            );
        }
    }
    (devs, keys, start, rogue_sent)
}

fn head(key: &SecretKey, start: &Start, step: u32, log: u32) -> Vec<u8> {
    let basis = Basis {
        log: *blake3::hash(&log.to_le_bytes()).as_bytes(),
        state: [0; 32],
    };
    let msg = Signed::sign(key, start.session(), ROGUE as u8, step, basis, Body::Head);
    Wire::Signed(msg).encode()
}

fn hellos() {
    let (mut devs, keys, _, played) = table();
    let rogue = keys[ROGUE].public();
    let (mut received, mut queued) = (0usize, 0usize);
    for i in 0..200u32 {
        let hello = Wire::Hello(Hello {
            step: 10 + (i % 2) * 20,
            have: Vec::new(),
            reply: false,
            full: true,
            shared: 0,
            pad: Vec::new(),
        })
        .encode();
        received += hello.len();
        let _ = devs[0].core.handle_message(Time(1), rogue, &hello);
        queued += devs[0]
            .drain()
            .iter()
            .filter(|t| t.to == rogue)
            .map(|t| t.bytes.len())
            .sum::<usize>();
    }
    println!(
        "  hellos: 200 ({received} B) at step {} queued {queued} B for the peer: {:.1} B per B \
         of hellos, {:.2} B per B the peer sent in all, its game included (the device holds \
         {} messages, {} B)",
        devs[0].core.step(),
        queued as f64 / received as f64,
        queued as f64 / (received + played) as f64,
        devs[0].core.held(),
        devs[0].inbox,
    );
}

/// Paced hellos sent: enough to spend whatever credit the peer earned by playing.
const PACED: u32 = 2_000;

/// Hellos paced as the protocol allows: one per resync period (the device's answers start
/// afresh after each), and one after a new connection each time; both asking for everything
/// from an old step.
fn paced_hellos() {
    for reconnect in [false, true] {
        let (mut devs, keys, _, played) = table();
        let rogue = keys[ROGUE].public();
        let (mut received, mut queued) = (0usize, 0usize);
        let mut now = Time(10_000_000);
        for i in 0..PACED {
            now = now.plus(1_501);
            if reconnect {
                devs[0].core.peer_connected(now, rogue);
                devs[0].drain();
            }
            let hello = Wire::Hello(Hello {
                step: 10 + (i % 2) * 20,
                have: Vec::new(),
                reply: false,
                full: true,
                shared: 0,
                pad: Vec::new(),
            })
            .encode();
            received += hello.len();
            let _ = devs[0].core.handle_message(now, rogue, &hello);
            queued += devs[0]
                .drain()
                .iter()
                .filter(|t| t.to == rogue)
                .map(|t| t.bytes.len())
                .sum::<usize>();
        }
        let how = if reconnect {
            "each after a new connection"
        } else {
            "one per resync period"
        };
        println!(
            "  hellos, {how}: {PACED} ({received} B) at step {} queued {queued} B for the \
             peer: {:.1} B per B of hellos, {:.2} B per B the peer sent in all",
            devs[0].core.step(),
            queued as f64 / received as f64,
            queued as f64 / (received + played) as f64,
        );
    }
}

fn junk() {
    let (mut devs, keys, start, _) = table();
    let rogue = keys[ROGUE].public();
    let at = devs[0].core.step();
    let (held, inbox) = (devs[0].core.held(), devs[0].inbox);
    let mut refused = 0;
    let mut first_drop = None;
    for i in 0..9_000u32 {
        let seat = (i % 3) as u8;
        let bytes = match i % 3 {
            // A beacon link "for" another seat.
            0 => Wire::Link(Link {
                seat,
                step: at + i % 64,
                link: *blake3::hash(&i.to_le_bytes()).as_bytes(),
            })
            .encode(),
            // An opening "from" another seat, ahead of any commitment.
            1 => Wire::Open(Opening {
                seat,
                step: at + i % 64,
                salt: *blake3::hash(&i.to_le_bytes()).as_bytes(),
                input: vec![0],
            })
            .encode(),
            // The rogue's own signature, on a log the table never had.
            _ => head(&keys[ROGUE], &start, at + i % 64, i),
        };
        if devs[0].core.handle_message(Time(1), rogue, &bytes).is_err() {
            refused += 1;
        }
        devs[0].drain();
        if devs[0].dropped > 0 && first_drop.is_none() {
            first_drop = Some(i + 1);
        }
    }
    println!(
        "  junk: 9000 messages: {refused} refused, {} kept; inbox {:.1} KB -> {:.1} KB; the device \
         asked to cut the peer off after {} of them ({} times in all)",
        devs[0].core.held() - held,
        inbox as f64 / 1000.0,
        devs[0].inbox as f64 / 1000.0,
        first_drop.map_or("none".to_string(), |n| n.to_string()),
        devs[0].dropped,
    );
}

fn forgeries() {
    let (mut devs, keys, start, _) = table();
    let rogue = keys[ROGUE].public();
    let at = devs[0].core.step();
    const N: u32 = 3_000;
    // Signed by another seat's key than the one they claim; then the same, signed right.
    let forged: Vec<Vec<u8>> = (0..N)
        .map(|i| head(&keys[0], &start, at + 1 + i, 7))
        .collect();
    let valid: Vec<Vec<u8>> = (0..N)
        .map(|i| head(&keys[ROGUE], &start, at + 1 + i, 7))
        .collect();
    let time = |dev: &mut Dev, frame: &[Vec<u8>]| {
        let t = Instant::now();
        let _ = dev.core.handle_messages(Time(1), rogue, frame);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        dev.drain();
        ms
    };
    let (a, b) = devs.split_at_mut(1);
    let before = a[0].core.held();
    let forged_ms = time(&mut a[0], &forged);
    let kept_forged = a[0].core.held() - before;
    let valid_ms = time(&mut b[0], &valid);
    println!(
        "  forgeries: a frame of {N} forged messages checked in {forged_ms:.2} ms, one of {N} valid \
         ones in {valid_ms:.2} ms ({} of the forged frame kept)",
        kept_forged
    );
}

/// A frame of valid messages with one forgery at its end: the device refuses the frame
/// and keeps nothing of it, so a peer cannot make it check (and store) a frame's worth of
/// messages for the price of a single bad signature.
fn forged_tail() {
    let (mut devs, keys, start, _) = table();
    let rogue = keys[ROGUE].public();
    let at = devs[0].core.step();
    const N: u32 = 3_000;
    let mut frame: Vec<Vec<u8>> = (0..N - 1)
        .map(|i| head(&keys[ROGUE], &start, at + 1 + i, 7))
        .collect();
    frame.push(head(&keys[0], &start, at + N, 7));
    let before = devs[0].core.held();
    let t = Instant::now();
    let refused = devs[0]
        .core
        .handle_messages(Time(1), rogue, &frame)
        .is_err();
    let ms = t.elapsed().as_secs_f64() * 1e3;
    devs[0].drain();
    println!(
        "  a frame of {} valid messages and one forgery at its end: checked in {ms:.2} ms, \
         {} kept, frame {}",
        N - 1,
        devs[0].core.held() - before,
        if refused { "refused" } else { "taken" },
    );
}

/// The rogue's own signed skip vote about each step already played (valid signatures, in
/// slots no one filled): the device's time per byte, against the same number of bytes of
/// an honest peer's messages (its heads for the steps ahead).
fn past_votes() {
    let (mut devs, keys, start, _) = table();
    let rogue = keys[ROGUE].public();
    let session = start.session();
    let at = devs[0].core.step();
    let mut votes: Vec<Vec<u8>> = Vec::new();
    for n in 1..at {
        let basis = devs[0].core.basis_at(n).unwrap_or_default();
        for target in (0..SEATS as u8).filter(|t| *t != ROGUE as u8) {
            let body = Body::Vote {
                target,
                action: VoteAction::Skip,
            };
            let vote = Signed::sign(&keys[ROGUE], session, ROGUE as u8, n, basis, body);
            votes.push(Wire::Signed(vote).encode());
        }
    }
    let honest: Vec<Vec<u8>> = (0..votes.len() as u32)
        .map(|i| head(&keys[ROGUE], &start, at + 1 + i, 7))
        .collect();
    let bytes = |frame: &[Vec<u8>]| frame.iter().map(Vec::len).sum::<usize>();
    let (a, b) = devs.split_at_mut(1);
    let time = |dev: &mut Dev, frame: &[Vec<u8>]| {
        let t = Instant::now();
        for m in frame {
            let _ = dev.core.handle_message(Time(1), rogue, m);
        }
        let ns = t.elapsed().as_secs_f64() * 1e9;
        let queued: usize = dev.drain().iter().map(|t| t.bytes.len()).sum();
        (ns, queued)
    };
    let (vote_ns, vote_queued) = time(&mut a[0], &votes);
    let (honest_ns, _) = time(&mut b[0], &honest);
    let (vb, hb) = (bytes(&votes), bytes(&honest));
    println!(
        "  votes about past steps: {} ({vb} B) at step {at}: {:.0} ns per B received, against \
         {:.0} ns per B of as many honest messages ({:.2}x); {vote_queued} B queued in answer \
         ({:.1} B per B received); the device moved on to step {}",
        votes.len(),
        vote_ns / vb as f64,
        honest_ns / hb as f64,
        (vote_ns / vb as f64) / (honest_ns / hb as f64),
        vote_queued as f64 / vb as f64,
        a[0].core.step(),
    );
}

fn main() {
    println!("hoard-net hostile bench: one seated peer against a device, 4-seat GreedQuest");
    hellos();
    paced_hellos();
    junk();
    forgeries();
    forged_tail();
    past_votes();
}
