//! Reference geometry at a quadrature point and deformation gradients.
//!
//! Isoparametric map `X(ξ) = Σ_a N_a(ξ) X_a`, `J = ∂X/∂ξ`, spatial-reference
//! gradients `∇_X N_a = J⁻ᵀ ∇_ξ N_a`, `dV = w_q det J` (Hughes 2000, §3.2).
//! Deformation gradient `F = Σ_a x_a ⊗ ∇_X N_a`; in plane strain (`D = 2`) it is
//! embedded as a 3×3 matrix with `F_zz = 1`, `F_{αz} = F_{zα} = 0`.

// Index loops mirror the index notation of the formulas.
#![allow(clippy::needless_range_loop)]

use super::super::tables::RefTable;
use super::KernelError;
use nalgebra::Matrix3;

/// Gradients `∇_X N_a` of the `N` nodes (z-component 0 in 2D) and the volume
/// weight `w_q det J`.
pub(super) struct QpGeometry<const N: usize> {
    pub grad: [[f64; 3]; N],
    pub dvol: f64,
}

/// Reference geometry at quadrature point `q` of an `N`-node element (`xref` holds
/// at least `N` nodes); `BadReference` when `det J ≤ 0`.
#[inline]
pub(super) fn qp_geometry<const D: usize, const N: usize>(
    t: &RefTable,
    q: usize,
    xref: &[[f64; 3]],
) -> Result<QpGeometry<N>, KernelError> {
    let dn = &t.dn[q];
    let mut j = Matrix3::<f64>::identity();
    for i in 0..D {
        for k in 0..D {
            let mut s = 0.0;
            for a in 0..N {
                s += xref[a][i] * dn[a][k];
            }
            j[(i, k)] = s;
        }
    }
    let det = j.determinant();
    if !(det > 0.0 && det.is_finite()) {
        return Err(KernelError::BadReference { det_j: det });
    }
    // J⁻¹ = adj(J)/det; explicit to avoid the pivoting branch of a general inverse.
    let jinv = inverse_with_det(&j, det);
    let mut grad = [[0.0; 3]; N];
    for a in 0..N {
        for k in 0..D {
            let mut s = 0.0;
            for m in 0..D {
                s += jinv[(m, k)] * dn[a][m];
            }
            grad[a][k] = s;
        }
    }
    Ok(QpGeometry {
        grad,
        dvol: t.weight[q] * det,
    })
}

/// `A⁻¹` of a 3×3 matrix whose determinant `det ≠ 0` is known.
#[inline]
fn inverse_with_det(a: &Matrix3<f64>, det: f64) -> Matrix3<f64> {
    let m = |i: usize, j: usize| a[(i, j)];
    let r = 1.0 / det;
    Matrix3::new(
        (m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1)) * r,
        (m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2)) * r,
        (m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1)) * r,
        (m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2)) * r,
        (m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0)) * r,
        (m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2)) * r,
        (m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0)) * r,
        (m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1)) * r,
        (m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0)) * r,
    )
}

/// `F = Σ_a x_a ⊗ ∇_X N_a` (3×3, `F_zz = 1` in 2D).
#[inline]
pub(super) fn deformation_gradient<const D: usize, const N: usize>(
    g: &QpGeometry<N>,
    x: &[[f64; 3]],
) -> Matrix3<f64> {
    let mut f = Matrix3::<f64>::identity();
    for i in 0..D {
        for k in 0..D {
            let mut s = 0.0;
            for a in 0..N {
                s += x[a][i] * g.grad[a][k];
            }
            f[(i, k)] = s;
        }
    }
    f
}

/// `det F`, or `Inverted` when it is not positive and finite.
#[inline]
pub(super) fn checked_det(f: &Matrix3<f64>) -> Result<f64, KernelError> {
    let det = f.determinant();
    if det > 0.0 && det.is_finite() {
        Ok(det)
    } else {
        Err(KernelError::Inverted { det_f: det })
    }
}
