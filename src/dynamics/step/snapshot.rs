//! The stepper's state between steps, for checkpoints: a plain serializable
//! [`StepperSnapshot`] (positions, velocities and accelerations live in
//! [`State`](super::State)) and the pair `Stepper::snapshot` /
//! `Stepper::restore`.
//!
//! The contract (what a restart needs to continue bit for bit): after
//! `restore(&snapshot())` on a freshly set-up stepper of the same model, every
//! following `step` gives results identical to the bit to those of the
//! stepper the snapshot was taken from. That means the whole contact state
//! carried from step to step ([`crate::contact::Memory`]: in-contact flags
//! and each point's last force, the warm start of its multipliers; faces,
//! drift guards and multipliers of an iterate start afresh every step) and
//! the contact couplings of the stiffness pattern, whose sparsity decides the
//! LU's ordering and so the round-off of every solve.
//!
//! Format: versioned by [`SNAPSHOT_VERSION`]; a snapshot of another version is
//! refused by `restore`, never misread.

use super::Stepper;
use crate::linalg::LinearSolveError;
use serde::{Deserialize, Serialize};

/// Version of the [`StepperSnapshot`] layout; bump it when a field changes.
pub const SNAPSHOT_VERSION: u32 = 2;

/// What a stepper carries from one step to the next (besides the `State`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StepperSnapshot {
    pub version: u32,
    /// Dof count of the system (a consistency check).
    pub n_dofs: usize,
    /// Node lists coupled in the stiffness pattern besides the elements
    /// (contact element couplings of the last pattern rebuild).
    pub couplings: Vec<Vec<usize>>,
    /// Per contact pair, in input order.
    pub pairs: Vec<PairSnapshot>,
}

/// One contact pair's state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PairSnapshot {
    /// Slave nodes (mesh indices), a consistency check.
    pub slaves: Vec<usize>,
    /// Per slave node, in the order of `slaves`.
    pub points: Vec<PointSnapshot>,
}

/// One contact point's state at the end of a step (see [`crate::contact::Memory`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PointSnapshot {
    /// In contact at `t_n` (Table 1's "in contact at n").
    pub in_contact: bool,
    /// The point's force vector `r` at the end of the step (point frame,
    /// `contact::law`).
    pub r: [f64; 3],
}

/// Why a snapshot does not fit this stepper.
#[derive(Debug, thiserror::Error)]
pub enum RestoreError {
    #[error("checkpoint format version {found}, this program reads version {expected}")]
    Version { found: u32, expected: u32 },
    #[error("the checkpoint is of a model with {found} {what}, this model has {expected}")]
    Mismatch {
        what: String,
        found: usize,
        expected: usize,
    },
    #[error("contact pair {pair}: the checkpoint's slave nodes differ from this model's")]
    Slaves { pair: usize },
    #[error("{0}")]
    Linear(#[from] LinearSolveError),
}

impl<const D: usize> Stepper<D> {
    /// The state this stepper carries into the next step.
    pub fn snapshot(&self) -> StepperSnapshot {
        StepperSnapshot {
            version: SNAPSHOT_VERSION,
            n_dofs: self.sys.n_dofs(),
            couplings: self.sys.couplings().to_vec(),
            pairs: self
                .contacts
                .pairs
                .iter()
                .map(|c| PairSnapshot {
                    slaves: c.surface.slaves.clone(),
                    points: c
                        .memory
                        .iter()
                        .map(|m| PointSnapshot {
                            in_contact: m.in_contact,
                            r: m.r,
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    /// Puts this (freshly set-up) stepper into the state of `snap`; see the
    /// module doc for the contract. Fails, changing nothing, on a snapshot
    /// of another version or of a different model.
    pub fn restore(&mut self, snap: &StepperSnapshot) -> Result<(), RestoreError> {
        if snap.version != SNAPSHOT_VERSION {
            return Err(RestoreError::Version {
                found: snap.version,
                expected: SNAPSHOT_VERSION,
            });
        }
        let mismatch = |what: &str, found: usize, expected: usize| RestoreError::Mismatch {
            what: what.to_string(),
            found,
            expected,
        };
        if snap.n_dofs != self.sys.n_dofs() {
            return Err(mismatch("dofs", snap.n_dofs, self.sys.n_dofs()));
        }
        if snap.pairs.len() != self.contacts.pairs.len() {
            return Err(mismatch(
                "contact pairs",
                snap.pairs.len(),
                self.contacts.pairs.len(),
            ));
        }
        for (i, (p, c)) in snap.pairs.iter().zip(&self.contacts.pairs).enumerate() {
            if p.slaves != c.surface.slaves || p.points.len() != c.memory.len() {
                return Err(RestoreError::Slaves { pair: i });
            }
        }
        let n = self.sys.n_nodes;
        if snap.couplings.iter().flatten().any(|&a| a >= n) {
            return Err(mismatch(
                "nodes",
                snap.couplings.iter().flatten().max().map_or(0, |a| a + 1),
                n,
            ));
        }
        let contact_nodes: Vec<usize> = snap.couplings.iter().flatten().copied().collect();
        if self.sys.set_couplings(snap.couplings.clone()) {
            self.lu.set_pattern(&self.sys.pattern, &contact_nodes, &[])?;
            self.resize_matrices();
        }
        for (p, c) in snap.pairs.iter().zip(self.contacts.pairs.iter_mut()) {
            for (pt, m) in p.points.iter().zip(c.memory.iter_mut()) {
                m.in_contact = pt.in_contact;
                m.r = pt.r;
            }
        }
        Ok(())
    }
}
