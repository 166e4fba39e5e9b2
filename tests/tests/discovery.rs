//! Table discovery over mDNS, on a LAN with no internet: a table one device opens appears
//! in another device's list by itself, can be joined by picking it, and leaves the list
//! when its host closes it.
//!
//! mDNS is multicast, and the tests must not send anything off this machine, so the test
//! runs inside a fresh network namespace holding only a loopback interface with multicast
//! switched on (`unshare --net`, then `ip link set lo multicast on` and a route for
//! 224.0.0.0/4). That needs root (or user namespaces) and iproute2; where the sandbox
//! forbids namespaces the test says so and is skipped, unless `HOARD_REQUIRE_NETNS=1`
//! makes that a failure.

use hoard_net::handle::{Command, DeviceConfig, DeviceHandle, Network, Update};
use hoard_tests::{Scratch, with_timeout};
use std::process::Command as Process;
use std::time::{Duration, Instant};

const CHILD: &str = "HOARD_NETNS_CHILD";

#[test]
fn a_table_opened_on_the_lan_is_listed_joined_and_withdrawn() {
    let exe = std::env::current_exe().expect("test binary path");
    // The inner test's full name in this binary: this file's module path without the crate
    // (nothing, when the file is a test binary of its own).
    let module = module_path!()
        .split_once("::")
        .map_or(String::new(), |(_, path)| format!("{path}::"));
    let inner = format!("{module}inside_a_loopback_only_namespace");
    let out = Process::new("unshare")
        .args(["--net", "--"])
        .arg(&exe)
        .args(["--exact", &inner, "--ignored", "--nocapture"])
        .env(CHILD, "1")
        .output();
    let required = std::env::var("HOARD_REQUIRE_NETNS").is_ok_and(|v| v == "1");
    let out = match out {
        Ok(out) => out,
        Err(e) => {
            assert!(!required, "unshare could not run: {e}");
            eprintln!(
                "SKIPPED: discovery needs `unshare` (util-linux) to make a network namespace: {e}"
            );
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("unshare failed") || stderr.contains("Operation not permitted") {
        assert!(!required, "no network namespace here:\n{stderr}");
        eprintln!(
            "SKIPPED: this sandbox does not allow a network namespace, so mDNS discovery was not tested:\n{stderr}"
        );
        return;
    }
    println!("{stdout}");
    assert!(
        out.status.success(),
        "discovery inside the namespace failed:\n{stdout}\n{stderr}"
    );
    assert!(
        stdout.contains("1 passed"),
        "the inner test did not run:\n{stdout}\n{stderr}"
    );
}

fn ip(args: &str) {
    let status = Process::new("ip")
        .args(args.split(' '))
        .status()
        .unwrap_or_else(|e| panic!("ip {args}: {e}"));
    assert!(status.success(), "ip {args} failed");
}

/// Waits for the first event `pick` likes.
fn wait<T>(
    handle: &DeviceHandle,
    limit: Duration,
    mut pick: impl FnMut(&Update) -> Option<T>,
) -> Option<T> {
    let deadline = Instant::now() + limit;
    loop {
        let left = deadline.checked_duration_since(Instant::now())?;
        if let Some(found) = handle.recv_timeout(left).as_ref().and_then(&mut pick) {
            return Some(found);
        }
    }
}

#[test]
#[ignore = "runs only inside the namespace made by a_table_opened_on_the_lan_is_listed_joined_and_withdrawn"]
fn inside_a_loopback_only_namespace() {
    if std::env::var(CHILD).is_err() {
        return;
    }
    ip("link set lo up");
    ip("link set lo multicast on");
    ip("route add 224.0.0.0/4 dev lo");
    with_timeout(Duration::from_secs(60), || {
        let scratch = Scratch::new("discovery");
        let host = DeviceHandle::start(DeviceConfig::new(scratch.dir("host"), Network::Lan))
            .expect("host");
        let guest = DeviceHandle::start(DeviceConfig::new(scratch.dir("guest"), Network::Lan))
            .expect("guest");
        host.send(Command::SetProfile {
            name: "Mia".into(),
            colour: [200, 40, 40],
        });
        let opened = Instant::now();
        host.send(Command::HostTable {
            name: "Friday night".into(),
            seats: Some(4),
        });
        host.send(Command::AddBot);
        let table = wait(&guest, Duration::from_secs(15), |e| match e {
            Update::Tables(list) => list.iter().find(|t| t.name == "Friday night").cloned(),
            _ => None,
        })
        .expect("the open table appears in the other device's list");
        println!("listed after {:?}: {table:?}", opened.elapsed());
        assert_eq!(table.id.0, host.me());
        assert_eq!(table.host_name, "Mia");
        assert_eq!(table.game, "greedquest");
        assert!(table.compatible());
        assert!(
            table.seats_taken >= 1 && table.seats_total == 4,
            "{table:?}"
        );

        // Picking it from the list seats the guest: the address comes from mDNS.
        guest.send(Command::JoinTable { table: table.id });
        let lobby = wait(&guest, Duration::from_secs(15), |e| match e {
            Update::Lobby(l) if l.seats.iter().any(|s| s.me) => Some(l.clone()),
            _ => None,
        })
        .expect("joined by picking the table");
        assert_eq!(lobby.table_name, "Friday night");
        println!("joined from the list after {:?}", opened.elapsed());

        // Closing the table takes it off the list.
        host.send(Command::LeaveTable);
        wait(&guest, Duration::from_secs(15), |e| match e {
            Update::Tables(list) => list.iter().all(|t| t.id != table.id).then_some(()),
            _ => None,
        })
        .expect("a closed table leaves the list");
        println!("withdrawn after {:?}", opened.elapsed());
    });
}
