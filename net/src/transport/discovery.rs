//! The list of open tables on the local network, from mDNS: every endpoint announces
//! itself, hosts add their table card ([`TableInfo`]) as user data, and this keeps the
//! cards that parse, dropping a table when its host stops announcing it.
//!
//! Anyone on the network can announce as many endpoints as it likes, so the list is
//! bounded: past [`MAX_TABLES`], the table heard from longest ago makes room.

use super::table::TableInfo;
use iroh::EndpointId;
use iroh_mdns_address_lookup::{DiscoveryEvent, MdnsAddressLookup};
use std::collections::BTreeMap;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_stream::StreamExt;

/// The most tables listed; a room of friends opens a handful.
pub const MAX_TABLES: usize = 32;

/// Follows mDNS and sends the whole list of tables each time it changes.
pub struct Discovery {
    task: JoinHandle<()>,
}

impl Drop for Discovery {
    fn drop(&mut self) {
        self.task.abort();
    }
}

impl Discovery {
    /// Starts following `mdns`; every change of the list is sent on `lists`, sorted by
    /// table name. Must run inside a tokio runtime.
    pub fn start(
        mdns: MdnsAddressLookup,
        lists: mpsc::UnboundedSender<Vec<TableInfo>>,
    ) -> Discovery {
        let task = tokio::spawn(async move {
            let mut events = mdns.subscribe().await;
            let mut tables = Tables::default();
            while let Some(event) = events.next().await {
                let changed = match event {
                    DiscoveryEvent::Discovered { endpoint_info, .. } => {
                        let id = endpoint_info.endpoint_id;
                        let card = endpoint_info
                            .data
                            .user_data()
                            .and_then(|data| TableInfo::from_user_data(id, data));
                        tables.heard(id, card)
                    }
                    DiscoveryEvent::Expired { endpoint_id } => tables.expired(&endpoint_id),
                    _ => false,
                };
                if changed && lists.send(tables.list()).is_err() {
                    return;
                }
            }
        });
        Discovery { task }
    }
}

/// The tables heard of, each with when it was last heard (a count of announcements).
#[derive(Default)]
pub struct Tables {
    cards: BTreeMap<EndpointId, (TableInfo, u64)>,
    heard: u64,
}

impl Tables {
    /// `id` announced itself with `card` (`None`: no table, or no longer). Whether the
    /// list changed.
    pub fn heard(&mut self, id: EndpointId, card: Option<TableInfo>) -> bool {
        let Some(card) = card else {
            // A host that closed its table keeps announcing itself without a card.
            return self.cards.remove(&id).is_some();
        };
        self.heard += 1;
        if !self.cards.contains_key(&id)
            && self.cards.len() >= MAX_TABLES
            && let Some(oldest) = self
                .cards
                .iter()
                .min_by_key(|(_, (_, heard))| *heard)
                .map(|(id, _)| *id)
        {
            self.cards.remove(&oldest);
        }
        match self.cards.insert(id, (card.clone(), self.heard)) {
            Some((old, _)) => old != card,
            None => true,
        }
    }

    /// `id` stopped announcing itself.
    pub fn expired(&mut self, id: &EndpointId) -> bool {
        self.cards.remove(id).is_some()
    }

    /// The tables by name.
    pub fn list(&self) -> Vec<TableInfo> {
        let mut list: Vec<TableInfo> = self.cards.values().map(|(c, _)| c.clone()).collect();
        list.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
        list
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::{PROTOCOL_VERSION, TableId};
    use iroh::SecretKey;

    fn card(i: u32) -> (EndpointId, TableInfo) {
        let mut seed = [0u8; 32];
        seed[..4].copy_from_slice(&i.to_le_bytes());
        let id = SecretKey::from_bytes(&seed).public();
        let card = TableInfo {
            id: TableId(id),
            name: format!("Table {i}"),
            host_name: "Mia".into(),
            game: "greedquest".into(),
            seats_taken: 1,
            seats_total: 5,
            version: PROTOCOL_VERSION,
        };
        (id, card)
    }

    #[test]
    fn the_lan_table_list_is_bounded() {
        let mut tables = Tables::default();
        let (friend, friends_card) = card(0);
        tables.heard(friend, Some(friends_card.clone()));
        // A flood of announcements, each from a new endpoint.
        for i in 1..2000 {
            let (id, c) = card(i);
            tables.heard(id, Some(c));
            // The friend's host announces itself again now and then, as mDNS does.
            if i % 16 == 0 {
                tables.heard(friend, Some(friends_card.clone()));
            }
        }
        let list = tables.list();
        assert_eq!(list.len(), MAX_TABLES);
        assert!(
            list.contains(&friends_card),
            "a table still announcing itself stays listed"
        );
        // The newest are kept, the ones heard from longest ago made room.
        assert!(list.contains(&card(1999).1));
        assert!(!list.contains(&card(1).1));
    }

    #[test]
    fn a_closed_or_expired_table_leaves_the_list() {
        let mut tables = Tables::default();
        let (a, ca) = card(1);
        let (b, cb) = card(2);
        assert!(tables.heard(a, Some(ca.clone())));
        assert!(
            !tables.heard(a, Some(ca)),
            "the same card again is no change"
        );
        assert!(tables.heard(b, Some(cb)));
        assert!(tables.heard(a, None));
        assert!(tables.expired(&b));
        assert!(tables.list().is_empty());
    }
}
