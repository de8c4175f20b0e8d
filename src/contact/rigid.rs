//! Rigid analytic masters that may move: a plane, a sphere (a circle in 2D)
//! and a cylinder, translated by a prescribed motion `u(t)`
//! (`velocity · ∫c` or `displacement · c(t)`).
//!
//! # Kinematics
//!
//! A slave node `x_s` against the surface at translation `u` (Love & Laursen
//! 2003 §3.2 with a master of infinite mass: only the slave node carries
//! operators, `N_s = ν`, `D^α_s = A^{αβ} τ_β`):
//!
//! * plane through `p + u`, normal `ν`: `g = ν·(x_s − p − u)`, fixed
//!   orthonormal `τ_α`, `A = m = I`;
//! * sphere of centre `c + u`, radius `R`: `s = x_s − c − u`, `ν = s/|s|`,
//!   `g = |s| − R`; `τ_α` an orthonormal frame of the tangent plane at the
//!   closest point, `A_αβ = m_αβ − g ν·x_{m,αβ} = (1 + g/R) δ_αβ` (the
//!   sphere's curvature `ν·x_{m,αβ} = −δ_αβ/R`), so `D^α_s = R/|s| τ_α`;
//! * cylinder of axis `a` through `p + u`: `s` the part of `x_s − p − u`
//!   normal to `a`, `ν = s/|s|`, `g = |s| − R`, `τ_1 = a` (straight),
//!   `τ_2 = a × ν` (curvature `1/R`): `D^1_s = a`, `D^2_s = R/|s| a × ν`.
//!
//! The midpoint evaluation uses the master at `u_{n+½} = (u_n + u_{n+1})/2`
//! and the end-of-step gap the master at `u_{n+1}`. The rates are those of
//! the slave relative to the master, `w = Δx_s/Δt − Δu/Δt`: objective, and
//! `p_N v_N + t_α v^α_T` is the power of the contact force in the relative
//! motion, which the velocity update balances exactly as for a fixed master.
//!
//! # Work on the bodies
//!
//! The force on the slave nodes does the work `f_s·Δx_s = Δt w j (p_N v_N +
//! t_α v^α_T) + f_s·Δu` over the step: the first part is the contact's own
//! (zero for frictionless and sticking contact once the update has acted,
//! the frictional dissipation in slip), the second, `f_s·Δu`, is the work
//! the moving master does on the bodies ([`Rigid::step_displacement`];
//! the driver adds it to `external_work`, see `docs/ledgers.md`).
//!
//! # Tangent frame of the sphere
//!
//! No tangent frame is continuous over a whole sphere. The frame here
//! (Frisvad 2012, "Building an orthonormal basis from a 3D unit vector
//! without normalization", J. Graphics Tools 16(3)) is smooth everywhere
//! except at `ν = −pole`; the pole is the direction from the sphere's
//! centre to the centroid of its slave nodes at t = 0, so the singular
//! point faces away from the slaves. The frame only orients the friction
//! multipliers (their warm start between steps); the law is invariant.

use super::geometry::real::Real;
use super::geometry::vec3::{cross, cst, dot, norm, scale, sub, Vec3};
use super::geometry::{GeometryError, Kinematics, Location, MAX_NODES};
use crate::curve;
use crate::fe::ElementKind;
use crate::model::{RigidMotion, RigidShape, RigidSpec};

/// The kinematics of a slave node against a rigid surface (only the slave
/// carries operators: `N_s = ν`, `D^α_s = A^{αβ} τ_β`) from its separation
/// `s`, normal `ν`, gap, orthonormal tangents `τ_α` and the diagonal of
/// `A_αβ` (1 where the surface is straight).
pub(super) fn slave_kinematics<T: Real>(
    s: Vec3<T>,
    nu: Vec3<T>,
    gap: T,
    tangents: [Vec3<T>; 2],
    a_diag: [T; 2],
    dim: usize,
) -> Kinematics<T> {
    let z = T::zero();
    let one = T::cst(1.0);
    let nt = dim - 1;
    let mut metric = [[z; 2]; 2];
    let mut a = [[z; 2]; 2];
    let mut a_inv = [[z; 2]; 2];
    let mut n_op = [[z; 3]; MAX_NODES];
    let mut d_op = [[[z; 3]; MAX_NODES]; 2];
    n_op[0] = nu;
    for al in 0..nt {
        metric[al][al] = one;
        a[al][al] = a_diag[al];
        a_inv[al][al] = one / a_diag[al];
        d_op[al][0] = scale(tangents[al], a_inv[al][al]);
    }
    let mut p = [z; MAX_NODES];
    p[0] = one;
    Kinematics {
        kind: if dim == 2 {
            ElementKind::Line2
        } else {
            ElementKind::Quad4
        },
        n_nodes: 1,
        n_tangents: nt,
        xi: [z; 2],
        location: Location::Interior,
        p,
        dp: [[z; 2]; MAX_NODES],
        s,
        normal: nu,
        face_normal: nu,
        gap,
        tangents,
        metric,
        metric_inv: metric,
        a,
        a_inv,
        n_op,
        d_op,
    }
}

/// Which configuration of the step an evaluation is at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pose {
    /// `t_{n+½}`: the master at `(u_n + u_{n+1})/2`.
    Mid,
    /// `t_{n+1}`.
    End,
}

/// A rigid master and its translation over the current step.
#[derive(Debug, Clone)]
pub struct Rigid {
    pub spec: RigidSpec,
    pub dim: usize,
    /// Translation at the start and end of the current step, and its size.
    pub u0: [f64; 3],
    pub u1: [f64; 3],
    pub dt: f64,
    /// Fixed orthonormal tangents of a plane.
    plane_tangents: [[f64; 3]; 2],
    /// The sphere's frame pole and an orthonormal basis `[p1, p2, pole]`.
    frame: [[f64; 3]; 3],
}

/// An orthonormal basis `(t1, t2)` with `t1 × t2 = n` of a unit `n` in 3D
/// (in 2D `t1 = e_z × n`).
pub fn orthonormal_tangents(n: [f64; 3], dim: usize) -> [[f64; 3]; 2] {
    if dim == 2 {
        return [[-n[1], n[0], 0.0], [0.0; 3]];
    }
    let a = if n[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let c = cross(n, a);
    let l = norm(c);
    let t1 = [c[0] / l, c[1] / l, c[2] / l];
    [t1, cross(n, t1)]
}

/// The rigid surface seen from a slave point: `(s, ν, g, τ, A)`, the slave's
/// offset from the surface's reference point (or axis), the unit normal,
/// the gap, the two tangents and the diagonal of the surface metric
/// (module docs).
type SurfaceFrame<T> = (Vec3<T>, Vec3<T>, T, [Vec3<T>; 2], [T; 2]);

impl Rigid {
    /// The master of `spec`; `slaves` are the positions of its slave nodes
    /// at t = 0 (they orient the sphere's frame).
    pub fn new(spec: &RigidSpec, dim: usize, slaves: &[[f64; 3]]) -> Rigid {
        let plane_tangents = match spec.shape {
            RigidShape::Plane { normal, .. } => orthonormal_tangents(normal, dim),
            _ => [[0.0; 3]; 2],
        };
        let mut pole = [0.0, 0.0, 1.0];
        if let RigidShape::Sphere { center, .. } = spec.shape {
            let mut c = [0.0; 3];
            for p in slaves {
                (0..3).for_each(|i| c[i] += p[i] / slaves.len() as f64);
            }
            let d = sub(c, center);
            if norm(d) > 0.0 {
                pole = scale(d, 1.0 / norm(d));
            }
        }
        let [p1, p2] = orthonormal_tangents(pole, 3);
        let mut r = Rigid {
            spec: spec.clone(),
            dim,
            u0: [0.0; 3],
            u1: [0.0; 3],
            dt: 1.0,
            plane_tangents,
            frame: [p1, p2, pole],
        };
        r.set_step(0.0, 0.0);
        r
    }

    /// The translation `u(t)`.
    pub fn displacement(&self, t: f64) -> [f64; 3] {
        let c = self.spec.curve.as_ref();
        match self.spec.motion {
            RigidMotion::Fixed => [0.0; 3],
            RigidMotion::Velocity(v) => v.map(|vi| vi * curve::integral(c, t)),
            RigidMotion::Displacement(d) => d.map(|di| di * curve::value(c, t)),
        }
    }

    /// The velocity `u'(t)` (left derivative).
    pub fn velocity(&self, t: f64) -> [f64; 3] {
        let c = self.spec.curve.as_ref();
        match self.spec.motion {
            RigidMotion::Fixed => [0.0; 3],
            RigidMotion::Velocity(v) => v.map(|vi| vi * curve::value(c, t)),
            RigidMotion::Displacement(d) => d.map(|di| di * curve::slope(c, t)),
        }
    }

    /// Places the master for the step `[t0, t0 + dt]`.
    pub fn set_step(&mut self, t0: f64, dt: f64) {
        self.u0 = self.displacement(t0);
        self.u1 = self.displacement(t0 + dt);
        self.dt = if dt > 0.0 { dt } else { 1.0 };
    }

    /// `Δu = u_{n+1} − u_n` of the current step.
    pub fn step_displacement(&self) -> [f64; 3] {
        sub(self.u1, self.u0)
    }

    /// Whether the master moves at all.
    pub fn moves(&self) -> bool {
        self.spec.motion != RigidMotion::Fixed
    }

    fn offset(&self, pose: Pose) -> [f64; 3] {
        match pose {
            Pose::Mid => [0, 1, 2].map(|i| 0.5 * (self.u0[i] + self.u1[i])),
            Pose::End => self.u1,
        }
    }

    /// The master's velocity over the step, `Δu/Δt`.
    pub fn step_velocity(&self) -> [f64; 3] {
        scale(self.step_displacement(), 1.0 / self.dt)
    }

    /// Signed distance `g` of the point `x` from the surface at translation
    /// `u` and the unit normal there (toward the slave side).
    pub fn gap_at(&self, x: [f64; 3], u: [f64; 3]) -> (f64, [f64; 3]) {
        match self.spec.shape {
            RigidShape::Plane { point, normal } => (
                dot(sub(x, [0, 1, 2].map(|i| point[i] + u[i])), normal),
                normal,
            ),
            RigidShape::Sphere { center, radius } => {
                let s = sub(x, [0, 1, 2].map(|i| center[i] + u[i]));
                let r = norm(s);
                let nu = if r > 0.0 {
                    scale(s, 1.0 / r)
                } else {
                    self.frame[2]
                };
                (r - radius, nu)
            }
            RigidShape::Cylinder {
                point,
                axis,
                radius,
            } => {
                let d = sub(x, [0, 1, 2].map(|i| point[i] + u[i]));
                let s = sub(d, scale(axis, dot(d, axis)));
                let r = norm(s);
                let nu = if r > 0.0 {
                    scale(s, 1.0 / r)
                } else {
                    orthonormal_tangents(axis, 3)[0]
                };
                (r - radius, nu)
            }
        }
    }

    /// `gap_at` with the master at the end of the current step.
    pub fn gap(&self, x: [f64; 3]) -> (f64, [f64; 3]) {
        self.gap_at(x, self.u1)
    }

    /// The contact kinematics of slave position `xs` at `pose` (module docs).
    pub fn kinematics<T: Real>(
        &self,
        xs: [T; 3],
        pose: Pose,
    ) -> Result<Kinematics<T>, GeometryError> {
        let u = self.offset(pose);
        let one = T::cst(1.0);
        let (s, nu, gap, tangents, a_diag): SurfaceFrame<T> = match self.spec.shape {
            RigidShape::Plane { point, normal } => {
                let p = cst([0, 1, 2].map(|i| point[i] + u[i]));
                let s = sub(xs, p);
                let nu = cst(normal);
                let t = self.plane_tangents;
                (s, nu, dot(s, nu), [cst(t[0]), cst(t[1])], [one, one])
            }
            RigidShape::Sphere { center, radius } => {
                let s = sub(xs, cst([0, 1, 2].map(|i| center[i] + u[i])));
                let r = self.radius_of(s)?;
                let nu = scale(s, one / r);
                let tangents = self.sphere_tangents(nu);
                let k = r / radius;
                (s, nu, r - radius, tangents, [k, k])
            }
            RigidShape::Cylinder {
                point,
                axis,
                radius,
            } => {
                let d = sub(xs, cst([0, 1, 2].map(|i| point[i] + u[i])));
                let ax = cst::<T>(axis);
                let s = sub(d, scale(ax, dot(d, ax)));
                let r = self.radius_of(s)?;
                let nu = scale(s, one / r);
                (s, nu, r - radius, [ax, cross(ax, nu)], [one, r / radius])
            }
        };
        Ok(slave_kinematics(s, nu, gap, tangents, a_diag, self.dim))
    }

    /// `|s|`, refusing a slave on the axis or at the centre (no normal).
    fn radius_of<T: Real>(&self, s: Vec3<T>) -> Result<T, GeometryError> {
        let r = norm(s);
        if r.re() <= 0.0 {
            return Err(GeometryError::SingularMetric {
                gap: f64::NEG_INFINITY,
                det: 0.0,
            });
        }
        Ok(r)
    }

    /// The sphere's tangent frame at the unit normal `nu` (module docs); in
    /// 2D the circle's tangent `e_z × ν`.
    fn sphere_tangents<T: Real>(&self, nu: Vec3<T>) -> [Vec3<T>; 2] {
        let z = T::zero();
        let one = T::cst(1.0);
        if self.dim == 2 {
            return [[z - nu[1], nu[0], z], [z; 3]];
        }
        // ν in the pole's basis, Frisvad's frame there, back to space
        let [p1, p2, pole] = self.frame.map(cst::<T>);
        let (nx, ny, nz) = (dot(nu, p1), dot(nu, p2), dot(nu, pole));
        let a = one / (one + nz);
        let b = z - nx * ny * a;
        let b1 = [one - nx * nx * a, b, z - nx];
        let b2 = [b, one - ny * ny * a, z - ny];
        let back = |v: [T; 3]| -> Vec3<T> {
            [0, 1, 2].map(|i| p1[i] * v[0] + p2[i] * v[1] + pole[i] * v[2])
        };
        [back(b1), back(b2)]
    }

    /// Whether a slave at `x` moving at `v` may reach the master within the
    /// step (gap less the approach within one face size `h`).
    pub fn may_touch(&self, x: [f64; 3], v: [f64; 3], h: f64) -> bool {
        let (g, nu) = self.gap(x);
        let rel = sub(v, self.step_velocity());
        let approach = (-self.dt * dot(rel, nu)).max(0.0);
        g - approach - norm(self.step_displacement()) <= h
    }
}
