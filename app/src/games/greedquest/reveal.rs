//! The reveal of a turn: which card each seat turned up, read back from the game log
//! (the table itself is cleared as the next turn begins), the cards' half-turn one after
//! another, and the resolution's lines appearing one at a time.

use egui::RichText;
use hoard_rules::Game;
use hoard_rules::Seat;
use hoard_rules::greedquest::{Card, Event, GreedQuest, Public};

/// Seconds one card takes to turn over, and the delay between seats.
const FLIP: f64 = 0.45;
const STAGGER: f64 = 0.12;
/// Seconds between two lines of the resolution.
const LINE: f64 = 0.55;
/// Seconds the turned-up cards stay on the table after the story is told, before the
/// table shows the next turn's cards (face down as they come).
const HOLD: f64 = 2.5;

/// One turn as the log tells it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TurnRecord {
    pub turn: u32,
    /// The card each seat turned up, by seat.
    pub played: Vec<Option<Card>>,
    /// What happened, in order, from the reveal on.
    pub lines: Vec<String>,
}

/// Reads turn `turn`'s record out of `log`: its lines run from the turn's own "Turn N."
/// line to the next one. Lines are matched against the rules' own narration of each
/// possible event, so a change of wording in the rules cannot make the reading wrong,
/// only empty.
pub fn record(log: &[String], names: &[String], turn: u32) -> Option<TurnRecord> {
    let name = |s: Seat| {
        names
            .get(usize::from(s))
            .cloned()
            .unwrap_or_else(|| format!("Seat {s}"))
    };
    let marker = |t: u32| GreedQuest::narrate(&Event::TurnBegins { turn: t }, &name);
    let this = marker(turn);
    let next = marker(turn + 1);
    let start = log.iter().rposition(|l| *l == this)?;
    let end = log[start..]
        .iter()
        .position(|l| *l == next)
        .map_or(log.len(), |i| start + i);
    let lines = &log[start + 1..end];
    let mut played = vec![None; names.len()];
    for line in lines {
        if let Some((seat, card)) = played_in(line, names.len() as u8, &name)
            && let Some(p) = played.get_mut(usize::from(seat))
        {
            *p = Some(card);
        }
    }
    Some(TurnRecord {
        turn,
        played,
        lines: lines.to_vec(),
    })
}

/// The seat and card of a "plays" line, if `line` is one.
fn played_in(line: &str, seats: u8, name: &dyn Fn(Seat) -> String) -> Option<(Seat, Card)> {
    for seat in 0..seats {
        if !line.starts_with(&name(seat)) {
            continue;
        }
        for card in Card::ALL {
            for from_deck in [false, true] {
                let event = Event::Played {
                    seat,
                    card,
                    room: 0,
                    from_deck,
                };
                if GreedQuest::narrate(&event, name) == line {
                    return Some((seat, card));
                }
            }
        }
    }
    None
}

/// What is being revealed, and since when.
#[derive(Default)]
pub struct Reveal {
    /// The log length the record was read at: read again only when the log grows.
    read_at: usize,
    record: Option<TurnRecord>,
    /// When the telling began (egui time). Showing everything at once, or reopening a
    /// game, moves this back so the telling counts as done.
    since: f64,
    /// The time of the last frame, to notice the clock jumping back.
    last_now: f64,
}

impl Reveal {
    /// Follows the game: the turn to tell is the current one once its cards are up,
    /// otherwise the one before. With motion off (`still`) the cards are up and the story
    /// told the moment they come.
    pub fn update(
        &mut self,
        public: &Public,
        log: &[String],
        names: &[String],
        now: f64,
        still: bool,
    ) {
        if now < self.last_now {
            // The clock went back (the app moved to another window): keep the same point
            // of the telling on the new clock.
            self.since += now - self.last_now;
        }
        self.last_now = now;
        if log.len() != self.read_at {
            self.read(public, log, names, now);
        }
        if still {
            self.since = self.since.min(now - self.story());
        }
    }

    fn read(&mut self, public: &Public, log: &[String], names: &[String], now: f64) {
        let first_read = self.read_at == 0;
        self.read_at = log.len();
        let current_up = public.table.iter().any(|s| s.card.is_some());
        let turn = if current_up {
            public.turn
        } else {
            public.turn.saturating_sub(1)
        };
        let next = record(log, names, turn);
        let same_turn = matches!((&self.record, &next), (Some(a), Some(b)) if a.turn == b.turn);
        self.record = next;
        if first_read {
            // Reopening a game shows where it stands, without replaying the last turn.
            self.since = now - self.story() - HOLD;
        } else if !same_turn {
            self.since = now;
        }
    }

    /// How long the story takes to tell: the cards' turn, then a line at a time.
    fn story(&self) -> f64 {
        self.record.as_ref().map_or(0.0, |r| {
            FLIP + STAGGER * r.played.len() as f64 + LINE * r.lines.len() as f64
        })
    }

    fn cards_turned(&self) -> f64 {
        self.record
            .as_ref()
            .map_or(0.0, |r| FLIP + STAGGER * r.played.len() as f64)
    }

    fn lines_due(&self, now: f64) -> usize {
        let Some(record) = &self.record else { return 0 };
        let t = now - self.since - self.cards_turned();
        if t < 0.0 {
            0
        } else {
            ((t / LINE).floor() as usize + 1).min(record.lines.len())
        }
    }

    /// Whether cards are still turning (repaint every frame until they are done).
    pub fn animating(&self, now: f64) -> bool {
        self.record.is_some() && now - self.since < self.cards_turned()
    }

    /// Seconds until every card of the turn being told is face up (0 once they are).
    pub fn turning_for(&self, now: f64) -> f64 {
        if self.record.is_none() {
            return 0.0;
        }
        (self.since + self.cards_turned() - now).max(0.0)
    }

    /// Seconds until the next change: a line appearing or the cards leaving the table.
    pub fn next_change_in(&self, now: f64) -> Option<f64> {
        let record = self.record.as_ref()?;
        let due = self.lines_due(now);
        if due < record.lines.len() {
            let at = self.since + self.cards_turned() + LINE * due as f64;
            return Some((at - now).max(0.0));
        }
        let clear = self.since + self.story() + HOLD;
        (clear > now).then_some(clear - now)
    }

    /// Whether the turned-up cards are still on the table (being told, or just told).
    pub fn fresh(&self, now: f64) -> bool {
        self.record.is_some() && now - self.since < self.story() + HOLD
    }

    /// The card `seat` turned up in the turn being told, and how far it has turned (0 to 1),
    /// while it is on the table.
    pub fn face(&self, seat: Seat, now: f64) -> Option<(Card, f32)> {
        if !self.fresh(now) {
            return None;
        }
        let record = self.record.as_ref()?;
        let card = (*record.played.get(usize::from(seat))?)?;
        let t = (now - self.since - STAGGER * f64::from(seat)) / FLIP;
        Some((card, t.clamp(0.0, 1.0) as f32))
    }

    /// How far `seat`'s card has turned, for cards the table itself shows face up.
    pub fn turned(&self, seat: Seat, now: f64) -> f32 {
        if self.record.is_none() {
            return 1.0;
        }
        let t = (now - self.since - STAGGER * f64::from(seat)) / FLIP;
        t.clamp(0.0, 1.0) as f32
    }

    /// The story of the turn so far (its newest `max` lines), newest last; tapping it
    /// tells it all at once.
    pub fn show_lines(&mut self, ui: &mut egui::Ui, now: f64, max: usize) {
        let Some(record) = &self.record else { return };
        let due = self.lines_due(now);
        let frame = egui::Frame::group(ui.style()).show(ui, |ui| {
            ui.set_width(ui.available_width());
            ui.label(RichText::new(format!("Turn {}", record.turn)).strong());
            let first = due.saturating_sub(max);
            if first > 0 {
                ui.label(RichText::new(format!("({first} earlier lines in the log)")).weak());
            }
            for line in &record.lines[first..due] {
                ui.label(line);
            }
            if due < record.lines.len() {
                ui.label(RichText::new("...").weak());
            }
        });
        let response = frame.response.interact(egui::Sense::click());
        response.widget_info(|| {
            egui::WidgetInfo::labeled(egui::Role::Button, true, "Show the whole turn")
        });
        if response.clicked() && due < record.lines.len() {
            self.since = now - self.story();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Vec<String> {
        vec!["Steve".into(), "Monica".into(), "Andrew".into()]
    }

    fn say(event: Event) -> String {
        let n = names();
        GreedQuest::narrate(&event, &|s: Seat| n[usize::from(s)].clone())
    }

    #[test]
    fn the_cards_of_a_turn_are_read_back_from_its_log_lines() {
        // The rulebook's Meek example: "Steve plays Go! 3. Monica plays Go! 6. Andrew plays
        // The Meek Shall Inherit."
        let log = vec![
            say(Event::TurnBegins { turn: 4 }),
            say(Event::Played {
                seat: 0,
                card: Card::Go3,
                room: 2,
                from_deck: false,
            }),
            say(Event::Played {
                seat: 1,
                card: Card::Go6,
                room: 2,
                from_deck: false,
            }),
            say(Event::Played {
                seat: 2,
                card: Card::Meek,
                room: 3,
                from_deck: false,
            }),
            say(Event::Meek { seat: 2 }),
            say(Event::TurnBegins { turn: 5 }),
        ];
        let r = record(&log, &names(), 4);
        assert_eq!(
            r.as_ref().map(|r| r.played.clone()),
            Some(vec![Some(Card::Go3), Some(Card::Go6), Some(Card::Meek)])
        );
        assert_eq!(
            r.map(|r| r.lines.len()),
            Some(4),
            "the lines between the two turn marks"
        );
        assert!(record(&log, &names(), 9).is_none());
    }
}
