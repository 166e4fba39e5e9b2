//! This seat's moves and sealed plays: an open input, or a commitment whose salt and input
//! reach the disk first; and a kept sealed play committed again after a restart.

use super::{Core, Persist, SecretRecord, Time, encode, random_hash};
use crate::error::{NetError, Result};
use crate::seal;
use crate::wire::Body;
use hoard_rules::{Game, Pending, Seal};

impl<G: Game> Core<G> {
    /// This seat's move for the current step.
    pub fn submit(&mut self, now: Time, input: G::Input) -> Result<()> {
        if let Some(f) = &self.halted {
            return Err(NetError::Halted(f.what.clone()));
        }
        let Some(gs) = &self.game else {
            return Err(NetError::NotYourMove("the game has not begun".into()));
        };
        let n = gs.records.len() as u32;
        let seal = match &gs.pending {
            Pending::Turn { seat } if *seat == self.me => None,
            Pending::Together { seats, seal } if seats.contains(&self.me) => Some(*seal),
            Pending::Over(_) => return Err(NetError::Rules(hoard_rules::RuleError::GameOver)),
            _ => {
                return Err(NetError::NotYourMove(
                    "the table is not waiting for you".into(),
                ));
            }
        };
        if gs.removed.contains_key(&self.me) {
            return Err(NetError::NotYourMove(
                "the table removed you from this game".into(),
            ));
        }
        if !self.my_move() {
            return Err(NetError::NotYourMove(
                "you have already played this step".into(),
            ));
        }
        G::check_input(&gs.public, self.me, &input)?;
        if let Some(private) = gs.privates.get(self.me as usize).and_then(|p| p.as_ref())
            && !G::legal_inputs(&gs.public, Some(private), self.me).contains(&input)
        {
            return Err(NetError::Rules(hoard_rules::RuleError::Illegal {
                seat: self.me,
                why: "your hand does not allow that move".into(),
            }));
        }
        let bytes = encode(&input);
        let basis = gs.bases[n as usize];
        let body = match seal {
            None | Some(Seal::Open) => Body::Input(bytes),
            Some(Seal::UntilAll | Seal::UntilAudit) => {
                let salt = random_hash(&mut self.rng);
                let commitment = seal::commitment(&self.session, n, self.me, &salt, &bytes);
                // The salt and input reach the disk before the commitment can leave.
                self.persists
                    .push_back(Persist::Secret(SecretRecord::Sealed {
                        step: n,
                        log: basis.log,
                        salt,
                        input: bytes.clone(),
                    }));
                self.sealed.insert((n, basis.log), (salt, bytes));
                Body::Commit(commitment)
            }
        };
        self.sign_and_send(n, basis, body);
        self.advance(now);
        Ok(())
    }

    /// Signs again the commitment to this seat's kept sealed play for the current step, if
    /// the table waits for it: the store lost the signed commitment (a damaged last record
    /// of the log is taken for a torn write) but kept the salt and input, written first.
    /// That commitment may have reached the table; choosing anew would show it two sealed
    /// plays. Signatures are deterministic, so this is the very message made before.
    /// Returns whether it signed.
    pub(super) fn seal_kept_play(&mut self) -> bool {
        let Some(gs) = &self.game else { return false };
        let sealed = matches!(
            gs.pending,
            Pending::Together {
                seal: Seal::UntilAll | Seal::UntilAudit,
                ..
            }
        );
        let n = gs.records.len() as u32;
        let basis = gs.bases[n as usize];
        let Some((salt, input)) = self.sealed.get(&(n, basis.log)) else {
            return false;
        };
        if !sealed || !self.my_move() {
            return false;
        }
        let commitment = seal::commitment(&self.session, n, self.me, salt, input);
        self.sign_and_send(n, basis, Body::Commit(commitment));
        true
    }
}
