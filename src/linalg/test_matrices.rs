//! Matrices for the tests of this module: hex8 grid patterns with
//! deterministic symmetric or unsymmetric values, and an independent residual.

use crate::linalg::pattern::BlockPattern;

/// Node lists of the hex8 elements of an `m×m×m` grid.
pub fn hex8_grid(m: usize) -> (usize, Vec<Vec<usize>>) {
    let id = |i: usize, j: usize, k: usize| (k * (m + 1) + j) * (m + 1) + i;
    let mut lists = Vec::new();
    for k in 0..m {
        for j in 0..m {
            for i in 0..m {
                let mut l = Vec::new();
                for (di, dj, dk) in [
                    (0, 0, 0),
                    (1, 0, 0),
                    (1, 1, 0),
                    (0, 1, 0),
                    (0, 0, 1),
                    (1, 0, 1),
                    (1, 1, 1),
                    (0, 1, 1),
                ] {
                    l.push(id(i + di, j + dj, k + dk));
                }
                lists.push(l);
            }
        }
    }
    ((m + 1).pow(3), lists)
}

/// The 3-dof pattern of an `m³` hex8 grid.
pub fn grid_pattern(m: usize) -> BlockPattern {
    let (nn, lists) = hex8_grid(m);
    BlockPattern::new(nn, 3, lists.iter().map(|l| &l[..]))
}

/// Values on `p`: an SPD-like part (diagonal `diag`, symmetric off-diagonal
/// entries in [-1, 1]) plus `skew` times an unsymmetric part.
pub fn values(p: &BlockPattern, diag: f64, skew: f64) -> Vec<f64> {
    let cp = p.symbolic().col_ptr();
    let ri = p.symbolic().row_idx();
    let mut val = vec![0.0; p.nnz()];
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            let r = ri[k];
            let (a, b) = (r.min(c), r.max(c));
            val[k] = if r == c {
                diag
            } else {
                ((a * 31 + b * 17) as f64 * 0.7).sin() / 4.0
                    + skew * ((r * 13 + c * 7) as f64 * 0.3).cos()
            };
        }
    }
    val
}

/// `‖A x − b‖₂ / ‖b‖₂`, computed entry by entry from the CSC arrays.
pub fn relative_residual(p: &BlockPattern, val: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let cp = p.symbolic().col_ptr();
    let ri = p.symbolic().row_idx();
    let mut r: Vec<f64> = b.iter().map(|v| -v).collect();
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            r[ri[k]] += val[k] * x[c];
        }
    }
    let nr = r.iter().map(|v| v * v).sum::<f64>().sqrt();
    let nb = b.iter().map(|v| v * v).sum::<f64>().sqrt();
    nr / nb
}
