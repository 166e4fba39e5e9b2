//! What the network has told the app, kept as the latest of each kind: the screens draw
//! from this and nothing else.

use crate::net::{GameView, LobbyView, SessionSummary, TableInfo, Update};

/// How long a notice stays on screen, in seconds.
pub const NOTICE_SECS: f64 = 6.0;

#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    pub text: String,
    pub error: bool,
    /// egui time when it arrived.
    pub at: f64,
}

#[derive(Default)]
pub struct Model {
    pub tables: Vec<TableInfo>,
    pub ticket: Option<String>,
    pub lobby: Option<LobbyView>,
    pub game: Option<GameView>,
    /// egui time when the reaction window of the latest game view ends (the view says how
    /// long was left when it was made; the countdown runs on from here).
    reaction_ends: Option<f64>,
    pub games: Vec<SessionSummary>,
    /// As a shared screen: the table shown.
    pub screen: Option<hoard_net::handle::ScreenView>,
    /// A game read back to watch again, until the app takes it.
    pub replay: Option<hoard_net::handle::Replay>,
    pub notices: Vec<Notice>,
}

impl Model {
    /// Takes in one event; `now` stamps notices.
    pub fn apply(&mut self, event: Update, now: f64) {
        match event {
            Update::Tables(tables) => self.tables = tables,
            Update::Ticket { ticket } => self.ticket = Some(ticket),
            Update::Lobby(lobby) => self.lobby = Some(lobby),
            Update::Game(game) => {
                self.reaction_ends = game.reaction_left_ms.map(|ms| now + ms as f64 / 1000.0);
                self.game = Some(game);
            }
            Update::Games(list) => self.games = list,
            Update::Replay(replay) => self.replay = Some(replay),
            Update::Screen(view) => self.screen = Some(view),
            Update::Notice(text) => self.notice(text, false, now),
            Update::Error(text) => self.notice(text, true, now),
        }
    }

    pub fn notice(&mut self, text: String, error: bool, at: f64) {
        self.notices.push(Notice { text, error, at });
        // Only the newest few matter on a small screen.
        if self.notices.len() > 3 {
            self.notices.remove(0);
        }
    }

    /// The notice on screen: the newest, one at a time, so notices never pile up over a
    /// question, a headline or a control. Putting it away (or its expiry) shows the one
    /// before it, if that one is still fresh.
    pub fn shown_notice(&self) -> Option<(usize, &Notice)> {
        self.notices.iter().enumerate().next_back()
    }

    /// Drops notices older than [`NOTICE_SECS`]; returns seconds until the next one expires.
    pub fn expire(&mut self, now: f64) -> Option<f64> {
        for n in &mut self.notices {
            // A clock that went back (the app moved to another window) restarts the count.
            n.at = n.at.min(now);
        }
        self.notices.retain(|n| now - n.at < NOTICE_SECS);
        self.notices
            .iter()
            .map(|n| n.at + NOTICE_SECS - now)
            .reduce(f64::min)
    }

    /// What is left of the game's reaction window at egui time `now`, in milliseconds.
    pub fn reaction_left_ms(&self, now: f64) -> Option<u64> {
        self.reaction_ends
            .map(|end| ((end - now).max(0.0) * 1000.0).round() as u64)
    }

    /// Forgets the table and game this device has left.
    pub fn leave(&mut self) {
        self.lobby = None;
        self.game = None;
        self.reaction_ends = None;
        self.ticket = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 31: "Three stacked notices hid the away question ... Notices must never hide a
    /// question, a headline or a control: one at a time". The newest shows alone; once put
    /// away, the one before it shows if it is still fresh.
    #[test]
    fn notices_show_one_at_a_time_the_newest_first() {
        let mut m = Model::default();
        assert!(m.shown_notice().is_none());
        m.notice("Ann joined".into(), false, 0.0);
        m.notice("Bo joined".into(), false, 1.0);
        m.notice("Could not save".into(), true, 2.0);
        let (i, n) = m.shown_notice().expect("a notice");
        assert_eq!(n.text, "Could not save");
        m.notices.remove(i);
        assert_eq!(
            m.shown_notice().map(|(_, n)| n.text.as_str()),
            Some("Bo joined")
        );
        m.expire(1.0 + NOTICE_SECS);
        assert!(
            m.shown_notice().is_none(),
            "the older ones expired meanwhile"
        );
    }
}
