//! Hyperelastic materials and their energy-conserving algorithmic stresses.
//!
//! Stresses are second Piola–Kirchhoff `S = 2 ∂W/∂C` as 3×3 matrices; plane strain
//! uses the same 3×3 formulas with `C_zz = 1`.
//!
//! * [`Svk`]: St. Venant–Kirchhoff, algorithmic stress of Simo & Tarnow (1992).
//! * [`NeoHookean`]: compressible neo-Hookean, algorithmic stress by Gonzalez's (2000)
//!   discrete gradient ([`discrete_gradient`]).
//!
//! Both algorithmic stresses satisfy `W(C1) − W(C0) = ½ S_alg:(C1 − C0)` to round-off,
//! which is what makes the midpoint internal force conserve energy (DESIGN §4).
//! All tangents here are `∂S/∂C` (`dS = T(dC)`), i.e. *half* of the elasticity
//! tensor `ℂ = 4∂²W/∂C∂C` of the `dS = ½ ℂ:dC` convention.

use nalgebra::{Matrix3, Matrix6};

pub mod discrete_gradient;
mod neo_hookean;
mod svk;
pub mod tangent;

/// Linearization of a stress with respect to `C` (or `C_{n+1}`): `dS = T(dC)`
/// for symmetric `dC`. Stored as a 6×6 matrix acting on Voigt vectors
/// `[11, 22, 33, 12, 23, 13]` of tensor components (no factor 2 on shears), so
/// `dS_v = t · dC_v` where the shear entries of `t` already account for `dC_12 = dC_21`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tangent(pub Matrix6<f64>);

/// St. Venant–Kirchhoff: `W = λ/2 (tr E)² + μ E:E`, `E = (C − I)/2`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Svk {
    pub lambda: f64,
    pub mu: f64,
}

/// Compressible neo-Hookean: `W = μ/2 (tr C − 3) − μ ln J + λ/2 (ln J)²`, `J = √det C`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NeoHookean {
    pub lambda: f64,
    pub mu: f64,
}

/// A material law. An enum (not a trait object) so element loops dispatch cheaply.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Material {
    Svk(Svk),
    NeoHookean(NeoHookean),
}

/// Lamé parameters from Young's modulus and Poisson's ratio.
pub fn lame(young: f64, poisson: f64) -> (f64, f64) {
    let lambda = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson));
    let mu = young / (2.0 * (1.0 + poisson));
    (lambda, mu)
}

impl Material {
    /// Lamé parameters `(λ, μ)`.
    pub fn lame(&self) -> (f64, f64) {
        match *self {
            Material::Svk(m) => (m.lambda, m.mu),
            Material::NeoHookean(m) => (m.lambda, m.mu),
        }
    }

    /// Stored energy density `W(C)` per unit reference volume.
    /// For `det C ≤ 0` neo-Hookean returns `f64::INFINITY` (SVK is finite everywhere).
    pub fn energy(&self, c: &Matrix3<f64>) -> f64 {
        match self {
            Material::Svk(m) => m.energy(c),
            Material::NeoHookean(m) => m.energy(c),
        }
    }

    /// `S(C) = 2 ∂W/∂C` (neo-Hookean: NaN entries when `det C ≤ 0`).
    pub fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64> {
        match self {
            Material::Svk(m) => m.stress(c),
            Material::NeoHookean(m) => m.stress(c),
        }
    }

    /// `∂S/∂C` at `C`.
    pub fn tangent(&self, c: &Matrix3<f64>) -> Tangent {
        match self {
            Material::Svk(m) => m.tangent(),
            Material::NeoHookean(m) => m.tangent(c),
        }
    }

    /// Algorithmic stress with `W(C1) − W(C0) = ½ S_alg : (C1 − C0)` exactly
    /// (SVK: Simo–Tarnow; others: Gonzalez discrete gradient; DESIGN §4).
    /// `S_alg(C, C) = S(C)`.
    pub fn algorithmic_stress(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Matrix3<f64> {
        match self {
            Material::Svk(m) => m.algorithmic_stress(c0, c1),
            Material::NeoHookean(m) => discrete_gradient::stress(m, c0, c1),
        }
    }

    /// `∂S_alg/∂C1` (exact).
    pub fn algorithmic_tangent(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Tangent {
        match self {
            Material::Svk(m) => m.algorithmic_tangent(),
            Material::NeoHookean(m) => discrete_gradient::tangent(m, c0, c1),
        }
    }

    /// `W(C1) − W(C0)` evaluated without cancellation for close arguments (for
    /// neo-Hookean the value the discrete gradient is built on), accurate to
    /// round-off relative to `|S||ΔC|`.
    pub fn energy_difference(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> f64 {
        match self {
            Material::Svk(m) => m.energy_difference(c0, c1),
            Material::NeoHookean(m) => m.energy_difference(c0, c1),
        }
    }

    /// Small-strain P-wave modulus `λ + 2μ` (for wave speeds).
    pub fn p_wave_modulus(&self) -> f64 {
        let (l, m) = self.lame();
        l + 2.0 * m
    }
}
