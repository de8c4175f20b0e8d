//! Element geometry from node coordinates: measures and corner Jacobians
//! (closed forms for first-order elements; second-order ones through the
//! `fe` shape functions and mass rule).
use super::Element;
use crate::fe::{ElementKind, MAX_NODES};

pub(super) type V3 = [f64; 3];

pub(super) fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

pub(super) fn cross(a: V3, b: V3) -> V3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

pub(super) fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

pub(super) fn norm(a: V3) -> f64 {
    dot(a, a).sqrt()
}

pub(super) fn det3(a: V3, b: V3, c: V3) -> f64 {
    dot(a, cross(b, c))
}

/// Reference corner coordinates of quad4 and hex8 (Gmsh order).
pub(super) const QUAD_REF: [[f64; 2]; 4] = [[-1., -1.], [1., -1.], [1., 1.], [-1., 1.]];
pub(super) const HEX_REF: [[f64; 3]; 8] = [
    [-1., -1., -1.],
    [1., -1., -1.],
    [1., 1., -1.],
    [-1., 1., -1.],
    [-1., -1., 1.],
    [1., -1., 1.],
    [1., 1., 1.],
    [-1., 1., 1.],
];

/// `x(ξ)` derivatives of a bilinear quad at reference point (ξ, η).
fn quad_tangents(x: &[V3], xi: f64, eta: f64) -> (V3, V3) {
    let mut a = [0.0; 3];
    let mut b = [0.0; 3];
    for (r, p) in QUAD_REF.iter().zip(x) {
        let dxi = 0.25 * r[0] * (1.0 + r[1] * eta);
        let deta = 0.25 * r[1] * (1.0 + r[0] * xi);
        for k in 0..3 {
            a[k] += dxi * p[k];
            b[k] += deta * p[k];
        }
    }
    (a, b)
}

/// Jacobian determinant of a trilinear hex at reference point `q`.
pub(super) fn hex_det(x: &[V3], q: [f64; 3]) -> f64 {
    let mut j = [[0.0; 3]; 3];
    for (r, p) in HEX_REF.iter().zip(x) {
        let d = [
            0.125 * r[0] * (1.0 + r[1] * q[1]) * (1.0 + r[2] * q[2]),
            0.125 * r[1] * (1.0 + r[0] * q[0]) * (1.0 + r[2] * q[2]),
            0.125 * r[2] * (1.0 + r[0] * q[0]) * (1.0 + r[1] * q[1]),
        ];
        for (col, dc) in j.iter_mut().zip(d) {
            for k in 0..3 {
                col[k] += dc * p[k];
            }
        }
    }
    det3(j[0], j[1], j[2])
}

/// Gathers the coordinates of an element's nodes.
pub(super) fn coords(e: &Element, nodes: &[V3]) -> ([V3; MAX_NODES], usize) {
    let mut x = [[0.0; 3]; MAX_NODES];
    let n = e.nodes().len();
    for (xi, &a) in x.iter_mut().zip(e.nodes()) {
        *xi = nodes[a];
    }
    (x, n)
}

/// Length, area or volume of an element (absolute value). Quad4 and hex8 use
/// 2×2 / 2×2×2 Gauss points, exact for the bilinear/trilinear Jacobian (and for
/// planar quads in 3D); second-order kinds the element's mass rule on
/// `√det(JᵀJ)` (exact for undistorted elements). Panics if a node index is out
/// of range (caller bug).
#[track_caller]
pub fn element_measure(e: &Element, nodes: &[[f64; 3]]) -> f64 {
    let (x, _) = coords(e, nodes);
    let g = 1.0 / 3f64.sqrt();
    match e.kind {
        ElementKind::Line2 => norm(sub(x[1], x[0])),
        ElementKind::Tri3 => 0.5 * norm(cross(sub(x[1], x[0]), sub(x[2], x[0]))),
        ElementKind::Quad4 => {
            let mut a = 0.0;
            for xi in [-g, g] {
                for eta in [-g, g] {
                    let (t1, t2) = quad_tangents(&x[..4], xi, eta);
                    a += norm(cross(t1, t2));
                }
            }
            a
        }
        ElementKind::Tet4 => det3(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0])).abs() / 6.0,
        ElementKind::Hex8 => {
            let mut v = 0.0;
            for a in [-g, g] {
                for b in [-g, g] {
                    for c in [-g, g] {
                        v += hex_det(&x, [a, b, c]);
                    }
                }
            }
            v.abs()
        }
        k => curved_measure(k, &x[..k.n_nodes()]),
    }
}

/// Columns `∂x/∂ξ_k` (`k` < reference dimension) of the map of a `kind`
/// element with nodes `x` at reference point `xi`.
pub(super) fn tangents(kind: ElementKind, x: &[V3], xi: &[f64; 3]) -> [V3; 3] {
    let mut n = [0.0; MAX_NODES];
    let mut dn = [[0.0; 3]; MAX_NODES];
    kind.shape(xi, &mut n, &mut dn);
    let mut t = [[0.0; 3]; 3];
    for (p, d) in x.iter().zip(&dn) {
        for (tk, dk) in t.iter_mut().zip(d) {
            for i in 0..3 {
                tk[i] += dk * p[i];
            }
        }
    }
    t
}

/// `Σ_q w_q √det(JᵀJ)` on the mass rule: length, area or volume of any kind.
fn curved_measure(kind: ElementKind, x: &[V3]) -> f64 {
    kind.quadrature()
        .iter()
        .map(|q| {
            let t = tangents(kind, x, &q.xi);
            let jac = match kind.ref_dim() {
                1 => norm(t[0]),
                2 => norm(cross(t[0], t[1])),
                _ => det3(t[0], t[1], t[2]).abs(),
            };
            q.weight * jac
        })
        .sum()
}
