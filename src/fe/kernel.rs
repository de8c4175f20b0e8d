//! Element kernels: internal force and its tangent, strain energy, mass, cell
//! stress, characteristic length. Dimension `D` is 2 (plane strain) or 3.
//! Coordinates are always passed as `[f64; 3]` (z = 0 in 2D). Nodal vectors are
//! laid out node-major: `f[a*D + i]`; matrices row-major `k[(a*D+i)*(n*D) + b*D+j]`.
//! (Interface fixed by the skeleton; bodies are the fe owner's to fill.)

use super::ElementKind;
use crate::material::Material;
use nalgebra::Matrix3;

/// Which stress enters the internal force.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StressEval {
    /// Energy-momentum: `f_a = ∫ F_{n+½} S_alg(C_n, C_{n+1}) ∇_X N_a dV`
    /// (Simo & Tarnow 1992; Gonzalez 2000; DESIGN §4).
    Midpoint,
    /// Newmark / static: `f_a = ∫ F_{n+1} S(C_{n+1}) ∇_X N_a dV` (`x0` is ignored).
    EndPoint,
}

/// A failure inside an element: something the time step must be cut for.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum KernelError {
    /// `det F ≤ 0` (or non-finite) at a quadrature point of the current configuration.
    #[error("inverted element (det F = {det_f:e})")]
    Inverted { det_f: f64 },
    /// `det J ≤ 0` in the reference configuration: the mesh itself is bad.
    #[error("degenerate or inverted reference element (det J = {det_j:e})")]
    BadReference { det_j: f64 },
}

/// Adds the element internal force to `f` (length `n·D`) and, when `k` is given,
/// writes the consistent tangent `∂f/∂x1` into `k` (length `(n·D)²`, overwritten).
pub fn internal_force<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    eval: StressEval,
    f: &mut [f64],
    k: Option<&mut [f64]>,
) -> Result<(), KernelError> {
    let _ = (kind, material, xref, x0, x1, eval, f, k);
    todo!("fe: internal force")
}

/// Strain energy `∫ W(C) dV` of the element in configuration `x`.
pub fn strain_energy<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<f64, KernelError> {
    let _ = (kind, material, xref, x);
    todo!("fe: strain energy")
}

/// Reference volume (area in 2D, per unit thickness).
pub fn volume<const D: usize>(kind: ElementKind, xref: &[[f64; 3]]) -> Result<f64, KernelError> {
    let _ = (kind, xref);
    todo!("fe: volume")
}

/// Mass: consistent `m[a*n+b] = ∫ ρ N_a N_b dV` (n×n scalar matrix, overwritten)
/// or, with `lumped`, the row sums on the diagonal (`m[a*n+a]`, others 0).
pub fn mass<const D: usize>(
    kind: ElementKind,
    density: f64,
    xref: &[[f64; 3]],
    lumped: bool,
    m: &mut [f64],
) -> Result<(), KernelError> {
    let _ = (kind, density, xref, lumped, m);
    todo!("fe: mass")
}

/// Volume-averaged Cauchy stress (3×3; plane strain has σ_zz ≠ 0) and strain
/// energy density (energy / reference volume) of the element in configuration `x`.
pub fn cell_stress<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<(Matrix3<f64>, f64), KernelError> {
    let _ = (kind, material, xref, x);
    todo!("fe: cell stress")
}

/// Characteristic length for the explicit stable time step `h / c`
/// (smallest altitude / shortest distance between opposite faces).
pub fn characteristic_length<const D: usize>(kind: ElementKind, xref: &[[f64; 3]]) -> f64 {
    let _ = (kind, xref);
    todo!("fe: characteristic length")
}
