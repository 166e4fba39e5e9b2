//! A generic local driver that plays a game to its end (being written).
