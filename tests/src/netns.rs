//! Devices that can reach a relay and nothing else: each device in a network namespace of
//! its own, joined by one virtual cable to a hub namespace where the relay runs. The hub
//! forwards nothing, so no device can reach another directly; every byte between them goes
//! through the relay. Needs root (or user namespaces) and iproute2.
//!
//! ```text
//!   device 0 (10.201.1.2) ──┐
//!   device 1 (10.201.2.2) ──┼── hub: relay on 10.201.0.1, forwarding off
//!   device 2 (10.201.3.2) ──┘
//! ```

use std::process::Command;

/// The relay's address in the hub, reached by every device through its own cable.
pub const RELAY_IP: &str = "10.201.0.1";

/// The hub and device namespaces, removed on drop.
pub struct RelayNet {
    pub hub: String,
    pub devices: Vec<String>,
}

impl RelayNet {
    /// Makes the hub and `devices` device namespaces, or says why it cannot (no root, no
    /// `ip`, a sandbox that forbids namespaces).
    pub fn new(devices: usize) -> Result<RelayNet, String> {
        let tag = std::process::id() % 100_000;
        let net = RelayNet {
            hub: format!("hoard{tag}hub"),
            devices: (0..devices).map(|i| format!("hoard{tag}d{i}")).collect(),
        };
        // Leftovers of an earlier run with the same process id would make `add` fail.
        for ns in std::iter::once(&net.hub).chain(&net.devices) {
            let _ = ip(&["netns", "del", ns]);
        }
        ip(&["netns", "add", &net.hub])?;
        net.inside(&net.hub, &["link", "set", "lo", "up"])?;
        net.inside(
            &net.hub,
            &["addr", "add", &format!("{RELAY_IP}/32"), "dev", "lo"],
        )?;
        // A new namespace forwards nothing; say so anyway, since everything rests on it.
        sysctl(&net.hub, "net.ipv4.ip_forward", "0")?;
        for (i, ns) in net.devices.iter().enumerate() {
            let subnet = i + 1;
            let (hub_end, dev_end) = (format!("hoard{tag}h{i}"), format!("hoard{tag}v{i}"));
            ip(&["netns", "add", ns])?;
            // Only IPv4 on the cable, so no link-local IPv6 path is left to try.
            sysctl(ns, "net.ipv6.conf.all.disable_ipv6", "1")?;
            ip(&[
                "link", "add", &hub_end, "type", "veth", "peer", "name", &dev_end,
            ])?;
            ip(&["link", "set", &hub_end, "netns", &net.hub])?;
            ip(&["link", "set", &dev_end, "netns", ns])?;
            net.inside(
                &net.hub,
                &[
                    "addr",
                    "add",
                    &format!("10.201.{subnet}.1/24"),
                    "dev",
                    &hub_end,
                ],
            )?;
            net.inside(&net.hub, &["link", "set", &hub_end, "up"])?;
            net.inside(ns, &["link", "set", "lo", "up"])?;
            net.inside(
                ns,
                &[
                    "addr",
                    "add",
                    &format!("10.201.{subnet}.2/24"),
                    "dev",
                    &dev_end,
                ],
            )?;
            net.inside(ns, &["link", "set", &dev_end, "up"])?;
            net.inside(
                ns,
                &[
                    "route",
                    "add",
                    "default",
                    "via",
                    &format!("10.201.{subnet}.1"),
                ],
            )?;
        }
        Ok(net)
    }

    /// The words that run a command inside namespace `ns`.
    pub fn launcher(ns: &str) -> Vec<String> {
        ["ip", "netns", "exec", ns].map(String::from).to_vec()
    }

    /// Device `i`'s address on its cable.
    pub fn device_ip(i: usize) -> String {
        format!("10.201.{}.2", i + 1)
    }

    fn inside(&self, ns: &str, args: &[&str]) -> Result<(), String> {
        let mut all = vec!["netns", "exec", ns, "ip"];
        all.extend_from_slice(args);
        ip(&all)
    }
}

impl Drop for RelayNet {
    fn drop(&mut self) {
        // Deleting a namespace takes its end of every cable with it, and so the other end.
        for ns in self.devices.iter().chain(std::iter::once(&self.hub)) {
            let _ = ip(&["netns", "del", ns]);
        }
    }
}

/// Sets a kernel network setting inside `ns` (through /proc, which needs no `sysctl` tool).
fn sysctl(ns: &str, key: &str, value: &str) -> Result<(), String> {
    let path = format!("/proc/sys/{}", key.replace('.', "/"));
    ip(&[
        "netns",
        "exec",
        ns,
        "sh",
        "-c",
        &format!("echo {value} > {path}"),
    ])
}

/// `ip` with `args`; the error names the command and what it printed.
pub(crate) fn ip(args: &[&str]) -> Result<(), String> {
    let out = Command::new("ip")
        .args(args)
        .output()
        .map_err(|e| format!("cannot run ip: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "ip {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// The `hoard-relay` process, stopped on drop (its standard input closes).
pub struct RelayServer {
    child: std::process::Child,
    _stdin: Option<std::process::ChildStdin>,
    lines: std::sync::mpsc::Receiver<String>,
    /// Where devices reach it: `http://ADDRESS:PORT`.
    pub url: String,
    relayed: (u64, u64),
}

impl RelayServer {
    /// Starts `bin` under `launcher`, listening on `ip` (any free port), and waits for it
    /// to say where it listens.
    pub fn start(launcher: &[String], bin: &str, ip: &str) -> Result<RelayServer, String> {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut words: Vec<String> = launcher.to_vec();
        words.push(bin.to_string());
        words.push(format!("{ip}:0"));
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start {bin}: {e}"))?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().ok_or("the relay has no output")?;
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
            {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = RelayServer {
            child,
            _stdin: stdin,
            lines,
            url: String::new(),
            relayed: (0, 0),
        };
        let first = server
            .lines
            .recv_timeout(std::time::Duration::from_secs(20))
            .map_err(|_| "the relay did not start in 20 s".to_string())?;
        let addr = first
            .strip_prefix("RELAY ")
            .ok_or_else(|| format!("the relay said {first:?}"))?;
        server.url = format!("http://{addr}");
        Ok(server)
    }

    /// Datagrams and bytes the relay has passed between devices so far.
    pub fn relayed(&mut self) -> (u64, u64) {
        while let Ok(line) = self.lines.try_recv() {
            let mut words = line.split_whitespace();
            if words.next() == Some("RELAYED")
                && let (Some(Ok(packets)), Some(Ok(bytes))) =
                    (words.next().map(str::parse), words.next().map(str::parse))
            {
                self.relayed = (packets, bytes);
            }
        }
        self.relayed
    }
}

impl Drop for RelayServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Set in the run [`offline`] starts inside the namespace it makes.
const OFFLINE_CHILD: &str = "HOARD_OFFLINE_CHILD";

/// Whether anything beyond this machine can be reached: a UDP socket is connected (no
/// packet is sent) to a documentation address of each family, which fails with "network
/// unreachable" when there is no route.
pub fn any_route_out() -> bool {
    let reach = |to: &str| {
        let from = if to.starts_with('[') {
            "[::]:0"
        } else {
            "0.0.0.0:0"
        };
        std::net::UdpSocket::bind(from).is_ok_and(|s| s.connect(to).is_ok())
    };
    reach("198.51.100.1:9") || reach("[2001:db8::1]:9")
}

/// Runs the test `name` of the test file at `module` (its `module_path!()`) inside a fresh
/// network namespace holding only a loopback interface (`unshare --net`): a table with no
/// route out of this machine, as at a campsite. Returns `true` in that run (after bringing
/// loopback up and checking nothing else can be reached), where the test goes on; returns
/// `false` in the test's first run once the run inside has passed (it panics if it failed).
/// Where namespaces are forbidden the test runs where it is, and says so, unless
/// `HOARD_REQUIRE_NETNS=1` makes that a failure.
pub fn offline(module: &str, name: &str) -> bool {
    if std::env::var(OFFLINE_CHILD).is_ok() {
        ip(&["link", "set", "lo", "up"]).expect("loopback up in the namespace");
        assert!(!any_route_out(), "the namespace has a route out");
        return true;
    }
    // The test's full name in this binary: the module path without the crate.
    let module = module
        .split_once("::")
        .map_or(String::new(), |(_, path)| format!("{path}::"));
    let test = format!("{module}{name}");
    let exe = std::env::current_exe().expect("the test binary's path");
    let out = Command::new("unshare")
        .args(["--net", "--"])
        .arg(&exe)
        .args([
            "--exact",
            &test,
            "--include-ignored",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(OFFLINE_CHILD, "1")
        // A build inside (the page's) must not wait for a network it cannot have.
        .env("CARGO_NET_OFFLINE", "true")
        .output();
    let required = std::env::var("HOARD_REQUIRE_NETNS").is_ok_and(|v| v == "1");
    let refused = |why: &str| {
        assert!(!required, "no network namespace for {test}: {why}");
        eprintln!(
            "NOT OFFLINE: no network namespace here ({why}); {test} runs on this machine's loopback"
        );
        true
    };
    let out = match out {
        Ok(out) => out,
        Err(e) => return refused(&format!("unshare: {e}")),
    };
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    if stderr.contains("unshare failed") || stderr.contains("Operation not permitted") {
        return refused(stderr.trim());
    }
    println!("{stdout}");
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "{test} failed inside a namespace with no route out"
    );
    assert!(
        stdout.contains("1 passed"),
        "{test} did not run inside the namespace"
    );
    false
}
