//! The LAN benchmark: six seats, each its own device (protocol cores, store on disk, iroh
//! endpoint) on loopback, playing a long measuring game over real QUIC connections.
//! Run with `cargo bench -p hoard-tests --bench lan`; it prints
//!
//! - sealed-turn latency: from the last seat's commitment being submitted to the step being
//!   applied on every seat (commitments, then every opening, each persisted first);
//! - beacon draw latency: from the last seat reaching a draw (and sending its link) to the
//!   draw being applied on every seat;
//! - catch-up: a seat that was away while the table went on without it for 1,000 steps
//!   restarts from its data directory; the time until it has every missed step applied;
//! - the yardsticks, in the same run: a raw iroh round trip (32 bytes each way over the
//!   links devices use: one stream each way, length-framed) and one signature check, with
//!   every figure above also stated as a multiple of them, which moves far less from
//!   machine to machine than the milliseconds do.
//!
//! `HOARD_BENCH_SAMPLES` (default 300) sets the number of sealed turns measured,
//! `HOARD_BENCH_BEHIND` (default 1000) the steps missed, `HOARD_BENCH_TRIALS` (default 5)
//! how many times the return is timed (the median is printed), `HOARD_BENCH_DIR` where the
//! devices keep their data (default: the system temp dir; on /dev/shm there is no fsync cost),
//! `HOARD_BENCH_PAUSE_MS` (default 0) a pause before the restart
//! and after the catch-up, to attach a profiler to the catch-up alone.
//!
//! Between trials the returning seat's data directory is put back as it was when it left,
//! so that every trial starts as far behind: a device whose store went back re-signs, at the
//! same steps, messages its peers already hold in another version, which no real restart
//! does (a device writes before it sends). From the second such trial on, a return can take
//! a second, and from the third about 30 s: only the first trial is a real return, and
//! `HOARD_BENCH_TRIALS=1` times that alone. `HOARD_BENCH_KEEP=1` keeps the store instead
//! (each return after the first is then barely behind): quick restarts of a device whose
//! store is whole, as a phone killed and started again.

#[path = "../../net/benches/support/baseline.rs"]
mod baseline;

use hoard_net::transport::{ALPN, EndpointOptions, NetMode, bind_endpoint, frame};
use hoard_tests::Scratch;
use hoard_tests::rounds::Input;
use hoard_tests::table::LoopTable;
use std::time::{Duration, Instant};

const SEATS: usize = 6;

fn env(name: &str, default: u32) -> u32 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// The yardsticks of this run: a raw round trip (p50, p99) and one signature check.
struct Yardstick {
    trip: (Duration, Duration),
    check: Duration,
}

impl Yardstick {
    /// `d` as round trips (at the round trip's p50, or its p99 for a p99) and signature checks.
    fn times(&self, d: Duration, trip: Duration) -> String {
        format!(
            "{:.1} round trips, {:.0} signature checks",
            d.as_secs_f64() / trip.as_secs_f64().max(1e-9),
            d.as_secs_f64() / self.check.as_secs_f64().max(1e-12),
        )
    }
}

fn summary(name: &str, mut samples: Vec<Duration>, yard: &Yardstick) {
    samples.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let (p50, p99) = (percentile(&samples, 0.50), percentile(&samples, 0.99));
    println!(
        "{name}: n={} p50={:.2} ms p99={:.2} ms max={:.2} ms",
        samples.len(),
        ms(p50),
        ms(p99),
        ms(samples.last().copied().unwrap_or_default()),
    );
    println!(
        "    p50 = {}; p99 = {}",
        yard.times(p50, yard.trip.0),
        yard.times(p99, yard.trip.1)
    );
}

/// Round trips of 32 bytes between two iroh endpoints on loopback, over one stream each
/// way with the devices' own framing: what any message between two devices costs at least.
fn round_trips(n: usize) -> Vec<Duration> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let options = EndpointOptions::new(NetMode::Loopback);
        let bind = |b: u8| bind_endpoint(hoard_net::SecretKey::from_bytes(&[b; 32]), &options);
        let (a, b) = (
            bind(201).await.expect("bind"),
            bind(202).await.expect("bind"),
        );
        let (a, b) = (a.endpoint, b.endpoint);
        let addr = b.addr();
        // The far side: every frame that comes is sent straight back.
        let echo = tokio::spawn(async move {
            let conn = b.accept().await?.accept().ok()?.await.ok()?;
            let mut back = conn.open_uni().await.ok()?;
            let mut from = conn.accept_uni().await.ok()?;
            while let Ok(Some(bytes)) = frame::read(&mut from).await {
                frame::write(&mut back, &bytes).await.ok()?;
            }
            Some(())
        });
        let conn = a.connect(addr, ALPN).await.expect("connect");
        let mut to = conn.open_uni().await.expect("a stream");
        let mut times = Vec::with_capacity(n);
        let payload = [0x5au8; 32];
        // The far side's stream opens with its first frame: one trip unmeasured.
        frame::write(&mut to, &payload).await.expect("send");
        let mut from = conn.accept_uni().await.expect("a stream back");
        frame::read(&mut from).await.expect("the echo");
        for _ in 0..n {
            let t = Instant::now();
            frame::write(&mut to, &payload).await.expect("send");
            let back = frame::read(&mut from).await.expect("the echo");
            times.push(t.elapsed());
            assert_eq!(back.as_deref(), Some(&payload[..]));
        }
        drop(to);
        conn.close(0u32.into(), b"done");
        echo.abort();
        a.close().await;
        times
    })
}

/// Copies a directory tree (a device's data directory).
fn copy_dir(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("make a directory");
    for entry in std::fs::read_dir(from).expect("read a directory").flatten() {
        let path = entry.path();
        let dest = to.join(entry.file_name());
        if path.is_dir() {
            copy_dir(&path, &dest);
        } else {
            std::fs::copy(&path, &dest).expect("copy a file");
        }
    }
}

fn main() {
    // `RUST_LOG=hoard_net=debug` (say) prints what the devices do, on stderr.
    if let Ok(filter) = std::env::var("RUST_LOG") {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
            .with_writer(std::io::stderr)
            .init();
    }
    // `cargo bench` passes `--bench`; nothing else here takes arguments.
    let samples = env("HOARD_BENCH_SAMPLES", 300);
    let behind = env("HOARD_BENCH_BEHIND", 1000);
    let scratch = match std::env::var("HOARD_BENCH_DIR") {
        Ok(dir) => Scratch {
            path: std::path::PathBuf::from(dir).join(format!("hoard-bench-{}", std::process::id())),
        },
        Err(_) => Scratch::new("lan-bench"),
    };
    let _ = std::fs::create_dir_all(&scratch.path);
    let mut trips = round_trips(2_000);
    trips.sort();
    let yard = Yardstick {
        trip: (percentile(&trips, 0.50), percentile(&trips, 0.99)),
        check: baseline::signature_check(),
    };
    println!(
        "Hoard LAN benchmark: {SEATS} seats, each a device with its own iroh endpoint on 127.0.0.1, \
         stores under {}",
        scratch.path.display()
    );
    // Each round is a draw and a sealed step; enough rounds for the samples, the steps
    // missed, and the end of the game.
    let rounds = samples + behind / 2 + 20;
    let mut table = LoopTable::new(&scratch.path, SEATS as u8, rounds, 20);
    let all: Vec<usize> = (0..SEATS).collect();
    let mut pick = 0u8;
    let mut next_pick = || {
        pick = pick % 6 + 1;
        Input::Pick(pick)
    };

    // Sealed turns and beacon draws, one round at a time.
    let mut sealed = Vec::new();
    let mut beacon = Vec::new();
    for r in 0..samples {
        let draw = 2 * r;
        let turn = draw + 1;
        table.until(Duration::from_secs(30), "the draw", |t| {
            t.all_at(&all, turn)
        });
        if r > 0 {
            let last_in = all
                .iter()
                .filter_map(|d| table.reached[*d].get(draw as usize).copied().flatten())
                .max();
            let applied = all
                .iter()
                .filter_map(|d| table.reached[*d].get(turn as usize).copied().flatten())
                .max();
            if let (Some(a), Some(b)) = (last_in, applied) {
                beacon.push(b.saturating_duration_since(a));
            }
        }
        for d in 0..SEATS - 1 {
            table.submit(d, next_pick());
        }
        let others: u8 = (1u8 << (SEATS - 1)) - 1;
        table.until(
            Duration::from_secs(30),
            "five commitments everywhere",
            |t| {
                t.last
                    .iter()
                    .flatten()
                    .all(|s| s.step > turn || (s.step == turn && s.committed & others == others))
            },
        );
        let sent = Instant::now();
        table.submit(SEATS - 1, next_pick());
        table.until(Duration::from_secs(30), "the sealed step", |t| {
            t.all_at(&all, turn + 1)
        });
        if let Some(applied) = all
            .iter()
            .filter_map(|d| table.reached[*d].get(turn as usize + 1).copied().flatten())
            .max()
        {
            sealed.push(applied.saturating_duration_since(sent));
        }
    }
    println!(
        "yardsticks: raw iroh round trip (32 B each way, loopback) p50={:.3} ms p99={:.3} ms; \
         one signature check {}",
        yard.trip.0.as_secs_f64() * 1000.0,
        yard.trip.1.as_secs_f64() * 1000.0,
        baseline::us(yard.check),
    );
    summary(
        "sealed turn (last commitment submitted -> step applied on all 6 seats)",
        sealed,
        &yard,
    );
    summary(
        "beacon draw (last link sent -> draw applied on all 6 seats)",
        beacon,
        &yard,
    );

    // Catch-up: the last seat leaves; the table skips it for `behind` steps; it returns.
    let gone = SEATS - 1;
    let live: Vec<usize> = (0..gone).collect();
    for d in &all {
        table.auto(*d, true);
    }
    table.stop(gone);
    let left_at = table.step(0);
    let skipping = Instant::now();
    table.until(
        Duration::from_secs(600),
        "the steps without the missing seat",
        |t| t.all_at(&live, left_at + behind),
    );
    let skipped_for = skipping.elapsed();
    for d in &live {
        table.auto(*d, false);
    }
    let settle = Instant::now() + Duration::from_millis(500);
    table.until(Duration::from_secs(5), "a quiet table", |_| {
        Instant::now() >= settle
    });
    let target = live.iter().map(|d| table.step(*d)).max().unwrap_or(0);
    let missed = target - left_at;
    println!(
        "(the table went on without seat {gone} for {missed} steps in {:.1} s, voting to skip it at each)",
        skipped_for.as_secs_f64()
    );
    // Time to attach a profiler to this process before the restart, if asked (and the
    // same quiet time after the catch-up, so that a profile holds the catch-up alone).
    let pause = Duration::from_millis(u64::from(env("HOARD_BENCH_PAUSE_MS", 0)));
    // The same return is timed several times: between trials the seat stops again and its
    // data directory goes back to what it held when it left, so every trial starts the
    // same number of steps behind with the same store. (The machine is shared by six devices, and one
    // trial alone varies by a third from run to run.)
    let trials = env("HOARD_BENCH_TRIALS", 5).max(1);
    let left_with = scratch.path.join("left-with");
    copy_dir(&table.data_dir(gone), &left_with);
    let mut times = Vec::new();
    for trial in 0..trials {
        if trial > 0 {
            table.stop(gone);
            std::thread::sleep(Duration::from_millis(300));
            if std::env::var("HOARD_BENCH_KEEP").is_err() {
                let _ = std::fs::remove_dir_all(table.data_dir(gone));
                copy_dir(&left_with, &table.data_dir(gone));
            }
            table.forget(gone);
        }
        std::thread::sleep(pause);
        let back = Instant::now();
        table.restart(gone);
        table.until(Duration::from_secs(120), "the returning seat", |t| {
            t.step(gone) >= target
        });
        times.push(back.elapsed());
        std::thread::sleep(pause);
    }
    let ms: Vec<String> = times
        .iter()
        .map(|t| format!("{:.1}", t.as_secs_f64() * 1000.0))
        .collect();
    times.sort();
    let median = percentile(&times, 0.5);
    println!(
        "catch-up: seat {gone} back {missed} steps behind: every step applied {:.1} ms after its restart, \
         median of {trials} (each: {} ms; endpoint bound on its old port, store read, peers reached, \
         missed messages verified and saved)",
        median.as_secs_f64() * 1000.0,
        ms.join(", ")
    );
    println!("    = {}", yard.times(median, yard.trip.0));

    // The game then ends the same everywhere, verified.
    for d in &all {
        table.auto(*d, true);
    }
    table.until(Duration::from_secs(300), "every audit", |t| {
        t.last
            .iter()
            .all(|s| s.as_ref().is_some_and(|s| s.verified.is_some()))
    });
    let first = table.last[0].clone().map(|s| (s.step, s.state));
    let agree = table
        .last
        .iter()
        .flatten()
        .all(|s| s.verified == Some(true) && Some((s.step, s.state)) == first);
    println!(
        "game over at step {}: {}",
        first.map_or(0, |f| f.0),
        if agree {
            "all 6 seats agree, audit verified"
        } else {
            "SEATS DISAGREE OR AUDIT FAILED"
        }
    );
    assert!(
        agree,
        "the benchmark's game did not end verified and equal everywhere"
    );
}
