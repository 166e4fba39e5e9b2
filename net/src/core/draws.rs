//! The beacon's draws: this seat's links, a peer's link checked against its chain on
//! arrival, and the links and draw count a step's draw is made of.

use super::{Core, Origin};
use crate::beacon;
use crate::error::{NetError, Result};
use crate::log::StepRecord;
use crate::wire::{Hash, Link, Wire};
use hoard_rules::{Game, Seat};

impl<G: Game> Core<G> {
    pub(super) fn send_link(&mut self, step: u32, link: Hash) {
        let msg = Link {
            seat: self.me,
            step,
            link,
        };
        let _ = self.ingest(self.quiet_since, Wire::Link(msg), None, Origin::Own);
    }

    /// Whether a beacon link is on its seat's chain: hashed down, it must meet the seat's
    /// last link the table used (its chain's head before the first draw) or the last of its
    /// links checked on arrival, in no more hashes than there can have been draws between
    /// (at most one a step). Only the chain's owner can make such a preimage.
    pub(super) fn check_link(&mut self, l: &Link) -> Result<()> {
        let i = l.seat as usize;
        let bad = || NetError::BadLink {
            seat: l.seat,
            name: self.start.name(l.seat),
            step: l.step,
        };
        let Some(accept) = &self.peers[i].accept else {
            return Err(bad());
        };
        let (draws, (k0, x0)) = match &self.game {
            Some(g) => (g.draws, g.links[i]),
            None => (0, (0, accept.chain_head)),
        };
        let ahead = l.step.saturating_sub(self.step());
        let most = draws
            .saturating_add(1)
            .saturating_add(ahead)
            .min(accept.chain_len);
        let tip = self.peers[i].link_tip.filter(|(at, _, _)| *at < l.step);
        let mut y = l.link;
        for hop in 1..=most.saturating_sub(k0) {
            y = beacon::link_hash(&y);
            let k = if y == x0 {
                k0 + hop
            } else if let Some((_, tk, tx)) = tip
                && y == tx
            {
                tk + hop
            } else {
                continue;
            };
            if k > most {
                break;
            }
            if tip.is_none_or(|(_, tk, _)| k > tk) {
                self.peers[i].link_tip = Some((l.step, k, l.link));
            }
            return Ok(());
        }
        Err(bad())
    }

    /// The number of draws made before step `n` (on our log).
    pub(super) fn step_draws(&self, n: u32) -> u32 {
        self.game.as_ref().map_or(0, |g| {
            // At the current step: the running count (counting the log each time made every
            // draw cost a pass over the whole game).
            if n as usize == g.records.len() {
                return g.draws;
            }
            g.records
                .iter()
                .take(n as usize)
                .filter(|r| matches!(r, StepRecord::Chance { .. }))
                .count() as u32
        })
    }

    /// The verified link seat `s` gave for the draw at step `n`.
    pub(super) fn chain_link_seen(&self, n: u32, s: Seat) -> Option<Hash> {
        let gs = self.game.as_ref()?;
        let k = self.step_draws(n) + 1;
        let (known_k, known) = gs.links[s as usize];
        let len = self.peers[s as usize].accept.as_ref()?.chain_len;
        self.by_step
            .get(&n)?
            .iter()
            .filter(|(_, author)| *author == s)
            .find_map(|(id, _)| match self.msgs.get(id).map(|h| &h.wire) {
                Some(Wire::Link(l)) if beacon::verify_link(known_k, &known, k, &l.link, len) => {
                    Some(l.link)
                }
                _ => None,
            })
    }
}
