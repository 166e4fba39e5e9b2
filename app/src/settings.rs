//! The player's own choices kept on this device: name, colour, theme, and how to reach the
//! others (the Wi-Fi, a relay over the internet, or nobody). Written at once when they change (phones kill apps without warning).

use crate::error::AppError;
use crate::theme::ThemeChoice;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The file beside the network's own files in the data folder.
pub const FILE: &str = "app-settings.postcard";

/// Longest name shown at the table, in characters; keeps tokens and lists readable.
pub const MAX_NAME: usize = 16;
// A character is at most 4 bytes: every name kept here fits a game's start.
const _: () = assert!(MAX_NAME * 4 <= hoard_net::identity::MAX_NAME);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub colour: [u8; 3],
}

/// How this device reaches other players.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum NetworkChoice {
    /// Tables on this Wi-Fi (the normal way).
    #[default]
    Wifi,
    /// No network at all: one device, you and bots.
    Offline,
    /// Friends anywhere, through a relay on the internet (and the Wi-Fi's tables as well).
    Internet,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    pub profile: Option<Profile>,
    pub theme: ThemeChoice,
    pub network: NetworkChoice,
    /// The players' own relay for [`NetworkChoice::Internet`], as its address
    /// (`https://relay.example.org`); empty: iroh's public relays.
    pub relay: String,
    /// Draw changes at once, without the short animations (a card flipping, a pawn
    /// sliding, a die rolling).
    pub still: bool,
}

/// The longest relay address kept.
pub const MAX_RELAY: usize = 200;

/// The settings as written before there was a relay to name or motion to turn off: read
/// once, written anew.
#[derive(Deserialize)]
struct SettingsBeforeRelays {
    profile: Option<Profile>,
    theme: ThemeChoice,
    network: NetworkChoice,
}

impl Settings {
    pub fn path(data_dir: &Path) -> PathBuf {
        data_dir.join(FILE)
    }

    /// Reads the settings; a missing file is a first run. A damaged file is reported
    /// (the caller shows it) and replaced by defaults rather than stopping the app.
    pub fn load(data_dir: &Path) -> Result<Settings, AppError> {
        let path = Settings::path(data_dir);
        let bytes = match read_file(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Settings::default()),
            Err(source) => return Err(AppError::ReadSettings { path, source }),
        };
        postcard::from_bytes(&bytes)
            .or_else(|e| {
                postcard::from_bytes::<SettingsBeforeRelays>(&bytes)
                    .map(|old| Settings {
                        profile: old.profile,
                        theme: old.theme,
                        network: old.network,
                        ..Settings::default()
                    })
                    .map_err(|_| e)
            })
            .map_err(|e| AppError::DamagedSettings {
                path,
                why: e.to_string(),
            })
    }

    /// Writes through a temporary file and a rename, so a kill mid-write leaves the old
    /// settings, never half of new ones.
    pub fn save(&self, data_dir: &Path) -> Result<(), AppError> {
        let path = Settings::path(data_dir);
        // Plain data always serialises; an empty vector would only write an empty file.
        let bytes = postcard::to_stdvec(self).unwrap_or_default();
        write_file(data_dir, &path, &bytes)
            .map_err(|source| AppError::WriteSettings { path, source })
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    std::fs::read(path)
}

#[cfg(not(target_arch = "wasm32"))]
fn write_file(data_dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    std::fs::create_dir_all(data_dir)?;
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)?;
    std::fs::rename(&tmp, path)
}

/// In a browser the settings are kept in the page's storage, beside the device's files
/// (a key replaced whole, so never half written).
#[cfg(target_arch = "wasm32")]
fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    use hoard_net::device::{browser::LocalStorage, web_store};
    match LocalStorage::open() {
        Some(kv) => web_store::read(&kv, &path.to_string_lossy()),
        None => Err(std::io::ErrorKind::NotFound.into()),
    }
}

#[cfg(target_arch = "wasm32")]
fn write_file(_data_dir: &Path, path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use hoard_net::device::{browser::LocalStorage, web_store};
    use hoard_net::storage::Change;
    let mut kv = LocalStorage::open()
        .ok_or_else(|| std::io::Error::other("this browser keeps nothing for the page"))?;
    let put = Change::Put {
        path: path.to_string_lossy().into_owned(),
        bytes: bytes.to_vec(),
    };
    web_store::keep(&mut kv, &[put])
}

/// A name as typed, cleaned for the table: trimmed, inner runs of spaces collapsed,
/// control characters dropped, at most [`MAX_NAME`] characters. `None` if nothing is left.
pub fn clean_name(raw: &str) -> Option<String> {
    let mut out = String::new();
    for word in raw.split_whitespace() {
        let word: String = word.chars().filter(|c| !c.is_control()).collect();
        if word.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&word);
    }
    let out: String = out.chars().take(MAX_NAME).collect();
    let out = out.trim_end().to_string();
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_survive_a_restart_and_a_first_run_has_none() {
        let dir = std::env::temp_dir().join(format!("hoard-settings-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(Settings::load(&dir).ok(), Some(Settings::default()));
        let s = Settings {
            profile: Some(Profile {
                name: "Mia".into(),
                colour: [40, 120, 220],
            }),
            theme: ThemeChoice::Light,
            network: NetworkChoice::Internet,
            relay: "https://relay.example.org".into(),
            still: true,
        };
        assert!(s.save(&dir).is_ok());
        assert_eq!(Settings::load(&dir).ok(), Some(s));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn settings_written_before_relays_could_be_named_are_read_with_the_public_relays() {
        #[derive(Serialize)]
        struct Old {
            profile: Option<Profile>,
            theme: ThemeChoice,
            network: NetworkChoice,
        }
        let dir = std::env::temp_dir().join(format!("hoard-settings-old-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let profile = Some(Profile {
            name: "Mia".into(),
            colour: [40, 120, 220],
        });
        let old = Old {
            profile: profile.clone(),
            theme: ThemeChoice::Dark,
            network: NetworkChoice::Wifi,
        };
        let _ = std::fs::write(
            Settings::path(&dir),
            postcard::to_stdvec(&old).unwrap_or_default(),
        );
        let read = Settings::load(&dir).ok();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(
            read,
            Some(Settings {
                profile,
                theme: ThemeChoice::Dark,
                network: NetworkChoice::Wifi,
                relay: String::new(),
                still: false,
            })
        );
    }

    #[test]
    fn damaged_settings_are_an_error_that_names_the_file_not_a_panic() {
        let dir = std::env::temp_dir().join(format!("hoard-settings-bad-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(Settings::path(&dir), [0xff, 0xff, 0xff, 0xff, 0xff]);
        match Settings::load(&dir) {
            Err(e @ AppError::DamagedSettings { .. }) => {
                assert!(e.to_string().contains(FILE), "{e}");
            }
            other => panic!("expected a damaged-settings error, got {other:?}"),
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A settings file damaged in any way (flipped bytes, cut short, or not ours at all)
    /// is read or refused, never a panic: 100,000 of them.
    #[test]
    fn settings_files_of_any_shape_are_read_or_refused() {
        let good = postcard::to_stdvec(&Settings {
            profile: Some(Profile {
                name: "Mia \u{1F409}".into(),
                colour: [40, 120, 220],
            }),
            theme: ThemeChoice::Light,
            network: NetworkChoice::Offline,
            relay: String::new(),
            still: false,
        })
        .unwrap_or_default();
        // xorshift64: enough to scatter the damage, and the same every run.
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        for case in 0..100_000 {
            let bytes: Vec<u8> = if case % 4 == 0 {
                (0..next(64)).map(|_| next(256) as u8).collect()
            } else {
                let mut b = good.clone();
                for _ in 0..1 + next(4) {
                    let i = next(b.len());
                    b[i] ^= next(256) as u8 | 1;
                }
                b.truncate(b.len() - next(3).min(b.len()));
                b
            };
            let _ = postcard::from_bytes::<Settings>(&bytes);
        }
    }

    #[test]
    fn names_are_trimmed_collapsed_and_capped() {
        assert_eq!(clean_name("  Mia  "), Some("Mia".into()));
        assert_eq!(clean_name("Ana   Lu"), Some("Ana Lu".into()));
        assert_eq!(clean_name("   "), None);
        assert_eq!(clean_name("\u{7}"), None);
        assert_eq!(
            clean_name("Bartholomew the Great").map(|n| n.chars().count()),
            Some(15) // 16 characters end in a space, which is trimmed
        );
    }
}
