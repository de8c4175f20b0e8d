//! Per-kind tables of shape values and reference gradients at the quadrature
//! points, computed once (first use) so kernels neither recompute nor allocate.

use super::{ElementKind, QuadPoint};
use std::sync::OnceLock;

/// Largest node count of any element (hex27).
pub const MAX_NODES: usize = 27;
/// Largest quadrature-point count of any rule (hex20/hex27, 3×3×3).
pub(crate) const MAX_QP: usize = 27;

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

/// One table per kind, built on the heap (a table is 23 kB).
fn build_all(rule: impl Fn(ElementKind) -> Vec<QuadPoint>) -> Box<[RefTable]> {
    ElementKind::ALL
        .iter()
        .map(|&k| build(k, &rule(k)))
        .collect()
}

/// The table of `kind` at its mass rule [`ElementKind::quadrature`] (built on first call).
#[inline]
pub(crate) fn table(kind: ElementKind) -> &'static RefTable {
    static TABLES: OnceLock<Box<[RefTable]>> = OnceLock::new();
    let all = TABLES.get_or_init(|| build_all(|k| k.quadrature().to_vec()));
    &all[kind as usize]
}

/// The table of `kind` at its stiffness rule [`ElementKind::stiffness_quadrature`],
/// for integrands that are functions of `F` only (internal force, tangent,
/// strain energy, stress).
#[inline]
pub(crate) fn stiffness_table(kind: ElementKind) -> &'static RefTable {
    static TABLES: OnceLock<Box<[RefTable]>> = OnceLock::new();
    let all = TABLES.get_or_init(|| build_all(|k| k.stiffness_quadrature().to_vec()));
    &all[kind as usize]
}

/// The table of `kind` at its own nodes (for nodal stresses and Jacobian checks).
#[inline]
pub(crate) fn nodal_table(kind: ElementKind) -> &'static RefTable {
    static TABLES: OnceLock<Box<[RefTable]>> = OnceLock::new();
    let all = TABLES.get_or_init(|| {
        build_all(|k| {
            k.reference_nodes()
                .iter()
                .map(|&xi| QuadPoint { xi, weight: 0.0 })
                .collect()
        })
    });
    &all[kind as usize]
}
