//! Compressible neo-Hookean material.
//!
//! `W = μ/2 (tr C − 3) − μ ln J + λ/2 (ln J)²`, `J = √det C` (Bonet & Wood,
//! *Nonlinear Continuum Mechanics for Finite Element Analysis*, 2nd ed. 2008, ch. 6,
//! compressible neo-Hookean). With `ℓ = ln J`:
//!
//! * `S = 2∂W/∂C = μ (I − C⁻¹) + λ ℓ C⁻¹`,
//! * `dS = (μ − λℓ) C⁻¹ dC C⁻¹ + λ/2 (C⁻¹:dC) C⁻¹`, i.e. `∂S/∂C` (half of Bonet &
//!   Wood's ℂ, because `dS = ½ ℂ:dC`).
//!
//! The energy-conserving algorithmic stress is Gonzalez's discrete gradient
//! (see [`super::discrete_gradient`]); it needs the energy *difference*
//! `W(C1) − W(C0)` without cancellation, which [`NeoHookean::energy_difference`]
//! evaluates from `ΔC` directly.

use super::discrete_gradient::Hyperelastic;
use super::tangent::VOIGT_PAIRS;
use super::{NeoHookean, Tangent};
use nalgebra::{Matrix3, Matrix6};

/// Cofactor matrix `cof(A) = det(A) A⁻ᵀ` of a 3×3 matrix.
#[inline]
pub(crate) fn cofactor(a: &Matrix3<f64>) -> Matrix3<f64> {
    let m = |i: usize, j: usize| a[(i, j)];
    Matrix3::new(
        m(1, 1) * m(2, 2) - m(1, 2) * m(2, 1),
        m(1, 2) * m(2, 0) - m(1, 0) * m(2, 2),
        m(1, 0) * m(2, 1) - m(1, 1) * m(2, 0),
        m(0, 2) * m(2, 1) - m(0, 1) * m(2, 2),
        m(0, 0) * m(2, 2) - m(0, 2) * m(2, 0),
        m(0, 1) * m(2, 0) - m(0, 0) * m(2, 1),
        m(0, 1) * m(1, 2) - m(0, 2) * m(1, 1),
        m(0, 2) * m(1, 0) - m(0, 0) * m(1, 2),
        m(0, 0) * m(1, 1) - m(0, 1) * m(1, 0),
    )
}

/// `C⁻¹` and `ℓ = ln J = ½ ln det C`, or `None` when `det C ≤ 0` or not finite.
#[inline]
fn inverse_and_log_j(c: &Matrix3<f64>) -> Option<(Matrix3<f64>, f64)> {
    let cof = cofactor(c);
    let det = c.row(0).dot(&cof.row(0));
    if !(det > 0.0 && det.is_finite()) {
        return None;
    }
    // C symmetric ⇒ C⁻¹ = cof(C)ᵀ/det = cof(C)/det.
    Some((cof.transpose() / det, 0.5 * det.ln()))
}

impl NeoHookean {
    /// `W(C)`; `+∞` when `det C ≤ 0`.
    pub fn energy(&self, c: &Matrix3<f64>) -> f64 {
        let det = c.determinant();
        if det.is_nan() || det <= 0.0 {
            return f64::INFINITY;
        }
        let l = 0.5 * det.ln();
        0.5 * self.mu * (c.trace() - 3.0) - self.mu * l + 0.5 * self.lambda * l * l
    }

    /// `S = μ (I − C⁻¹) + λ ln J C⁻¹`; all entries NaN when `det C ≤ 0`.
    pub fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64> {
        match inverse_and_log_j(c) {
            Some((ci, l)) => Matrix3::identity() * self.mu + ci * (self.lambda * l - self.mu),
            None => Matrix3::repeat(f64::NAN),
        }
    }

    /// `∂S/∂C` in Voigt form: `(μ − λℓ) C⁻¹ ⊙ C⁻¹ + λ/2 C⁻¹ ⊗ C⁻¹`; NaN when `det C ≤ 0`.
    pub fn tangent(&self, c: &Matrix3<f64>) -> Tangent {
        let Some((b, l)) = inverse_and_log_j(c) else {
            return Tangent(Matrix6::repeat(f64::NAN));
        };
        let a = self.mu - self.lambda * l;
        let h = 0.5 * self.lambda;
        let mut t = Matrix6::zeros();
        for (r, &(i, j)) in VOIGT_PAIRS.iter().enumerate() {
            for (s, &(k, l)) in VOIGT_PAIRS.iter().enumerate() {
                t[(r, s)] = if k == l {
                    a * b[(i, k)] * b[(k, j)] + h * b[(i, j)] * b[(k, k)]
                } else {
                    a * (b[(i, k)] * b[(l, j)] + b[(i, l)] * b[(k, j)])
                        + 2.0 * h * b[(i, j)] * b[(k, l)]
                };
            }
        }
        Tangent(t)
    }

    /// `W(C1) − W(C0)` evaluated without cancellation for close arguments:
    /// `μ/2 tr ΔC − μ Δℓ + λ/2 Δℓ (ℓ0 + ℓ1)`, with `Δℓ = ½ ln_1p(Δdet / det C0)` and
    /// `Δdet = cof(C0):ΔC + C0:cof(ΔC) + det ΔC` (exact for 3×3). `+∞` if either
    /// determinant is not positive.
    pub fn energy_difference(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> f64 {
        let dc = c1 - c0;
        let det0 = c0.determinant();
        let ddet = cofactor(c0).dot(&dc) + c0.dot(&cofactor(&dc)) + dc.determinant();
        let ratio = ddet / det0;
        if !(det0 > 0.0 && ratio > -1.0) {
            return f64::INFINITY;
        }
        let dl = 0.5 * ratio.ln_1p();
        let l0 = 0.5 * det0.ln();
        let l1 = l0 + dl;
        0.5 * self.mu * dc.trace() - self.mu * dl + 0.5 * self.lambda * dl * (l0 + l1)
    }
}

impl Hyperelastic for NeoHookean {
    fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64> {
        NeoHookean::stress(self, c)
    }
    fn tangent(&self, c: &Matrix3<f64>) -> Tangent {
        NeoHookean::tangent(self, c)
    }
    fn energy_difference(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> f64 {
        NeoHookean::energy_difference(self, c0, c1)
    }
}
