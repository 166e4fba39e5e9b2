//! Motion on the table, kept small: a [`Change`] remembers what a part of the table showed
//! before and when that changed, so a pawn can slide from its old place to its new one, a
//! card can turn over and dice can tumble for a moment. Time is egui's clock
//! ([`TableFrame::now`]). A change asks for frames only while it moves and none once it has
//! settled, and with motion turned off ([`TableFrame::still`]) it settles the moment it is
//! seen. Nothing here holds input back: the table always acts on the new value.

use crate::games::TableFrame;
use egui::{Pos2, Rect, Vec2};

/// How long a pawn takes to slide to its new place (seconds).
pub const SLIDE: f64 = 0.4;
/// How long a card takes to turn face up (seconds).
pub const FLIP: f64 = 0.3;

/// A value as the table last showed it, the one it replaced, and the time the move from
/// one to the other runs (egui seconds).
#[derive(Clone, Debug)]
pub struct Change<T> {
    value: Option<T>,
    before: Option<T>,
    start: f64,
    end: f64,
    /// The clock at the last frame, to notice it going back.
    last_now: f64,
}

impl<T> Default for Change<T> {
    fn default() -> Self {
        Self {
            value: None,
            before: None,
            start: f64::NEG_INFINITY,
            end: f64::NEG_INFINITY,
            last_now: 0.0,
        }
    }
}

impl<T: Clone + PartialEq> Change<T> {
    /// Follows `value`: when it differs from the last one seen, a move of `seconds` begins
    /// now. The first value seen shows at once, as does every change while `frame.still`.
    /// Returns whether the value changed.
    pub fn follow(&mut self, value: &T, frame: TableFrame, seconds: f64) -> bool {
        self.follow_after(value, frame, seconds, 0.0)
    }

    /// As [`Self::follow`], the move beginning `delay` seconds from now (it waits, say, for
    /// cards to turn before the pawns they move set off).
    pub fn follow_after(&mut self, value: &T, frame: TableFrame, seconds: f64, delay: f64) -> bool {
        let now = frame.now;
        if now < self.last_now {
            // The clock went back: keep the same point of the move on the new clock.
            let back = now - self.last_now;
            self.start += back;
            self.end += back;
        }
        self.last_now = now;
        let changed = self.value.as_ref() != Some(value);
        if changed {
            self.before = self.value.replace(value.clone());
            if self.before.is_some() {
                self.start = now + delay.max(0.0);
                self.end = self.start + seconds.max(0.0);
            }
        }
        if frame.still {
            self.settle();
        }
        changed
    }

    /// Ends the move under way: the new value shows from now on.
    pub fn settle(&mut self) {
        self.start = f64::NEG_INFINITY;
        self.end = f64::NEG_INFINITY;
    }

    /// The value last seen.
    pub fn value(&self) -> Option<&T> {
        self.value.as_ref()
    }

    /// The value being moved away from, while the move is under way (or waits to begin).
    pub fn before(&self, now: f64) -> Option<&T> {
        self.before.as_ref().filter(|_| self.moving(now))
    }

    /// Whether the move is under way, or waits to begin.
    pub fn moving(&self, now: f64) -> bool {
        now < self.end
    }

    /// How far the move has come, 0 to 1, evenly in time; 1 once settled.
    pub fn linear(&self, now: f64) -> f32 {
        if self.end <= self.start {
            return if now < self.start { 0.0 } else { 1.0 };
        }
        ((now - self.start) / (self.end - self.start)).clamp(0.0, 1.0) as f32
    }

    /// How far the move has come, 0 to 1, setting off gently and slowing into place.
    pub fn progress(&self, now: f64) -> f32 {
        ease(self.linear(now))
    }

    /// Asks egui for the frames the move needs: every frame while it runs, one frame when
    /// it is due to begin, nothing once it has settled. Returns whether it moves.
    pub fn repaint(&self, ctx: &egui::Context, now: f64) -> bool {
        if !self.moving(now) {
            return false;
        }
        if now < self.start {
            ctx.request_repaint_after(std::time::Duration::from_secs_f64(self.start - now));
        } else {
            ctx.request_repaint();
        }
        true
    }
}

/// Ease in and out (cubic): slow at both ends, so a piece does not jerk off or into place.
pub fn ease(t: f32) -> f32 {
    let t = t.clamp(0.0, 1.0);
    if t < 0.5 {
        4.0 * t * t * t
    } else {
        1.0 - (-2.0 * t + 2.0).powi(3) / 2.0
    }
}

/// The point `t` (0 to 1) of the way along the line through `points`, by length.
pub fn along(points: &[Pos2], t: f32) -> Pos2 {
    let Some(&first) = points.first() else {
        return Pos2::ZERO;
    };
    let total: f32 = points.windows(2).map(|w| w[0].distance(w[1])).sum();
    let mut left = total * t.clamp(0.0, 1.0);
    for w in points.windows(2) {
        let d = w[0].distance(w[1]);
        if left <= d && d > 0.0 {
            return w[0] + (w[1] - w[0]) * (left / d);
        }
        left -= d;
    }
    points.last().copied().unwrap_or(first)
}

/// A card turning over in `rect`, `t` from 0 (back up) to 1 (face up): the rect to draw
/// it in, narrowing to its edge at the middle of the turn and widening again, and whether
/// its face shows.
pub fn flip(rect: Rect, t: f32) -> (Rect, bool) {
    let t = t.clamp(0.0, 1.0);
    let squeeze = ((t - 0.5).abs() * 2.0).max(0.04);
    (
        Rect::from_center_size(
            rect.center(),
            Vec2::new(rect.width() * squeeze, rect.height()),
        ),
        t >= 0.5,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(now: f64) -> TableFrame {
        TableFrame {
            now,
            portrait: true,
            still: false,
            screen: false,
        }
    }

    fn still_at(now: f64) -> TableFrame {
        TableFrame {
            still: true,
            ..at(now)
        }
    }

    #[test]
    fn the_first_value_seen_shows_at_once() {
        let mut c = Change::default();
        assert!(c.follow(&3_u8, at(10.0), SLIDE));
        assert!(!c.moving(10.0));
        assert_eq!(c.progress(10.0), 1.0);
        assert_eq!(c.before(10.0), None);
    }

    #[test]
    fn a_change_moves_from_the_old_value_for_its_seconds_then_settles() {
        let mut c = Change::default();
        c.follow(&3_u8, at(10.0), SLIDE);
        assert!(c.follow(&5_u8, at(11.0), SLIDE));
        assert_eq!(c.before(11.0), Some(&3));
        assert_eq!(c.value(), Some(&5));
        assert!(c.moving(11.0) && c.progress(11.0) == 0.0);
        let mid = c.progress(11.0 + SLIDE / 2.0);
        assert!((mid - 0.5).abs() < 1e-4, "{mid}");
        assert!(
            c.progress(11.0 + SLIDE * 0.25) < 0.25,
            "eased: slow off the mark"
        );
        assert!(!c.moving(11.0 + SLIDE));
        assert_eq!(c.before(11.0 + SLIDE), None);
        assert_eq!(c.progress(11.0 + SLIDE), 1.0);
        // The same value again changes nothing.
        assert!(!c.follow(&5_u8, at(12.0), SLIDE));
        assert!(!c.moving(12.0));
    }

    #[test]
    fn with_motion_off_a_change_shows_at_once_and_asks_for_no_frame() {
        let ctx = egui::Context::default();
        let mut c = Change::default();
        c.follow(&3_u8, still_at(1.0), SLIDE);
        assert!(c.follow(&5_u8, still_at(2.0), SLIDE));
        assert!(!c.moving(2.0));
        assert_eq!(c.progress(2.0), 1.0);
        assert!(!c.repaint(&ctx, 2.0));
        // Turning motion off in the middle of a move ends it.
        c.follow(&7_u8, at(3.0), SLIDE);
        assert!(c.moving(3.1));
        c.follow(&7_u8, still_at(3.1), SLIDE);
        assert!(!c.moving(3.1));
    }

    #[test]
    fn a_delayed_move_waits_at_the_start_then_runs() {
        let mut c = Change::default();
        c.follow(&1_u8, at(0.0), SLIDE);
        c.follow_after(&2_u8, at(1.0), SLIDE, 0.5);
        assert!(c.moving(1.2));
        assert_eq!(c.progress(1.2), 0.0);
        assert!(c.progress(1.5 + SLIDE / 2.0) > 0.4);
        assert!(!c.moving(1.5 + SLIDE));
    }

    #[test]
    fn the_clock_going_back_keeps_the_move_where_it_was() {
        let mut c = Change::default();
        c.follow(&1_u8, at(100.0), SLIDE);
        c.follow(&2_u8, at(101.0), SLIDE);
        c.follow(&2_u8, at(101.1), SLIDE);
        let before = c.linear(101.1);
        c.follow(&2_u8, at(0.1), SLIDE);
        assert!((c.linear(0.1) - before).abs() < 1e-4);
        assert!(!c.moving(0.1 + SLIDE));
    }

    #[test]
    fn along_a_line_goes_by_length() {
        let pts = [
            Pos2::new(0.0, 0.0),
            Pos2::new(10.0, 0.0),
            Pos2::new(10.0, 30.0),
        ];
        assert_eq!(along(&pts, 0.0), pts[0]);
        assert_eq!(along(&pts, 0.25), Pos2::new(10.0, 0.0));
        assert_eq!(along(&pts, 0.5), Pos2::new(10.0, 10.0));
        assert_eq!(along(&pts, 1.0), pts[2]);
        assert_eq!(along(&pts[..1], 0.5), pts[0]);
    }

    #[test]
    fn a_turning_card_shows_its_back_then_its_face_and_is_thinnest_half_way() {
        let r = Rect::from_min_size(Pos2::ZERO, Vec2::new(60.0, 84.0));
        assert_eq!(flip(r, 0.0), (r, false));
        let (mid, _) = flip(r, 0.5);
        assert!(mid.width() < 4.0 && mid.center() == r.center());
        assert!(!flip(r, 0.3).1 && flip(r, 0.7).1);
        assert_eq!(flip(r, 1.0), (r, true));
    }
}
