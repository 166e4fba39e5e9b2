//! A table of peer processes (the headless `hoard` CLI) on loopback: a host and its guests,
//! each with its own data directory, their lines merged into one stream; a peer can be
//! killed at a step and started again from its data directory, and every peer's `RESULT`
//! line is collected and compared.

use crate::{GameResult, Line, Peer, Scratch, tail, wait_line};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

pub struct ProcTable {
    pub peers: Vec<Peer>,
    /// Every line seen so far, for failure messages.
    pub seen: Vec<Line>,
    lines: mpsc::Receiver<Line>,
    bin: PathBuf,
}

impl ProcTable {
    /// Starts the host with `host_args`, waits for its join code, and starts one guest per
    /// entry of `guests` (its name), each with the arguments `join(ticket)` gives.
    pub fn start(
        bin: &str,
        scratch: &Scratch,
        host_args: &[String],
        guests: &[String],
        join: impl Fn(&str) -> Vec<String>,
    ) -> ProcTable {
        ProcTable::start_via(&[], bin, scratch, host_args, guests, join)
    }

    /// As [`ProcTable::start`], with peer `i` (0 the host) run under `launchers[i]` (for
    /// example in a network namespace); a peer with no launcher runs directly.
    pub fn start_via(
        launchers: &[Vec<String>],
        bin: &str,
        scratch: &Scratch,
        host_args: &[String],
        guests: &[String],
        join: impl Fn(&str) -> Vec<String>,
    ) -> ProcTable {
        let (tx, lines) = mpsc::channel();
        let bin = PathBuf::from(bin);
        let launcher = |i: usize| launchers.get(i).cloned().unwrap_or_default();
        let host = Peer::spawn_via(
            &launcher(0),
            &bin,
            "host",
            host_args,
            &scratch.dir("host"),
            &tx,
        );
        let mut seen = Vec::new();
        let ticket = wait_line(
            &lines,
            Instant::now() + Duration::from_secs(30),
            &mut seen,
            |l| {
                (l.peer == "host" && !l.stderr)
                    .then(|| l.text.strip_prefix("TICKET ").map(str::to_string))
                    .flatten()
            },
        )
        .unwrap_or_else(|| panic!("the host printed no join code:\n{}", tail(&seen, 30)));
        let mut peers = vec![host];
        for (i, name) in guests.iter().enumerate() {
            peers.push(Peer::spawn_via(
                &launcher(i + 1),
                &bin,
                name,
                &join(&ticket),
                &scratch.dir(name),
                &tx,
            ));
        }
        // Later peers (restarted ones) send on clones of `tx`, kept by the forwarder below.
        let (merged_tx, merged) = mpsc::channel();
        std::thread::spawn(move || {
            while let Ok(line) = lines.recv() {
                if merged_tx.send(line).is_err() {
                    break;
                }
            }
        });
        ProcTable {
            peers,
            seen,
            lines: merged,
            bin,
        }
    }

    /// Waits until peer `victim` reports step `step` or later, then kills it (SIGKILL),
    /// waits a moment and starts it again from its data directory. Returns whether the
    /// restarted peer said it resumed the game (checked while collecting results).
    pub fn kill_at_step(&mut self, victim: usize, step: u32, limit: Duration) {
        let name = self.peers[victim].name.clone();
        self.until_step(&name, step, limit);
        self.peers[victim].kill();
        // Whatever the killed process printed but did not flush is gone with it.
        std::thread::sleep(Duration::from_millis(300));
        let (tx, rx) = mpsc::channel::<Line>();
        let old = &self.peers[victim];
        let restarted = Peer::spawn_via(
            &old.launcher.clone(),
            Path::new(&self.bin),
            &name,
            &old.args.clone(),
            &old.data_dir.clone(),
            &tx,
        );
        self.peers[victim] = restarted;
        let (merged_tx, merged) = mpsc::channel();
        let old_lines = std::mem::replace(&mut self.lines, merged);
        for source in [old_lines, rx] {
            let tx = merged_tx.clone();
            std::thread::spawn(move || {
                while let Ok(line) = source.recv() {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
        }
    }

    /// Waits until peer `name` reports step `step` or later, up to `limit`.
    pub fn until_step(&mut self, name: &str, step: u32, limit: Duration) {
        let reached = self.wait(Instant::now() + limit, |l| {
            (l.peer == name
                && l.text
                    .strip_prefix("STEP ")
                    .and_then(|s| s.parse::<u32>().ok())
                    .is_some_and(|s| s >= step))
            .then_some(())
        });
        assert!(
            reached.is_some(),
            "{name} never reached step {step}:\n{}",
            tail(&self.seen, 40)
        );
    }

    /// The first line `pick` takes, up to `deadline`, every line seen on the way kept in
    /// [`ProcTable::seen`].
    pub fn wait<T>(
        &mut self,
        deadline: Instant,
        pick: impl FnMut(&Line) -> Option<T>,
    ) -> Option<T> {
        wait_line(&self.lines, deadline, &mut self.seen, pick)
    }

    /// One `RESULT` per peer (the latest a peer printed), up to `limit`; `also` sees every
    /// line on the way.
    pub fn results(
        &mut self,
        limit: Duration,
        mut also: impl FnMut(&Line),
    ) -> Vec<(String, GameResult)> {
        let deadline = Instant::now() + limit;
        let mut got: Vec<(String, GameResult)> = Vec::new();
        while got.len() < self.peers.len() {
            let Some((peer, result)) = wait_line(&self.lines, deadline, &mut self.seen, |l| {
                also(l);
                GameResult::parse(&l.text).map(|r| (l.peer.clone(), r))
            }) else {
                panic!(
                    "only {} of {} peers finished in time:\n{}",
                    got.len(),
                    self.peers.len(),
                    tail(&self.seen, 60)
                );
            };
            got.retain(|(p, _)| *p != peer);
            got.push((peer, result));
        }
        got
    }

    /// Every peer verified the same game: the same session, step and state hash.
    pub fn assert_agree(&self, results: &[(String, GameResult)], min_steps: u32) {
        let (first_peer, first) = &results[0];
        for (peer, r) in results {
            assert_eq!(
                r.audit,
                "verified",
                "{peer}'s audit: {}\n{}",
                r.rest,
                tail(&self.seen, 40)
            );
            assert_eq!(
                (&r.session, r.step, &r.state),
                (&first.session, first.step, &first.state),
                "{peer} and {first_peer} ended differently"
            );
        }
        assert!(
            first.step > min_steps,
            "a full game takes more than {} steps",
            first.step
        );
    }
}

/// A whole game on separate processes with one guest killed and restarted: the host runs
/// `host` (its arguments, without `--data-dir`), `guests` guests join it as bots, guest
/// `victim` (1-based, among the peers) is SIGKILLed once it reaches step `kill_at` and
/// started again from its data directory. Asserts the guest resumed and every peer ended on
/// the same verified game of more than `min_steps` steps; returns the host's `LOG` lines and
/// the final step.
pub fn game_through_a_kill(
    bin: &str,
    label: &str,
    host: &str,
    guests: usize,
    victim: usize,
    kill_at: u32,
    min_steps: u32,
) -> (Vec<String>, u32) {
    let on_loopback = Launch {
        bin: bin.into(),
        guest_network: "--loopback".into(),
        launchers: Vec::new(),
    };
    game_through_a_kill_via(
        &on_loopback,
        label,
        host,
        guests,
        victim,
        kill_at,
        min_steps,
    )
}

/// Where a table's peer processes run and how the guests reach the network.
pub struct Launch {
    /// The peer program (the headless `hoard` CLI).
    pub bin: String,
    /// The guests' network flags (`--loopback`, `--relay-url URL`).
    pub guest_network: String,
    /// Each peer's launcher by index, 0 the host (see [`ProcTable::start_via`]).
    pub launchers: Vec<Vec<String>>,
}

/// [`game_through_a_kill`] with the peers launched as `launch` says.
pub fn game_through_a_kill_via(
    launch: &Launch,
    label: &str,
    host: &str,
    guests: usize,
    victim: usize,
    kill_at: u32,
    min_steps: u32,
) -> (Vec<String>, u32) {
    let scratch = Scratch::new(label);
    let words = |text: &str| -> Vec<String> { text.split_whitespace().map(String::from).collect() };
    let names: Vec<String> = (1..=guests).map(|i| format!("guest{i}")).collect();
    let join = |ticket: &str| {
        words(&format!(
            "join {ticket} --bot {} --timeout 260",
            launch.guest_network
        ))
    };
    let mut table = ProcTable::start_via(
        &launch.launchers,
        &launch.bin,
        &scratch,
        &words(host),
        &names,
        join,
    );
    let name = table.peers[victim].name.clone();
    table.kill_at_step(victim, kill_at, Duration::from_secs(120));
    let mut resumed = false;
    let mut log = Vec::new();
    let got = table.results(Duration::from_secs(200), |l| {
        if l.peer == name && l.text.contains("resuming the unfinished game") {
            resumed = true;
        }
        if l.peer == "host"
            && let Some(line) = l.text.strip_prefix("LOG ")
        {
            log.push(line.to_string());
        }
    });
    assert!(
        resumed,
        "{name} did not resume from its data dir:\n{}",
        tail(&table.seen, 40)
    );
    table.assert_agree(&got, min_steps);
    (log, got[0].1.step)
}
