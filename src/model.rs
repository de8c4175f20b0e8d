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
    /// Grow the step back after a cut-back (never above `dt`).
    pub adaptive: bool,
    /// Smallest step a cut-back may reach.
    pub dt_min: f64,
}

/// Newton solver settings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SolverParams {
    /// Relative residual tolerance (residual norm over the step's force scale).
    pub tolerance: f64,
    pub max_iterations: usize,
    /// How many times a failed step may be halved.
    pub max_cutbacks: usize,
    /// How the linear systems are solved (`[solver] linear`).
    pub linear: crate::linalg::LinearMethod,
    /// How a contact Newton iteration's subproblem is solved (`[solver] contact_system`).
    pub contact_system: ContactSystem,
}

/// The system a contact Newton iteration solves (`[solver] contact_system`,
/// see [`crate::contact::enforce`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ContactSystem {
    /// The condensed problem below the policy's crossover, the
    /// saddle-point system above it.
    #[default]
    Auto,
    /// The condensed problem `u = W r + q` and the solver library.
    Condensed,
    /// The sparse saddle-point system of the bodies and the multipliers.
    Saddle,
}

/// Output settings.
#[derive(Debug, Clone, PartialEq)]
pub struct OutputParams {
    pub dir: PathBuf,
    /// Steps between VTK frames.
    pub every: usize,
    /// Folder for the FCLIB files of the contact subproblems (`None`: none
    /// written; see `contact::dump`).
    pub contact_problems: Option<PathBuf>,
    /// Accepted steps between checkpoints (0: only when interrupted).
    pub checkpoint_every: usize,
    /// Also a checkpoint after the first step that ends this many minutes
    /// (wall clock) after the last one (0: none by time): a run whose steps
    /// take minutes loses at most about this much to a kill without a
    /// signal, whatever `checkpoint_every` says.
    pub checkpoint_minutes: usize,
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

/// A prescribed component of a boundary's motion (times the boundary's curve).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Drive {
    /// `u(t) = value · c(t)` from the reference position.
    Displacement(f64),
    /// `v(t) = value · c(t)`, so `u(t) = value · ∫_0^t c`.
    Velocity(f64),
}

/// A rigid rotation of a boundary group about the axis through `point`
/// (right-handed about the unit `axis`; 2D: the z axis), at the angular
/// velocity `ω(t) = angular_velocity · c(t)`: `x(t) = p + R(θ(t))(X − p)`,
/// `θ(t) = angular_velocity · ∫_0^t c`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rotation {
    pub point: [f64; 3],
    pub axis: [f64; 3],
    pub angular_velocity: f64,
}

/// Fixed and prescribed components on the nodes of a group. The prescribed
/// ones hold exactly at the end of every step (positions and velocities);
/// see [`crate::dynamics::prescribed`].
#[derive(Debug, Clone, PartialEq)]
pub struct Boundary {
    pub group: String,
    pub fix: [bool; 3],
    /// Prescribed displacement or velocity per component (`None`: free, or fixed).
    pub drive: [Option<Drive>; 3],
    /// A rigid rotation of the group (every component prescribed).
    pub rotation: Option<Rotation>,
    /// The time function of `drive` and `rotation` (index into [`Model::curves`]).
    pub curve: Option<usize>,
}

impl Boundary {
    /// The components this boundary constrains (fixed or prescribed).
    pub fn constrained(&self) -> [bool; 3] {
        let all = self.rotation.is_some();
        [0, 1, 2].map(|i| all || self.fix[i] || self.drive[i].is_some())
    }

    /// Whether it prescribes any motion (a fixed-only boundary does no work).
    pub fn moves(&self) -> bool {
        self.rotation.is_some() || self.drive.iter().any(|d| d.is_some())
    }
}

/// What a `[[load]]` applies to its group.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum LoadKind {
    /// A follower pressure on a surface group, positive into the body:
    /// `f = −p ∫ N n da` on the current (midpoint) configuration.
    Pressure(f64),
    /// A traction of fixed direction per unit reference area (surface group).
    Traction([f64; 3]),
    /// A total force spread over the group's nodes: by tributary area on a
    /// surface group, by lumped mass on a volume group, evenly otherwise.
    Force([f64; 3]),
}

/// One `[[load]]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    pub group: String,
    pub kind: LoadKind,
    /// Time function (index into [`Model::curves`]); `None`: constant.
    pub curve: Option<usize>,
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
    /// Contact pairs (empty: no contact).
    pub contacts: Vec<ContactSpec>,
    /// Time functions (`[[curve]]`), named by loads, boundaries and rigid masters.
    pub curves: Vec<crate::curve::Curve>,
    /// External loads (`[[load]]`).
    pub loads: Vec<Load>,
    /// The input file this model came from.
    pub source: PathBuf,
    /// What `input` found questionable but valid (keys without effect,
    /// unreachable tolerances); `emcontact check` and `run` print them,
    /// `--strict` refuses them.
    pub warnings: Vec<Warning>,
    /// `[solver] petsc_options`: PETSc options (`-ksp_type cg …`) for the
    /// linear solver of the parallel program (`emcontact-mpi`, `mpi/`); no
    /// effect in the serial one.
    pub petsc_options: Option<String>,
}

/// A warning about an input: the key, the line where known, what is wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct Warning {
    pub key: String,
    pub line: Option<usize>,
    pub message: String,
}

/// The master side of a contact pair.
#[derive(Debug, Clone, PartialEq)]
pub enum MasterSpec {
    /// A boundary surface group of a deformable body (faces oriented outward).
    Surface(String),
    /// A fixed rigid plane through `point` with unit outward `normal` (toward the slaves).
    Plane { point: [f64; 3], normal: [f64; 3] },
    /// A rigid analytic surface, fixed or moving: a moving plane, a sphere
    /// or a cylinder (see [`crate::contact::rigid`]).
    Rigid(RigidSpec),
}

/// The shape of a rigid master at t = 0 (normals point toward the slaves:
/// out of a sphere and a cylinder).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RigidShape {
    /// Through `point`, unit `normal` toward the slave side.
    Plane { point: [f64; 3], normal: [f64; 3] },
    /// 2D: a circle (a cylinder along z).
    Sphere { center: [f64; 3], radius: f64 },
    /// 3D only: the axis through `point` along the unit `axis`.
    Cylinder {
        point: [f64; 3],
        axis: [f64; 3],
        radius: f64,
    },
}

/// How a rigid master moves (a translation, times the master's curve).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RigidMotion {
    Fixed,
    /// `u(t) = velocity · ∫_0^t c`.
    Velocity([f64; 3]),
    /// `u(t) = displacement · c(t)`.
    Displacement([f64; 3]),
}

/// A rigid master surface: shape, motion and the motion's curve.
#[derive(Debug, Clone, PartialEq)]
pub struct RigidSpec {
    pub shape: RigidShape,
    pub motion: RigidMotion,
    /// The curve itself (a copy of the model's), `None`: constant factor 1.
    pub curve: Option<crate::curve::Curve>,
}

impl RigidSpec {
    /// The short name of the shape ("plane", "sphere", "cylinder").
    pub fn kind(&self) -> &'static str {
        match self.shape {
            RigidShape::Plane { .. } => "plane",
            RigidShape::Sphere { .. } => "sphere",
            RigidShape::Cylinder { .. } => "cylinder",
        }
    }
}

/// How the contact constraints are enforced (Love & Laursen 2003, §3.6, and
/// DESIGN §7). The default is [`Enforcement::Exact`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Enforcement {
    /// The Signorini–Coulomb law exactly: at each Newton iteration the
    /// linearized step is condensed onto the contact points
    /// (`W = B K⁻¹ H`) and the frictional-contact problem `u = W r + q` is
    /// solved by the solver library (`crate::nonsmooth`).
    Exact,
    /// The multipliers are unknowns of the Newton iteration, which solves the
    /// Alart–Curnier equations of the same law (Alart & Curnier 1991) by a
    /// semismooth (generalized) Newton step each iteration; the penalties are
    /// its augmentation parameters. Converges to the exact law, no outer loop.
    AugmentedLagrangian,
    /// Penalty regularization (multipliers stay 0): the law of eqs. 79–83
    /// with `λ = 0`, so the constraints hold only up to the penalty.
    Penalty,
}

/// How the contact tangent is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactTangent {
    /// Exact linearization of the point force (dual numbers).
    Exact,
    /// Central differences of the point force (a debug option).
    FiniteDifference,
}

/// One `[[contact]]` pair: slave nodes of a surface against a master surface or plane.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactSpec {
    pub slave: String,
    pub master: MasterSpec,
    /// Coulomb friction coefficient μ ≥ 0.
    pub friction: f64,
    pub enforcement: Enforcement,
    /// Normal penalty ε_N (traction per unit gap); `None`: chosen from stiffness, mass and Δt.
    pub penalty: Option<f64>,
    /// Tangential penalty ε_T; `None`: equal to ε_N.
    pub tangential_penalty: Option<f64>,
    /// Exact and augmented Lagrangian: how far the converged step may be from
    /// the contact law (gap, or gap change over the step for persistent
    /// contact, and slip of sticking points), relative to the face size.
    pub tolerance: f64,
    /// Apply the velocity update of Love & Laursen (2003) after each step.
    pub velocity_update: bool,
    /// Exact enforcement: the solver library's solver for the contact
    /// subproblems (`None`: the default).
    pub solver: Option<String>,
    pub tangent: ContactTangent,
    /// 1: the slave nodes against the master surface; 2 (two-pass): also the
    /// master's nodes against the slave surface, so that neither surface
    /// sinks into the other.
    pub passes: u8,
    /// What a run does with nodes of the pair's surfaces that start inside
    /// the other body (see [`crate::contact::overlap`]).
    pub initial_overlap: InitialOverlap,
}

impl ContactSpec {
    /// Whether the pair is a self-contact: `slave` and `master` name the
    /// same surface, whose nodes are searched against its own faces
    /// ([`crate::contact::own`]). One pass covers both directions.
    pub fn is_self(&self) -> bool {
        matches!(&self.master, MasterSpec::Surface(m) if *m == self.slave)
    }
}

/// `initial_overlap` of a contact pair: nodes of its surfaces that lie inside
/// the other body at t = 0 (deeper than [`crate::contact::overlap::OVERLAP_TOL`]` · h`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum InitialOverlap {
    /// `emcontact check` and `run` refuse the model (exit 2), naming the pair,
    /// the number of nodes, the deepest one and its depth.
    #[default]
    Error,
    /// The overlapping nodes are moved onto the other surface before the
    /// first step, strain-free: the reference configuration changes (the
    /// model starts from the moved mesh, without initial strain).
    Adjust,
}
