//! What a device keeps about itself, apart from its games: its identity key, its player's
//! name and colour, the port it was found at, the game it was sitting at, and the keys of
//! the bots it seated at each game. All through a [`Folder`], so a browser keeps the same.

use super::lobby::fit_name;
use crate::error::{NetError, Result};
use crate::identity::{PublicKey, Random, SecretKey, SessionId};
use crate::storage::Folder;
use iroh::EndpointAddr;
use serde::{Deserialize, Serialize};
use std::io::ErrorKind;

pub(crate) const IDENTITY_FILE: &str = "identity.key";
const PROFILE_FILE: &str = "profile.bin";
pub(crate) const BOTS_FILE: &str = "bots.bin";
const PORT_FILE: &str = "port";
/// The session this device is playing (32 bytes), removed when the player leaves it.
const AT_TABLE_FILE: &str = "at-table";
/// The host whose open table this device sits at (its address), removed when it stands up
/// or the game starts.
const AT_LOBBY_FILE: &str = "at-lobby";

/// The player's name and colour, kept in the data directory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    pub name: String,
    pub colour: [u8; 3],
}

/// Reads a kept profile; `None` if it is damaged or its name is empty.
pub fn read_profile(bytes: &[u8]) -> Option<Profile> {
    let p: Profile = postcard::from_bytes(bytes).ok()?;
    // Kept by an older version, a name may not fit a start.
    let name = fit_name(&p.name);
    (!name.is_empty()).then_some(Profile { name, ..p })
}

/// Reads the keys of a session's bots, kept beside it on the host.
pub fn read_bots(bytes: &[u8]) -> Result<Vec<SecretKey>> {
    let keys: Vec<[u8; 32]> = postcard::from_bytes(bytes)
        .map_err(|e| NetError::Corrupt(format!("the saved bots' keys are damaged: {e}")))?;
    Ok(keys.iter().map(SecretKey::from_bytes).collect())
}

/// The device's identity: its iroh secret key, made once (from `random`) and kept in
/// `data`.
pub fn load_identity(data: &Folder, random: &mut dyn Random) -> Result<SecretKey> {
    match data.read_private(IDENTITY_FILE) {
        Ok(bytes) => {
            let bytes: [u8; 32] = bytes.as_slice().try_into().map_err(|_| {
                NetError::Corrupt(format!(
                    "this device's identity key ({}) is damaged: it should be 32 bytes, not {}",
                    data.join(IDENTITY_FILE).path(),
                    bytes.len()
                ))
            })?;
            Ok(SecretKey::from_bytes(&bytes))
        }
        Err(e) if e.kind() == ErrorKind::NotFound => {
            let key = random.key()?;
            data.write_private(IDENTITY_FILE, &key.to_bytes())?;
            Ok(key)
        }
        Err(e) => Err(e.into()),
    }
}

/// The kept profile, or a first one named after the device's key.
pub(crate) fn load_profile(data: &Folder, me: &PublicKey) -> Profile {
    data.read(PROFILE_FILE)
        .ok()
        .and_then(|b| read_profile(&b))
        .unwrap_or_else(|| Profile {
            name: format!("Player {}", &me.fmt_short().to_string()[..4]),
            colour: [0x5d, 0x7c, 0xc9],
        })
}

pub(crate) fn save_profile(data: &Folder, profile: &Profile) -> Result<()> {
    data.write(
        PROFILE_FILE,
        &postcard::to_stdvec(profile).unwrap_or_default(),
    )?;
    Ok(())
}

/// The keys of the bots this device seated in the game kept in `game`.
pub(crate) fn load_bots(game: &Folder) -> Result<Vec<SecretKey>> {
    match game.read_private(BOTS_FILE) {
        Ok(bytes) => read_bots(&bytes),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e.into()),
    }
}

pub(crate) fn save_bots(game: &Folder, bots: &[SecretKey]) -> Result<()> {
    let keys: Vec<[u8; 32]> = bots.iter().map(|k| k.to_bytes()).collect();
    game.write_private(BOTS_FILE, &postcard::to_stdvec(&keys).unwrap_or_default())?;
    Ok(())
}

/// The UDP port this device was bound to last, so a restarted device is found where it was.
pub fn load_port(data: &Folder) -> Option<u16> {
    let bytes = data.read(PORT_FILE).ok()?;
    bytes.as_slice().try_into().ok().map(u16::from_le_bytes)
}

/// Best effort: a device that cannot remember its port is still found by mDNS.
pub fn save_port(data: &Folder, port: u16) {
    let _ = data.write(PORT_FILE, &port.to_le_bytes());
}

/// The game this device was at the table of when it last stopped, if it did not leave.
pub(crate) fn at_table(data: &Folder) -> Option<SessionId> {
    let bytes = data.read(AT_TABLE_FILE).ok()?;
    Some(SessionId(bytes.as_slice().try_into().ok()?))
}

/// Notes the game being played (or, with `None`, that the player left it), so that an
/// app closed or killed mid-game takes the player straight back to it.
pub(crate) fn set_at_table(data: &Folder, session: Option<SessionId>) {
    let done = match session {
        Some(session) => data.write(AT_TABLE_FILE, &session.0),
        None => data.remove(AT_TABLE_FILE),
    };
    // At worst the game is listed at home instead of reopened.
    if let Err(e) = done {
        tracing::warn!("could not note the game being played: {e}");
    }
}

/// The host of the open table this device was sitting at when it last stopped, if it did
/// not stand up: a device killed in a lobby, or just as the game started, sits down again.
pub(crate) fn at_lobby(data: &Folder) -> Option<EndpointAddr> {
    let bytes = data.read(AT_LOBBY_FILE).ok()?;
    let addr: EndpointAddr = postcard::from_bytes(&bytes).ok()?;
    Some(super::lobby::address_of(addr.id, &addr))
}

/// Notes the host of the open table this device sits at (`None`: it stood up, or the game
/// began).
pub(crate) fn set_at_lobby(data: &Folder, host: Option<&EndpointAddr>) {
    let done = match host {
        Some(addr) => data.write(
            AT_LOBBY_FILE,
            &postcard::to_stdvec(addr).unwrap_or_default(),
        ),
        None if data.exists(AT_LOBBY_FILE) => data.remove(AT_LOBBY_FILE),
        None => Ok(()),
    };
    // At worst the player taps the table again.
    if let Err(e) = done {
        tracing::warn!("could not note the table sat at: {e}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::identity::SystemRandom;
    use crate::storage::DiskStorage;
    use std::path::Path;
    use std::sync::Arc;

    fn folder(dir: &Path) -> Folder {
        Folder::root(Arc::new(DiskStorage::new(dir)))
    }

    /// Issue 20: `identity.key` and `bots.bin` were world-readable (0644); a device's key
    /// and its bots' keys are its players' identities at every table.
    #[cfg(unix)]
    #[test]
    fn the_device_key_and_the_bots_keys_are_readable_by_the_owner_only() {
        use crate::core::Time;
        use crate::identity::{SeatSpec, Start};
        use crate::session::{SeatMeta, SessionMeta, session_dir};
        use hoard_rules::greedquest::GreedQuest;
        use iroh::EndpointAddr;
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("hoard-keys-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let mode = |p: &Path| std::fs::metadata(p).expect("file").permissions().mode() & 0o777;
        let loosen = |p: &Path| {
            std::fs::set_permissions(p, std::fs::Permissions::from_mode(0o644)).expect("chmod")
        };
        let key = load_identity(&folder(&dir), &mut SystemRandom).expect("new identity");
        let identity = dir.join(IDENTITY_FILE);
        assert_eq!(mode(&identity), 0o600);
        // A key file an older version left readable by everyone is tightened when read.
        loosen(&identity);
        assert_eq!(
            load_identity(&folder(&dir), &mut SystemRandom)
                .expect("same")
                .public(),
            key.public()
        );
        assert_eq!(mode(&identity), 0o600);

        let bot = SecretKey::from_bytes(&[7; 32]);
        let seats = vec![
            SeatSpec {
                key: key.public(),
                name: "Ann".into(),
            },
            SeatSpec {
                key: bot.public(),
                name: "Bot".into(),
            },
        ];
        let start =
            Start::new::<GreedQuest>(&hoard_rules::greedquest::Config::new(2), seats, [3; 32])
                .expect("start");
        let seat = |k: &SecretKey, bot| SeatMeta {
            device: key.public(),
            addr: EndpointAddr::new(k.public()),
            colour: [1, 2, 3],
            bot,
        };
        let meta = SessionMeta {
            seats: vec![seat(&key, false), seat(&bot, true)],
            start,
        };
        let session = meta.session();
        drop(
            crate::device::saved::open_table(
                &folder(&dir),
                meta,
                &key,
                std::slice::from_ref(&bot),
                false,
                Time(0),
                false,
                &mut SystemRandom,
                None,
            )
            .expect("table"),
        );
        let bots = dir.join("sessions").join(session.to_hex()).join(BOTS_FILE);
        assert_eq!(mode(&bots), 0o600);
        loosen(&bots);
        let kept = load_bots(&session_dir(&folder(&dir), &session)).expect("bots");
        assert_eq!(
            kept.iter().map(|k| k.public()).collect::<Vec<_>>(),
            [bot.public()]
        );
        assert_eq!(mode(&bots), 0o600);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn identity_survives_a_restart_and_a_damaged_key_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("hoard-identity-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let first = load_identity(&folder(&dir), &mut SystemRandom).expect("new identity");
        let again = load_identity(&folder(&dir), &mut SystemRandom).expect("same identity");
        assert_eq!(first.public(), again.public());
        std::fs::write(dir.join(IDENTITY_FILE), b"short").expect("write");
        let err = load_identity(&folder(&dir), &mut SystemRandom).expect_err("damaged key");
        assert!(err.to_string().contains("damaged"), "{err}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
