//! The velocity update of Love & Laursen 2003, §3.3–3.5 (eqs. 55–56, 72–78,
//! 86–87; DESIGN §6), in one place: after the step converges, each pressed
//! point `l` gets the direction `w j G^l` of its force at the `n+1` geometry
//! (same magnitudes `p_N`, `t_α`), and
//!
//! ```text
//! M v^c = Σ_l κ^l w j G^l,    κ_l Σ_k A_lk κ_k + b_l κ_l + c_l = 0
//! A_lk = ½ (w j G^l)·M⁻¹(w j G^k),  b_l = (w j G^l)·(2Δx/Δt − v_n)
//! c_l  = Δt w j (p_N v_N + t_α v^α_T + D^l)
//! ```
//!
//! with `D^l` the frictional power in slip and 0 in stick: the total energy
//! changes by exactly `−Δt Σ w j D^l` (plus the defect of any equation left
//! unsolved, reported). This module assembles `A`, `b`, `c` and applies
//! `v^c`; [`roots`] chooses the roots.

mod roots;

pub use roots::{solve_impulses, Impulses, RootBounds, SparseRows};

use super::broad::node_x;
use super::geometry::MAX_NODES;
use super::law::Constraint;
use super::point::{end_kinematics, PointSetup};
use super::set::ContactSet;
use crate::linalg::LinearSolveError;

/// Gauss–Seidel sweeps of the impulse solve.
const MAX_SWEEPS: usize = 1000;

/// One point's data for the velocity update.
#[derive(Debug, Clone, Copy)]
pub struct UpdatePoint {
    pub nodes: [usize; MAX_NODES],
    pub n: usize,
    /// `w j G_A` at `n+1`.
    pub g: [[f64; 3]; MAX_NODES],
    /// `c^l` (our sign): `Δt w j (p v_N + t·v_T + D)`.
    pub c: f64,
    /// The gap was closed in this step (Table 1, new contact): the update may bounce.
    pub new_contact: bool,
}

/// How `M⁻¹` is applied: lumped mass per node, or solves with the factorized
/// consistent mass. Fixed dofs get no velocity.
pub enum MassInverse<'a> {
    Lumped(&'a [f64]),
    Consistent(&'a mut dyn FnMut(&mut [f64]) -> Result<(), LinearSolveError>),
}

/// The update points of the pairs that ask for the update: every pressed
/// point with its `n+1` force direction and `c`.
pub fn update_points<const D: usize>(set: &ContactSet, x1: &[f64], dt: f64) -> Vec<UpdatePoint> {
    let mut out = Vec::new();
    for pair in set.pairs.iter().filter(|p| p.spec.velocity_update) {
        for (k, ev) in pair.evals().enumerate() {
            if !ev.active() {
                continue;
            }
            let mut nodes = [0usize; MAX_NODES];
            let n = pair.surface.element_nodes(k, ev.face, &mut nodes);
            let mut l1 = [[0.0; 3]; MAX_NODES];
            for a in 0..n {
                l1[a] = node_x(x1, nodes[a], D);
            }
            let setup = PointSetup {
                surface: &pair.surface,
                narrow: &pair.narrow,
                face: ev.face,
                constraint: ev.constraint,
                dt,
            };
            // The evaluation that made this point active computed the same
            // kinematics; should it fail here, the point gets no impulse
            // direction and its c is reported as update defect, not dropped.
            let g = match end_kinematics(&setup, &l1[..n]) {
                Ok(k1) => k1.nodal_forces(ev.p, ev.t),
                Err(_) => [[0.0; 3]; MAX_NODES],
            };
            let mut wg = [[0.0; 3]; MAX_NODES];
            for a in 0..n {
                for i in 0..3 {
                    wg[a][i] = ev.weight * g[a][i];
                }
            }
            out.push(UpdatePoint {
                nodes,
                n,
                g: wg,
                c: dt * ev.weight * (ev.power() + ev.dissipation_rate()),
                new_contact: ev.constraint == Constraint::Gap,
            });
        }
    }
    out
}

/// What the update did.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UpdateOutcome {
    /// Energy the update could not restore (`Σ F_l(κ)`).
    pub defect: f64,
    pub points: usize,
    /// Points without an admissible root, and the slave node of the first.
    pub unsolved: usize,
    pub node: Option<usize>,
    /// `Σ_l |c_l|`: the size of the step's contact work the update balances.
    pub work: f64,
    /// The momenta the impulses add: `Σ_l κ_l Σ_A w j G^l_A` over the free
    /// dofs (and its moment at `x_{n+1}`). Between deformable bodies it is
    /// zero (`Σ_A G_A = 0`, `Σ_A x_A × G_A = 0`, DESIGN §5) except for the
    /// part a support takes (a constrained node of a contact element); on a
    /// rigid master's slave it is the master's impulse.
    pub impulse: crate::jump::Jump,
}

/// Applies the velocity update to `v1` (module docs).
pub fn apply<const D: usize>(
    set: &ContactSet,
    x1: &[f64],
    dt: f64,
    fixed: &[bool],
    minv: MassInverse,
    v1: &mut [f64],
) -> Result<UpdateOutcome, LinearSolveError> {
    let points = update_points::<D>(set, x1, dt);
    if points.is_empty() {
        return Ok(UpdateOutcome::default());
    }
    let y = mass_inverse_directions::<D>(&points, fixed, minv, v1.len())?;
    let np = points.len();
    let dot_g = |p: &UpdatePoint, yk: &[(usize, f64)]| -> f64 {
        let mut s = 0.0;
        for a in 0..p.n {
            for i in 0..D {
                let dof = p.nodes[a] * D + i;
                if let Ok(j) = yk.binary_search_by_key(&dof, |e| e.0) {
                    s += p.g[a][i] * yk[j].1;
                }
            }
        }
        s
    };
    let mut rows = vec![Vec::new(); np];
    for l in 0..np {
        for k in 0..np {
            let v = 0.5 * dot_g(&points[l], &y[k]);
            if v != 0.0 {
                rows[l].push((k, v));
            }
        }
    }
    let b: Vec<f64> = points
        .iter()
        .map(|p| {
            // the free dofs only: the update moves no other (a prescribed
            // dof's velocity is not changed by it, so it adds no energy)
            let mut s = 0.0;
            for a in 0..p.n {
                for i in 0..D {
                    let dof = p.nodes[a] * D + i;
                    if !fixed[dof] {
                        s += p.g[a][i] * v1[dof];
                    }
                }
            }
            s
        })
        .collect();
    let c: Vec<f64> = points.iter().map(|p| p.c).collect();
    let rows = SparseRows { rows };
    let new_contact: Vec<bool> = points.iter().map(|p| p.new_contact).collect();
    let bounds = RootBounds {
        min: -0.5 * dt,
        bounce: dt,
    };
    let imp = solve_impulses(&rows, &b, &c, &new_contact, bounds, MAX_SWEEPS);
    log_impulses(&points, &rows, &b, &c, &imp);
    for (l, yl) in y.iter().enumerate() {
        for &(dof, v) in yl {
            v1[dof] += imp.kappa[l] * v;
        }
    }
    let impulse = momenta::<D>(&points, &imp.kappa, fixed, x1);
    Ok(UpdateOutcome {
        defect: imp.defect,
        points: np,
        unsolved: imp.unsolved.len(),
        node: imp.unsolved.first().map(|&l| points[l].nodes[0]),
        work: c.iter().map(|v| v.abs()).sum(),
        impulse,
    })
}

/// [`UpdateOutcome::impulse`]: the impulses `κ_l w j G^l` at the free dofs.
fn momenta<const D: usize>(
    points: &[UpdatePoint],
    kappa: &[f64],
    fixed: &[bool],
    x1: &[f64],
) -> crate::jump::Jump {
    let mut out = crate::jump::Jump::default();
    for (p, &k) in points.iter().zip(kappa) {
        for a in 0..p.n {
            let node = p.nodes[a];
            let mut g = [0.0; 3];
            for i in (0..D).filter(|&i| !fixed[node * D + i]) {
                g[i] = k * p.g[a][i];
            }
            let x = node_x(x1, node, D);
            let j = [
                x[1] * g[2] - x[2] * g[1],
                x[2] * g[0] - x[0] * g[2],
                x[0] * g[1] - x[1] * g[0],
            ];
            for i in 0..3 {
                out.linear[i] += g[i];
                out.angular[i] += j[i];
            }
        }
        // the size of the point's impulse (not of its sum over the nodes,
        // which vanishes between deformable bodies)
        let g0 = p.g[0];
        out.linear_size += k.abs() * (g0[0] * g0[0] + g0[1] * g0[1] + g0[2] * g0[2]).sqrt();
    }
    out
}

/// `y_l = M⁻¹ (w j G^l)` restricted to free dofs, sparse and sorted.
fn mass_inverse_directions<const D: usize>(
    points: &[UpdatePoint],
    fixed: &[bool],
    minv: MassInverse,
    n: usize,
) -> Result<Vec<Vec<(usize, f64)>>, LinearSolveError> {
    let mut y = Vec::with_capacity(points.len());
    match minv {
        MassInverse::Consistent(solve) => {
            let mut g_full = vec![0.0; n];
            for p in points {
                g_full.iter_mut().for_each(|v| *v = 0.0);
                for a in 0..p.n {
                    for i in 0..D {
                        let dof = p.nodes[a] * D + i;
                        if !fixed[dof] {
                            g_full[dof] += p.g[a][i];
                        }
                    }
                }
                solve(&mut g_full)?;
                let yl = g_full
                    .iter()
                    .enumerate()
                    .filter(|(i, v)| **v != 0.0 && !fixed[*i])
                    .map(|(i, v)| (i, *v))
                    .collect();
                y.push(yl);
            }
        }
        MassInverse::Lumped(masses) => {
            for p in points {
                let mut yl = Vec::with_capacity(p.n * D);
                for a in 0..p.n {
                    for i in 0..D {
                        let dof = p.nodes[a] * D + i;
                        if !fixed[dof] {
                            yl.push((dof, p.g[a][i] / masses[p.nodes[a]]));
                        }
                    }
                }
                yl.sort_unstable_by_key(|e| e.0);
                y.push(yl);
            }
        }
    }
    Ok(y)
}

fn log_impulses(points: &[UpdatePoint], rows: &SparseRows, b: &[f64], c: &[f64], imp: &Impulses) {
    if !imp.settled {
        log::debug!(
            "velocity update: Gauss–Seidel did not settle in {} sweeps; defect {:.3e}",
            imp.sweeps,
            imp.defect
        );
    }
    if !imp.unsolved.is_empty() {
        log::debug!(
            "velocity update: {} point(s) without admissible root; {:.3e} of their energy taken back at other points, {:.3e} left as defect",
            imp.unsolved.len(),
            imp.redistributed,
            imp.defect
        );
    }
    if log::log_enabled!(log::Level::Trace) {
        for l in 0..points.len() {
            log::trace!(
                "velocity update: point at node {}: b = {:.3e}, c = {:.3e}, A_ll = {:.3e}, κ = {:.3e}{}",
                points[l].nodes[0],
                b[l],
                c[l],
                rows.rows[l].iter().find(|e| e.0 == l).map_or(0.0, |e| e.1),
                imp.kappa[l],
                if imp.unsolved.contains(&l) { " (no admissible root)" } else { "" }
            );
        }
    }
}
