//! The relay a device serves on the LAN for the browser seats at its table. A browser has no
//! address of its own to give (it cannot send UDP): two devices that know each other only by
//! the relay's address connect through it and carry bytes both ways, end to end encrypted.
//! Loopback only; nothing leaves the machine.

use hoard_net::transport::lan_relay::LanRelay;
use hoard_net::transport::{ALPN, EndpointOptions, NetMode, bind_endpoint};
use iroh::{Endpoint, EndpointAddr, SecretKey, TransportAddr};
use std::net::Ipv4Addr;
use std::time::Duration;
use tokio::time::timeout;

const WAIT: Duration = Duration::from_secs(15);

async fn device(seed: u8, relay: &LanRelay) -> Endpoint {
    let mut options = EndpointOptions::new(NetMode::Loopback);
    options.lan_relay = Some(relay.url().clone());
    bind_endpoint(SecretKey::from_bytes(&[seed; 32]), &options)
        .await
        .expect("bind")
        .endpoint
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_devices_that_know_each_other_only_by_the_lan_relay_connect_through_it() {
    let relay = LanRelay::start((Ipv4Addr::LOCALHOST, 0).into(), Ipv4Addr::LOCALHOST.into())
        .await
        .expect("the relay starts");
    assert!(relay.url().as_str().starts_with("http://127.0.0.1:"));
    let (phone, laptop) = (device(71, &relay).await, device(72, &relay).await);
    timeout(WAIT, laptop.online())
        .await
        .expect("the laptop reaches its relay");

    let served = tokio::spawn({
        let laptop = laptop.clone();
        async move {
            let conn = laptop
                .accept()
                .await
                .expect("incoming")
                .await
                .expect("handshake");
            let (mut send, mut recv) = conn.accept_bi().await.expect("a stream");
            let asked = recv.read_to_end(64).await.expect("read");
            send.write_all(&[asked.as_slice(), b" seen"].concat())
                .await
                .expect("write");
            send.finish().expect("finish");
            conn.closed().await;
        }
    });
    // Only the relay's address: no direct one, as for a browser seat.
    let addr = EndpointAddr::from_parts(laptop.id(), [TransportAddr::Relay(relay.url().clone())]);
    let conn = timeout(WAIT, phone.connect(addr, ALPN))
        .await
        .expect("connects in time")
        .expect("connects");
    assert_eq!(conn.remote_id(), laptop.id(), "the peer is who it says");
    let (mut send, mut recv) = conn.open_bi().await.expect("a stream");
    send.write_all(b"my hand").await.expect("write");
    send.finish().expect("finish");
    let answer = timeout(WAIT, recv.read_to_end(64))
        .await
        .expect("answered in time")
        .expect("answered");
    assert_eq!(answer, b"my hand seen");
    conn.close(0u32.into(), b"done");
    let _ = timeout(WAIT, served).await;
    phone.close().await;
    laptop.close().await;
    relay.stop().await;
}
