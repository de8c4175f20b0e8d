//! Stress output: the volume-averaged Cauchy stress of an element, the Cauchy
//! stress at its nodes, and the von Mises equivalent stress.

use super::geometry::{checked_det, deformation_gradient, qp_geometry};
use super::{checked, checked_stiffness_table, KernelError};
use crate::fe::tables::{nodal_table, RefTable};
use crate::fe::ElementKind;
use crate::material::Material;
use nalgebra::Matrix3;

/// Volume-averaged Cauchy stress (3×3; plane strain has σ_zz ≠ 0) and strain
/// energy density (energy / reference volume) of the element in configuration `x`.
///
/// The average is over the *current* volume: `σ̄ = ∫ σ dv / ∫ dv
/// = Σ_q dV_q F S Fᵀ / Σ_q dV_q det F`, with `σ = F S Fᵀ / J`.
#[track_caller]
pub fn cell_stress<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<(Matrix3<f64>, f64), KernelError> {
    let t = checked_stiffness_table::<D>(kind, xref);
    assert!(
        x.len() == t.nn,
        "cell_stress: x has {} nodes, expected {}",
        x.len(),
        t.nn
    );
    by_nodes!(t.nn, cell_stress_n::<D>(t, material, xref, x))
}

fn cell_stress_n<const D: usize, const N: usize>(
    t: &RefTable,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<(Matrix3<f64>, f64), KernelError> {
    let mut tau = Matrix3::zeros();
    let (mut vref, mut vcur, mut e) = (0.0, 0.0, 0.0);
    for q in 0..t.nq {
        let g = qp_geometry::<D, N>(t, q, xref)?;
        let fx = deformation_gradient::<D, N>(&g, x);
        let det = checked_det(&fx)?;
        let c = fx.transpose() * fx;
        tau += fx * material.stress(&c) * fx.transpose() * g.dvol;
        e += g.dvol * material.energy(&c);
        vref += g.dvol;
        vcur += g.dvol * det;
    }
    Ok((tau / vcur, e / vref))
}

/// Cauchy stress `σ = F S Fᵀ / det F` at node `a` of the element (local
/// index), with `F` the deformation gradient of the element's interpolation
/// evaluated at the node's reference coordinates (not extrapolated from the
/// quadrature points: on tri3/tet4 every node gets the element's constant
/// stress). Averages over the elements of a node make the `stress` point data
/// of the VTK output.
#[track_caller]
pub fn nodal_stress<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
    a: usize,
) -> Result<Matrix3<f64>, KernelError> {
    let t = checked::<D>(kind, xref, nodal_table(kind));
    assert!(
        x.len() == t.nn && a < t.nn,
        "nodal_stress: x has {} nodes, node {a}, expected {}",
        x.len(),
        t.nn
    );
    by_nodes!(t.nn, nodal_stress_n::<D>(t, material, xref, x, a))
}

fn nodal_stress_n<const D: usize, const N: usize>(
    t: &RefTable,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
    a: usize,
) -> Result<Matrix3<f64>, KernelError> {
    let g = qp_geometry::<D, N>(t, a, xref)?;
    let fx = deformation_gradient::<D, N>(&g, x);
    let det = checked_det(&fx)?;
    Ok(fx * material.stress(&(fx.transpose() * fx)) * fx.transpose() / det)
}

/// Von Mises equivalent stress `√(3/2 s:s)`, `s` the deviator of `σ`.
pub fn von_mises(sigma: &Matrix3<f64>) -> f64 {
    let p = sigma.trace() / 3.0;
    let s = sigma - Matrix3::identity() * p;
    (1.5 * s.component_mul(&s).sum()).sqrt()
}
