//! The node-block Jacobi preconditioner of the iterative path.

use crate::linalg::operator::Operator;
use rayon::prelude::*;

/// Node-block Jacobi: `M = blockdiag(A_aa)`, the `D×D` diagonal block of
/// every node inverted (Gaussian elimination with partial pivoting). The
/// preconditioner of the iterative path.
#[derive(Debug, Default)]
pub struct BlockJacobi {
    dim: usize,
    inv: Vec<f64>,
}

/// A node's diagonal block is singular.
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("singular diagonal block at node {0}")]
pub struct SingularBlock(pub usize);

impl BlockJacobi {
    /// Inverts the diagonal blocks of `a`.
    pub fn new(a: &Operator) -> Result<BlockJacobi, SingularBlock> {
        let p = &a.pattern;
        let d = p.dim();
        let mut inv = vec![0.0; p.n_nodes() * d * d];
        for (node, blk) in inv.chunks_mut(d * d).enumerate() {
            let off = p
                .block_offset(node, node)
                .expect("every node is coupled to itself");
            let mut m = [[0.0; 6]; 3];
            for i in 0..d {
                for j in 0..d {
                    m[i][j] = a.values[p.position(off, i, node, j)];
                }
                m[i][d + i] = 1.0;
            }
            invert(&mut m, d).ok_or(SingularBlock(node))?;
            for i in 0..d {
                for j in 0..d {
                    blk[i * d + j] = m[i][d + j];
                }
            }
        }
        Ok(BlockJacobi { dim: d, inv })
    }

    /// `v ← M⁻¹ v`.
    pub fn apply(&self, v: &mut [f64]) {
        let d = self.dim;
        v.par_chunks_mut(d * 1024)
            .zip(self.inv.par_chunks(d * d * 1024))
            .for_each(|(vc, ic)| {
                for (x, b) in vc.chunks_mut(d).zip(ic.chunks(d * d)) {
                    let mut y = [0.0; 3];
                    for i in 0..d {
                        y[i] = (0..d).map(|j| b[i * d + j] * x[j]).sum();
                    }
                    x.copy_from_slice(&y[..d]);
                }
            });
    }
}

/// Gauss–Jordan with partial pivoting on `[B | I]` (`d ≤ 3`): the right half
/// becomes `B⁻¹`. `None` if a pivot vanishes.
fn invert(m: &mut [[f64; 6]; 3], d: usize) -> Option<()> {
    for c in 0..d {
        let p = (c..d).max_by(|&i, &j| m[i][c].abs().total_cmp(&m[j][c].abs()))?;
        if m[p][c] == 0.0 || !m[p][c].is_finite() {
            return None;
        }
        m.swap(c, p);
        let piv = m[c][c];
        for j in 0..2 * d {
            m[c][j] /= piv;
        }
        for i in 0..d {
            if i != c {
                let f = m[i][c];
                for j in 0..2 * d {
                    m[i][j] -= f * m[c][j];
                }
            }
        }
    }
    Some(())
}
