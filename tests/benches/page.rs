//! `cargo bench -p hoard-tests --bench page`: the browser seat's page, measured. Builds it
//! (web/build.sh), then prints what a phone downloads (the wasm and its script, as the page's
//! server sends them to a browser, gzipped) and the time from opening the address in headless Chromium on
//! loopback to the first screen the player can use (its words shown), five times, each in a
//! fresh browser (nothing cached). Then, in one page: the mental deck at the size the games
//! need, run by the page's own code (one seat's part of a 108-card shuffle at 8 seats, the
//! part made with its proof, one part's proof checked), and the CPU of each frame the page
//! draws while its player plays a Counter game against two bots by tapping (eframe's own
//! measure: the frame's logic, layout and painting calls), and the app's own part of it
//! (its logic and screens, timed by the page's clock).

#[cfg(target_os = "linux")]
fn main() {
    use hoard_tests::Scratch;
    use hoard_tests::browser::{Browser, page, serve};
    use serde_json::Value;
    use std::path::Path;
    use std::time::{Duration, Instant};

    let dir = page();
    let scratch = Scratch::new("page-bench");
    let bin = Path::new(env!("CARGO_BIN_EXE_hoard-peer"));
    let (_server, url) = serve(bin, &scratch);
    // A file's bytes as the page's server sends them to a browser (which takes gzip).
    let served = |name: &str| -> u64 {
        use std::io::{Read, Write};
        let host = url.trim_start_matches("http://").trim_end_matches('/');
        let mut s = std::net::TcpStream::connect(host).expect("the page's server");
        write!(
            s,
            "GET /{name} HTTP/1.1\r\nHost: {host}\r\nAccept-Encoding: gzip, deflate\r\nConnection: close\r\n\r\n"
        )
        .expect("a request");
        let mut reply = Vec::new();
        s.read_to_end(&mut reply).expect("an answer");
        let head = reply
            .windows(4)
            .position(|w| w == b"\r\n\r\n")
            .expect("a head");
        (reply.len() - head - 4) as u64
    };
    let raw = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
    let (wasm, js, html) = ("hoard_web_bg.wasm", "hoard_web.js", "index.html");
    println!("hoard page bench");
    println!(
        "  download as served (gzip): {:.2} MB ({:.2} MB as built): wasm {:.2} MB, script {} KB, page {} B",
        (served(wasm) + served(js) + served(html)) as f64 / 1e6,
        (raw(wasm) + raw(js) + raw(html)) as f64 / 1e6,
        served(wasm) as f64 / 1e6,
        served(js) / 1000,
        served(html),
    );
    let mut times = Vec::new();
    for _ in 0..5 {
        let mut b = Browser::open("about:blank", 360, 640).expect("chromium");
        let start = Instant::now();
        b.call("Page.navigate", serde_json::json!({ "url": url }))
            .expect("navigate");
        b.wait_for(Duration::from_secs(60), |s| {
            s.iter()
                .any(|x| x.words == "Welcome to Hoard" || x.words.contains("Play against bots"))
                .then_some(())
        })
        .expect("the first screen");
        times.push(start.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "  address opened to first screen (headless Chromium, loopback, cold): median {:.0} ms, \
         best {:.0} ms, worst {:.0} ms",
        times[times.len() / 2],
        times[0],
        times[times.len() - 1],
    );

    let mut b = Browser::open(&url, 360, 640).expect("chromium");
    b.first_run("Mia", "Blue");
    // Milliseconds the page's clock gives `call` (coarsened by the browser to 0.1 ms).
    let timed = |b: &mut Browser, call: &str| -> f64 {
        let js = format!(
            "(() => {{ const t = performance.now(); {call}; return performance.now() - t; }})()"
        );
        b.eval(&js)
            .expect("the page runs it")
            .as_f64()
            .expect("a time")
    };
    let median = |b: &mut Browser, call: &str, runs: usize| -> f64 {
        let mut t: Vec<f64> = (0..runs).map(|_| timed(b, call)).collect();
        t.sort_by(f64::total_cmp);
        t[runs / 2]
    };
    timed(&mut b, "hoardDeck('setup')");
    let part = median(&mut b, "hoardDeck('part')", 9);
    let prove = median(&mut b, "hoardDeck('prove')", 3);
    let check = median(&mut b, "hoardDeck('check')", 3);
    println!(
        "  the mental deck in the page, 108 cards at 8 seats (median): one seat's part of the \
         shuffle {part:.1} ms (goal: <= 20 ms); the part made with its proof {prove:.1} ms; \
         one part's proof checked {check:.1} ms"
    );

    b.host_counter_with_bots(2);
    // Each frame's CPU, whole (eframe's measure) and the app's logic and screens within it.
    let frames = |b: &mut Browser| -> Vec<(f64, f64)> {
        match b.eval("hoardFrameTimes()").expect("the page's frame times") {
            Value::String(s) => s
                .split(',')
                .filter_map(|t| {
                    let (whole, app) = t.split_once('/')?;
                    Some((whole.parse().ok()?, app.parse().ok()?))
                })
                .collect(),
            _ => Vec::new(),
        }
    };
    b.wait_for(Duration::from_secs(60), |s| {
        s.iter()
            .any(|x| x.words.starts_with("Deck: "))
            .then_some(())
    })
    .expect("the Counter table");
    frames(&mut b); // the lobby's frames, left out
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut cpu = Vec::new();
    while !b.shows("Back to home") && Instant::now() < deadline {
        if !b.play_counter_once().expect("the page plays") {
            std::thread::sleep(Duration::from_millis(100));
        }
        cpu.extend(frames(&mut b));
    }
    cpu.extend(frames(&mut b));
    let quantiles = |mut v: Vec<f64>| -> Option<(f64, f64, f64)> {
        v.sort_by(f64::total_cmp);
        let at = |q: f64| v[((v.len() as f64 * q) as usize).min(v.len() - 1)];
        (!v.is_empty()).then(|| (at(0.5), at(0.95), v[v.len() - 1]))
    };
    let whole = quantiles(cpu.iter().map(|f| f.0).collect());
    let app = quantiles(cpu.iter().map(|f| f.1).collect());
    let rest = quantiles(cpu.iter().map(|f| f.0 - f.1).collect());
    match (whole, app, rest) {
        (Some((p50, p95, max)), Some(app), Some(rest)) => {
            println!(
                "  frame CPU at a Counter table played by tapping ({} frames): p50 {p50:.1} ms, \
                 p95 {p95:.1} ms (goal: <= 8 ms), worst {max:.1} ms",
                cpu.len()
            );
            println!(
                "    of which the app's logic and screens: p50 {:.1} ms, p95 {:.1} ms; egui's \
                 triangles and the painting calls (WebGL drawn in software here): p50 {:.1} ms, \
                 p95 {:.1} ms",
                app.0, app.1, rest.0, rest.1
            );
        }
        _ => println!("  frame CPU: no frames measured"),
    }
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("the page bench drives Chromium over a pipe: Linux only");
}
