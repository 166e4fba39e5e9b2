//! What a table screen is given: a seated player's view of a game under way, as the device
//! sends it. One place for the many fields a test does not care about.

use hoard_app::net::{AnyState, EndView, GameView, SeatView, SessionId};
use hoard_rules::Pending;

/// A seat whose device is at the table.
pub fn seat(name: &str, colour: [u8; 3], bot: bool) -> SeatView {
    SeatView {
        name: name.to_string(),
        colour,
        bot,
        connected: true,
        away_for_secs: None,
        committed: false,
    }
}

/// A table of `names` with their `colours`: seat 0 is this device's player, the others bots.
pub fn me_and_bots(names: &[&str], colours: &[[u8; 3]]) -> Vec<SeatView> {
    names
        .iter()
        .zip(colours)
        .enumerate()
        .map(|(i, (name, colour))| seat(name, *colour, i > 0))
        .collect()
}

/// Seat 0's view of game `session` at `step`: nothing voted, ended or halted and no reaction
/// window open; a test sets on the value what else it needs.
pub fn seated_view(
    session: u8,
    seats: Vec<SeatView>,
    state: AnyState,
    pending: Pending,
    my_turn: bool,
    step: u32,
) -> GameView {
    GameView {
        session: SessionId([session; 32]),
        me: Some(0),
        seats,
        state,
        pending,
        my_turn,
        log: Vec::new(),
        votes: Vec::new(),
        skipped_me: false,
        audit: None,
        outcome: None,
        end: EndView::default(),
        ended_by_agreement: false,
        step,
        state_hash: [0; 32],
        halted: None,
        reaction_left_ms: None,
        as_another_seat: false,
    }
}
