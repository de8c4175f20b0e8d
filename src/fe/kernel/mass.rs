//! Element mass: consistent, and lumped (row sums on first-order elements,
//! HRZ diagonal scaling on second-order ones).

use super::geometry::qp_geometry;
use super::{checked_table, KernelError};
use crate::fe::tables::RefTable;
use crate::fe::ElementKind;

/// Mass: consistent `m[a*n+b] = ∫ ρ N_a N_b dV` (n×n scalar matrix, overwritten)
/// or, with `lumped`, a diagonal (`m[a*n+a]`, others 0). Both have total
/// `Σ_ab m_ab = ρ V`. The consistent mass (Love & Laursen 2003 eq. 38:
/// `M_AB = ⟨ρ₀N_A, N_B⟩`) is exact for undistorted elements (the mass rule,
/// [`ElementKind::quadrature`]).
///
/// Lumping:
/// * first-order kinds: the row sums `m_a = ∫ ρ N_a dV` (Hughes, *The Finite
///   Element Method*, 2000, §7.3.2), positive for these elements;
/// * second-order kinds: HRZ (Hinton, Rock & Zienkiewicz 1976, "A note on mass
///   lumping and related processes in the finite element method", Earthquake
///   Eng. Struct. Dyn. 4) — the diagonal of the consistent matrix scaled to the
///   element's mass, `m_a = ρV · M_aa / Σ_b M_bb`. The row sums are not usable
///   there: `∫ N_a dV` is zero at the corners of tri6 and negative at those of
///   quad8 (−1/12 of the mass), tet10 (−1/20) and hex20 (−1/8). HRZ is positive
///   at every node of every kind, and on undistorted quad9 / hex27 it equals the
///   row sums (both are products of the 1D ratios 1 : 4 : 1).
#[track_caller]
pub fn mass<const D: usize>(
    kind: ElementKind,
    density: f64,
    xref: &[[f64; 3]],
    lumped: bool,
    m: &mut [f64],
) -> Result<(), KernelError> {
    let t = checked_table::<D>(kind, xref);
    let nn = t.nn;
    assert!(
        m.len() == nn * nn,
        "mass: m has length {}, expected {}",
        m.len(),
        nn * nn
    );
    m.fill(0.0);
    for q in 0..t.nq {
        let w = density * by_nodes!(nn, volume_weight::<D>(t, q, xref))?;
        let n = &t.n[q];
        for a in 0..nn {
            for b in 0..nn {
                m[a * nn + b] += w * n[a] * n[b];
            }
        }
    }
    if lumped {
        let total: f64 = m.iter().sum();
        let diagonal: f64 = (0..nn).map(|a| m[a * nn + a]).sum();
        for a in 0..nn {
            let lumped_a = if kind.order() == 1 {
                m[a * nn..(a + 1) * nn].iter().sum()
            } else {
                total * m[a * nn + a] / diagonal
            };
            m[a * nn..(a + 1) * nn].fill(0.0);
            m[a * nn + a] = lumped_a;
        }
    }
    Ok(())
}

/// `w_q det J` at quadrature point `q`.
fn volume_weight<const D: usize, const N: usize>(
    t: &RefTable,
    q: usize,
    xref: &[[f64; 3]],
) -> Result<f64, KernelError> {
    Ok(qp_geometry::<D, N>(t, q, xref)?.dvol)
}
