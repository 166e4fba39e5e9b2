//! What a device at the table serves on the LAN for browser seats, on one port: the page (the
//! app built for a browser, from a folder of files) and the table's relay ([`LanRelay`]). A
//! phone's camera opens `http://<the device's LAN address>:<port>/`; the page's iroh reaches
//! the relay at the same address. Nothing here reaches for the internet.
//!
//! Each connection is routed by the path of its first request, read without taking it off
//! the socket: the relay's own paths go to the relay, byte for byte, and everything else is
//! answered by a small HTTP server (hyper) from the page's files, gzipped for a browser that
//! takes gzip (every browser does).

use super::TransportError;
use super::lan_relay::LanRelay;
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::header::HeaderValue;
use hyper::{Method, Request, Response, StatusCode};
use iroh::RelayUrl;
use std::collections::BTreeMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinHandle;

/// The paths the relay answers (`/relay` and its probes); the page has the rest.
const RELAY_PATHS: &[&str] = &["/relay", "/ping", "/generate_204", "/healthz"];
/// The longest request line read to route a connection, and how long it may take to come.
const MAX_REQUEST_LINE: usize = 2048;
const REQUEST_LINE_WAIT: Duration = Duration::from_secs(5);
/// The most connections served at once: a phone opens a few; more wait their turn.
const MAX_CONNECTIONS: usize = 256;
/// The most a folder of page files may hold.
const MAX_PAGE_BYTES: u64 = 64 << 20;

/// The page's files, by path (`/index.html`).
#[derive(Clone, Debug, Default)]
pub struct PageFiles {
    files: BTreeMap<String, PageFile>,
}

impl PageFiles {
    /// Reads the files at the top of `dir` (the page's build: `index.html`, the script, the
    /// wasm); `/` is `index.html`.
    pub fn from_dir(dir: &Path) -> Result<PageFiles, TransportError> {
        let read = |e: std::io::Error| TransportError::Bind(format!("the page's files: {e}"));
        let mut page = PageFiles::default();
        let mut total = 0;
        for entry in std::fs::read_dir(dir).map_err(read)? {
            let entry = entry.map_err(read)?;
            if !entry.file_type().map_err(read)?.is_file() {
                continue;
            }
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            total += entry.metadata().map_err(read)?.len();
            if total > MAX_PAGE_BYTES {
                return Err(TransportError::Bind(format!(
                    "the page's files are larger than {MAX_PAGE_BYTES} bytes"
                )));
            }
            let bytes = std::fs::read(entry.path()).map_err(read)?;
            page.insert(&name, bytes);
        }
        if !page.files.contains_key("/index.html") {
            return Err(TransportError::Bind(format!(
                "{} has no index.html",
                dir.display()
            )));
        }
        Ok(page)
    }

    /// Adds a file named `name` (no folders).
    pub fn insert(&mut self, name: &str, bytes: Vec<u8>) {
        self.files
            .insert(format!("/{name}"), PageFile::new(Bytes::from(bytes), name));
    }

    /// The page carried in a binary, by file name, with no copy made; it must hold
    /// `index.html`.
    pub fn from_static(files: &[(&str, &'static [u8])]) -> Result<PageFiles, TransportError> {
        let mut page = PageFiles::default();
        for (name, bytes) in files {
            page.files.insert(
                format!("/{name}"),
                PageFile::new(Bytes::from_static(bytes), name),
            );
        }
        if !page.files.contains_key("/index.html") {
            return Err(TransportError::Bind("the page has no index.html".into()));
        }
        Ok(page)
    }

    fn get(&self, path: &str) -> Option<&PageFile> {
        let path = if path == "/" { "/index.html" } else { path };
        self.files.get(path)
    }
}

/// One of the page's files: its bytes, its content type, and the same bytes gzipped, made at
/// the first request that takes them (the wasm is 8 MB as built and about 3 MB gzipped, which
/// is what a phone on the Wi-Fi downloads) and kept only where they are smaller.
#[derive(Clone, Debug)]
struct PageFile {
    bytes: Bytes,
    kind: &'static str,
    gzipped: OnceLock<Option<Bytes>>,
}

impl PageFile {
    fn new(bytes: Bytes, name: &str) -> PageFile {
        PageFile {
            bytes,
            kind: content_type(name),
            gzipped: OnceLock::new(),
        }
    }

    /// The bytes gzipped, if that makes them smaller.
    fn gzipped(&self) -> Option<&Bytes> {
        self.gzipped
            .get_or_init(|| {
                use std::io::Write;
                let mut gz = flate2::write::GzEncoder::new(
                    Vec::with_capacity(self.bytes.len() / 2),
                    flate2::Compression::default(),
                );
                gz.write_all(&self.bytes).ok()?;
                let packed = gz.finish().ok()?;
                (packed.len() < self.bytes.len()).then(|| Bytes::from(packed))
            })
            .as_ref()
    }
}

/// Whether an `Accept-Encoding` header takes gzip (named, or `*`, with no `q=0`).
fn takes_gzip(accept: &str) -> bool {
    accept.split(',').any(|coding| {
        let mut parts = coding.split(';').map(str::trim);
        let name = parts.next().unwrap_or("");
        let refused = parts.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
    })
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("css") => "text/css; charset=utf-8",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("svg") => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// The page and the relay, served on one port.
pub struct TableWeb {
    relay: LanRelay,
    url: RelayUrl,
    task: JoinHandle<()>,
}

impl TableWeb {
    /// Serves `page` and a relay on `bind` (port 0: any free port), named by `host`, the
    /// address the phones reach this device at.
    pub async fn start(
        bind: SocketAddr,
        host: IpAddr,
        page: PageFiles,
    ) -> Result<TableWeb, TransportError> {
        let bound = |e: std::io::Error| TransportError::Bind(format!("the table's page: {e}"));
        let listener = TcpListener::bind(bind).await.map_err(bound)?;
        let port = listener.local_addr().map_err(bound)?.port();
        // The relay itself listens on this machine only; the phones reach it through here.
        let relay =
            LanRelay::start((Ipv4Addr::LOCALHOST, 0).into(), Ipv4Addr::LOCALHOST.into()).await?;
        let relay_port = relay.url().port().unwrap_or(80);
        let url = format!("http://{}/", SocketAddr::new(host, port))
            .parse::<RelayUrl>()
            .map_err(|e| TransportError::Bind(format!("the table's page: {e}")))?;
        let page = Arc::new(page);
        let slots = Arc::new(Semaphore::new(MAX_CONNECTIONS));
        let task = tokio::spawn(async move {
            loop {
                let Ok(slot) = slots.clone().acquire_owned().await else {
                    return;
                };
                match listener.accept().await {
                    Ok((stream, _)) => {
                        let page = page.clone();
                        tokio::spawn(async move {
                            serve(stream, relay_port, page).await;
                            drop(slot);
                        });
                    }
                    // Out of sockets, most often: a moment for some to close.
                    Err(_) => tokio::time::sleep(Duration::from_millis(50)).await,
                }
            }
        });
        Ok(TableWeb { relay, url, task })
    }

    /// The page's address, for the QR code: the same as the relay's.
    pub fn page_url(&self) -> &str {
        self.url.as_str()
    }

    /// The relay's URL, for every device at the table to add to its relays.
    pub fn relay_url(&self) -> &RelayUrl {
        &self.url
    }

    /// Stops serving the page and the relay.
    pub async fn stop(self) {
        self.task.abort();
        self.relay.stop().await;
    }
}

/// Routes one connection by the path of its first request.
async fn serve(stream: TcpStream, relay_port: u16, page: Arc<PageFiles>) {
    let Some(path) = first_path(&stream).await else {
        return;
    };
    if RELAY_PATHS
        .iter()
        .any(|p| path == *p || path.starts_with(&format!("{p}?")))
    {
        let Ok(mut relay) = TcpStream::connect((Ipv4Addr::LOCALHOST, relay_port)).await else {
            return;
        };
        let mut stream = stream;
        let _ = tokio::io::copy_bidirectional(&mut stream, &mut relay).await;
        return;
    }
    let service = hyper::service::service_fn(move |request: Request<Incoming>| {
        let page = page.clone();
        async move { Ok::<_, std::convert::Infallible>(answer(&page, &request)) }
    });
    let _ = hyper::server::conn::http1::Builder::new()
        .serve_connection(hyper_util::rt::TokioIo::new(stream), service)
        .await;
}

/// The path of the request line waiting on `stream`, read without taking it off the socket;
/// `None` if none comes in time, or it is not one.
async fn first_path(stream: &TcpStream) -> Option<String> {
    let mut buf = vec![0; MAX_REQUEST_LINE];
    let line = tokio::time::timeout(REQUEST_LINE_WAIT, async {
        loop {
            let n = stream.peek(&mut buf).await.ok()?;
            if n == 0 {
                return None;
            }
            if let Some(end) = buf[..n].windows(2).position(|w| w == b"\r\n") {
                return Some(buf[..end].to_vec());
            }
            if n == buf.len() {
                return None;
            }
            // Only part of the line is here: wait for more.
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await
    .ok()??;
    let line = std::str::from_utf8(&line).ok()?;
    let mut words = line.split(' ');
    let (_method, path) = (words.next()?, words.next()?);
    Some(path.to_string())
}

fn answer(page: &PageFiles, request: &Request<Incoming>) -> Response<Full<Bytes>> {
    let status = |code: StatusCode| {
        let mut r = Response::new(Full::new(Bytes::from(
            code.canonical_reason().unwrap_or(""),
        )));
        *r.status_mut() = code;
        r
    };
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return status(StatusCode::METHOD_NOT_ALLOWED);
    }
    let Some(file) = page.get(request.uri().path()) else {
        return status(StatusCode::NOT_FOUND);
    };
    let gzip = request
        .headers()
        .get(hyper::header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(takes_gzip);
    let (bytes, gzipped) = match file.gzipped().filter(|_| gzip) {
        Some(packed) => (packed, true),
        None => (&file.bytes, false),
    };
    let body = if request.method() == Method::HEAD {
        Bytes::new()
    } else {
        bytes.clone()
    };
    let mut r = Response::new(Full::new(body));
    let headers = r.headers_mut();
    headers.insert(
        hyper::header::CONTENT_TYPE,
        HeaderValue::from_static(file.kind),
    );
    headers.insert(
        hyper::header::VARY,
        HeaderValue::from_static("accept-encoding"),
    );
    if gzipped {
        headers.insert(
            hyper::header::CONTENT_ENCODING,
            HeaderValue::from_static("gzip"),
        );
    }
    // A new build at the next game is fetched anew.
    headers.insert(
        hyper::header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache"),
    );
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gzip_is_sent_to_a_browser_that_takes_it_and_to_no_other() {
        for takes in [
            "gzip",
            "gzip, deflate",
            "gzip, deflate, br, zstd",
            "deflate, GZIP;q=0.5",
            "*",
        ] {
            assert!(takes_gzip(takes), "{takes}");
        }
        for refuses in [
            "",
            "identity",
            "deflate, br",
            "gzip;q=0",
            "gzip; q=0.0",
            "x-gzip2",
        ] {
            assert!(!takes_gzip(refuses), "{refuses}");
        }
    }

    #[test]
    fn a_file_is_kept_gzipped_only_where_that_makes_it_smaller() {
        let text = PageFile::new(Bytes::from("Hoard ".repeat(1000)), "index.html");
        let packed = text.gzipped().expect("text packs well");
        assert!(packed.len() < 200, "{} bytes", packed.len());
        let mut unpacked = Vec::new();
        use std::io::Read;
        flate2::read::GzDecoder::new(&packed[..])
            .read_to_end(&mut unpacked)
            .expect("gunzips");
        assert_eq!(unpacked, text.bytes);
        // A few bytes grow when gzipped (its header alone is 18 bytes): sent as they are.
        let tiny = PageFile::new(Bytes::from_static(&[0, 97, 115, 109]), "a.wasm");
        assert_eq!(tiny.gzipped(), None);
    }
}
