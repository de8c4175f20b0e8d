//! The penetration check's own geometry, written apart from the contact
//! code's (so that a fault there cannot hide itself here): whether a point
//! is inside an element, and its distance to a boundary face, both for the
//! element's exact shape. A hex8 is trilinear and its faces are bilinear
//! quads (the faces contact projects onto); a quad4 in 2D, a tri3 and a tet4
//! have straight sides and flat faces.

use crate::fe::ElementKind;

pub type V = [f64; 3];

fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}

fn det3(a: V, b: V, c: V) -> f64 {
    a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0])
        + a[2] * (b[0] * c[1] - b[1] * c[0])
}

/// How far outside the reference element (in its own coordinates, of size
/// 1 or 2) a point may be and still count as inside: round-off of the
/// inverse map and of the barycentric coordinates, not a contact tolerance.
const PARAMETRIC_EPS: f64 = 1e-12;

/// Whether `p` is inside the simplex `s` (3 points in the xy-plane, or 4),
/// all barycentric coordinates above `−PARAMETRIC_EPS`.
fn in_simplex(s: &[V], p: V) -> bool {
    if s.len() == 3 {
        let area = |a: V, b: V, c: V| (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
        let total = area(s[0], s[1], s[2]);
        if total == 0.0 {
            return false;
        }
        let l = [
            area(p, s[1], s[2]) / total,
            area(s[0], p, s[2]) / total,
            area(s[0], s[1], p) / total,
        ];
        return l.iter().all(|&v| v >= -PARAMETRIC_EPS);
    }
    let total = det3(sub(s[1], s[0]), sub(s[2], s[0]), sub(s[3], s[0]));
    if total == 0.0 {
        return false;
    }
    let l1 = det3(sub(p, s[0]), sub(s[2], s[0]), sub(s[3], s[0])) / total;
    let l2 = det3(sub(s[1], s[0]), sub(p, s[0]), sub(s[3], s[0])) / total;
    let l3 = det3(sub(s[1], s[0]), sub(s[2], s[0]), sub(p, s[0])) / total;
    [l1, l2, l3, 1.0 - l1 - l2 - l3]
        .iter()
        .all(|&v| v >= -PARAMETRIC_EPS)
}

/// `x(ξ)` of a trilinear hex and its Jacobian columns `∂x/∂ξ_j` (the FE
/// layer's hex8 shape functions, Gmsh order).
fn trilinear(x: &[V], xi: V) -> (V, [V; 3]) {
    let (mut n, mut dn) = ([0.0; 8], [[0.0; 3]; 8]);
    ElementKind::Hex8.shape(&xi, &mut n, &mut dn);
    let mut p = [0.0; 3];
    let mut jac = [[0.0; 3]; 3];
    for a in 0..8 {
        for i in 0..3 {
            p[i] += n[a] * x[a][i];
            for (j, d) in dn[a].iter().enumerate() {
                jac[j][i] += d * x[a][i];
            }
        }
    }
    (p, jac)
}

/// Newton iterations of the inverse trilinear map (it converges in 3–5 on
/// any element Newton's step accepts; the bound only stops a divergence).
const INVERSE_ITERATIONS: usize = 30;

/// Whether `p` is inside the trilinear hex `x` (8 vertices): the inverse
/// map `ξ(p)` by Newton, inside when every `|ξ_i| ≤ 1`. Its faces are the
/// bilinear quads, so a point on a warped face is on the boundary, not on
/// one side of a triangulation of it.
fn in_hex(x: &[V], p: V) -> bool {
    let mut xi = [0.0; 3];
    for _ in 0..INVERSE_ITERATIONS {
        let (y, j) = trilinear(x, xi);
        let r = sub(p, y);
        let det = det3(j[0], j[1], j[2]);
        if det == 0.0 || !det.is_finite() {
            return false;
        }
        // Cramer: J dξ = r, J's columns j[0..3]
        let d = [
            det3(r, j[1], j[2]) / det,
            det3(j[0], r, j[2]) / det,
            det3(j[0], j[1], r) / det,
        ];
        for i in 0..3 {
            xi[i] += d[i];
        }
        if xi.iter().any(|v| v.abs() > 4.0) {
            // far outside: the map is not inverted there
            return false;
        }
        if d.iter().all(|v| v.abs() <= 1e-14) {
            break;
        }
    }
    xi.iter().all(|v| v.abs() <= 1.0 + PARAMETRIC_EPS)
}

/// Whether `p` is inside the element of kind `kind` with vertices `x`
/// (quadratic elements are not checked: `false`).
pub fn inside(kind: ElementKind, x: &[V], p: V) -> bool {
    match kind {
        ElementKind::Tri3 => in_simplex(&x[..3], p),
        ElementKind::Tet4 => in_simplex(&x[..4], p),
        // a straight-sided quad is its two triangles exactly
        ElementKind::Quad4 => {
            in_simplex(&[x[0], x[1], x[2]], p) || in_simplex(&[x[0], x[2], x[3]], p)
        }
        ElementKind::Hex8 => in_hex(&x[..8], p),
        _ => false,
    }
}

/// Distance from `p` (inside it) to the boundary of the element of kind
/// `kind` with vertices `x`: how far it is inside that element.
pub fn depth_in(kind: ElementKind, x: &[V], p: V) -> f64 {
    let sides = |faces: &[&[usize]]| {
        faces
            .iter()
            .map(|f| match f.len() {
                2 => to_segment(x[f[0]], x[f[1]], p),
                3 => to_triangle(x[f[0]], x[f[1]], x[f[2]], p),
                _ => to_bilinear(&[x[f[0]], x[f[1]], x[f[2]], x[f[3]]], p),
            })
            .fold(f64::INFINITY, f64::min)
    };
    match kind {
        ElementKind::Tri3 => sides(&[&[0, 1], &[1, 2], &[2, 0]]),
        ElementKind::Quad4 => sides(&[&[0, 1], &[1, 2], &[2, 3], &[3, 0]]),
        ElementKind::Tet4 => sides(&[&[0, 1, 2], &[0, 1, 3], &[0, 2, 3], &[1, 2, 3]]),
        ElementKind::Hex8 => sides(&[
            &[0, 1, 2, 3],
            &[4, 5, 6, 7],
            &[0, 1, 5, 4],
            &[1, 2, 6, 5],
            &[2, 3, 7, 6],
            &[3, 0, 4, 7],
        ]),
        _ => 0.0,
    }
}

/// Distance from `p` to the segment `a b`.
fn to_segment(a: V, b: V, p: V) -> f64 {
    let t = sub(b, a);
    let l2 = dot(t, t);
    let s = if l2 > 0.0 {
        (dot(sub(p, a), t) / l2).clamp(0.0, 1.0)
    } else {
        0.0
    };
    norm(sub(p, [a[0] + s * t[0], a[1] + s * t[1], a[2] + s * t[2]]))
}

/// Distance from `p` to the triangle `a b c`: to its plane where the foot
/// is inside, else to its nearest side.
fn to_triangle(a: V, b: V, c: V, p: V) -> f64 {
    let n = cross(sub(b, a), sub(c, a));
    let nn = dot(n, n);
    if nn > 0.0 {
        let h = dot(sub(p, a), n) / nn;
        let foot = [p[0] - h * n[0], p[1] - h * n[1], p[2] - h * n[2]];
        // barycentric coordinates of the foot by sub-triangle areas along n
        let w = |u: V, v: V| dot(cross(sub(u, foot), sub(v, foot)), n) / nn;
        if w(b, c) >= 0.0 && w(c, a) >= 0.0 && w(a, b) >= 0.0 {
            return h.abs() * nn.sqrt();
        }
    }
    to_segment(a, b, p)
        .min(to_segment(b, c, p))
        .min(to_segment(c, a, p))
}

/// Newton iterations of the closest point on a bilinear quad.
const PROJECTION_ITERATIONS: usize = 30;

/// `x(ξ, η)`, `x_{,ξ}` and `x_{,η}` of the bilinear quad `x`.
fn bilinear_at(x: &[V], s: f64, t: f64) -> [V; 3] {
    let n = [
        0.25 * (1.0 - s) * (1.0 - t),
        0.25 * (1.0 + s) * (1.0 - t),
        0.25 * (1.0 + s) * (1.0 + t),
        0.25 * (1.0 - s) * (1.0 + t),
    ];
    let ns = [
        -0.25 * (1.0 - t),
        0.25 * (1.0 - t),
        0.25 * (1.0 + t),
        -0.25 * (1.0 + t),
    ];
    let nt = [
        -0.25 * (1.0 - s),
        -0.25 * (1.0 + s),
        0.25 * (1.0 + s),
        0.25 * (1.0 - s),
    ];
    let mut y = [[0.0; 3]; 3];
    for a in 0..4 {
        for i in 0..3 {
            y[0][i] += n[a] * x[a][i];
            y[1][i] += ns[a] * x[a][i];
            y[2][i] += nt[a] * x[a][i];
        }
    }
    y
}

/// A stationary point `(ξ, η)` of `|x(ξ, η) − p|²` on the bilinear quad
/// `x` extended (Newton from the centre), `None` if Newton leaves the
/// neighbourhood of the face or meets a singular Hessian.
fn bilinear_foot(x: &[V], p: V) -> Option<(f64, f64)> {
    // x_{,ξη}: constant on a bilinear quad
    let mixed = [0, 1, 2].map(|i| 0.25 * (x[0][i] - x[1][i] + x[2][i] - x[3][i]));
    let (mut s, mut t) = (0.0, 0.0);
    for _ in 0..PROJECTION_ITERATIONS {
        let [y, ys, yt] = bilinear_at(x, s, t);
        let r = sub(y, p);
        let g = [dot(ys, r), dot(yt, r)];
        let off = dot(ys, yt) + dot(r, mixed);
        let h = [[dot(ys, ys), off], [off, dot(yt, yt)]];
        let det = h[0][0] * h[1][1] - h[0][1] * h[1][0];
        if det <= 0.0 || !det.is_finite() {
            return None;
        }
        let ds = -(h[1][1] * g[0] - h[0][1] * g[1]) / det;
        let dt = -(h[0][0] * g[1] - h[1][0] * g[0]) / det;
        s += ds;
        t += dt;
        if s.abs() > 4.0 || t.abs() > 4.0 {
            return None;
        }
        if ds.abs() <= 1e-14 && dt.abs() <= 1e-14 {
            break;
        }
    }
    Some((s, t))
}

/// Distance from `p` to the bilinear quad `x` (4 vertices, Gmsh order):
/// the nearer of an interior stationary point of `|x(ξ, η) − p|²` and the
/// four straight sides.
fn to_bilinear(x: &[V], p: V) -> f64 {
    let sides = (0..4)
        .map(|k| to_segment(x[k], x[(k + 1) % 4], p))
        .fold(f64::INFINITY, f64::min);
    match bilinear_foot(x, p) {
        Some((s, t)) if s.abs() <= 1.0 && t.abs() <= 1.0 => {
            norm(sub(bilinear_at(x, s, t)[0], p)).min(sides)
        }
        _ => sides,
    }
}

/// The signed gap of `p` on the face `x` extended beyond its sides, as
/// node-to-segment contact measures it on the face a slave holds (along
/// the outward normal `(t_y, −t_x)` of a segment, `(x1 − x0) × (x2 − x0)`
/// of a triangle, `x_{,ξ} × x_{,η}` of a bilinear quad at the foot of the
/// unclamped projection), and the distance from `p` to the face itself.
pub fn extended_gap(kind: ElementKind, x: &[V], p: V) -> (f64, f64) {
    let unit = |n: V| {
        let l = norm(n);
        if l > 0.0 {
            n.map(|v| v / l)
        } else {
            n
        }
    };
    match kind {
        ElementKind::Line2 => {
            let t = sub(x[1], x[0]);
            let n = unit([t[1], -t[0], 0.0]);
            (dot(sub(p, x[0]), n), to_segment(x[0], x[1], p))
        }
        ElementKind::Tri3 => {
            let n = unit(cross(sub(x[1], x[0]), sub(x[2], x[0])));
            (dot(sub(p, x[0]), n), to_triangle(x[0], x[1], x[2], p))
        }
        ElementKind::Quad4 => {
            let (s, t) = bilinear_foot(&x[..4], p).unwrap_or((0.0, 0.0));
            let [y, ys, yt] = bilinear_at(&x[..4], s, t);
            (dot(sub(p, y), unit(cross(ys, yt))), to_bilinear(&x[..4], p))
        }
        _ => (f64::INFINITY, f64::INFINITY),
    }
}

fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// Distance from `p` to the boundary face of kind `kind` with vertices `x`
/// (a line2 in 2D, a tri3 or a bilinear quad4 in 3D; `∞` for others).
pub fn distance(kind: ElementKind, x: &[V], p: V) -> f64 {
    match kind {
        ElementKind::Line2 => to_segment(x[0], x[1], p),
        ElementKind::Tri3 => to_triangle(x[0], x[1], x[2], p),
        ElementKind::Quad4 => to_bilinear(&x[..4], p),
        _ => f64::INFINITY,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A unit cube whose top face is warped: vertex 6 raised by `w`.
    fn warped(w: f64) -> Vec<V> {
        let mut x: Vec<V> = ElementKind::Hex8
            .reference_nodes()
            .iter()
            .map(|c| c.map(|v| 0.5 * (v + 1.0)))
            .collect();
        x[6][2] += w;
        x
    }

    /// The top face's bilinear height at (u, v) ∈ [0, 1]²: 1 + w u v.
    fn top(w: f64, u: f64, v: f64) -> f64 {
        1.0 + w * u * v
    }

    #[test]
    fn a_point_on_a_warped_bilinear_face_is_on_it_not_inside() {
        let w = 0.2;
        let x = warped(w);
        // on the diagonal 4–6 the bilinear top is below the triangles' crease
        let (u, v) = (0.5, 0.5);
        let on = [u, v, top(w, u, v)];
        let above = [u, v, top(w, u, v) + 1e-9];
        let below = [u, v, top(w, u, v) - 1e-9];
        assert!(!inside(ElementKind::Hex8, &x, above));
        assert!(inside(ElementKind::Hex8, &x, below));
        let face = [x[4], x[5], x[6], x[7]];
        assert!(distance(ElementKind::Quad4, &face, on) < 1e-15);
        assert!((distance(ElementKind::Quad4, &face, above) - 1e-9).abs() < 1e-10);
        // the crease of the split about 4–6 is w/2 above (u, v) = (½, ½),
        // the bilinear face w/4 above: a tet split would put `above` inside
        assert!(top(w, u, v) + 1e-9 < 1.0 + 0.5 * w);
    }

    #[test]
    fn distance_to_a_bilinear_face_beyond_its_sides_is_to_the_nearest_side() {
        let x = warped(0.2);
        let face = [x[4], x[5], x[6], x[7]];
        // beside the side 4–5 (y = 0, z = 1), 0.3 out in −y
        let d = distance(ElementKind::Quad4, &face, [0.5, -0.3, 1.0]);
        assert!((d - 0.3).abs() < 1e-14, "{d}");
    }

    #[test]
    fn simplices_and_triangles() {
        let t = [
            [0.0, 0.0, 0.0],
            [1.0, 0.0, 0.0],
            [0.0, 1.0, 0.0],
            [0.0, 0.0, 1.0],
        ];
        assert!(inside(ElementKind::Tet4, &t, [0.2, 0.2, 0.2]));
        assert!(!inside(ElementKind::Tet4, &t, [0.4, 0.4, 0.4]));
        let d = distance(ElementKind::Tri3, &t[..3], [0.25, 0.25, -0.5]);
        assert!((d - 0.5).abs() < 1e-15);
        let d = distance(ElementKind::Tri3, &t[..3], [2.0, 0.0, 0.0]);
        assert!((d - 1.0).abs() < 1e-15);
    }
}
