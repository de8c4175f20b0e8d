//! Closest-point projection of a slave point onto one master face
//! (the `ξ̄` of Love & Laursen 2003 §3.2, eq. 45; DESIGN §5).
//!
//! First-order faces have straight edges, so the closest point on the face
//! boundary is exact (closest point on segments). The interior candidate is the
//! orthogonal projection onto the segment / triangle plane (closed form) or, for
//! the bilinear quad, a damped Newton minimisation of `½|x(ξ) − x_s|²`
//! started from the local minima of a 5×5 sample grid. The answer is
//! the interior candidate when it is strictly inside and strictly closer than
//! the boundary minimum, otherwise the boundary minimum. No allocation.
//!
//! Second-order faces (line3, tri6, quad8, quad9) are curved: an edge is a
//! parabola (the line3 of its two corners and its midside node), whose
//! closest point is a root of the cubic `r(ξ)·r'(ξ) = 0`, found exactly on
//! the cubic's monotone pieces; the interior candidate is Newton on the
//! face's own shape functions with the exact Hessian `m_αβ + r·x_{,αβ}`
//! (Gauss–Newton where it is indefinite, Armijo line search), from the best
//! local minima of `f` on a sample grid, run to round-off.

use super::shape::{
    edge_xi, eval, has_curvature, interpolate, second_derivative, tangent, vertex_xi,
};
use super::vec3::{axpy, cross, dot, norm, scale, sub, Vec3};
use super::{check_face, Location, Projection};
use crate::fe::ElementKind;

/// Closest point of the master face (`kind`, nodes `master`) to `xs`.
///
/// Returns `ξ̄`, whether it lies inside the face, on an edge or at a vertex,
/// the point `x_m(ξ̄)` and the distance `|x_s − x_m(ξ̄)|`. Interior quad4
/// projections satisfy `s·τ_α = 0` to round-off (Newton run to convergence).
/// Panics if `kind` is not a face kind or `master.len()` does not match.
#[track_caller]
pub fn project(kind: ElementKind, master: &[[f64; 3]], xs: [f64; 3]) -> Projection {
    check_face(kind, master);
    if kind.order() == 2 {
        return super::curved::project_curved(kind, master, xs);
    }
    let mut boundary = boundary_closest(kind, master, xs);
    let interior = match kind {
        // For a segment the boundary search is the segment itself.
        ElementKind::Line2 => {
            if let Location::Edge(_) = boundary.location {
                boundary.location = Location::Interior;
            }
            return boundary;
        }
        ElementKind::Tri3 => triangle_interior(master, xs),
        _ => quad_interior(master, xs),
    };
    closer(kind, xs, interior, boundary)
}

/// The interior candidate `(ξ, x(ξ))` when it is strictly closer to `xs`
/// than the boundary minimum, otherwise the boundary minimum.
pub(super) fn closer(
    kind: ElementKind,
    xs: Vec3,
    interior: Option<([f64; 2], Vec3)>,
    boundary: Projection,
) -> Projection {
    if let Some((xi, point)) = interior {
        let distance = norm(sub(xs, point));
        if distance < boundary.distance {
            return Projection {
                kind,
                xi,
                location: Location::Interior,
                point,
                distance,
            };
        }
    }
    boundary
}

/// The boundary projection at fraction `t ∈ [0, 1]` along edge `k` (a
/// vertex at either end), with its point and squared distance.
pub(super) fn on_edge(kind: ElementKind, k: usize, t: f64, point: Vec3, d2: f64) -> Projection {
    let n = kind.n_corners();
    let (location, xi) = if t <= 0.0 {
        (Location::Vertex(k as u8), vertex_xi(kind, k))
    } else if t >= 1.0 {
        let v = (k + 1) % n;
        (Location::Vertex(v as u8), vertex_xi(kind, v))
    } else {
        (Location::Edge(k as u8), edge_xi(kind, k, t))
    };
    Projection {
        kind,
        xi,
        location,
        point,
        distance: d2.sqrt(),
    }
}

/// Unit outward normal of the face at `xi` (`(τ_y, −τ_x)` in 2D,
/// `x_{,ξ} × x_{,η}` normalised in 3D); `None` for a degenerate face.
#[track_caller]
pub fn face_normal(kind: ElementKind, master: &[[f64; 3]], xi: [f64; 2]) -> Option<[f64; 3]> {
    check_face(kind, master);
    let s = eval(kind, xi);
    let t1 = tangent(&s, master, 0);
    let n = if kind.ref_dim() == 1 {
        [t1[1], -t1[0], 0.0]
    } else {
        cross(t1, tangent(&s, master, 1))
    };
    let l = norm(n);
    (l > 0.0 && l.is_finite()).then(|| scale(n, 1.0 / l))
}

/// Closest point on segment `a → b`: fraction `t ∈ [0, 1]`, point, squared distance.
fn closest_on_segment(a: Vec3, b: Vec3, p: Vec3) -> (f64, Vec3, f64) {
    let d = sub(b, a);
    let dd = dot(d, d);
    let t = if dd > 0.0 {
        (dot(sub(p, a), d) / dd).clamp(0.0, 1.0)
    } else {
        0.0
    };
    let q = if t == 1.0 { b } else { axpy(a, t, d) };
    let r = sub(p, q);
    (t, q, dot(r, r))
}

/// Exact closest point on the face boundary (the segment itself for line2).
/// Ties between edges go to the lower edge index.
fn boundary_closest(kind: ElementKind, master: &[Vec3], xs: Vec3) -> Projection {
    let n = kind.n_nodes();
    let n_edges = if kind == ElementKind::Line2 { 1 } else { n };
    let mut best = (f64::INFINITY, 0usize, 0.0f64, [0.0; 3]);
    for k in 0..n_edges {
        let (t, q, d2) = closest_on_segment(master[k], master[(k + 1) % n], xs);
        if d2 < best.0 {
            best = (d2, k, t, q);
        }
    }
    let (d2, k, t, point) = best;
    on_edge(kind, k, t, point, d2)
}

/// Orthogonal projection onto the triangle's plane when it falls strictly inside.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a > b)` also rejects NaN
fn triangle_interior(x: &[Vec3], p: Vec3) -> Option<([f64; 2], Vec3)> {
    let (e1, e2, r) = (sub(x[1], x[0]), sub(x[2], x[0]), sub(p, x[0]));
    let (m11, m12, m22) = (dot(e1, e1), dot(e1, e2), dot(e2, e2));
    let det = m11 * m22 - m12 * m12;
    if !(det > 1e-28 * m11 * m22) {
        return None;
    }
    let solve = |r: Vec3| {
        let (b1, b2) = (dot(e1, r), dot(e2, r));
        ((m22 * b1 - m12 * b2) / det, (m11 * b2 - m12 * b1) / det)
    };
    let (mut xi, mut eta) = solve(r);
    // One step of iterative refinement: the normal equations square the
    // triangle's condition, and on a slender face the first solve leaves a
    // tangential residual `s·τ` of 5e-12 |s| (a random tri3 of the geometry
    // property test); the refined ξ̄ leaves round-off.
    let (d1, d2) = solve(sub(r, axpy(scale(e1, xi), eta, e2)));
    xi += d1;
    eta += d2;
    if xi > 0.0 && eta > 0.0 && xi + eta < 1.0 {
        let q = axpy(axpy(x[0], xi, e1), eta, e2);
        Some(([xi, eta], q))
    } else {
        None
    }
}

/// The bilinear quad in monomial form relative to the slave point:
/// `r(ξ, η) = x(ξ, η) − p = c0 + ξ c1 + η c2 + ξη c3`.
struct Bilinear {
    c: [Vec3; 4],
}

impl Bilinear {
    fn new(x: &[Vec3], p: Vec3) -> Bilinear {
        let q = |s: [f64; 4]| {
            let mut v = [0.0; 3];
            for a in 0..4 {
                v = axpy(v, 0.25 * s[a], x[a]);
            }
            v
        };
        Bilinear {
            c: [
                sub(q([1.0, 1.0, 1.0, 1.0]), p),
                q([-1.0, 1.0, 1.0, -1.0]),
                q([-1.0, -1.0, 1.0, 1.0]),
                q([1.0, -1.0, 1.0, -1.0]),
            ],
        }
    }
    /// `r(ξ)`.
    #[inline]
    fn r(&self, xi: [f64; 2]) -> Vec3 {
        let c = &self.c;
        axpy(
            axpy(axpy(c[0], xi[0], c[1]), xi[1], c[2]),
            xi[0] * xi[1],
            c[3],
        )
    }
    /// `½|r(ξ)|²`.
    #[inline]
    fn f(&self, xi: [f64; 2]) -> f64 {
        let r = self.r(xi);
        0.5 * dot(r, r)
    }
}

/// Interior local minimiser of `½|x(ξ) − p|²` on the bilinear quad: damped
/// Newton (Gauss–Newton where the Hessian `A_αβ` is indefinite) with an Armijo
/// line search on the box-clamped step, from the (up to three best) local
/// minima of `f` on a 5×5 sample grid (one start from a 3×3 grid is not enough:
/// warped quads seen from their concave side have two interior minima); at a bound with outward gradient, an exact slide along
/// that straight edge (projected Newton with an active set). `None` when the
/// descent ends on the boundary (the exact boundary minimum then wins) or the
/// face is degenerate.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a > b)` also rejects NaN
fn quad_interior(x: &[Vec3], p: Vec3) -> Option<([f64; 2], Vec3)> {
    const GRID: [f64; 5] = [-0.8, -0.4, 0.0, 0.4, 0.8];
    const STARTS: usize = 3;
    let q = Bilinear::new(x, p);
    let mut fg = [[0.0; 5]; 5];
    for (i, a) in GRID.iter().enumerate() {
        for (j, b) in GRID.iter().enumerate() {
            fg[i][j] = q.f([*a, *b]);
        }
    }
    // Start from the grid's local minima (usually one; two on the concave side
    // of a strongly warped quad), best first, at most STARTS of them.
    let mut starts = [(f64::INFINITY, [0.0; 2]); STARTS];
    for i in 0..5 {
        for j in 0..5 {
            let v = fg[i][j];
            let lower = |a: usize, b: usize| fg[a][b] < v;
            let is_min = !((i > 0 && lower(i - 1, j))
                || (i < 4 && lower(i + 1, j))
                || (j > 0 && lower(i, j - 1))
                || (j < 4 && lower(i, j + 1)));
            if is_min && v < starts[STARTS - 1].0 {
                let mut k = STARTS - 1;
                while k > 0 && starts[k - 1].0 > v {
                    starts[k] = starts[k - 1];
                    k -= 1;
                }
                starts[k] = (v, [GRID[i], GRID[j]]);
            }
        }
    }
    // A converged descent beats one that stopped short, whatever their `f`:
    // two starts reaching the same minimum differ in `f` by round-off only,
    // and the one that stopped short (Gauss–Newton's zig-zag on the concave
    // side can use all its iterations) may come out an ulp lower.
    let mut best: Option<Descent> = None;
    for &(f0, xi0) in starts.iter().filter(|s| s.0.is_finite()) {
        if let Some(d) = quad_newton(&q, xi0, f0) {
            let better = match best {
                None => true,
                Some(b) if b.converged != d.converged => d.converged,
                Some(b) => d.f < b.f,
            };
            if better {
                best = Some(d);
            }
        }
    }
    best.map(|d| (d.xi, interpolate(&eval(ElementKind::Quad4, d.xi), x)))
}

/// Where one descent of [`quad_newton`] ended.
#[derive(Clone, Copy)]
struct Descent {
    xi: [f64; 2],
    f: f64,
    /// Newton's last step was below 1e-13 in `ξ` (quadratic convergence):
    /// `s·τ_α = 0` to round-off. Otherwise the iteration or the line search
    /// ran out first.
    converged: bool,
}

/// The descent of [`quad_interior`] from one start: the interior point reached,
/// or `None` if it ends on the boundary.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a > b)` also rejects NaN
fn quad_newton(q: &Bilinear, xi0: [f64; 2], f0: f64) -> Option<Descent> {
    let (mut xi, mut f) = (xi0, f0);
    let mut converged = false;
    let x12 = q.c[3];
    for _ in 0..60 {
        let r = q.r(xi);
        let t1 = axpy(q.c[1], xi[1], x12);
        let t2 = axpy(q.c[2], xi[0], x12);
        let g = [dot(t1, r), dot(t2, r)];
        let (m11, m12, m22) = (dot(t1, t1), dot(t1, t2), dot(t2, t2));
        let h12 = m12 + dot(r, x12);
        // At a bound with the gradient pointing out of the box: slide along
        // that (straight) edge to the exact minimiser of the quadratic there;
        // if that does not move, this is a boundary KKT point, which the exact
        // boundary minimum (computed separately) covers.
        let outward = |i: usize| (xi[i] <= -1.0 && g[i] > 0.0) || (xi[i] >= 1.0 && g[i] < 0.0);
        match (outward(0), outward(1)) {
            (true, true) => return None,
            (false, false) => {}
            (o0, _) => {
                let (j, mjj) = if o0 { (1, m22) } else { (0, m11) };
                if !(mjj > 0.0) {
                    return None;
                }
                let new = (xi[j] - g[j] / mjj).clamp(-1.0, 1.0);
                if (new - xi[j]).abs() <= 1e-12 {
                    return None;
                }
                xi[j] = new;
                f = q.f(xi);
                continue;
            }
        }
        let det_h = m11 * m22 - h12 * h12;
        let det_m = m11 * m22 - m12 * m12;
        let newton = m11 > 0.0 && det_h > 1e-12 * m11 * m22;
        let d = if newton {
            [
                -(m22 * g[0] - h12 * g[1]) / det_h,
                -(m11 * g[1] - h12 * g[0]) / det_h,
            ]
        } else if det_m > 1e-14 * m11 * m22 {
            // Gauss–Newton: a descent direction where the Hessian is indefinite.
            [
                -(m22 * g[0] - m12 * g[1]) / det_m,
                -(m11 * g[1] - m12 * g[0]) / det_m,
            ]
        } else {
            return None;
        };
        let dmax = d[0].abs().max(d[1].abs());
        if !dmax.is_finite() {
            return None;
        }
        let clamp = |v: [f64; 2]| [v[0].clamp(-1.0, 1.0), v[1].clamp(-1.0, 1.0)];
        let trial = clamp([xi[0] + d[0], xi[1] + d[1]]);
        if newton && dmax < 1e-6 {
            // Quadratic-convergence region: f changes below its round-off, so
            // take the full step without a line search.
            let step = (trial[0] - xi[0]).abs().max((trial[1] - xi[1]).abs());
            xi = trial;
            f = q.f(xi);
            if step < 1e-13 {
                converged = true;
                break;
            }
            continue;
        }
        let mut alpha = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let tr = clamp([xi[0] + alpha * d[0], xi[1] + alpha * d[1]]);
            let ft = q.f(tr);
            let dec = g[0] * (tr[0] - xi[0]) + g[1] * (tr[1] - xi[1]);
            if ft <= f + 1e-4 * dec {
                xi = tr;
                f = ft;
                accepted = true;
                break;
            }
            alpha *= 0.5;
        }
        if !accepted {
            break;
        }
    }
    (xi[0].abs() < 1.0 && xi[1].abs() < 1.0).then_some(Descent { xi, f, converged })
}

/// The stationary point of `½|x_s − x_m(ξ)|²` near `xi0` *without* clamping `ξ`
/// to the face: Newton on `τ_α·(x_s − x_m(ξ)) = 0` with the Jacobian
/// `A_αβ = m_αβ − s·x_{,αβ}` (exact in one step for line2 and tri3). Used to
/// differentiate the contact force of a slave that sits on an edge shared by
/// coplanar faces: there the clamped projection changes its normal rule under
/// an infinitesimal perturbation, while the smooth surface it belongs to does
/// not. The result is labelled `Interior`.
pub fn project_unclamped(
    kind: ElementKind,
    master: &[[f64; 3]],
    xs: [f64; 3],
    xi0: [f64; 2],
) -> Projection {
    check_face(kind, master);
    let nt = kind.ref_dim();
    let mut xi = xi0;
    let iterations = match kind {
        ElementKind::Line2 | ElementKind::Tri3 => 2,
        ElementKind::Quad4 => 8,
        _ => 16,
    };
    for _ in 0..iterations {
        let sh = eval(kind, xi);
        let s = sub(xs, interpolate(&sh, master));
        let t = [tangent(&sh, master, 0), tangent(&sh, master, 1)];
        let mut a = [[0.0; 2]; 2];
        for al in 0..nt {
            for be in 0..nt {
                a[al][be] = dot(t[al], t[be]);
                if has_curvature(kind) {
                    a[al][be] -= dot(s, second_derivative(&sh, master, al, be));
                }
            }
        }
        let r = [dot(t[0], s), dot(t[1], s)];
        let step = if nt == 1 {
            if a[0][0] <= 0.0 {
                break;
            }
            [r[0] / a[0][0], 0.0]
        } else {
            let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
            if det.abs() <= f64::MIN_POSITIVE {
                break;
            }
            [
                (a[1][1] * r[0] - a[0][1] * r[1]) / det,
                (a[0][0] * r[1] - a[1][0] * r[0]) / det,
            ]
        };
        xi[0] += step[0];
        xi[1] += step[1];
        if kind.order() == 2 && step[0].abs().max(step[1].abs()) < 1e-15 {
            break;
        }
    }
    let point = interpolate(&eval(kind, xi), master);
    Projection {
        kind,
        xi,
        location: Location::Interior,
        point,
        distance: norm(sub(xs, point)),
    }
}
