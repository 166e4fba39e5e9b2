//! The yardstick the benchmarks state their figures against, measured in the same run:
//! absolute times move from machine to machine (and from a quiet machine to a busy one),
//! a figure as a multiple of one signature check, or of one round trip, much less.
//! Shared by `hoard-net`'s protocol bench and `hoard-tests`' LAN bench.

use hoard_net::identity::SeatKey;
use hoard_net::wire::{Body, Signed, verify_many};
use hoard_net::{Basis, SecretKey, SessionId};
use std::time::{Duration, Instant};

const SESSION: SessionId = SessionId([9; 32]);

/// One signature check, as a device checks a lone message: the median of rounds of 500
/// checks (distinct messages, so nothing is remembered between them).
pub fn signature_check() -> Duration {
    const EACH: usize = 500;
    let key = SecretKey::from_bytes(&[7; 32]);
    let seat = SeatKey::new(&key.public()).expect("a key");
    let msgs: Vec<Signed> = (0..EACH)
        .map(|i| {
            Signed::sign(
                &key,
                SESSION,
                0,
                i as u32,
                Basis::default(),
                Body::Commit([i as u8; 32]),
            )
        })
        .collect();
    let mut rounds: Vec<Duration> = (0..9)
        .map(|_| {
            let t = Instant::now();
            for m in &msgs {
                assert!(verify_many(&SESSION, &[(m, &seat)], None)[0]);
            }
            t.elapsed() / EACH as u32
        })
        .collect();
    rounds.sort();
    rounds[rounds.len() / 2]
}

/// Microseconds, with one decimal.
pub fn us(d: Duration) -> String {
    format!("{:.1} us", d.as_secs_f64() * 1e6)
}
