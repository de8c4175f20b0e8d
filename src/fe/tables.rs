//! Per-kind tables of shape values and reference gradients at the quadrature
//! points, computed once (first use) so kernels neither recompute nor allocate.

use super::{ElementKind, QuadPoint};
use std::sync::OnceLock;

/// Largest node count of any element (hex8).
pub(crate) const MAX_NODES: usize = 8;
/// Largest quadrature-point count of any element (hex8, 2×2×2).
pub(crate) const MAX_QP: usize = 8;

/// Shape data of one element kind at its quadrature points.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RefTable {
    pub nq: usize,
    pub nn: usize,
    pub weight: [f64; MAX_QP],
    /// `n[q][a] = N_a(ξ_q)`.
    pub n: [[f64; MAX_NODES]; MAX_QP],
    /// `dn[q][a][k] = ∂N_a/∂ξ_k (ξ_q)`.
    pub dn: [[[f64; 3]; MAX_NODES]; MAX_QP],
}

const ALL: [ElementKind; 5] = [
    ElementKind::Line2,
    ElementKind::Tri3,
    ElementKind::Quad4,
    ElementKind::Tet4,
    ElementKind::Hex8,
];

/// Centroid rules: `(ξ_c, reference measure)`.
const TRI_CENTROID: [QuadPoint; 1] = [QuadPoint {
    xi: [1.0 / 3.0, 1.0 / 3.0, 0.0],
    weight: 0.5,
}];
const TET_CENTROID: [QuadPoint; 1] = [QuadPoint {
    xi: [0.25, 0.25, 0.25],
    weight: 1.0 / 6.0,
}];

fn build(kind: ElementKind, qps: &[QuadPoint]) -> RefTable {
    let mut t = RefTable {
        nq: qps.len(),
        nn: kind.n_nodes(),
        weight: [0.0; MAX_QP],
        n: [[0.0; MAX_NODES]; MAX_QP],
        dn: [[[0.0; 3]; MAX_NODES]; MAX_QP],
    };
    for (q, p) in qps.iter().enumerate() {
        t.weight[q] = p.weight;
        kind.shape(&p.xi, &mut t.n[q], &mut t.dn[q]);
    }
    t
}

/// The table of `kind` at its full rule [`ElementKind::quadrature`] (built on first call).
#[inline]
pub(crate) fn table(kind: ElementKind) -> &'static RefTable {
    static TABLES: OnceLock<[RefTable; 5]> = OnceLock::new();
    let all = TABLES.get_or_init(|| ALL.map(|k| build(k, k.quadrature())));
    &all[kind as usize]
}

/// The table for integrands that are functions of `F` only (internal force, tangent,
/// strain energy, stress): on the affine simplices `F` is constant, so the centroid
/// rule is exact; quad4/hex8 use their full rule.
#[inline]
pub(crate) fn stiffness_table(kind: ElementKind) -> &'static RefTable {
    static TABLES: OnceLock<[RefTable; 5]> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        ALL.map(|k| match k {
            ElementKind::Tri3 => build(k, &TRI_CENTROID),
            ElementKind::Tet4 => build(k, &TET_CENTROID),
            _ => build(k, k.quadrature()),
        })
    });
    &all[kind as usize]
}
