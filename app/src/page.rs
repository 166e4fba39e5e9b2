//! The page a laptop at the table serves to phones that have no Hoard: the app itself built
//! for a browser (carried inside this binary when the build made it, see `build.rs`), and the
//! table's relay the page reaches the others through, both on one port of this machine's LAN
//! address. The lobby shows the address as a QR code with the join code in it, so one scan
//! from a phone's camera seats its player.

use hoard_net::transport::RelayUrl;
use hoard_net::transport::table_web::{PageFiles, TableWeb};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};

mod built {
    include!(concat!(env!("OUT_DIR"), "/page.rs"));
}

/// The port tried first, so that a phone finds the page where it was the last time; any free
/// port when it is taken (a second Hoard on the machine).
pub const PREFERRED_PORT: u16 = 8470;

/// The page this binary carries, file by file: empty when it was built without one (a debug
/// build, or a machine without the wasm target or wasm-bindgen).
pub fn embedded() -> &'static [(&'static str, &'static [u8])] {
    built::FILES
}

/// The page and the table's relay, served on their own small runtime for as long as this
/// is kept.
pub struct PageServer {
    web: Option<TableWeb>,
    runtime: tokio::runtime::Runtime,
}

impl PageServer {
    /// Serves `files` and a relay on `port` (0: any free one) of this machine's LAN address,
    /// or of 127.0.0.1 with `loopback` (tests). A `port` that is taken falls back to any free
    /// one.
    pub fn start(files: PageFiles, port: u16, loopback: bool) -> Result<PageServer, String> {
        let host = if loopback {
            IpAddr::V4(Ipv4Addr::LOCALHOST)
        } else {
            lan_address().ok_or("this machine has no LAN address to serve the page on")?
        };
        let bind = |port| {
            SocketAddr::new(
                if loopback {
                    host
                } else {
                    Ipv4Addr::UNSPECIFIED.into()
                },
                port,
            )
        };
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .thread_name("hoard-page")
            .enable_all()
            .build()
            .map_err(|e| e.to_string())?;
        let web = runtime
            .block_on(async {
                match TableWeb::start(bind(port), host, files.clone()).await {
                    Err(_) if port != 0 => TableWeb::start(bind(0), host, files).await,
                    started => started,
                }
            })
            .map_err(|e| e.to_string())?;
        Ok(PageServer {
            web: Some(web),
            runtime,
        })
    }

    /// Serves the page this binary carries; `None` when it carries none.
    pub fn start_embedded(loopback: bool) -> Option<Result<PageServer, String>> {
        let files = PageFiles::from_static(embedded()).ok()?;
        Some(PageServer::start(files, PREFERRED_PORT, loopback))
    }

    /// `http://<LAN address>:<port>/`: what a phone opens.
    pub fn url(&self) -> &str {
        self.web.as_ref().map(TableWeb::page_url).unwrap_or("")
    }

    /// The table's relay, for this device's own endpoint: browser seats reach it there.
    pub fn relay_url(&self) -> Option<RelayUrl> {
        self.web.as_ref().map(|w| w.relay_url().clone())
    }

    /// Serves until the process is stopped (Ctrl-C).
    pub fn serve_until_stopped(mut self) {
        let web = self.web.take();
        self.runtime.block_on(async {
            let _ = tokio::signal::ctrl_c().await;
            if let Some(web) = web {
                web.stop().await;
            }
        });
    }
}

impl Drop for PageServer {
    fn drop(&mut self) {
        if let Some(web) = self.web.take() {
            self.runtime.block_on(web.stop());
        }
    }
}

/// The address this machine is reached at on its LAN: the source of its route towards a
/// private address (nothing is sent).
pub fn lan_address() -> Option<IpAddr> {
    ["192.168.0.1:9", "10.0.0.1:9", "172.16.0.1:9"]
        .iter()
        .find_map(|to| {
            let socket = std::net::UdpSocket::bind("0.0.0.0:0").ok()?;
            socket.connect(to).ok()?;
            let ip = socket.local_addr().ok()?.ip();
            (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
        })
}
