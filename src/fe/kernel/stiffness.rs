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
//! and `B(F; a,i)` the Voigt covector with `B·dS_v = dS:(F_iJ G_aK)` (cf. Bathe,
//! *Finite Element Procedures*, 1996, ch. 6, total Lagrangian `B_L`, `B_NL`).
//! The tangent is accumulated as `K_{ai,bj} = G_a·H_ij G_b` with 3×3 blocks `H_ij`
//! (see [`add_tangent`]), which costs about half the flops of the `Bᵀ T B` product
//! and vectorizes over `b`. Everything lives in fixed-size stack arrays sized
//! by the element's node count `N` (≤ 27 nodes × 3 = 81 dofs).

// Index loops mirror the index notation of the formulas.
#![allow(clippy::needless_range_loop)]

use super::geometry::QpGeometry;
use crate::material::Tangent;
use nalgebra::Matrix3;

/// `f_a += dV F_f S G_a`.
#[inline]
pub(super) fn add_force<const D: usize, const N: usize>(
    g: &QpGeometry<N>,
    ff: &Matrix3<f64>,
    s: &Matrix3<f64>,
    f: &mut [[f64; 3]; N],
) {
    let p = ff * s * g.dvol;
    for a in 0..N {
        let ga = &g.grad[a];
        for i in 0..D {
            f[a][i] += p[(i, 0)] * ga[0] + p[(i, 1)] * ga[1] + p[(i, 2)] * ga[2];
        }
    }
}

/// Voigt index of the tensor component `(J, K)`.
const VOIGT: [[usize; 3]; 3] = [[0, 3, 5], [3, 1, 4], [5, 4, 2]];

/// Tangent accumulator in block layout `acc[i][j][a][b] = K_{ai,bj}` (b contiguous).
pub(super) type Blocks<const N: usize> = [[[[f64; N]; N]; 3]; 3];

/// `K_{ai,bj} += G_a · H_ij G_b` with
/// `H_ij[K][M] = dV [2 Σ_{J,L} F_f,iJ 𝕋_{JKLM} F1_jL + γ δ_ij S_KM]`,
/// where `𝕋` is the minor-symmetric 4th-order form of `T` (`𝕋_{JKLM} = T[JK][LM]`,
/// halved for `L ≠ M` because Voigt shear columns count `dC_LM` and `dC_ML`).
/// This equals `dV [γ (G_a·S G_b) δ_ij + B(F_f; a,i)·T·dC(F1; b,j)]` (module docs)
/// since `dC_LM = 2 sym(F1_jL G_bM)` and `B·dS = F_f,iJ dS_JK G_aK`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub(super) fn add_tangent<const D: usize, const N: usize>(
    g: &QpGeometry<N>,
    ff: &Matrix3<f64>,
    f1: &Matrix3<f64>,
    s: &Matrix3<f64>,
    t: &Tangent,
    gamma: f64,
    acc: &mut Blocks<N>,
) {
    let dv = g.dvol;
    let tm = &t.0;
    // 𝕋 contracted with F1 on its last pair: p[J][K][j][M] = Σ_L 𝕋_JKLM F1_jL.
    let mut p = [[[[0.0f64; 3]; 3]; 3]; 3];
    for jj in 0..D {
        for kk in 0..D {
            let r = VOIGT[jj][kk];
            for m in 0..D {
                for l in 0..D {
                    let c = VOIGT[l][m];
                    let w = if l == m { tm[(r, c)] } else { 0.5 * tm[(r, c)] };
                    for j in 0..D {
                        p[jj][kk][j][m] += w * f1[(j, l)];
                    }
                }
            }
        }
    }
    let mut gt = [[0.0f64; N]; 3];
    for b in 0..N {
        for k in 0..D {
            gt[k][b] = g.grad[b][k];
        }
    }
    for i in 0..D {
        for j in 0..D {
            let mut h = [[0.0f64; 3]; 3];
            for k in 0..D {
                for m in 0..D {
                    let mut v = 0.0;
                    for jj in 0..D {
                        v += ff[(i, jj)] * p[jj][k][j][m];
                    }
                    h[k][m] = 2.0 * dv * v;
                    if i == j {
                        h[k][m] += gamma * dv * s[(k, m)];
                    }
                }
            }
            let block = &mut acc[i][j];
            for a in 0..N {
                let ga = &g.grad[a];
                let mut x = [0.0f64; 3];
                for m in 0..D {
                    for k in 0..D {
                        x[m] += ga[k] * h[k][m];
                    }
                }
                let row = &mut block[a];
                for m in 0..D {
                    let xm = x[m];
                    for (r, gb) in row.iter_mut().zip(&gt[m]) {
                        *r += xm * gb;
                    }
                }
            }
        }
    }
}

/// Writes the block accumulator into the row-major node-major matrix
/// `k[(a·D+i)·(N·D) + b·D+j]`.
#[inline]
pub(super) fn scatter<const D: usize, const N: usize>(acc: &Blocks<N>, k: &mut [f64]) {
    let ndof = N * D;
    for a in 0..N {
        for i in 0..D {
            let row = &mut k[(a * D + i) * ndof..(a * D + i + 1) * ndof];
            for b in 0..N {
                for j in 0..D {
                    row[b * D + j] = acc[i][j][a][b];
                }
            }
        }
    }
}
