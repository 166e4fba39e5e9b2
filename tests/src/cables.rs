//! Devices on a bad Wi-Fi: each device in a network namespace of its own, its one network
//! interface a TUN device whose packets this process carries to the others, as a faulty
//! cable would: lost in bursts, delayed with jitter (and so reordered), now and then
//! duplicated, held to a bandwidth, or not carried at all while the cable is down. The
//! kernel's own `netem` would do this in the kernel, but kernels built without it (the
//! machines Hoard is tested on are such) have only this.
//!
//! ```text
//!   device 0 (10.203.0.10) ─ tun ─┐
//!   device 1 (10.203.0.11) ─ tun ─┼─ this process: loss, delay, duplication, rate, cuts
//!   device 2 (10.203.0.12) ─ tun ─┘
//! ```
//!
//! Packets go where their IPv4 destination says (each device's address is learned from what
//! it sends, so a device that comes back with a new address is found again); multicast goes
//! to every other device. Needs root and `/dev/net/tun`.

use crate::netns::ip;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How a device's cable treats what the device sends.
#[derive(Clone, Copy, Debug)]
pub struct Faults {
    /// Gilbert–Elliott loss: the chance a packet sent in the good state moves the cable to
    /// the bad one, where every packet is lost, and the chance of moving back. The loss
    /// rate is `to_bad / (to_bad + to_good)`; the mean burst `1 / to_good` packets.
    pub to_bad: f64,
    pub to_good: f64,
    /// Each packet is delayed by `delay` ± `jitter` (uniform), so packets overtake.
    pub delay: Duration,
    pub jitter: Duration,
    /// The chance a packet arrives twice.
    pub duplicate: f64,
    /// Bits per second the cable carries; a packet waits for those before it.
    pub rate: u64,
}

impl Faults {
    /// A perfect cable.
    pub const NONE: Faults = Faults {
        to_bad: 0.0,
        to_good: 1.0,
        delay: Duration::ZERO,
        jitter: Duration::ZERO,
        duplicate: 0.0,
        rate: 1_000_000_000,
    };

    /// A poor home Wi-Fi: 5% of packets lost in bursts of four on average, 40 ± 30 ms, 1%
    /// duplicated (and reordered by the jitter), 20 Mbit/s.
    pub const BAD_WIFI: Faults = Faults {
        to_bad: 0.25 * 0.05 / 0.95,
        to_good: 0.25,
        delay: Duration::from_millis(40),
        jitter: Duration::from_millis(30),
        duplicate: 0.01,
        rate: 20_000_000,
    };
}

/// The device namespaces and the process carrying their packets; the namespaces are
/// removed on drop, and the carrier stops.
pub struct Cables {
    pub devices: Vec<String>,
    control: Arc<Mutex<Control>>,
    stop: Arc<AtomicBool>,
    tun: Vec<String>,
}

struct Control {
    faults: Vec<Faults>,
    down: Vec<bool>,
    /// Packets carried and lost, over all cables.
    carried: u64,
    lost: u64,
}

/// A packet on its way: when it arrives, where, and what.
struct InFlight {
    at: Instant,
    seq: u64,
    to: usize,
    bytes: Vec<u8>,
}

impl PartialEq for InFlight {
    fn eq(&self, other: &Self) -> bool {
        (self.at, self.seq) == (other.at, other.seq)
    }
}
impl Eq for InFlight {}
impl PartialOrd for InFlight {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for InFlight {
    // The earliest first out of a max-heap.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (other.at, other.seq).cmp(&(self.at, self.seq))
    }
}

impl Cables {
    /// Makes `devices` namespaces, each with its cable (perfect until [`Cables::set`]), or
    /// says why it cannot (no root, no TUN, no namespaces).
    pub fn new(devices: usize, seed: u64) -> Result<Cables, String> {
        let tag = std::process::id() % 100_000;
        let names: Vec<String> = (0..devices).map(|i| format!("hoard{tag}w{i}")).collect();
        let tun: Vec<String> = (0..devices).map(|i| format!("hw{tag}t{i}")).collect();
        let control = Arc::new(Mutex::new(Control {
            faults: vec![Faults::NONE; devices],
            down: vec![false; devices],
            carried: 0,
            lost: 0,
        }));
        let stop = Arc::new(AtomicBool::new(false));
        // Made first, so that whatever is set up is taken down again if a step fails.
        let cables = Cables {
            devices: names,
            control: control.clone(),
            stop: stop.clone(),
            tun,
        };
        let mut files = Vec::new();
        for (i, ns) in cables.devices.iter().enumerate() {
            let _ = ip(&["netns", "del", ns]);
            ip(&["netns", "add", ns])?;
            let file = open_tun(&cables.tun[i])?;
            ip(&["link", "set", &cables.tun[i], "netns", ns])?;
            inside(ns, &["ip", "link", "set", "lo", "up"])?;
            inside(
                ns,
                &[
                    "sh",
                    "-c",
                    "echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6",
                ],
            )?;
            inside(
                ns,
                &[
                    "ip",
                    "addr",
                    "add",
                    &format!("{}/24", device_ip(i, 0)),
                    "dev",
                    &cables.tun[i],
                ],
            )?;
            inside(ns, &["ip", "link", "set", &cables.tun[i], "up"])?;
            // mDNS and the like go out on the cable too.
            inside(
                ns,
                &["ip", "route", "add", "224.0.0.0/4", "dev", &cables.tun[i]],
            )?;
            files.push(file);
        }
        carry(files, control, stop, seed)?;
        Ok(cables)
    }

    /// The words that run a command on device `i`.
    pub fn launcher(&self, i: usize) -> Vec<String> {
        ["ip", "netns", "exec", &self.devices[i]]
            .map(String::from)
            .to_vec()
    }

    /// Sets how device `i`'s cable treats what it sends.
    pub fn set(&self, i: usize, faults: Faults) {
        self.control
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .faults[i] = faults;
    }

    /// Unplugs device `i`'s cable (nothing to or from it is carried) or plugs it back.
    pub fn plug(&self, i: usize, plugged: bool) {
        self.control.lock().unwrap_or_else(|e| e.into_inner()).down[i] = !plugged;
    }

    /// Gives device `i` address number `n` in place of its old one, as a phone that joins
    /// the Wi-Fi again may get.
    pub fn readdress(&self, i: usize, n: u8) -> Result<(), String> {
        let (ns, tun) = (&self.devices[i], &self.tun[i]);
        inside(ns, &["ip", "addr", "flush", "dev", tun])?;
        inside(
            ns,
            &[
                "ip",
                "addr",
                "add",
                &format!("{}/24", device_ip(i, n)),
                "dev",
                tun,
            ],
        )?;
        inside(ns, &["ip", "route", "replace", "224.0.0.0/4", "dev", tun])
    }

    /// Packets carried and lost so far.
    pub fn counts(&self) -> (u64, u64) {
        let c = self.control.lock().unwrap_or_else(|e| e.into_inner());
        (c.carried, c.lost)
    }
}

impl Drop for Cables {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for ns in &self.devices {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

/// Device `i`'s address: its first (`n` = 0), or the `n`th it was given after that.
pub fn device_ip(i: usize, n: u8) -> String {
    format!("10.203.0.{}", 10 + i + 50 * usize::from(n))
}

/// Opens a new TUN interface `name` (IPv4 packets, no extra header).
fn open_tun(name: &str) -> Result<File, String> {
    const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
    const IFF_TUN: libc::c_short = 0x0001;
    const IFF_NO_PI: libc::c_short = 0x1000;
    #[repr(C)]
    struct IfReq {
        name: [u8; 16],
        flags: libc::c_short,
        pad: [u8; 22],
    }
    if name.len() >= 16 {
        return Err(format!("{name}: an interface name has at most 15 letters"));
    }
    let mut req = IfReq {
        name: [0; 16],
        flags: IFF_TUN | IFF_NO_PI,
        pad: [0; 22],
    };
    req.name[..name.len()].copy_from_slice(name.as_bytes());
    // SAFETY: a plain open of a device file; the descriptor is owned by the File below.
    let fd = unsafe { libc::open(c"/dev/net/tun".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC) };
    if fd < 0 {
        return Err(format!(
            "cannot open /dev/net/tun: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: `fd` is a fresh, open descriptor no one else owns.
    let file = unsafe { File::from_raw_fd(fd) };
    // SAFETY: TUNSETIFF reads and writes one `ifreq`, which `req` is laid out as.
    if unsafe { libc::ioctl(fd, TUNSETIFF, &mut req as *mut IfReq) } < 0 {
        return Err(format!(
            "cannot make the TUN interface {name}: {}",
            std::io::Error::last_os_error()
        ));
    }
    Ok(file)
}

/// Reads every cable on a thread of its own and carries each packet, with its sender's
/// faults, from one thread that holds the packets in flight.
fn carry(
    files: Vec<File>,
    control: Arc<Mutex<Control>>,
    stop: Arc<AtomicBool>,
    seed: u64,
) -> Result<(), String> {
    let (tx, rx) = mpsc::channel::<(usize, Vec<u8>)>();
    let mut writers = Vec::new();
    for (i, file) in files.into_iter().enumerate() {
        writers.push(file.try_clone().map_err(|e| e.to_string())?);
        let (tx, stop) = (tx.clone(), stop.clone());
        let mut file = file;
        std::thread::spawn(move || {
            let mut buf = vec![0u8; 65_536];
            while !stop.load(Ordering::Relaxed) {
                match file.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => {
                        if tx.send((i, buf[..n].to_vec())).is_err() {
                            break;
                        }
                    }
                }
            }
        });
    }
    std::thread::spawn(move || {
        let n = writers.len();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut bad = vec![false; n];
        let mut free_at = vec![Instant::now(); n];
        let mut owner: HashMap<[u8; 4], usize> = HashMap::new();
        let mut flight: BinaryHeap<InFlight> = BinaryHeap::new();
        let mut seq = 0u64;
        let uniform = |rng: &mut ChaCha8Rng| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        while !stop.load(Ordering::Relaxed) {
            let now = Instant::now();
            while flight.peek().is_some_and(|p| p.at <= now) {
                let Some(p) = flight.pop() else { break };
                let down = control.lock().unwrap_or_else(|e| e.into_inner()).down[p.to];
                if !down {
                    let _ = writers[p.to].write(&p.bytes);
                }
            }
            let wait = flight.peek().map_or(Duration::from_millis(20), |p| {
                p.at.saturating_duration_since(now)
            });
            let (from, bytes) = match rx.recv_timeout(wait.min(Duration::from_millis(20))) {
                Ok(got) => got,
                Err(mpsc::RecvTimeoutError::Timeout) => continue,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            // IPv4 only: version 4, source at 12..16, destination at 16..20.
            if bytes.len() < 20 || bytes[0] >> 4 != 4 {
                continue;
            }
            let src: [u8; 4] = bytes[12..16].try_into().unwrap_or_default();
            let dst: [u8; 4] = bytes[16..20].try_into().unwrap_or_default();
            owner.insert(src, from);
            let to: Vec<usize> = if (224..240).contains(&dst[0]) || dst == [255; 4] {
                (0..n).filter(|j| *j != from).collect()
            } else {
                owner.get(&dst).copied().into_iter().collect()
            };
            let (faults, down) = {
                let c = control.lock().unwrap_or_else(|e| e.into_inner());
                (c.faults[from], c.down[from])
            };
            // Gilbert–Elliott: the state moves, then the packet goes or is lost in it.
            bad[from] = if bad[from] {
                uniform(&mut rng) >= faults.to_good
            } else {
                uniform(&mut rng) < faults.to_bad
            };
            let lost = down || bad[from] || to.is_empty();
            {
                let mut c = control.lock().unwrap_or_else(|e| e.into_inner());
                if lost {
                    c.lost += 1;
                } else {
                    c.carried += 1;
                }
            }
            if lost {
                continue;
            }
            // The cable's bandwidth: the packet leaves once those before it have.
            let wire = Duration::from_nanos(bytes.len() as u64 * 8 * 1_000_000_000 / faults.rate);
            free_at[from] = free_at[from].max(now) + wire;
            let copies = if uniform(&mut rng) < faults.duplicate {
                2
            } else {
                1
            };
            for _ in 0..copies {
                let spread = faults.jitter.as_secs_f64() * (2.0 * uniform(&mut rng) - 1.0);
                let delay = (faults.delay.as_secs_f64() + spread).max(0.0);
                let at = free_at[from] + Duration::from_secs_f64(delay);
                for j in &to {
                    seq += 1;
                    flight.push(InFlight {
                        at,
                        seq,
                        to: *j,
                        bytes: bytes.clone(),
                    });
                }
            }
        }
    });
    Ok(())
}

/// Runs `words` inside namespace `ns`.
fn inside(ns: &str, words: &[&str]) -> Result<(), String> {
    let mut all = vec!["netns", "exec", ns];
    all.extend_from_slice(words);
    ip(&all)
}
