//! Sprawl (being written).
