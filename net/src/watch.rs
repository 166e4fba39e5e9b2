//! A shared screen: a laptop or a TV that joins a table as a screen, not a seat. It shows the
//! public table large and follows the game live; the phones hold the hands.
//!
//! A seated device serves its screens a [`Feed`]: in the lobby, who sits there; in the game,
//! the table's start and its completed steps exactly as every engine took them (a sealed play
//! never opened stays closed, a dealt card carries no face). The screen rebuilds the public
//! table from them with the rules themselves, so every table it shows is one the rules can
//! reach, whatever the serving device sends, and nothing private ever reaches it: no hand, no
//! key, no protocol message, only what every seat's public state already holds.

use crate::audit::UncheckedSeat;
use crate::games::{ForGame, TableGame, with_game};
use crate::identity::{SessionId, Start};
use crate::table_types::{AuditVerdict, EndView, GameView, ScreenView, SeatView};
use hoard_rules::{Game, Pending, Seat, Step, public_hash};
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use std::collections::VecDeque;

/// The most screens one device serves at once.
pub const MAX_SCREENS: usize = 4;
/// The most steps in one feed frame: a screen that joins late gets the game in parts.
pub const FEED_CHUNK: usize = 64;
/// The lines of the story a screen keeps (the newest).
pub const STORY: usize = 200;

/// A seat as a screen shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FeedSeat {
    pub name: String,
    pub colour: [u8; 3],
    pub bot: bool,
    pub connected: bool,
    /// Its move for the current step is in (its content may still be sealed).
    pub committed: bool,
    /// The table counts it away.
    pub away: bool,
}

/// The audit's verdict as a screen shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FeedAudit {
    Verified,
    Fault {
        what: String,
    },
    /// Verified but for what seats removed before they revealed hid (new variants go last:
    /// the wire numbers them).
    VerifiedExcept {
        unchecked: Vec<UncheckedSeat>,
    },
}

/// What a seated device sends its screens, after every change.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Feed {
    /// The lobby: the table's name, its game's title and who sits there.
    Lobby {
        table: String,
        game: String,
        seats: Vec<FeedSeat>,
    },
    /// The game: its start, the seats now, and the completed steps from step `from` on, each
    /// a postcard-encoded `Step` of the game's input.
    Game {
        start: Start,
        seats: Vec<FeedSeat>,
        from: u32,
        steps: Vec<ByteBuf>,
        audit: Option<FeedAudit>,
    },
}

fn seat_views(seats: &[FeedSeat]) -> Vec<SeatView> {
    seats
        .iter()
        .map(|s| SeatView {
            name: s.name.clone(),
            colour: s.colour,
            bot: s.bot,
            connected: s.connected,
            away_for_secs: s.away.then_some(0),
            committed: s.committed,
        })
        .collect()
}

/// The seats of a view, for a feed.
pub fn feed_seats(seats: &[SeatView]) -> Vec<FeedSeat> {
    seats
        .iter()
        .map(|s| FeedSeat {
            name: s.name.clone(),
            colour: s.colour,
            bot: s.bot,
            connected: s.connected,
            committed: s.committed,
            away: s.away_for_secs.is_some(),
        })
        .collect()
}

/// What happened with a feed frame.
#[derive(Debug, PartialEq)]
pub enum Took {
    /// The screen changed.
    Shown(ScreenView),
    /// The frame starts after the last step this screen has: it must ask again from the start.
    Gap,
}

/// A screen's picture of the table it watches.
#[derive(Default)]
pub struct Watcher {
    game: Option<Box<dyn Watched>>,
}

impl Watcher {
    /// Takes in one feed frame. An error (a start that is no game, a step the rules refuse)
    /// leaves the screen as it was.
    pub fn take(&mut self, feed: Feed) -> Result<Took, String> {
        match feed {
            Feed::Lobby { table, game, seats } => {
                self.game = None;
                Ok(Took::Shown(ScreenView::Lobby {
                    table,
                    game,
                    seats: seat_views(&seats),
                }))
            }
            Feed::Game {
                start,
                seats,
                from,
                steps,
                audit,
            } => {
                let session = start.session();
                if self.game.as_ref().is_none_or(|g| g.session() != session) {
                    if from != 0 {
                        return Ok(Took::Gap);
                    }
                    let name = start.game.clone();
                    self.game =
                        Some(with_game(&name, Open { start }).ok_or_else(|| {
                            format!("this version of Hoard cannot show {name}")
                        })??);
                }
                let Some(game) = self.game.as_mut() else {
                    return Ok(Took::Gap);
                };
                if from > game.step() {
                    return Ok(Took::Gap);
                }
                game.apply(from, &steps)?;
                let audit = audit.map(|a| match a {
                    FeedAudit::Verified => AuditVerdict::Verified,
                    FeedAudit::VerifiedExcept { unchecked } => {
                        AuditVerdict::VerifiedExcept { unchecked }
                    }
                    FeedAudit::Fault { what } => AuditVerdict::Fault {
                        seat: None,
                        step: None,
                        what,
                    },
                });
                Ok(Took::Shown(ScreenView::Game(Box::new(
                    game.view(seat_views(&seats), audit),
                ))))
            }
        }
    }
}

/// One game followed by a screen, whatever the game.
trait Watched: Send {
    fn session(&self) -> SessionId;
    /// Steps applied so far.
    fn step(&self) -> u32;
    /// Applies the steps from `from` on that it does not have yet.
    fn apply(&mut self, from: u32, steps: &[ByteBuf]) -> Result<(), String>;
    fn view(&self, seats: Vec<SeatView>, audit: Option<AuditVerdict>) -> GameView;
}

struct Open {
    start: Start,
}

impl ForGame for Open {
    type Out = Result<Box<dyn Watched>, String>;

    fn run<G: TableGame>(self) -> Self::Out {
        let config = self.start.check::<G>().map_err(|e| e.to_string())?;
        let public = G::setup(&config).map_err(|e| e.to_string())?;
        Ok(Box::new(WatchedGame::<G> {
            session: self.start.session(),
            start: self.start,
            public,
            step: 0,
            story: VecDeque::new(),
        }))
    }
}

struct WatchedGame<G: Game> {
    session: SessionId,
    start: Start,
    public: G::Public,
    step: u32,
    story: VecDeque<String>,
}

impl<G: TableGame> Watched for WatchedGame<G> {
    fn session(&self) -> SessionId {
        self.session
    }

    fn step(&self) -> u32 {
        self.step
    }

    fn apply(&mut self, from: u32, steps: &[ByteBuf]) -> Result<(), String> {
        let have = self.step.saturating_sub(from) as usize;
        for bytes in steps.iter().skip(have) {
            let step: Step<G::Input> = postcard::from_bytes(bytes)
                .map_err(|e| format!("step {} could not be read: {e}", self.step + 1))?;
            let mut none: Vec<Option<G::Private>> = Vec::new();
            let events = G::apply(&mut self.public, &mut none, &step)
                .map_err(|e| format!("step {} breaks the rules: {e}", self.step + 1))?;
            self.step += 1;
            let start = &self.start;
            let name = |seat: Seat| start.name(seat);
            for event in &events {
                let line = G::narrate(event, &name);
                if line.is_empty() {
                    continue;
                }
                if self.story.len() == STORY {
                    self.story.pop_front();
                }
                self.story.push_back(line);
            }
        }
        Ok(())
    }

    fn view(&self, seats: Vec<SeatView>, audit: Option<AuditVerdict>) -> GameView {
        let pending = G::pending(&self.public);
        let outcome = match &pending {
            Pending::Over(outcome) => Some(outcome.clone()),
            _ => None,
        };
        // The agreement to end moves nothing a screen is fed: a game audited and verified
        // before it was played out is one the table agreed to end.
        let ended_by_agreement = outcome.is_none()
            && matches!(
                audit,
                Some(AuditVerdict::Verified | AuditVerdict::VerifiedExcept { .. })
            );
        GameView {
            session: self.session,
            me: None,
            seats,
            state: G::any_state(&self.public, None),
            pending,
            my_turn: false,
            log: self.story.iter().cloned().collect(),
            votes: Vec::new(),
            skipped_me: false,
            audit,
            outcome,
            end: EndView::default(),
            ended_by_agreement,
            step: self.step,
            state_hash: public_hash(&self.public),
            halted: None,
            reaction_left_ms: None,
            as_another_seat: false,
        }
    }
}
