//! What devices say to each other ([`Envelope`]) and the lobby the host keeps: each seat's
//! name, colour and address, cut to what a table may hold.

use crate::colours;
use crate::error::{NetError, Result};
use crate::games::GameSetup;
use crate::identity::{PublicKey, SecretKey, SessionId};
use crate::session::{Outgoing, SessionMeta};
use crate::watch::Feed;
use hoard_rules::Seat;
use iroh::{EndpointAddr, EndpointId, TransportAddr};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What devices say to each other.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum Envelope {
    /// Guest to host: seat me (again). Idempotent: sent on every (re)connection.
    Join {
        version: u32,
        name: String,
        colour: [u8; 3],
        addr: EndpointAddr,
    },
    /// Guest to host.
    Ready { ready: bool },
    /// Guest to host: I stand up.
    Leave,
    /// Host to guests: the whole lobby, after every change.
    Lobby(Roster),
    /// Host to a device it will not seat.
    Refused { why: String },
    /// Host to guests: the table is closed.
    Closed,
    /// Host to guests: the game starts with these seats.
    Begin(SessionMeta),
    /// Protocol bytes from one seat's core to another's, addressed by seat number (the
    /// seat's key is known from the start; a key on the wire would have to be checked as a
    /// curve point again on every frame).
    Core {
        session: SessionId,
        from: Seat,
        to: Seat,
        /// The messages in the order sent; a catching-up device gets hundreds at once.
        messages: Vec<serde_bytes::ByteBuf>,
    },
    /// A screen to a seated device: show me the table (sent on every (re)connection).
    Watch { version: u32, name: String },
    /// A seated device to its screens: the public table, after every change.
    Screen(Feed),
}

impl Envelope {
    /// The frame that carries `out`'s messages.
    pub fn core(session: SessionId, out: Outgoing) -> Envelope {
        Envelope::Core {
            session,
            from: out.from,
            to: out.to,
            messages: out.messages,
        }
    }

    pub(crate) fn encode(&self) -> Vec<u8> {
        postcard::to_stdvec(self).unwrap_or_default()
    }

    pub fn decode(bytes: &[u8]) -> Result<Envelope> {
        postcard::from_bytes(bytes).map_err(|e| NetError::Malformed(e.to_string()))
    }
}

/// The lobby as the host sends it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Roster {
    pub name: String,
    pub setup: GameSetup,
    pub seats: Vec<LobbyEntry>,
    /// The shared screens following the table, by name.
    pub screens: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyEntry {
    /// The seat's key: the device's own, or a bot's.
    pub key: PublicKey,
    pub device: EndpointId,
    pub addr: EndpointAddr,
    pub name: String,
    pub colour: [u8; 3],
    pub bot: bool,
    pub ready: bool,
    pub connected: bool,
}

/// The most seats a lobby holds (the largest game seats 8).
pub(crate) const MAX_LOBBY: usize = crate::identity::MAX_SEATS;

/// The most addresses kept for a device. A phone has a few (IPv4, IPv6, perhaps a relay)
/// and a laptop with virtual networks a dozen or so; the lobby, with every seat's
/// addresses, goes to every guest in one frame, so a guest may not pad it.
pub const MAX_ADDRS: usize = 32;
/// The longest relay address kept.
const MAX_RELAY_URL: usize = 256;
/// The most characters of a player's name kept (the bytes are capped by the start's
/// [`crate::identity::MAX_NAME`]).
pub(crate) const MAX_NAME_CHARS: usize = 32;

/// How to reach `device`, from an address it gave: under `device`'s own id, whatever id
/// the address names (links are keyed by that id, so a guest naming another guest's id
/// would take over that guest's links), with at most [`MAX_ADDRS`] IP or relay addresses.
pub fn address_of(device: EndpointId, addr: &EndpointAddr) -> EndpointAddr {
    let usable = addr.addrs.iter().filter(|a| match a {
        TransportAddr::Ip(_) => true,
        TransportAddr::Relay(url) => url.as_str().len() <= MAX_RELAY_URL,
        _ => false,
    });
    EndpointAddr::from_parts(device, usable.take(MAX_ADDRS).cloned())
}

/// A player's name as it may sit at a table: trimmed, and cut between characters to at
/// most [`MAX_NAME_CHARS`] characters and [`crate::identity::MAX_NAME`] bytes, so that
/// the start's check always passes (17 emoji are 17 characters but 68 bytes).
pub fn fit_name(name: &str) -> String {
    let mut out = String::new();
    for c in name.trim().chars().take(MAX_NAME_CHARS) {
        if out.len() + c.len_utf8() > crate::identity::MAX_NAME {
            break;
        }
        out.push(c);
    }
    out.trim_end().to_string()
}

/// The colour for seat `seat` of `seats` (`None`: a seat sitting down): the `wanted` one
/// unless another seat wears it, then the free one nearest to it; a bot (`wanted` `None`)
/// takes the first free colour. Colours at a table are always distinct.
pub(crate) fn colour_for(
    seats: &[LobbyEntry],
    seat: Option<usize>,
    wanted: Option<[u8; 3]>,
) -> [u8; 3] {
    let taken: Vec<[u8; 3]> = seats
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != seat)
        .map(|(_, s)| s.colour)
        .collect();
    match wanted {
        Some(wanted) => colours::free_colour(wanted, &taken),
        None => colours::bot_colour(&taken),
    }
}

/// The table this device hosts, while its lobby is open.
pub(crate) struct Host {
    pub(crate) name: String,
    /// The number of seats the host chose, if it chose.
    pub(crate) size: Option<u8>,
    pub(crate) setup: GameSetup,
    pub(crate) seats: Vec<LobbyEntry>,
    /// Keys of the bots seated, by their public key.
    pub(crate) bots: BTreeMap<PublicKey, SecretKey>,
}

impl Host {
    /// How many seats the table has: the host's choice, within what the game seats (and a
    /// lobby holds); without a choice, the game's most.
    pub(crate) fn seats_total(&self) -> usize {
        let range = self.setup.seat_range();
        let most = usize::from(*range.end()).min(MAX_LOBBY);
        self.size
            .map_or(most, |n| usize::from(n.max(*range.start())).min(most))
    }
}

/// Which side of a pair dials: a guest dials the host; between guests, a device with a
/// direct address dials one reached only through a relay (a browser), since it can reach
/// any relay and the browser can reach only the one that served its page, where the other
/// may not be; otherwise the lower id. Both sides decide from the table's record of both
/// addresses, so they agree.
pub fn dials(me: &EndpointAddr, peer: &EndpointAddr, host: Option<EndpointId>) -> bool {
    if Some(peer.id) == host {
        true
    } else if Some(me.id) == host {
        false
    } else {
        match (relay_only(me), relay_only(peer)) {
            (false, true) => true,
            (true, false) => false,
            _ => me.id < peer.id,
        }
    }
}

/// Every other device at the session's table, at the address the table recorded, and
/// whether this device dials it ([`dials`]).
pub fn table_links(meta: &SessionMeta, me: EndpointId) -> Vec<(EndpointAddr, bool)> {
    let mine = my_address(meta, me);
    let mut seen = std::collections::BTreeSet::from([me]);
    meta.seats
        .iter()
        .filter(|seat| seen.insert(seat.device))
        .map(|seat| {
            let theirs = address_of(seat.device, &seat.addr);
            let dial = dials(&mine, &theirs, meta.host());
            (theirs, dial)
        })
        .collect()
}

/// This device's address as the table recorded it (what every other device decides who
/// dials from); a device without a seat there goes by its id alone.
fn my_address(meta: &SessionMeta, me: EndpointId) -> EndpointAddr {
    meta.seats
        .iter()
        .find(|s| s.device == me)
        .map_or_else(|| EndpointAddr::new(me), |s| address_of(me, &s.addr))
}

/// An address with a relay and no direct part: a browser's, which only its relay reaches.
/// (An address not known at all is not one: it is left to discovery, as before.)
fn relay_only(addr: &EndpointAddr) -> bool {
    let relay = addr
        .addrs
        .iter()
        .any(|a| matches!(a, TransportAddr::Relay(_)));
    relay && !addr.addrs.iter().any(|a| matches!(a, TransportAddr::Ip(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(b: u8) -> EndpointId {
        SecretKey::from_bytes(&[b; 32]).public()
    }

    /// Devices 1 to 5; the even ones are browsers, reached only through the table's relay.
    fn addrs() -> Vec<EndpointAddr> {
        let relay: iroh::RelayUrl = "http://192.168.1.20:8470/".parse().expect("a url");
        (1..6)
            .map(|b| {
                let direct = TransportAddr::Ip(([192, 168, 1, b], 4000).into());
                let addr = TransportAddr::Relay(relay.clone());
                let parts = if b % 2 == 0 { vec![addr] } else { vec![direct] };
                EndpointAddr::from_parts(id(b), parts)
            })
            .collect()
    }

    #[test]
    fn exactly_one_side_of_every_pair_dials() {
        let addrs = addrs();
        for host in &addrs {
            for a in &addrs {
                for b in &addrs {
                    if a == b {
                        continue;
                    }
                    let ab = dials(a, b, Some(host.id));
                    let ba = dials(b, a, Some(host.id));
                    assert_ne!(ab, ba, "pair {a:?} {b:?} with host {:?}", host.id);
                }
            }
        }
    }

    /// Issue 28: "every native device at a table with a browser seat" reaches it. A browser
    /// reaches only the relay that served its page, where another guest's laptop need not
    /// be; the laptop reaches any relay. So between guests the laptop dials the browser,
    /// whichever id is lower, and a guest still dials the host, browser or not.
    #[test]
    fn a_laptop_dials_a_browser_guest_and_every_guest_dials_the_host() {
        let addrs = addrs();
        let (laptop, browser, host) = (&addrs[0], &addrs[1], &addrs[2]);
        assert!(relay_only(browser) && !relay_only(laptop));
        assert!(
            !relay_only(&EndpointAddr::new(id(9))),
            "not known: left to discovery"
        );
        assert!(dials(laptop, browser, Some(host.id)));
        assert!(!dials(browser, laptop, Some(host.id)));
        let (laptop, browser) = (&addrs[4], &addrs[3]);
        assert!(
            dials(laptop, browser, Some(host.id)),
            "whichever id is lower"
        );
        assert!(
            dials(browser, host, Some(host.id)),
            "a browser guest dials its host"
        );
        assert!(dials(laptop, host, Some(host.id)));
    }

    /// Reported: the list of tables said "3 of 6 seats" for a GreedQuest table hosted for
    /// four.
    #[test]
    fn a_table_is_as_big_as_its_host_chose_within_what_the_game_seats() {
        let host = |size| Host {
            name: "The cellar".into(),
            size,
            setup: crate::games::basic("greedquest", 3).expect("greedquest"),
            seats: Vec::new(),
            bots: BTreeMap::new(),
        };
        assert_eq!(host(Some(4)).seats_total(), 4);
        assert_eq!(host(None).seats_total(), 6, "no choice: the game's most");
        assert_eq!(host(Some(9)).seats_total(), 6);
        assert_eq!(host(Some(1)).seats_total(), 2);
    }

    /// Reported: Bot 2 and the player who joined after it both wore blue.
    #[test]
    fn every_seat_at_a_table_wears_its_own_colour_and_a_newcomer_gets_the_nearest_free_one() {
        let blue = colours::SEAT_COLOURS[1];
        let seat = |b: u8, colour: [u8; 3], bot: bool| LobbyEntry {
            key: id(b),
            device: if bot { id(1) } else { id(b) },
            addr: EndpointAddr::new(id(1)),
            name: format!("seat {b}"),
            colour,
            bot,
            ready: true,
            connected: true,
        };
        // The host in red, then three bots.
        let mut seats = vec![seat(1, colours::SEAT_COLOURS[0], false)];
        for b in 2..5 {
            let colour = colour_for(&seats, None, None);
            seats.push(seat(b, colour, true));
        }
        // A player in blue joins; a player in a blue a bot already wears joins after.
        let first = colour_for(&seats, None, Some(blue));
        assert_eq!(first, blue, "blue was free");
        seats.push(seat(5, first, false));
        let second = colour_for(&seats, None, Some([0x3d, 0x8b, 0xd9]));
        assert_eq!(
            second,
            colours::SEAT_COLOURS[6],
            "teal is the free colour nearest blue"
        );
        seats.push(seat(6, second, false));
        // The first player joins again (a new profile, a reconnect): its own colour is its own.
        assert_eq!(colour_for(&seats, Some(4), Some(blue)), blue);
        let mut read: Vec<usize> = seats.iter().map(|s| colours::reads_as(s.colour)).collect();
        read.sort();
        read.dedup();
        assert_eq!(read.len(), seats.len(), "{seats:?}");
    }

    #[test]
    fn a_name_of_emoji_is_cut_by_its_bytes_between_characters() {
        let name = "\u{1F409}".repeat(17);
        assert_eq!(name.chars().count(), 17);
        let cut = fit_name(&name);
        assert!(
            cut.len() <= crate::identity::MAX_NAME,
            "{} bytes",
            cut.len()
        );
        assert_eq!(cut, "\u{1F409}".repeat(16));
        assert_eq!(fit_name(&"a".repeat(40)), "a".repeat(MAX_NAME_CHARS));
        assert_eq!(fit_name("  Mia  "), "Mia");
    }

    #[test]
    fn an_address_is_kept_under_its_devices_own_id_and_capped() {
        let ips = (0..1000u16)
            .map(|p| TransportAddr::Ip(std::net::SocketAddr::from(([127, 0, 0, 1], 1000 + p))));
        let claimed = EndpointAddr::from_parts(id(2), ips);
        let kept = address_of(id(1), &claimed);
        assert_eq!(kept.id, id(1));
        assert_eq!(kept.addrs.len(), MAX_ADDRS);
        assert!(kept.addrs.iter().all(|a| claimed.addrs.contains(a)));
    }
}
