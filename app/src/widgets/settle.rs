//! Buttons that take no tap in the moment after they appear where another just was: a
//! double tap on one move must not land on the move that replaces it ("Go", then "End
//! turn" in its place).

/// How long (seconds) a button that has just taken another's place waits before it takes
/// a tap: longer than the gap between a double tap's two taps.
pub const SETTLE: f64 = 0.4;

/// The buttons of a row, slot by slot, and since when each has been in its place.
#[derive(Default)]
pub struct Settling {
    slots: Vec<(String, f64)>,
}

impl Settling {
    /// Notes the buttons `labels` shown now, in their order on screen, and says for each
    /// whether it takes a tap: it has been in its slot for [`SETTLE`], or the row is seen
    /// for the first time (nothing was under the thumb). No frame is asked for when one
    /// settles: a button waiting looks like any other (see [`guarded`]), and the tap that
    /// comes later brings its own frame, in which it is ready.
    pub fn ready(&mut self, labels: &[String], now: f64) -> Vec<bool> {
        let first = self.slots.is_empty();
        let slots: Vec<(String, f64)> = labels
            .iter()
            .enumerate()
            .map(|(i, label)| match self.slots.get(i) {
                Some((was, since)) if was == label => (label.clone(), *since),
                _ if first => (label.clone(), now - SETTLE),
                _ => (label.clone(), now),
            })
            .collect();
        // An empty row keeps what was last shown: the next row is compared with it.
        if !slots.is_empty() {
            self.slots = slots;
        }
        labels
            .iter()
            .enumerate()
            .map(|(i, _)| self.slots.get(i).is_some_and(|(_, s)| now - s >= SETTLE))
            .collect()
    }
}

/// Adds a button that takes taps only when `ready`, drawn the same either way: a button
/// settling into its place is not greyed for a moment (which would flicker at every
/// change), it only lets a tap meant for the one before it pass.
pub fn guarded<R>(
    ui: &mut egui::Ui,
    ready: bool,
    add: impl FnOnce(&mut egui::Ui) -> R,
) -> egui::InnerResponse<R> {
    ui.scope(|ui| {
        ui.visuals_mut().disabled_alpha = 1.0;
        ui.add_enabled_ui(ready, add).inner
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    /// "End turn moves between states, so a double tap on Go can land on it": the button
    /// that comes where Go was waits; the one that stayed in its place does not.
    #[test]
    fn a_button_in_a_new_place_waits_before_it_takes_a_tap() {
        let mut row = Settling::default();
        assert_eq!(row.ready(&labels(&["Go", "Roll"]), 10.0), [true, true]);
        assert_eq!(
            row.ready(&labels(&["End turn", "Roll"]), 10.1),
            [false, true]
        );
        assert_eq!(
            row.ready(&labels(&["End turn", "Roll"]), 10.1 + SETTLE),
            [true, true]
        );
    }

    /// A row that went away and came back with a button in a slot that held another waits
    /// too: the thumb may still be there.
    #[test]
    fn a_row_coming_back_changed_waits() {
        let mut row = Settling::default();
        row.ready(&labels(&["Go"]), 1.0);
        assert!(row.ready(&labels(&[]), 1.1).is_empty());
        assert_eq!(row.ready(&labels(&["End turn"]), 1.2), [false]);
        assert_eq!(row.ready(&labels(&["End turn"]), 1.7), [true]);
    }
}
