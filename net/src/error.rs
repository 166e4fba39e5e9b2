//! The one error type of hoard-net: every way a message, a file or a request can be refused,
//! worded for the players (and for whoever reads the log) rather than for the code.

use hoard_rules::{RuleError, Seat};

/// Why the protocol refused something. Nothing here is fatal to the device: a refused
/// message is dropped and the table carries on.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    #[error("a message could not be read: {0}")]
    Malformed(String),
    #[error("{0}")]
    BadStart(String),
    #[error("this device is not seated at the table")]
    NotSeated,
    #[error("a message came from a device that is not seated at this table")]
    UnseatedPeer,
    #[error("a message claims to be from seat {seat}, but there is no such seat")]
    NoSuchSeat { seat: Seat },
    #[error("a message claiming to be from seat {seat} ({name}) is not signed by that seat's key")]
    BadSignature { seat: Seat, name: String },
    #[error("seat {seat} ({name}) sent a forged signature among other messages: none was taken")]
    ForgedFrame { seat: Seat, name: String },
    #[error(
        "seat {seat} ({name}) sent a message for step {step}, far beyond the table's step {at}"
    )]
    TooFarAhead {
        seat: Seat,
        name: String,
        step: u32,
        at: u32,
    },
    #[error("seat {seat} ({name}) sent a beacon link for step {step} that is not from its chain")]
    BadLink { seat: Seat, name: String, step: u32 },
    #[error(
        "seat {seat} ({name}) opened a play at step {step} that does not match its sealed play"
    )]
    BadOpening { seat: Seat, name: String, step: u32 },
    #[error("{by} passed on a beacon link or an opening of seat {seat} ({name}) unasked")]
    Unasked {
        seat: Seat,
        name: String,
        by: String,
    },
    #[error("seat {seat} ({name}) sent more messages for step {step} than any game needs")]
    TooMany { seat: Seat, name: String, step: u32 },
    #[error("it is not your move: {0}")]
    NotYourMove(String),
    #[error("that move is not allowed: {0}")]
    Rules(#[from] RuleError),
    #[error("the game has stopped: {0}")]
    Halted(String),
    #[error("that vote is not possible: {0}")]
    BadVote(String),
    #[error("the game cannot be ended now: {0}")]
    CannotEnd(String),
    #[error("the saved game is damaged: {0}")]
    Corrupt(String),
    #[error("that game is being played here: leave it first")]
    InPlay,
    #[error("the saved game could not be read or written: {0}")]
    Io(#[from] std::io::Error),
}

/// The crate's result type.
pub type Result<T, E = NetError> = std::result::Result<T, E>;
