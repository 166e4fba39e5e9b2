//! The games a device keeps: opening one (new, or resumed from what it kept), and the list
//! of them the home screen shows.

use super::profile::{load_bots, save_bots};
use crate::core::Time;
use crate::error::{NetError, Result};
use crate::games::{ForGame, TableGame, with_game};
use crate::identity::{Random, SecretKey, SessionId};
use crate::session::{DONE_FILE, Session, SessionMeta, Table, session_dir};
use crate::storage::Folder;
use crate::table_types::SessionSummary;
use crate::wire::SignatureMemo;

pub(crate) const META_FILE: &str = "table.bin";
const PROGRESS_FILE: &str = "progress";

/// A saved game's metadata and the keys of the bots this device seated in it.
pub(crate) fn saved_game(
    data: &Folder,
    session: &SessionId,
) -> Result<(SessionMeta, Vec<SecretKey>)> {
    let dir = session_dir(data, session);
    let bytes = dir.read(META_FILE).map_err(|e| {
        NetError::Corrupt(format!("the saved game {session} could not be opened: {e}"))
    })?;
    let meta: SessionMeta = postcard::from_bytes(&bytes)
        .map_err(|e| NetError::Corrupt(format!("the saved game {session} is damaged: {e}")))?;
    Ok((meta, load_bots(&dir)?))
}

/// The games saved under `data` for the device whose key is `key`, as the home list shows
/// them: unfinished ones first, then those that are over, each newest first. `at_table` is
/// the game the device was playing when it last stopped, `playing` the table it is at now.
pub(crate) fn saved_games(
    data: &Folder,
    key: &SecretKey,
    at_table: Option<SessionId>,
    playing: Option<&dyn Table>,
    now: Time,
    random: &mut dyn Random,
) -> Vec<SessionSummary> {
    let sessions = data.join("sessions");
    let mut found = Vec::new();
    for name in sessions.list() {
        let dir = sessions.join(&name);
        let Some(meta) = dir
            .read(META_FILE)
            .ok()
            .and_then(|b| postcard::from_bytes::<SessionMeta>(&b).ok())
        else {
            continue;
        };
        let result = saved_result(data, &dir, &meta, key, playing, now, random);
        let turn = dir
            .read(PROGRESS_FILE)
            .ok()
            .and_then(|b| b.as_slice().try_into().ok().map(u32::from_le_bytes))
            .unwrap_or(0);
        found.push((
            dir.changed(),
            SessionSummary {
                session: meta.session(),
                game: meta.start.game.clone(),
                names: meta.start.seats.iter().map(|s| s.name.clone()).collect(),
                turn,
                // A game over is opened again too: a peer may still wait for this seat's
                // part of the audit, which the table gives only while it is open.
                interrupted: at_table == Some(meta.session()),
                result,
            },
        ));
    }
    found.sort_by_key(|f| (f.1.result.is_some(), std::cmp::Reverse(f.0)));
    found.into_iter().map(|(_, s)| s).collect()
}

/// How a saved game ended, in words, if it is over: `None` while it can go on.
///
/// The session writes the words into its [`DONE_FILE`] once its records are kept, and
/// leaves the file empty where there was no room for them (issue 27). An empty file is
/// filled in from the game itself: the table being played says it, any other game is read
/// back from its log as for a replay, and the words are written for the next listing.
/// Only a game that cannot be read back is a bare "Over".
fn saved_result(
    data: &Folder,
    dir: &Folder,
    meta: &SessionMeta,
    key: &SecretKey,
    playing: Option<&dyn Table>,
    now: Time,
    random: &mut dyn Random,
) -> Option<String> {
    let words = dir.read(DONE_FILE).ok()?;
    let words: String = String::from_utf8_lossy(&words)
        .trim()
        .chars()
        .take(120)
        .collect();
    if !words.is_empty() {
        return Some(words);
    }
    let ending = match playing {
        // Its own session writes the file as soon as it can.
        Some(table) if table.session() == meta.session() => table.ending(),
        _ => {
            let read_back = load_bots(dir).and_then(|bots| {
                open_table(
                    data,
                    meta.clone(),
                    key,
                    &bots,
                    false,
                    now,
                    true,
                    random,
                    None,
                )
            });
            match read_back {
                Ok(table) => {
                    let ending = table.ending();
                    if let Some(words) = &ending {
                        // Best effort: unwritten, it is worked out again next time.
                        let _ = dir.write(DONE_FILE, words.as_bytes());
                    }
                    ending
                }
                Err(e) => {
                    tracing::warn!(
                        "the saved game {} could not be read back: {e}",
                        meta.session()
                    );
                    None
                }
            }
        }
    };
    Some(ending.unwrap_or_else(|| "Over".into()))
}

/// Opens (or creates) this device's side of a session: its meta and bots' keys kept
/// first, then a core per local seat.
#[allow(clippy::too_many_arguments)]
pub(crate) fn open_table(
    data: &Folder,
    meta: SessionMeta,
    key: &SecretKey,
    bots: &[SecretKey],
    autoplay: bool,
    now: Time,
    resume: bool,
    random: &mut dyn Random,
    memo: Option<&SignatureMemo>,
) -> Result<Box<dyn Table>> {
    meta.check()?;
    let dir = session_dir(data, &meta.session());
    if !resume {
        dir.write(META_FILE, &postcard::to_stdvec(&meta).unwrap_or_default())?;
        if !bots.is_empty() {
            save_bots(&dir, bots)?;
        }
    }
    let game = meta.start.game.clone();
    let open = Open {
        dir,
        meta,
        key,
        bots,
        autoplay,
        now,
        resume,
        random,
        memo,
    };
    with_game(&game, open).unwrap_or_else(|| {
        Err(NetError::BadStart(format!(
            "this device does not know the game {game}"
        )))
    })
}

/// A session of the game its start names, opened by [`open_table`].
struct Open<'a> {
    dir: Folder,
    meta: SessionMeta,
    key: &'a SecretKey,
    bots: &'a [SecretKey],
    autoplay: bool,
    now: Time,
    resume: bool,
    random: &'a mut dyn Random,
    memo: Option<&'a SignatureMemo>,
}

impl ForGame for Open<'_> {
    type Out = Result<Box<dyn Table>>;

    fn run<G: TableGame>(self) -> Self::Out {
        let Open {
            dir,
            meta,
            key,
            bots,
            autoplay,
            now,
            resume,
            random,
            memo,
        } = self;
        let mut cfg = G::core_config();
        cfg.memo = memo.cloned();
        Ok(Box::new(Session::<G>::open_with(
            dir, meta, key, bots, autoplay, now, resume, cfg, random,
        )?))
    }
}
