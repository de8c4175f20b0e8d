//! One contact point at the current iterate: a slave node against its master
//! face (or the rigid plane), evaluated as Love & Laursen 2003 §3.2–3.3 do,
//! and its exact linearization.
//!
//! [`kinematics`] gives, for any scalar (see [`Real`]): the gap `g_{n+1}` at
//! the end of the step; the objective midpoint rates `v_N = N_A·Δx_A/Δt`,
//! `v^α_T = D^α_A·Δx_A/Δt` (eqs. 51–52) with the operators at
//! `x_{n+½}`; an orthonormal tangent frame `e_i` of the midpoint face (Gram–
//! Schmidt on `τ_α`); and in that frame the point's velocities `u` (see
//! [`super::law`]) and force operator `H`:
//!
//! ```text
//! H_N,A = N_A,   H_Ti,A = (e_i·τ_α) D^α_A,   u_Ti = H_Ti,A·Δx_A/Δt = v_T·e_i
//! ```
//!
//! so that the contact force on node `A` is `f_A = Σ_k r_k H_k,A` for the
//! point's force vector `r = w j [p_N, t·e_1, t·e_2]` (eq. 56: `t_α D^α_A` with
//! `t_α = t·τ_α`), and its power `f·Δx/Δt = r·u` for a persistent point.
//!
//! [`linearize`] evaluates it once in dual numbers seeded on the end-of-step
//! positions of the point's nodes: the velocities `u`, their Jacobian
//! `B = ∂u/∂x_{n+1}`, the operator `H`, the force and its Jacobian `∂f/∂x_{n+1}`
//! (for fixed multipliers this is the geometric stiffness of the contact
//! force; for the penalty law it includes the law's own derivative). The
//! tangent is exact to round-off: no finite difference, no frozen case.
//! [`linearize_fd`] is the central difference of the same function, kept for
//! checking (`tangent = "finite-difference"`).

use super::geometry::real::{Dual, Real};
use super::geometry::vec3::{axpy, cst, dot, norm, scale, sub, Vec3};
use super::geometry::{
    project, project_unclamped, GeometryError, Kinematics, Location, MAX_FACE_NODES, MAX_NODES,
};
use super::law::{penalty, Constraint};
use super::narrow::{beside_rim, Narrow};
use super::rigid::Pose;
use super::surface::{Master, Surface};
use crate::fe::ElementKind;

/// Most end-of-step coordinates one contact point depends on (slave + quad9).
pub const MAX_DOFS: usize = 3 * MAX_NODES;

/// Dual numbers of this many derivatives linearize points of at most this
/// many coordinates (a slave on a first-order face: at most 3·5); larger
/// elements (second-order faces) take [`MAX_DOFS`]. The cost of a dual
/// operation grows with its length, and first-order contact should not pay
/// for the largest face.
const FIRST_ORDER_DOFS: usize = 15;

/// How far (parametric units) beyond its edges a face is extended: at the end
/// of the step, where the face is the slave's closest (or the held one,
/// within `FACE_SLACK·h` of it), and at the midpoint, which lies up to half a
/// step's tangential travel away.
const END_SLACK: f64 = 0.25;
const MID_SLACK: f64 = 1.0;

/// What fixes one point's evaluation besides the positions.
#[derive(Clone, Copy)]
pub struct PointSetup<'a> {
    pub surface: &'a Surface,
    pub narrow: &'a Narrow,
    /// Master face (`None` for the rigid plane).
    pub face: Option<usize>,
    pub constraint: Constraint,
    pub dt: f64,
}

/// The point at one configuration (module docs); arrays beyond `n` nodes and
/// `nt` tangents are zero.
#[derive(Debug, Clone, Copy)]
pub struct PointKin<T: Real> {
    pub n: usize,
    pub nt: usize,
    /// The slave is behind the surface beyond its rim: open whatever its gap.
    pub beside: bool,
    pub g1: T,
    pub v_n: T,
    /// Contravariant midpoint slip rates `v^α_T`.
    pub v_t: [T; 2],
    /// `[u_N, u_T1, u_T2]` (see [`super::law`]).
    pub u: [T; 3],
    /// `H_k,A` for `k = N, T1, T2` and the element's nodes (slave first).
    pub h: [[Vec3<T>; MAX_NODES]; 3],
    /// The frame `e_i` and `e_i·τ_α` at the midpoint.
    pub e: [Vec3<T>; 2],
    pub e_tau: [[T; 2]; 2],
    /// End-of-step location of the closest point on the face.
    pub location: Location,
}

/// Whether `xi` lies in the reference face enlarged by `slack`.
fn within_face(kind: ElementKind, xi: [f64; 2], slack: f64) -> bool {
    match kind.linear() {
        ElementKind::Line2 => xi[0].abs() <= 1.0 + slack,
        ElementKind::Tri3 => xi[0] >= -slack && xi[1] >= -slack && xi[0] + xi[1] <= 1.0 + slack,
        _ => xi[0].abs() <= 1.0 + slack && xi[1].abs() <= 1.0 + slack,
    }
}

/// Kinematics against a rigid plane: `N_s = ν`, `D^α_s = τ_α` (orthonormal).
fn plane_kinematics<T: Real>(
    point: [f64; 3],
    normal: [f64; 3],
    tangents: &[[f64; 3]; 2],
    xs: [T; 3],
    dim: usize,
) -> Kinematics<T> {
    let one = T::cst(1.0);
    let s = sub(xs, cst(point));
    let nu = cst(normal);
    let t = [cst(tangents[0]), cst(tangents[1])];
    super::rigid::slave_kinematics(s, nu, dot(s, nu), t, [one, one], dim)
}

/// Kinematics of the element positions `x` (slave first) against the point's
/// master, the face extended by `slack` where the slave is not over it.
fn kinematics_at<T: Real>(
    setup: &PointSetup,
    x: &[[T; 3]],
    slack: f64,
    pose: Pose,
) -> Result<Kinematics<T>, GeometryError> {
    let s = setup.surface;
    match (&s.master, setup.face) {
        (
            Master::Plane {
                point,
                normal,
                tangents,
            },
            _,
        ) => Ok(plane_kinematics(*point, *normal, tangents, x[0], s.dim)),
        (Master::Faces(faces), Some(f)) => {
            let e = &faces[f];
            let n = x.len();
            let mut xf = [[0.0; 3]; MAX_FACE_NODES];
            for (a, p) in x[1..n].iter().enumerate() {
                xf[a] = [p[0].re(), p[1].re(), p[2].re()];
            }
            let xs = [x[0][0].re(), x[0][1].re(), x[0][2].re()];
            let mut proj = project(e.kind, &xf[..n - 1], xs);
            if proj.location != Location::Interior {
                // A slave within `slack` of the face projects onto the face
                // extended beyond its edges: the clamped rule ν = ±s/|s| is
                // round-off when |s| → 0 (a slave touching the surface at an
                // edge) and tilts the normal of a slave that has just moved
                // past the edge, while the extended face keeps s = g ν exactly
                // (so the momentum identities still hold).
                let pu = project_unclamped(e.kind, &xf[..n - 1], xs, proj.xi);
                if within_face(e.kind, pu.xi, slack) {
                    proj = pu;
                }
            }
            Kinematics::new(
                e.kind,
                &x[1..n],
                x[0],
                &proj,
                setup.narrow.hint(e, proj.location),
            )
        }
        (Master::Rigid(r), _) => r.kinematics(x[0], pose),
        (Master::Faces(_), None) => unreachable!("a face is chosen before kinematics"),
    }
}

/// The kinematics at the end-of-step positions `x1` (slave first), as the
/// point's evaluation takes them (the velocity update's `n+1` geometry).
pub fn end_kinematics(setup: &PointSetup, x1: &[[f64; 3]]) -> Result<Kinematics, GeometryError> {
    kinematics_at(setup, x1, END_SLACK, Pose::End)
}

/// The point at end-of-step positions `x1` (module docs); `x0` are the
/// positions at `t_n`, both slave first.
pub fn kinematics<T: Real>(
    setup: &PointSetup,
    x0: &[[f64; 3]],
    x1: &[[T; 3]],
) -> Result<PointKin<T>, GeometryError> {
    let n = x0.len();
    let dt = setup.dt;
    let z = T::zero();
    let mut xm = [[z; 3]; MAX_NODES];
    let mut w = [[z; 3]; MAX_NODES];
    for a in 0..n {
        for i in 0..3 {
            xm[a][i] = (x1[a][i] + x0[a][i]) * 0.5;
            w[a][i] = (x1[a][i] - x0[a][i]) / dt;
        }
    }
    let km = kinematics_at(setup, &xm[..n], MID_SLACK, Pose::Mid)?;
    let k1 = kinematics_at(setup, x1, END_SLACK, Pose::End)?;
    // a moving rigid master: the rates are the slave's relative to it
    if let Master::Rigid(r) = &setup.surface.master {
        let v = r.step_velocity();
        for i in 0..3 {
            w[0][i] = w[0][i] - v[i];
        }
    }
    let beside = match (&setup.surface.master, setup.face) {
        (Master::Faces(faces), Some(f)) => {
            k1.gap.re() < 0.0 && beside_rim(setup.surface, &faces[f], k1.location)
        }
        _ => false,
    };
    let nt = km.n_tangents;
    let v_n = km.normal_rate(&w[..n]);
    let v_t = km.tangential_rates(&w[..n]);
    // orthonormal frame of span(τ_1, τ_2) by Gram–Schmidt
    let t = km.tangents;
    let mut e = [[z; 3]; 2];
    e[0] = scale(t[0], T::cst(1.0) / norm(t[0]));
    if nt == 2 {
        let o = axpy(t[1], -dot(t[1], e[0]), e[0]);
        e[1] = scale(o, T::cst(1.0) / norm(o));
    }
    let mut e_tau = [[z; 2]; 2];
    for i in 0..nt {
        for al in 0..nt {
            e_tau[i][al] = dot(e[i], t[al]);
        }
    }
    let mut h = [[[z; 3]; MAX_NODES]; 3];
    let mut u = [z; 3];
    u[0] = setup.constraint.normal_velocity(k1.gap, v_n, dt);
    for a in 0..n {
        h[0][a] = km.n_op[a];
    }
    for i in 0..nt {
        for al in 0..nt {
            u[1 + i] += e_tau[i][al] * v_t[al];
            for a in 0..n {
                h[1 + i][a] = axpy(h[1 + i][a], e_tau[i][al], km.d_op[al][a]);
            }
        }
    }
    Ok(PointKin {
        n,
        nt,
        beside,
        g1: k1.gap,
        v_n,
        v_t,
        u,
        h,
        e,
        e_tau,
        location: k1.location,
    })
}

/// How the point's force follows from its velocities in a linearization.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ForceLaw {
    /// A given force vector `r` (multipliers of exact or augmented-Lagrangian
    /// enforcement): the Jacobian is the geometric stiffness.
    Given([f64; 3]),
    /// The penalty law [`penalty`] with `ρ_N`, `ρ_T` (force per velocity,
    /// `w j ε Δt`) and `μ`.
    Penalty { rho_n: f64, rho_t: f64, mu: f64 },
}

/// The values and exact first derivatives of one point (module docs).
/// Element dofs are numbered `a·D + i` (node `a` slave first, component `i`).
#[derive(Debug, Clone)]
pub struct Linear {
    pub n: usize,
    pub nt: usize,
    pub beside: bool,
    pub g1: f64,
    pub v_n: f64,
    pub v_t: [f64; 2],
    pub u: [f64; 3],
    /// `B = ∂u/∂x_{n+1}`.
    pub b: [[f64; MAX_DOFS]; 3],
    /// `H` (values).
    pub h: [[f64; MAX_DOFS]; 3],
    pub e: [[f64; 3]; 2],
    pub e_tau: [[f64; 2]; 2],
    /// The force vector the force was computed with.
    pub r: [f64; 3],
    /// Nodal force `f = Σ r_k H_k` and its Jacobian `∂f/∂x_{n+1}` (`[row][col]`).
    pub force: [f64; MAX_DOFS],
    pub k: [[f64; MAX_DOFS]; MAX_DOFS],
    /// `∂r/∂x_{n+1}` (zero for a given `r`): with it the tangent splits into
    /// the law's part `Σ_k H_k ⊗ ∂r_k/∂x` and the geometric rest.
    pub dr: [[f64; MAX_DOFS]; 3],
}

impl Linear {
    /// The law's part of the force Jacobian, `Σ_k H_k[row] ∂r_k/∂x[col]`
    /// (the geometric stiffness `Σ_k r_k ∂H_k/∂x` left out).
    pub fn law_tangent(&self, row: usize, col: usize) -> f64 {
        (0..3).map(|k| self.h[k][row] * self.dr[k][col]).sum()
    }
}

impl Default for Linear {
    fn default() -> Self {
        Linear {
            n: 0,
            nt: 0,
            beside: false,
            g1: f64::INFINITY,
            v_n: 0.0,
            v_t: [0.0; 2],
            u: [0.0; 3],
            b: [[0.0; MAX_DOFS]; 3],
            h: [[0.0; MAX_DOFS]; 3],
            e: [[0.0; 3]; 2],
            e_tau: [[0.0; 2]; 2],
            r: [0.0; 3],
            force: [0.0; MAX_DOFS],
            k: [[0.0; MAX_DOFS]; MAX_DOFS],
            dr: [[0.0; MAX_DOFS]; 3],
        }
    }
}

/// The force vector and the nodal force of a point for `law`.
fn force<T: Real, const D: usize>(kin: &PointKin<T>, law: ForceLaw) -> ([T; 3], [T; MAX_DOFS]) {
    let r = match law {
        ForceLaw::Given(r) => [T::cst(r[0]), T::cst(r[1]), T::cst(r[2])],
        ForceLaw::Penalty { rho_n, rho_t, mu } => penalty(kin.u, rho_n, rho_t, mu, kin.nt),
    };
    let mut f = [T::zero(); MAX_DOFS];
    for a in 0..kin.n {
        for i in 0..D {
            for (k, rk) in r.iter().enumerate().take(1 + kin.nt) {
                f[a * D + i] += *rk * kin.h[k][a][i];
            }
        }
    }
    (r, f)
}

/// Evaluates the point at `x1` in dual numbers and stores values and exact
/// Jacobians in `out` (module docs).
pub fn linearize<const D: usize>(
    setup: &PointSetup,
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    law: ForceLaw,
    out: &mut Linear,
) -> Result<(), GeometryError> {
    if x0.len() * D <= FIRST_ORDER_DOFS {
        linearize_in::<D, FIRST_ORDER_DOFS>(setup, x0, x1, law, out)
    } else {
        linearize_in::<D, MAX_DOFS>(setup, x0, x1, law, out)
    }
}

/// [`linearize`] in dual numbers of `N ≥ n·D` derivatives.
fn linearize_in<const D: usize, const N: usize>(
    setup: &PointSetup,
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    law: ForceLaw,
    out: &mut Linear,
) -> Result<(), GeometryError> {
    let n = x0.len();
    let mut xd = [[Dual::<N>::cst(0.0); 3]; MAX_NODES];
    for a in 0..n {
        for i in 0..3 {
            xd[a][i] = if i < D {
                Dual::<N>::var(x1[a][i], a * D + i)
            } else {
                Dual::<N>::cst(x1[a][i])
            };
        }
    }
    let kin = kinematics(setup, x0, &xd[..n])?;
    let (r, f) = force::<Dual<N>, D>(&kin, law);
    let nd = n * D;
    out.n = n;
    out.nt = kin.nt;
    out.beside = kin.beside;
    out.g1 = kin.g1.v;
    out.v_n = kin.v_n.v;
    out.v_t = [kin.v_t[0].v, kin.v_t[1].v];
    let copy = |d: &[f64; N], to: &mut [f64; MAX_DOFS]| {
        to[..N].copy_from_slice(d);
        to[N..].iter_mut().for_each(|v| *v = 0.0);
    };
    for k in 0..3 {
        out.u[k] = kin.u[k].v;
        out.r[k] = r[k].v;
        copy(&r[k].d, &mut out.dr[k]);
        copy(&kin.u[k].d, &mut out.b[k]);
        for a in 0..n {
            for i in 0..D {
                out.h[k][a * D + i] = kin.h[k][a][i].v;
            }
        }
        out.h[k][nd..].iter_mut().for_each(|v| *v = 0.0);
    }
    for i in 0..2 {
        out.e[i] = [kin.e[i][0].v, kin.e[i][1].v, kin.e[i][2].v];
        out.e_tau[i] = [kin.e_tau[i][0].v, kin.e_tau[i][1].v];
    }
    for row in 0..MAX_DOFS {
        out.force[row] = f[row].v;
        copy(&f[row].d, &mut out.k[row]);
    }
    Ok(())
}

/// As [`linearize`], with the Jacobians by central differences of the `f64`
/// evaluation (step `1e-7·h`): the check of the exact tangent, and a debug
/// option. A difference across a kink of the law or the projection is wrong
/// there; the exact one is not.
pub fn linearize_fd<const D: usize>(
    setup: &PointSetup,
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    law: ForceLaw,
    out: &mut Linear,
) -> Result<(), GeometryError> {
    linearize::<D>(setup, x0, x1, law, out)?;
    let n = x0.len();
    let step = 1e-7 * setup.surface.h;
    let mut xp = [[0.0; 3]; MAX_NODES];
    xp[..n].copy_from_slice(x1);
    for a in 0..n {
        for j in 0..D {
            let col = a * D + j;
            let x = xp[a][j];
            xp[a][j] = x + step;
            let kp = kinematics(setup, x0, &xp[..n])?;
            let (_, fp) = force::<f64, D>(&kp, law);
            xp[a][j] = x - step;
            let km = kinematics(setup, x0, &xp[..n])?;
            let (_, fm) = force::<f64, D>(&km, law);
            xp[a][j] = x;
            for row in 0..MAX_DOFS {
                out.k[row][col] = (fp[row] - fm[row]) / (2.0 * step);
            }
            for k in 0..3 {
                out.b[k][col] = (kp.u[k] - km.u[k]) / (2.0 * step);
            }
        }
    }
    Ok(())
}
