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
use crate::contact::enforce::Method;
use crate::contact::{ContactSet, Memory};
use crate::linalg::LinearSolveError;
use serde::{Deserialize, Serialize};

/// Version of the [`StepperSnapshot`] layout; bump it when a field changes.
pub const SNAPSHOT_VERSION: u32 = 3;

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
    /// The saddle-point system's layout when its path is in use: per
    /// multiplier block its pair, point and coupled nodes (it decides the
    /// augmented pattern, hence the LU's ordering and round-off).
    pub saddle: Option<Vec<(usize, usize, Vec<usize>)>>,
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

/// The contact state of `contacts` for a snapshot, per pair.
pub fn pair_snapshots(contacts: &ContactSet) -> Vec<PairSnapshot> {
    contacts
        .memory()
        .into_iter()
        .map(|(slaves, memory)| PairSnapshot {
            slaves,
            points: memory
                .iter()
                .map(|m| PointSnapshot {
                    in_contact: m.in_contact,
                    r: m.r,
                })
                .collect(),
        })
        .collect()
}

/// `contacts` with the contact state of `snap` (of the same model: its
/// pairs and slave nodes are checked).
pub fn restored_contacts(
    contacts: &ContactSet,
    snap: &StepperSnapshot,
) -> Result<ContactSet, RestoreError> {
    let saved: Vec<(Vec<usize>, Vec<Memory>)> = snap
        .pairs
        .iter()
        .map(|p| {
            let m = p.points.iter().map(|pt| Memory {
                in_contact: pt.in_contact,
                r: pt.r,
            });
            (p.slaves.clone(), m.collect())
        })
        .collect();
    let pairs = contacts.pairs().len();
    if snap.pairs.len() != pairs {
        return Err(RestoreError::Mismatch {
            what: "contact pairs".to_string(),
            found: snap.pairs.len(),
            expected: pairs,
        });
    }
    let mut probe = contacts.clone();
    probe
        .restore_memory(&saved)
        .map_err(|pair| RestoreError::Slaves { pair })?;
    Ok(probe)
}

impl<const D: usize> Stepper<D> {
    /// The state this stepper carries into the next step.
    pub fn snapshot(&self) -> StepperSnapshot {
        StepperSnapshot {
            version: SNAPSHOT_VERSION,
            n_dofs: self.sys.n_dofs(),
            couplings: self.sys.couplings().to_vec(),
            pairs: pair_snapshots(&self.contacts),
            saddle: self.saddle.as_ref().map(|s| s.layout()),
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
        let probe = restored_contacts(&self.contacts, snap)?;
        let n = self.sys.n_nodes;
        if snap.couplings.iter().flatten().any(|&a| a >= n) {
            return Err(mismatch(
                "nodes",
                snap.couplings.iter().flatten().max().map_or(0, |a| a + 1),
                n,
            ));
        }
        let grew = self.sys.set_couplings(snap.couplings.clone());
        if grew {
            self.resize_matrices();
        }
        match &snap.saddle {
            Some(reach) => self.use_saddle(reach.clone())?,
            None if grew || self.method != Method::Condensed => self.use_condensed()?,
            None => {}
        }
        self.contacts = probe;
        Ok(())
    }
}
