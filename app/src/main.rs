//! The `hoard` binary: the table window by default; headless subcommands (host, join, ...)
//! when the first argument names one.
//!
//! Window options: `--data-dir <folder>` (where identity, profile and games live; by
//! default the platform's app-data folder), `--offline` (no network: you and bots),
//! `--phone` (phone layout in a 360x780 window, for trying the phone screens on a laptop).

#[cfg(not(target_arch = "wasm32"))]
use hoard_app::{NetworkChoice, RunOptions};
#[cfg(not(target_arch = "wasm32"))]
use std::process::ExitCode;

/// A browser starts the app from the page (`hoard_app::web`), never from here.
#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().is_some_and(|a| !a.starts_with('-')) {
        return hoard_app::cli::run(args);
    }
    match gui(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("hoard: {message}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn gui(args: &[String]) -> Result<(), String> {
    let mut data_dir = None;
    let mut network = None;
    let mut phone = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--data-dir" => {
                let dir = it.next().ok_or("--data-dir needs a folder")?;
                data_dir = Some(std::path::PathBuf::from(dir));
            }
            "--offline" => network = Some(NetworkChoice::Offline),
            "--phone" => phone = true,
            "-h" | "--help" => {
                println!(
                    "hoard [--data-dir <folder>] [--offline] [--phone]   open the table\n\
                     hoard <subcommand> ...                              headless play (hoard help)"
                );
                return Ok(());
            }
            other => return Err(format!("unknown option {other:?} (try --help)")),
        }
    }
    let data_dir = match data_dir {
        Some(dir) => dir,
        None => hoard_app::default_data_dir().map_err(|e| e.to_string())?,
    };
    let mut native = eframe::NativeOptions::default();
    if phone {
        native.viewport = native.viewport.with_inner_size([360.0, 780.0]);
    }
    hoard_app::run_with(
        RunOptions {
            data_dir,
            native,
            phone,
            platform: None,
        },
        network,
    )
    .map_err(|e| format!("the window could not open: {e}"))
}
