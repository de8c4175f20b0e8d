//! Node-to-segment contact kinematics at a projection: the projection operator
//! `P_A`, separation `s`, normal `ν`, gap `g`, tangents `τ_α`, metrics
//! `m_αβ`, `A_αβ` and the operators `N_A`, `D^α_A`
//! (Love & Laursen 2003, §3.2, eqs. 43–52; DESIGN §5, in this code's gap sign).
//!
//! With the slave node first and the master face's nodes after it:
//!
//! ```text
//! P_s = 1, P_A = −N_A(ξ̄), P_{A,α} = −N_{A,α}(ξ̄)   (slave: P_{s,α} = 0)   (seed 44–45)
//! s   = Σ P_A x_A = x_s − x_m(ξ̄)
//! τ_α = −Σ P_{A,α} x_A = x_{m,α}                                         (seed 47)
//! m_αβ = τ_α·τ_β,  A_αβ = m_αβ − g ν·x_{m,αβ}                            (seed 43)
//! N_A = P_A ν,     D^α_A = A^{αβ} (τ_β P_A − g ν P_{A,β})                (seed 43)
//! v_N = Σ N_A·w_A,  v^α_T = Σ D^α_A·w_A                                  (seed 51–52)
//! ```
//!
//! The momentum identities (seed eqs. 59–60 and 64–66)
//! `Σ N_A = 0`, `Σ D^α_A = 0`, `Σ N_A × x_A = ν × s = 0`,
//! `Σ D^α_A × x_A = A^{αβ}(τ_β × s + g ν × τ_β) = 0` hold because `Σ P_A = 0`,
//! `Σ P_{A,α} = 0`, and because `ν` is parallel to `s` (to round-off):
//!
//! * interior projection: `ν = n`, `n` the face's unit outward normal at `ξ̄`.
//!   There `s ∥ n` up to the projection's round-off (`τ_α·s = 0` defines `ξ̄`),
//!   so the identities hold to that round-off, and unlike `s/|s|` the face
//!   normal carries no cancellation error when `|s| → 0` (a point in
//!   persistent contact has `|s| ~ 10⁻⁶ h`, where `s/|s|` is noisy at
//!   `ulp(x)/|s| ~ 10⁻¹⁰`, enough to stall Newton);
//! * edge or vertex projection: `ν = sign(n_ref·s) s/|s|`, `n_ref` the caller's
//!   averaged neighbour normal (the hint) or else the face normal; when
//!   `|s| ≤ 10⁻¹³ h` `ν = n_ref`, which leaves an identity
//!   defect `≤ |s|`. The normal then jumps as the slave passes the edge
//!   (DESIGN §5).
//!
//! The seed's eqs. 46 and 48 define `ν` from `s` itself (`ν ∥ s`,
//! `|g| = |s|`); at an interior projection that is the face normal, which is
//! what is used there, and at edges and vertices the face normal (or the
//! hint) only fixes which of `±s/|s|` is "outward", i.e. the sign of `g`.
//!
//! `A_αβ` is the Hessian of `½|x_s − x_m(ξ)|²` at `ξ̄`, so `D^α_A · ẋ_A` is
//! the rate `dξ̄^α/dt` of the convected coordinate at an interior projection.

use super::real::Real;
use super::shape::{edge_nodes, eval, has_curvature, second_derivative, tangent, MAX_FACE_NODES};
use super::vec3::{axpy, cross, cst, dot, norm, scale, sub, Vec3};
use super::{check_face, GeometryError, Location, Projection};
use crate::fe::ElementKind;

/// Most nodes in one contact element: the slave plus a quad9 face.
pub const MAX_NODES: usize = 1 + MAX_FACE_NODES;

/// The contact kinematics of one slave node against one master face at a
/// projection `ξ̄`. Fixed-size arrays: entries beyond [`Kinematics::n_nodes`]
/// nodes and [`Kinematics::n_tangents`] tangents are zero.
///
/// Generic over the scalar (see [`Real`]): with dual numbers seeded on the
/// node positions every field carries its exact derivative, the projection
/// `ξ̄` included (implicit-function theorem, [`Kinematics::new`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kinematics<T: Real = f64> {
    /// Master face kind.
    pub kind: ElementKind,
    /// 1 + number of face nodes (3 for line2, 4 for tri3, 5 for quad4, …,
    /// 10 for quad9).
    pub n_nodes: usize,
    /// Number of tangents / parametric coordinates (1 in 2D, 2 in 3D).
    pub n_tangents: usize,
    /// `ξ̄`.
    pub xi: [T; 2],
    /// Where `ξ̄` lies on the face.
    pub location: Location,
    /// `P_A` (slave first).
    pub p: [T; MAX_NODES],
    /// `P_{A,α}`.
    pub dp: [[T; 2]; MAX_NODES],
    /// Separation `s = Σ P_A x_A = x_s − x_m(ξ̄)`.
    pub s: Vec3<T>,
    /// Contact normal `ν` (unit; outward from the master; `s = g ν`).
    pub normal: Vec3<T>,
    /// The face's own unit outward normal at `ξ̄`.
    pub face_normal: Vec3<T>,
    /// Gap `g = ν·s` (`≥ 0` separated, `< 0` penetrated).
    pub gap: T,
    /// Covariant tangents `τ_α = x_{m,α}(ξ̄)`.
    pub tangents: [Vec3<T>; 2],
    /// `m_αβ = τ_α·τ_β`.
    pub metric: [[T; 2]; 2],
    /// `m^{αβ}`.
    pub metric_inv: [[T; 2]; 2],
    /// `A_αβ = m_αβ − g ν·x_{m,αβ}`.
    pub a: [[T; 2]; 2],
    /// `A^{αβ}`.
    pub a_inv: [[T; 2]; 2],
    /// `N_A = P_A ν`.
    pub n_op: [Vec3<T>; MAX_NODES],
    /// `D^α_A` (indexed `[α][A]`).
    pub d_op: [[Vec3<T>; MAX_NODES]; 2],
}

/// Inverse and determinant of the leading `n×n` (n = 1, 2) block.
fn inverse<T: Real>(m: [[T; 2]; 2], n: usize) -> ([[T; 2]; 2], T) {
    let z = T::zero();
    if n == 1 {
        ([[T::cst(1.0) / m[0][0], z], [z, z]], m[0][0])
    } else {
        let det = m[0][0] * m[1][1] - m[0][1] * m[1][0];
        (
            [
                [m[1][1] / det, -m[0][1] / det],
                [-m[1][0] / det, m[0][0] / det],
            ],
            det,
        )
    }
}

/// `ξ̄` as a function of the node positions: the projection's value, plus
/// (for dual numbers) the derivative of the closest point by the
/// implicit-function theorem. At an interior (or extended-face) projection
/// `F_α(ξ) = τ_α(ξ)·(x_s − x_m(ξ)) = 0` with `∂F/∂ξ = −A`, so
/// `dξ̄ = A⁻¹ ∂F/∂x dx`: one Newton correction `A⁻¹F(ξ̄)` evaluated in dual
/// numbers, whose value (the projection's round-off) is dropped. On an edge
/// the closest point is the straight edge's `t = d·(x_s − x_a)/d·d`; at a
/// vertex `ξ̄` is fixed.
fn projection_xi<T: Real>(
    kind: ElementKind,
    master: &[[T; 3]],
    xs: [T; 3],
    proj: &Projection,
    n_tangents: usize,
) -> [T; 2] {
    let mut xi = [T::cst(proj.xi[0]), T::cst(proj.xi[1])];
    if !T::HAS_DERIVATIVES {
        return xi;
    }
    match proj.location {
        Location::Vertex(_) => {}
        Location::Edge(k) if kind.order() == 1 => {
            let n = kind.n_nodes();
            let (a, b) = (master[k as usize], master[(k as usize + 1) % n]);
            let d = sub(b, a);
            let f = dot(d, sub(xs, a)) / dot(d, d);
            let dt = f - f.re();
            let va = super::shape::vertex_xi(kind, k as usize);
            let vb = super::shape::vertex_xi(kind, (k as usize + 1) % n);
            for al in 0..n_tangents {
                xi[al] += dt * (vb[al] - va[al]);
            }
        }
        Location::Edge(k) => {
            // A curved edge: the parabola x(η) of its corners (η = ∓1) and
            // midside node (η = 0), η̄ with F(η) = x'·(x_s − x) = 0, so
            // dη̄ = F_x dx / (x'·x' − x''·s): one Newton correction in duals.
            let (e, _) = edge_nodes(kind, k as usize);
            let (pa, pb, pm) = (master[e[0]], master[e[1]], master[e[2]]);
            let va = super::shape::vertex_xi(kind, e[0]);
            let vb = super::shape::vertex_xi(kind, e[1]);
            // η from the face parameter: ξ = va + (η + 1)/2 (vb − va)
            let al = if (vb[0] - va[0]).abs() > (vb[1] - va[1]).abs() {
                0
            } else {
                1
            };
            let eta = 2.0 * (proj.xi[al] - va[al]) / (vb[al] - va[al]) - 1.0;
            let c1 = scale(sub(pb, pa), T::cst(0.5));
            let c2 = sub(scale(axpy(pa, T::cst(1.0), pb), T::cst(0.5)), pm);
            let x = axpy(axpy(pm, T::cst(eta), c1), T::cst(eta * eta), c2);
            let dx = axpy(c1, T::cst(2.0 * eta), c2);
            let s = sub(xs, x);
            let jac = dot(dx, dx) - dot(scale(c2, T::cst(2.0)), s);
            let d = dot(dx, s) / jac;
            let deta = d - d.re();
            for be in 0..n_tangents {
                xi[be] += deta * (0.5 * (vb[be] - va[be]));
            }
        }
        Location::Interior => {
            let sh = eval(kind, xi);
            let xm = super::shape::interpolate(&sh, master);
            let s = sub(xs, xm);
            let mut f = [T::zero(); 2];
            let mut m = [[0.0; 2]; 2];
            let mut t = [[T::zero(); 3]; 2];
            for al in 0..n_tangents {
                t[al] = tangent(&sh, master, al);
                f[al] = dot(t[al], s);
            }
            for al in 0..n_tangents {
                for be in 0..n_tangents {
                    m[al][be] = dot(t[al], t[be]).re();
                }
            }
            if has_curvature(kind) {
                for al in 0..n_tangents {
                    for be in 0..n_tangents {
                        m[al][be] -= dot(s, second_derivative(&sh, master, al, be)).re();
                    }
                }
            }
            let (a_inv, _) = inverse(m, n_tangents);
            for al in 0..n_tangents {
                let mut d = T::zero();
                for be in 0..n_tangents {
                    d += f[be] * a_inv[al][be];
                }
                xi[al] += d - d.re();
            }
        }
    }
    xi
}

impl<T: Real> Kinematics<T> {
    /// Kinematics of slave point `xs` against the face (`kind`, `master`) at the
    /// projection `proj` (from [`project`](super::project()) with the values of
    /// the same arguments).
    ///
    /// `normal_hint`: optional averaged outward normal of the faces sharing the
    /// edge or vertex; it only sets the sign (and, for `|s| ≈ 0`, the direction)
    /// of `ν` at edge and vertex projections. Errors: degenerate face, or a
    /// singular `A_αβ` (slave at a focal point of a warped quad).
    /// Panics on a non-face `kind` or wrong node count (caller bugs).
    #[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a > b)` also rejects NaN
    #[track_caller]
    pub fn new(
        kind: ElementKind,
        master: &[[T; 3]],
        xs: [T; 3],
        proj: &Projection,
        normal_hint: Option<[f64; 3]>,
    ) -> Result<Kinematics<T>, GeometryError> {
        check_face(kind, master);
        let z = T::zero();
        let nf = kind.n_nodes();
        let n_nodes = nf + 1;
        let n_tangents = kind.ref_dim();
        let xi = projection_xi(kind, master, xs, proj, n_tangents);
        let sh = eval(kind, xi);

        // Projection operator (seed 44–45) and the slave-first node list.
        let mut p = [z; MAX_NODES];
        let mut dp = [[z; 2]; MAX_NODES];
        p[0] = T::cst(1.0);
        for a in 0..nf {
            p[a + 1] = -sh.n[a];
            dp[a + 1] = [-sh.dn[a][0], -sh.dn[a][1]];
        }
        let node = |i: usize| if i == 0 { xs } else { master[i - 1] };
        let mut s = [z; 3];
        for (i, &pi) in p.iter().enumerate().take(n_nodes) {
            s = axpy(s, pi, node(i));
        }

        // Tangents (seed 47), metric and the face normal.
        let mut tangents = [[z; 3]; 2];
        for (al, t) in tangents.iter_mut().enumerate().take(n_tangents) {
            *t = tangent(&sh, master, al);
        }
        let mut metric = [[z; 2]; 2];
        for al in 0..n_tangents {
            for be in 0..n_tangents {
                metric[al][be] = dot(tangents[al], tangents[be]);
            }
        }
        let (metric_inv, det_m) = inverse(metric, n_tangents);
        let trace = (metric[0][0] + metric[1][1]).re();
        let raw_n = if n_tangents == 1 {
            [tangents[0][1], -tangents[0][0], z]
        } else {
            cross(tangents[0], tangents[1])
        };
        let ln = norm(raw_n);
        if !(det_m.re() > 1e-24 * trace.powi(n_tangents as i32)) || !(ln.re() > 0.0) {
            return Err(GeometryError::DegenerateFace {
                kind,
                det: det_m.re(),
            });
        }
        let face_normal = scale(raw_n, T::cst(1.0) / ln);

        // Contact normal parallel to s (DESIGN §5; seed 46).
        let sn = norm(s);
        let size = (1..nf)
            .map(|a| norm(sub(master[a], master[0])).re())
            .fold(0.0, f64::max);
        let normal = match proj.location {
            // At an interior projection s ∥ n up to the projection's round-off,
            // so ν = n keeps the identities to that round-off, while s/|s| would
            // carry the cancellation error of s = x_s − x_m (≈ ulp(x)/|s|): in
            // persistent contact |s| ~ 1e-6 h and that noise, times the
            // pressure, put a floor of ~1e-9 relative under Newton's residual.
            Location::Interior => face_normal,
            Location::Edge(_) | Location::Vertex(_) => {
                let n_ref = match normal_hint {
                    Some(h) if norm(h) > 0.0 => cst(scale(h, 1.0 / norm(h))),
                    _ => face_normal,
                };
                if sn.re() > 1e-13 * size {
                    let sg = if dot(n_ref, s).re() >= 0.0 { 1.0 } else { -1.0 };
                    scale(s, T::cst(sg) / sn)
                } else {
                    n_ref
                }
            }
        };
        let gap = dot(normal, s);

        // Curvature-corrected metric A_αβ (seed 43, gap sign translated).
        let mut a = metric;
        if has_curvature(kind) {
            for al in 0..n_tangents {
                for be in 0..n_tangents {
                    let x_ab = second_derivative(&sh, master, al, be);
                    a[al][be] -= gap * dot(normal, x_ab);
                }
            }
        }
        let (a_inv, det_a) = inverse(a, n_tangents);
        if !(det_a.re().abs() > 1e-12 * det_m.re()) {
            return Err(GeometryError::SingularMetric {
                gap: gap.re(),
                det: det_a.re(),
            });
        }

        // Operators N_A and D^α_A (seed 43).
        let mut n_op = [[z; 3]; MAX_NODES];
        let mut d_op = [[[z; 3]; MAX_NODES]; 2];
        for i in 0..n_nodes {
            n_op[i] = scale(normal, p[i]);
            for be in 0..n_tangents {
                // τ_β P_A − g ν P_{A,β}
                let v = axpy(scale(tangents[be], p[i]), -(gap * dp[i][be]), normal);
                for al in 0..n_tangents {
                    d_op[al][i] = axpy(d_op[al][i], a_inv[al][be], v);
                }
            }
        }

        Ok(Kinematics {
            kind,
            n_nodes,
            n_tangents,
            xi,
            location: proj.location,
            p,
            dp,
            s,
            normal,
            face_normal,
            gap,
            tangents,
            metric,
            metric_inv,
            a,
            a_inv,
            n_op,
            d_op,
        })
    }

    /// Normal rate `v_N = Σ_A N_A·w_A` (seed 51, sign translated: negative while
    /// approaching). `w`: one vector per node, slave first (e.g. `Δx/Δt`).
    #[track_caller]
    pub fn normal_rate(&self, w: &[[T; 3]]) -> T {
        assert_eq!(w.len(), self.n_nodes, "one vector per contact node");
        let mut v = T::zero();
        for (i, wi) in w.iter().enumerate() {
            v += dot(self.n_op[i], *wi);
        }
        v
    }

    /// Tangential (convected) rates `v^α_T = Σ_A D^α_A·w_A` (seed 52);
    /// `[v^1, 0]` in 2D.
    #[track_caller]
    pub fn tangential_rates(&self, w: &[[T; 3]]) -> [T; 2] {
        assert_eq!(w.len(), self.n_nodes, "one vector per contact node");
        let mut v = [T::zero(); 2];
        for (al, va) in v.iter_mut().enumerate().take(self.n_tangents) {
            for (i, wi) in w.iter().enumerate() {
                *va += dot(self.d_op[al][i], *wi);
            }
        }
        v
    }

    /// Slip speed `‖v_T‖ = √(m_αβ v^α v^β)` of contravariant rates `v`.
    pub fn slip_speed(&self, v: [T; 2]) -> T {
        let mut q = T::zero();
        for al in 0..self.n_tangents {
            for be in 0..self.n_tangents {
                q += self.metric[al][be] * v[al] * v[be];
            }
        }
        if q.re() > 0.0 {
            q.sqrt()
        } else {
            T::zero()
        }
    }

    /// Nodal contact force `G_A = p_N N_A + t_α D^α_A` (seed 42–43, 56) for a
    /// pressure `p_N ≥ 0` and covariant tangential traction components `t_α`
    /// (entries beyond `n_nodes` are zero). Multiply by `w j` to assemble.
    pub fn nodal_forces(&self, p_n: T, t: [T; 2]) -> [[T; 3]; MAX_NODES] {
        let mut g = [[T::zero(); 3]; MAX_NODES];
        for (i, gi) in g.iter_mut().enumerate().take(self.n_nodes) {
            *gi = scale(self.n_op[i], p_n);
            for al in 0..self.n_tangents {
                *gi = axpy(*gi, t[al], self.d_op[al][i]);
            }
        }
        g
    }
}
