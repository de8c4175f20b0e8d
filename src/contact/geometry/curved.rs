//! Closest-point projection onto a second-order (curved) master face: line3
//! in 2D, tri6, quad8 and quad9 in 3D (module docs of [`super::project()`]).
//!
//! The face is `x(ξ) = Σ N_a(ξ) x_a` with its own shape functions; the
//! closest point minimises `f(ξ) = ½|x(ξ) − p|²` over the closed reference
//! face. Its minimum is either an interior stationary point (`τ_α·r = 0`,
//! `r = x − p`) or lies on the boundary, whose edges are parabolas. Both
//! candidates are computed to round-off and the closer one is taken; an
//! interior candidate is preferred only when strictly closer. No allocation.

use super::project::{closer, on_edge};
use super::shape::{edge_nodes, eval, interpolate, second_derivative, tangent};
use super::vec3::{axpy, dot, scale, sub, Vec3};
use super::{Location, Projection};
use crate::fe::ElementKind;

/// Closest point of a curved face (`kind.order() == 2`).
pub(super) fn project_curved(kind: ElementKind, x: &[Vec3], p: Vec3) -> Projection {
    if kind == ElementKind::Line3 {
        let (xi, q, d2) = closest_on_parabola(x[0], x[1], x[2], p);
        let location = if xi <= -1.0 {
            Location::Vertex(0)
        } else if xi >= 1.0 {
            Location::Vertex(1)
        } else {
            Location::Interior
        };
        return Projection {
            kind,
            xi: [xi, 0.0],
            location,
            point: q,
            distance: d2.sqrt(),
        };
    }
    closer(kind, p, interior(kind, x, p), boundary_closest(kind, x, p))
}

/// The closest point on the boundary of a tri6 / quad8 / quad9: the best of
/// its edges (ties to the lower edge index).
fn boundary_closest(kind: ElementKind, x: &[Vec3], p: Vec3) -> Projection {
    let nc = kind.n_corners();
    let mut best = (f64::INFINITY, 0usize, 0.0f64, [0.0; 3]);
    for k in 0..nc {
        let (e, _) = edge_nodes(kind, k);
        let (xi, q, d2) = closest_on_parabola(x[e[0]], x[e[1]], x[e[2]], p);
        if d2 < best.0 {
            best = (d2, k, 0.5 * (xi + 1.0), q);
        }
    }
    let (d2, k, t, point) = best;
    on_edge(kind, k, t, point, d2)
}

/// The parabola through `a` (ξ = −1), `b` (ξ = 1) and `m` (ξ = 0), the
/// line3 interpolation, in monomial form about `p`:
/// `r(ξ) = c0 + ξ c1 + ξ² c2`.
fn parabola(a: Vec3, b: Vec3, m: Vec3, p: Vec3) -> [Vec3; 3] {
    [
        sub(m, p),
        scale(sub(b, a), 0.5),
        axpy(scale(axpy(a, 1.0, b), 0.5), -1.0, m),
    ]
}

/// Closest point of the parabola (line3 `a`, `b`, midside `m`) to `p` over
/// ξ ∈ [−1, 1]: `ξ̄` (−1 or 1 at an end), the point and the squared
/// distance. The stationary points are the roots of the cubic
/// `g(ξ) = r·r' = 2c2·c2 ξ³ + 3c1·c2 ξ² + (c1·c1 + 2c0·c2) ξ + c0·c1`,
/// bracketed exactly between the roots of `g'` and polished by safeguarded
/// Newton; the ends are candidates too.
pub(super) fn closest_on_parabola(a: Vec3, b: Vec3, m: Vec3, p: Vec3) -> (f64, Vec3, f64) {
    let c = parabola(a, b, m, p);
    let r = |xi: f64| axpy(axpy(c[0], xi, c[1]), xi * xi, c[2]);
    let f = |xi: f64| {
        let v = r(xi);
        dot(v, v)
    };
    let g3 = [
        dot(c[0], c[1]),
        dot(c[1], c[1]) + 2.0 * dot(c[0], c[2]),
        3.0 * dot(c[1], c[2]),
        2.0 * dot(c[2], c[2]),
    ];
    // monotone pieces of g: split [−1, 1] at the roots of g'
    let (crit, nc) = quadratic_roots(3.0 * g3[3], 2.0 * g3[2], g3[1], -1.0, 1.0);
    let mut ends = [-1.0; 4];
    let mut n = 1;
    for &x in &crit[..nc] {
        if x > ends[n - 1] && x < 1.0 {
            ends[n] = x;
            n += 1;
        }
    }
    ends[n] = 1.0;
    let mut best = (f(-1.0), -1.0);
    let fb = f(1.0);
    if fb < best.0 {
        best = (fb, 1.0);
    }
    let g = |x: f64| ((g3[3] * x + g3[2]) * x + g3[1]) * x + g3[0];
    let dg = |x: f64| (3.0 * g3[3] * x + 2.0 * g3[2]) * x + g3[1];
    for i in 0..n {
        let (lo, hi) = (ends[i], ends[i + 1]);
        let (glo, ghi) = (g(lo), g(hi));
        // a minimum of f: g goes from negative to positive
        if !(glo < 0.0 && ghi > 0.0) {
            continue;
        }
        let x = increasing_root(g, dg, lo, hi);
        let fx = f(x);
        if fx < best.0 {
            best = (fx, x);
        }
    }
    let (d2, xi) = best;
    (xi, axpy(r(xi), 1.0, p), d2)
}

/// Real roots of `a x² + b x + c` in `(lo, hi)`, increasing.
fn quadratic_roots(a: f64, b: f64, c: f64, lo: f64, hi: f64) -> ([f64; 2], usize) {
    let mut out = [0.0; 2];
    let mut n = 0;
    let mut push = |x: f64| {
        if x > lo && x < hi && x.is_finite() {
            out[n] = x;
            n += 1;
        }
    };
    let scale = a.abs().max(b.abs()).max(c.abs());
    if scale == 0.0 {
        return (out, 0);
    }
    if a.abs() <= 1e-14 * scale {
        if b != 0.0 {
            push(-c / b);
        }
    } else {
        let disc = b * b - 4.0 * a * c;
        if disc >= 0.0 {
            // the stable pair of formulas
            let q = -0.5 * (b + b.signum() * disc.sqrt());
            let (x1, x2) = if q != 0.0 { (q / a, c / q) } else { (0.0, 0.0) };
            let (x1, x2) = (x1.min(x2), x1.max(x2));
            push(x1);
            if x2 > x1 {
                push(x2);
            }
        }
    }
    (out, n)
}

/// The root of `g`, increasing on `[lo, hi]` with `g(lo) < 0 < g(hi)`:
/// Newton safeguarded by bisection, to round-off.
fn increasing_root(g: impl Fn(f64) -> f64, dg: impl Fn(f64) -> f64, lo: f64, hi: f64) -> f64 {
    let (mut lo, mut hi) = (lo, hi);
    let mut x = 0.5 * (lo + hi);
    for _ in 0..100 {
        let gx = g(x);
        if gx == 0.0 {
            return x;
        }
        if gx < 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let d = dg(x);
        let newton = x - gx / d;
        let next = if d > 0.0 && newton > lo && newton < hi {
            newton
        } else {
            0.5 * (lo + hi)
        };
        if (next - x).abs() <= 1e-16 * (1.0 + x.abs()) || hi - lo <= 1e-16 {
            return next;
        }
        x = next;
    }
    x
}

/// Whether `xi` is strictly inside the reference face.
fn strictly_inside(kind: ElementKind, xi: [f64; 2]) -> bool {
    if kind.is_simplex() {
        xi[0] > 0.0 && xi[1] > 0.0 && xi[0] + xi[1] < 1.0
    } else {
        xi[0].abs() < 1.0 && xi[1].abs() < 1.0
    }
}

/// How far (parametric units) the descent may wander outside the face before
/// it is abandoned (the boundary minimum then wins).
const OUTSIDE: f64 = 0.5;

/// Sample grid of the interior search: quads 5×5 at ±0.8, ±0.4, 0; the
/// triangle's lattice of step 1/6 strictly inside (10 points). Neighbours
/// are grid points within `1.5·step`.
fn grid(kind: ElementKind) -> (&'static [[f64; 2]], f64) {
    const Q: [[f64; 2]; 25] = {
        let g = [-0.8, -0.4, 0.0, 0.4, 0.8];
        let mut out = [[0.0; 2]; 25];
        let mut k = 0;
        while k < 25 {
            out[k] = [g[k % 5], g[k / 5]];
            k += 1;
        }
        out
    };
    const T: [[f64; 2]; 10] = {
        let mut out = [[0.0; 2]; 10];
        let mut k = 0;
        let mut i = 1;
        while i <= 4 {
            let mut j = 1;
            while i + j <= 5 {
                out[k] = [i as f64 / 6.0, j as f64 / 6.0];
                k += 1;
                j += 1;
            }
            i += 1;
        }
        out
    };
    if kind.is_simplex() {
        (&T, 1.0 / 6.0)
    } else {
        (&Q, 0.4)
    }
}

/// Interior local minimiser of `f` (module docs): `None` when no descent
/// ends strictly inside the face.
fn interior(kind: ElementKind, x: &[Vec3], p: Vec3) -> Option<([f64; 2], Vec3)> {
    const STARTS: usize = 3;
    let (pts, step) = grid(kind);
    let f = |xi: [f64; 2]| {
        let r = sub(interpolate(&eval(kind, xi), x), p);
        0.5 * dot(r, r)
    };
    let mut fv = [0.0; 25];
    for (k, xi) in pts.iter().enumerate() {
        fv[k] = f(*xi);
    }
    let near = 1.5 * step;
    let mut starts = [(f64::INFINITY, [0.0; 2]); STARTS];
    for (k, xi) in pts.iter().enumerate() {
        let v = fv[k];
        let is_min = pts.iter().enumerate().all(|(j, o)| {
            j == k || (o[0] - xi[0]).abs().max((o[1] - xi[1]).abs()) > near || fv[j] >= v
        });
        if is_min && v < starts[STARTS - 1].0 {
            let mut i = STARTS - 1;
            while i > 0 && starts[i - 1].0 > v {
                starts[i] = starts[i - 1];
                i -= 1;
            }
            starts[i] = (v, *xi);
        }
    }
    let mut best: Option<([f64; 2], f64)> = None;
    for &(f0, xi0) in starts.iter().filter(|s| s.0.is_finite()) {
        if let Some((xi, fx)) = descend(kind, x, p, xi0, f0) {
            if best.map_or(true, |(_, bf)| fx < bf) {
                best = Some((xi, fx));
            }
        }
    }
    best.map(|(xi, _)| (xi, interpolate(&eval(kind, xi), x)))
}

/// Newton descent on `f` from `xi0` with the exact Hessian
/// `H = m_αβ + r·x_{,αβ}` (Gauss–Newton `m_αβ` where `H` is not positive
/// definite) and an Armijo line search; full steps once they are below
/// 1e-6 (quadratic convergence, `f` flat to round-off). Ends strictly inside
/// the face or `None`.
#[allow(clippy::neg_cmp_op_on_partial_ord)] // `!(a > b)` also rejects NaN
fn descend(
    kind: ElementKind,
    x: &[Vec3],
    p: Vec3,
    xi0: [f64; 2],
    f0: f64,
) -> Option<([f64; 2], f64)> {
    let f = |xi: [f64; 2]| {
        let r = sub(interpolate(&eval(kind, xi), x), p);
        0.5 * dot(r, r)
    };
    let (mut xi, mut fx) = (xi0, f0);
    for _ in 0..60 {
        let sh = eval(kind, xi);
        let r = sub(interpolate(&sh, x), p);
        let t = [tangent(&sh, x, 0), tangent(&sh, x, 1)];
        let g = [dot(t[0], r), dot(t[1], r)];
        let m = [
            [dot(t[0], t[0]), dot(t[0], t[1])],
            [dot(t[1], t[0]), dot(t[1], t[1])],
        ];
        let mut h = m;
        for al in 0..2 {
            for be in 0..2 {
                h[al][be] += dot(r, second_derivative(&sh, x, al, be));
            }
        }
        let solve = |a: [[f64; 2]; 2]| {
            let det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
            let ok = a[0][0] > 0.0 && det > 1e-12 * a[0][0] * a[1][1];
            ok.then(|| {
                [
                    -(a[1][1] * g[0] - a[0][1] * g[1]) / det,
                    -(a[0][0] * g[1] - a[1][0] * g[0]) / det,
                ]
            })
        };
        let (d, newton) = match solve(h) {
            Some(d) => (d, true),
            None => (solve(m)?, false),
        };
        let dmax = d[0].abs().max(d[1].abs());
        if !dmax.is_finite() {
            return None;
        }
        if newton && dmax < 1e-6 {
            xi = [xi[0] + d[0], xi[1] + d[1]];
            fx = f(xi);
            if dmax < 1e-14 {
                break;
            }
            continue;
        }
        let mut alpha = 1.0;
        let mut accepted = false;
        for _ in 0..40 {
            let tr = [xi[0] + alpha * d[0], xi[1] + alpha * d[1]];
            let ft = f(tr);
            if ft <= fx + 1e-4 * alpha * (g[0] * d[0] + g[1] * d[1]) {
                xi = tr;
                fx = ft;
                accepted = true;
                break;
            }
            alpha *= 0.5;
        }
        if !accepted {
            // no decrease left: at a minimum to round-off
            break;
        }
        let outside = if kind.is_simplex() {
            (-xi[0]).max(-xi[1]).max(xi[0] + xi[1] - 1.0)
        } else {
            xi[0].abs().max(xi[1].abs()) - 1.0
        };
        if outside > OUTSIDE {
            return None;
        }
    }
    strictly_inside(kind, xi).then_some((xi, fx))
}
