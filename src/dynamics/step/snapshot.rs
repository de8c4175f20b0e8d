//! The stepper's state between steps, for checkpoints: a plain serializable
//! [`StepperSnapshot`] (positions, velocities and accelerations live in
//! [`State`](super::State)) and the pair `Stepper::snapshot` /
//! `Stepper::restore`.
//!
//! The contract (what a restart needs to continue bit for bit): after
//! `restore(&snapshot())` on a freshly set-up stepper of the same model, every
//! following `step` gives results identical to the bit to those of the
//! stepper the snapshot was taken from. That means the whole contact state
//! carried from step to step (in-contact flags, multipliers; the stick/slip
//! state and master face of each point are recorded too, for steppers that
//! carry them) and the contact couplings of the stiffness pattern, whose
//! sparsity decides the LU's ordering and so the round-off of every solve.
//!
//! Format: versioned by [`SNAPSHOT_VERSION`]; a snapshot of another version is
//! refused by `restore`, never misread.

use super::Stepper;
use crate::linalg::{LinearSolveError, SparseLu};
use serde::{Deserialize, Serialize};

/// Version of the [`StepperSnapshot`] layout; bump it when a field changes.
pub const SNAPSHOT_VERSION: u32 = 1;

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

/// One contact point's state at the end of a step.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PointSnapshot {
    /// In contact at `t_n` (Table 1's "in contact at n").
    pub in_contact: bool,
    /// Normal multiplier `λ_N` (augmented Lagrangian; ≥ 0).
    pub lambda_n: f64,
    /// Tangential multiplier as a spatial vector.
    pub lambda_t: [f64; 3],
    /// Active at the end of the step.
    pub active: bool,
    /// Slipping (`true`) or sticking at the end of the step (meaningful when `active`).
    pub slip: bool,
    /// Master face (index into the pair's master surface) of the last
    /// evaluation; `None` for a rigid plane or no face near.
    pub face: Option<usize>,
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
                .iter()
                .map(|c| PairSnapshot {
                    slaves: c.slaves.clone(),
                    points: c
                        .state
                        .iter()
                        .zip(&c.evals)
                        .map(|(st, ev)| PointSnapshot {
                            in_contact: st.in_contact,
                            lambda_n: st.lambda_n,
                            lambda_t: st.lambda_t,
                            active: ev.active,
                            slip: ev.slip,
                            face: ev.face,
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
        if snap.pairs.len() != self.contacts.len() {
            return Err(mismatch(
                "contact pairs",
                snap.pairs.len(),
                self.contacts.len(),
            ));
        }
        for (i, (p, c)) in snap.pairs.iter().zip(&self.contacts).enumerate() {
            if p.slaves != c.slaves || p.points.len() != c.state.len() {
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
        if self.sys.set_couplings(snap.couplings.clone()) {
            self.lu = SparseLu::new(&self.sys.pattern)?;
            let nnz = self.sys.pattern.nnz();
            self.k = vec![0.0; nnz];
            self.k_trial = vec![0.0; nnz];
        }
        for (p, c) in snap.pairs.iter().zip(self.contacts.iter_mut()) {
            for ((pt, st), ev) in p
                .points
                .iter()
                .zip(c.state.iter_mut())
                .zip(c.evals.iter_mut())
            {
                st.in_contact = pt.in_contact;
                st.lambda_n = pt.lambda_n;
                st.lambda_t = pt.lambda_t;
                ev.active = pt.active;
                ev.slip = pt.slip;
                ev.face = pt.face;
            }
        }
        Ok(())
    }
}
