//! Watching a game: a shared screen that joins a table mid-game and follows it live without a
//! seat, and a finished game read back step by step. Real devices over iroh on loopback, at a
//! game of Counter (a shared hidden deck: hands that must never reach a screen).
//!
//! Issue 18: "A laptop or a TV at the table joins as a screen, not a seat: it shows the public
//! table large [...], never a hand, and follows the game live [...] It appears in the lobby as
//! a screen, needs no seat, and may join or leave any time, also mid-game. Nothing private
//! reaches it (a test checks every message it receives)." And: "A finished game [...] can be
//! replayed step by step from its log on any device that played it."

use hoard_net::SecretKey;
use hoard_net::device::Envelope;
use hoard_net::handle::{AnyState, AuditVerdict, Command, GameSetup, GameView, ScreenView, Update};
use hoard_net::transport::mesh::{Mesh, MeshEvent};
use hoard_net::transport::{EndpointOptions, NetMode, bind_endpoint};
use hoard_net::transport::{PROTOCOL_VERSION, ticket};
use hoard_net::watch::{Feed, Took, Watcher};
use hoard_rules::Listed;
use hoard_rules::counter::Counter;
use hoard_tests::{Device, Scratch, with_timeout};
use iroh::EndpointAddr;
use std::time::Duration;
use tokio::sync::mpsc;

const WAIT: Duration = Duration::from_secs(30);

/// A host of a three-seat table at a short game of Counter (16 turns, quick answers);
/// returns the host and its join code.
fn short_counter_table(scratch: &Scratch, name: &str) -> (Device, String) {
    let mut host = Device::start(&scratch.dir("host"));
    let code = host.host(name, Some(3));
    let mut config = Counter::config(3);
    Counter::set_variant(&mut config, "quick-answers").expect("a variant");
    config.turns = 16;
    host.handle.send(Command::ChooseGame {
        setup: GameSetup::Counter(config),
    });
    (host, code)
}

/// Seats two bots at `host`'s table and waits until it can start.
fn seat_two_bots(host: &mut Device) {
    host.handle.send(Command::AddBot);
    host.handle.send(Command::AddBot);
    host.wait_for(WAIT, |e| match e {
        Update::Lobby(l) if l.seats.len() == 3 && l.can_start => Some(()),
        _ => None,
    })
    .expect("two bots seated");
}

/// A host with two bots at a short game of Counter, playing by itself; returns the host and
/// its table's address.
fn counter_with_two_bots(scratch: &Scratch) -> (Device, EndpointAddr) {
    let (mut host, code) = short_counter_table(scratch, "The kitchen");
    seat_two_bots(&mut host);
    host.handle.send(Command::Autoplay { on: true });
    host.handle.send(Command::Start);
    (host, ticket::decode(&code).expect("the ticket reads back"))
}

/// Waits until the host's game is over and audited; returns its last view.
fn played_out(host: &mut Device) -> GameView {
    host.wait_for(Duration::from_secs(120), |e| match e {
        Update::Game(v) if v.audit.is_some() => Some(v.clone()),
        _ => None,
    })
    .expect("the game ends and is audited")
}

/// Waits until a shared screen shows the game over and audited; returns that view.
fn audited_on(screen: &mut Device) -> GameView {
    screen
        .wait_for(WAIT, |e| match e {
            Update::Screen(ScreenView::Game(v)) if v.audit.is_some() => Some((**v).clone()),
            _ => None,
        })
        .expect("the screen follows the game to its audited end")
}

fn no_hand(state: &AnyState) -> bool {
    matches!(state, AnyState::Counter { private: None, .. })
}

#[test]
fn a_screen_that_joins_mid_game_shows_the_public_table_live_and_receives_nothing_private() {
    with_timeout(Duration::from_secs(180), || {
        let scratch = Scratch::new("watching-screen");
        let (mut host, addr) = counter_with_two_bots(&scratch);
        host.wait_for(WAIT, |e| match e {
            Update::Game(v) if v.step >= 8 => Some(()),
            _ => None,
        })
        .expect("the game is under way");

        // A bare device that only asks to watch, and keeps every frame it is sent.
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .expect("runtime");
        let (frames_tx, frames) = std::sync::mpsc::channel::<Vec<u8>>();
        let target = addr.clone();
        rt.spawn(async move {
            let key = SecretKey::from_bytes(&[77; 32]);
            let bound = bind_endpoint(key, &EndpointOptions::new(NetMode::Loopback))
                .await
                .expect("the screen's endpoint");
            let (tx, mut events) = mpsc::unbounded_channel();
            let mut mesh = Mesh::new(bound.endpoint, tx);
            let host = target.id;
            mesh.connect_as_screen(target);
            while let Some(event) = events.recv().await {
                match event {
                    MeshEvent::Up { peer } if peer == host => {
                        let watch = Envelope::Watch {
                            version: PROTOCOL_VERSION,
                            name: "The big TV".into(),
                        };
                        mesh.send(&host, postcard::to_stdvec(&watch).expect("encode"));
                    }
                    MeshEvent::Frame { bytes, .. } if frames_tx.send(bytes.clone()).is_err() => {
                        break;
                    }
                    _ => {}
                }
            }
        });

        // And a real device that joins as a screen through its handle, as the app does.
        let mut screen = Device::start(&scratch.dir("screen"));
        screen.handle.send(Command::WatchTicket {
            ticket: ticket::encode(&addr),
        });
        let first = screen
            .wait_for(WAIT, |e| match e {
                Update::Screen(ScreenView::Game(v)) => Some((**v).clone()),
                _ => None,
            })
            .expect("the screen shows the game");
        assert!(
            first.step >= 8,
            "it joined mid-game, at step {}",
            first.step
        );
        assert_eq!(first.me, None, "a screen holds no seat");
        assert!(no_hand(&first.state), "a screen shows no hand");

        let end = played_out(&mut host);
        let shown = audited_on(&mut screen);
        assert_eq!(
            (shown.step, shown.state_hash),
            (end.step, end.state_hash),
            "the screen shows the very table every seat agreed on"
        );
        assert_eq!(shown.audit, Some(AuditVerdict::Verified));
        assert!(shown.outcome.is_some(), "the screen shows who won");
        assert!(!shown.log.is_empty(), "the screen tells the last plays");
        assert!(
            shown.log.iter().all(|line| end.log.contains(line)),
            "the screen's last plays are lines of the table's own story"
        );

        // Every message the bare screen received: feeds only, rebuilt by the rules into the
        // same public table, never a hand, a protocol message, a lobby or a start.
        let deadline = std::time::Instant::now() + WAIT;
        let mut watcher = Watcher::default();
        let mut got = 0;
        let mut last = None;
        while last.as_ref().is_none_or(|v: &GameView| v.audit.is_none()) {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let bytes = frames
                .recv_timeout(left)
                .expect("the bare screen is fed to the end");
            got += 1;
            match Envelope::decode(&bytes) {
                Ok(Envelope::Screen(feed)) => {
                    assert!(
                        matches!(feed, Feed::Game { .. }),
                        "mid-game, only the game is fed"
                    );
                    match watcher.take(feed) {
                        Ok(Took::Shown(ScreenView::Game(v))) => {
                            assert!(no_hand(&v.state), "a feed carries no hand");
                            last = Some(*v);
                        }
                        other => panic!("a feed the rules could not follow: {other:?}"),
                    }
                }
                other => panic!("a screen was sent something else than a feed: {other:?}"),
            }
        }
        let last = last.expect("a last view");
        assert_eq!((last.step, last.state_hash), (end.step, end.state_hash));
        println!(
            "screens joined at step {}; the game ended at step {}; the bare screen got {got} frames",
            first.step, end.step
        );
        rt.shutdown_background();
    });
}

#[test]
fn a_finished_game_replays_step_by_step_to_the_table_everyone_agreed_on() {
    with_timeout(Duration::from_secs(150), || {
        let scratch = Scratch::new("watching-replay");
        let (mut host, _) = counter_with_two_bots(&scratch);
        let end = played_out(&mut host);
        host.handle.send(Command::Replay {
            session: end.session,
        });
        let replay = host
            .wait_for(WAIT, |e| match e {
                Update::Replay(r) => Some(r.clone()),
                _ => None,
            })
            .expect("the game is read back");
        assert_eq!(
            replay.steps() as u32,
            end.step,
            "one frame per step and the deal"
        );
        let last = replay.frames.last().expect("frames");
        assert_eq!(
            last.state_hash, end.state_hash,
            "the replay ends where the game did"
        );
        assert!(
            replay.frames.iter().all(|f| no_hand(&f.state)),
            "no hand in a replay"
        );
        assert_eq!(replay.audit, Some(AuditVerdict::Verified));
        // Back and forth: every step's view is the table after that many steps.
        let at = |k: usize| replay.view(k).expect("a view");
        assert_eq!(at(0).step, 0);
        assert!(at(0).log.is_empty(), "nothing has happened at the deal");
        let middle = replay.steps() / 2;
        assert!(at(middle).log.len() <= at(middle + 1).log.len());
        assert!(
            at(middle + 1).log.starts_with(&at(middle).log),
            "a step on only adds to the story"
        );
        assert_ne!(at(0).state_hash, at(replay.steps()).state_hash);
        assert_eq!(at(replay.steps()).log.len(), replay.log.len());
        assert!(
            at(replay.steps()).outcome.is_some(),
            "the end shows who won"
        );
        let steps: Vec<u32> = replay.log.iter().map(|(s, _)| *s).collect();
        assert!(
            steps.windows(2).all(|w| w[0] <= w[1]),
            "the story runs in order"
        );

        // The list of games says how it ended.
        host.handle.send(Command::LeaveTable);
        let games = host
            .wait_for(WAIT, |e| match e {
                Update::Games(list) => Some(list.clone()),
                _ => None,
            })
            .expect("the list of games");
        let listed = games
            .iter()
            .find(|g| g.session == end.session)
            .expect("listed");
        assert!(
            listed
                .result
                .as_deref()
                .is_some_and(|r| r.ends_with(" won") || r == "Over"),
            "the finished game is listed with its result: {:?}",
            listed.result
        );
    });
}

#[test]
fn a_screen_in_the_lobby_is_listed_as_a_screen_takes_no_seat_and_may_leave() {
    with_timeout(Duration::from_secs(90), || {
        let scratch = Scratch::new("watching-lobby");
        let mut host = Device::start(&scratch.dir("host"));
        let code = host.host("The kitchen", None);
        let mut screen = Device::start(&scratch.dir("screen"));
        screen.handle.send(Command::SetProfile {
            name: "Living room".into(),
            colour: [0, 0, 0],
        });
        screen.handle.send(Command::WatchTicket { ticket: code });
        let shown = screen
            .wait_for(WAIT, |e| match e {
                Update::Screen(ScreenView::Lobby { table, seats, .. }) => {
                    Some((table.clone(), seats.len()))
                }
                _ => None,
            })
            .expect("the screen shows the lobby");
        assert_eq!(shown, ("The kitchen".to_string(), 1));
        let lobby = host
            .wait_for(WAIT, |e| match e {
                Update::Lobby(l) if !l.screens.is_empty() => Some(l.clone()),
                _ => None,
            })
            .expect("the host sees the screen");
        assert_eq!(lobby.screens, vec!["Living room".to_string()]);
        assert_eq!(lobby.seats.len(), 1, "a screen takes no seat");

        screen.handle.send(Command::LeaveTable);
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.screens.is_empty() => Some(()),
            _ => None,
        })
        .expect("a screen that leaves leaves the lobby");
    });
}

/// Issue 31: "once a game starts no device shows the code, so a late TV cannot join. [...]
/// every seated device can show the table's code at any time." A guest, seated at a game it
/// did not host, is given a code of its own when the game starts (every seated device
/// serves screens); a TV that joins by it mid-game follows the game to its audited end.
#[test]
fn a_late_screen_joins_by_a_guests_code_and_follows_the_game() {
    with_timeout(Duration::from_secs(180), || {
        let scratch = Scratch::new("watching-guest-code");
        let (mut host, code) = short_counter_table(&scratch, "The attic");
        host.handle.send(Command::AddBot);
        let mut guest = Device::start(&scratch.dir("guest"));
        guest.sit_down(&code);
        guest.handle.send(Command::Autoplay { on: true });
        host.wait_for(WAIT, |e| match e {
            Update::Lobby(l) if l.seats.len() == 3 && l.can_start => Some(()),
            _ => None,
        })
        .expect("a guest and a bot seated");
        host.handle.send(Command::Autoplay { on: true });
        host.handle.send(Command::Start);

        let guests_code = guest
            .wait_for(WAIT, |e| match e {
                Update::Ticket { ticket } => Some(ticket.clone()),
                _ => None,
            })
            .expect("the guest is given a code when the game starts");
        let read = ticket::decode(&guests_code).expect("the guest's code reads back");
        assert_ne!(guests_code, code, "the guest's own code, not the host's");
        guest
            .wait_for(WAIT, |e| match e {
                Update::Game(v) if v.step >= 4 => Some(()),
                _ => None,
            })
            .expect("the game is under way");
        assert!(
            ticket::decode(&code).expect("the host's code").id != read.id,
            "the code names the guest's device"
        );

        let mut screen = Device::start(&scratch.dir("screen"));
        screen.handle.send(Command::WatchTicket {
            ticket: guests_code,
        });
        let first = screen
            .wait_for(WAIT, |e| match e {
                Update::Screen(ScreenView::Game(v)) => Some((**v).clone()),
                _ => None,
            })
            .expect("the screen shows the game through the guest");
        assert_eq!(first.me, None, "a screen holds no seat");
        assert!(no_hand(&first.state), "a screen shows no hand");
        let end = played_out(&mut host);
        let shown = audited_on(&mut screen);
        assert_eq!(
            shown.state_hash, end.state_hash,
            "the very table everyone agreed on"
        );
    });
}

/// Issue 31: "After a game ended by agreement the shared screen stayed on 'Dee's turn'".
/// The agreement moves nothing a screen is fed; once the audit comes, the screen knows the
/// game was ended by agreement, not that it waits on someone.
#[test]
fn a_screen_shows_a_game_ended_by_agreement_as_ended() {
    with_timeout(Duration::from_secs(120), || {
        let scratch = Scratch::new("watching-agreed");
        let (mut host, code) = short_counter_table(&scratch, "The porch");
        seat_two_bots(&mut host);
        host.handle.send(Command::Start);
        host.wait_for(WAIT, |e| match e {
            Update::Game(v) if v.my_turn => Some(()),
            _ => None,
        })
        .expect("the host's turn");
        let mut screen = Device::start(&scratch.dir("screen"));
        screen.handle.send(Command::WatchTicket { ticket: code });
        screen
            .wait_for(WAIT, |e| match e {
                Update::Screen(ScreenView::Game(_)) => Some(()),
                _ => None,
            })
            .expect("the screen shows the game");
        host.handle.send(Command::EndGame { agree: true });
        let end = played_out(&mut host);
        assert!(end.ended_by_agreement, "the bots agree at once");
        let shown = audited_on(&mut screen);
        assert!(shown.outcome.is_none(), "not played out");
        assert!(
            shown.ended_by_agreement,
            "the screen shows the game ended by agreement"
        );
    });
}
