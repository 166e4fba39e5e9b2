//! GreedQuest (being written).
