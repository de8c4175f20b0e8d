//! Quadrature-point contribution to the internal force and its tangent.
//!
//! With `G_a = ∇_X N_a`, a stress `S` and the force-side deformation gradient `F_f`
//! (`F_{n+½}` for the midpoint rule, `F_{n+1}` for the end-point rule):
//!
//! ```text
//! f_{ai} += dV (F_f S G_a)_i
//! K_{ai,bj} += dV [ γ (G_a·S G_b) δ_ij + B(F_f; a,i) · T · dC(F_{n+1}; b,j) ]
//! ```
//!
//! where `γ = ∂F_f/∂F_{n+1}` (½ or 1), `T = ∂S/∂C_{n+1}` in Voigt form,
//! `dC(F; b,j)` the Voigt tensor components of `FᵀdF + dFᵀF` for `dF = e_j ⊗ G_b`,
//! and `B(F; a,i)` the Voigt covector with `B·dS_v = dS:(F_iJ G_aK)` (Bathe,
//! *Finite Element Procedures*, 1996, §6.2.3, total Lagrangian `B_L`, `B_NL`).
//! Everything lives in fixed-size stack arrays (≤ 8 nodes × 3 = 24 dofs).

use super::super::tables::MAX_NODES;
use super::geometry::QpGeometry;
use crate::material::Tangent;
use nalgebra::Matrix3;

pub(super) const MAX_DOF: usize = 3 * MAX_NODES;

/// `f += dV F_f S G_a`.
#[inline]
pub(super) fn add_force<const D: usize>(
    g: &QpGeometry,
    nn: usize,
    ff: &Matrix3<f64>,
    s: &Matrix3<f64>,
    f: &mut [f64],
) {
    let p = ff * s * g.dvol;
    for a in 0..nn {
        let ga = &g.grad[a];
        for i in 0..D {
            f[a * D + i] += p[(i, 0)] * ga[0] + p[(i, 1)] * ga[1] + p[(i, 2)] * ga[2];
        }
    }
}

/// Voigt row with `row · v = sym(r ⊗ g)` contracted against a symmetric `v`
/// (tensor components; shears count both off-diagonal entries).
#[inline(always)]
fn b_row(r: [f64; 3], g: &[f64; 3]) -> [f64; 6] {
    [
        r[0] * g[0],
        r[1] * g[1],
        r[2] * g[2],
        r[0] * g[1] + r[1] * g[0],
        r[1] * g[2] + r[2] * g[1],
        r[0] * g[2] + r[2] * g[0],
    ]
}

/// `k += dV [γ (G_a·S G_b) δ_ij + B(F_f; a,i)·T·dC(F1; b,j)]` on a row-major
/// `(nn·D)²` matrix.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn add_tangent<const D: usize>(
    g: &QpGeometry,
    nn: usize,
    ff: &Matrix3<f64>,
    f1: &Matrix3<f64>,
    s: &Matrix3<f64>,
    t: &Tangent,
    gamma: f64,
    k: &mut [f64],
) {
    let ndof = nn * D;
    // TB = dV · T · dC1, column c = b·D + j.
    let mut dc = [[0.0f64; MAX_DOF]; 6];
    for b in 0..nn {
        for j in 0..D {
            let row = [f1[(j, 0)], f1[(j, 1)], f1[(j, 2)]];
            let v = b_row(row, &g.grad[b]);
            let c = b * D + j;
            // dC_v: normal components are 2 F_jK G_K.
            dc[0][c] = 2.0 * v[0];
            dc[1][c] = 2.0 * v[1];
            dc[2][c] = 2.0 * v[2];
            dc[3][c] = v[3];
            dc[4][c] = v[4];
            dc[5][c] = v[5];
        }
    }
    let mut tb = [[0.0f64; MAX_DOF]; 6];
    let tm = &t.0;
    for (r, tb_r) in tb.iter_mut().enumerate() {
        let tr = [
            tm[(r, 0)] * g.dvol,
            tm[(r, 1)] * g.dvol,
            tm[(r, 2)] * g.dvol,
            tm[(r, 3)] * g.dvol,
            tm[(r, 4)] * g.dvol,
            tm[(r, 5)] * g.dvol,
        ];
        for (l, dc_l) in dc.iter().enumerate() {
            let w = tr[l];
            for (x, y) in tb_r[..ndof].iter_mut().zip(&dc_l[..ndof]) {
                *x += w * y;
            }
        }
    }
    // Geometric part: γ dV G_a·S G_b.
    let mut sg = [[0.0f64; 3]; MAX_NODES];
    for b in 0..nn {
        let gb = &g.grad[b];
        for i in 0..3 {
            sg[b][i] = gamma * g.dvol * (s[(i, 0)] * gb[0] + s[(i, 1)] * gb[1] + s[(i, 2)] * gb[2]);
        }
    }
    for a in 0..nn {
        let ga = &g.grad[a];
        let mut geo = [0.0f64; MAX_NODES];
        for b in 0..nn {
            geo[b] = ga[0] * sg[b][0] + ga[1] * sg[b][1] + ga[2] * sg[b][2];
        }
        for i in 0..D {
            let r = a * D + i;
            let krow = &mut k[r * ndof..r * ndof + ndof];
            let bm = b_row([ff[(i, 0)], ff[(i, 1)], ff[(i, 2)]], ga);
            for (l, tb_l) in tb.iter().enumerate() {
                let w = bm[l];
                for (x, y) in krow.iter_mut().zip(&tb_l[..ndof]) {
                    *x += w * y;
                }
            }
            for b in 0..nn {
                krow[b * D + i] += geo[b];
            }
        }
    }
}
