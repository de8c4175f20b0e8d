//! The validated model: what a run needs, built from an input file by `input`.
//! Units are whatever the user chose, consistently (the examples use SI-free
//! nondimensional values as in the paper).

use crate::material::Material;
use crate::mesh::Mesh;
use std::path::PathBuf;

/// Time integrator.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Integrator {
    /// Energy-momentum conserving midpoint scheme (Simo & Tarnow 1992,
    /// Gonzalez 2000; Love & Laursen 2003 eqs. 54–55; DESIGN §4).
    EnergyMomentum,
    /// Newmark with parameters `β`, `γ` (for comparison; `β = ¼, γ = ½` is the
    /// trapezoidal rule, which conserves energy only for linear problems).
    Newmark { beta: f64, gamma: f64 },
}

/// Time stepping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeParams {
    pub dt: f64,
    pub end: f64,
    pub integrator: Integrator,
}

/// Newton solver settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverParams {
    /// Relative residual tolerance (residual norm over the step's force scale).
    pub tolerance: f64,
    pub max_iterations: usize,
    /// How many times a failed step may be halved.
    pub max_cutbacks: usize,
}

/// Output settings.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputParams {
    pub dir: PathBuf,
    /// Steps between VTK frames.
    pub every: usize,
}

/// Mass matrix kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MassKind {
    /// Row-sum lumped (diagonal).
    Lumped,
    /// Consistent `∫ ρ N_A N_B dV`.
    Consistent,
}

/// One deformable body: the elements of a volume group, a material and initial motion.
#[derive(Debug, Clone, PartialEq)]
pub struct Body {
    pub name: String,
    pub group: String,
    pub material: Material,
    pub density: f64,
    /// Initial translational velocity (3 components; z = 0 in 2D).
    pub velocity: [f64; 3],
    /// Initial angular velocity about the body's centre of mass (2D: only z is used).
    pub angular_velocity: [f64; 3],
    pub mass: MassKind,
}

/// Fixed components on the nodes of a group.
#[derive(Debug, Clone, PartialEq)]
pub struct Boundary {
    pub group: String,
    pub fix: [bool; 3],
}

/// A complete, checked model.
#[derive(Debug, Clone, PartialEq)]
pub struct Model {
    pub name: String,
    /// Spatial dimension: 2 (plane strain) or 3.
    pub dim: usize,
    pub time: TimeParams,
    pub solver: SolverParams,
    pub output: OutputParams,
    pub mesh: Mesh,
    pub bodies: Vec<Body>,
    pub boundaries: Vec<Boundary>,
    pub gravity: [f64; 3],
    /// The input file this model came from.
    pub source: PathBuf,
}
