//! What can go wrong in the app itself (not in the network or the rules), in players' words.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum AppError {
    #[error("could not read the app settings in {path}: {source}")]
    ReadSettings {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("could not save the app settings to {path}: {source}")]
    WriteSettings {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(
        "the app settings in {path} are damaged ({why}); your name and colour will be asked again"
    )]
    DamagedSettings { path: PathBuf, why: String },
    #[error("no folder for Hoard's data could be found on this device; pass --data-dir <folder>")]
    NoDataDir,
    #[error("the network could not start: {0}")]
    Network(String),
}
