//! St. Venant–Kirchhoff material and the Simo–Tarnow algorithmic stress.
//!
//! `W = λ/2 (tr E)² + μ E:E`, `E = (C − I)/2`, `S = 2∂W/∂C = λ tr(E) I + 2μ E`,
//! `∂S/∂C = λ/2 (I ⊗ I) + μ 𝕀` (i.e. half the usual elasticity tensor ℂ = 4∂²W/∂C²).
//!
//! Simo & Tarnow (1992), "The discrete energy-momentum method. Conserving algorithms
//! for nonlinear elastodynamics", ZAMP 43, 757–792 (the St. Venant–Kirchhoff case): for this quadratic
//! energy the stress of the *average* strain `E_m = (E_n + E_{n+1})/2`,
//! `S_alg = λ tr(E_m) I + 2μ E_m`, satisfies `W(C1) − W(C0) = ½ S_alg:(C1 − C0)`
//! exactly (DESIGN §4); its derivative with respect to `C1` is `¼ ℂ`.

use super::{Svk, Tangent};
use nalgebra::Matrix3;

impl Svk {
    /// Green–Lagrange strain `E = (C − I)/2`.
    #[inline]
    fn strain(c: &Matrix3<f64>) -> Matrix3<f64> {
        (c - Matrix3::identity()) * 0.5
    }

    #[inline]
    fn stress_of_strain(&self, e: &Matrix3<f64>) -> Matrix3<f64> {
        let mut s = e * (2.0 * self.mu);
        let l = self.lambda * e.trace();
        for i in 0..3 {
            s[(i, i)] += l;
        }
        s
    }

    /// `W(C) = λ/2 (tr E)² + μ E:E`.
    pub fn energy(&self, c: &Matrix3<f64>) -> f64 {
        let e = Self::strain(c);
        let tr = e.trace();
        0.5 * self.lambda * tr * tr + self.mu * e.dot(&e)
    }

    /// `W(C1) − W(C0) = λ/2 tr(ΔE) tr(E0 + E1) + μ ΔE:(E0 + E1)`, free of cancellation
    /// for close arguments (`ΔE = ΔC/2`).
    pub fn energy_difference(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> f64 {
        let de = (c1 - c0) * 0.5;
        let es = Self::strain(c0) + Self::strain(c1);
        0.5 * self.lambda * de.trace() * es.trace() + self.mu * de.dot(&es)
    }

    /// `S = λ tr(E) I + 2μ E`.
    pub fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64> {
        self.stress_of_strain(&Self::strain(c))
    }

    /// `∂S/∂C = λ/2 I⊗I + μ 𝕀` (constant).
    pub fn tangent(&self) -> Tangent {
        Tangent::isotropic(0.5 * self.lambda, self.mu)
    }

    /// Simo–Tarnow: `S_alg = λ tr(E_m) I + 2μ E_m`, `E_m = (E(C0) + E(C1))/2`.
    pub fn algorithmic_stress(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Matrix3<f64> {
        let em = (Self::strain(c0) + Self::strain(c1)) * 0.5;
        self.stress_of_strain(&em)
    }

    /// `∂S_alg/∂C1 = ¼ ℂ = λ/4 I⊗I + μ/2 𝕀` (constant).
    pub fn algorithmic_tangent(&self) -> Tangent {
        Tangent::isotropic(0.25 * self.lambda, 0.5 * self.mu)
    }
}
