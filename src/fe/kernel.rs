//! Element kernels: internal force and its tangent, strain energy, mass, cell
//! stress, characteristic length. Dimension `D` is 2 (plane strain) or 3.
//! Coordinates are always passed as `[f64; 3]` (z = 0 in 2D). Nodal vectors are
//! laid out node-major: `f[a*D + i]`; matrices row-major `k[(a*D+i)*(n*D) + b*D+j]`.
//!
//! Quadrature: `mass` and `volume` use the element's mass rule
//! ([`ElementKind::quadrature`]). Integrands that depend on the configuration only
//! through `F` (internal force, tangent, strain energy, stress) use its stiffness
//! rule ([`ElementKind::stiffness_quadrature`]: the centroid on tri3/tet4, where `F`
//! is constant so one point is exact; the table and its reasons are in the docs of
//! the quadrature module). Shape data come from tables computed once; nothing
//! allocates: per-element data lives in fixed-size stack arrays sized by the
//! element's node count (at most 27 nodes × 3 = 81 dofs).
//!
//! Contract for callers (panics, these are caller bugs): `D` is 2 or 3, `kind` has
//! reference dimension `D` (tri3/quad4/tri6/quad8/quad9 in 2D, tet4/hex8/tet10/
//! hex20/hex27 in 3D), and every slice has the length stated in the function docs.

/// Calls `f::<D, N>(args)` with the node count `N` of the element as a constant.
macro_rules! by_nodes {
    ($nn:expr, $f:ident::<$d:ident>($($arg:expr),*)) => {
        match $nn {
            3 => $f::<$d, 3>($($arg),*),
            4 => $f::<$d, 4>($($arg),*),
            6 => $f::<$d, 6>($($arg),*),
            8 => $f::<$d, 8>($($arg),*),
            9 => $f::<$d, 9>($($arg),*),
            10 => $f::<$d, 10>($($arg),*),
            20 => $f::<$d, 20>($($arg),*),
            27 => $f::<$d, 27>($($arg),*),
            n => unreachable!("no element has {n} nodes"),
        }
    };
}

mod geometry;
mod length;
mod mass;
mod stiffness;
mod stress;

use super::tables::{stiffness_table, table, RefTable};
use super::ElementKind;
use crate::material::Material;
use geometry::{checked_det, deformation_gradient, qp_geometry};
use nalgebra::Matrix3;
use stiffness::{add_force, add_tangent, scatter, Blocks};

pub use length::{characteristic_length, second_order_factor};
pub use mass::mass;
pub use stress::{cell_stress, nodal_stress, von_mises};

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
///
/// * [`StressEval::Midpoint`] (DESIGN §4; Love & Laursen 2003 eq. 39; Simo & Tarnow
///   1992; Gonzalez 2000): `f_a = ∫ F_{n+½} S_alg(C_n, C_{n+1}) ∇_X N_a dV`, `F_{n+½} = (F_n+F_{n+1})/2`.
///   Tangent (unsymmetric): `K_{ai,bj} = ∫ ½ (∇N_a·S_alg ∇N_b) δ_ij
///   + (F_{n+½}ᵀ e_i ⊗ ∇N_a) : ∂S_alg/∂C_{n+1} : (F_{n+1}ᵀ dF + dFᵀ F_{n+1})`,
///   `dF = e_j ⊗ ∇N_b`. Then `f·(x1 − x0) = Π(x1) − Π(x0)`, `Σ_a f_a = 0` and
///   `Σ_a x_{n+½,a} × f_a = 0` to round-off.
/// * [`StressEval::EndPoint`]: `f_a = ∫ F_{n+1} S(C_{n+1}) ∇_X N_a dV` with the usual
///   symmetric total-Lagrangian tangent; `x0` is not read (may be `x1`).
///
/// Errors: `BadReference` if `det J ≤ 0` at a quadrature point; `Inverted` if
/// `det F_{n+1}` (and, for `Midpoint`, `det F_n`) is not positive and finite.
/// On error neither `f` nor `k` is modified.
#[allow(clippy::too_many_arguments)]
#[track_caller]
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
    let t = checked_stiffness_table::<D>(kind, xref);
    let nn = t.nn;
    let ndof = nn * D;
    assert!(
        x1.len() == nn,
        "internal_force: x1 has {} nodes, expected {nn}",
        x1.len()
    );
    assert!(
        f.len() == ndof,
        "internal_force: f has length {}, expected {ndof}",
        f.len()
    );
    if eval == StressEval::Midpoint {
        assert!(
            x0.len() == nn,
            "internal_force: x0 has {} nodes, expected {nn}",
            x0.len()
        );
    }
    let mut k = k;
    if let Some(k) = k.as_deref_mut() {
        assert!(
            k.len() == ndof * ndof,
            "internal_force: k has length {}, expected {}",
            k.len(),
            ndof * ndof
        );
    }
    by_nodes!(
        nn,
        internal_force_n::<D>(t, material, xref, x0, x1, eval, f, k)
    )
}

/// [`internal_force`] for `N` nodes (loop bounds known at compile time).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn internal_force_n<const D: usize, const N: usize>(
    t: &RefTable,
    material: &Material,
    xref: &[[f64; 3]],
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    eval: StressEval,
    f: &mut [f64],
    k: Option<&mut [f64]>,
) -> Result<(), KernelError> {
    let mut acc: Blocks<N> = [[[[0.0; N]; N]; 3]; 3];
    let mut fl = [[0.0f64; 3]; N];
    let want_k = k.is_some();
    for q in 0..t.nq {
        let g = qp_geometry::<D, N>(t, q, xref)?;
        let f1 = deformation_gradient::<D, N>(&g, x1);
        checked_det(&f1)?;
        let c1 = f1.transpose() * f1;
        match eval {
            StressEval::Midpoint => {
                let f0 = deformation_gradient::<D, N>(&g, x0);
                checked_det(&f0)?;
                let c0 = f0.transpose() * f0;
                let fm = (f0 + f1) * 0.5;
                let s = material.algorithmic_stress(&c0, &c1);
                check_finite(&s)?;
                add_force::<D, N>(&g, &fm, &s, &mut fl);
                if want_k {
                    let tan = material.algorithmic_tangent(&c0, &c1);
                    add_tangent::<D, N>(&g, &fm, &f1, &s, &tan, 0.5, &mut acc);
                }
            }
            StressEval::EndPoint => {
                let s = material.stress(&c1);
                check_finite(&s)?;
                add_force::<D, N>(&g, &f1, &s, &mut fl);
                if want_k {
                    let tan = material.tangent(&c1);
                    add_tangent::<D, N>(&g, &f1, &f1, &s, &tan, 1.0, &mut acc);
                }
            }
        }
    }
    for (a, fa) in fl.iter().enumerate() {
        for i in 0..D {
            f[a * D + i] += fa[i];
        }
    }
    if let Some(k) = k {
        scatter::<D, N>(&acc, k);
    }
    Ok(())
}

/// Strain energy `∫ W(C) dV` of the element in configuration `x`.
/// `Inverted` if `det F ≤ 0` at a quadrature point (also for SVK, whose `W` would be finite).
#[track_caller]
pub fn strain_energy<const D: usize>(
    kind: ElementKind,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<f64, KernelError> {
    let t = checked_stiffness_table::<D>(kind, xref);
    assert!(
        x.len() == t.nn,
        "strain_energy: x has {} nodes, expected {}",
        x.len(),
        t.nn
    );
    by_nodes!(t.nn, strain_energy_n::<D>(t, material, xref, x))
}

fn strain_energy_n<const D: usize, const N: usize>(
    t: &RefTable,
    material: &Material,
    xref: &[[f64; 3]],
    x: &[[f64; 3]],
) -> Result<f64, KernelError> {
    let mut e = 0.0;
    for q in 0..t.nq {
        let g = qp_geometry::<D, N>(t, q, xref)?;
        let fx = deformation_gradient::<D, N>(&g, x);
        checked_det(&fx)?;
        e += g.dvol * material.energy(&(fx.transpose() * fx));
    }
    Ok(e)
}

/// Reference volume (area in 2D, per unit thickness): `Σ_q w_q det J_q` on the
/// mass rule (exact for affine simplices, for quad4 and hex8 — whose `det J` is
/// of degree 1 / 2 per direction — and for undistorted second-order elements).
#[track_caller]
pub fn volume<const D: usize>(kind: ElementKind, xref: &[[f64; 3]]) -> Result<f64, KernelError> {
    let t = checked_table::<D>(kind, xref);
    by_nodes!(t.nn, volume_n::<D>(t, xref))
}

fn volume_n<const D: usize, const N: usize>(
    t: &RefTable,
    xref: &[[f64; 3]],
) -> Result<f64, KernelError> {
    let mut v = 0.0;
    for q in 0..t.nq {
        v += qp_geometry::<D, N>(t, q, xref)?.dvol;
    }
    Ok(v)
}

/// The table of `kind` after checking the caller's contract.
#[track_caller]
#[inline]
pub(super) fn checked_table<const D: usize>(
    kind: ElementKind,
    xref: &[[f64; 3]],
) -> &'static RefTable {
    checked::<D>(kind, xref, table(kind))
}

/// The stiffness table of `kind` (centroid rule on simplices) after the same checks.
#[track_caller]
#[inline]
pub(super) fn checked_stiffness_table<const D: usize>(
    kind: ElementKind,
    xref: &[[f64; 3]],
) -> &'static RefTable {
    checked::<D>(kind, xref, stiffness_table(kind))
}

#[track_caller]
#[inline]
pub(super) fn checked<const D: usize>(
    kind: ElementKind,
    xref: &[[f64; 3]],
    t: &'static RefTable,
) -> &'static RefTable {
    assert!(D == 2 || D == 3, "fe kernels: D must be 2 or 3, got {D}");
    assert!(
        kind.ref_dim() == D,
        "fe kernels: {} is not a {D}D body element",
        kind.name()
    );
    assert!(
        xref.len() == t.nn,
        "fe kernels: xref has {} nodes, {} needs {}",
        xref.len(),
        kind.name(),
        t.nn
    );
    t
}

/// A non-finite stress (e.g. overflow at an absurd strain) is reported as inversion:
/// the step must be cut either way.
#[inline]
pub(super) fn check_finite(s: &Matrix3<f64>) -> Result<(), KernelError> {
    if s.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(KernelError::Inverted { det_f: f64::NAN })
    }
}
