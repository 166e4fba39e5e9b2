//! A browser's storage for the device: each file of a [`JournalStorage`] kept under its own
//! key in a key-value store of text (the page's `localStorage`), as base64. The driver loads
//! every file when the page opens and, after each call into the machine, writes the changes
//! the machine made ([`keep`]) before anything leaves: a closed tab, a reloaded page or a
//! phone that killed the browser comes back to what was kept. Each key is replaced whole, so
//! a file is either as it was or as it is now.

use crate::storage::Change;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use std::io;

/// What every key of the device starts with, so nothing else on the page's origin is taken
/// for a file or removed with one.
pub const PREFIX: &str = "hoard:";

/// A store of text under keys (the page's `localStorage`; a map in tests).
pub trait KeyValue {
    fn get(&self, key: &str) -> Option<String>;
    /// Fails when the store is full (the browser's quota).
    fn set(&mut self, key: &str, value: &str) -> Result<(), String>;
    fn remove(&mut self, key: &str);
    fn keys(&self) -> Vec<String>;
}

/// Every file kept in `kv` (path, content). A value that is not base64 (written by
/// something else, or damaged) is left out, as a file that was never written.
pub fn load(kv: &dyn KeyValue) -> Vec<(String, Vec<u8>)> {
    kv.keys()
        .into_iter()
        .filter_map(|key| {
            let path = key.strip_prefix(PREFIX)?.to_string();
            match STANDARD.decode(kv.get(&key)?) {
                Ok(bytes) => Some((path, bytes)),
                Err(e) => {
                    tracing::warn!("left out {path} from the browser's storage: {e}");
                    None
                }
            }
        })
        .collect()
}

/// The file at `path` (`NotFound` if none, `InvalidData` if damaged).
pub fn read(kv: &dyn KeyValue, path: &str) -> io::Result<Vec<u8>> {
    let value = kv
        .get(&format!("{PREFIX}{path}"))
        .ok_or_else(|| io::Error::from(io::ErrorKind::NotFound))?;
    STANDARD
        .decode(value)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))
}

/// Writes `changes` to `kv`, in order. The first that does not fit (the browser's quota)
/// stops it with an error; those before it are kept.
pub fn keep(kv: &mut dyn KeyValue, changes: &[Change]) -> io::Result<()> {
    for change in changes {
        match change {
            Change::Put { path, bytes } => put(kv, path, bytes)?,
            Change::Append { path, bytes } => {
                let key = format!("{PREFIX}{path}");
                let mut whole = kv
                    .get(&key)
                    .and_then(|v| STANDARD.decode(v).ok())
                    .unwrap_or_default();
                whole.extend_from_slice(bytes);
                put(kv, path, &whole)?;
            }
            Change::Remove { path } => {
                let key = format!("{PREFIX}{path}");
                let under = format!("{key}/");
                for k in kv.keys() {
                    if k == key || k.starts_with(&under) {
                        kv.remove(&k);
                    }
                }
            }
        }
    }
    Ok(())
}

fn put(kv: &mut dyn KeyValue, path: &str, bytes: &[u8]) -> io::Result<()> {
    kv.set(&format!("{PREFIX}{path}"), &STANDARD.encode(bytes))
        .map_err(|why| io::Error::new(io::ErrorKind::StorageFull, why))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::storage::{JournalStorage, Storage};
    use std::collections::BTreeMap;

    /// A store with room for `room` characters of values, as a browser's quota.
    #[derive(Default)]
    struct Map {
        values: BTreeMap<String, String>,
        room: Option<usize>,
    }

    impl KeyValue for Map {
        fn get(&self, key: &str) -> Option<String> {
            self.values.get(key).cloned()
        }
        fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
            let others: usize = self
                .values
                .iter()
                .filter(|(k, _)| k.as_str() != key)
                .map(|(_, v)| v.len())
                .sum();
            if self.room.is_some_and(|room| others + value.len() > room) {
                return Err("the quota is exceeded".into());
            }
            self.values.insert(key.into(), value.into());
            Ok(())
        }
        fn remove(&mut self, key: &str) {
            self.values.remove(key);
        }
        fn keys(&self) -> Vec<String> {
            self.values.keys().cloned().collect()
        }
    }

    #[test]
    fn what_a_device_wrote_loads_back_the_same_after_the_page_is_closed() {
        let storage = JournalStorage::new();
        let mut kv = Map::default();
        kv.values.insert("other-app".into(), "not ours".into());
        let _ = storage.write("identity.key", &[7; 32], true);
        let _ = storage.append("games/a/log", b"one", true, false);
        keep(&mut kv, &storage.take()).expect("room");
        let _ = storage.append("games/a/log", b" two", true, false);
        let _ = storage.write("games/b/meta", b"b", false);
        let _ = storage.write("games/bb", b"not under b", false);
        keep(&mut kv, &storage.take()).expect("room");
        let _ = storage.remove("games/b");
        keep(&mut kv, &storage.take()).expect("room");

        let expected: BTreeMap<String, Vec<u8>> =
            ["identity.key", "games/a/log", "games/b/meta", "games/bb"]
                .into_iter()
                .filter_map(|p| storage.read(p).ok().map(|b| (p.to_string(), b)))
                .collect();
        let loaded: BTreeMap<String, Vec<u8>> = load(&kv).into_iter().collect();
        assert_eq!(read(&kv, "games/a/log").expect("kept"), b"one two");
        let gone = read(&kv, "games/b/meta").expect_err("removed");
        assert_eq!(gone.kind(), io::ErrorKind::NotFound);
        assert_eq!(loaded, expected);
        assert_eq!(loaded["games/a/log"], b"one two");
        assert!(!loaded.contains_key("games/b/meta"));
        assert_eq!(kv.get("other-app").as_deref(), Some("not ours"));
    }

    #[test]
    fn a_full_store_is_an_error_and_keeps_what_fitted() {
        let mut kv = Map {
            room: Some(40),
            ..Map::default()
        };
        let changes = [
            Change::Put {
                path: "a".into(),
                bytes: vec![1; 12],
            },
            Change::Append {
                path: "b".into(),
                bytes: vec![2; 60],
            },
        ];
        let err = keep(&mut kv, &changes).expect_err("no room for b");
        assert_eq!(err.kind(), io::ErrorKind::StorageFull);
        let loaded = load(&kv);
        assert_eq!(loaded, vec![("a".to_string(), vec![1; 12])]);
    }

    #[test]
    fn a_damaged_value_is_left_out_not_taken_for_a_file() {
        let mut kv = Map::default();
        kv.values
            .insert(format!("{PREFIX}good"), STANDARD.encode(b"ok"));
        kv.values
            .insert(format!("{PREFIX}bad"), "%%% not base64".into());
        assert_eq!(load(&kv), vec![("good".to_string(), b"ok".to_vec())]);
        let bad = read(&kv, "bad").expect_err("damaged");
        assert_eq!(bad.kind(), io::ErrorKind::InvalidData);
    }
}
