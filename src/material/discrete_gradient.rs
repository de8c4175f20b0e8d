//! Gonzalez's discrete gradient for a general hyperelastic `W(C)` and its exact
//! linearization with respect to `C1`.
//!
//! Gonzalez (2000), "Exact energy and momentum conserving algorithms for general
//! models in nonlinear elasticity", CMAME 190, 1763–1783 (the discrete gradient of a
//! strain energy written in `C`); DESIGN §4:
//!
//! ```text
//! S_alg = S(C_m) + 2φ ΔC/(ΔC:ΔC),   φ = W(C1) − W(C0) − ½ S(C_m):ΔC,
//! C_m = (C0 + C1)/2,  ΔC = C1 − C0,
//! ```
//!
//! so that `½ S_alg:ΔC = W(C1) − W(C0)` exactly. With `ℂ_m = ∂S/∂C|_{C_m}`
//! (so `dS = ℂ:dC`), `n = ΔC:ΔC`, `dC0 = 0` and `dΔC = dC1`:
//!
//! ```text
//! dS_alg = ½ ℂ_m:dΔC + 2 dφ ΔC/n + 2φ [dΔC/n − 2 ΔC (ΔC:dΔC)/n²],
//! dφ     = ½ (S(C1) − S(C_m)):dΔC − ¼ ΔC:ℂ_m:dΔC.
//! ```
//!
//! **Threshold.** `φ = O(|ΔC|³)`, so the correction is `O(|ΔC|²)` in the stress and
//! `O(|ΔC|)` in the tangent, while its round-off (with the cancellation-free
//! `W(C1) − W(C0)`) is `O(ε|S|)` in the stress and `O(ε|S|/|ΔC|)` in the tangent.
//! Below `|ΔC| ≤ δ |C_m|` with `δ = 10⁻⁸ ≈ √ε` we use `S(C_m)` and `½ ℂ_m`:
//! the identity error there is `|φ| = O(δ³)` (far below round-off), the stress jump
//! `O(δ²)` and the tangent jump and noise both `O(δ) ≈ 10⁻⁸` relative.

use super::tangent::{ddot_voigt, to_voigt, weighted};
use super::Tangent;
use nalgebra::{Matrix3, Matrix6};

/// Relative threshold `δ` on `|ΔC| / |C_m|` (Frobenius norms).
pub const DISCRETE_GRADIENT_THRESHOLD: f64 = 1e-8;

/// What the discrete gradient needs from a material.
pub(crate) trait Hyperelastic {
    /// `S = 2∂W/∂C`.
    fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64>;
    /// `∂S/∂C`.
    fn tangent(&self, c: &Matrix3<f64>) -> Tangent;
    /// `W(C1) − W(C0)`, accurate to round-off relative to `|S||ΔC|`.
    fn energy_difference(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> f64;
}

/// `true` when `ΔC` is too small for the correction term (see module docs).
#[inline]
fn below_threshold(dc: &Matrix3<f64>, cm: &Matrix3<f64>) -> bool {
    let d2 = DISCRETE_GRADIENT_THRESHOLD * DISCRETE_GRADIENT_THRESHOLD;
    dc.norm_squared() <= d2 * cm.norm_squared()
}

/// Gonzalez discrete-gradient stress `S_alg(C0, C1)`.
pub(crate) fn stress<M: Hyperelastic>(m: &M, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Matrix3<f64> {
    let cm = (c0 + c1) * 0.5;
    let dc = c1 - c0;
    let sm = m.stress(&cm);
    if below_threshold(&dc, &cm) {
        return sm;
    }
    let n = dc.norm_squared();
    let phi = m.energy_difference(c0, c1) - 0.5 * sm.dot(&dc);
    sm + dc * (2.0 * phi / n)
}

/// Exact `∂S_alg/∂C1` of [`stress`] (module docs for the formula).
pub(crate) fn tangent<M: Hyperelastic>(m: &M, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Tangent {
    let cm = (c0 + c1) * 0.5;
    let dc = c1 - c0;
    let tm = m.tangent(&cm).0;
    if below_threshold(&dc, &cm) {
        return Tangent(tm * 0.5);
    }
    let sm = m.stress(&cm);
    let s1 = m.stress(c1);
    let dcv = to_voigt(&dc);
    let wdc = weighted(&dcv);
    let n = ddot_voigt(&dcv, &dcv);
    let phi = m.energy_difference(c0, c1) - 0.5 * sm.dot(&dc);
    // dφ = g · dΔC_v
    let g = weighted(&to_voigt(&(s1 - sm))) * 0.5 - tm.transpose() * wdc * 0.25;
    let mut t =
        tm * 0.5 + dcv * g.transpose() * (2.0 / n) - dcv * wdc.transpose() * (4.0 * phi / (n * n));
    t += Matrix6::identity() * (2.0 * phi / n);
    Tangent(t)
}
