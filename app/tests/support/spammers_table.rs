//! A SPAMMERS table under way, made to order for the screen tests and the screenshots:
//! three players some turns in, the Unwashed Masses with a merged and a gruntled List,
//! Scams rated on the way to 20, and Mia (seat 0, this device) mid-turn with a hand of
//! seven; or Ann's Mailing just rolled, which Mia may answer with Marketing Wizard.

use super::views::{me_and_bots, seated_view};
use egui::accesskit::Role;
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use hoard_app::net::{AnyState, GameView};
use hoard_rules::spammers::cards::{LISTS, action, action_deck, list_deck};
use hoard_rules::spammers::data::Specialty;
use hoard_rules::spammers::{
    Config, ListRef, Mailing, Phase, Private, Public, Scam, Spammers, Stack, Turn,
};
use hoard_rules::{CardId, Game};
use std::collections::BTreeMap;

pub const NAMES: [&str; 3] = ["Mia", "Ann", "Bo"];
pub const COLOURS: [[u8; 3]; 3] = [[40, 120, 220], [220, 60, 50], [40, 160, 80]];

/// The labels of the enabled buttons on the screen.
pub fn enabled_buttons<S>(h: &Harness<'_, S>) -> Vec<String> {
    h.query_all_by_role(Role::Button)
        .filter(|n| !n.accesskit_node().is_disabled())
        .filter_map(|n| n.accesskit_node().label())
        .collect()
}

/// The `nth` copy of the Action card called `name`.
pub fn action_id(name: &str, nth: usize) -> CardId {
    action_deck()
        .into_iter()
        .filter(|id| action(*id).name == name)
        .nth(nth)
        .unwrap_or_else(|| panic!("no copy {nth} of {name}"))
}

/// The List card called `name`.
pub fn list_id(name: &str) -> CardId {
    list_deck()
        .into_iter()
        .find(|id| LISTS[usize::from(*id)].name == name)
        .unwrap_or_else(|| panic!("no List {name}"))
}

fn stack(names: &[&str], gruntles: u8) -> Stack {
    let cards: Vec<CardId> = names.iter().map(|n| list_id(n)).collect();
    let mut specialties: Vec<Specialty> = Vec::new();
    for c in &cards {
        for sp in LISTS[usize::from(*c)].specialties {
            if !specialties.contains(sp) {
                specialties.push(*sp);
            }
        }
    }
    Stack {
        cards,
        specialties,
        gruntles,
    }
}

fn scam(name: &str, rating: u8) -> Scam {
    Scam {
        card: action_id(name, 0),
        rating,
    }
}

/// Mia's hand: a Scam, Mailings (one an answer), and Hardware.
pub fn mias_hand() -> Vec<CardId> {
    vec![
        action_id("Make Money Fast", 1),
        action_id("Marketing Wizard", 0),
        action_id("Last Generation Technology", 0),
        action_id("Insider Trading", 0),
        action_id("Overclocked Processor", 0),
        action_id("Catchy Subject Line", 0),
        action_id("Mail Bomb", 0),
    ]
}

/// Mia's turn, two actions left and no Mailing yet.
pub fn mias_turn() -> Phase {
    Phase::Turn(Turn {
        seat: 0,
        actions: 2,
        mailings: 0,
        mailings_allowed: 1,
    })
}

/// Three seats some turns in, in `phase` (see [`mias_turn`], [`anns_mailing`]).
pub fn spammers_table(phase: impl FnOnce(&Public) -> Phase) -> (Public, Private) {
    let config = Config {
        seats: 3,
        window: hoard_rules::ReactionWindow::USUAL,
    };
    let mut public = Spammers::setup(&config).unwrap_or_else(|e| panic!("{e}"));
    public.lists.shuffled(list_deck().len());
    public.actions.shuffled(action_deck().len());
    public.lists.take(14);
    public.masses = vec![
        stack(&["Coupon Clippers"], 1),
        stack(&["Startup Investors", "Y2K Survivalists"], 0),
        stack(&["AOL Newbies"], 2),
        stack(&["Lonely Hearts Chatters"], 0),
    ];
    let mut faces = BTreeMap::new();
    let hand = public.actions.take(7);
    for (h, c) in hand.iter().zip(mias_hand()) {
        faces.insert(*h, c);
    }
    public.areas[0].hand = hand;
    public.areas[1].hand = public.actions.take(5);
    public.areas[2].hand = public.actions.take(4);
    public.areas[0].scams = vec![
        scam("Make Money Fast", 6),
        scam("Hot Singles in Your Area Code", 3),
    ];
    public.areas[0].hardware = vec![action_id("Router Tap", 0)];
    public.areas[0].lists = vec![
        stack(&["Chain Letter Forwarders"], 1),
        stack(&["Virtual Pet Owners"], 0),
    ];
    public.areas[1].scams = vec![
        scam("Free Credit Report", 8),
        scam("Bulk E-Mail Software Kit", 4),
        scam("Ordination by E-Mail", 2),
    ];
    public.areas[1].hardware = vec![action_id("Overclocked Processor", 1)];
    public.areas[1].lists = vec![stack(&["Sweepstakes Entrants"], 2)];
    public.areas[2].scams = vec![scam("Penny Stock Tip Sheet", 5)];
    public.areas[2].lists = vec![
        stack(&["Middle Managers"], 0),
        stack(&["Ivory Tower Academics"], 0),
    ];
    public.action_discard = vec![action_id("Mail Bomb", 1)];
    public.last_roll = Some(3);
    public.turns = 9;
    public.phase = phase(&public);
    (
        public,
        Private {
            seat: 0,
            faces,
            dealt_lists: Vec::new(),
        },
    )
}

/// Ann (seat 1) mails Coupon Clippers in the Masses for Free Credit Report and rolls a 5;
/// Bo and Mia may answer.
pub fn anns_mailing(public: &Public) -> Phase {
    let card = action_id("Bulk Rate Discount", 0);
    let target = ListRef::Masses(0);
    let base = public.target_number(1, 0, card, target);
    Phase::Window {
        turn: Turn {
            seat: 1,
            actions: 2,
            mailings: 1,
            mailings_allowed: 1,
        },
        mailing: Mailing {
            seat: 1,
            card,
            scam: 0,
            target,
            target_card: list_id("Coupon Clippers"),
            base,
            adjust: 0,
            roll: 5,
        },
        seats: vec![2, 0],
    }
}

/// The view this device has of the table: Mia's, with the others bots.
pub fn spammers_view(public: Public, private: Private, reaction_left_ms: Option<u64>) -> GameView {
    let pending = Spammers::pending(&public);
    let my_turn = !Spammers::legal_inputs(&public, Some(&private), 0).is_empty();
    let seats = me_and_bots(&NAMES, &COLOURS);
    let state = AnyState::Spammers {
        public,
        private: Some(private),
    };
    GameView {
        log: vec![
            "Bo mails Ivory Tower Academics: no gain.".into(),
            "Mia's turn.".into(),
            "Mia launches Hot Singles in Your Area Code.".into(),
        ],
        reaction_left_ms,
        as_another_seat: false,
        ..seated_view(7, seats, state, pending, my_turn, 200)
    }
}
