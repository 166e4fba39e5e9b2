//! Every line of every game's story, over seeded whole games of all six games: none is
//! blank, none says a phrase twice in a row, and a number agrees with its noun ("1 favor",
//! "2 favors"). The story is what players read on the table and in replays. (An event that
//! tells nothing narrates to no text at all, and every story leaves it out.)

use hoard_rules::play::play_out_with;
use hoard_rules::{Game, Listed, Seat};

/// Every story line of `games` seeded games of `G` at each seat count it allows (by bots).
fn lines<G: Game + Listed>(games: u64) -> Vec<String> {
    let names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"];
    let name = |s: Seat| names[usize::from(s) % names.len()].to_string();
    let mut out = Vec::new();
    for seats in G::seat_range() {
        for seed in 0..games {
            let config = G::config(seats);
            let secrets: Vec<[u8; 32]> = (0..seats).map(|s| [s + 1; 32]).collect();
            let seed_bytes = [seed as u8 ^ seats; 32];
            let _ = play_out_with::<G>(
                &config,
                &secrets,
                &seed_bytes,
                3_000,
                &mut G::bot_input,
                &mut |_, _, events| {
                    for e in events {
                        let line = G::narrate(e, &name);
                        if !line.is_empty() {
                            out.push(line);
                        }
                    }
                },
            );
        }
    }
    out
}

/// What is wrong with a story line, if anything.
fn fault(line: &str) -> Option<String> {
    if line.trim().is_empty() {
        return Some("a blank line".into());
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    // A phrase of two or more words said twice in a row ("at the Waitress's at the Waitress's").
    for len in 2..=4 {
        for i in 0..words.len().saturating_sub(2 * len - 1) {
            if words[i..i + len] == words[i + len..i + 2 * len] {
                return Some(format!("says '{}' twice", words[i..i + len].join(" ")));
            }
        }
    }
    // "1 players", "1 Scams": one of a noun is not plural (a word ending in "ss" is no plural).
    // (Not a card named by its number: "Ann's 1 stands", "Go! 1 wins".)
    for triple in words.windows(3) {
        let card = triple[0].ends_with("'s") || triple[0].ends_with('!');
        let noun = triple[2].trim_end_matches(|c: char| !c.is_alphanumeric());
        if triple[1] == "1"
            && !card
            && noun.ends_with('s')
            && !noun.ends_with("ss")
            && noun.len() > 2
        {
            return Some(format!("'1 {noun}'"));
        }
    }
    None
}

fn check<G: Game + Listed>(games: u64) {
    let lines = lines::<G>(games);
    assert!(lines.len() > 20, "{}: {} lines", G::NAME, lines.len());
    let mut bad: Vec<String> = lines
        .iter()
        .filter_map(|l| fault(l).map(|why| format!("{why}: {l:?}")))
        .collect();
    bad.sort();
    bad.dedup();
    assert!(bad.is_empty(), "{}:\n{}", G::NAME, bad.join("\n"));
}

#[test]
fn greedquest_story_lines_read_well() {
    check::<hoard_rules::greedquest::GreedQuest>(3);
}

#[test]
fn sprawl_story_lines_read_well() {
    check::<hoard_rules::sprawl::Sprawl>(2);
}

#[test]
fn counter_story_lines_read_well() {
    check::<hoard_rules::counter::Counter>(3);
}

#[test]
fn spree_story_lines_read_well() {
    check::<hoard_rules::spree::Spree>(2);
}

#[test]
fn freeloader_story_lines_read_well() {
    check::<hoard_rules::freeloader::Freeloader>(3);
}

#[test]
fn spammers_story_lines_read_well() {
    check::<hoard_rules::spammers::Spammers>(3);
}

#[test]
fn the_checks_catch_what_they_look_for() {
    assert!(fault("").is_some());
    assert!(fault("You landed on Favor at the Waitress's at the Waitress's").is_some());
    assert!(fault("Ann has 1 Scams").is_some());
    assert!(fault("Ann's 1 stands: 1 point.").is_none());
    assert!(fault("Ann has 1 Scam, Ben 2 Scams.").is_none());
    assert!(fault("Ann moves 1 space across the grass").is_none());
}
