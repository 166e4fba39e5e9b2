//! `cargo bench -p hoard-tests --bench page`: the browser seat's page, measured. Builds it
//! (web/build.sh), then prints what a phone downloads (the wasm and its script, gzipped as a
//! server would send them) and the time from opening the address in headless Chromium on
//! loopback to the first screen the player can use (its words shown), five times, each in a
//! fresh browser (nothing cached).

#[cfg(target_os = "linux")]
fn main() {
    use hoard_tests::Scratch;
    use hoard_tests::browser::{Browser, page, serve};
    use std::path::Path;
    use std::time::{Duration, Instant};

    let dir = page();
    let gz = |name: &str| -> u64 {
        let out = std::process::Command::new("gzip")
            .args(["-9", "-c"])
            .arg(dir.join(name))
            .output()
            .expect("gzip runs");
        out.stdout.len() as u64
    };
    let raw = |name: &str| std::fs::metadata(dir.join(name)).map_or(0, |m| m.len());
    let (wasm, js, html) = ("hoard_web_bg.wasm", "hoard_web.js", "index.html");
    println!("hoard page bench");
    println!(
        "  download: {:.2} MB gzipped ({:.2} MB as built): wasm {:.2} MB, script {} KB, page {} B",
        (gz(wasm) + gz(js) + gz(html)) as f64 / 1e6,
        (raw(wasm) + raw(js) + raw(html)) as f64 / 1e6,
        gz(wasm) as f64 / 1e6,
        gz(js) / 1000,
        gz(html),
    );
    let scratch = Scratch::new("page-bench");
    let bin = Path::new(env!("CARGO_BIN_EXE_hoard-peer"));
    let (_server, url) = serve(bin, &scratch);
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
}

#[cfg(not(target_os = "linux"))]
fn main() {
    println!("the page bench drives Chromium over a pipe: Linux only");
}
