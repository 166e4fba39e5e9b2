//! SPAMMERS: build internet "businesses", mail the net's gullible masses, and race to Scams
//! rated 20 in all (or one of 12), for 2 to 6 players, on two shared hidden decks: the List
//! deck and the Action deck.
//!
//! The rulebook is `shared/rulebooks/spammers.txt`; the cards ([`cards`]) are published
//! nowhere and reconstructed (the README lists them). Every rule plays; where the rulebook
//! leaves a case open, this is what the game does:
//!
//! - **Set-up.** Each player is dealt three Lists and six Actions in secret, then everyone
//!   chooses at once, sealed until all have chosen, the List they give to the Unwashed Masses;
//!   the other two go face up to their Proprietary Lists. Then as many Lists as players are
//!   turned up into the Masses, and the first player is drawn from the beacon.
//! - **Playing "at any time".** A card whose Special Effect may be played at any time
//!   (Marketing Wizard's kind) is answered in the moment right after each Mailing roll: every
//!   player holding a card gets a reaction window, sealed until all have answered, the
//!   Mailing's player last, the first in turn order after the roller taken. An answer opens a
//!   new window, so answers can follow answers; the roll's result is applied when a window
//!   closes with no answer. Such a card may also be played on its player's own turn, as an
//!   action, for an effect that needs no roll. Effects that draw cards or allow more Mailings
//!   belong to a player's own turn and are never answers.
//! - **Insider Trading's kind** (a Rating change) goes up or down as its player says, on any
//!   Scam; no Rating falls below its Initial Rating, and a List is kept from a draw only by
//!   a Scam above its Initial Rating ("reduce the Rating ... by one").
//! - **Merging** is two Proprietary Lists of the player's own or two Masses Lists; the merged
//!   List keeps each Specialty once and every Gruntle.
//! - **Discarding a Scam to draw.** With five Scams in play, one of them may go for a List, or
//!   for an Action card if the hand has room (a full hand may not draw). The rulebook's
//!   "extremely rare" exception, a hand of nine none of which is playable, is a full hand (nine,
//!   or more with a Bigger Hard Drive) in which no card has a play this turn: then a Scam from
//!   the hand is discarded, face up, and an Action card drawn, as one action. The other seats
//!   see that Scam; that nothing else in the hand was playable is checked by its holder's device
//!   and at the audit, where every hand is shown.
//! - **The Gruntle limits** ("If a Proprietary List ever has ...") are checked after every
//!   change, for every List, however it came over its limit: Gruntles added, a List harvested
//!   from the Masses with Gruntles on it (it goes straight back, clean), a Firewall leaving
//!   play, a merge. Lists over their limit move seat by seat, each seat's in order, then the
//!   Masses in order.
//! - **A List that leaves** while a Mailing to it is being answered (harvested, or
//!   discarded) still gets its Gruntle where it went, or none if it went to the discards.
//! - **Away seats** pass in every window, send a List they drew to the Masses and end their
//!   turn; a seat away at the set-up choice is waited for.

mod bot;
pub mod cards;
pub mod data;
mod rules;
mod state;
mod narrate;

pub use state::*;

use rules::*;

use crate::deck::{CardMove, HiddenDeck};
use crate::{
    Absence, CardId, Game, Handle, Listed, Pending, ReactionWindow, RuleError, Seat, Step,
};
use std::collections::BTreeMap;

/// The game.
pub struct Spammers;

impl Game for Spammers {
    const NAME: &'static str = "spammers";
    type Config = Config;
    type Public = Public;
    type Private = Private;
    type Input = Input;
    type Event = Event;

    fn seat_range() -> std::ops::RangeInclusive<u8> {
        2..=6
    }

    fn setup(config: &Config) -> Result<Public, RuleError> {
        if !Self::seat_range().contains(&config.seats) {
            return Err(RuleError::BadConfig(format!(
                "SPAMMERS is for 2 to 6 players, not {}",
                config.seats
            )));
        }
        config.window.check("the time to answer a Mailing")?;
        Ok(Public {
            config: config.clone(),
            lists: HiddenDeck::new(LIST_DECK),
            actions: HiddenDeck::new(ACTION_DECK),
            areas: vec![Area::default(); usize::from(config.seats)],
            masses: Vec::new(),
            list_discard: Vec::new(),
            action_discard: Vec::new(),
            first: 0,
            phase: Phase::ShuffleLists,
            last_roll: None,
            turns: 0,
        })
    }

    fn private(_config: &Config, seat: Seat, _secret: [u8; 32]) -> Private {
        Private {
            seat,
            faces: BTreeMap::new(),
            dealt_lists: Vec::new(),
        }
    }

    fn pending(public: &Public) -> Pending {
        rules::pending(public)
    }

    fn legal_inputs(public: &Public, private: Option<&Private>, seat: Seat) -> Vec<Input> {
        rules::legal_inputs(public, private, seat)
    }

    fn check_input(public: &Public, seat: Seat, input: &Input) -> Result<(), RuleError> {
        rules::check_input(public, seat, input)
    }

    fn allows(public: &Public, private: &Private, seat: Seat, input: &Input) -> bool {
        rules::legal_inputs(public, Some(private), seat).contains(input)
    }

    fn apply(
        public: &mut Public,
        privates: &mut [Option<Private>],
        step: &Step<Input>,
    ) -> Result<Vec<Event>, RuleError> {
        crate::all_or_nothing(public, privates, |p, q| {
            let mut events = apply_step(p, q, step)?;
            // Whatever the step changed, no List stays over its limit.
            settle_lists(p, &mut events);
            Ok(events)
        })
    }

    fn bot_input(
        public: &Public,
        private: Option<&Private>,
        seat: Seat,
        rng: &mut rand_chacha::ChaCha8Rng,
    ) -> Option<Input> {
        bot::choose(public, private, seat, rng)
    }

    fn deck_order(
        public: &Public,
        _privates: &[Option<&Private>],
        face: &dyn Fn(Handle) -> Option<CardId>,
        _name: &dyn Fn(Seat) -> String,
    ) -> Vec<String> {
        let lists = public
            .lists
            .order("The Lists", face, |card| cards::list(card).name.to_string());
        let actions = public
            .actions
            .order("The Actions", face, |card| cards::action(card).name.to_string());
        lists.into_iter().chain(actions).collect()
    }

    fn narrate(event: &Event, name: &dyn Fn(Seat) -> String) -> String {
        narrate::line(event, name)
    }

    fn card_moves(_public: &Public, _seat: Seat, input: &Input) -> Vec<CardMove> {
        match input {
            Input::Choose { masses, keep } => std::iter::once(masses)
                .chain(keep)
                .map(|(card, face)| CardMove::Show {
                    card: *card,
                    face: *face,
                })
                .collect(),
            Input::PlayScam { card, face }
            | Input::PlayHardware { card, face }
            | Input::Mail { card, face, .. }
            | Input::Special { card, face, .. }
            | Input::DiscardHeldScam { card, face } => vec![CardMove::Show {
                card: *card,
                face: *face,
            }],
            _ => Vec::new(),
        }
    }

    fn learn(private: &mut Private, card: Handle, face: CardId) {
        if card.deck == LIST_DECK {
            private.dealt_lists.push(card);
        }
        private.faces.insert(card, face);
    }

    fn reaction_window(config: &Config) -> ReactionWindow {
        config.window
    }

    fn pass(public: &Public, seat: Seat) -> Option<Input> {
        match &public.phase {
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            _ => None,
        }
    }

    /// A seat the table goes on without answers nothing, sends a List it drew to the
    /// Masses, and ends its turn. Only its player can choose its Lists at the start: the
    /// table waits for a skipped one, and a removed one's Lists leave the game unseen.
    fn sit_out(public: &Public, seat: Seat, absence: Absence) -> Option<Input> {
        match &public.phase {
            Phase::Choose if absence == Absence::Removed => Some(Input::Abstain),
            Phase::Window { seats, .. } if seats.contains(&seat) => Some(Input::Pass),
            Phase::ListDrawn { turn, .. } if turn.seat == seat => Some(Input::ListToMasses),
            Phase::Turn(turn) if turn.seat == seat => Some(Input::EndTurn),
            _ => None,
        }
    }
}

impl Listed for Spammers {
    const TITLE: &'static str = "SPAMMERS";
    const VARIANTS: &'static [&'static str] = &["quick-answers"];

    fn config(seats: u8) -> Config {
        Config {
            seats,
            window: ReactionWindow::USUAL,
        }
    }

    fn seats(config: &Config) -> u8 {
        config.seats
    }

    fn with_seats(config: &Config, seats: u8) -> Config {
        Config {
            seats,
            ..config.clone()
        }
    }

    /// `quick-answers`: one second to answer a Mailing roll instead of three.
    fn set_variant(config: &mut Config, variant: &str) -> Result<(), String> {
        match variant {
            "quick-answers" => {
                config.window = ReactionWindow::QUICK;
                Ok(())
            }
            other => Err(format!("SPAMMERS has no variant {other:?}")),
        }
    }

    fn check_pieces(public: &Public, privates: &[Option<Private>]) -> Result<(), String> {
        check_pieces(public, privates)
    }
}
