//! What a device keeps, behind one small trait: the native device keeps it in files under
//! its data folder ([`DiskStorage`]), the simulator in memory with a crash's losses
//! ([`MemStorage`]), a browser in memory with a journal of changes its driver carries to the
//! browser's own storage ([`JournalStorage`]). Nothing above this module opens a file.
//!
//! Paths are relative to the device's data folder, their parts joined by `/`
//! (`sessions/1f3a…/seat-0/log`); a [`Folder`] is a place in a storage, and what every
//! part of the device is handed.

use std::collections::BTreeMap;
use std::io::{self, ErrorKind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard};

/// A device's storage. Every method is one complete operation; a write that returns `Ok`
/// with `durable` (or any [`Storage::write`]) survives a crash or a power cut.
pub trait Storage: Send + Sync {
    /// The whole file at `path` (`NotFound` if there is none).
    fn read(&self, path: &str) -> io::Result<Vec<u8>>;
    /// [`Storage::read`] of a file that holds a key or a secret: one that others could
    /// read (made before the rule, or copied carelessly) is made its owner's only first.
    fn read_private(&self, path: &str) -> io::Result<Vec<u8>> {
        self.read(path)
    }
    /// Replaces (or creates) the file at `path` so that a crash leaves either the old
    /// bytes or the new, durably; `private`: the file holds a key or a secret and is
    /// readable by this device's user only. Makes the folders above it.
    fn write(&self, path: &str, bytes: &[u8], private: bool) -> io::Result<()>;
    /// Adds `bytes` at the end of the file at `path`, creating it (and its folders) if
    /// need be; `durable`: on disk when this returns. A write that fails may have left
    /// part of `bytes` in the file (see [`Storage::truncate`]).
    fn append(&self, path: &str, bytes: &[u8], durable: bool, private: bool) -> io::Result<()>;
    /// The file's length (`NotFound` if there is none).
    fn len(&self, path: &str) -> io::Result<u64>;
    /// Cuts the file at `path` back to `len` bytes, durably.
    fn truncate(&self, path: &str, len: u64) -> io::Result<()>;
    /// Removes the file at `path`, or the folder and everything under it; nothing there
    /// is not an error.
    fn remove(&self, path: &str) -> io::Result<()>;
    /// The names of what the folder at `path` holds (none if it does not exist).
    fn list(&self, path: &str) -> Vec<String>;
    /// An order of last change among the things this storage holds (later is larger):
    /// what the list of saved games is sorted by.
    fn changed(&self, path: &str) -> Option<u64>;
}

/// A place in a storage: a folder, or (for [`Folder::join`]ed names) a file.
#[derive(Clone)]
pub struct Folder {
    storage: Arc<dyn Storage>,
    path: String,
}

impl std::fmt::Debug for Folder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Folder({})", self.path)
    }
}

impl Folder {
    /// The top of `storage`: the device's data folder.
    pub fn root(storage: Arc<dyn Storage>) -> Folder {
        Folder {
            storage,
            path: String::new(),
        }
    }

    /// The folder `name` inside this one.
    pub fn join(&self, name: &str) -> Folder {
        Folder {
            storage: self.storage.clone(),
            path: self.file(name),
        }
    }

    /// The path of this folder from the top of its storage.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The last part of this folder's path.
    pub fn name(&self) -> &str {
        self.path.rsplit('/').next().unwrap_or("")
    }

    pub fn storage(&self) -> &Arc<dyn Storage> {
        &self.storage
    }

    fn file(&self, name: &str) -> String {
        if self.path.is_empty() {
            name.to_string()
        } else {
            format!("{}/{name}", self.path)
        }
    }

    pub fn read(&self, name: &str) -> io::Result<Vec<u8>> {
        self.storage.read(&self.file(name))
    }

    /// [`Folder::read`] of a file that holds a key or a secret.
    pub fn read_private(&self, name: &str) -> io::Result<Vec<u8>> {
        self.storage.read_private(&self.file(name))
    }

    /// The file `name`, or nothing if there is none.
    pub fn read_or_empty(&self, name: &str) -> io::Result<Vec<u8>> {
        match self.read(name) {
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
            other => other,
        }
    }

    pub fn write(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        self.storage.write(&self.file(name), bytes, false)
    }

    /// [`Folder::write`] for a file that holds a key or a secret.
    pub fn write_private(&self, name: &str, bytes: &[u8]) -> io::Result<()> {
        self.storage.write(&self.file(name), bytes, true)
    }

    pub fn append(&self, name: &str, bytes: &[u8], durable: bool, private: bool) -> io::Result<()> {
        self.storage
            .append(&self.file(name), bytes, durable, private)
    }

    pub fn len(&self, name: &str) -> io::Result<u64> {
        self.storage.len(&self.file(name))
    }

    pub fn exists(&self, name: &str) -> bool {
        self.len(name).is_ok()
    }

    pub fn truncate(&self, name: &str, len: u64) -> io::Result<()> {
        self.storage.truncate(&self.file(name), len)
    }

    /// Removes the file or folder `name` in this folder.
    pub fn remove(&self, name: &str) -> io::Result<()> {
        self.storage.remove(&self.file(name))
    }

    /// Removes this folder and everything in it.
    pub fn remove_all(&self) -> io::Result<()> {
        self.storage.remove(&self.path)
    }

    pub fn list(&self) -> Vec<String> {
        self.storage.list(&self.path)
    }

    pub fn changed(&self) -> Option<u64> {
        self.storage.changed(&self.path)
    }
}

// ----- the native device's files ------------------------------------------------------------

/// Files under a data folder on this machine's disk.
pub struct DiskStorage {
    root: PathBuf,
}

impl DiskStorage {
    pub fn new(root: impl Into<PathBuf>) -> DiskStorage {
        DiskStorage { root: root.into() }
    }

    fn at(&self, path: &str) -> PathBuf {
        if path.is_empty() {
            self.root.clone()
        } else {
            self.root.join(path)
        }
    }

    fn make_parent(path: &std::path::Path) -> io::Result<()> {
        match path.parent() {
            Some(parent) => std::fs::create_dir_all(parent),
            None => Ok(()),
        }
    }
}

/// Makes an open file readable and writable by its owner only, as every file holding a key
/// or a secret must be: one made before this rule, or copied carelessly, is tightened too.
/// (On Windows a file in the user's profile folder is the user's already: nothing to do.)
pub fn owner_only(file: &std::fs::File) -> io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if file.metadata()?.permissions().mode() & 0o077 != 0 {
            file.set_permissions(std::fs::Permissions::from_mode(0o600))?;
        }
    }
    #[cfg(not(unix))]
    let _ = file;
    Ok(())
}

#[cfg(unix)]
fn open_options(private: bool) -> std::fs::OpenOptions {
    use std::os::unix::fs::OpenOptionsExt;
    let mut opts = std::fs::OpenOptions::new();
    if private {
        opts.mode(0o600);
    }
    opts
}

/// On Windows a file in the user's profile folder is the user's own already.
#[cfg(not(unix))]
fn open_options(_private: bool) -> std::fs::OpenOptions {
    std::fs::OpenOptions::new()
}

/// Makes a new file's name durable; not every platform can open a folder.
fn sync_dir(dir: Option<&std::path::Path>) {
    if let Some(dir) = dir
        && let Ok(d) = std::fs::File::open(dir)
    {
        let _ = d.sync_all();
    }
}

impl Storage for DiskStorage {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        std::fs::read(self.at(path))
    }

    fn read_private(&self, path: &str) -> io::Result<Vec<u8>> {
        use std::io::Read;
        let mut file = std::fs::File::open(self.at(path))?;
        // A key file copied carelessly is tightened the first time it is read.
        owner_only(&file)?;
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    fn write(&self, path: &str, bytes: &[u8], private: bool) -> io::Result<()> {
        use std::io::Write;
        let path = self.at(path);
        Self::make_parent(&path)?;
        let tmp = path.with_extension("tmp");
        let written = (|| {
            let mut file = open_options(private)
                .create(true)
                .write(true)
                .truncate(true)
                .open(&tmp)?;
            // The mode applies only to a file the call creates: one left by a crash keeps its own.
            if private {
                owner_only(&file)?;
            }
            file.write_all(bytes)?;
            file.sync_all()
        })();
        if let Err(e) = written {
            // On a full disk, the part that fitted would only keep the disk full.
            let _ = std::fs::remove_file(&tmp);
            return Err(e);
        }
        std::fs::rename(&tmp, &path)?;
        sync_dir(path.parent());
        Ok(())
    }

    fn append(&self, path: &str, bytes: &[u8], durable: bool, private: bool) -> io::Result<()> {
        use std::io::Write;
        let path = self.at(path);
        let new = !path.exists();
        if new {
            Self::make_parent(&path)?;
        }
        let mut file = open_options(private)
            .create(true)
            .append(true)
            .open(&path)?;
        if private {
            owner_only(&file)?;
        }
        file.write_all(bytes)?;
        if durable {
            file.sync_data()?;
            if new {
                sync_dir(path.parent());
            }
        }
        Ok(())
    }

    fn len(&self, path: &str) -> io::Result<u64> {
        Ok(std::fs::metadata(self.at(path))?.len())
    }

    fn truncate(&self, path: &str, len: u64) -> io::Result<()> {
        let file = std::fs::OpenOptions::new()
            .write(true)
            .open(self.at(path))?;
        file.set_len(len)?;
        file.sync_data()
    }

    fn remove(&self, path: &str) -> io::Result<()> {
        let at = self.at(path);
        let gone = if at.is_dir() {
            std::fs::remove_dir_all(&at)
        } else {
            std::fs::remove_file(&at)
        };
        match gone {
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
            other => other,
        }
    }

    fn list(&self, path: &str) -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(self.at(path)) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter_map(|e| e.file_name().into_string().ok())
            .collect()
    }

    fn changed(&self, path: &str) -> Option<u64> {
        let modified = std::fs::metadata(self.at(path)).ok()?.modified().ok()?;
        let since = modified.duration_since(std::time::UNIX_EPOCH).ok()?;
        Some(since.as_nanos() as u64)
    }
}

// ----- the simulator's memory ---------------------------------------------------------------

/// A storage in memory that a simulated crash can damage as a real one would be: what was
/// appended without `durable` since the file's last durable write may be lost.
#[derive(Clone, Default)]
pub struct MemStorage(Arc<Mutex<Mem>>);

#[derive(Default)]
struct Mem {
    files: BTreeMap<String, MemFile>,
    clock: u64,
}

struct MemFile {
    bytes: Vec<u8>,
    /// The length that survives a crash.
    durable: usize,
    changed: u64,
}

impl MemStorage {
    pub fn new() -> MemStorage {
        MemStorage::default()
    }

    fn mem(&self) -> MutexGuard<'_, Mem> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A crash: every file loses what was appended to it since its last durable write
    /// (`keep` decides, from a file's path, whether the system had written it back anyway).
    pub fn crash(&self, mut keep: impl FnMut(&str) -> bool) {
        for (path, file) in &mut self.mem().files {
            if keep(path) {
                file.durable = file.bytes.len();
            } else {
                file.bytes.truncate(file.durable);
            }
        }
    }

    /// How many bytes the storage holds.
    pub fn bytes(&self) -> usize {
        self.mem().files.values().map(|f| f.bytes.len()).sum()
    }
}

fn under(path: &str, folder: &str) -> bool {
    folder.is_empty()
        || path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn not_found(path: &str) -> io::Error {
    io::Error::new(ErrorKind::NotFound, format!("{path}: no such file"))
}

impl Storage for MemStorage {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        let mem = self.mem();
        mem.files
            .get(path)
            .map(|f| f.bytes.clone())
            .ok_or_else(|| not_found(path))
    }

    fn write(&self, path: &str, bytes: &[u8], _private: bool) -> io::Result<()> {
        let mut mem = self.mem();
        mem.clock += 1;
        let changed = mem.clock;
        mem.files.insert(
            path.to_string(),
            MemFile {
                bytes: bytes.to_vec(),
                durable: bytes.len(),
                changed,
            },
        );
        Ok(())
    }

    fn append(&self, path: &str, bytes: &[u8], durable: bool, _private: bool) -> io::Result<()> {
        let mut mem = self.mem();
        mem.clock += 1;
        let changed = mem.clock;
        let file = mem.files.entry(path.to_string()).or_insert(MemFile {
            bytes: Vec::new(),
            durable: 0,
            changed,
        });
        file.bytes.extend_from_slice(bytes);
        file.changed = changed;
        if durable {
            file.durable = file.bytes.len();
        }
        Ok(())
    }

    fn len(&self, path: &str) -> io::Result<u64> {
        let mem = self.mem();
        mem.files
            .get(path)
            .map(|f| f.bytes.len() as u64)
            .ok_or_else(|| not_found(path))
    }

    fn truncate(&self, path: &str, len: u64) -> io::Result<()> {
        let mut mem = self.mem();
        let file = mem.files.get_mut(path).ok_or_else(|| not_found(path))?;
        file.bytes.truncate(len as usize);
        file.durable = file.durable.min(file.bytes.len());
        Ok(())
    }

    fn remove(&self, path: &str) -> io::Result<()> {
        self.mem().files.retain(|p, _| p != path && !under(p, path));
        Ok(())
    }

    fn list(&self, path: &str) -> Vec<String> {
        let mem = self.mem();
        // A set: the paths under one name need not sit side by side in the map's order.
        let names: std::collections::BTreeSet<String> = mem
            .files
            .keys()
            .filter(|p| under(p, path))
            .filter_map(|p| {
                let rest = if path.is_empty() {
                    p.as_str()
                } else {
                    &p[path.len() + 1..]
                };
                rest.split('/').next().map(str::to_string)
            })
            .collect();
        names.into_iter().collect()
    }

    fn changed(&self, path: &str) -> Option<u64> {
        let mem = self.mem();
        mem.files
            .iter()
            .filter(|(p, _)| p.as_str() == path || under(p, path))
            .map(|(_, f)| f.changed)
            .max()
    }
}

/// A storage in memory that also keeps a journal of its changes, for a driver that reaches
/// its real storage only asynchronously (a browser's IndexedDB). The machine reads and writes
/// it at once; the driver takes the changes ([`JournalStorage::take`]) after each call into
/// the machine and has them written before it sends what the machine asked to send, so what
/// a seat chose is kept before it leaves, as on a disk. A device starting again fills it from
/// what was kept ([`JournalStorage::load`]).
#[derive(Clone, Default)]
pub struct JournalStorage {
    mem: MemStorage,
    journal: Arc<Mutex<Vec<Change>>>,
}

/// One change to a [`JournalStorage`], as its driver carries it to the real storage.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Change {
    /// The file's whole content now: it was written, or cut back.
    Put { path: String, bytes: Vec<u8> },
    /// Bytes added at the end of the file (which is made if it is not there).
    Append { path: String, bytes: Vec<u8> },
    /// The file, or the folder and everything under it, is gone.
    Remove { path: String },
}

impl JournalStorage {
    pub fn new() -> JournalStorage {
        JournalStorage::default()
    }

    /// A storage holding `files` (path, content), as kept by the real storage; nothing in
    /// its journal.
    pub fn load(files: impl IntoIterator<Item = (String, Vec<u8>)>) -> JournalStorage {
        let storage = JournalStorage::new();
        for (path, bytes) in files {
            let _ = storage.mem.write(&path, &bytes, false);
        }
        storage
    }

    /// The changes since the last call, in order, appends to one file in a row joined.
    pub fn take(&self) -> Vec<Change> {
        std::mem::take(&mut *self.journal())
    }

    fn journal(&self) -> MutexGuard<'_, Vec<Change>> {
        self.journal.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn note(&self, change: Change) {
        let mut journal = self.journal();
        if let (
            Some(Change::Append { path, bytes }),
            Change::Append {
                path: next,
                bytes: more,
            },
        ) = (journal.last_mut(), &change)
            && path == next
        {
            bytes.extend_from_slice(more);
            return;
        }
        journal.push(change);
    }
}

/// Applies `changes` to `files` (path, content): what a driver does to the real storage.
pub fn apply(files: &mut BTreeMap<String, Vec<u8>>, changes: &[Change]) {
    for change in changes {
        match change {
            Change::Put { path, bytes } => {
                files.insert(path.clone(), bytes.clone());
            }
            Change::Append { path, bytes } => {
                files
                    .entry(path.clone())
                    .or_default()
                    .extend_from_slice(bytes);
            }
            Change::Remove { path } => files.retain(|p, _| p != path && !under(p, path)),
        }
    }
}

impl Storage for JournalStorage {
    fn read(&self, path: &str) -> io::Result<Vec<u8>> {
        self.mem.read(path)
    }

    fn write(&self, path: &str, bytes: &[u8], private: bool) -> io::Result<()> {
        self.mem.write(path, bytes, private)?;
        self.note(Change::Put {
            path: path.to_string(),
            bytes: bytes.to_vec(),
        });
        Ok(())
    }

    fn append(&self, path: &str, bytes: &[u8], durable: bool, private: bool) -> io::Result<()> {
        self.mem.append(path, bytes, durable, private)?;
        if !bytes.is_empty() {
            self.note(Change::Append {
                path: path.to_string(),
                bytes: bytes.to_vec(),
            });
        }
        Ok(())
    }

    fn len(&self, path: &str) -> io::Result<u64> {
        self.mem.len(path)
    }

    fn truncate(&self, path: &str, len: u64) -> io::Result<()> {
        self.mem.truncate(path, len)?;
        let bytes = self.mem.read(path)?;
        self.note(Change::Put {
            path: path.to_string(),
            bytes,
        });
        Ok(())
    }

    fn remove(&self, path: &str) -> io::Result<()> {
        self.mem.remove(path)?;
        self.note(Change::Remove {
            path: path.to_string(),
        });
        Ok(())
    }

    fn list(&self, path: &str) -> Vec<String> {
        self.mem.list(path)
    }

    fn changed(&self, path: &str) -> Option<u64> {
        self.mem.changed(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn both() -> Vec<(Folder, Option<PathBuf>)> {
        let dir = std::env::temp_dir().join(format!("hoard-storage-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        vec![
            (Folder::root(Arc::new(MemStorage::new())), None),
            (Folder::root(Arc::new(JournalStorage::new())), None),
            (Folder::root(Arc::new(DiskStorage::new(&dir))), Some(dir)),
        ]
    }

    /// Every file a storage holds, by path.
    fn files(storage: &dyn Storage, folder: &str) -> BTreeMap<String, Vec<u8>> {
        let mut out = BTreeMap::new();
        for name in storage.list(folder) {
            let path = if folder.is_empty() {
                name
            } else {
                format!("{folder}/{name}")
            };
            match storage.read(&path) {
                Ok(bytes) => {
                    out.insert(path, bytes);
                }
                Err(_) => out.extend(files(storage, &path)),
            }
        }
        out
    }

    #[test]
    fn a_journal_carried_to_other_storage_makes_the_same_files_and_loads_back() {
        let journal = JournalStorage::new();
        let root = Folder::root(Arc::new(journal.clone()));
        let mut kept = BTreeMap::new();
        let game = root.join("sessions").join("ab12");
        game.write("table.bin", b"meta").unwrap();
        for record in [&b"HEAD"[..], b"one", b"two"] {
            game.join("seat-0")
                .append("log", record, true, false)
                .unwrap();
        }
        game.join("seat-1")
            .append("inbox", b"heard", false, false)
            .unwrap();
        let first = journal.take();
        // Appends to one file in a row travel as one.
        assert_eq!(
            first[1],
            Change::Append {
                path: "sessions/ab12/seat-0/log".into(),
                bytes: b"HEADonetwo".to_vec()
            }
        );
        apply(&mut kept, &first);
        assert!(journal.take().is_empty(), "each change is taken once");
        // A torn tail cut off, a file written again, a folder gone.
        game.join("seat-0").truncate("log", 7).unwrap();
        game.write("table.bin", b"meta 2").unwrap();
        root.write("profile", b"Mia").unwrap();
        game.join("seat-1").remove_all().unwrap();
        apply(&mut kept, &journal.take());
        assert_eq!(kept, files(&journal, ""));
        assert_eq!(kept["sessions/ab12/seat-0/log"], b"HEADone");
        assert!(!kept.contains_key("sessions/ab12/seat-1/inbox"));

        // The device starts again from what was kept.
        let again = JournalStorage::load(kept.clone());
        assert_eq!(files(&again, ""), kept);
        assert!(again.take().is_empty());
        let root = Folder::root(Arc::new(again));
        assert_eq!(root.join("sessions").list(), ["ab12"]);
    }

    #[test]
    fn files_are_written_read_appended_cut_listed_and_removed_alike_on_disk_and_in_memory() {
        for (root, dir) in both() {
            let game = root.join("sessions").join("ab12");
            assert_eq!(
                game.read("table.bin").unwrap_err().kind(),
                ErrorKind::NotFound
            );
            assert!(game.read_or_empty("log").unwrap().is_empty());
            game.write("table.bin", b"meta").unwrap();
            game.join("seat-0")
                .append("log", b"HEAD", true, false)
                .unwrap();
            game.join("seat-0")
                .append("log", b"rec", false, false)
                .unwrap();
            assert_eq!(game.read("table.bin").unwrap(), b"meta");
            assert_eq!(game.join("seat-0").read("log").unwrap(), b"HEADrec");
            assert_eq!(game.join("seat-0").len("log").unwrap(), 7);
            game.join("seat-0").truncate("log", 4).unwrap();
            assert_eq!(game.join("seat-0").read("log").unwrap(), b"HEAD");
            let mut names = game.list();
            names.sort();
            assert_eq!(names, ["seat-0", "table.bin"]);
            assert_eq!(root.join("sessions").list(), ["ab12"]);
            assert!(game.changed().is_some());
            game.remove_all().unwrap();
            assert!(root.join("sessions").list().is_empty());
            assert!(!game.exists("table.bin"));
            // Removing what is not there is no error.
            game.remove("nothing").unwrap();
            if let Some(dir) = dir {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }

    #[test]
    fn a_crash_in_memory_loses_what_was_appended_without_being_made_durable() {
        let mem = MemStorage::new();
        let root = Folder::root(Arc::new(mem.clone()));
        root.append("log", b"kept", true, false).unwrap();
        root.append("log", b"+lost", false, false).unwrap();
        root.append("inbox", b"written back", false, false).unwrap();
        mem.crash(|path| path == "inbox");
        assert_eq!(root.read("log").unwrap(), b"kept");
        assert_eq!(root.read("inbox").unwrap(), b"written back");
    }
}
