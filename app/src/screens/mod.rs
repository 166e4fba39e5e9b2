//! The screens, each a function of what it shows returning what the player asked for,
//! so each can be driven without a network.

pub mod home;
pub mod lobby;
pub mod log;
pub mod profile;
pub mod replay;
pub mod settings;
pub mod shared;
pub mod table;
