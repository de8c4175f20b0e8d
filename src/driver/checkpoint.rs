//! Checkpoints: everything a run needs to continue bit for bit, written
//! atomically to `checkpoint.bin` in the output folder.
//!
//! A checkpoint holds the state (time, positions, velocities, accelerations),
//! the stepper's snapshot (the whole contact state and the stiffness
//! couplings, [`StepperSnapshot`]), the step controller and the recorder's
//! state, which includes the length of each history file when it was written:
//! a restart cuts the histories back to those lengths (rows written after
//! the checkpoint by the interrupted run are computed again) and continues.
//!
//! Format: the 8 bytes `EMCCHK\0\x01`, then the [`Checkpoint`] struct in
//! bincode 1 (little-endian, fixed-width integers, `f64` as its 8 bytes, so
//! every number round-trips exactly). [`CHECKPOINT_VERSION`] is checked
//! before anything is used.

use super::control::StepControl;
use super::record::RecordSnapshot;
use crate::dynamics::{State, StepperSnapshot};
use crate::output::{write_atomic, OutputError};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// File name of the checkpoint in the output folder.
pub const CHECKPOINT_FILE: &str = "checkpoint.bin";
/// Layout version of [`Checkpoint`].
pub const CHECKPOINT_VERSION: u32 = 3;
const MAGIC: &[u8; 8] = b"EMCCHK\0\x01";

/// What identifies the model a checkpoint belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelKey {
    pub name: String,
    pub dim: usize,
    pub nodes: usize,
    pub bodies: Vec<String>,
    pub contacts: usize,
    /// Digest of every key a restart must not change
    /// ([`super::fingerprint`]).
    pub keys: Vec<(String, u64)>,
}

/// A state in plain form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StateData {
    pub t: f64,
    pub x: Vec<f64>,
    pub v: Vec<f64>,
    pub a: Vec<f64>,
}

impl From<&State> for StateData {
    fn from(s: &State) -> StateData {
        StateData {
            t: s.t,
            x: s.x.clone(),
            v: s.v.clone(),
            a: s.a.clone(),
        }
    }
}

impl From<StateData> for State {
    fn from(s: StateData) -> State {
        State {
            t: s.t,
            x: s.x,
            v: s.v,
            a: s.a,
        }
    }
}

/// Everything a restart needs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Checkpoint {
    pub version: u32,
    pub model: ModelKey,
    pub state: StateData,
    pub stepper: StepperSnapshot,
    pub control: StepControl,
    pub record: RecordSnapshot,
}

/// Why a checkpoint could not be read or used.
#[derive(Debug, thiserror::Error)]
pub enum CheckpointError {
    #[error("{file}: no checkpoint to restart from ({source}); a run writes one every `output.checkpoint_every` steps and when interrupted")]
    Missing {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: {message}")]
    Invalid { file: PathBuf, message: String },
    #[error("{0}")]
    Output(#[from] OutputError),
}

impl Checkpoint {
    /// Writes the checkpoint into `dir` atomically.
    pub fn write(&self, dir: &Path) -> Result<(), OutputError> {
        let path = dir.join(CHECKPOINT_FILE);
        let mut bytes = MAGIC.to_vec();
        bincode::serialize_into(&mut bytes, self).map_err(|e| OutputError::Format {
            file: path.clone(),
            message: format!("encoding the checkpoint: {e}"),
        })?;
        write_atomic(&path, &bytes)
    }

    /// Reads the checkpoint of the output folder `dir`.
    pub fn read(dir: &Path) -> Result<Checkpoint, CheckpointError> {
        let file = dir.join(CHECKPOINT_FILE);
        let bytes = std::fs::read(&file).map_err(|source| CheckpointError::Missing {
            file: file.clone(),
            source,
        })?;
        let invalid = |message: String| CheckpointError::Invalid {
            file: file.clone(),
            message,
        };
        if bytes.len() < MAGIC.len() || &bytes[..6] != b"EMCCHK" {
            return Err(invalid("not an emcontact checkpoint".into()));
        }
        if bytes[..8] != MAGIC[..] {
            return Err(invalid(format!(
                "checkpoint file format {} (this program reads {})",
                bytes[7], MAGIC[7]
            )));
        }
        let cp: Checkpoint = bincode::deserialize(&bytes[8..])
            .map_err(|e| invalid(format!("corrupt checkpoint: {e}")))?;
        if cp.version != CHECKPOINT_VERSION {
            return Err(invalid(format!(
                "checkpoint version {} (this program reads {CHECKPOINT_VERSION})",
                cp.version
            )));
        }
        Ok(cp)
    }

    /// Refuses a checkpoint of another model, or of this one changed in
    /// anything but `time.end` and the output keys (naming the first key
    /// that differs).
    pub fn check_model(&self, key: &ModelKey, dir: &Path) -> Result<(), CheckpointError> {
        let invalid = |message: String| CheckpointError::Invalid {
            file: dir.join(CHECKPOINT_FILE),
            message,
        };
        if (&self.model.name, self.model.dim) != (&key.name, key.dim) {
            return Err(invalid(format!(
                "written by another model ({} in {}D, {} nodes, bodies {:?}, {} contact pairs), not this input's ({} in {}D, {} nodes, bodies {:?}, {} contact pairs)",
                self.model.name, self.model.dim, self.model.nodes, self.model.bodies, self.model.contacts,
                key.name, key.dim, key.nodes, key.bodies, key.contacts
            )));
        }
        let changed = super::fingerprint::first_difference(&self.model.keys, &key.keys).or((self
            .model
            .nodes
            != key.nodes)
            .then_some("mesh"));
        match changed {
            Some(k) => Err(invalid(format!(
                "the input changed since the checkpoint was written: `{k}` differs (a restart may change only time.end and the [output] keys); put `{k}` back, or start a new run without --restart"
            ))),
            None => Ok(()),
        }
    }
}
