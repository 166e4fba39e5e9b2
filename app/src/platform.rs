//! What the app asks of the device it runs on, beyond a window: where a phone's system bars
//! cover the screen, keeping the screen awake while the player sits at a table, and a turn
//! that is felt. A laptop needs none; Android answers them all (see the `hoard-android`
//! crate), a browser's page the last (`crate::web`).

/// The room the system bars take at each edge of the window, in physical pixels.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Insets {
    pub top: u32,
    pub bottom: u32,
    pub left: u32,
    pub right: u32,
}

/// The device under the app.
pub trait Platform {
    /// Where the system bars are now (the status bar, a navigation bar, a camera cutout);
    /// `None` when the device cannot tell. Asked at most every [`INSETS_FOR`] seconds while
    /// the app draws, and at once when its window changes size (a turned phone).
    fn insets(&mut self) -> Option<Insets>;

    /// The player sits at a table (`true`: its lobby, its game, the game's end) or not: a
    /// phone keeps its screen awake only then, since nobody touches it while friends join or
    /// while the others take their turns, and a sleeping phone drops off the table.
    fn at_table(&mut self, on: bool);

    /// The game now waits on this player (`true`), or no longer does: a phone lying on the
    /// table is felt (a short buzz where it can), a page's tab says so in its title. The
    /// window's own title is the app's (see `HoardApp::window_title`); nothing by default.
    fn your_turn(&mut self, mine: bool) {
        let _ = mine;
    }
}

/// How long an answer from [`Platform::insets`] is used before asking again, in seconds.
pub const INSETS_FOR: f64 = 0.5;

/// The margin each side of the screen gets: the system bars' room (in points), and never
/// less than the app's own `min` margin. With nothing known, the top keeps `unknown_top`
/// points clear (a phone's status bar).
pub fn margin(
    insets: Option<Insets>,
    pixels_per_point: f32,
    min: egui::Margin,
    unknown_top: i8,
) -> egui::Margin {
    let Some(bars) = insets else {
        return egui::Margin {
            top: unknown_top.max(min.top),
            ..min
        };
    };
    let ppp = if pixels_per_point > 0.0 {
        pixels_per_point
    } else {
        1.0
    };
    // Points, rounded up so nothing is left under a bar; capped, as egui keeps a margin in an i8.
    let points = |px: u32| (px as f32 / ppp).ceil().clamp(0.0, 120.0) as i8;
    egui::Margin {
        left: points(bars.left).max(min.left),
        right: points(bars.right).max(min.right),
        top: points(bars.top).max(min.top),
        bottom: points(bars.bottom).max(min.bottom),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: egui::Margin = egui::Margin {
        left: 8,
        right: 8,
        top: 6,
        bottom: 6,
    };

    #[test]
    fn the_bars_room_is_kept_clear_in_points_and_never_less_than_the_apps_own_margin() {
        let bars = Insets {
            top: 84,
            bottom: 126,
            left: 0,
            right: 0,
        };
        // A phone at 2.625 pixels per point: a 32-point status bar, a 48-point navigation bar.
        let m = margin(Some(bars), 2.625, MIN, 28);
        assert_eq!((m.top, m.bottom, m.left, m.right), (32, 48, 8, 8));
        // A turned phone: its navigation bar on the right.
        let turned = Insets {
            top: 63,
            bottom: 0,
            left: 0,
            right: 126,
        };
        let m = margin(Some(turned), 2.625, MIN, 28);
        assert_eq!((m.top, m.bottom, m.left, m.right), (24, 6, 8, 48));
    }

    #[test]
    fn unknown_bars_leave_a_phone_its_status_bar_and_a_laptop_its_plain_margin() {
        assert_eq!(margin(None, 2.0, MIN, 28).top, 28);
        assert_eq!(margin(None, 2.0, MIN, 28).bottom, 6);
        assert_eq!(margin(None, 1.0, MIN, 0), MIN);
    }

    #[test]
    fn absurd_bars_are_capped_and_a_zero_scale_does_not_divide_by_zero() {
        let huge = Insets {
            top: u32::MAX,
            bottom: 10_000,
            left: 0,
            right: 0,
        };
        let m = margin(Some(huge), 0.0, MIN, 28);
        assert_eq!((m.top, m.bottom), (120, 120));
    }
}
