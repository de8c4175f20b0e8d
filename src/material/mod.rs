//! Hyperelastic materials and their energy-conserving algorithmic stresses.
//!
//! Stresses are second Piola–Kirchhoff `S = 2 ∂W/∂C` as 3×3 matrices; plane strain
//! uses the same 3×3 formulas with `C_zz = 1`.
//! (Interface fixed by the skeleton; bodies are the material owner's to fill.)

use nalgebra::{Matrix3, Matrix6};

/// Linearization of a stress with respect to `C` (or `C_{n+1}`): `dS = T(dC)`
/// for symmetric `dC`. Stored as a 6×6 matrix acting on Voigt vectors
/// `[11, 22, 33, 12, 23, 13]` of tensor components (no factor 2 on shears), so
/// `dS_v = t · dC_v` where the shear entries of `t` already account for `dC_12 = dC_21`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tangent(pub Matrix6<f64>);

impl Tangent {
    /// `dS = T(dC)`; `dc` must be symmetric.
    pub fn apply(&self, dc: &Matrix3<f64>) -> Matrix3<f64> {
        let _ = dc;
        todo!("material: tangent apply")
    }
}

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
    /// Returns `f64::INFINITY`/NaN-free large value policy is the owner's choice;
    /// for `det C ≤ 0` neo-Hookean returns `f64::INFINITY`.
    pub fn energy(&self, c: &Matrix3<f64>) -> f64 {
        let _ = c;
        todo!("material: energy")
    }

    /// `S(C) = 2 ∂W/∂C`.
    pub fn stress(&self, c: &Matrix3<f64>) -> Matrix3<f64> {
        let _ = c;
        todo!("material: stress")
    }

    /// `∂S/∂C` at `C`.
    pub fn tangent(&self, c: &Matrix3<f64>) -> Tangent {
        let _ = c;
        todo!("material: tangent")
    }

    /// Algorithmic stress with `W(C1) − W(C0) = ½ S_alg : (C1 − C0)` exactly
    /// (SVK: Simo–Tarnow; others: Gonzalez discrete gradient; DESIGN §4).
    pub fn algorithmic_stress(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Matrix3<f64> {
        let _ = (c0, c1);
        todo!("material: algorithmic stress")
    }

    /// `∂S_alg/∂C1` (exact).
    pub fn algorithmic_tangent(&self, c0: &Matrix3<f64>, c1: &Matrix3<f64>) -> Tangent {
        let _ = (c0, c1);
        todo!("material: algorithmic tangent")
    }

    /// Small-strain P-wave modulus `λ + 2μ` (for wave speeds).
    pub fn p_wave_modulus(&self) -> f64 {
        let (l, m) = self.lame();
        l + 2.0 * m
    }
}
