//! Making a core: a new seat at a session ([`Core::new`]: its keys and its signed accept),
//! or one rebuilt from its store after a restart ([`Core::resume`]).

use super::{
    Arrival, Core, CoreConfig, IdMap, Origin, Peer, Persist, Saved, SecretRecord, Time, random_hash,
};
use crate::beacon::{self, Chain};
use crate::error::{NetError, Result};
use crate::identity::SeatKey;
use crate::identity::{SecretKey, Start};
use crate::seal;
use crate::wire::{Accept, Basis, Body, Hash, Wire};
use hoard_rules::{Game, Seat};
use rand_chacha::ChaCha20Rng;
use rand_core::SeedableRng;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

impl<G: Game> Core<G> {
    /// Takes `key`'s seat in the session `start` proposes: makes this seat's game secret and
    /// beacon chain from `entropy` (32 fresh random bytes from the OS) and signs its accept.
    pub fn new(
        start: Start,
        key: SecretKey,
        entropy: Hash,
        now: Time,
        cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let mut rng =
            ChaCha20Rng::from_seed(blake3::derive_key("hoard v1 device entropy", &entropy));
        let keys = SecretRecord::Keys {
            secret: random_hash(&mut rng),
            chain_seed: random_hash(&mut rng),
            chain_len: cfg.chain_len.clamp(1, beacon::MAX_CHAIN_LEN),
        };
        let mut core = Core::blank(start, key, rng, keys.clone(), now, cfg)?;
        core.persists.push_back(Persist::Secret(keys));
        core.sign_accept();
        core.advance(now);
        Ok(core)
    }

    /// Rebuilds a core from its store after a restart. `entropy` seeds salts for new sealed
    /// plays; everything already committed comes from `saved` (a sealed play whose signed
    /// commitment was lost is committed again, the same, from its kept salt and input).
    pub fn resume(
        saved: Saved,
        key: SecretKey,
        entropy: Hash,
        now: Time,
        cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let start = saved
            .start
            .ok_or_else(|| NetError::Corrupt("the game's start is missing".into()))?;
        let mut rng =
            ChaCha20Rng::from_seed(blake3::derive_key("hoard v1 device entropy", &entropy));
        let keys = saved
            .secrets
            .iter()
            .find(|r| matches!(r, SecretRecord::Keys { .. }))
            .cloned();
        let fresh_keys = keys.is_none();
        let keys = keys.unwrap_or_else(|| SecretRecord::Keys {
            secret: random_hash(&mut rng),
            chain_seed: random_hash(&mut rng),
            chain_len: cfg.chain_len.clamp(1, beacon::MAX_CHAIN_LEN),
        });
        let mut core = Core::blank(start, key, rng, keys.clone(), now, cfg)?;
        if fresh_keys {
            core.persists.push_back(Persist::Secret(keys));
        }
        for record in saved.secrets {
            match record {
                SecretRecord::Sealed {
                    step,
                    log,
                    salt,
                    input,
                } => {
                    core.sealed.insert((step, log), (salt, input));
                }
                SecretRecord::Standing { target, choice } => {
                    // A seat the game does not have is damage on disk: it is ignored.
                    if let Some(s) = core.peers.get_mut(target as usize).map(|p| &mut p.standing)
                        && target != core.me
                    {
                        *s = choice;
                    }
                }
                SecretRecord::Keys { .. } => {}
            }
        }
        // Room for the whole log at once: no regrowth while it is read back.
        core.msgs.reserve(saved.messages.len());
        let mut saved_messages = Vec::with_capacity(saved.messages.len());
        for bytes in saved.messages {
            let wire = Wire::decode(&bytes).map_err(|e| {
                NetError::Corrupt(format!("a saved message could not be read: {e}"))
            })?;
            let id = Wire::id_of(&bytes);
            saved_messages.push(Arrival { wire, bytes, id });
        }
        // A saved message that no longer checks out is dropped, as it would be from a peer.
        core.ingest_checked(now, saved_messages, &mut None, Origin::Store);
        core.signed_to = (core.furthest_signed(), now);
        // A choice made about a seat whose player has moved since (as this device heard
        // before it stopped) had ended.
        for target in 0..core.keys.len() as Seat {
            if let Some((since, _)) = core.peers[target as usize].standing
                && core.moved_after(target, since)
            {
                core.peers[target as usize].standing = None;
            }
        }
        if core.peers[core.me as usize].accept.is_none() {
            core.sign_accept();
        }
        core.advance(now);
        // The app was started again: its player is there. If the table went on without the
        // seat (as this device knows now, or learns while it catches up), the seat says so.
        core.back_due = true;
        core.hello_all(true, false);
        Ok(core)
    }

    fn blank(
        start: Start,
        key: SecretKey,
        rng: ChaCha20Rng,
        keys: SecretRecord,
        now: Time,
        mut cfg: CoreConfig<G>,
    ) -> Result<Core<G>> {
        let config = start.check::<G>()?;
        // The reaction window is the table's, from the game's options: the same everywhere.
        cfg.reaction.window = G::reaction_window(&config);
        cfg.reaction.min_ms = cfg.reaction.min_ms.min(cfg.reaction.window_ms());
        let me = start.seat_of(&key.public()).ok_or(NetError::NotSeated)?;
        let SecretRecord::Keys {
            secret,
            chain_seed,
            chain_len,
        } = keys
        else {
            return Err(NetError::Corrupt("the seat's keys are missing".into()));
        };
        let n = start.seat_count();
        let session = start.session();
        Ok(Core {
            keys: start.seats.iter().map(|s| s.key).collect(),
            verifiers: start
                .seats
                .iter()
                .map(|s| SeatKey::new(&s.key))
                .collect::<Option<_>>()
                .ok_or_else(|| NetError::BadStart("a seat's key cannot sign".into()))?,
            cfg,
            session,
            config,
            key,
            me,
            secret,
            chain: Chain::new(chain_seed, chain_len.clamp(1, beacon::MAX_CHAIN_LEN)),
            sealed: BTreeMap::new(),
            rng,
            msgs: IdMap::default(),
            decoded: IdMap::default(),
            checked: IdMap::default(),
            by_step: BTreeMap::new(),
            slots: IdMap::default(),
            game: None,
            view: None,
            back_due: false,
            signed_to: (0, now),
            crooked_deck: None,
            reaction_at: None,
            complaint: None,
            quiet_since: now,
            peers: (0..n).map(|_| Peer::new(now)).collect(),
            early_links: Vec::new(),
            extra: IdMap::default(),
            confirmed: (u32::MAX, [0; 32], 0),
            holding_sent: None,
            heads_sent: BTreeSet::new(),
            diverged: BTreeSet::new(),
            divergences: Vec::new(),
            proofs: Vec::new(),
            halted: None,
            verdict: None,
            revealed: Vec::new(),
            persists: VecDeque::new(),
            transmits: VecDeque::new(),
            events: VecDeque::new(),
            start,
        })
    }

    fn sign_accept(&mut self) {
        let accept = Accept {
            chain_head: self.chain.head(),
            chain_len: self.chain.len(),
            secret: seal::secret_commitment(&self.session, self.me, &self.secret),
            deck: Box::new(crate::mental::table::make_key(
                &self.session.0,
                self.me,
                &self.secret,
            )),
        };
        self.sign_and_send(0, Basis::default(), Body::Accept(accept));
    }
}
