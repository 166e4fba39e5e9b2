//! The iroh transport (being written).
