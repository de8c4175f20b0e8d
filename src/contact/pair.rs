//! One contact pair: the slave nodes of a surface against a master surface (or
//! a fixed rigid plane), evaluated at the algorithmic midpoint as in Love &
//! Laursen 2003, §3 (DESIGN §5–§7):
//!
//! * contact points are the slave nodes, with weight `w j` = tributary area in
//!   the reference configuration;
//! * each slave finds its closest master face at the end-of-step
//!   configuration (so that the gap `g_{n+1}` that selects the case of Table 1
//!   is measured on the face the slave is over), and holds it during a Newton
//!   solve (hysteresis against the normal jump at concave edges, settled
//!   between solves); the operators `N_A`, `D^α_A` of that face at the
//!   midpoint (extended past its edges when the slave is not over it yet, which
//!   keeps `s = g ν` and so the momentum identities exact) give the objective
//!   rates `v_N`, `v^α_T` (eqs. 51–52) and the force (eq. 56);
//! * pressure by eq. 79, tangential traction by the return map eqs. 80–83;
//! * the tangent `−∂f_c/∂x_{n+1}` is the central finite difference of each
//!   point's force with its case, stick/slip state and face frozen (truncation
//!   error O(h²) ≈ 1e-10 relative, below the Newton tolerance); the stepper
//!   may leave out the geometric part (operators frozen too) where it would
//!   make the Newton matrix nearly singular, see [`ContactPair::geometric_tangent`].

use super::geometry::{project, project_unclamped, GeometryError, Kinematics, Location, MAX_NODES};
use super::law::{
    covariant_norm, guarded_law, normal_law, normal_pressure, reset_multiplier, return_map,
    NormalCase,
};
use super::search::SpatialHash;
use crate::fe::ElementKind;
use crate::linalg::BlockPattern;
use crate::mesh::{Element, Mesh};
use crate::model::{ContactSpec, Enforcement, MasterSpec};

/// Why a contact pair could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContactSetupError {
    #[error("contact surface \"{0}\" has no elements")]
    Empty(String),
    #[error("contact surface \"{group}\": {kind} elements cannot be contact faces in {dim}D")]
    WrongFace {
        group: String,
        kind: &'static str,
        dim: usize,
    },
}

/// Per-slave state carried from step to step.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SlaveState {
    /// In contact at `t_n` (Table 1's "in contact at n").
    pub in_contact: bool,
    /// Normal multiplier `λ_N` (augmented Lagrangian).
    pub lambda_n: f64,
    /// Tangential multiplier as a spatial vector (its covariant components are
    /// `λ·τ_α` in whatever basis the face has).
    pub lambda_t: [f64; 3],
}

/// What one slave node did at the current iterate.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PointEval {
    /// Master face (index into the pair's faces), `None` for the rigid plane or
    /// when no face is near.
    pub face: Option<usize>,
    pub active: bool,
    pub case: NormalCase,
    /// Gap at `n+1`.
    pub g1: f64,
    /// Midpoint normal rate and contravariant tangential rates.
    pub v_n: f64,
    pub v_t: [f64; 2],
    /// Pressure and covariant tangential traction.
    pub p: f64,
    pub t: [f64; 2],
    pub slip: bool,
    /// What the return map alone says (`slip` may be held by a lock, see
    /// [`ContactPair::settle_states`]).
    pub trial_slip: bool,
    /// Tangential traction as a spatial vector `t_α τ^α` (midpoint basis) and
    /// the slip speed `‖v_T‖ = √(m_αβ v^α v^β)`, for output.
    pub traction: [f64; 3],
    pub slip_rate: f64,
    /// Tributary area `w j`.
    pub weight: f64,
}

impl PointEval {
    fn open(weight: f64) -> PointEval {
        PointEval {
            face: None,
            active: false,
            case: NormalCase::Open,
            g1: f64::INFINITY,
            v_n: 0.0,
            v_t: [0.0; 2],
            p: 0.0,
            t: [0.0; 2],
            slip: false,
            trial_slip: false,
            traction: [0.0; 3],
            slip_rate: 0.0,
            weight,
        }
    }

    /// Contact power per unit area `p_N v_N + t_α v^α_T` (≤ 0 when contact takes energy out).
    pub fn power(&self) -> f64 {
        self.p * self.v_n + self.t[0] * self.v_t[0] + self.t[1] * self.v_t[1]
    }

    /// Frictional dissipation per unit area `D = −t_α v^α` in slip, 0 in stick.
    pub fn dissipation_rate(&self) -> f64 {
        if self.active && self.slip {
            -(self.t[0] * self.v_t[0] + self.t[1] * self.v_t[1])
        } else {
            0.0
        }
    }
}

/// The master side, resolved.
#[derive(Debug, Clone)]
enum Master {
    Faces(Vec<Element>),
    Plane {
        point: [f64; 3],
        normal: [f64; 3],
        tangents: [[f64; 3]; 2],
    },
}

/// A contact pair with its per-slave state.
#[derive(Debug, Clone)]
pub struct ContactPair {
    pub spec: ContactSpec,
    pub dim: usize,
    /// Slave nodes (mesh indices) and their tributary areas.
    pub slaves: Vec<usize>,
    pub weights: Vec<f64>,
    master: Master,
    /// Penalties actually used.
    pub eps_n: f64,
    pub eps_t: f64,
    /// `(λ + 2μ)/h` and `2ρh` of the default penalties (see [`default_penalties`]).
    bulk: f64,
    inertia: f64,
    /// Constraint tolerance as a length (`spec.tolerance · h`).
    pub tol_abs: f64,
    /// Drift bound `δ` of persistent contact (a length, see
    /// [`crate::contact::law::guarded_law`]): `DRIFT_BOUND · h`, and at least
    /// ten constraint tolerances.
    pub drift_bound: f64,
    /// Characteristic master (or slave) face size `h`.
    pub h: f64,
    pub state: Vec<SlaveState>,
    pub evals: Vec<PointEval>,
    /// Whether the tangent includes the geometric stiffness (the change of the
    /// midpoint operators `N_A`, `D^α_A` with the positions, scaled by the
    /// force). Far from a solution that term can dominate: a predictor that
    /// penetrates deeply gives pressures many times the converged ones, and
    /// their follower-force stiffness then swamps the inertia and shear
    /// stiffness and makes the Newton matrix nearly singular. The stepper
    /// leaves it out until the residual is small (a modified Newton), then
    /// puts it back for quadratic convergence.
    pub geometric_tangent: bool,
    /// Stick/slip state held fixed during one Newton solve (`None`: free).
    slip_lock: Vec<Option<bool>>,
    /// Master face held during one Newton solve, and how much farther (a
    /// length) the slave is from it than from its closest face at the last
    /// evaluation. See [`ContactPair::settle_states`].
    face_lock: Vec<Option<usize>>,
    face_excess: Vec<f64>,
    /// Face changes made by `settle_states` in this step (at most
    /// `MAX_FACE_SWITCHES`, so that a slave in a concave corner, where each
    /// face's extension lies below the other face, cannot ping-pong).
    face_switches: Vec<u8>,
    /// How often the point's multipliers were zeroed in this step (the §3.6
    /// zeroing is done at most `MAX_ZEROINGS` times per step and point: a
    /// point that keeps coming back into contact is genuinely in contact, and
    /// zeroing it again and again makes the Uzawa loop cycle).
    zeroed: Vec<u8>,
    /// Persistent points enforced on their gap for the rest of this step,
    /// because their gap drifted below `−drift_bound` (augmented Lagrangian).
    guarded: Vec<bool>,
    /// Averaged outward node normals of the master faces at n+1, where the
    /// faces are chosen (they only fix the sign of ν at edges and vertices).
    node_normal: Vec<[f64; 3]>,
    /// The rim of the master surface: edges (3D, node pairs in increasing
    /// order) that belong to one master face only, and nodes on such an edge
    /// (2D: segment ends that belong to one segment only). See
    /// [`ContactPair::beside_rim`].
    rim_edges: std::collections::HashSet<(usize, usize)>,
    rim_nodes: Vec<bool>,
    /// Broad phase over the master faces (margin 2h), its node positions and
    /// candidate scratch, and the face chosen for each slave.
    hash: SpatialHash,
    x3: Vec<[f64; 3]>,
    candidates: Vec<usize>,
    chosen: Vec<Option<usize>>,
}

/// The rim of a master surface (see `ContactPair::rim_edges`): its boundary
/// edges (3D) and the nodes on them; in 2D the segment ends used once.
fn rim(
    faces: &[Element],
    dim: usize,
    n_nodes: usize,
) -> (std::collections::HashSet<(usize, usize)>, Vec<bool>) {
    let mut nodes = vec![false; n_nodes];
    let mut edges = std::collections::HashSet::new();
    if dim == 2 {
        let mut uses = vec![0u32; n_nodes];
        for e in faces {
            for &a in e.nodes() {
                uses[a] += 1;
            }
        }
        for (a, &u) in uses.iter().enumerate() {
            nodes[a] = u == 1;
        }
        return (edges, nodes);
    }
    let mut count: std::collections::HashMap<(usize, usize), u32> =
        std::collections::HashMap::new();
    for e in faces {
        let n = e.nodes();
        for k in 0..n.len() {
            let (a, b) = (n[k], n[(k + 1) % n.len()]);
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    for (&(a, b), &c) in &count {
        if c == 1 {
            edges.insert((a, b));
            nodes[a] = true;
            nodes[b] = true;
        }
    }
    (edges, nodes)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn norm(a: [f64; 3]) -> f64 {
    dot(a, a).sqrt()
}

/// Unnormalized outward normal of a face (2D segment: `(t_y, −t_x)`).
fn face_normal_raw(kind: ElementKind, x: &[[f64; 3]]) -> [f64; 3] {
    match kind {
        ElementKind::Line2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        ElementKind::Tri3 => cross(sub(x[1], x[0]), sub(x[2], x[0])),
        _ => cross(sub(x[2], x[0]), sub(x[3], x[1])),
    }
}

/// Tributary areas `∫ N_a dA` of a face's nodes (2×2 Gauss on quad4).
fn face_weights(kind: ElementKind, x: &[[f64; 3]], out: &mut [f64]) {
    match kind {
        ElementKind::Line2 => {
            let l = norm(sub(x[1], x[0]));
            out[0] = l / 2.0;
            out[1] = l / 2.0;
        }
        ElementKind::Tri3 => {
            let a = norm(cross(sub(x[1], x[0]), sub(x[2], x[0]))) / 2.0;
            out[..3].iter_mut().for_each(|w| *w = a / 3.0);
        }
        _ => {
            let g = 1.0 / 3f64.sqrt();
            out[..4].iter_mut().for_each(|w| *w = 0.0);
            for (xi, eta) in [(-g, -g), (g, -g), (g, g), (-g, g)] {
                let n = [
                    0.25 * (1.0 - xi) * (1.0 - eta),
                    0.25 * (1.0 + xi) * (1.0 - eta),
                    0.25 * (1.0 + xi) * (1.0 + eta),
                    0.25 * (1.0 - xi) * (1.0 + eta),
                ];
                let dxi = [
                    -(1.0 - eta) / 4.0,
                    (1.0 - eta) / 4.0,
                    (1.0 + eta) / 4.0,
                    -(1.0 + eta) / 4.0,
                ];
                let deta = [
                    -(1.0 - xi) / 4.0,
                    -(1.0 + xi) / 4.0,
                    (1.0 + xi) / 4.0,
                    (1.0 - xi) / 4.0,
                ];
                let mut t1 = [0.0; 3];
                let mut t2 = [0.0; 3];
                for a in 0..4 {
                    for i in 0..3 {
                        t1[i] += dxi[a] * x[a][i];
                        t2[i] += deta[a] * x[a][i];
                    }
                }
                let j = norm(cross(t1, t2));
                for a in 0..4 {
                    out[a] += n[a] * j;
                }
            }
        }
    }
}

/// Gathers node `a`'s coordinates from a dof vector of dimension `d`.
#[inline]
fn node_x(x: &[f64], a: usize, d: usize) -> [f64; 3] {
    let mut p = [0.0; 3];
    p[..d].copy_from_slice(&x[a * d..a * d + d]);
    p
}

/// Kinematics of a slave point against a rigid plane: `N_s = ν`, `D^α_s = τ_α`.
fn plane_kinematics(
    point: [f64; 3],
    normal: [f64; 3],
    tangents: &[[f64; 3]; 2],
    xs: [f64; 3],
    dim: usize,
) -> Kinematics {
    let s = sub(xs, point);
    let gap = dot(s, normal);
    let nt = dim - 1;
    let mut metric = [[0.0; 2]; 2];
    for a in 0..nt {
        metric[a][a] = 1.0;
    }
    let mut n_op = [[0.0; 3]; MAX_NODES];
    n_op[0] = normal;
    let mut d_op = [[[0.0; 3]; MAX_NODES]; 2];
    for a in 0..nt {
        d_op[a][0] = tangents[a];
    }
    let mut p = [0.0; MAX_NODES];
    p[0] = 1.0;
    Kinematics {
        kind: if dim == 2 {
            ElementKind::Line2
        } else {
            ElementKind::Quad4
        },
        n_nodes: 1,
        n_tangents: nt,
        xi: [0.0; 2],
        location: Location::Interior,
        p,
        dp: [[0.0; 2]; MAX_NODES],
        s,
        normal,
        face_normal: normal,
        gap,
        tangents: *tangents,
        metric,
        metric_inv: metric,
        a: metric,
        a_inv: metric,
        n_op,
        d_op,
    }
}

/// How far (in parametric units, the reference face being `[-1, 1]²` or the
/// unit triangle) beyond its edges a face is extended in
/// [`ContactPair::kinematics`]: at the end of the step, where the face is the
/// slave's closest (or the held one, within `FACE_SLACK·h` of it), and at the
/// midpoint, which lies up to half a step's tangential travel away.
const END_SLACK: f64 = 0.25;
const MID_SLACK: f64 = 1.0;

/// Whether `xi` lies in the reference face enlarged by `slack`.
fn within_face(kind: ElementKind, xi: [f64; 2], slack: f64) -> bool {
    match kind {
        ElementKind::Line2 => xi[0].abs() <= 1.0 + slack,
        ElementKind::Tri3 => xi[0] >= -slack && xi[1] >= -slack && xi[0] + xi[1] <= 1.0 + slack,
        _ => xi[0].abs() <= 1.0 + slack && xi[1].abs() <= 1.0 + slack,
    }
}

/// The penalties `(ε_N, ε_T)`: the input's, or by default stiffer than both the
/// bulk (`bulk = (λ+2μ)/h`) and the nodal inertia of one step
/// (`inertia/Δt² = 2ρh/Δt²`), by a factor 10 for the augmented Lagrangian and
/// 1000 for pure penalty (which has no augmentations to close the gap). The
/// default follows the step size, so that a cut-back step keeps the same
/// ratio of penalty to inertia (and the Uzawa loop its convergence rate).
fn default_penalties(spec: &ContactSpec, bulk: f64, inertia: f64, dt: f64) -> (f64, f64) {
    let factor = match spec.enforcement {
        Enforcement::AugmentedLagrangian => 10.0,
        Enforcement::Penalty => 1000.0,
    };
    let eps_n = spec
        .penalty
        .unwrap_or(factor * bulk.max(inertia / (dt * dt)));
    (eps_n, spec.tangential_penalty.unwrap_or(eps_n))
}

/// A slave keeps its master face during a Newton iteration while that face is
/// within `FACE_SLACK·h` of the closest one (see [`ContactPair::assemble`]).
const FACE_SLACK: f64 = 0.1;
const MAX_FACE_SWITCHES: u8 = 2;
/// How often per step one point's multipliers may be zeroed (see `zeroed`).
const MAX_ZEROINGS: u8 = 2;
/// Drift bound of persistent contact relative to `h` (see `guarded`): half the
/// penetration the augmented Lagrangian is meant to stay within (1e-3 h).
const DRIFT_BOUND: f64 = 5e-4;

/// Frozen decisions for the finite-difference tangent. With `kin` the
/// midpoint operators `N_A`, `D^α_A` are frozen too, which leaves out the
/// geometric stiffness (see [`ContactPair::geometric_tangent`]).
#[derive(Clone, Copy)]
struct Frozen {
    case: NormalCase,
    slip: bool,
    lambda_t: [f64; 3],
    kin: Option<Kinematics>,
}

impl ContactPair {
    /// Builds the pair: slave nodes and tributary areas, master faces or plane,
    /// penalties. `stiffness` is the largest P-wave modulus `λ + 2μ` and
    /// `density` the largest density of the model's bodies.
    pub fn new(
        spec: &ContactSpec,
        mesh: &Mesh,
        dim: usize,
        stiffness: f64,
        density: f64,
        dt: f64,
    ) -> Result<ContactPair, ContactSetupError> {
        let face_kind_ok = |k: ElementKind| {
            if dim == 2 {
                k == ElementKind::Line2
            } else {
                matches!(k, ElementKind::Tri3 | ElementKind::Quad4)
            }
        };
        let slave_group = mesh
            .group(&spec.slave)
            .ok_or_else(|| ContactSetupError::Empty(spec.slave.clone()))?;
        if slave_group.elements.is_empty() {
            return Err(ContactSetupError::Empty(spec.slave.clone()));
        }
        let mut area = vec![0.0; mesh.nodes.len()];
        let mut w = [0.0; 4];
        let mut xs = [[0.0; 3]; 4];
        let mut h_sum = 0.0;
        for e in &slave_group.elements {
            if !face_kind_ok(e.kind) {
                return Err(ContactSetupError::WrongFace {
                    group: spec.slave.clone(),
                    kind: e.kind.name(),
                    dim,
                });
            }
            let n = e.nodes().len();
            for (k, &a) in e.nodes().iter().enumerate() {
                xs[k] = mesh.nodes[a];
            }
            face_weights(e.kind, &xs[..n], &mut w);
            let a_face: f64 = w[..n].iter().sum();
            h_sum += if dim == 2 { a_face } else { a_face.sqrt() };
            for (k, &a) in e.nodes().iter().enumerate() {
                area[a] += w[k];
            }
        }
        let mut h = h_sum / slave_group.elements.len() as f64;
        let mut slaves: Vec<usize> = slave_group
            .elements
            .iter()
            .flat_map(|e| e.nodes().iter().copied())
            .collect();
        slaves.sort_unstable();
        slaves.dedup();
        let weights = slaves.iter().map(|&a| area[a]).collect();

        let master = match &spec.master {
            MasterSpec::Surface(name) => {
                let g = mesh
                    .group(name)
                    .ok_or_else(|| ContactSetupError::Empty(name.clone()))?;
                if g.elements.is_empty() {
                    return Err(ContactSetupError::Empty(name.clone()));
                }
                let mut hm = 0.0;
                for e in &g.elements {
                    if !face_kind_ok(e.kind) {
                        return Err(ContactSetupError::WrongFace {
                            group: name.clone(),
                            kind: e.kind.name(),
                            dim,
                        });
                    }
                    let n = e.nodes().len();
                    for (k, &a) in e.nodes().iter().enumerate() {
                        xs[k] = mesh.nodes[a];
                    }
                    face_weights(e.kind, &xs[..n], &mut w);
                    let a_face: f64 = w[..n].iter().sum();
                    hm += if dim == 2 { a_face } else { a_face.sqrt() };
                }
                h = h.min(hm / g.elements.len() as f64);
                Master::Faces(g.elements.clone())
            }
            MasterSpec::Plane { point, normal } => {
                let t1 = if dim == 2 {
                    [-normal[1], normal[0], 0.0]
                } else {
                    let a = if normal[0].abs() < 0.9 {
                        [1.0, 0.0, 0.0]
                    } else {
                        [0.0, 1.0, 0.0]
                    };
                    let c = cross(*normal, a);
                    let l = norm(c);
                    [c[0] / l, c[1] / l, c[2] / l]
                };
                let t2 = if dim == 2 {
                    [0.0; 3]
                } else {
                    cross(*normal, t1)
                };
                Master::Plane {
                    point: *point,
                    normal: *normal,
                    tangents: [t1, t2],
                }
            }
        };
        // Default penalty: stiffer than both the bulk (E/h) and the nodal inertia
        // of one step (2ρh/Δt²), by a factor 10 for the augmented Lagrangian and
        // 1000 for pure penalty (which has no augmentations to close the gap).
        let (rim_edges, rim_nodes) = match &master {
            Master::Faces(faces) => rim(faces, dim, mesh.nodes.len()),
            Master::Plane { .. } => Default::default(),
        };
        let n_slaves = slaves.len();
        let (eps_n, eps_t) = default_penalties(spec, stiffness / h, 2.0 * density * h, dt);
        Ok(ContactPair {
            spec: spec.clone(),
            dim,
            slaves,
            weights,
            master,
            eps_n,
            eps_t,
            bulk: stiffness / h,
            inertia: 2.0 * density * h,
            tol_abs: spec.tolerance * h,
            drift_bound: (DRIFT_BOUND * h).max(10.0 * spec.tolerance * h),
            h,
            state: vec![SlaveState::default(); n_slaves],
            evals: (0..n_slaves).map(|_| PointEval::open(0.0)).collect(),
            geometric_tangent: true,
            slip_lock: vec![None; n_slaves],
            face_lock: vec![None; n_slaves],
            face_excess: vec![0.0; n_slaves],
            face_switches: vec![0; n_slaves],
            zeroed: vec![0; n_slaves],
            guarded: vec![false; n_slaves],
            node_normal: vec![[0.0; 3]; mesh.nodes.len()],
            rim_edges,
            rim_nodes,
            hash: SpatialHash::new(2.0 * h),
            x3: Vec::new(),
            candidates: Vec::new(),
            chosen: Vec::new(),
        })
    }

    /// Number of master faces (0 for a plane).
    pub fn n_faces(&self) -> usize {
        match &self.master {
            Master::Faces(f) => f.len(),
            Master::Plane { .. } => 0,
        }
    }

    /// Whether a slave may reach the master in the coming step: for a rigid
    /// plane, a slave whose gap at `x`, less its approach over `Δt` at
    /// velocity `v`, is within one face size `h`; for master faces, any
    /// (slave, face) pair of [`ContactPair::couplings`] (`couplings`: its
    /// result for the same `x`, `v`, `Δt`).
    pub fn may_touch(&self, x: &[f64], v: &[f64], dt: f64, couplings: &[Vec<usize>]) -> bool {
        match &self.master {
            Master::Faces(_) => !couplings.is_empty(),
            Master::Plane { point, normal, .. } => self.slaves.iter().any(|&s| {
                let gap = dot(sub(node_x(x, s, self.dim), *point), *normal);
                let approach = (-dt * dot(node_x(v, s, self.dim), *normal)).max(0.0);
                gap - approach <= self.h
            }),
        }
    }

    /// Node lists that the stiffness pattern must couple for the coming step:
    /// one list (slave, face nodes) for every master face the slave may touch, i.e.
    /// whose box swept from `x` to the constant-velocity prediction
    /// `x + Δt·v` and padded by one face size overlaps the slave's swept box.
    /// (A disc of radius 2·max|v|·Δt around each slave coupled ~90 base
    /// nodes per slave on the fine blocks mesh and filled the LU.) A point
    /// that leaves its prediction by more than a face size only loses
    /// stiffness entries (`assemble` skips them) until the next step.
    pub fn couplings(&self, x: &[f64], v: &[f64], dt: f64) -> Vec<Vec<usize>> {
        let d = self.dim;
        let Master::Faces(faces) = &self.master else {
            return Vec::new();
        };
        // the box swept by a point moving from p to p + Δt·v, padded by `pad`
        let swept = |nodes: &mut dyn Iterator<Item = usize>, pad: f64| {
            let mut lo = [f64::INFINITY; 3];
            let mut hi = [f64::NEG_INFINITY; 3];
            for a in nodes {
                let p0 = node_x(x, a, d);
                let w = node_x(v, a, d);
                for i in 0..3 {
                    let p1 = p0[i] + dt * w[i];
                    lo[i] = lo[i].min(p0[i].min(p1) - pad);
                    hi[i] = hi[i].max(p0[i].max(p1) + pad);
                }
            }
            (lo, hi)
        };
        let boxes: Vec<([f64; 3], [f64; 3])> = faces
            .iter()
            .map(|e| swept(&mut e.nodes().iter().copied(), self.h))
            .collect();
        // Broad phase: every face within h + 2·max|v|·Δt of a slave (spatial
        // hash, linear in the surface size), then the swept-box test.
        let vmax = v.iter().fold(0.0f64, |m, w| m.max(w.abs()));
        let mut hash = SpatialHash::new(self.h + 2.0 * vmax * dt);
        let x3: Vec<[f64; 3]> = (0..x.len() / d).map(|a| node_x(x, a, d)).collect();
        hash.rebuild(&x3, faces);
        let mut candidates = Vec::new();
        // one list per contact element (slave + face): listing all candidate
        // faces of a slave together would also couple the faces with each other
        let mut out = Vec::new();
        for &s in &self.slaves {
            let (slo, shi) = swept(&mut std::iter::once(s), 0.0);
            hash.candidates(x3[s], &mut candidates);
            for &f in &candidates {
                let (e, (lo, hi)) = (&faces[f], &boxes[f]);
                if (0..3).all(|i| shi[i] >= lo[i] && slo[i] <= hi[i]) {
                    let mut list = Vec::with_capacity(1 + e.nodes().len());
                    list.push(s);
                    list.extend_from_slice(e.nodes());
                    out.push(list);
                }
            }
        }
        out
    }

    /// Averaged outward node normals of the master at configuration `x`.
    fn update_node_normals(&mut self, x: &[f64]) {
        let Master::Faces(faces) = &self.master else {
            return;
        };
        let mut xs = [[0.0; 3]; 4];
        for e in faces {
            for &a in e.nodes() {
                self.node_normal[a] = [0.0; 3];
            }
        }
        for e in faces {
            let n = e.nodes().len();
            for (k, &a) in e.nodes().iter().enumerate() {
                xs[k] = node_x(x, a, self.dim);
            }
            let fnrm = face_normal_raw(e.kind, &xs[..n]);
            let l = norm(fnrm).max(f64::MIN_POSITIVE);
            for &a in e.nodes() {
                for i in 0..3 {
                    self.node_normal[a][i] += fnrm[i] / l;
                }
            }
        }
    }

    /// Whether a slave whose closest point on face `e` is clamped to `loc` lies
    /// beside the master surface rather than over it: `loc` is on the rim of
    /// the surface (an edge of one face only, or a vertex on such an edge).
    /// Beyond the rim the master body is bounded by faces that are not part of
    /// the contact surface, so a slave there that is behind the surface's
    /// plane (`g < 0`) has slid off its end (or comes from the side); taking
    /// `g = −|s|` as a penetration would pull it back to the rim with the
    /// full penalty, at depths of up to a face width.
    fn beside_rim(&self, e: &Element, loc: Location) -> bool {
        let nodes = e.nodes();
        match loc {
            Location::Interior => false,
            Location::Vertex(k) => self.rim_nodes[nodes[k as usize]],
            Location::Edge(k) => {
                let (a, b) = (nodes[k as usize], nodes[(k as usize + 1) % nodes.len()]);
                self.rim_edges.contains(&(a.min(b), a.max(b)))
            }
        }
    }

    fn hint(&self, e: &Element, loc: Location) -> Option<[f64; 3]> {
        let nodes = e.nodes();
        match loc {
            Location::Interior => None,
            Location::Vertex(k) => Some(self.node_normal[nodes[k as usize]]),
            Location::Edge(k) => {
                let a = self.node_normal[nodes[k as usize]];
                let b = self.node_normal[nodes[(k as usize + 1) % nodes.len()]];
                Some([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
            }
        }
    }

    /// Kinematics of slave `xs` against face `e` whose node positions are `xf`.
    fn kinematics(
        &self,
        face: Option<usize>,
        xs: [f64; 3],
        xf: &[[f64; 3]],
        slack: f64,
    ) -> Result<Kinematics, GeometryError> {
        match (&self.master, face) {
            (
                Master::Plane {
                    point,
                    normal,
                    tangents,
                },
                _,
            ) => Ok(plane_kinematics(*point, *normal, tangents, xs, self.dim)),
            (Master::Faces(faces), Some(f)) => {
                let e = &faces[f];
                let mut proj = project(e.kind, xf, xs);
                if proj.location != Location::Interior {
                    // A slave within `slack` (parametric) of the face projects
                    // onto the face extended beyond its edges: the clamped rule
                    // ν = ±s/|s| is round-off when |s| → 0 (a slave touching the
                    // surface at an edge) and tilts the normal of a slave that
                    // has just moved past the edge, while the extended face keeps
                    // s = g ν exactly (so the momentum identities still hold).
                    let pu = project_unclamped(e.kind, xf, xs, proj.xi);
                    if within_face(e.kind, pu.xi, slack) {
                        proj = pu;
                    }
                }
                Kinematics::new(e.kind, xf, xs, &proj, self.hint(e, proj.location))
            }
            (Master::Faces(_), None) => unreachable!("a face is chosen before kinematics"),
        }
    }

    /// Nodes of the contact element of slave `k` (slave first) for `face`.
    fn element_nodes(&self, k: usize, face: Option<usize>, out: &mut [usize; MAX_NODES]) -> usize {
        out[0] = self.slaves[k];
        match (&self.master, face) {
            (Master::Faces(faces), Some(f)) => {
                let nodes = faces[f].nodes();
                out[1..1 + nodes.len()].copy_from_slice(nodes);
                1 + nodes.len()
            }
            _ => 1,
        }
    }

    /// Force of one contact element (`w j G_A`, slave first) from local node
    /// positions at `n` and `n+1`, and what the point did. `frozen` fixes the
    /// case, stick/slip and tangential multiplier (for the FD tangent).
    fn local_force(
        &self,
        k: usize,
        face: Option<usize>,
        x0: &[[f64; 3]],
        x1: &[[f64; 3]],
        dt: f64,
        frozen: Option<Frozen>,
    ) -> Result<([[f64; 3]; MAX_NODES], PointEval, [f64; 3], Kinematics), GeometryError> {
        let n = x0.len();
        let mut xm = [[0.0; 3]; MAX_NODES];
        let mut w = [[0.0; 3]; MAX_NODES];
        for a in 0..n {
            for i in 0..3 {
                xm[a][i] = 0.5 * (x0[a][i] + x1[a][i]);
                w[a][i] = (x1[a][i] - x0[a][i]) / dt;
            }
        }
        let km = match frozen.and_then(|f| f.kin) {
            Some(km) => km,
            None => self.kinematics(face, xm[0], &xm[1..n], MID_SLACK)?,
        };
        let k1 = self.kinematics(face, x1[0], &x1[1..n], END_SLACK)?;
        if let (Master::Faces(faces), Some(f)) = (&self.master, face) {
            if k1.gap < 0.0 && self.beside_rim(&faces[f], k1.location) {
                let mut open = PointEval::open(self.weights[k]);
                open.face = face;
                return Ok(([[0.0; 3]; MAX_NODES], open, [0.0; 3], km));
            }
        }
        let v_n = km.normal_rate(&w[..n]);
        let v_t = km.tangential_rates(&w[..n]);
        let st = &self.state[k];
        let lambda_n = if self.spec.enforcement == Enforcement::Penalty {
            0.0
        } else {
            st.lambda_n
        };
        let (case, p) = match frozen {
            Some(f) => (
                f.case,
                normal_pressure(
                    f.case,
                    lambda_n,
                    self.eps_n,
                    k1.gap,
                    dt,
                    v_n,
                    self.drift_bound,
                ),
            ),
            None if st.in_contact && self.guarded[k] => {
                guarded_law(lambda_n, self.eps_n, k1.gap, self.drift_bound)
            }
            None => normal_law(st.in_contact, lambda_n, self.eps_n, k1.gap, dt, v_n),
        };
        let nt = km.n_tangents;
        // tangential multiplier: covariant components in the midpoint basis. It
        // is fixed during a Newton solve (its reset, §3.6, is decided in
        // `augment`: deciding it per iterate makes the residual jump and Newton
        // cycle).
        let lam_vec = match frozen {
            Some(f) => f.lambda_t,
            None if self.spec.enforcement == Enforcement::Penalty => [0.0; 3],
            None => st.lambda_t,
        };
        let lam = [
            dot(lam_vec, km.tangents[0]),
            if nt > 1 {
                dot(lam_vec, km.tangents[1])
            } else {
                0.0
            },
        ];
        let mut trial_slip = false;
        // (a frozen evaluation keeps the friction branch where its unclamped
        // pressure dips below zero, see `normal_pressure`)
        let (t, slip) = if (p > 0.0 || frozen.is_some()) && self.spec.friction > 0.0 {
            let r = return_map(
                lam,
                self.eps_t,
                dt,
                &km.metric,
                &km.metric_inv,
                v_t,
                self.spec.friction,
                p,
                nt,
            );
            // the branch is held by the FD freeze or by the Newton-solve lock
            let held = frozen.map(|f| f.slip).or(self.slip_lock[k]);
            trial_slip = r.slip;
            match held {
                Some(h) if h != r.slip => {
                    let trial = return_map(
                        lam,
                        self.eps_t,
                        dt,
                        &km.metric,
                        &km.metric_inv,
                        v_t,
                        1.0,
                        f64::INFINITY,
                        nt,
                    )
                    .t;
                    if h {
                        // Held in slip while the trial is inside the cone: the
                        // trial scaled onto the cone, but at most doubled. Its
                        // direction is undefined as the trial → 0 (a point of a
                        // rolling body has almost no slip), so scaling a small
                        // trial up to μp made the force jump from iterate to
                        // iterate and Newton wander; `2·t^tr` below half the
                        // cone is continuous and vanishes with the trial.
                        let tn = covariant_norm(trial, &km.metric_inv, nt);
                        let s = if tn > 0.0 {
                            (self.spec.friction * p / tn).min(2.0)
                        } else {
                            0.0
                        };
                        ([trial[0] * s, trial[1] * s], true)
                    } else {
                        (trial, false)
                    }
                }
                _ => (r.t, r.slip),
            }
        } else {
            ([0.0; 2], false)
        };
        let weight = self.weights[k];
        let g = km.nodal_forces(p, t);
        let mut f = [[0.0; 3]; MAX_NODES];
        for a in 0..n {
            for i in 0..3 {
                f[a][i] = weight * g[a][i];
            }
        }
        let eval = PointEval {
            face,
            active: p > 0.0,
            case,
            g1: k1.gap,
            v_n,
            v_t,
            p,
            t,
            slip,
            trial_slip,
            traction: {
                let mut tv = [0.0; 3];
                for a in 0..nt {
                    for b in 0..nt {
                        let c = t[a] * km.metric_inv[a][b];
                        for i in 0..3 {
                            tv[i] += c * km.tangents[b][i];
                        }
                    }
                }
                tv
            },
            slip_rate: km.slip_speed(v_t),
            weight,
        };
        Ok((f, eval, lam_vec, km))
    }

    /// Adds the contact force at the iterate `x1` to `f` (nodal, dimension `D`)
    /// and, when `k` is given, `−∂f_c/∂x1` to the matrix values on `pattern`.
    /// Entries missing from the pattern are skipped (the caller refreshes the
    /// couplings each step; a missed entry only slows Newton down).
    pub fn assemble<const D: usize>(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        f: &mut [f64],
        mut k: Option<(&BlockPattern, &mut [f64])>,
    ) -> Result<(), GeometryError> {
        self.update_node_normals(x1);
        // Broad + narrow phase at the end of the step: the closest master face
        // of each slave within 2h (spatial hashing, cost linear in the surface
        // size). The end configuration decides, because the gap g_{n+1} that
        // selects the case and sets the pressure must be measured on the face
        // the slave is over at n+1; the midpoint rates and operators use the
        // same face, extended by MID_SLACK if the slave is not over it yet.
        //
        // Node-to-segment contact is nonsmooth where the closest face changes
        // (at a concave edge the normal jumps from one face to the other and
        // Newton cycles between them). So each slave keeps the face it took at
        // the start of a Newton solve while that face is within `FACE_SLACK·h`
        // of the closest one; after the solve `settle_states` moves it to the
        // closest face if the held one is farther by more than the constraint
        // tolerance, and the step is solved again.
        let mut chosen = std::mem::take(&mut self.chosen);
        chosen.clear();
        if let Master::Faces(faces) = &self.master {
            self.x3.clear();
            self.x3.extend((0..x1.len() / D).map(|a| node_x(x1, a, D)));
            self.hash.rebuild(&self.x3, faces);
            for (kk, &s) in self.slaves.iter().enumerate() {
                let best =
                    self.hash
                        .closest_face(&self.x3, faces, self.x3[s], &mut self.candidates);
                let face = match (best, self.face_lock[kk]) {
                    (None, _) => None,
                    (Some((b, _)), None) => Some(b),
                    (Some((b, _)), Some(f)) if b == f => Some(f),
                    (Some((b, pb)), Some(f)) => {
                        let e = &faces[f];
                        let mut xf = [[0.0; 3]; 4];
                        for (k, &a) in e.nodes().iter().enumerate() {
                            xf[k] = self.x3[a];
                        }
                        let pf = project(e.kind, &xf[..e.nodes().len()], self.x3[s]);
                        self.face_excess[kk] = pf.distance - pb.distance;
                        Some(if self.face_excess[kk] > FACE_SLACK * self.h {
                            b
                        } else {
                            f
                        })
                    }
                };
                if face.is_none() || face == best.map(|(b, _)| b) {
                    self.face_excess[kk] = 0.0;
                }
                self.face_lock[kk] = face;
                chosen.push(best.map(|(b, _)| b));
            }
        }
        let mut nodes = [0usize; MAX_NODES];
        let mut l0 = [[0.0; 3]; MAX_NODES];
        let mut l1 = [[0.0; 3]; MAX_NODES];
        for kk in 0..self.slaves.len() {
            let face = match &self.master {
                Master::Plane { .. } => None,
                Master::Faces(_) => match self.face_lock[kk] {
                    Some(f) => Some(f),
                    None => {
                        self.evals[kk] = PointEval::open(self.weights[kk]);
                        continue;
                    }
                },
            };
            let n = self.element_nodes(kk, face, &mut nodes);
            for a in 0..n {
                l0[a] = node_x(x0, nodes[a], D);
                l1[a] = node_x(x1, nodes[a], D);
            }
            let (fe, ev, lam, km) = self.local_force(kk, face, &l0[..n], &l1[..n], dt, None)?;
            self.evals[kk] = ev;
            if !ev.active {
                self.slip_lock[kk] = None;
                continue;
            }
            if self.spec.friction > 0.0 && self.slip_lock[kk].is_none() {
                self.slip_lock[kk] = Some(ev.slip);
            }
            for a in 0..n {
                for i in 0..D {
                    f[nodes[a] * D + i] += fe[a][i];
                }
            }
            if let Some((pattern, kv)) = k.as_mut() {
                let frozen = Frozen {
                    case: ev.case,
                    slip: ev.slip,
                    lambda_t: lam,
                    kin: (!self.geometric_tangent).then_some(km),
                };
                let step = 1e-7 * self.h.max(f64::MIN_POSITIVE);
                for b in 0..n {
                    for j in 0..D {
                        let mut lp = l1;
                        let mut lm = l1;
                        lp[b][j] += step;
                        lm[b][j] -= step;
                        let (fp, ..) =
                            self.local_force(kk, face, &l0[..n], &lp[..n], dt, Some(frozen))?;
                        let (fm, ..) =
                            self.local_force(kk, face, &l0[..n], &lm[..n], dt, Some(frozen))?;
                        for a in 0..n {
                            let Some(off) = pattern.block_offset(nodes[a], nodes[b]) else {
                                continue;
                            };
                            for i in 0..D {
                                let dfdx = (fp[a][i] - fm[a][i]) / (2.0 * step);
                                kv[pattern.position(off, i, nodes[b], j)] -= dfdx;
                            }
                        }
                    }
                }
            }
        }
        self.chosen = chosen;
        Ok(())
    }

    /// One Uzawa update of the multipliers from the last evaluation (augmented
    /// Lagrangian only). Returns the largest constraint violation (a length):
    /// `|g_{n+1}|` of new contacts, `Δt|v_N|` of persistent ones, `|g_{n+1} + δ|`
    /// of guarded ones and `Δt‖v_T‖` of sticking ones.
    pub fn augment(&mut self, dt: f64, x1: &[f64], x0: &[f64]) -> f64 {
        let mut worst = 0.0f64;
        let d = self.dim;
        for k in 0..self.slaves.len() {
            let ev = self.evals[k];
            if !ev.active {
                self.state[k].lambda_n = 0.0;
                self.state[k].lambda_t = [0.0; 3];
                continue;
            }
            let viol = match ev.case {
                NormalCase::New => ev.g1.abs(),
                NormalCase::Persistent => dt * ev.v_n.abs(),
                NormalCase::Guarded => (ev.g1 + self.drift_bound).abs(),
                _ => 0.0,
            };
            worst = worst.max(viol);
            // Drift control (law::guarded_law): a persistent point that meets
            // its rate constraint and still ends below the drift bound is
            // enforced on its gap from now on in this step. Only at a met rate
            // constraint: an early augmentation's iterate may sink deeper than
            // the converged rate solution, and guarding it would hold the
            // point at −δ where the rate form ends shallower. Augmented
            // Lagrangian only: a penalty admits penetration by design.
            if ev.case == NormalCase::Persistent
                && viol <= self.tol_abs
                && ev.g1 < -self.drift_bound
                && self.spec.enforcement == Enforcement::AugmentedLagrangian
            {
                self.guarded[k] = true;
                worst = f64::INFINITY;
            }
            // A pressure on a point that separates (v_N > 0) would do positive work
            // and make c > 0 in the velocity update; as the paper prescribes for the
            // normal multipliers (end of §3.6) its multiplier is zeroed instead, and
            // the step is solved again. "Separates" means by more than the
            // constraint tolerance over the step: a converged persistent or new
            // contact has |Δt v_N| up to that tolerance of either sign, and
            // zeroing those makes the Uzawa loop cycle (any positive work left
            // is restored by the velocity update, or recorded as its defect).
            // And "separates" means the gap has opened, g_{n+1} > tolerance: a
            // point still on or in the surface with a positive rate is an
            // Uzawa iterate approaching its multiplier from above, and the
            // Uzawa update below already lowers that multiplier (p = λ − εΔt v_N
            // < λ). Zeroing those too (pressures up to 2e3 on the friction
            // blocks, separating by 1.5–3 tolerances) dropped their whole
            // pressure and cost a re-solve whose first Newton steps were cut
            // to 1/32.
            if dt * ev.v_n > self.tol_abs
                && ev.g1 > self.tol_abs
                && ev.case != NormalCase::Guarded
                && self.state[k].lambda_n > 0.0
                && self.zeroed[k] < MAX_ZEROINGS
            {
                log::trace!(
                    "slave {}: separating pressure zeroed (Δt v_N = {:.3e}, p = {:.3e}, g1 = {:.3e})",
                    self.slaves[k],
                    dt * ev.v_n,
                    ev.p,
                    ev.g1
                );
                self.zeroed[k] += 1;
                self.state[k].lambda_n = 0.0;
                self.state[k].lambda_t = [0.0; 3];
                worst = f64::INFINITY;
                continue;
            }
            self.state[k].lambda_n = ev.p;
            // tangential: traction vector t_α τ^α in the midpoint basis
            let mut nodes = [0usize; MAX_NODES];
            let n = self.element_nodes(k, ev.face, &mut nodes);
            let mut xm = [[0.0; 3]; MAX_NODES];
            for a in 0..n {
                let p0 = node_x(x0, nodes[a], d);
                let p1 = node_x(x1, nodes[a], d);
                for i in 0..3 {
                    xm[a][i] = 0.5 * (p0[i] + p1[i]);
                }
            }
            if let Ok(km) = self.kinematics(ev.face, xm[0], &xm[1..n], MID_SLACK) {
                let nt = km.n_tangents;
                let mut tv = [0.0; 3];
                for a in 0..nt {
                    for b in 0..nt {
                        let c = ev.t[a] * km.metric_inv[a][b];
                        for i in 0..3 {
                            tv[i] += c * km.tangents[b][i];
                        }
                    }
                }
                // The reset of Love & Laursen (end of §3.6): a multiplier that
                // did positive work over the step (by more than the constraint
                // tolerance, as for the normal one above) would generate
                // energy; it is zeroed and the step solved again.
                let used = self.state[k].lambda_t;
                let cov = [dot(used, km.tangents[0]), dot(used, km.tangents[1])];
                if reset_multiplier(cov, ev.v_t, nt) == [0.0; 2]
                    && dt * (0..nt).map(|a| cov[a] * ev.v_t[a]).sum::<f64>()
                        > self.tol_abs * norm(used)
                    && self.zeroed[k] < MAX_ZEROINGS
                {
                    log::trace!(
                        "slave {}: tangential multiplier zeroed (it did positive work; slip {})",
                        self.slaves[k],
                        ev.slip
                    );
                    self.zeroed[k] += 1;
                    self.state[k].lambda_t = [0.0; 3];
                    worst = f64::INFINITY;
                    continue;
                }
                self.state[k].lambda_t = tv;
                if !ev.slip && self.spec.friction > 0.0 {
                    worst = worst.max(dt * km.slip_speed(ev.v_t));
                }
            }
        }
        worst
    }

    /// Stick/slip states and master faces are held fixed during a Newton solve
    /// (Newton on the kink of the return map, or across the normal jump at a
    /// concave edge, otherwise cycles between the two sides); after the solve,
    /// each point whose held stick/slip state disagrees with the return map
    /// takes the return map's state, and each slave whose held face is farther
    /// than its closest face by more than the constraint tolerance moves to
    /// the closest face. Returns how many changed: the step is solved again
    /// until none does.
    pub fn settle_states(&mut self) -> usize {
        let mut changed = 0;
        for (k, ev) in self.evals.iter().enumerate() {
            if ev.active && self.spec.friction > 0.0 && ev.trial_slip != ev.slip {
                self.slip_lock[k] = Some(ev.trial_slip);
                changed += 1;
            }
            if self.face_excess[k] > self.tol_abs && self.face_switches[k] < MAX_FACE_SWITCHES {
                self.face_lock[k] = self.chosen[k];
                self.face_excess[k] = 0.0;
                self.face_switches[k] += 1;
                changed += 1;
            }
        }
        changed
    }

    /// Resets the multipliers at the start of a step's first augmentation for
    /// points not in contact, keeping warm starts of persistent contacts.
    pub fn begin_step(&mut self, dt: f64) {
        (self.eps_n, self.eps_t) = default_penalties(&self.spec, self.bulk, self.inertia, dt);
        self.slip_lock.iter_mut().for_each(|l| *l = None);
        self.face_lock.iter_mut().for_each(|l| *l = None);
        self.face_excess.iter_mut().for_each(|e| *e = 0.0);
        self.face_switches.iter_mut().for_each(|e| *e = 0);
        self.zeroed.iter_mut().for_each(|z| *z = 0);
        self.guarded.iter_mut().for_each(|g| *g = false);
        for st in &mut self.state {
            if !st.in_contact {
                st.lambda_n = 0.0;
                st.lambda_t = [0.0; 3];
            }
        }
    }

    /// Accepts the step: the contact state at `n+1` becomes "in contact at n".
    pub fn commit(&mut self) {
        for (st, ev) in self.state.iter_mut().zip(&self.evals) {
            st.in_contact = ev.active && ev.case.enforces();
            if !st.in_contact {
                st.lambda_n = 0.0;
                st.lambda_t = [0.0; 3];
            }
        }
    }

    /// The velocity-update data of each active point (DESIGN §6): the nodes,
    /// `w j G_A` at the `n+1` geometry, and `c = Δt w j (p v_N + t·v_T + D)`.
    pub fn update_terms<const D: usize>(&self, x1: &[f64], dt: f64) -> Vec<UpdatePoint> {
        let mut out = Vec::new();
        let mut nodes = [0usize; MAX_NODES];
        let mut l1 = [[0.0; 3]; MAX_NODES];
        for (k, ev) in self.evals.iter().enumerate() {
            if !ev.active {
                continue;
            }
            let n = self.element_nodes(k, ev.face, &mut nodes);
            for a in 0..n {
                l1[a] = node_x(x1, nodes[a], D);
            }
            // The evaluation that made this point active computed the same
            // kinematics; should it fail here, the point gets no impulse
            // direction and its c is reported as update defect, not dropped.
            let g = match self.kinematics(ev.face, l1[0], &l1[1..n], END_SLACK) {
                Ok(k1) => k1.nodal_forces(ev.p, ev.t),
                Err(_) => [[0.0; 3]; MAX_NODES],
            };
            let mut wg = [[0.0; 3]; MAX_NODES];
            for a in 0..n {
                for i in 0..3 {
                    wg[a][i] = ev.weight * g[a][i];
                }
            }
            let c = dt * ev.weight * (ev.power() + ev.dissipation_rate());
            out.push(UpdatePoint {
                nodes,
                n,
                g: wg,
                c,
                new_contact: ev.case == NormalCase::New,
            });
        }
        out
    }
}

/// One point's data for the velocity update.
#[derive(Debug, Clone, Copy)]
pub struct UpdatePoint {
    pub nodes: [usize; MAX_NODES],
    pub n: usize,
    /// `w j G_A` at `n+1`.
    pub g: [[f64; 3]; MAX_NODES],
    /// `c^l` of eq. 75 (our sign): `Δt w j (p v_N + t·v_T + D)`.
    pub c: f64,
    /// The gap closed in this step (Table 1, new contact): the update may bounce.
    pub new_contact: bool,
}
