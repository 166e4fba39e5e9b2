//! What a seat may do on its turn — place, build, branch, spore — listed exactly (for the
//! screen and the bots), checked one at a time with a reason a player understands, and
//! carried out on the board.

use super::board::{Board, Cell, Dir, Square, Tower};
use super::event::{Event, Fallen};
use super::state::{Input, Public};
use crate::Seat;

/// One position's facts that every move check needs, worked out once.
pub(crate) struct View<'a> {
    pub p: &'a Public,
    /// By square index: a neutralized tower stands there.
    pub dead: Vec<bool>,
}

impl<'a> View<'a> {
    pub fn new(p: &'a Public) -> Self {
        View {
            dead: p.board.neutralized_map(p.config.superior_forces),
            p,
        }
    }

    fn board(&self) -> &Board {
        &self.p.board
    }

    fn tower_dead(&self, at: Square) -> bool {
        self.dead[self.board().index(at)]
    }

    /// Height of the live tower at `root`, or `None` if it is neutralized (or missing).
    fn live_root_height(&self, root: Square) -> Option<u8> {
        let t = self.board().tower(root)?;
        (!self.tower_dead(root)).then_some(t.height)
    }

    /// By square index: how many branch points of `seat` on live towers target it.
    pub fn target_counts(&self, seat: Seat) -> Vec<u8> {
        let board = self.board();
        let mut counts = vec![0u8; board.cells.len()];
        for (i, cell) in board.cells.iter().enumerate() {
            if let Cell::Branch(b) = cell
                && b.owner == seat
                && !self.tower_dead(b.root)
                && let Some(t) = board.targeted_by(board.square_at(i), b)
            {
                counts[board.index(t)] += 1;
            }
        }
        counts
    }

    /// Would a tower like `tower` at `at` be neutralized right away?
    fn instantly_neutralized(&self, at: Square, tower: &Tower) -> bool {
        self.board()
            .neutralizes(at, tower, self.p.config.superior_forces, None)
    }

    /// The ways a branch laid at `at` off `from` may point.
    fn branch_dirs(&self, from: Square, at: Square) -> impl Iterator<Item = Dir> + '_ {
        let away = Dir::between(from, at);
        let loose = self.p.config.loose_branching;
        Dir::ALL.into_iter().filter(move |&d| {
            let ok = match away {
                // "Branches point directly away from their source."
                Some(away) if !loose => d == away,
                // Loose Branching: "any direction, except toward the piece they are
                // branching from".
                Some(away) => d != away.back(),
                None => false,
            };
            // "Branch points must point at an adjacent square": one on the board.
            ok && self.board().step(at, d, 1).is_some()
        })
    }

    /// The steps from `from` a branch may be laid at, with the sizes allowed there, or
    /// `None` if `seat` cannot branch off `from` at all.
    fn branch_source(&self, seat: Seat, from: Square) -> Option<(Steps, SizeRule)> {
        match self.board().cell(from) {
            Cell::Tower(t) if t.controller() == seat && !self.tower_dead(from) => {
                // A branch off a tower is one piece long, and every tower has at least
                // one piece, so the length limit never stops it.
                Some((Steps::All, SizeRule::Any))
            }
            Cell::Branch(b) if b.owner == seat && b.size >= 2 => {
                let height = self.live_root_height(b.root)?;
                if b.depth + 1 > height {
                    return None;
                }
                // Off its point or either side, never behind its base.
                Some((Steps::NotBehind(b.dir), SizeRule::Exactly(b.size - 1)))
            }
            _ => None,
        }
    }

    /// Whether `seat` may lay this branch now: the fast yes/no twin of
    /// [`View::check_turn_move`] for the bot and the Counting Coup offer.
    pub fn can_branch(&self, seat: Seat, from: Square, at: Square, dir: Dir, size: u8) -> bool {
        let Some((steps, sizes)) = self.branch_source(seat, from) else {
            return false;
        };
        let Some(step) = Dir::between(from, at) else {
            return false;
        };
        steps.allows(step)
            && sizes.allows(size)
            && self.p.stash(seat).has(size)
            && self.board().is_vacant(at)
            && self.branch_dirs(from, at).any(|d| d == dir)
    }

    /// Whether `seat` could neutralize `tower` at `at` by laying one branch now.
    pub fn can_neutralize(&self, seat: Seat, at: Square, tower: &Tower) -> bool {
        let board = self.board();
        let sf = self.p.config.superior_forces;
        Dir::ALL.into_iter().any(|toward| {
            // A new branch lies next to the tower and points back at it.
            let Some(lay_at) = board.step(at, toward, 1) else {
                return false;
            };
            if !board.is_vacant(lay_at) {
                return false;
            }
            let dir = toward.back();
            Dir::ALL.into_iter().any(|side| {
                let Some(from) = board.step(lay_at, side, 1) else {
                    return false;
                };
                (1..=3u8).any(|size| {
                    board.neutralizes(at, tower, sf, Some(size))
                        && self.can_branch(seat, from, lay_at, dir, size)
                })
            })
        })
    }

    /// Every move `seat` may make on its turn now, in a fixed order, leaving out moves
    /// taken back this turn.
    pub fn turn_moves(&self, seat: Seat) -> Vec<Input> {
        let mut out = Vec::new();
        self.each_turn_move(seat, &mut |m| {
            out.push(m);
            false
        });
        out
    }

    /// Whether `seat` has any valid move on its turn now.
    pub fn has_turn_move(&self, seat: Seat) -> bool {
        let mut any = false;
        self.each_turn_move(seat, &mut |_| {
            any = true;
            true
        });
        any
    }

    /// How many moves `seat` would have on its turn now.
    pub fn count_turn_moves(&self, seat: Seat) -> usize {
        let mut n = 0;
        self.each_turn_move(seat, &mut |_| {
            n += 1;
            false
        });
        n
    }

    /// Calls `f` on each move until it returns true.
    fn each_turn_move(&self, seat: Seat, f: &mut dyn FnMut(Input) -> bool) {
        let p = self.p;
        let stash = p.stash(seat);
        let taken = &p.taken_back;
        let mut emit = |m: Input| !taken.contains(&m) && f(m);
        let board = self.board();
        if !p.started.get(usize::from(seat)).copied().unwrap_or(true) {
            for at in board.squares() {
                for size in (1..=3).filter(|&s| stash.has(s)) {
                    if board.is_vacant(at)
                        && !self.instantly_neutralized(at, &Tower::new(seat, size))
                        && emit(Input::Place { at, size })
                    {
                        return;
                    }
                }
            }
            return;
        }
        let targets = self.target_counts(seat);
        // Builds.
        for at in board.squares() {
            if self.build_allowed(seat, at, &targets).is_ok() && emit(Input::Build { at }) {
                return;
            }
        }
        // Branches.
        for from in board.squares() {
            let Some((steps, sizes)) = self.branch_source(seat, from) else {
                continue;
            };
            for step in Dir::ALL.into_iter().filter(|&d| steps.allows(d)) {
                let Some(at) = board.step(from, step, 1) else {
                    continue;
                };
                if !board.is_vacant(at) {
                    continue;
                }
                for dir in self.branch_dirs(from, at) {
                    for size in (1..=3).filter(|&s| stash.has(s) && sizes.allows(s)) {
                        if emit(Input::Branch {
                            from,
                            at,
                            dir,
                            size,
                        }) {
                            return;
                        }
                    }
                }
            }
        }
        // Spores.
        for (i, &count) in targets.iter().enumerate() {
            let at = board.square_at(i);
            if count == 0 || !board.is_vacant(at) {
                continue;
            }
            for size in (1..=3).filter(|&s| stash.has(s)) {
                if self.instantly_neutralized(at, &Tower::new(seat, size)) {
                    continue;
                }
                for builds in 0..=self.max_builds(seat, size, count) {
                    if emit(Input::Spore { at, size, builds }) {
                        return;
                    }
                }
            }
        }
    }

    /// Overload: how many builds may follow a spore of `size` where `count` of the
    /// sporer's branch points target the square.
    fn max_builds(&self, seat: Seat, size: u8, count: u8) -> u8 {
        if !self.p.config.overload {
            return 0;
        }
        let stash = self.p.stash(seat);
        let mut n = 0;
        while n + 1 < count && n + 1 < size && stash.has(size - n - 1) {
            n += 1;
        }
        n
    }

    /// Whether `seat` may build on `at`; `targets` are its [`View::target_counts`].
    fn build_allowed(&self, seat: Seat, at: Square, targets: &[u8]) -> Result<(), NoBuild> {
        let t = self.board().tower(at).ok_or(NoBuild::NoTower)?;
        if self.tower_dead(at) {
            return Err(NoBuild::Neutralized);
        }
        if t.top() == 1 {
            return Err(NoBuild::CappedWithOne);
        }
        if !self.p.stash(seat).has(t.top() - 1) {
            return Err(NoBuild::NoneLeft(t.top() - 1));
        }
        if t.controller() != seat {
            if !self.p.config.sprawlgami {
                return Err(NoBuild::NotYours);
            }
            if targets[self.board().index(at)] == 0 {
                return Err(NoBuild::NotTargeted);
            }
        }
        Ok(())
    }

    /// Why `input` is not a valid turn move for `seat` now, if it is not.
    pub fn check_turn_move(&self, seat: Seat, input: &Input) -> Result<(), String> {
        let p = self.p;
        let board = self.board();
        let stash = p.stash(seat);
        let started = p.started.get(usize::from(seat)).copied().unwrap_or(true);
        let on_board = |sq: Square| {
            if board.contains(sq) {
                Ok(())
            } else {
                Err(format!("{sq} is not on the board"))
            }
        };
        let have = |size: u8| {
            if !(1..=3).contains(&size) {
                Err(format!("there are no {size}-pip pieces"))
            } else if !stash.has(size) {
                Err(format!("no {size}-pip piece is left in the stash"))
            } else {
                Ok(())
            }
        };
        match *input {
            Input::Place { .. } if started => {
                return Err(
                    "the starting tower is already placed; new towers must be spored".into(),
                );
            }
            Input::Build { .. } | Input::Branch { .. } | Input::Spore { .. } if !started => {
                return Err("the first turn places a starting tower".into());
            }
            _ => {}
        }
        if p.taken_back.contains(input) {
            return Err("that move was taken back this turn; make a different move".into());
        }
        match *input {
            Input::Place { at, size } => {
                on_board(at)?;
                have(size)?;
                if !board.is_vacant(at) {
                    return Err(format!("{at} is not empty"));
                }
                if self.instantly_neutralized(at, &Tower::new(seat, size)) {
                    return Err(format!("a {size} at {at} would be neutralized at once"));
                }
                Ok(())
            }
            Input::Build { at } => {
                on_board(at)?;
                self.build_allowed(seat, at, &self.target_counts(seat))
                    .map_err(|why| why.say(at))
            }
            Input::Branch {
                from,
                at,
                dir,
                size,
            } => {
                on_board(from)?;
                on_board(at)?;
                have(size)?;
                let Some(step) = Dir::between(from, at) else {
                    return Err(format!(
                        "{at} is not next to {from} (diagonals do not count)"
                    ));
                };
                if !board.is_vacant(at) {
                    return Err(format!("{at} is not empty"));
                }
                self.check_branch_source(seat, from, at, step, size)?;
                if !self.branch_dirs(from, at).any(|d| d == dir) {
                    return Err(if board.step(at, dir, 1).is_none() {
                        format!(
                            "a branch at {at} pointing {} points off the board",
                            dir.word()
                        )
                    } else if p.config.loose_branching {
                        format!("a branch off {from} may not point back at it")
                    } else {
                        format!(
                            "a branch laid {} of {from} must point directly away from it ({})",
                            step.word(),
                            step.word()
                        )
                    });
                }
                Ok(())
            }
            Input::Spore { at, size, builds } => {
                on_board(at)?;
                have(size)?;
                if !board.is_vacant(at) {
                    return Err(format!("{at} is not empty"));
                }
                let count = self.target_counts(seat)[board.index(at)];
                if count == 0 {
                    let from_dead = board.squares().any(|sq| {
                        board.branch(sq).is_some_and(|b| {
                            b.owner == seat && board.targeted_by(sq, &b) == Some(at)
                        })
                    });
                    return Err(if from_dead {
                        format!(
                            "the only branch points of yours targeting {at} are on neutralized towers"
                        )
                    } else {
                        format!("no branch point of yours targets {at}")
                    });
                }
                if self.instantly_neutralized(at, &Tower::new(seat, size)) {
                    return Err(format!(
                        "a {size} spored at {at} would be neutralized at once"
                    ));
                }
                if builds > 0 && !p.config.overload {
                    return Err("building as part of a spore needs the Overload variant".into());
                }
                if builds > self.max_builds(seat, size, count) {
                    return Err(format!(
                        "{count} of your live branch points target {at}, so with your stash a {size} spored there can take at most {} build(s)",
                        self.max_builds(seat, size, count)
                    ));
                }
                Ok(())
            }
            Input::Ask | Input::Pass | Input::TakeBack | Input::Keep => {
                Err("no spore is waiting for an answer".into())
            }
            Input::SitOut | Input::Leave => Err(
                "a player cannot sit out by choice: only the table's vote goes on without a seat"
                    .into(),
            ),
        }
    }

    fn check_branch_source(
        &self,
        seat: Seat,
        from: Square,
        at: Square,
        step: Dir,
        size: u8,
    ) -> Result<(), String> {
        match self.board().cell(from) {
            Cell::Empty => Err(format!("there is nothing at {from} to branch off")),
            Cell::Tower(t) => {
                if t.controller() != seat {
                    Err(format!("the tower at {from} is not yours"))
                } else if self.tower_dead(from) {
                    Err(format!(
                        "the tower at {from} is neutralized and cannot be branched off"
                    ))
                } else {
                    Ok(())
                }
            }
            Cell::Branch(b) => {
                if b.owner != seat {
                    return Err(format!("the branch at {from} is not yours"));
                }
                if self.live_root_height(b.root).is_none() {
                    return Err(format!(
                        "the branch at {from} grows from the neutralized tower at {}",
                        b.root
                    ));
                }
                if b.size == 1 {
                    return Err("nothing can branch off a 1".into());
                }
                if size + 1 != b.size {
                    return Err(format!(
                        "a piece off a {} branch must be a {}",
                        b.size,
                        b.size - 1
                    ));
                }
                if step == b.dir.back() {
                    return Err(format!(
                        "{at} is behind the branch at {from}; branch off its point or its sides"
                    ));
                }
                let height = self.live_root_height(b.root).unwrap_or(0);
                if b.depth + 1 > height {
                    return Err(format!(
                        "the tower at {} has {height} piece(s), so its branches can be at most {height} long",
                        b.root
                    ));
                }
                Ok(())
            }
        }
    }
}

/// Why a build is refused, put into words only when someone asks.
#[derive(Clone, Copy)]
enum NoBuild {
    NoTower,
    Neutralized,
    CappedWithOne,
    NoneLeft(u8),
    NotYours,
    NotTargeted,
}

impl NoBuild {
    fn say(self, at: Square) -> String {
        match self {
            NoBuild::NoTower => format!("there is no tower at {at} to build on"),
            NoBuild::Neutralized => {
                format!("the tower at {at} is neutralized and cannot be built on")
            }
            NoBuild::CappedWithOne => {
                format!("the tower at {at} is capped with a 1; no piece is smaller")
            }
            NoBuild::NoneLeft(size) => {
                format!("a build on {at} needs a {size} and none is left in the stash")
            }
            NoBuild::NotYours => format!("the tower at {at} is not yours"),
            NoBuild::NotTargeted => format!(
                "the tower at {at} is not yours and no branch point of yours on a live tower targets it"
            ),
        }
    }
}

/// Which neighbours of a source a branch may be laid in.
#[derive(Clone, Copy)]
enum Steps {
    /// Any of a tower's four neighbours.
    All,
    /// The point or the sides of a branch pointing this way, not behind it.
    NotBehind(Dir),
}

impl Steps {
    fn allows(self, step: Dir) -> bool {
        match self {
            Steps::All => true,
            Steps::NotBehind(dir) => step != dir.back(),
        }
    }
}

/// Which sizes a branch off a given source may be.
#[derive(Clone, Copy)]
enum SizeRule {
    /// "Any size piece can branch off of a tower."
    Any,
    /// "Pieces coming off of branch points must be one size smaller."
    Exactly(u8),
}

impl SizeRule {
    fn allows(self, size: u8) -> bool {
        match self {
            SizeRule::Any => true,
            SizeRule::Exactly(s) => s == size,
        }
    }
}

/// Carries out a turn move already checked, returning what happened.
pub(crate) fn perform(p: &mut Public, seat: Seat, input: &Input) -> Vec<Event> {
    let s = usize::from(seat);
    match *input {
        Input::Place { at, size } => {
            p.board.raise(at, seat, size);
            p.stashes[s].take(size);
            p.started[s] = true;
            vec![Event::Placed { seat, at, size }]
        }
        Input::Build { at } => {
            let Some(t) = p.board.tower(at) else {
                return Vec::new();
            };
            let size = t.top() - 1;
            let before = t.controller();
            p.board.raise(at, seat, size);
            p.stashes[s].take(size);
            vec![Event::Built {
                seat,
                at,
                size,
                taken_from: (before != seat).then_some(before),
            }]
        }
        Input::Branch {
            from,
            at,
            dir,
            size,
        } => {
            let sf = p.config.superior_forces;
            let hit = p.board.step(at, dir, 1);
            let was_live =
                hit.is_some_and(|h| p.board.tower(h).is_some() && !p.board.is_neutralized(h, sf));
            p.board.lay(seat, from, at, dir, size);
            p.stashes[s].take(size);
            let mut fallen = None;
            if let Some(h) = hit
                && was_live
                && p.board.is_neutralized(h, sf)
                && let Some(t) = p.board.tower(h)
            {
                let controller = t.controller();
                if controller != seat {
                    // "Ties go to whoever neutralized towers with the most pips, then the
                    // most towers": the seat whose branch completed the attack.
                    p.credit[s].pips += u16::from(t.pips());
                    p.credit[s].towers += 1;
                }
                fallen = Some(Fallen {
                    at: h,
                    controller,
                    pips: t.pips(),
                });
            }
            vec![Event::Branched {
                seat,
                from,
                at,
                dir,
                size,
                neutralized: fallen,
            }]
        }
        Input::Spore { at, size, builds } => {
            p.board.raise(at, seat, size);
            p.stashes[s].take(size);
            for k in 1..=builds {
                p.board.raise(at, seat, size - k);
                p.stashes[s].take(size - k);
            }
            vec![Event::Spored {
                seat,
                at,
                size,
                builds,
            }]
        }
        Input::Ask | Input::Pass | Input::TakeBack | Input::Keep | Input::SitOut | Input::Leave => {
            Vec::new()
        }
    }
}
