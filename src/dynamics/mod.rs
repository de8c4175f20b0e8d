//! Time integration: mass, internal force and tangent assembly, energy-momentum
//! and Newmark integrators, Newton with line search and step cut-back.
//!
//! A run reads like the algorithm (STYLE item 5): set up the system, set the
//! initial state, then for every step: predict, solve Newton (later: detect
//! contacts, augment, update velocities), record energies and momenta, write output.

pub mod info;
pub mod measures;
pub mod run;
pub mod newton;
pub mod step;
pub mod system;

pub use info::{model_info, ModelInfo};
pub use measures::{measure, Measures};
pub use run::{
    advance, run, setup, Progress, RunError, RunOptions, RunSummary, BODY_COLUMNS, HISTORY_COLUMNS,
};
pub use step::{State, StepError, StepReport, Stepper};
pub use system::System;
