//! Master-face shape functions with first and second parametric derivatives,
//! in Gmsh's node order (corners first, then edge midpoints, then the centre):
//!
//! * line2 / line3 on ξ ∈ [-1, 1]: nodes −1, +1 (and 0);
//!   line3 `N = [½ξ(ξ−1), ½ξ(ξ+1), 1−ξ²]`;
//! * tri3 / tri6 on the unit triangle, barycentric `L = [1−ξ−η, ξ, η]`:
//!   a corner `i` has `N = L_i` (tri3) or `L_i(2L_i − 1)` (tri6), the tri6
//!   edge node between `i` and `j` (edges 01, 12, 20) `N = 4 L_i L_j`;
//! * quad4 / quad8 / quad9 on [-1, 1]², corners counter-clockwise from
//!   (−1, −1), edge nodes (0,−1), (1,0), (0,1), (−1,0), quad9's centre (0,0):
//!   quad4 bilinear, quad9 the tensor product of the line3 functions, quad8
//!   serendipity (corner `N = ¼(1+ξ_aξ)(1+η_aη)(ξ_aξ+η_aη−1)`, edge node
//!   `N = ½(1−ξ²)(1+η_aη)` or `½(1+ξ_aξ)(1−η²)`; Zienkiewicz, Taylor & Zhu,
//!   *The Finite Element Method*, Vol. 1, §6.4).
//!
//! The same functions as [`crate::fe`]'s (the tests compare them), written
//! generically over the scalar so that dual numbers carry their
//! derivatives, and with second derivatives, which the curvature term
//! `ν·x_{,αβ}` of the contact metric needs. Edge `k` of a face joins corners
//! `k` and `k+1 mod n_c`; on a second-order face its midside node is node
//! `n_c + k`, and along the edge the face's functions reduce to line3's.

use super::real::Real;
use super::vec3::{axpy, Vec3};
use crate::fe::ElementKind;

/// Most nodes of a master face (quad9).
pub const MAX_FACE_NODES: usize = 9;

/// Shape-function values at one parametric point (unused entries are 0).
#[derive(Debug, Clone, Copy)]
pub(super) struct FaceShape<T: Real = f64> {
    /// `N_a(ξ)`.
    pub n: [T; MAX_FACE_NODES],
    /// `N_{a,α}(ξ)`.
    pub dn: [[T; 2]; MAX_FACE_NODES],
    /// `N_{a,αβ}(ξ)` (zero for line2 and tri3; only `ξη` for quad4).
    pub ddn: [[[T; 2]; 2]; MAX_FACE_NODES],
}

/// Quad corner, edge and centre parametric coordinates (Gmsh order).
const QUAD_NODES: [[f64; 2]; 9] = [
    [-1.0, -1.0],
    [1.0, -1.0],
    [1.0, 1.0],
    [-1.0, 1.0],
    [0.0, -1.0],
    [1.0, 0.0],
    [0.0, 1.0],
    [-1.0, 0.0],
    [0.0, 0.0],
];

/// Tri6 barycentric index pairs (`(i, i)` a corner).
const TRI6_PAIRS: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (2, 0)];

/// The 1D quadratic Lagrange function of the node at `r ∈ {−1, 0, 1}`:
/// value, first and second derivative at `x`.
fn lagrange2<T: Real>(r: f64, x: T) -> (T, T, T) {
    if r < -0.5 {
        (x * (x - 1.0) * 0.5, x - 0.5, T::cst(1.0))
    } else if r > 0.5 {
        (x * (x + 1.0) * 0.5, x + 0.5, T::cst(1.0))
    } else {
        (-(x * x) + 1.0, x * -2.0, T::cst(-2.0))
    }
}

/// Evaluate the face shape functions of `kind` at `xi`.
pub(super) fn eval<T: Real>(kind: ElementKind, xi: [T; 2]) -> FaceShape<T> {
    let z = T::zero();
    let mut s = FaceShape {
        n: [z; MAX_FACE_NODES],
        dn: [[z; 2]; MAX_FACE_NODES],
        ddn: [[[z; 2]; 2]; MAX_FACE_NODES],
    };
    let c = T::cst;
    match kind {
        ElementKind::Line2 => {
            s.n[0] = (-xi[0] + 1.0) * 0.5;
            s.n[1] = (xi[0] + 1.0) * 0.5;
            s.dn[0][0] = c(-0.5);
            s.dn[1][0] = c(0.5);
        }
        ElementKind::Tri3 => {
            s.n[0] = -xi[0] - xi[1] + 1.0;
            s.n[1] = xi[0];
            s.n[2] = xi[1];
            s.dn[0] = [c(-1.0), c(-1.0)];
            s.dn[1] = [c(1.0), z];
            s.dn[2] = [z, c(1.0)];
        }
        ElementKind::Quad4 => {
            for (a, k) in QUAD_NODES[..4].iter().enumerate() {
                let fx = xi[0] * k[0] + 1.0;
                let fy = xi[1] * k[1] + 1.0;
                s.n[a] = fx * fy * 0.25;
                s.dn[a] = [fy * (0.25 * k[0]), fx * (0.25 * k[1])];
                let cross = c(0.25 * k[0] * k[1]);
                s.ddn[a] = [[z, cross], [cross, z]];
            }
        }
        ElementKind::Line3 => {
            for (a, r) in [-1.0, 1.0, 0.0].into_iter().enumerate() {
                let (v, d, dd) = lagrange2(r, xi[0]);
                s.n[a] = v;
                s.dn[a][0] = d;
                s.ddn[a][0][0] = dd;
            }
        }
        ElementKind::Tri6 => tri6(xi, &mut s),
        ElementKind::Quad8 => quad8(xi, &mut s),
        ElementKind::Quad9 => {
            for (a, k) in QUAD_NODES.iter().enumerate() {
                let (u, du, ddu) = lagrange2(k[0], xi[0]);
                let (v, dv, ddv) = lagrange2(k[1], xi[1]);
                s.n[a] = u * v;
                s.dn[a] = [du * v, u * dv];
                s.ddn[a] = [[ddu * v, du * dv], [du * dv, u * ddv]];
            }
        }
        _ => unreachable!("not a face kind (checked by the caller)"),
    }
    s
}

/// Tri6 on the barycentric coordinates (module docs).
fn tri6<T: Real>(xi: [T; 2], s: &mut FaceShape<T>) {
    let l = [-xi[0] - xi[1] + 1.0, xi[0], xi[1]];
    const DL: [[f64; 2]; 3] = [[-1.0, -1.0], [1.0, 0.0], [0.0, 1.0]];
    for (a, &(i, j)) in TRI6_PAIRS.iter().enumerate() {
        if i == j {
            s.n[a] = l[i] * (l[i] * 2.0 - 1.0);
            let f = l[i] * 4.0 - 1.0;
            s.dn[a] = [f * DL[i][0], f * DL[i][1]];
            for al in 0..2 {
                for be in 0..2 {
                    s.ddn[a][al][be] = T::cst(4.0 * DL[i][al] * DL[i][be]);
                }
            }
        } else {
            s.n[a] = l[i] * l[j] * 4.0;
            for al in 0..2 {
                s.dn[a][al] = (l[j] * DL[i][al] + l[i] * DL[j][al]) * 4.0;
                for be in 0..2 {
                    s.ddn[a][al][be] =
                        T::cst(4.0 * (DL[i][al] * DL[j][be] + DL[j][al] * DL[i][be]));
                }
            }
        }
    }
}

/// Serendipity quad8 (module docs).
fn quad8<T: Real>(xi: [T; 2], s: &mut FaceShape<T>) {
    let (x, y) = (xi[0], xi[1]);
    for (a, k) in QUAD_NODES[..8].iter().enumerate() {
        let (p, q) = (k[0], k[1]);
        if a < 4 {
            // ¼ f g (pξ + qη − 1), f = 1 + pξ, g = 1 + qη
            let f = x * p + 1.0;
            let g = y * q + 1.0;
            let h = x * p + y * q - 1.0;
            s.n[a] = f * g * h * 0.25;
            s.dn[a] = [g * (h + f) * (0.25 * p), f * (h + g) * (0.25 * q)];
            let cross = (h + f + g) * (0.25 * p * q);
            s.ddn[a] = [[g * 0.5, cross], [cross, f * 0.5]];
        } else if p == 0.0 {
            // ½ (1 − ξ²)(1 + qη)
            let g = y * q + 1.0;
            let b = -(x * x) + 1.0;
            s.n[a] = b * g * 0.5;
            s.dn[a] = [-(x * g), b * (0.5 * q)];
            let cross = x * -q;
            s.ddn[a] = [[-g, cross], [cross, T::zero()]];
        } else {
            // ½ (1 + pξ)(1 − η²)
            let f = x * p + 1.0;
            let b = -(y * y) + 1.0;
            s.n[a] = f * b * 0.5;
            s.dn[a] = [b * (0.5 * p), -(y * f)];
            let cross = y * -p;
            s.ddn[a] = [[T::zero(), cross], [cross, -f]];
        }
    }
}

/// `x(ξ) = Σ N_a x_a`.
pub(super) fn interpolate<T: Real>(s: &FaceShape<T>, x: &[Vec3<T>]) -> Vec3<T> {
    let mut p = [T::zero(); 3];
    for (a, xa) in x.iter().enumerate() {
        p = axpy(p, s.n[a], *xa);
    }
    p
}

/// Covariant tangent `x_{,α} = Σ N_{a,α} x_a`.
pub(super) fn tangent<T: Real>(s: &FaceShape<T>, x: &[Vec3<T>], alpha: usize) -> Vec3<T> {
    let mut t = [T::zero(); 3];
    for (a, xa) in x.iter().enumerate() {
        t = axpy(t, s.dn[a][alpha], *xa);
    }
    t
}

/// `x_{,αβ} = Σ N_{a,αβ} x_a`.
pub(super) fn second_derivative<T: Real>(
    s: &FaceShape<T>,
    x: &[Vec3<T>],
    alpha: usize,
    beta: usize,
) -> Vec3<T> {
    let mut t = [T::zero(); 3];
    for (a, xa) in x.iter().enumerate() {
        t = axpy(t, s.ddn[a][alpha][beta], *xa);
    }
    t
}

/// Whether the face is curved in its parameters (`x_{,αβ} ≠ 0` in general):
/// quad4 (its twist `x_{,ξη}`) and every second-order face.
pub(super) fn has_curvature(kind: ElementKind) -> bool {
    !matches!(kind, ElementKind::Line2 | ElementKind::Tri3)
}

/// Parametric coordinates of face corner `k`.
pub(super) fn vertex_xi(kind: ElementKind, k: usize) -> [f64; 2] {
    match kind.linear() {
        ElementKind::Line2 => [if k == 0 { -1.0 } else { 1.0 }, 0.0],
        ElementKind::Tri3 => [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]][k],
        ElementKind::Quad4 => QUAD_NODES[k],
        _ => unreachable!("not a face kind (checked by the caller)"),
    }
}

/// Parametric coordinates of the point at fraction `t ∈ [0, 1]` along edge `k`
/// (from corner `k` to corner `k+1 mod n_c`); edges are straight in the
/// parameters (and in space on first-order faces).
pub(super) fn edge_xi(kind: ElementKind, k: usize, t: f64) -> [f64; 2] {
    let n = kind.n_corners();
    let a = vertex_xi(kind, k);
    let b = vertex_xi(kind, (k + 1) % n);
    [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
}

/// The nodes of edge `k` of a face as a line: corners `k`, `k+1 mod n_c`,
/// and on a second-order face its midside node (line3 order); returns the
/// node count (2 or 3).
pub(super) fn edge_nodes(kind: ElementKind, k: usize) -> ([usize; 3], usize) {
    let n = kind.n_corners();
    let ends = [k, (k + 1) % n];
    if kind.order() == 2 {
        ([ends[0], ends[1], n + k], 3)
    } else {
        ([ends[0], ends[1], 0], 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FACES: [ElementKind; 7] = [
        ElementKind::Line2,
        ElementKind::Tri3,
        ElementKind::Quad4,
        ElementKind::Line3,
        ElementKind::Tri6,
        ElementKind::Quad8,
        ElementKind::Quad9,
    ];

    /// Partition of unity, values and first derivatives equal to `fe`'s,
    /// second derivatives against central differences of the first, the
    /// Kronecker property at the nodes, and the edge node lists.
    #[test]
    fn shape_functions_consistent() {
        let h = 1e-6;
        for kind in FACES {
            let xi = [0.3, 0.2];
            let s = eval(kind, xi);
            let nn = kind.n_nodes();
            let sum: f64 = s.n.iter().sum();
            assert!((sum - 1.0).abs() < 1e-15, "{kind:?}");
            let (mut n, mut dn) = ([0.0; 9], [[0.0; 3]; 9]);
            kind.shape(&[xi[0], xi[1], 0.0], &mut n, &mut dn);
            let nd = kind.ref_dim();
            for a in 0..nn {
                assert!((n[a] - s.n[a]).abs() < 1e-15, "{kind:?} N_{a}");
                for al in 0..nd {
                    assert!((dn[a][al] - s.dn[a][al]).abs() < 1e-14, "{kind:?} dN_{a}");
                }
            }
            for al in 0..nd {
                let mut p = xi;
                let mut m = xi;
                p[al] += h;
                m[al] -= h;
                let (sp, sm) = (eval(kind, p), eval(kind, m));
                for a in 0..nn {
                    let fd = (sp.n[a] - sm.n[a]) / (2.0 * h);
                    assert!((fd - s.dn[a][al]).abs() < 1e-9);
                    for be in 0..nd {
                        let fd2 = (sp.dn[a][be] - sm.dn[a][be]) / (2.0 * h);
                        assert!(
                            (fd2 - s.ddn[a][al][be]).abs() < 1e-8,
                            "{kind:?} ddN_{a} {al}{be}: {fd2} vs {}",
                            s.ddn[a][al][be]
                        );
                    }
                }
            }
            let reference = kind.reference_nodes();
            for (k, r) in reference.iter().enumerate() {
                let sv = eval(kind, [r[0], r[1]]);
                for a in 0..nn {
                    let want = if a == k { 1.0 } else { 0.0 };
                    assert!((sv.n[a] - want).abs() < 1e-15, "{kind:?} N_{a} at node {k}");
                }
            }
            for k in 0..kind.n_corners() {
                assert_eq!(vertex_xi(kind, k), [reference[k][0], reference[k][1]]);
            }
            if nd == 2 {
                // along edge k only its nodes' functions are non-zero, and
                // the midside node sits at the edge's parametric middle
                for k in 0..kind.n_corners() {
                    let (en, m) = edge_nodes(kind, k);
                    let se = eval(kind, edge_xi(kind, k, 0.37));
                    for a in 0..nn {
                        if !en[..m].contains(&a) {
                            assert!(se.n[a].abs() < 1e-15, "{kind:?} edge {k} N_{a}");
                        }
                    }
                    if m == 3 {
                        let mid = edge_xi(kind, k, 0.5);
                        assert_eq!(mid, [reference[en[2]][0], reference[en[2]][1]]);
                    }
                }
            }
        }
    }
}
