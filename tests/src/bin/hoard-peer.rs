//! A peer process for the end-to-end tests: exactly the `hoard` binary's headless
//! subcommands (`hoard_app::cli::run`), with logs on standard error (`HOARD_LOG` sets the
//! filter, e.g. `HOARD_LOG=hoard_net=debug`).

use std::process::ExitCode;

fn main() -> ExitCode {
    let filter = std::env::var("HOARD_LOG").unwrap_or_else(|_| "hoard_net=info".into());
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
    hoard_app::cli::run(std::env::args().skip(1))
}
