//! The one folder shape every game's rules take, checked over the registry: in
//! `rules/src/<game>/`, `mod.rs` holds the engine (the game's decisions: its `Game` and
//! `Listed`), `state.rs` the options, the table, the moves and what happens, `rules.rs` what
//! the rules allow and what a move does, `bot.rs` the bot; a game's data (`cards.rs`,
//! `board.rs`, `data.rs`, ...) and its words (`narrate.rs`) sit beside them. No module of a
//! game imports `mod.rs` (which declares them all) or one that imports it back: the engine
//! stands on the rules, the rules on the state, never the other way round.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The modules every game has.
const SHAPE: [&str; 4] = ["mod", "state", "rules", "bot"];

/// The sibling modules (or `mod`, for an item of `mod.rs`) that `text` names through
/// `super::`.
fn uses_of_super(text: &str, siblings: &BTreeSet<String>) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut rest = text;
    while let Some(at) = rest.find("super::") {
        rest = &rest[at + "super::".len()..];
        let names: Vec<String> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|item| item.trim().split("::").next().unwrap_or("").to_string())
                .collect()
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            vec![rest[..end].to_string()]
        };
        for name in names.into_iter().filter(|n| !n.is_empty()) {
            if name == "self" {
                found.insert("mod".to_string());
            } else if siblings.contains(&name) {
                found.insert(name);
            } else {
                found.insert("mod".to_string());
            }
        }
    }
    found
}

/// What is wrong with `game`'s folder, if anything.
fn faults(dir: &Path, game: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![format!("{game}: no folder {}", dir.display())];
    };
    let files: BTreeMap<String, String> = entries
        .flatten()
        .filter_map(|e| {
            let path = e.path();
            let name = path.file_stem()?.to_str()?.to_string();
            (path.extension()? == "rs")
                .then(|| Some((name, std::fs::read_to_string(&path).ok()?)))?
        })
        .collect();
    let siblings: BTreeSet<String> = files.keys().filter(|n| *n != "mod").cloned().collect();
    let mut out: Vec<String> = SHAPE
        .iter()
        .filter(|m| !files.contains_key(**m))
        .map(|m| format!("{game}: no {m}.rs"))
        .collect();
    let deps: BTreeMap<&String, BTreeSet<String>> = files
        .iter()
        .filter(|(name, _)| *name != "mod")
        .map(|(name, text)| (name, uses_of_super(text, &siblings)))
        .collect();
    for (name, uses) in &deps {
        if uses.contains("mod") {
            out.push(format!("{game}/{name}.rs imports from mod.rs"));
        }
    }
    // A circle among the other modules: depth-first, a module met again on the path.
    fn visit<'a>(
        at: &'a str,
        deps: &'a BTreeMap<&String, BTreeSet<String>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        out: &mut Vec<String>,
    ) {
        if let Some(k) = path.iter().position(|m| *m == at) {
            out.push(format!("a circle: {} -> {at}", path[k..].join(" -> ")));
            return;
        }
        if !done.insert(at) {
            return;
        }
        path.push(at);
        let next = deps.iter().find(|(n, _)| n.as_str() == at).map(|(_, d)| d);
        for dep in next.into_iter().flatten() {
            visit(dep, deps, path, done, out);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for name in deps.keys() {
        let mut circles = Vec::new();
        visit(name, &deps, &mut Vec::new(), &mut done, &mut circles);
        out.extend(circles.into_iter().map(|c| format!("{game}: {c}")));
    }
    out
}

macro_rules! shape_faults {
    ($($module:ident::$game:ident),* $(,)?) => {
        fn every_games_faults() -> Vec<String> {
            let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
            let mut out = Vec::new();
            $(out.extend(faults(&src.join(stringify!($module)), stringify!($module)));)*
            out
        }
    };
}

crate::for_each_game!(shape_faults);

#[test]
fn every_game_has_the_one_folder_shape_and_no_import_circle() {
    let faults = every_games_faults();
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn the_shape_check_finds_an_import_of_mod_and_a_circle() {
    let siblings: BTreeSet<String> = ["state", "rules", "bot"].map(String::from).into();
    let uses = uses_of_super(
        "use super::{Public, rules::legal};\nsuper::state::X",
        &siblings,
    );
    assert_eq!(uses, ["mod", "rules", "state"].map(String::from).into());
}
