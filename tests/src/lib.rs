//! Helpers for end-to-end tests: peer processes that are always killed (even when a test
//! fails), their output as lines with timeouts, the parsed `RESULT` line, scratch
//! directories that clean up, and in-process devices driven through the handle.

#[cfg(target_os = "linux")]
pub mod browser;
#[cfg(target_os = "linux")]
pub mod cables;
pub mod netns;
pub mod procs;
pub mod rounds;
pub mod table;

use hoard_net::handle::{DeviceConfig, DeviceHandle, GameView, Network, Update};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A directory under the system temp dir, removed on drop.
pub struct Scratch {
    pub path: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let path =
            std::env::temp_dir().join(format!("hoard-{label}-{}-{nanos}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path)
            .unwrap_or_else(|e| panic!("cannot make {}: {e}", path.display()));
        Scratch { path }
    }

    pub fn dir(&self, name: &str) -> PathBuf {
        self.path.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.path);
    }
}

/// One line a peer printed, tagged with the peer's name.
#[derive(Debug, Clone)]
pub struct Line {
    pub peer: String,
    pub text: String,
    pub stderr: bool,
}

/// A peer process running the headless CLI. Killed on drop.
pub struct Peer {
    pub name: String,
    pub child: Child,
    pub data_dir: PathBuf,
    pub args: Vec<String>,
    /// The words the command runs under (for example `ip netns exec NS`), kept for a restart.
    pub launcher: Vec<String>,
}

impl Peer {
    /// Starts `bin` with `args` plus `--data-dir <data_dir>`; every output line goes to
    /// `lines`.
    pub fn spawn(
        bin: &Path,
        name: &str,
        args: &[String],
        data_dir: &Path,
        lines: &mpsc::Sender<Line>,
    ) -> Peer {
        Peer::spawn_via(&[], bin, name, args, data_dir, lines)
    }

    /// As [`Peer::spawn`], with the command run under `launcher` (its first word the
    /// program, `bin` and the arguments after the rest).
    pub fn spawn_via(
        launcher: &[String],
        bin: &Path,
        name: &str,
        args: &[String],
        data_dir: &Path,
        lines: &mpsc::Sender<Line>,
    ) -> Peer {
        let mut all: Vec<String> = launcher.iter().skip(1).cloned().collect();
        all.push(bin.display().to_string());
        all.extend(args.iter().cloned());
        all.push("--data-dir".into());
        all.push(data_dir.display().to_string());
        let program = launcher
            .first()
            .map(PathBuf::from)
            .unwrap_or_else(|| bin.to_path_buf());
        if launcher.is_empty() {
            all.remove(0);
        }
        let mut child = Command::new(&program)
            .args(&all)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", bin.display()));
        for (pipe, stderr) in [
            (
                child
                    .stdout
                    .take()
                    .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
                false,
            ),
            (
                child
                    .stderr
                    .take()
                    .map(|p| Box::new(p) as Box<dyn std::io::Read + Send>),
                true,
            ),
        ] {
            let Some(pipe) = pipe else { continue };
            let tx = lines.clone();
            let peer = name.to_string();
            std::thread::spawn(move || {
                for text in BufReader::new(pipe).lines().map_while(Result::ok) {
                    if tx
                        .send(Line {
                            peer: peer.clone(),
                            text,
                            stderr,
                        })
                        .is_err()
                    {
                        break;
                    }
                }
            });
        }
        Peer {
            name: name.to_string(),
            child,
            data_dir: data_dir.to_path_buf(),
            args: args.to_vec(),
            launcher: launcher.to_vec(),
        }
    }

    /// SIGKILL: no goodbye, no flush — the process just stops.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Whether it exited, and how.
    pub fn exit_code(&mut self) -> Option<i32> {
        self.child
            .try_wait()
            .ok()
            .flatten()
            .map(|s| s.code().unwrap_or(-1))
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The final line a peer prints.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    pub session: String,
    pub step: u32,
    pub state: String,
    pub audit: String,
    pub rest: String,
}

impl GameResult {
    /// Parses `RESULT session=.. step=.. state=.. audit=.. ...`.
    pub fn parse(line: &str) -> Option<GameResult> {
        let rest = line.strip_prefix("RESULT ")?;
        let mut session = None;
        let mut step = None;
        let mut state = None;
        let mut audit = None;
        for part in rest.split(' ') {
            if let Some(v) = part.strip_prefix("session=") {
                session = Some(v.to_string());
            } else if let Some(v) = part.strip_prefix("step=") {
                step = v.parse().ok();
            } else if let Some(v) = part.strip_prefix("state=") {
                state = Some(v.to_string());
            } else if let Some(v) = part.strip_prefix("audit=") {
                audit = Some(v.to_string());
            }
        }
        Some(GameResult {
            session: session?,
            step: step?,
            state: state?,
            audit: audit?,
            rest: rest.to_string(),
        })
    }
}

/// Waits for a line matching `pick`, up to `deadline`; every line seen is kept in `seen`
/// (for the failure message).
pub fn wait_line<T>(
    lines: &mpsc::Receiver<Line>,
    deadline: Instant,
    seen: &mut Vec<Line>,
    mut pick: impl FnMut(&Line) -> Option<T>,
) -> Option<T> {
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        match lines.recv_timeout(left) {
            Ok(line) => {
                let picked = pick(&line);
                seen.push(line);
                if picked.is_some() {
                    return picked;
                }
            }
            Err(_) => return None,
        }
    }
}

/// The last `n` lines seen, for a failure message.
pub fn tail(seen: &[Line], n: usize) -> String {
    seen.iter()
        .rev()
        .take(n)
        .rev()
        .map(|l| {
            format!(
                "[{}{}] {}",
                l.peer,
                if l.stderr { " err" } else { "" },
                l.text
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `test` on a thread and fails if it takes longer than `limit` (the peers it
/// started are dropped, and so killed, when the test thread unwinds or the process exits).
pub fn with_timeout(limit: Duration, test: impl FnOnce() + Send + 'static) {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        test();
        let _ = tx.send(());
    });
    match rx.recv_timeout(limit) {
        Ok(()) => {
            let _ = worker.join();
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
        }
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("the test did not finish within {limit:?}");
        }
    }
}

/// An in-process device on loopback, driven through the handle, for tests that need to
/// look inside (views, timing).
pub struct Device {
    pub handle: DeviceHandle,
    pub last: Option<GameView>,
    pub events: Vec<Update>,
}

impl Device {
    pub fn start(data_dir: &Path) -> Device {
        let handle = DeviceHandle::start(DeviceConfig::new(data_dir, Network::Loopback))
            .unwrap_or_else(|e| panic!("device did not start: {e}"));
        Device {
            handle,
            last: None,
            events: Vec::new(),
        }
    }

    /// Takes every queued event; remembers the latest game view.
    pub fn drain(&mut self) {
        while let Some(e) = self.handle.try_recv() {
            if let Update::Game(v) = &e {
                self.last = Some(v.clone());
            }
            self.events.push(e);
        }
    }

    /// Hosts a table named `name` (`seats`: a fixed number, or `None` for the game's
    /// default) and returns its join code.
    pub fn host(&mut self, name: &str, seats: Option<u8>) -> String {
        self.handle.send(hoard_net::handle::Command::HostTable {
            name: name.into(),
            seats,
        });
        self.wait_for(Duration::from_secs(30), |e| match e {
            Update::Ticket { ticket } => Some(ticket.clone()),
            _ => None,
        })
        .expect("a ticket")
    }

    /// Joins the table with join code `code`, waits to be seated, and says it is ready.
    pub fn sit_down(&mut self, code: &str) {
        self.handle.send(hoard_net::handle::Command::JoinTicket {
            ticket: code.to_string(),
        });
        self.wait_for(Duration::from_secs(30), |e| match e {
            Update::Lobby(l) if l.seats.iter().any(|s| s.me) => Some(()),
            _ => None,
        })
        .expect("the guest is seated");
        self.handle
            .send(hoard_net::handle::Command::Ready { ready: true });
    }

    /// Waits until `pick` finds something in an event, up to `limit`.
    pub fn wait_for<T>(
        &mut self,
        limit: Duration,
        mut pick: impl FnMut(&Update) -> Option<T>,
    ) -> Option<T> {
        let deadline = Instant::now() + limit;
        loop {
            let left = deadline.checked_duration_since(Instant::now())?;
            let e = self.handle.recv_timeout(left)?;
            if let Update::Game(v) = &e {
                self.last = Some(v.clone());
            }
            let found = pick(&e);
            self.events.push(e);
            if found.is_some() {
                return found;
            }
        }
    }
}
