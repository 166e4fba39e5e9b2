//! An iroh relay server (the `iroh-relay` crate's, the code the public relays run) for the
//! relay tests: plain HTTP on the address given, no TLS, no QUIC address discovery. Prints
//! `RELAY <address>` once it listens, then `RELAYED <packets> <bytes>` each time the count
//! of datagrams it passed between clients grows (checked twice a second), and runs until killed or until its standard input
//! closes (so it never outlives the test that started it).
//!
//! ```text
//! hoard-relay [ADDRESS]        default 127.0.0.1:0 (any free port)
//! ```

use iroh_relay::server::{RelayConfig, Server, ServerConfig};
use std::io::Read;
use std::net::SocketAddr;

fn main() {
    let bind: SocketAddr = match std::env::args()
        .nth(1)
        .as_deref()
        .unwrap_or("127.0.0.1:0")
        .parse()
    {
        Ok(addr) => addr,
        Err(e) => {
            eprintln!("hoard-relay: not an address to listen on: {e}");
            std::process::exit(1);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
    {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("hoard-relay: no runtime: {e}");
            std::process::exit(1);
        }
    };
    // Relaying only: no QUIC address discovery, no metrics server.
    let mut config = ServerConfig::default();
    config.relay = Some(RelayConfig::new(bind));
    let server = runtime.block_on(Server::spawn(config));
    let server = match server {
        Ok(server) => server,
        Err(e) => {
            eprintln!("hoard-relay: cannot start: {e}");
            std::process::exit(1);
        }
    };
    match server.http_addr() {
        Some(addr) => println!("RELAY {addr}"),
        None => {
            eprintln!("hoard-relay: the server listens on no HTTP address");
            std::process::exit(1);
        }
    }
    let counts = server.metrics().server.clone();
    runtime.spawn(async move {
        let mut said = 0;
        loop {
            tokio::time::sleep(std::time::Duration::from_millis(500)).await;
            let packets = counts.send_packets_sent.get();
            if packets != said {
                println!("RELAYED {packets} {}", counts.bytes_sent.get());
                said = packets;
            }
        }
    });
    // Blocks until the test closes our standard input (or dies, which closes it too).
    let _ = std::io::stdin().read_to_end(&mut Vec::new());
    let _ = runtime.block_on(server.shutdown());
}
