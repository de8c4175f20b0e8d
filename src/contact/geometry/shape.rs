//! Master-face shape functions with first and second parametric derivatives:
//! line2 (ξ ∈ [-1, 1]), tri3 (unit triangle, `N = [1−ξ−η, ξ, η]`) and the
//! bilinear quad4 on [-1, 1]² (Gmsh node order, counter-clockwise). Private to
//! the contact geometry so that it does not depend on `fe`.

use super::real::Real;
use super::vec3::{axpy, Vec3};
use crate::fe::ElementKind;

/// Shape-function values at one parametric point (unused entries are 0).
#[derive(Debug, Clone, Copy)]
pub(super) struct FaceShape<T: Real = f64> {
    /// `N_a(ξ)`.
    pub n: [T; 4],
    /// `N_{a,α}(ξ)`.
    pub dn: [[T; 2]; 4],
    /// `N_{a,αβ}(ξ)` (non-zero only for quad4, `αβ = ξη`).
    pub ddn: [[[T; 2]; 2]; 4],
}

/// Quad4 corner signs `(ξ_a, η_a)`.
const QUAD_CORNERS: [[f64; 2]; 4] = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];

/// Evaluate the face shape functions of `kind` at `xi`.
pub(super) fn eval<T: Real>(kind: ElementKind, xi: [T; 2]) -> FaceShape<T> {
    let z = T::zero();
    let mut s = FaceShape {
        n: [z; 4],
        dn: [[z; 2]; 4],
        ddn: [[[z; 2]; 2]; 4],
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
            for (a, k) in QUAD_CORNERS.iter().enumerate() {
                let fx = xi[0] * k[0] + 1.0;
                let fy = xi[1] * k[1] + 1.0;
                s.n[a] = fx * fy * 0.25;
                s.dn[a] = [fy * (0.25 * k[0]), fx * (0.25 * k[1])];
                let cross = c(0.25 * k[0] * k[1]);
                s.ddn[a] = [[z, cross], [cross, z]];
            }
        }
        _ => unreachable!("not a face kind (checked by the caller)"),
    }
    s
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

/// Parametric coordinates of face vertex `k`.
pub(super) fn vertex_xi(kind: ElementKind, k: usize) -> [f64; 2] {
    match kind {
        ElementKind::Line2 => [if k == 0 { -1.0 } else { 1.0 }, 0.0],
        ElementKind::Tri3 => [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]][k],
        ElementKind::Quad4 => QUAD_CORNERS[k],
        _ => unreachable!("not a face kind (checked by the caller)"),
    }
}

/// Parametric coordinates of the point at fraction `t ∈ [0, 1]` along edge `k`
/// (from vertex `k` to vertex `k+1 mod n`); edges of these faces are straight.
pub(super) fn edge_xi(kind: ElementKind, k: usize, t: f64) -> [f64; 2] {
    let n = kind.n_nodes();
    let a = vertex_xi(kind, k);
    let b = vertex_xi(kind, (k + 1) % n);
    [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Partition of unity, derivatives against central differences, second
    /// derivatives of the quad against differences of first derivatives.
    #[test]
    fn shape_functions_consistent() {
        let h = 1e-6;
        for kind in [ElementKind::Line2, ElementKind::Tri3, ElementKind::Quad4] {
            let xi = [0.3, 0.2];
            let s = eval(kind, xi);
            let sum: f64 = s.n.iter().sum();
            assert!((sum - 1.0).abs() < 1e-15);
            let nd = if kind == ElementKind::Line2 { 1 } else { 2 };
            for al in 0..nd {
                let mut p = xi;
                let mut m = xi;
                p[al] += h;
                m[al] -= h;
                let (sp, sm) = (eval(kind, p), eval(kind, m));
                for a in 0..kind.n_nodes() {
                    let fd = (sp.n[a] - sm.n[a]) / (2.0 * h);
                    assert!((fd - s.dn[a][al]).abs() < 1e-9);
                    for be in 0..nd {
                        let fd2 = (sp.dn[a][be] - sm.dn[a][be]) / (2.0 * h);
                        assert!((fd2 - s.ddn[a][al][be]).abs() < 1e-9);
                    }
                }
            }
            for k in 0..kind.n_nodes() {
                let sv = eval(kind, vertex_xi(kind, k));
                for a in 0..kind.n_nodes() {
                    let want = if a == k { 1.0 } else { 0.0 };
                    assert!((sv.n[a] - want).abs() < 1e-15);
                }
            }
        }
    }
}
