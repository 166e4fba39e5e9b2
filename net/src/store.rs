//! The store: what one seat keeps of one session in its device's storage (a
//! [`Folder`]), so a restarted device picks the game up where it left it.
//!
//! A session folder holds four files, each a magic header then length-prefixed records
//! (`u32` length, the first 4 bytes of the payload's BLAKE3, the payload):
//!
//! - `start`   — the session's [`Start`], written once, whole or not at all
//!   ([`Folder::write`]);
//! - `log`     — the messages the seat signed that it could not make again the same way
//!   after a crash (open moves, votes, accepts, reveals), in order (canonical wire bytes);
//! - `inbox`   — the rest the core kept, in order: the peers' messages, and the seat's own
//!   sealed plays' commitments and openings and its chain links, which it makes again byte
//!   for byte from its secrets;
//! - `secrets` — the seat's [`SecretRecord`]s (game secret, chain seed, sealed salts), owner
//!   readable only.
//!
//! Records are gathered by [`SeatStore::persist`] and written together by
//! [`SeatStore::flush`], which the driver calls before any transmit leaves: secrets, then
//! the log, each made durable, then the inbox, which is not. What the seat chose must
//! survive a crash; what it heard is sent again by the table, and what it can make again is
//! made again, so waiting on the disk for either would only put an fsync on the path of a
//! step.
//!
//! A write that fails (a full disk, a failed fsync) may still have put part of its bytes in
//! the file. The store cuts each file back to the length it had after its last good write
//! and keeps what it could not write, to try again on the next flush: a disk that fills up
//! and then has room again leaves the same files a disk that never filled would have.
//!
//! A crash mid-write leaves a torn tail: an incomplete last record, or zeros the
//! filesystem had not yet filled. Reading detects it and drops it (and trims it off the
//! file), never misreads it. A last record that is complete but fails its checksum is
//! taken for a torn write too (a crash can leave old blocks' bytes in it), though it may
//! have been sent: an accept is made again the same from the seat's secrets (see
//! [`crate::Core::resume`]); an open move or a vote so lost is not, and
//! the player may choose differently. Damage anywhere else in the log or the secrets is a
//! clear error. The inbox, never made durable, may have lost any part of what the system
//! had not yet written back, so it is read up to its first bad record and the rest dropped.
//!
//! The secrets file, like every file holding a key or a secret, is written and read as
//! private: on disk, readable by its owner only ([`crate::storage::owner_only`]).

use crate::core::{Persist, Saved, SecretRecord};
use crate::error::{NetError, Result};
use crate::identity::Start;
use crate::storage::Folder;
use std::io::ErrorKind;

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

/// One of a seat's append-only files and the records waiting to be written to it.
struct Appender {
    dir: Folder,
    name: &'static str,
    buf: Vec<u8>,
    /// The file's length after its last complete write (made durable, if `durable`): what
    /// a failed write is cut back to.
    good: u64,
    /// Made durable by each write.
    durable: bool,
    /// Holds secrets: readable by this device's user only.
    private: bool,
    /// A failed write left bytes past `good` that could not be cut off yet.
    cut_owed: bool,
}

impl Appender {
    /// Opens the file `name` in `dir` for appending: cuts off a torn tail, and writes the
    /// magic into a file that is new (or held nothing whole).
    fn open(
        dir: &Folder,
        name: &'static str,
        magic: &[u8; 8],
        torn_at: Option<usize>,
        private: bool,
        durable: bool,
    ) -> Result<Appender> {
        let len = match dir.len(name) {
            Ok(len) => Some(len),
            Err(e) if e.kind() == ErrorKind::NotFound => None,
            Err(e) => return Err(e.into()),
        };
        let mut good = match (len, torn_at) {
            (Some(_), Some(at)) => {
                dir.truncate(name, at as u64)?;
                at as u64
            }
            (len, _) => len.unwrap_or(0),
        };
        if good < magic.len() as u64 {
            if good > 0 {
                dir.truncate(name, 0)?;
            }
            dir.append(name, magic, true, private)?;
            good = magic.len() as u64;
        }
        Ok(Appender {
            dir: dir.clone(),
            name,
            buf: Vec::new(),
            good,
            durable,
            private,
            cut_owed: false,
        })
    }

    /// Makes what the file holds durable, if its writes do not.
    fn sync(&mut self) -> std::io::Result<()> {
        if self.durable {
            return Ok(());
        }
        self.dir.append(self.name, &[], true, self.private)
    }

    /// Writes what is waiting. On any failure the file is cut back to its last good length
    /// and the records stay waiting, so the next try writes them after good records, never
    /// after the part of them that did reach the file.
    fn flush(&mut self) -> std::io::Result<()> {
        if self.cut_owed {
            self.cut()?;
        }
        if self.buf.is_empty() {
            return Ok(());
        }
        match self
            .dir
            .append(self.name, &self.buf, self.durable, self.private)
        {
            Ok(()) => {
                self.good += self.buf.len() as u64;
                self.buf.clear();
                Ok(())
            }
            Err(e) => {
                self.cut_owed = true;
                // A cut that fails as well is tried again before the next write.
                let _ = self.cut();
                Err(e)
            }
        }
    }

    fn cut(&mut self) -> std::io::Result<()> {
        self.dir.truncate(self.name, self.good)?;
        self.cut_owed = false;
        Ok(())
    }
}

/// One seat's files for one session.
pub struct SeatStore {
    dir: Folder,
    secrets: Appender,
    log: Appender,
    inbox: Appender,
}

/// The file `name` in `dir`, or nothing if there is none; `private`: it holds secrets.
fn read_or_empty(dir: &Folder, name: &str, private: bool) -> Result<Vec<u8>> {
    let read = if private {
        dir.read_private(name)
    } else {
        dir.read(name)
    };
    match read {
        Ok(b) => Ok(b),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

impl SeatStore {
    /// A new session folder holding `start`.
    pub fn create(dir: &Folder, start: &Start) -> Result<SeatStore> {
        let mut bytes = START_MAGIC.to_vec();
        let payload = postcard::to_stdvec(start)
            .map_err(|e| NetError::BadStart(format!("the start could not be written: {e}")))?;
        frame(&mut bytes, &payload);
        dir.write(START_FILE, &bytes)?;
        SeatStore::at(dir, Torn::default())
    }

    fn at(dir: &Folder, torn: Torn) -> Result<SeatStore> {
        Ok(SeatStore {
            dir: dir.clone(),
            secrets: Appender::open(dir, SECRETS_FILE, SECRETS_MAGIC, torn.secrets, true, true)?,
            log: Appender::open(dir, LOG_FILE, LOG_MAGIC, torn.log, false, true)?,
            inbox: Appender::open(dir, INBOX_FILE, INBOX_MAGIC, torn.inbox, false, false)?,
        })
    }

    /// Opens an existing session folder and reads everything the seat kept, for
    /// [`crate::Core::resume`]. A torn tail is dropped (and cut off the file). A folder that
    /// holds a seat of another session than `expected` is refused.
    pub fn open(dir: &Folder, expected: &Start) -> Result<(SeatStore, Saved)> {
        let start_bytes = dir.read(START_FILE).map_err(|e| {
            if e.kind() == ErrorKind::NotFound {
                NetError::Corrupt("this game's start is missing".into())
            } else {
                e.into()
            }
        })?;
        let start = read_start(&start_bytes)?;
        if start != *expected {
            return Err(NetError::Corrupt(format!(
                "the folder {} holds a seat at another game ({}, {} players) than this one ({})",
                dir.path(),
                start.session(),
                start.seat_count(),
                expected.session()
            )));
        }
        let (mut messages, log) = read_log(&read_or_empty(dir, LOG_FILE, false)?)?;
        let (received, inbox) = read_inbox(&read_or_empty(dir, INBOX_FILE, false)?)?;
        let (secrets, secrets_torn) = read_secrets(&read_or_empty(dir, SECRETS_FILE, true)?)?;
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
    pub fn dir(&self) -> &Folder {
        &self.dir
    }

    /// Queues a record; it is durable only after [`SeatStore::flush`].
    pub fn persist(&mut self, record: &Persist) -> Result<()> {
        match record {
            Persist::Message(bytes) => frame(&mut self.log.buf, bytes),
            Persist::Replayable(bytes) => frame(&mut self.inbox.buf, bytes),
            Persist::Secret(s) => {
                let payload = postcard::to_stdvec(s).map_err(|e| {
                    NetError::Corrupt(format!("a secret could not be written: {e}"))
                })?;
                frame(&mut self.secrets.buf, &payload);
            }
        }
        Ok(())
    }

    /// Writes everything persisted so far: secrets first (a sealed play's salt before
    /// anything that depends on it), then the log, each made durable (one fsync per file
    /// touched), then the inbox, written but not waited on. On an error nothing after the
    /// failed file is written, every file is as its last good write left it, and what was
    /// not written waits for the next flush.
    pub fn flush(&mut self) -> Result<()> {
        self.secrets.flush()?;
        self.log.flush()?;
        self.inbox.flush()?;
        Ok(())
    }

    /// [`SeatStore::flush`], and what the seat heard made durable as well: once, at the end
    /// of a game, before the game is listed as over. The table no longer sends what a crash
    /// would lose then, and the game's replay runs the audit again from the disk alone.
    pub fn flush_all_durable(&mut self) -> Result<()> {
        self.flush()?;
        self.inbox.sync()?;
        Ok(())
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::identity::{SeatSpec, SecretKey};
    use crate::storage::{DiskStorage, MemStorage, Storage};
    use std::io;
    use std::path::PathBuf;
    use std::sync::{Arc, Mutex, MutexGuard};

    /// A disk with little room over another storage, shared by every file written through
    /// it: appends land until the room runs out, then stop short with "no space left", as a
    /// full disk's do (the bytes that fitted stay in the file); a durable append can be made
    /// to fail to reach the disk; cutting a file frees its room.
    #[derive(Clone)]
    pub(crate) struct SmallDisk {
        inner: Arc<dyn Storage>,
        room: Arc<Mutex<Room>>,
    }

    struct Room {
        left: u64,
        failing_syncs: u32,
    }

    impl SmallDisk {
        pub(crate) fn over(inner: Arc<dyn Storage>, room: u64) -> SmallDisk {
            SmallDisk {
                inner,
                room: Arc::new(Mutex::new(Room {
                    left: room,
                    failing_syncs: 0,
                })),
            }
        }

        /// The top of the disk.
        pub(crate) fn root(&self) -> Folder {
            Folder::root(Arc::new(self.clone()))
        }

        fn room(&self) -> MutexGuard<'_, Room> {
            self.room.lock().unwrap_or_else(|e| e.into_inner())
        }

        /// Files elsewhere were deleted.
        pub(crate) fn make_room(&self, bytes: u64) {
            let mut room = self.room();
            room.left = room.left.saturating_add(bytes);
        }

        /// Files elsewhere filled the disk up to `bytes` left.
        pub(crate) fn set_room(&self, bytes: u64) {
            self.room().left = bytes;
        }

        /// The next `n` durable appends fail to reach the disk.
        pub(crate) fn fail_syncs(&self, n: u32) {
            self.room().failing_syncs = n;
        }
    }

    fn no_space() -> io::Error {
        io::Error::new(ErrorKind::StorageFull, "no space left on device")
    }

    impl Storage for SmallDisk {
        fn read(&self, path: &str) -> io::Result<Vec<u8>> {
            self.inner.read(path)
        }

        fn read_private(&self, path: &str) -> io::Result<Vec<u8>> {
            self.inner.read_private(path)
        }

        fn write(&self, path: &str, bytes: &[u8], private: bool) -> io::Result<()> {
            let mut room = self.room();
            let old = self.inner.len(path).unwrap_or(0);
            // The new file is written whole beside the old one before it takes its place.
            if bytes.len() as u64 > room.left {
                return Err(no_space());
            }
            self.inner.write(path, bytes, private)?;
            room.left = (room.left - bytes.len() as u64).saturating_add(old);
            Ok(())
        }

        fn append(&self, path: &str, bytes: &[u8], durable: bool, private: bool) -> io::Result<()> {
            let mut room = self.room();
            let fits = (bytes.len() as u64).min(room.left) as usize;
            let whole = fits == bytes.len();
            let sync_fails = durable && whole && room.failing_syncs > 0;
            self.inner.append(
                path,
                &bytes[..fits],
                durable && whole && !sync_fails,
                private,
            )?;
            room.left -= fits as u64;
            if !whole {
                return Err(no_space());
            }
            if sync_fails {
                room.failing_syncs -= 1;
                return Err(io::Error::other(
                    "the disk could not make the write durable",
                ));
            }
            Ok(())
        }

        fn len(&self, path: &str) -> io::Result<u64> {
            self.inner.len(path)
        }

        fn truncate(&self, path: &str, len: u64) -> io::Result<()> {
            let mut room = self.room();
            let old = self.inner.len(path)?;
            self.inner.truncate(path, len)?;
            room.left = room.left.saturating_add(old.saturating_sub(len));
            Ok(())
        }

        fn remove(&self, path: &str) -> io::Result<()> {
            self.inner.remove(path)
        }

        fn list(&self, path: &str) -> Vec<String> {
            self.inner.list(path)
        }

        fn changed(&self, path: &str) -> Option<u64> {
            self.inner.changed(path)
        }
    }

    /// A real tmpfs of `size` mounted for one test, unmounted when dropped; `None`, with a
    /// note, where this machine does not let a test mount one.
    pub(crate) struct Tmpfs(pub(crate) PathBuf);

    impl Tmpfs {
        pub(crate) fn mount(name: &str, size: &str) -> Option<Tmpfs> {
            let dir = tempdir(name);
            std::fs::create_dir_all(&dir).ok()?;
            let mounted = std::process::Command::new("mount")
                .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
                .arg(&dir)
                .stdin(std::process::Stdio::null())
                .output();
            match mounted {
                Ok(out) if out.status.success() => Some(Tmpfs(dir)),
                other => {
                    let why = match other {
                        Ok(out) => String::from_utf8_lossy(&out.stderr).trim().to_string(),
                        Err(e) => e.to_string(),
                    };
                    eprintln!("note: no small tmpfs could be mounted here ({why}); skipped");
                    let _ = std::fs::remove_dir(&dir);
                    None
                }
            }
        }
    }

    impl Drop for Tmpfs {
        fn drop(&mut self) {
            let _ = std::process::Command::new("umount").arg(&self.0).status();
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    /// Where one test keeps its store: in memory, or on this machine's disk under a
    /// temporary folder that is removed when the place is dropped.
    struct Place {
        storage: Arc<dyn Storage>,
        disk: Option<PathBuf>,
    }

    impl Place {
        /// The seat's folder.
        fn dir(&self) -> Folder {
            Folder::root(self.storage.clone()).join("seat-0")
        }
    }

    impl Drop for Place {
        fn drop(&mut self) {
            if let Some(dir) = &self.disk {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }

    /// A test's places: every store test runs in memory and on disk alike.
    fn places(name: &str) -> [Place; 2] {
        let disk = tempdir(name);
        [
            Place {
                storage: Arc::new(MemStorage::new()),
                disk: None,
            },
            Place {
                storage: Arc::new(DiskStorage::new(&disk)),
                disk: Some(disk),
            },
        ]
    }

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
        for place in places("roundtrip") {
            let dir = place.dir();
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            for i in 0..5u8 {
                s.persist(&Persist::Message(vec![i; i as usize + 1]))
                    .unwrap();
                s.persist(&Persist::Secret(secret(i))).unwrap();
            }
            s.flush().unwrap();
            drop(s);
            let (mut s, saved) = SeatStore::open(&dir, &start()).unwrap();
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
            let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
            assert_eq!(saved.messages.len(), 6);
        }
    }

    #[test]
    fn a_torn_tail_after_a_crash_is_dropped_and_cut_off_never_misread() {
        for place in places("torn") {
            let dir = place.dir();
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            for i in 0..3u8 {
                s.persist(&Persist::Message(vec![i; 10])).unwrap();
            }
            s.flush().unwrap();
            drop(s);
            let whole = dir.read(LOG_FILE).unwrap();
            // Every way the last write could have stopped short.
            for cut in (whole.len() - 18 + 1)..whole.len() {
                dir.write(LOG_FILE, &whole[..cut]).unwrap();
                let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
                assert_eq!(
                    saved.messages,
                    vec![vec![0u8; 10], vec![1u8; 10]],
                    "cut at {cut}"
                );
                assert_eq!(
                    dir.read(LOG_FILE).unwrap().len(),
                    whole.len() - 18,
                    "trimmed"
                );
            }
            // A tail of zeros (blocks allocated but never written) is torn too.
            let mut zeros = whole.clone();
            zeros.extend_from_slice(&[0u8; 4096]);
            dir.write(LOG_FILE, &zeros).unwrap();
            let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
            assert_eq!(saved.messages.len(), 3);
        }
    }

    #[test]
    fn damage_in_the_middle_is_a_clear_error_not_a_panic() {
        for place in places("corrupt") {
            let dir = place.dir();
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            for i in 0..3u8 {
                s.persist(&Persist::Message(vec![i; 10])).unwrap();
            }
            s.flush().unwrap();
            drop(s);
            let mut bytes = dir.read(LOG_FILE).unwrap();
            bytes[HEADER + 8 + 3] ^= 0x40; // inside the first record's payload
            dir.write(LOG_FILE, &bytes).unwrap();
            let err = SeatStore::open(&dir, &start())
                .err()
                .expect("damage must be refused");
            assert!(err.to_string().contains("damaged"), "{err}");

            dir.write(LOG_FILE, b"not a hoard file at all").unwrap();
            let err = SeatStore::open(&dir, &start())
                .err()
                .expect("a foreign file must be refused");
            assert!(err.to_string().contains("not a Hoard file"), "{err}");

            dir.write(START_FILE, b"HOARDst1\x05\x00").unwrap();
            assert!(SeatStore::open(&dir, &start()).is_err());
            dir.remove(START_FILE).unwrap();
            let err = SeatStore::open(&dir, &start())
                .err()
                .expect("a seat folder without its start");
            assert!(err.to_string().contains("start is missing"), "{err}");
        }
    }

    /// The peers' messages go to the inbox, which is not fsync'd: a crash can leave a hole
    /// anywhere in what was written since the log's last fsync. The seat's own messages
    /// are all read back; of the peers', those before the hole (the rest comes again from
    /// the table), and the file is cut there so that new records follow good ones.
    #[test]
    fn a_hole_in_the_peers_messages_loses_only_what_follows_it() {
        for place in places("inbox") {
            let dir = place.dir();
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            s.persist(&Persist::Message(vec![1; 10])).unwrap();
            for i in 0..3u8 {
                s.persist(&Persist::Replayable(vec![10 + i; 10])).unwrap();
            }
            s.persist(&Persist::Message(vec![2; 10])).unwrap();
            s.flush().unwrap();
            drop(s);
            let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
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
            let mut bytes = dir.read(INBOX_FILE).unwrap();
            let second = HEADER + (HEADER + 10);
            bytes[second..second + HEADER + 10].fill(0);
            dir.write(INBOX_FILE, &bytes).unwrap();
            let (mut s, saved) = SeatStore::open(&dir, &start()).unwrap();
            assert_eq!(saved.messages, vec![vec![1; 10], vec![2; 10], vec![10; 10]]);
            assert_eq!(dir.len(INBOX_FILE).unwrap() as usize, second);
            // What comes next follows the good records.
            s.persist(&Persist::Replayable(vec![13; 10])).unwrap();
            s.flush().unwrap();
            drop(s);
            let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
            assert_eq!(saved.messages[3..], [vec![13; 10]][..]);

            // A file that is not an inbox at all is still refused.
            dir.write(INBOX_FILE, b"not a hoard file at all").unwrap();
            assert!(SeatStore::open(&dir, &start()).is_err());
        }
    }

    /// A batch big enough to run past any little room left: messages, secrets, and what the
    /// inbox keeps.
    fn big_batch(s: &mut SeatStore, tag: u8) {
        for i in 0..20u8 {
            s.persist(&Persist::Message(vec![tag ^ i; 400])).unwrap();
            s.persist(&Persist::Replayable(vec![tag ^ i ^ 0x80; 300]))
                .unwrap();
        }
        s.persist(&Persist::Secret(secret(tag))).unwrap();
    }

    /// What [`big_batch`] puts in the log, and in the inbox.
    fn batch_messages(tag: u8) -> (Vec<Vec<u8>>, Vec<Vec<u8>>) {
        (
            (0..20u8).map(|i| vec![tag ^ i; 400]).collect(),
            (0..20u8).map(|i| vec![tag ^ i ^ 0x80; 300]).collect(),
        )
    }

    /// Issue 20: after a short write on a full disk the partial bytes stayed in the file and
    /// the whole batch was written again after them, so the next open refused the game ("the
    /// record at byte 6132 is damaged"). Each file is cut back to its last good length on a
    /// failed write, and the batch written whole once there is room.
    #[test]
    fn a_full_disk_then_free_space_leaves_a_readable_game() {
        for place in places("full") {
            let disk = SmallDisk::over(place.storage.clone(), u64::MAX);
            let dir = disk.root().join("seat-0");
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            s.persist(&Persist::Message(vec![7; 10])).unwrap();
            s.persist(&Persist::Secret(secret(1))).unwrap();
            s.flush().unwrap();
            let sizes = || [SECRETS_FILE, LOG_FILE, INBOX_FILE].map(|f| dir.len(f).unwrap());
            let (mut kept_log, mut kept_inbox) = (vec![vec![7; 10]], Vec::new());
            // Room for the secret and part of the log's batch, then for part of the inbox's.
            for room in [60, 9_000] {
                let before = sizes();
                disk.set_room(room);
                big_batch(&mut s, 0x10);
                let err = s.flush().expect_err("the disk is full");
                assert!(err.to_string().contains("no space left"), "{err}");
                let after = sizes();
                // The secret fitted; no part of a batch that did not stays in its file.
                assert!(after[0] > before[0]);
                assert_eq!(after[1], before[1] + if room > 60 { 20 * 408 } else { 0 });
                assert_eq!(after[2], before[2]);
                // Another failed try changes nothing.
                assert!(s.flush().is_err());
                assert_eq!(sizes(), after);
                // Free space again.
                disk.make_room(1 << 20);
                s.flush().unwrap();
                drop(s);
                let (again, saved) = SeatStore::open(&dir, &start()).expect("the game reads back");
                s = again;
                let (log, inbox) = batch_messages(0x10);
                kept_log.extend(log);
                kept_inbox.extend(inbox);
                assert_eq!(saved.messages, [&kept_log[..], &kept_inbox[..]].concat());
                assert_eq!(*saved.secrets.last().unwrap(), secret(0x10));
            }
        }
    }

    /// A failed fsync may have lost any part of what was written since the last good one:
    /// the file is cut back and written again, not trusted.
    #[test]
    fn a_failed_fsync_is_written_again_not_trusted() {
        for place in places("fsync") {
            let disk = SmallDisk::over(place.storage.clone(), 1 << 20);
            let dir = disk.root().join("seat-0");
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            disk.fail_syncs(1);
            s.persist(&Persist::Message(vec![1; 10])).unwrap();
            s.persist(&Persist::Secret(secret(2))).unwrap();
            assert!(s.flush().is_err());
            // Nothing of what was not made durable is left in the secrets file.
            assert_eq!(dir.len(SECRETS_FILE).unwrap() as usize, SECRETS_MAGIC.len());
            s.flush().unwrap();
            drop(s);
            let (_, saved) = SeatStore::open(&dir, &start()).unwrap();
            assert_eq!(saved.messages, vec![vec![1; 10]]);
            assert_eq!(saved.secrets, vec![secret(2)]);
        }
    }

    /// The same on a real filesystem that fills up: a tmpfs of 64 KiB filled by another
    /// file, which is then deleted. Skipped (with a note) where no tmpfs can be mounted.
    #[test]
    fn a_real_full_disk_then_free_space_leaves_a_readable_game() {
        use std::io::Write;
        let Some(fs) = Tmpfs::mount("tmpfs", "64k") else {
            return;
        };
        let dir = Folder::root(Arc::new(DiskStorage::new(&fs.0))).join("seat-0");
        let mut s = SeatStore::create(&dir, &start()).unwrap();
        s.persist(&Persist::Message(vec![7; 10])).unwrap();
        s.flush().unwrap();
        // Everything else fills the disk.
        let ballast = fs.0.join("ballast");
        {
            let mut f = std::fs::File::create(&ballast).unwrap();
            while f.write_all(&[0xee; 512]).is_ok() {}
        }
        big_batch(&mut s, 0x20);
        let err = s.flush().expect_err("the disk is full");
        assert!(
            matches!(&err, NetError::Io(e) if e.raw_os_error() == Some(28)),
            "{err}"
        );
        std::fs::remove_file(&ballast).unwrap();
        s.flush().expect("room again");
        drop(s);
        let (_, saved) = SeatStore::open(&dir, &start()).expect("the game reads back");
        let (log, inbox) = batch_messages(0x20);
        assert_eq!(saved.messages, [&[vec![7; 10]][..], &log, &inbox].concat());
    }

    /// Issue 20: a seat folder from another session was taken as this one's.
    #[test]
    fn a_seat_folder_from_another_session_is_refused() {
        for place in places("other") {
            let dir = place.dir();
            let mut s = SeatStore::create(&dir, &start()).unwrap();
            s.persist(&Persist::Message(vec![1; 10])).unwrap();
            s.flush().unwrap();
            drop(s);
            let mut other = start();
            other.nonce = [8; 32];
            let err = SeatStore::open(&dir, &other)
                .err()
                .expect("another game's seat");
            assert!(err.to_string().contains("another game"), "{err}");
            assert!(SeatStore::open(&dir, &start()).is_ok());
        }
    }

    /// Issue 20: only `secrets` was made owner-only, and only when new.
    #[cfg(unix)]
    #[test]
    fn the_seats_secrets_are_readable_by_the_owner_only_even_if_they_were_not() {
        use std::os::unix::fs::PermissionsExt;
        let root = tempdir("private");
        let disk = DiskStorage::new(&root);
        let seat = root.join("seat-0");
        let dir = Folder::root(Arc::new(DiskStorage::new(&root))).join("seat-0");
        let mode = |f: &str| {
            std::fs::metadata(seat.join(f))
                .unwrap()
                .permissions()
                .mode()
                & 0o777
        };
        let loosen = |f: &str, mode: u32| {
            std::fs::set_permissions(seat.join(f), std::fs::Permissions::from_mode(mode)).unwrap()
        };
        drop(SeatStore::create(&dir, &start()).unwrap());
        assert_eq!(mode(SECRETS_FILE), 0o600);
        loosen(SECRETS_FILE, 0o644);
        drop(SeatStore::open(&dir, &start()).unwrap());
        assert_eq!(mode(SECRETS_FILE), 0o600);
        // A key file left world-readable (by a crash mid-write, or an older version).
        std::fs::write(seat.join("key.tmp"), b"old").unwrap();
        loosen("key.tmp", 0o644);
        disk.write("seat-0/key", b"new", true).unwrap();
        assert_eq!(mode("key"), 0o600);
        loosen("key", 0o640);
        assert_eq!(disk.read_private("seat-0/key").unwrap(), b"new");
        assert_eq!(mode("key"), 0o600);
        let _ = std::fs::remove_dir_all(&root);
    }
}
