//! Time integration: mass, internal force and tangent assembly, energy-momentum
//! and Newmark integrators, one step by Newton with line search (contact,
//! velocity update), and the measures and forces of a state.
//! The run around the steps (step control, output, checkpoints) is
//! [`crate::driver`].

pub mod defect;
pub mod drive;
pub mod forces;
pub mod info;
pub mod loads;
pub mod measures;
pub mod newton;
pub use newton::{active, policy};
pub mod prescribed;
mod retry;
pub mod step;
pub mod system;
pub mod watch;

pub use info::{linear_plan, model_info, ModelInfo};
pub use measures::{measure, Measures};
pub use step::{
    pair_snapshots, restored_contacts, PairSnapshot, PointSnapshot, RestoreError, State, StepError,
    StepReport, Stepper, StepperSnapshot, SNAPSHOT_VERSION,
};
pub use system::System;
