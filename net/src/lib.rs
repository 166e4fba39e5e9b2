//! The protocol core, store and iroh transport (see DESIGN.md, "net").
pub mod transport;
