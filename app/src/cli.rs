//! Headless subcommands of the `hoard` binary (being written).
