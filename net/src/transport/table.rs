//! The card an open table shows on the LAN: name, host, game, seats and protocol version,
//! packed into the ≤ 245 bytes of mDNS user data. Every iroh endpoint advertises itself,
//! so a card that does not parse is simply not a Hoard table and is ignored.

use iroh::EndpointId;
use iroh::address_lookup::UserData;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The version of Hoard's wire protocol; devices on another version cannot share a table.
///
/// 5: a seat the table skipped says it is back (`Body::Back`).
/// 6: a table can end a game by agreement (`Body::End`, `StepRecord::Ended`).
/// 7: shared hidden decks: a deck key in every accept, `Body::Deck`, `StepRecord::Deck`,
///    and the cards an input passes in its `StepRecord::Inputs`.
/// 8: shared screens (`Envelope::Watch`, `Envelope::Screen`) and the screens in the lobby.
/// 9: every shuffle part carries its proof of shuffle, checked on arrival.
/// 10: commitments are not echoed; a device states what it holds of a step's commitments
///    (`Wire::Holding`) and sends them only to a peer that holds others.
/// 11: a sealed play's opening is not signed (`Wire::Open`): its signed commitment binds
///    it, and one that does not match is refused rather than proven against its seat. No
///    message carries its session's id (the frame does; signatures still cover it).
/// 12: a statement of the commitments held carries a 16-byte digest (`HoldingDigest`).
pub const PROTOCOL_VERSION: u32 = 12;

/// Marks a Hoard table card (and its layout version) in mDNS user data.
const MAGIC: &str = "hoard1";
const SEP: char = '|';
/// Longest table name and host name kept on the card, in characters.
pub const MAX_TABLE_NAME: usize = 40;
pub const MAX_HOST_NAME: usize = 32;

/// A table is known by its host device: one open table per device.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct TableId(pub EndpointId);

impl fmt::Debug for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TableId({})", self.0.fmt_short())
    }
}

impl fmt::Display for TableId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.fmt_short())
    }
}

/// An open table as the list on the home screen shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableInfo {
    pub id: TableId,
    pub name: String,
    pub host_name: String,
    /// The game chosen so far ([`hoard_rules::Game::NAME`]).
    pub game: String,
    pub seats_taken: u8,
    pub seats_total: u8,
    /// The host's [`PROTOCOL_VERSION`].
    pub version: u32,
}

impl TableInfo {
    /// Whether this device can sit at the table.
    pub fn compatible(&self) -> bool {
        self.version == PROTOCOL_VERSION
    }

    /// The mDNS user data for this card; long names are shortened to fit.
    pub fn to_user_data(&self) -> UserData {
        let clean = |s: &str, max: usize| -> String {
            s.chars()
                .map(|c| if c == SEP || c.is_control() { ' ' } else { c })
                .take(max)
                .collect()
        };
        let game = clean(&self.game, 16);
        let host = clean(&self.host_name, MAX_HOST_NAME);
        let mut name = clean(&self.name, MAX_TABLE_NAME);
        loop {
            let text = format!(
                "{MAGIC}{SEP}{}{SEP}{}{SEP}{}{SEP}{game}{SEP}{host}{SEP}{name}",
                self.version, self.seats_taken, self.seats_total
            );
            match UserData::try_from(text) {
                Ok(data) => return data,
                // Multi-byte names can overflow the bytes even within the character caps.
                Err(_) => {
                    name.pop();
                }
            }
        }
    }

    /// Reads a card advertised by `id`; `None` if it is not a Hoard table card.
    pub fn from_user_data(id: EndpointId, data: &UserData) -> Option<TableInfo> {
        let text: &str = data.as_ref();
        let mut parts = text.splitn(7, SEP);
        if parts.next()? != MAGIC {
            return None;
        }
        let version = parts.next()?.parse().ok()?;
        let seats_taken = parts.next()?.parse().ok()?;
        let seats_total = parts.next()?.parse().ok()?;
        let game = parts.next()?.to_string();
        let host_name = parts.next()?.to_string();
        let name = parts.next()?.to_string();
        Some(TableInfo {
            id: TableId(id),
            name,
            host_name,
            game,
            seats_taken,
            seats_total,
            version,
        })
    }
}

/// The card of a device whose table has closed: recognisably Hoard's, never a table.
/// (`None` only if it did not fit in user data, which it always does.)
pub fn no_table_card() -> Option<UserData> {
    UserData::try_from(format!("{MAGIC}{SEP}closed")).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use iroh::SecretKey;

    fn card(name: &str, host: &str) -> TableInfo {
        TableInfo {
            id: TableId(SecretKey::from_bytes(&[3; 32]).public()),
            name: name.into(),
            host_name: host.into(),
            game: "greedquest".into(),
            seats_taken: 2,
            seats_total: 4,
            version: PROTOCOL_VERSION,
        }
    }

    #[test]
    fn a_table_card_survives_mdns_user_data() {
        let info = card("Friday night", "Mia");
        let back = TableInfo::from_user_data(info.id.0, &info.to_user_data());
        assert_eq!(back, Some(info));
    }

    #[test]
    fn long_or_odd_names_are_cut_to_fit_the_245_bytes() {
        let info = card(&"ü|ä\n".repeat(200), &"漢".repeat(100));
        let data = info.to_user_data();
        assert!(data.as_ref().len() <= UserData::MAX_LENGTH);
        let back = TableInfo::from_user_data(info.id.0, &data).expect("still a card");
        assert_eq!(back.seats_total, 4);
        assert!(!back.name.contains('|') && !back.name.contains('\n'));
        assert_eq!(back.host_name.chars().count(), MAX_HOST_NAME);
    }

    #[test]
    fn other_endpoints_user_data_is_not_a_table() {
        let id = SecretKey::from_bytes(&[4; 32]).public();
        for text in [
            "",
            "hello",
            "hoard1|x|1|2|g|h|n",
            "hoard2|1|1|2|g|h|n",
            "hoard1|1|1",
        ] {
            let data = UserData::try_from(text.to_string()).expect("short");
            assert_eq!(TableInfo::from_user_data(id, &data), None, "{text:?}");
        }
    }
}
