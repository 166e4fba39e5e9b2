//! The relay a device serves on the LAN for the browser seats at its table. A browser has no
//! address of its own to give (it cannot send UDP): two devices that know each other only by
//! the relay's address connect through it and carry bytes both ways, end to end encrypted.
//! Loopback only; nothing leaves the machine.

use hoard_net::transport::lan_relay::LanRelay;
use hoard_net::transport::table_web::{PageFiles, TableWeb};
use hoard_net::transport::{ALPN, EndpointOptions, NetMode, bind_endpoint};
use iroh::endpoint::Connection;
use iroh::{Endpoint, EndpointAddr, RelayUrl, SecretKey, TransportAddr};
use std::net::Ipv4Addr;
use std::time::Duration;
use tokio::time::timeout;

const WAIT: Duration = Duration::from_secs(15);

async fn device_with(seed: u8, relay: &RelayUrl) -> Endpoint {
    let mut options = EndpointOptions::new(NetMode::Loopback);
    options.lan_relay = Some(relay.clone());
    bind_endpoint(SecretKey::from_bytes(&[seed; 32]), &options)
        .await
        .expect("bind")
        .endpoint
}

/// `phone` dials `laptop` knowing only `relay` (no direct address, as for a browser seat),
/// once the laptop is at its relay; both ends of the connection, each sure of the other.
async fn reach(phone: &Endpoint, laptop: &Endpoint, relay: &RelayUrl) -> (Connection, Connection) {
    timeout(WAIT, laptop.online())
        .await
        .expect("the laptop reaches its relay");
    let accepting = tokio::spawn({
        let laptop = laptop.clone();
        async move {
            let incoming = laptop.accept().await.expect("incoming");
            incoming.await.expect("handshake")
        }
    });
    let addr = EndpointAddr::from_parts(laptop.id(), [TransportAddr::Relay(relay.clone())]);
    let conn = timeout(WAIT, phone.connect(addr, ALPN))
        .await
        .expect("connects in time")
        .expect("connects");
    let accepted = timeout(WAIT, accepting)
        .await
        .expect("accepted in time")
        .expect("the accepting task");
    assert_eq!(conn.remote_id(), laptop.id(), "the laptop is who it says");
    assert_eq!(accepted.remote_id(), phone.id(), "the phone is who it says");
    (conn, accepted)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_devices_that_know_each_other_only_by_the_lan_relay_connect_through_it() {
    let relay = LanRelay::start((Ipv4Addr::LOCALHOST, 0).into(), Ipv4Addr::LOCALHOST.into())
        .await
        .expect("the relay starts");
    assert!(relay.url().as_str().starts_with("http://127.0.0.1:"));
    let (phone, laptop) = (
        device_with(71, relay.url()).await,
        device_with(72, relay.url()).await,
    );
    let (conn, accepted) = reach(&phone, &laptop, relay.url()).await;
    let served = tokio::spawn(async move {
        let (mut send, mut recv) = accepted.accept_bi().await.expect("a stream");
        let asked = recv.read_to_end(64).await.expect("read");
        send.write_all(&[asked.as_slice(), b" seen"].concat())
            .await
            .expect("write");
        send.finish().expect("finish");
        accepted.closed().await;
    });
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

/// One GET over plain HTTP: the status line and the body.
async fn get(url: &str, path: &str) -> (String, Vec<u8>) {
    get_with(url, path, "").await
}

/// One GET over plain HTTP with `headers` (each line ended by CRLF) added: the head and the
/// body.
async fn get_with(url: &str, path: &str, headers: &str) -> (String, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let host = url
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_string();
    let mut stream = tokio::net::TcpStream::connect(&host)
        .await
        .expect("connect");
    let request =
        format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n{headers}\r\n");
    stream.write_all(request.as_bytes()).await.expect("send");
    let mut reply = Vec::new();
    timeout(WAIT, stream.read_to_end(&mut reply))
        .await
        .expect("an answer in time")
        .expect("an answer");
    let split = reply
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a head");
    let head = String::from_utf8_lossy(&reply[..split]).to_string();
    (head, reply[split + 4..].to_vec())
}

/// "The serving device runs an iroh relay on the LAN itself (... the same port as the
/// page)" (issue 28): a phone opens the page at the device's address, and its iroh reaches
/// the relay at that very address.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_and_the_relay_answer_on_one_port() {
    let mut page = PageFiles::default();
    page.insert("index.html", b"<html>Hoard</html>".to_vec());
    page.insert("hoard_bg.wasm", vec![0, 97, 115, 109]);
    let script = b"export function hoard() { return 'Hoard'; }\n".repeat(200);
    page.insert("hoard.js", script.clone());
    let web = TableWeb::start(
        (Ipv4Addr::LOCALHOST, 0).into(),
        Ipv4Addr::LOCALHOST.into(),
        page,
    )
    .await
    .expect("serves");
    assert_eq!(web.page_url(), web.relay_url().as_str());

    let (head, body) = get(web.page_url(), "/").await;
    assert!(head.starts_with("HTTP/1.1 200"), "{head}");
    assert!(
        head.to_lowercase().contains("content-type: text/html"),
        "{head}"
    );
    assert_eq!(body, b"<html>Hoard</html>");
    let (head, body) = get(web.page_url(), "/hoard_bg.wasm").await;
    assert!(
        head.to_lowercase()
            .contains("content-type: application/wasm"),
        "{head}"
    );
    assert_eq!(body, [0, 97, 115, 109]);
    let (head, _) = get(web.page_url(), "/../secrets").await;
    assert!(head.starts_with("HTTP/1.1 404"), "{head}");
    // A browser takes gzip: the script comes packed (a phone downloads the wasm that way).
    let (head, body) = get_with(
        web.page_url(),
        "/hoard.js",
        "Accept-Encoding: gzip, deflate\r\n",
    )
    .await;
    let head = head.to_lowercase();
    assert!(head.contains("content-encoding: gzip"), "{head}");
    assert!(head.contains("content-type: text/javascript"), "{head}");
    assert!(body.len() < script.len() / 10, "{} bytes", body.len());
    let mut unpacked = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut unpacked)
        .expect("gunzips");
    assert_eq!(unpacked, script);
    let (head, body) = get_with(web.page_url(), "/hoard.js", "Accept-Encoding: gzip;q=0\r\n").await;
    assert!(!head.to_lowercase().contains("content-encoding"), "{head}");
    assert_eq!(body, script);

    // Two devices that know each other by that address only.
    let (phone, laptop) = (
        device_with(81, web.relay_url()).await,
        device_with(82, web.relay_url()).await,
    );
    let (conn, _) = reach(&phone, &laptop, web.relay_url()).await;
    conn.close(0u32.into(), b"done");
    phone.close().await;
    laptop.close().await;
    web.stop().await;
}

/// The page's files come from the folder of its build, which must hold an `index.html`.
#[test]
fn a_page_folder_without_an_index_is_refused_with_a_clear_error() {
    let dir = std::env::temp_dir().join(format!("hoard-page-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a folder");
    std::fs::write(dir.join("hoard.js"), b"// the glue").expect("write");
    let err = PageFiles::from_dir(&dir).expect_err("no index.html");
    assert!(err.to_string().contains("no index.html"), "{err}");
    std::fs::write(dir.join("index.html"), b"<html></html>").expect("write");
    assert!(PageFiles::from_dir(&dir).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A device already at the table (bound with no relay) that learns of the table's relay
/// adds it while it runs, and a browser seat, which has only that relay, reaches it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_bound_without_a_relay_adds_the_tables_and_is_reached_through_it() {
    let relay = LanRelay::start((Ipv4Addr::LOCALHOST, 0).into(), Ipv4Addr::LOCALHOST.into())
        .await
        .expect("the relay starts");
    let laptop = bind_endpoint(
        SecretKey::from_bytes(&[91; 32]),
        &EndpointOptions::new(NetMode::Loopback),
    )
    .await
    .expect("bind")
    .endpoint;
    laptop
        .insert_relay(
            relay.url().clone(),
            std::sync::Arc::new(iroh::RelayConfig::from(relay.url().clone())),
        )
        .await;
    let phone = device_with(92, relay.url()).await;
    let (conn, _) = reach(&phone, &laptop, relay.url()).await;
    conn.close(0u32.into(), b"done");
    phone.close().await;
    laptop.close().await;
    relay.stop().await;
}
