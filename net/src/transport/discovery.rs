//! The list of open tables on the local network, from mDNS: every endpoint announces
//! itself, hosts add their table card ([`TableInfo`]) as user data, and this keeps the
//! cards that parse, dropping a table when its host stops announcing it.

use super::table::TableInfo;
use iroh::EndpointId;
use iroh_mdns_address_lookup::{DiscoveryEvent, MdnsAddressLookup};
use std::collections::BTreeMap;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;
use tokio_stream::StreamExt;

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
            let mut tables: BTreeMap<EndpointId, TableInfo> = BTreeMap::new();
            while let Some(event) = events.next().await {
                let changed = match event {
                    DiscoveryEvent::Discovered { endpoint_info, .. } => {
                        let id = endpoint_info.endpoint_id;
                        let card = endpoint_info
                            .data
                            .user_data()
                            .and_then(|data| TableInfo::from_user_data(id, data));
                        match card {
                            Some(card) => tables.insert(id, card.clone()) != Some(card),
                            // A host that closed its table keeps announcing itself without a card.
                            None => tables.remove(&id).is_some(),
                        }
                    }
                    DiscoveryEvent::Expired { endpoint_id } => {
                        tables.remove(&endpoint_id).is_some()
                    }
                    _ => false,
                };
                if changed {
                    let mut list: Vec<TableInfo> = tables.values().cloned().collect();
                    list.sort_by(|a, b| a.name.cmp(&b.name).then(a.id.cmp(&b.id)));
                    if lists.send(list).is_err() {
                        return;
                    }
                }
            }
        });
        Discovery { task }
    }
}
