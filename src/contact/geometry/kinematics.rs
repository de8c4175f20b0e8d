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

use super::shape::{eval, second_derivative, tangent};
use super::vec3::{axpy, cross, dot, norm, scale, sub, Vec3};
use super::{check_face, GeometryError, Location, Projection};
use crate::fe::ElementKind;

/// Most nodes in one contact element: the slave plus a quad4 face.
pub const MAX_NODES: usize = 5;

/// The contact kinematics of one slave node against one master face at a
/// projection `ξ̄`. Fixed-size arrays: entries beyond [`Kinematics::n_nodes`]
/// nodes and [`Kinematics::n_tangents`] tangents are zero.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Kinematics {
    /// Master face kind.
    pub kind: ElementKind,
    /// 1 + number of face nodes (3 for line2, 4 for tri3, 5 for quad4).
    pub n_nodes: usize,
    /// Number of tangents / parametric coordinates (1 in 2D, 2 in 3D).
    pub n_tangents: usize,
    /// `ξ̄`.
    pub xi: [f64; 2],
    /// Where `ξ̄` lies on the face.
    pub location: Location,
    /// `P_A` (slave first).
    pub p: [f64; MAX_NODES],
    /// `P_{A,α}`.
    pub dp: [[f64; 2]; MAX_NODES],
    /// Separation `s = Σ P_A x_A = x_s − x_m(ξ̄)`.
    pub s: Vec3,
    /// Contact normal `ν` (unit; outward from the master; `s = g ν`).
    pub normal: Vec3,
    /// The face's own unit outward normal at `ξ̄`.
    pub face_normal: Vec3,
    /// Gap `g = ν·s` (`≥ 0` separated, `< 0` penetrated).
    pub gap: f64,
    /// Covariant tangents `τ_α = x_{m,α}(ξ̄)`.
    pub tangents: [Vec3; 2],
    /// `m_αβ = τ_α·τ_β`.
    pub metric: [[f64; 2]; 2],
    /// `m^{αβ}`.
    pub metric_inv: [[f64; 2]; 2],
    /// `A_αβ = m_αβ − g ν·x_{m,αβ}`.
    pub a: [[f64; 2]; 2],
    /// `A^{αβ}`.
    pub a_inv: [[f64; 2]; 2],
    /// `N_A = P_A ν`.
    pub n_op: [Vec3; MAX_NODES],
    /// `D^α_A` (indexed `[α][A]`).
    pub d_op: [[Vec3; MAX_NODES]; 2],
}

/// Inverse and determinant of the leading `n×n` (n = 1, 2) block.
fn inverse(m: [[f64; 2]; 2], n: usize) -> ([[f64; 2]; 2], f64) {
    if n == 1 {
        ([[1.0 / m[0][0], 0.0], [0.0, 0.0]], m[0][0])
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

impl Kinematics {
    /// Kinematics of slave point `xs` against the face (`kind`, `master`) at the
    /// projection `proj` (from [`project`](super::project()) with the same arguments).
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
        master: &[[f64; 3]],
        xs: [f64; 3],
        proj: &Projection,
        normal_hint: Option<[f64; 3]>,
    ) -> Result<Kinematics, GeometryError> {
        check_face(kind, master);
        let nf = kind.n_nodes();
        let n_nodes = nf + 1;
        let n_tangents = kind.ref_dim();
        let sh = eval(kind, proj.xi);

        // Projection operator (seed 44–45) and the slave-first node list.
        let mut p = [0.0; MAX_NODES];
        let mut dp = [[0.0; 2]; MAX_NODES];
        p[0] = 1.0;
        for a in 0..nf {
            p[a + 1] = -sh.n[a];
            dp[a + 1] = [-sh.dn[a][0], -sh.dn[a][1]];
        }
        let node = |i: usize| if i == 0 { xs } else { master[i - 1] };
        let mut s = [0.0; 3];
        for (i, &pi) in p.iter().enumerate().take(n_nodes) {
            s = axpy(s, pi, node(i));
        }

        // Tangents (seed 47), metric and the face normal.
        let mut tangents = [[0.0; 3]; 2];
        for (al, t) in tangents.iter_mut().enumerate().take(n_tangents) {
            *t = tangent(&sh, master, al);
        }
        let mut metric = [[0.0; 2]; 2];
        for al in 0..n_tangents {
            for be in 0..n_tangents {
                metric[al][be] = dot(tangents[al], tangents[be]);
            }
        }
        let (metric_inv, det_m) = inverse(metric, n_tangents);
        let trace = metric[0][0] + metric[1][1];
        let raw_n = if n_tangents == 1 {
            [tangents[0][1], -tangents[0][0], 0.0]
        } else {
            cross(tangents[0], tangents[1])
        };
        let ln = norm(raw_n);
        if !(det_m > 1e-24 * trace.powi(n_tangents as i32)) || !(ln > 0.0) {
            return Err(GeometryError::DegenerateFace { kind, det: det_m });
        }
        let face_normal = scale(raw_n, 1.0 / ln);

        // Contact normal parallel to s (DESIGN §5; seed 46).
        let sn = norm(s);
        let size = (1..nf)
            .map(|a| norm(sub(master[a], master[0])))
            .fold(0.0, f64::max);
        let along_s = |n_ref: Vec3| {
            let sg = if dot(n_ref, s) >= 0.0 { 1.0 } else { -1.0 };
            scale(s, sg / sn)
        };
        let normal = match proj.location {
            // At an interior projection s ∥ n up to the projection's round-off,
            // so ν = n keeps the identities to that round-off, while s/|s| would
            // carry the cancellation error of s = x_s − x_m (≈ ulp(x)/|s|): in
            // persistent contact |s| ~ 1e-6 h and that noise, times the
            // pressure, put a floor of ~1e-9 relative under Newton's residual.
            Location::Interior => face_normal,
            Location::Edge(_) | Location::Vertex(_) => {
                let n_ref = match normal_hint {
                    Some(h) if norm(h) > 0.0 => scale(h, 1.0 / norm(h)),
                    _ => face_normal,
                };
                if sn > 1e-13 * size {
                    along_s(n_ref)
                } else {
                    n_ref
                }
            }
        };
        let gap = dot(normal, s);

        // Curvature-corrected metric A_αβ (seed 43, gap sign translated).
        let mut a = metric;
        if kind == ElementKind::Quad4 {
            let x12 = second_derivative(&sh, master, 0, 1);
            let c = gap * dot(normal, x12);
            a[0][1] -= c;
            a[1][0] -= c;
        }
        let (a_inv, det_a) = inverse(a, n_tangents);
        if !(det_a.abs() > 1e-12 * det_m) {
            return Err(GeometryError::SingularMetric { gap, det: det_a });
        }

        // Operators N_A and D^α_A (seed 43).
        let mut n_op = [[0.0; 3]; MAX_NODES];
        let mut d_op = [[[0.0; 3]; MAX_NODES]; 2];
        for i in 0..n_nodes {
            n_op[i] = scale(normal, p[i]);
            for be in 0..n_tangents {
                // τ_β P_A − g ν P_{A,β}
                let v = axpy(scale(tangents[be], p[i]), -gap * dp[i][be], normal);
                for al in 0..n_tangents {
                    d_op[al][i] = axpy(d_op[al][i], a_inv[al][be], v);
                }
            }
        }

        Ok(Kinematics {
            kind,
            n_nodes,
            n_tangents,
            xi: proj.xi,
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
    pub fn normal_rate(&self, w: &[[f64; 3]]) -> f64 {
        assert_eq!(w.len(), self.n_nodes, "one vector per contact node");
        (0..self.n_nodes).map(|i| dot(self.n_op[i], w[i])).sum()
    }

    /// Tangential (convected) rates `v^α_T = Σ_A D^α_A·w_A` (seed 52);
    /// `[v^1, 0]` in 2D.
    #[track_caller]
    pub fn tangential_rates(&self, w: &[[f64; 3]]) -> [f64; 2] {
        assert_eq!(w.len(), self.n_nodes, "one vector per contact node");
        let mut v = [0.0; 2];
        for (al, va) in v.iter_mut().enumerate().take(self.n_tangents) {
            *va = (0..self.n_nodes).map(|i| dot(self.d_op[al][i], w[i])).sum();
        }
        v
    }

    /// Slip speed `‖v_T‖ = √(m_αβ v^α v^β)` of contravariant rates `v`.
    pub fn slip_speed(&self, v: [f64; 2]) -> f64 {
        let mut q = 0.0;
        for al in 0..self.n_tangents {
            for be in 0..self.n_tangents {
                q += self.metric[al][be] * v[al] * v[be];
            }
        }
        q.max(0.0).sqrt()
    }

    /// Nodal contact force `G_A = p_N N_A + t_α D^α_A` (seed 42–43, 56) for a
    /// pressure `p_N ≥ 0` and covariant tangential traction components `t_α`
    /// (entries beyond `n_nodes` are zero). Multiply by `w j` to assemble.
    pub fn nodal_forces(&self, p_n: f64, t: [f64; 2]) -> [[f64; 3]; MAX_NODES] {
        let mut g = [[0.0; 3]; MAX_NODES];
        for (i, gi) in g.iter_mut().enumerate().take(self.n_nodes) {
            *gi = scale(self.n_op[i], p_n);
            for al in 0..self.n_tangents {
                *gi = axpy(*gi, t[al], self.d_op[al][i]);
            }
        }
        g
    }
}
