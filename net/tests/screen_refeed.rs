//! A shared screen that asks to watch again and again (issue: "a shared screen that sends
//! its `Watch` again and again is re-fed the whole game each time; bound it"): the device
//! sends it the whole game at most once per `REFEED_MS`, and a screen that asked again in
//! between gets it once that has passed, as a screen restarted would need.

use hoard_net::device::machine::REFEED_MS;
use hoard_net::device::{Device, Envelope, Happening, Links};
use hoard_net::games::GameSetup;
use hoard_net::identity::SeededRandom;
use hoard_net::storage::{Folder, MemStorage};
use hoard_net::table_types::{Command, Update};
use hoard_net::transport::TableInfo;
use hoard_net::transport::table::PROTOCOL_VERSION;
use hoard_net::{SecretKey, Time};
use hoard_rules::Listed;
use hoard_rules::counter::Counter;
use iroh::{EndpointAddr, EndpointId};
use std::sync::{Arc, Mutex};

/// Links that carry nothing and count the bytes queued for each device.
#[derive(Clone)]
struct Counted {
    me: EndpointId,
    sent: Arc<Mutex<Vec<(EndpointId, usize)>>>,
}

impl Counted {
    fn to(&self, peer: EndpointId) -> usize {
        let sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        sent.iter()
            .filter(|(p, _)| *p == peer)
            .map(|(_, n)| n)
            .sum()
    }
}

impl Links for Counted {
    fn addr(&self) -> EndpointAddr {
        EndpointAddr::new(self.me)
    }
    fn connect(&mut self, _: EndpointAddr, _: bool) {}
    fn connect_as_screen(&mut self, _: EndpointAddr) {}
    fn knock(&mut self, _: EndpointAddr) {}
    fn disconnect(&mut self, _: &EndpointId) {}
    fn cut_off(&mut self, _: &EndpointId, _: u64) {}
    fn send(&mut self, peer: &EndpointId, bytes: Vec<u8>, _: bool) -> bool {
        let mut sent = self.sent.lock().unwrap_or_else(|e| e.into_inner());
        sent.push((*peer, bytes.len()));
        true
    }
    fn has(&self, _: &EndpointId) -> bool {
        true
    }
    fn peers(&self) -> Vec<EndpointId> {
        Vec::new()
    }
    fn advertise(&mut self, _: Option<&TableInfo>) {}
}

/// Runs the device's timers until its game reaches `step`; returns the time.
fn play_to(device: &mut Device, mut now: Time, step: u32) -> Time {
    let mut most = 0;
    for _ in 0..100_000 {
        let at = device
            .take_events()
            .iter()
            .filter_map(|e| match e {
                Update::Game(v) => Some(v.step),
                _ => None,
            })
            .max();
        if at.is_some_and(|s| s >= step) {
            return now;
        }
        most = most.max(at.unwrap_or(0));
        now = device.next_timeout().unwrap_or(now.plus(100)).max(now);
        device.handle(now, Happening::Timeout);
    }
    panic!("the game never reached step {step}, only {most}");
}

#[test]
fn a_screen_asking_again_and_again_is_sent_the_game_once_per_period() {
    let key = SecretKey::from_bytes(&[5; 32]);
    let links = Counted {
        me: key.public(),
        sent: Arc::default(),
    };
    let data = Folder::root(Arc::new(MemStorage::new()));
    let mut device = Device::new(
        data,
        key,
        Some(Box::new(links.clone())),
        Box::new(SeededRandom::new([6; 32])),
        Time(0),
    );
    let mut now = Time(1);
    let mut config = <Counter as Listed>::config(3);
    Counter::set_variant(&mut config, "quick-answers").expect("a variant");
    config.turns = 40;
    for command in [
        Command::HostTable {
            name: "The kitchen".into(),
            seats: Some(3),
        },
        Command::ChooseGame {
            setup: GameSetup::Counter(config),
        },
        Command::AddBot,
        Command::AddBot,
        Command::Autoplay { on: true },
        Command::Start,
    ] {
        device.handle(now, Happening::Command(command));
    }
    now = play_to(&mut device, now, 35);

    let screen: EndpointId = SecretKey::from_bytes(&[77; 32]).public();
    let watch = postcard::to_stdvec(&Envelope::Watch {
        version: PROTOCOL_VERSION,
        name: "The big TV".into(),
    })
    .expect("encode");
    device.handle(now, Happening::LinkUp(screen));
    device.handle(now, Happening::Frame(screen, watch.clone()));
    let whole = links.to(screen);
    assert!(whole > 400, "the screen is sent the game: {whole} B");

    // Asked again and again within the period: no second copy (the game does not move
    // meanwhile: no timer runs).
    for k in 1..=20u64 {
        device.handle(now.plus(k * 100), Happening::Frame(screen, watch.clone()));
    }
    let again = links.to(screen) - whole;
    assert!(
        again < whole / 10,
        "20 more asks within {REFEED_MS} ms cost {again} B against {whole} B for the game"
    );

    // Once the period has passed, the screen that asked again gets the game again.
    let due = device
        .next_timeout()
        .expect("the device wakes to feed the screen");
    assert!(due <= now.plus(REFEED_MS), "{due:?}");
    device.handle(now.plus(REFEED_MS), Happening::Timeout);
    let later = links.to(screen) - whole - again;
    assert!(
        later >= whole,
        "the game goes again after the period: {later} B (the first copy {whole} B)"
    );
}
