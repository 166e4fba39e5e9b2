//! SPAMMERS' rulebook, sentence by sentence, and its Example of Play step by step: each test
//! lays out the table a rule describes, plays it, and checks the outcome, with the sentence
//! quoted. Gates is seat 0, Jobs seat 1 and Satan seat 2.

use hoard_rules::spammers::cards::{action, action_deck, list, list_deck};
use hoard_rules::spammers::data::{ActionKind, Specialty};
use hoard_rules::spammers::{
    Aim, Area, Config, Event, Input, ListRef, Phase, Private, Public, Scam, ScamRef, Spammers,
    Stack, Turn,
};
use hoard_rules::{CardId, Game, Handle, Pending, Play, RuleError, Seat, Step};

const GATES: Seat = 0;
const JOBS: Seat = 1;
const SATAN: Seat = 2;

/// The `nth` copy (from 0) of the Action card called `name`.
fn card(name: &str, nth: usize) -> CardId {
    action_deck()
        .into_iter()
        .filter(|id| action(*id).name == name)
        .nth(nth)
        .unwrap_or_else(|| panic!("no copy {nth} of {name}"))
}

/// A List card of printed Size `size`, with no Specialty, not among `not`.
fn list_of(size: u8, not: &[CardId]) -> CardId {
    list_deck()
        .into_iter()
        .find(|id| list(*id).size == size && list(*id).specialties.is_empty() && !not.contains(id))
        .unwrap_or_else(|| panic!("no plain List of size {size}"))
}

fn seed(n: u64) -> [u8; 32] {
    let mut s = [0u8; 32];
    s[..8].copy_from_slice(&n.to_le_bytes());
    s
}

struct Table {
    p: Public,
    privates: Vec<Option<Private>>,
    handles: u16,
}

impl Table {
    fn new(seats: u8) -> Table {
        let config = Config {
            seats,
            window: hoard_rules::ReactionWindow::QUICK,
        };
        let mut p = Spammers::setup(&config).unwrap();
        p.lists.shuffled(list_deck().len());
        p.actions.shuffled(action_deck().len());
        p.lists.taken = 30;
        p.actions.taken = 40;
        let privates = (0..seats)
            .map(|s| Some(Spammers::private(&config, s, [s; 32])))
            .collect();
        let mut t = Table {
            p,
            privates,
            handles: 40,
        };
        t.turn(GATES);
        t
    }

    fn turn(&mut self, seat: Seat) -> &mut Self {
        self.p.phase = Phase::Turn(Turn {
            seat,
            actions: 3,
            mailings: 0,
            mailings_allowed: 1,
        });
        self
    }

    fn give(&mut self, seat: Seat, name: &str, nth: usize) -> (Handle, CardId) {
        self.give_face(seat, card(name, nth))
    }

    /// Puts the Action card `face` in `seat`'s hand.
    fn give_face(&mut self, seat: Seat, face: CardId) -> (Handle, CardId) {
        let h = Handle {
            deck: 1,
            generation: 0,
            position: self.handles,
        };
        self.handles += 1;
        self.p.areas[usize::from(seat)].hand.push(h);
        if let Some(p) = self.privates[usize::from(seat)].as_mut() {
            p.faces.insert(h, face);
        }
        (h, face)
    }

    fn scam(&mut self, seat: Seat, name: &str, rating: u8) -> u8 {
        let area = &mut self.p.areas[usize::from(seat)];
        area.scams.push(Scam {
            card: card(name, 0),
            rating,
        });
        (area.scams.len() - 1) as u8
    }

    fn masses(&mut self, cards: &[CardId], gruntles: u8) -> ListRef {
        let mut stack = Stack {
            cards: cards.to_vec(),
            specialties: Vec::new(),
            gruntles,
        };
        stack.specialties.dedup();
        self.p.masses.push(stack);
        ListRef::Masses((self.p.masses.len() - 1) as u8)
    }

    fn own(&mut self, seat: Seat, cards: &[CardId], gruntles: u8) -> ListRef {
        let area = &mut self.p.areas[usize::from(seat)];
        area.lists.push(Stack {
            cards: cards.to_vec(),
            specialties: Vec::new(),
            gruntles,
        });
        ListRef::Proprietary {
            seat,
            index: (area.lists.len() - 1) as u8,
        }
    }

    fn step(&mut self, step: Step<Input>) -> Result<Vec<Event>, RuleError> {
        Spammers::apply(&mut self.p, &mut self.privates, &step)
    }

    fn play(&mut self, seat: Seat, input: Input) -> Vec<Event> {
        self.step(Step::Inputs(vec![(seat, Play::Open(input.clone()))]))
            .unwrap_or_else(|e| panic!("{input:?} was refused: {e}"))
    }

    fn refused(&mut self, seat: Seat, input: Input) -> bool {
        self.step(Step::Inputs(vec![(seat, Play::Open(input))]))
            .is_err()
    }

    /// The Mailing's die comes up `roll`.
    fn roll(&mut self, roll: u8) -> Vec<Event> {
        for k in 0..10_000u64 {
            let mut trial = self.p.clone();
            let mut privates = self.privates.clone();
            if Spammers::apply(&mut trial, &mut privates, &Step::Chance(seed(k))).is_ok()
                && trial.last_roll == Some(roll)
            {
                return self.step(Step::Chance(seed(k))).unwrap();
            }
        }
        panic!("no draw rolls {roll}");
    }

    /// Every seat in the open window answers: `answers` for some, a pass for the others.
    fn answer(&mut self, answers: &[(Seat, Input)]) -> Vec<Event> {
        let Phase::Window { seats, .. } = &self.p.phase else {
            return Vec::new();
        };
        let mut seats = seats.clone();
        seats.sort_unstable();
        let plays = seats
            .iter()
            .map(|s| {
                let input = answers
                    .iter()
                    .find(|(a, _)| a == s)
                    .map_or(Input::Pass, |(_, i)| i.clone());
                (*s, Play::Open(input))
            })
            .collect();
        self.step(Step::Inputs(plays))
            .expect("the answers are legal")
    }

    /// Answers every window with passes until the Mailing settles.
    fn settle(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while matches!(self.p.phase, Phase::Window { .. }) {
            events.extend(self.answer(&[]));
        }
        events
    }

    fn rating(&self, seat: Seat, scam: u8) -> u8 {
        self.p.areas[usize::from(seat)].scams[usize::from(scam)].rating
    }

    fn area(&self, seat: Seat) -> &Area {
        &self.p.areas[usize::from(seat)]
    }
}

// ---- Setting up --------------------------------------------------------------------------

#[test]
fn three_lists_and_six_actions_each_one_list_chosen_in_secret_for_the_masses_and_as_many_more() {
    // "Each player is dealt three List Cards and six Action Cards. Next, each player must
    // choose one of his or her three Lists and place it face up in the middle of the table.
    // ... deal a number of cards off of the top of the List Deck equal to the number of
    // players into the Unwashed Masses Area. Each player places the rest of his or her
    // initial Lists in his Proprietary Lists Area."
    let secrets: Vec<[u8; 32]> = (0..3).map(|s| [s; 32]).collect();
    let mut chose_together = false;
    let g = hoard_rules::play::play_out_with::<Spammers>(
        &Config {
            seats: 3,
            window: hoard_rules::ReactionWindow::QUICK,
        },
        &secrets,
        &seed(9),
        11,
        &mut Spammers::bot_input,
        &mut |p, step, _| {
            if matches!(p.phase, Phase::Masses) {
                // The three choices came in one sealed step.
                chose_together = matches!(step, Step::Inputs(plays) if plays.len() == 3);
            }
        },
    )
    .unwrap();
    let p = &g.public;
    assert!(chose_together);
    assert!(matches!(p.phase, Phase::Turn(_)), "{:?}", p.phase);
    assert_eq!(p.masses.len(), 6, "three chosen and three dealt");
    for area in &p.areas {
        assert_eq!(area.lists.len(), 2);
        assert_eq!(area.hand.len(), 6);
        assert!(
            area.hand.iter().all(|h| h.deck == 1),
            "List Cards are never held"
        );
    }
}

#[test]
fn the_choice_of_list_is_sealed_until_everyone_has_chosen() {
    let mut p = Spammers::setup(&Config {
        seats: 2,
        window: hoard_rules::ReactionWindow::QUICK,
    })
    .unwrap();
    p.phase = Phase::Choose;
    assert_eq!(
        Spammers::pending(&p),
        Pending::Together {
            seats: vec![0, 1],
            seal: hoard_rules::Seal::UntilAll
        }
    );
}

// ---- The Example of Play -----------------------------------------------------------------

#[test]
fn gates_mails_a_size_five_masses_list_with_reboot_reboot_rolls_four_and_offshore_gains_one() {
    // "Gates draws one Action card, plays Offshore Money Laundering Ltd. (which has an
    // Initial Rating of zero) to his Scam Area, and announces that he will be playing Reboot!
    // Reboot! for its Mailing Effect. ... Gates' Target Number is five ... He rolls a four, so
    // he increases Offshore's Rating by one to one. ... He then places a Gruntle on the List
    // that was the target of the Mailing. That done, he discards Reboot! Reboot! and his turn
    // is over."
    let mut t = Table::new(3);
    let five = list_of(5, &[]);
    let target = t.masses(&[five], 0);
    let offshore = t.give(GATES, "Offshore Money Laundering Ltd.", 0);
    let reboot = t.give(GATES, "Reboot! Reboot!", 0);
    t.play(GATES, Input::DrawAction);
    t.step(Step::Dealt).unwrap();
    t.play(
        GATES,
        Input::PlayScam {
            card: offshore.0,
            face: offshore.1,
        },
    );
    assert_eq!(t.rating(GATES, 0), 0);
    t.play(
        GATES,
        Input::Mail {
            card: reboot.0,
            face: reboot.1,
            scam: 0,
            target,
        },
    );
    let rolled = t.roll(4);
    assert!(rolled.contains(&Event::Rolled {
        seat: GATES,
        roll: 4,
        target_number: 5
    }));
    t.settle();
    assert_eq!(t.rating(GATES, 0), 1);
    assert_eq!(t.p.masses[0].gruntles, 1);
    assert!(t.p.action_discard.contains(&reboot.1));
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == JOBS));
}

#[test]
fn a_roll_beating_the_target_by_four_gains_two() {
    // "(If he had rolled a one, the Rating would have increased by two because he would have
    // beat the Target Number by four.)"
    let mut t = Table::new(3);
    let target = t.masses(&[list_of(5, &[])], 0);
    t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    let reboot = t.give(GATES, "Reboot! Reboot!", 0);
    t.play(
        GATES,
        Input::Mail {
            card: reboot.0,
            face: reboot.1,
            scam: 0,
            target,
        },
    );
    t.roll(1);
    t.settle();
    assert_eq!(t.rating(GATES, 0), 2);
    // "if the Target Number is six and the player rolls a 3, 4, 5, or 6, the Scam's Rating is
    // increased by one. If the player rolls a 1 or 2, the Scam's Rating is increased by two."
    for (roll, gained) in [(1, 2), (2, 2), (3, 1), (6, 1)] {
        let mut t = Table::new(3);
        let target = t.masses(&[list_of(6, &[])], 0);
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
        let reboot = t.give(GATES, "Reboot! Reboot!", 0);
        t.play(
            GATES,
            Input::Mail {
                card: reboot.0,
                face: reboot.1,
                scam: 0,
                target,
            },
        );
        t.roll(roll);
        t.settle();
        assert_eq!(t.rating(GATES, 0), gained, "rolled {roll} against six");
    }
}

#[test]
fn jobs_plays_psychic_acquaintances_network_at_one_and_draws_two() {
    // "He plays Psychic Acquaintances Network to his Scam Area and draws two Action Cards. He
    // places a Rating counter with a value of one on his new Scam ... His three Actions
    // expended, his turn is over."
    let mut t = Table::new(3);
    t.turn(JOBS);
    let psychic = t.give(JOBS, "Psychic Acquaintances Network", 0);
    t.play(
        JOBS,
        Input::PlayScam {
            card: psychic.0,
            face: psychic.1,
        },
    );
    assert_eq!(t.rating(JOBS, 0), 1);
    t.play(JOBS, Input::DrawAction);
    t.step(Step::Dealt).unwrap();
    t.play(JOBS, Input::DrawAction);
    t.step(Step::Dealt).unwrap();
    assert_eq!(t.area(JOBS).hand.len(), 2);
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == SATAN));
}

#[test]
fn satan_plays_router_tap_built_by_prisoners_and_insider_trading_for_two() {
    // "Satan plays Router Tap to his Hardware Area, plays Built By Prisoners, Inc. to his
    // Scams Area (it has an Initial Rating of zero ...), and plays Insider Trading for its
    // Special Effect. ... he adds two to the Rating of Built By Prisoners."
    let mut t = Table::new(3);
    t.turn(SATAN);
    let tap = t.give(SATAN, "Router Tap", 0);
    let prisoners = t.give(SATAN, "Built By Prisoners, Inc.", 0);
    let insider = t.give(SATAN, "Insider Trading", 0);
    t.play(
        SATAN,
        Input::PlayHardware {
            card: tap.0,
            face: tap.1,
        },
    );
    t.play(
        SATAN,
        Input::PlayScam {
            card: prisoners.0,
            face: prisoners.1,
        },
    );
    assert_eq!(t.rating(SATAN, 0), 0);
    t.play(
        SATAN,
        Input::Special {
            card: insider.0,
            face: insider.1,
            aim: Aim::Scam {
                scam: ScamRef {
                    seat: SATAN,
                    index: 0,
                },
                up: true,
            },
        },
    );
    assert_eq!(t.rating(SATAN, 0), 2);
    assert_eq!(t.area(SATAN).hardware, vec![tap.1]);
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == GATES));
}

#[test]
fn jobs_target_of_eleven_is_cut_to_nine_by_satans_marketing_wizard_after_the_roll() {
    // "Jobs finds himself using Last Generation Technology for its Mailing Effect (Mailing
    // Modifier of +4) to make a Mailing from Offshore Money Laundering Ltd. to a List which
    // consists of three merged Lists (printed values: two, three, and four) and has two
    // Gruntles on it. His target number is eleven ... He rolls a six ... Satan, however,
    // immediately plays Marketing Wizard for its Special Effect, decreasing Jobs' Target
    // Number from eleven to nine. ... his Scam only gains one point of Rating."
    let mut t = Table::new(3);
    t.turn(JOBS);
    let two = list_of(2, &[]);
    let three = list_of(3, &[]);
    let four = list_of(4, &[]);
    let target = t.masses(&[two, three, four], 2);
    t.scam(JOBS, "Offshore Money Laundering Ltd.", 3);
    let lgt = t.give(JOBS, "Last Generation Technology", 0);
    let wizard = t.give(SATAN, "Marketing Wizard", 0);
    t.play(
        JOBS,
        Input::Mail {
            card: lgt.0,
            face: lgt.1,
            scam: 0,
            target,
        },
    );
    let rolled = t.roll(6);
    assert!(rolled.contains(&Event::Rolled {
        seat: JOBS,
        roll: 6,
        target_number: 11
    }));
    // "Marketing Wizard specifically states that it may be played right after a Mailing roll
    // is made": the window is open to Satan now.
    let Phase::Window { seats, .. } = &t.p.phase else {
        panic!("a window opens after the roll")
    };
    assert!(seats.contains(&SATAN));
    let mut events = t.answer(&[(
        SATAN,
        Input::Special {
            card: wizard.0,
            face: wizard.1,
            aim: Aim::Roll { up: false },
        },
    )]);
    events.extend(t.settle());
    assert!(events.iter().any(|e| matches!(
        e,
        Event::MailingResult {
            gained: 1,
            target_number: 9,
            roll: 6,
            ..
        }
    )));
    assert_eq!(t.rating(JOBS, 0), 4);
}

#[test]
fn insider_trading_swings_the_end_and_jobs_wins_at_the_beginning_of_his_turn() {
    // "Mr. Gates has three Scams, each with a Rating of six. ... he makes a successful
    // two-point mailing, increasing one of his Scams to a Rating of eight. His total is now
    // twenty, and he will win the game at the beginning of his next turn, provided his Scams
    // still total twenty at that time. ... [Jobs] plays both of them ... The first reduces
    // Gates' Scam from eight to six. The second increases his own eleven-point Scam to
    // thirteen. Now Jobs will win at the beginning of his next turn"
    let mut t = Table::new(3);
    for _ in 0..3 {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 6);
    }
    t.p.areas[0].scams[0].rating = 8;
    t.scam(JOBS, "Psychic Acquaintances Network", 11);
    t.scam(JOBS, "Built By Prisoners, Inc.", 3);
    t.turn(JOBS);
    let first = t.give(JOBS, "Insider Trading", 0);
    let second = t.give(JOBS, "Insider Trading", 1);
    t.play(
        JOBS,
        Input::Special {
            card: first.0,
            face: first.1,
            aim: Aim::Scam {
                scam: ScamRef {
                    seat: GATES,
                    index: 0,
                },
                up: false,
            },
        },
    );
    t.play(
        JOBS,
        Input::Special {
            card: second.0,
            face: second.1,
            aim: Aim::Scam {
                scam: ScamRef {
                    seat: JOBS,
                    index: 0,
                },
                up: true,
            },
        },
    );
    assert_eq!(t.rating(GATES, 0), 6);
    assert_eq!(t.rating(JOBS, 0), 13);
    t.play(JOBS, Input::EndTurn);
    // Satan's turn, then Gates', who no longer wins: his turn takes place as normal.
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == SATAN));
    t.play(SATAN, Input::EndTurn);
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == GATES));
    let events = t.play(GATES, Input::EndTurn);
    assert!(events.contains(&Event::Won {
        seat: JOBS,
        total: 16,
        best: 13
    }));
    assert!(matches!(Spammers::pending(&t.p), Pending::Over(o) if o.winners == vec![JOBS]));
}

// ---- Lists -------------------------------------------------------------------------------

#[test]
fn merged_lists_add_their_sizes_less_their_gruntles() {
    // "if a List of Size 6 and one Gruntle was merged with a List of Size 3 and two Gruntles,
    // the resulting List would have an effective Size of 6 (6 + 3 - 1 - 2)."
    let mut t = Table::new(3);
    let a = t.own(GATES, &[list_of(6, &[])], 1);
    let b = t.own(GATES, &[list_of(3, &[])], 2);
    t.play(GATES, Input::Merge { a, b });
    let lists = &t.area(GATES).lists;
    assert_eq!(lists.len(), 1);
    assert_eq!(lists[0].size(), 6);
    assert_eq!(lists[0].gruntles, 3);
    // Only two of one's own, or two of the Masses: not one of each.
    let m = t.masses(&[list_of(4, &[])], 0);
    let own = ListRef::Proprietary {
        seat: GATES,
        index: 0,
    };
    assert!(t.refused(GATES, Input::Merge { a: own, b: m }));
}

#[test]
fn no_list_is_specialized_twice_in_one_category_even_merged() {
    // "No card may be Specialized more than once in the same category."
    let mut t = Table::new(3);
    let a = t.own(GATES, &[list_of(4, &[])], 0);
    let b = t.own(GATES, &[list_of(3, &[])], 0);
    t.p.areas[0].lists[0].specialties = vec![Specialty::Adult];
    t.p.areas[0].lists[1].specialties = vec![Specialty::Adult, Specialty::Grq];
    t.play(GATES, Input::Merge { a, b });
    assert_eq!(
        t.area(GATES).lists[0].specialties,
        vec![Specialty::Adult, Specialty::Grq]
    );
}

/// Seat 0 mails `target` with Reboot! Reboot! and rolls a 6, passing every answer.
fn mail_once(t: &mut Table, target: ListRef) {
    if t.area(GATES).scams.is_empty() {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    }
    let copies = t.area(GATES).hand.len();
    let reboot = t.give(GATES, "Reboot! Reboot!", copies % 2);
    t.turn(GATES);
    t.play(
        GATES,
        Input::Mail {
            card: reboot.0,
            face: reboot.1,
            scam: 0,
            target,
        },
    );
    t.roll(6);
    t.settle();
}

#[test]
fn a_proprietary_list_at_half_its_printed_size_in_gruntles_moves_to_the_masses_clean() {
    // "If a Proprietary List ever has a number of Gruntles on it greater than or equal to
    // half its printed Size, that List loses all its Gruntles and moves to the Unwashed
    // Masses Area. ... a List of Size 4 had two Gruntles ... A List of Size 5 with three
    // Gruntles on it would also lose its Gruntles and move, but a List of Size 5 with two
    // Gruntles on it would not move."
    for (size, before, moves) in [(4, 1, true), (5, 2, true), (5, 1, false)] {
        let mut t = Table::new(3);
        let target = t.own(GATES, &[list_of(size, &[])], before);
        mail_once(&mut t, target);
        let masses = t.p.masses.len();
        if moves {
            assert_eq!(masses, 1, "size {size} with {} Gruntles moves", before + 1);
            assert_eq!(t.p.masses[0].gruntles, 0);
            assert!(t.area(GATES).lists.is_empty());
        } else {
            assert_eq!(masses, 0);
            assert_eq!(t.area(GATES).lists[0].gruntles, before + 1);
        }
    }
    // "a Proprietary List with a printed Size of 3 merged with another List with a printed
    // Size of 5 having four Gruntles counters on it would be moved ... the Lists would remain
    // merged."
    let mut t = Table::new(3);
    let three = list_of(3, &[]);
    let five = list_of(5, &[]);
    let target = t.own(GATES, &[three, five], 3);
    mail_once(&mut t, target);
    assert_eq!(t.p.masses.len(), 1);
    assert_eq!(t.p.masses[0].cards, vec![three, five]);
}

#[test]
fn a_masses_list_with_gruntles_equal_to_its_printed_size_is_discarded() {
    // "If an Unwashed Masses List ever has Gruntles equal to its printed Size, all of the
    // Gruntles are removed and it is placed in the discard pile. ... a Size 4 List merged
    // with a Size 3 List having seven Gruntles on it would be discarded."
    let mut t = Table::new(3);
    let four = list_of(4, &[]);
    let three = list_of(3, &[]);
    let target = t.masses(&[four, three], 6);
    mail_once(&mut t, target);
    assert!(t.p.masses.is_empty());
    assert_eq!(t.p.list_discard, vec![four, three]);
}

#[test]
fn a_list_drawn_is_kept_for_a_point_of_a_scams_rating_or_goes_to_the_masses() {
    // "If the player is willing to reduce the Rating of one of his or her Scams by one, he or
    // she may place the List in his or her own Proprietary Lists Area. If he or she is not
    // willing to pay the price, the List is placed in the Unwashed Masses Area. List Cards are
    // never held in a player's hand."
    let mut t = Table::new(3);
    t.scam(GATES, "Psychic Acquaintances Network", 1);
    t.scam(GATES, "Offshore Money Laundering Ltd.", 2);
    t.play(GATES, Input::DrawList);
    let drawn = list_of(4, &[]);
    t.step(Step::Revealed(vec![drawn])).unwrap();
    // Psychic is at its Initial Rating of 1: it cannot pay.
    assert!(t.refused(GATES, Input::KeepList { scam: 0 }));
    t.play(GATES, Input::KeepList { scam: 1 });
    assert_eq!(t.rating(GATES, 1), 1);
    assert_eq!(t.area(GATES).lists.len(), 1);
    assert!(t.area(GATES).hand.is_empty());
    t.play(GATES, Input::DrawList);
    t.step(Step::Revealed(vec![list_of(5, &[])])).unwrap();
    t.play(GATES, Input::ListToMasses);
    assert_eq!(t.p.masses.len(), 1);
}

// ---- Scams, Mailings and the hand ------------------------------------------------------

#[test]
fn ratings_never_fall_below_the_initial_rating() {
    // "Scams do not have a maximum Rating, but can never be reduced to lower than their
    // Initial Rating."
    let mut t = Table::new(3);
    t.scam(JOBS, "Psychic Acquaintances Network", 2);
    let insider = t.give(GATES, "Insider Trading", 0);
    t.play(
        GATES,
        Input::Special {
            card: insider.0,
            face: insider.1,
            aim: Aim::Scam {
                scam: ScamRef {
                    seat: JOBS,
                    index: 0,
                },
                up: false,
            },
        },
    );
    assert_eq!(t.rating(JOBS, 0), 1);
}

#[test]
fn five_scams_at_most_and_with_five_a_scam_may_be_discarded_to_draw() {
    // "No player may normally have more than five Scams in play ... A player with five Scams
    // in play may, if he wishes, use an Action to discard a Scam and draw a card (the player
    // must choose the discard before drawing)."
    let mut t = Table::new(3);
    for _ in 0..5 {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    }
    let another = t.give(GATES, "Built By Prisoners, Inc.", 0);
    assert!(t.refused(
        GATES,
        Input::PlayScam {
            card: another.0,
            face: another.1
        }
    ));
    t.play(
        GATES,
        Input::DiscardScam {
            scam: 4,
            list: false,
        },
    );
    assert_eq!(t.area(GATES).scams.len(), 4);
    assert!(matches!(
        Spammers::pending(&t.p),
        Pending::Deal { to: GATES, .. }
    ));
}

#[test]
fn no_draw_past_nine_cards_in_hand() {
    // "No player may have more than nine cards in his or her hand at any time. If drawing a
    // card would put more than nine cards in a player's hand, he or she may not draw a card."
    let mut t = Table::new(3);
    for k in 0..9 {
        t.give(GATES, "Reboot! Reboot!", k % 2);
    }
    assert!(t.refused(GATES, Input::DrawAction));
}

#[test]
fn one_mailing_effect_a_turn_but_more_mailings_for_their_special_effects() {
    // "No player may play more than one Mailing Card for its Mailing Effect per turn unless
    // some other card allows him or her to do so."
    let mut t = Table::new(3);
    let target = t.masses(&[list_of(5, &[])], 0);
    t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    let a = t.give(GATES, "Reboot! Reboot!", 0);
    let b = t.give(GATES, "Reboot! Reboot!", 1);
    let insider = t.give(GATES, "Insider Trading", 0);
    t.play(
        GATES,
        Input::Mail {
            card: a.0,
            face: a.1,
            scam: 0,
            target,
        },
    );
    t.roll(3);
    t.settle();
    t.turn(GATES);
    if let Phase::Turn(turn) = &mut t.p.phase {
        turn.mailings = 1;
    }
    assert!(t.refused(
        GATES,
        Input::Mail {
            card: b.0,
            face: b.1,
            scam: 0,
            target
        }
    ));
    t.play(
        GATES,
        Input::Special {
            card: insider.0,
            face: insider.1,
            aim: Aim::Scam {
                scam: ScamRef {
                    seat: GATES,
                    index: 0,
                },
                up: true,
            },
        },
    );
}

#[test]
fn a_mailing_targets_your_own_lists_or_the_masses_and_others_only_with_router_tap() {
    // "The target List must normally be one of the player's Proprietary Lists or one of the
    // Lists from the Unwashed Masses Area."
    let mut t = Table::new(3);
    let theirs = t.own(JOBS, &[list_of(5, &[])], 0);
    t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    let reboot = t.give(GATES, "Reboot! Reboot!", 0);
    let mail = Input::Mail {
        card: reboot.0,
        face: reboot.1,
        scam: 0,
        target: theirs,
    };
    assert!(t.refused(GATES, mail.clone()));
    t.p.areas[0].hardware.push(card("Router Tap", 0));
    t.play(GATES, mail);
}

#[test]
fn a_matching_specialty_adds_two_to_the_target() {
    // "If the List that was targeted has a Specialty that matches the type of Scam that is
    // doing the Mailing, the player adds two to the Target Number of the roll."
    let t = {
        let mut t = Table::new(3);
        let scam = action_deck()
            .into_iter()
            .find(|id| {
                matches!(
                    action(*id).kind,
                    ActionKind::Scam {
                        category: Some(Specialty::Adult),
                        ..
                    }
                )
            })
            .expect("an Adult Scam");
        t.p.areas[0].scams.push(Scam {
            card: scam,
            rating: 0,
        });
        t
    };
    let mut t = t;
    let target = t.masses(&[list_of(4, &[])], 0);
    let reboot = card("Reboot! Reboot!", 0);
    let plain = t.p.target_number(GATES, 0, reboot, target);
    t.p.masses[0].specialties.push(Specialty::Adult);
    assert_eq!(t.p.target_number(GATES, 0, reboot, target), plain + 2);
}

// ---- A List over the limit, however it got there -----------------------------------------

/// The List at `at` has moved to the Unwashed Masses, clean, with the cards `cards`.
fn fled(t: &Table, cards: &[CardId]) -> bool {
    t.p.masses
        .iter()
        .any(|s| s.cards == cards && s.gruntles == 0)
}

#[test]
fn a_list_harvested_from_the_masses_at_half_its_size_in_gruntles_moves_straight_back_clean() {
    // "If a Proprietary List ever has a number of Gruntles on it greater than or equal to
    // half its printed Size, that List loses all its Gruntles and moves to the Unwashed
    // Masses Area." Ever: also when it becomes Proprietary with the Gruntles already on it.
    let mut t = Table::new(3);
    let four = list_of(4, &[]);
    let five = list_of(5, &[]);
    let worn = t.masses(&[four], 2);
    t.masses(&[five], 2);
    let harvest = t.give(GATES, "Guestbook Harvesting", 0);
    let events = t.play(
        GATES,
        Input::Special {
            card: harvest.0,
            face: harvest.1,
            aim: Aim::List(worn),
        },
    );
    assert!(t.area(GATES).lists.is_empty(), "{:?}", t.area(GATES).lists);
    assert!(fled(&t, &[four]));
    assert!(events.contains(&Event::ListFled {
        seat: GATES,
        cards: vec![four],
    }));
    // Two Gruntles on a List of Size 5 are under the limit: that one stays harvested.
    let harvest = t.give(GATES, "Guestbook Harvesting", 1);
    let at = ListRef::Masses(t.p.masses.iter().position(|s| s.cards == [five]).unwrap() as u8);
    t.play(
        GATES,
        Input::Special {
            card: harvest.0,
            face: harvest.1,
            aim: Aim::List(at),
        },
    );
    assert_eq!(t.area(GATES).lists.len(), 1);
    assert_eq!(t.area(GATES).lists[0].gruntles, 2);
}

#[test]
fn when_a_firewall_crashes_every_list_it_held_at_half_its_size_moves_in_table_order() {
    // "If a Proprietary List ever has a number of Gruntles on it greater than or equal to
    // half its printed Size, that List loses all its Gruntles and moves to the Unwashed
    // Masses Area." The Bargain-Bin Firewall counts Gruntles half while in play; once it is
    // crashed, its owner's Lists meet the rule as printed, at once and in a fixed order.
    let mut t = Table::new(3);
    let four = list_of(4, &[]);
    let five = list_of(5, &[]);
    let two = list_of(2, &[]);
    let other_four = list_of(4, &[four]);
    t.own(GATES, &[four], 3);
    t.own(GATES, &[five], 2);
    t.own(GATES, &[two], 1);
    t.p.areas[usize::from(GATES)]
        .hardware
        .push(card("Bargain-Bin Firewall", 0));
    // Jobs keeps his own Firewall, and his List behind it.
    t.own(JOBS, &[other_four], 3);
    t.p.areas[usize::from(JOBS)]
        .hardware
        .push(card("Bargain-Bin Firewall", 1));
    t.turn(SATAN);
    let reboot = t.give(SATAN, "Reboot! Reboot!", 0);
    let events = t.play(
        SATAN,
        Input::Special {
            card: reboot.0,
            face: reboot.1,
            aim: Aim::Hardware {
                seat: GATES,
                index: 0,
            },
        },
    );
    assert!(t.area(GATES).hardware.is_empty());
    let kept: Vec<&[CardId]> = t.area(GATES).lists.iter().map(|s| &s.cards[..]).collect();
    assert_eq!(kept, vec![&[five][..]]);
    let masses: Vec<(Vec<CardId>, u8)> =
        t.p.masses
            .iter()
            .map(|s| (s.cards.clone(), s.gruntles))
            .collect();
    assert_eq!(masses, vec![(vec![four], 0), (vec![two], 0)]);
    let fled: Vec<&Event> = events
        .iter()
        .filter(|e| matches!(e, Event::ListFled { .. }))
        .collect();
    assert_eq!(
        fled,
        vec![
            &Event::ListFled {
                seat: GATES,
                cards: vec![four]
            },
            &Event::ListFled {
                seat: GATES,
                cards: vec![two]
            },
        ]
    );
    assert_eq!(t.area(JOBS).lists.len(), 1);
}

#[test]
fn lists_merged_behind_a_firewall_that_reach_half_their_size_move_to_the_masses() {
    // "If a Proprietary List ever has a number of Gruntles on it greater than or equal to
    // half its printed Size, that List loses all its Gruntles and moves ... This applies to
    // merged Lists as well." Behind a Firewall (Gruntles count half, rounded down) a List of
    // 3 with three Gruntles and a List of 1 with one each stay; merged, four Gruntles count
    // two, half of 4.
    let mut t = Table::new(3);
    let three = list_of(3, &[]);
    let one = list_of(1, &[]);
    let a = t.own(GATES, &[three], 3);
    let b = t.own(GATES, &[one], 1);
    t.p.areas[usize::from(GATES)]
        .hardware
        .push(card("Bargain-Bin Firewall", 0));
    t.play(GATES, Input::Merge { a, b });
    assert!(t.area(GATES).lists.is_empty());
    assert!(fled(&t, &[three, one]));
}

// ---- A full hand -------------------------------------------------------------------------

/// Nine different Scams from the Action deck.
fn nine_scams() -> Vec<CardId> {
    action_deck()
        .into_iter()
        .filter(|id| matches!(action(*id).kind, ActionKind::Scam { .. }))
        .skip(5)
        .take(9)
        .collect()
}

#[test]
fn a_hand_of_nine_with_none_playable_discards_a_scam_from_the_hand_to_draw_a_new_card() {
    // "It is extremely rare for a player to be in a position where his hand has nine cards in
    // it and none of them are playable. If that occurs, the player is allowed to discard
    // Scams in order to draw new cards."
    let mut t = Table::new(3);
    for _ in 0..5 {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    }
    // With five Scams in play, nine Scams in hand are nine cards none of which is playable.
    let held: Vec<(Handle, CardId)> = nine_scams()
        .into_iter()
        .map(|face| t.give_face(GATES, face))
        .collect();
    let legal = Spammers::legal_inputs(&t.p, t.privates[0].as_ref(), GATES);
    // A Scam in play given up for an Action card that the full hand cannot take is no draw.
    assert!(
        !legal.contains(&Input::DiscardScam {
            scam: 0,
            list: false
        }),
        "a Scam in play is not given up for a draw the full hand refuses"
    );
    // A Scam of the hand goes, and a new card comes: one Action.
    let (card, face) = held[3];
    let discard = Input::DiscardHeldScam { card, face };
    assert!(legal.contains(&discard), "{legal:?}");
    let events = t.play(GATES, discard);
    assert!(events.contains(&Event::ScamDiscardedFromHand {
        seat: GATES,
        card: face
    }));
    assert!(t.p.action_discard.contains(&face));
    assert_eq!(t.area(GATES).scams.len(), 5, "the Scams in play stay");
    assert!(matches!(
        Spammers::pending(&t.p),
        Pending::Deal { to: GATES, ref cards } if cards.len() == 1
    ));
    t.step(Step::Dealt).unwrap();
    assert_eq!(t.area(GATES).hand.len(), 9);
    assert!(matches!(&t.p.phase, Phase::Turn(turn) if turn.seat == GATES && turn.actions == 2));
}

#[test]
fn a_full_hand_with_a_playable_card_discards_nothing() {
    // "his hand has nine cards in it and none of them are playable": with one card he can
    // play, the exception does not arise, and a full hand alone never allows a discard.
    let mut t = Table::new(3);
    for _ in 0..4 {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    }
    for k in 0..3 {
        t.give(GATES, "Insider Trading", k);
        t.give(GATES, "Fabricated Testimonials", k);
        t.give(GATES, "Marketing Wizard", k);
    }
    let legal = Spammers::legal_inputs(&t.p, t.privates[0].as_ref(), GATES);
    assert!(
        !legal
            .iter()
            .any(|i| matches!(i, Input::DiscardScam { .. } | Input::DiscardHeldScam { .. })),
        "{legal:?}"
    );
    // Five Scams in play and eight unplayable Scams in hand, but one Insider Trading: the
    // discard from the hand is refused, and named as such.
    let mut t = Table::new(3);
    for _ in 0..5 {
        t.scam(GATES, "Offshore Money Laundering Ltd.", 0);
    }
    let held: Vec<(Handle, CardId)> = nine_scams()
        .into_iter()
        .take(8)
        .map(|face| t.give_face(GATES, face))
        .collect();
    t.give(GATES, "Insider Trading", 0);
    let (card, face) = held[0];
    let legal = Spammers::legal_inputs(&t.p, t.privates[0].as_ref(), GATES);
    assert!(!legal.contains(&Input::DiscardHeldScam { card, face }));
    let refused = t.step(Step::turn(GATES, Input::DiscardHeldScam { card, face }));
    assert!(
        matches!(&refused, Err(RuleError::Illegal { seat: GATES, why }) if why.contains("playable")),
        "{refused:?}"
    );
}
