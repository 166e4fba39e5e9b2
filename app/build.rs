//! Puts the browser seats' page inside the `hoard` binary, so any laptop running Hoard serves
//! phones the app with nothing else to install or copy.
//!
//! The page is the app itself built for `wasm32-unknown-unknown` (`web/build.sh`). Where it
//! comes from:
//! - `HOARD_PAGE=<folder>`: a page already built there (`web/build.sh <folder>`) is embedded;
//!   `HOARD_PAGE=none` embeds none; `HOARD_PAGE=build` builds it whatever the profile.
//! - otherwise a release build (`cargo run --release`) builds the page itself, with its own
//!   target folder beside this build's (`target/page-build`), and embeds it. When the wasm target
//!   or wasm-bindgen is missing it says so in a warning and builds the app without a page.
//! - a debug build (tests, lints) embeds none: the browser tests build the page themselves.
//!
//! The build writes `$OUT_DIR/page.rs`: `FILES`, each file's name and bytes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-env-changed=HOARD_PAGE");
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let target = std::env::var("TARGET").unwrap_or_default();
    let release = std::env::var("PROFILE").is_ok_and(|p| p == "release");
    let chosen = std::env::var("HOARD_PAGE").ok();
    let folder = if target.starts_with("wasm32") {
        // The page itself: it serves no page.
        None
    } else {
        match chosen.as_deref() {
            Some("none") => None,
            Some("build") => build_page(&out),
            Some(dir) => Some(PathBuf::from(dir)),
            None if release => build_page(&out),
            None => None,
        }
    };
    let files = match folder {
        Some(dir) => match page_files(&dir) {
            Ok(files) => files,
            Err(e) => {
                println!("cargo::warning=no browser page in this build: {e}");
                Vec::new()
            }
        },
        None => Vec::new(),
    };
    let mut listing = String::from("pub const FILES: &[(&str, &[u8])] = &[\n");
    for (name, path) in &files {
        listing.push_str(&format!(
            "    ({name:?}, include_bytes!({:?})),\n",
            path.display().to_string()
        ));
    }
    listing.push_str("];\n");
    std::fs::write(out.join("page.rs"), listing).expect("OUT_DIR is writable");
}

/// Builds the page with `web/build.sh` into `$OUT_DIR/page`; `None` (with a warning saying
/// what is missing) when it cannot be built here.
fn build_page(out: &Path) -> Option<PathBuf> {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").ok()?);
    let root = manifest.parent()?.to_path_buf();
    // The page is the whole app: any change to its sources is a new page.
    for watched in [
        "app/src",
        "net/src",
        "rules/src",
        "web/src",
        "web/index.html",
        "web/build.sh",
        "web/Cargo.toml",
        "Cargo.lock",
    ] {
        println!("cargo::rerun-if-changed={}", root.join(watched).display());
    }
    let dist = out.join("page");
    // A target folder of its own: this build holds the lock on its own, and a nested cargo
    // waiting on it would wait for ever. (The browser tests build theirs in another, since
    // this environment, a build script's, would make theirs rebuild from ring up each time.)
    let page_target = target_root(out)
        .unwrap_or_else(|| out.to_path_buf())
        .join("page-build");
    let built = Command::new("bash")
        .arg(root.join("web/build.sh"))
        .arg(&dist)
        .current_dir(&root)
        .env("CARGO_TARGET_DIR", &page_target)
        // This build's own flags are for this machine, not for a browser.
        .env_remove("CARGO_ENCODED_RUSTFLAGS")
        .env_remove("RUSTFLAGS")
        .env_remove("CARGO_BUILD_TARGET")
        .output();
    match built {
        Ok(o) if o.status.success() => Some(dist),
        Ok(o) => {
            watch_the_tools();
            let said = String::from_utf8_lossy(&o.stderr);
            let last: Vec<&str> = said.lines().rev().take(3).collect();
            let last: Vec<&str> = last.into_iter().rev().collect();
            println!(
                "cargo::warning=the browser page was not built (this hoard serves no page to \
                 phones; see README, \"A seat in the browser\"): {}",
                last.join(" / ")
            );
            None
        }
        Err(e) => {
            println!("cargo::warning=the browser page was not built: bash: {e}");
            None
        }
    }
}

/// After a build that failed for want of a tool, builds again once one is installed: the
/// folders wasm-bindgen (cargo's binaries) and the wasm target (the toolchain's libraries)
/// are installed into change when they are.
fn watch_the_tools() {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cargo")));
    if let Some(bin) = cargo_home.map(|c| c.join("bin")) {
        println!("cargo::rerun-if-changed={}", bin.display());
    }
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    if let Ok(o) = Command::new(rustc).args(["--print", "sysroot"]).output() {
        let sysroot = String::from_utf8_lossy(&o.stdout).trim().to_string();
        let libs = Path::new(&sysroot).join("lib/rustlib");
        println!("cargo::rerun-if-changed={}", libs.display());
    }
}

/// The target folder this build writes into (the first folder above `OUT_DIR` that cargo
/// tagged as a cache).
fn target_root(out: &Path) -> Option<PathBuf> {
    out.ancestors()
        .find(|dir| dir.join("CACHEDIR.TAG").is_file())
        .map(Path::to_path_buf)
}

/// The files at the top of a built page's folder, by name; it must hold `index.html`.
fn page_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let read = |e: std::io::Error| format!("{}: {e}", dir.display());
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let entry = entry.map_err(read)?;
        if !entry.file_type().map_err(read)?.is_file() {
            continue;
        }
        let Some(name) = entry.file_name().to_str().map(str::to_string) else {
            continue;
        };
        let path = std::fs::canonicalize(entry.path()).map_err(read)?;
        println!("cargo::rerun-if-changed={}", path.display());
        files.push((name, path));
    }
    files.sort();
    if !files.iter().any(|(name, _)| name == "index.html") {
        return Err(format!("{} has no index.html", dir.display()));
    }
    Ok(files)
}
