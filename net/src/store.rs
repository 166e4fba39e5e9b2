//! The store: what one seat keeps of one session on disk, so a restarted device picks the
//! game up where it left it.
//!
//! A session folder holds four files, each a magic header then length-prefixed records
//! (`u32` length, the first 4 bytes of the payload's BLAKE3, the payload):
//!
//! - `start`   — the session's [`Start`], written once (to a temporary file, then renamed);
//! - `log`     — the messages the seat signed that it could not make again the same way
//!   after a crash (commitments, open moves, votes, accepts, reveals), in order (canonical
//!   wire bytes);
//! - `inbox`   — the rest the core kept, in order: the peers' messages, and the seat's own
//!   openings and chain links, which it makes again byte for byte from its secrets;
//! - `secrets` — the seat's [`SecretRecord`]s (game secret, chain seed, sealed salts), owner
//!   readable only.
//!
//! Records are gathered by [`SeatStore::persist`] and written together by
//! [`SeatStore::flush`], which the driver calls before any transmit leaves: secrets, then
//! the log, each fsync'd, then the inbox, which is not. What the seat chose must survive a
//! crash; what it heard is sent again by the table, and what it can make again is made
//! again, so waiting on the disk for either would only put an fsync on the path of a step.
//!
//! A crash mid-write leaves a torn tail: an incomplete last record, or zeros the
//! filesystem had not yet filled. Reading detects it and drops it (and trims it off the
//! file), never misreads it. Damage anywhere else in the log or the secrets is a clear
//! error. The inbox, never fsync'd, may have lost any part of what the system had not yet
//! written back, so it is read up to its first bad record and the rest dropped.

use crate::core::{Persist, Saved, SecretRecord};
use crate::error::{NetError, Result};
use crate::identity::Start;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The first bytes of each file.
pub const START_MAGIC: &[u8; 8] = b"HOARDst1";
pub const LOG_MAGIC: &[u8; 8] = b"HOARDlg1";
pub const SECRETS_MAGIC: &[u8; 8] = b"HOARDsc1";
pub const INBOX_MAGIC: &[u8; 8] = b"HOARDib1";
/// No record is larger than this; anything claiming more is damage.
pub const MAX_RECORD: usize = 1 << 20;
const HEADER: usize = 8;

const START_FILE: &str = "start";
const LOG_FILE: &str = "log";
const SECRETS_FILE: &str = "secrets";
const INBOX_FILE: &str = "inbox";

fn checksum(payload: &[u8]) -> [u8; 4] {
    let h = blake3::hash(payload);
    let mut c = [0u8; 4];
    c.copy_from_slice(&h.as_bytes()[..4]);
    c
}

/// Appends one framed record to `buf`.
pub fn frame(buf: &mut Vec<u8>, payload: &[u8]) {
    buf.extend_from_slice(&(payload.len() as u32).to_le_bytes());
    buf.extend_from_slice(&checksum(payload));
    buf.extend_from_slice(payload);
}

/// The records of one file, as read.
#[derive(Debug, PartialEq, Eq)]
pub struct Records<'a> {
    pub records: Vec<&'a [u8]>,
    /// Where a torn tail began (the length the file should be cut to), if there was one.
    pub torn_at: Option<usize>,
}

/// What a damaged record (one that is not a torn tail) means.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Damage {
    /// An error: the file held what must not be lost.
    Refuse,
    /// The end of what can be read: the file was never fsync'd, so a crash may have left a
    /// hole anywhere in it, and everything from the hole on is dropped.
    CutThere,
}

/// Reads a file's records. `what` names the file for errors ("the game log").
pub fn read_records<'a>(bytes: &'a [u8], magic: &[u8; 8], what: &str) -> Result<Records<'a>> {
    records_of(bytes, magic, what, Damage::Refuse)
}

fn records_of<'a>(
    bytes: &'a [u8],
    magic: &[u8; 8],
    what: &str,
    damage: Damage,
) -> Result<Records<'a>> {
    let corrupt = |why: String| Err(NetError::Corrupt(format!("{what}: {why}")));
    if !bytes.is_empty() && bytes.iter().all(|b| *b == 0) {
        // Created, then a crash before its first bytes reached the disk.
        return Ok(Records {
            records: Vec::new(),
            torn_at: Some(0),
        });
    }
    if bytes.len() < magic.len() {
        // A crash while the file was being created: nothing was in it yet.
        return if magic.starts_with(bytes) {
            Ok(Records {
                records: Vec::new(),
                torn_at: (!bytes.is_empty()).then_some(0),
            })
        } else {
            corrupt("this is not a Hoard file".into())
        };
    }
    if &bytes[..magic.len()] != magic {
        return corrupt("this is not a Hoard file, or one from another version".into());
    }
    let mut records = Vec::new();
    let mut at = magic.len();
    while at < bytes.len() {
        let rest = &bytes[at..];
        // What was read before `at`, the rest cut off (made only when returned).
        let torn = |records| {
            Ok(Records {
                records,
                torn_at: Some(at),
            })
        };
        if rest.iter().all(|b| *b == 0) || rest.len() < HEADER {
            return torn(records);
        }
        let len = u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]) as usize;
        let sum = [rest[4], rest[5], rest[6], rest[7]];
        if len > rest.len() - HEADER {
            // The file ends inside this record: a torn write, unless the "record" would be
            // larger than any record can be, which is damage.
            return if rest.len() <= HEADER + MAX_RECORD && len <= MAX_RECORD
                || damage == Damage::CutThere
            {
                torn(records)
            } else {
                corrupt(format!("a record at byte {at} claims {len} bytes"))
            };
        }
        let payload = &rest[HEADER..HEADER + len];
        if checksum(payload) != sum {
            let after = &rest[HEADER + len..];
            return if after.iter().all(|b| *b == 0) || damage == Damage::CutThere {
                torn(records)
            } else {
                corrupt(format!("the record at byte {at} is damaged"))
            };
        }
        records.push(payload);
        at += HEADER + len;
    }
    Ok(Records {
        records,
        torn_at: None,
    })
}

/// Reads a `start` file.
pub fn read_start(bytes: &[u8]) -> Result<Start> {
    let what = "the game's start";
    let r = read_records(bytes, START_MAGIC, what)?;
    match (r.records.as_slice(), r.torn_at) {
        ([one], None) => postcard::from_bytes(one)
            .map_err(|e| NetError::Corrupt(format!("{what} could not be read: {e}"))),
        _ => Err(NetError::Corrupt(format!(
            "{what} is incomplete or damaged"
        ))),
    }
}

/// Reads a `secrets` file.
pub fn read_secrets(bytes: &[u8]) -> Result<(Vec<SecretRecord>, Option<usize>)> {
    let what = "the seat's secrets";
    let r = read_records(bytes, SECRETS_MAGIC, what)?;
    let mut out = Vec::with_capacity(r.records.len());
    for (i, rec) in r.records.iter().enumerate() {
        out.push(postcard::from_bytes(rec).map_err(|e| {
            NetError::Corrupt(format!("{what}: record {i} could not be read: {e}"))
        })?);
    }
    Ok((out, r.torn_at))
}

/// Reads a `log` file: the raw messages (the core decodes and checks them on resume).
pub fn read_log(bytes: &[u8]) -> Result<(Vec<Vec<u8>>, Option<usize>)> {
    let r = read_records(bytes, LOG_MAGIC, "the game log")?;
    Ok((r.records.iter().map(|r| r.to_vec()).collect(), r.torn_at))
}

/// Reads an `inbox` file: its records up to the first that does not check out, and where
/// to cut the file (everything after it may be a crash's hole). Only a file that is not an
/// inbox at all is an error.
pub fn read_inbox(bytes: &[u8]) -> Result<(Vec<Vec<u8>>, Option<usize>)> {
    let r = records_of(bytes, INBOX_MAGIC, "the kept messages", Damage::CutThere)?;
    Ok((r.records.iter().map(|r| r.to_vec()).collect(), r.torn_at))
}

/// Where each file's torn tail began, if it has one.
#[derive(Default)]
struct Torn {
    log: Option<usize>,
    inbox: Option<usize>,
    secrets: Option<usize>,
}

/// One seat's files for one session.
pub struct SeatStore {
    dir: PathBuf,
    log: File,
    inbox: File,
    secrets: File,
    log_buf: Vec<u8>,
    inbox_buf: Vec<u8>,
    secrets_buf: Vec<u8>,
}

fn read_or_empty(path: &Path) -> Result<Vec<u8>> {
    match std::fs::read(path) {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

/// Opens a file for appending, writing its magic if it is new and cutting off a torn tail.
fn open_append(
    path: &Path,
    magic: &[u8; 8],
    torn_at: Option<usize>,
    private: bool,
) -> Result<File> {
    let mut opts = OpenOptions::new();
    opts.create(true).read(true).write(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let mut file = opts.open(path)?;
    let len = file.metadata()?.len() as usize;
    if let Some(at) = torn_at {
        file.set_len(at as u64)?;
        file.sync_data()?;
    }
    let len = torn_at.unwrap_or(len);
    if len < magic.len() {
        file.set_len(0)?;
        file.write_all(magic)?;
        file.sync_data()?;
    }
    // Append from here on (the cursor of a non-append handle would overwrite).
    drop(file);
    Ok(OpenOptions::new().append(true).open(path)?)
}

fn sync_dir(dir: &Path) {
    // Makes a new file's name durable; not every platform can open a directory.
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

impl SeatStore {
    /// A new session folder holding `start`.
    pub fn create(dir: &Path, start: &Start) -> Result<SeatStore> {
        std::fs::create_dir_all(dir)?;
        let mut bytes = START_MAGIC.to_vec();
        let payload = postcard::to_stdvec(start)
            .map_err(|e| NetError::BadStart(format!("the start could not be written: {e}")))?;
        frame(&mut bytes, &payload);
        let tmp = dir.join("start.tmp");
        {
            let mut f = File::create(&tmp)?;
            f.write_all(&bytes)?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, dir.join(START_FILE))?;
        sync_dir(dir);
        SeatStore::at(dir, Torn::default())
    }

    fn at(dir: &Path, torn: Torn) -> Result<SeatStore> {
        let store = SeatStore {
            dir: dir.to_path_buf(),
            log: open_append(&dir.join(LOG_FILE), LOG_MAGIC, torn.log, false)?,
            inbox: open_append(&dir.join(INBOX_FILE), INBOX_MAGIC, torn.inbox, false)?,
            secrets: open_append(&dir.join(SECRETS_FILE), SECRETS_MAGIC, torn.secrets, true)?,
            log_buf: Vec::new(),
            inbox_buf: Vec::new(),
            secrets_buf: Vec::new(),
        };
        sync_dir(dir);
        Ok(store)
    }

    /// Opens an existing session folder and reads everything the seat kept, for
    /// [`crate::Core::resume`]. A torn tail is dropped (and cut off the file).
    pub fn open(dir: &Path) -> Result<(SeatStore, Saved)> {
        let start_bytes = std::fs::read(dir.join(START_FILE)).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                NetError::Corrupt("this game's start is missing".into())
            } else {
                e.into()
            }
        })?;
        let start = read_start(&start_bytes)?;
        let (mut messages, log) = read_log(&read_or_empty(&dir.join(LOG_FILE))?)?;
        let (received, inbox) = read_inbox(&read_or_empty(&dir.join(INBOX_FILE))?)?;
        let (secrets, secrets_torn) = read_secrets(&read_or_empty(&dir.join(SECRETS_FILE))?)?;
        messages.extend(received);
        let torn = Torn {
            log,
            inbox,
            secrets: secrets_torn,
        };
        let store = SeatStore::at(dir, torn)?;
        Ok((
            store,
            Saved {
                start: Some(start),
                messages,
                secrets,
            },
        ))
    }

    /// The session folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Queues a record; it is durable only after [`SeatStore::flush`].
    pub fn persist(&mut self, record: &Persist) -> Result<()> {
        match record {
            Persist::Message(bytes) => frame(&mut self.log_buf, bytes),
            Persist::Replayable(bytes) => frame(&mut self.inbox_buf, bytes),
            Persist::Secret(s) => {
                let payload = postcard::to_stdvec(s).map_err(|e| {
                    NetError::Corrupt(format!("a secret could not be written: {e}"))
                })?;
                frame(&mut self.secrets_buf, &payload);
            }
        }
        Ok(())
    }

    /// Writes everything persisted so far: secrets first (a sealed play's salt before
    /// anything that depends on it), then the log, each made durable (one fsync per file
    /// touched), then the inbox, written but not waited on.
    pub fn flush(&mut self) -> Result<()> {
        for (file, buf, durable) in [
            (&mut self.secrets, &mut self.secrets_buf, true),
            (&mut self.log, &mut self.log_buf, true),
            (&mut self.inbox, &mut self.inbox_buf, false),
        ] {
            if !buf.is_empty() {
                file.write_all(buf)?;
                if durable {
                    file.sync_data()?;
                }
                buf.clear();
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::{SeatSpec, SecretKey};

    fn start() -> Start {
        Start {
            game: "highcard".into(),
            config: vec![1, 2, 3],
            seats: (1..=3u8)
                .map(|i| SeatSpec {
                    key: SecretKey::from_bytes(&[i; 32]).public(),
                    name: format!("P{i}"),
                })
                .collect(),
            nonce: [9; 32],
        }
    }

    fn tempdir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("hoard-store-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    fn secret(i: u8) -> SecretRecord {
        match i % 3 {
            0 => SecretRecord::Sealed {
                step: i as u32,
                log: [i; 32],
                salt: [i + 1; 32],
                input: vec![i; 3],
            },
            1 => SecretRecord::Standing {
                target: i,
                choice: Some((i as u32 * 10, crate::wire::VoteAction::Skip)),
            },
            _ => SecretRecord::Standing {
                target: i,
                choice: None,
            },
        }
    }

    #[test]
    fn what_was_flushed_is_read_back_in_order() {
        let dir = tempdir("roundtrip");
        let mut s = SeatStore::create(&dir, &start()).unwrap();
        for i in 0..5u8 {
            s.persist(&Persist::Message(vec![i; i as usize + 1]))
                .unwrap();
            s.persist(&Persist::Secret(secret(i))).unwrap();
        }
        s.flush().unwrap();
        drop(s);
        let (mut s, saved) = SeatStore::open(&dir).unwrap();
        assert_eq!(saved.start, Some(start()));
        assert_eq!(
            saved.messages,
            (0..5u8)
                .map(|i| vec![i; i as usize + 1])
                .collect::<Vec<_>>()
        );
        assert_eq!(saved.secrets, (0..5u8).map(secret).collect::<Vec<_>>());
        // Appending after a reopen continues the same files.
        s.persist(&Persist::Message(vec![42])).unwrap();
        s.flush().unwrap();
        let (_, saved) = SeatStore::open(&dir).unwrap();
        assert_eq!(saved.messages.len(), 6);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_torn_tail_after_a_crash_is_dropped_and_cut_off_never_misread() {
        let dir = tempdir("torn");
        let mut s = SeatStore::create(&dir, &start()).unwrap();
        for i in 0..3u8 {
            s.persist(&Persist::Message(vec![i; 10])).unwrap();
        }
        s.flush().unwrap();
        drop(s);
        let path = dir.join(LOG_FILE);
        let whole = std::fs::read(&path).unwrap();
        // Every way the last write could have stopped short.
        for cut in (whole.len() - 18 + 1)..whole.len() {
            std::fs::write(&path, &whole[..cut]).unwrap();
            let (_, saved) = SeatStore::open(&dir).unwrap();
            assert_eq!(
                saved.messages,
                vec![vec![0u8; 10], vec![1u8; 10]],
                "cut at {cut}"
            );
            assert_eq!(
                std::fs::read(&path).unwrap().len(),
                whole.len() - 18,
                "trimmed"
            );
        }
        // A tail of zeros (blocks allocated but never written) is torn too.
        let mut zeros = whole.clone();
        zeros.extend_from_slice(&[0u8; 4096]);
        std::fs::write(&path, &zeros).unwrap();
        let (_, saved) = SeatStore::open(&dir).unwrap();
        assert_eq!(saved.messages.len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn damage_in_the_middle_is_a_clear_error_not_a_panic() {
        let dir = tempdir("corrupt");
        let mut s = SeatStore::create(&dir, &start()).unwrap();
        for i in 0..3u8 {
            s.persist(&Persist::Message(vec![i; 10])).unwrap();
        }
        s.flush().unwrap();
        drop(s);
        let path = dir.join(LOG_FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[HEADER + 8 + 3] ^= 0x40; // inside the first record's payload
        std::fs::write(&path, &bytes).unwrap();
        let err = SeatStore::open(&dir).err().expect("damage must be refused");
        assert!(err.to_string().contains("damaged"), "{err}");

        std::fs::write(&path, b"not a hoard file at all").unwrap();
        let err = SeatStore::open(&dir)
            .err()
            .expect("a foreign file must be refused");
        assert!(err.to_string().contains("not a Hoard file"), "{err}");

        std::fs::write(dir.join(START_FILE), b"HOARDst1\x05\x00").unwrap();
        assert!(SeatStore::open(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The peers' messages go to the inbox, which is not fsync'd: a crash can leave a hole
    /// anywhere in what was written since the log's last fsync. The seat's own messages
    /// are all read back; of the peers', those before the hole (the rest comes again from
    /// the table), and the file is cut there so that new records follow good ones.
    #[test]
    fn a_hole_in_the_peers_messages_loses_only_what_follows_it() {
        let dir = tempdir("inbox");
        let mut s = SeatStore::create(&dir, &start()).unwrap();
        s.persist(&Persist::Message(vec![1; 10])).unwrap();
        for i in 0..3u8 {
            s.persist(&Persist::Replayable(vec![10 + i; 10])).unwrap();
        }
        s.persist(&Persist::Message(vec![2; 10])).unwrap();
        s.flush().unwrap();
        drop(s);
        let (_, saved) = SeatStore::open(&dir).unwrap();
        let mut all = saved.messages.clone();
        all.sort();
        assert_eq!(
            all,
            vec![
                vec![1; 10],
                vec![2; 10],
                vec![10; 10],
                vec![11; 10],
                vec![12; 10]
            ]
        );

        // Zeros where the second record was, the third intact after them.
        let path = dir.join(INBOX_FILE);
        let mut bytes = std::fs::read(&path).unwrap();
        let second = HEADER + (HEADER + 10);
        bytes[second..second + HEADER + 10].fill(0);
        std::fs::write(&path, &bytes).unwrap();
        let (mut s, saved) = SeatStore::open(&dir).unwrap();
        assert_eq!(saved.messages, vec![vec![1; 10], vec![2; 10], vec![10; 10]]);
        assert_eq!(std::fs::metadata(&path).unwrap().len() as usize, second);
        // What comes next follows the good records.
        s.persist(&Persist::Replayable(vec![13; 10])).unwrap();
        s.flush().unwrap();
        drop(s);
        let (_, saved) = SeatStore::open(&dir).unwrap();
        assert_eq!(saved.messages[3..], [vec![13; 10]][..]);

        // A file that is not an inbox at all is still refused.
        std::fs::write(&path, b"not a hoard file at all").unwrap();
        assert!(SeatStore::open(&dir).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
