//! The matrix a [`crate::linalg::LinearSolver`] solves with: its own copy of
//! the pattern and values, a parallel product, and the node-block Jacobi
//! preconditioner of the iterative path.

use super::BlockPattern;
use rayon::prelude::*;

/// A square matrix on a `BlockPattern`, with scratch for a parallel product.
pub struct Operator {
    pub pattern: BlockPattern,
    pub values: Vec<f64>,
    /// Per column chunk: its partial product (rows of all chunks overlap).
    partial: Vec<Vec<f64>>,
    /// Row-major copies of a block of solutions and residuals
    /// ([`Operator::residual_norms`]).
    xt: Vec<f64>,
    rt: Vec<f64>,
}

/// Below this many stored entries the product runs on one thread.
const PAR_NNZ: usize = 1 << 18;
/// Column chunks of a product above [`PAR_NNZ`]: a fixed number, so that
/// the sum's order is the same on any number of threads (it was one chunk
/// per thread: a 9,990-dof contact run's GMRES residuals differed in the
/// last bits between one and two threads).
const COLUMN_CHUNKS: usize = 8;

impl Operator {
    pub fn new(pattern: &BlockPattern) -> Operator {
        Operator {
            pattern: pattern.clone(),
            values: vec![0.0; pattern.nnz()],
            partial: Vec::new(),
            xt: Vec::new(),
            rt: Vec::new(),
        }
    }

    pub fn n(&self) -> usize {
        self.pattern.n()
    }

    /// `y = A x`: above [`PAR_NNZ`] stored entries the columns are split
    /// into [`COLUMN_CHUNKS`] chunks, each summed into its own vector (on
    /// the rayon threads), and the chunks' sums added in order; the number
    /// of chunks does not depend on the threads, so neither does `y`, bit
    /// for bit.
    pub fn apply(&mut self, x: &[f64], y: &mut [f64]) {
        if self.values.len() < PAR_NNZ {
            self.pattern.mul(&self.values, x, y);
            return;
        }
        let n = self.n();
        let a = self.pattern.symbolic();
        let (cp, ri) = (a.col_ptr(), a.row_idx());
        let val = &self.values;
        self.partial.resize_with(COLUMN_CHUNKS, Vec::new);
        let chunk = n.div_ceil(COLUMN_CHUNKS);
        self.partial
            .par_iter_mut()
            .enumerate()
            .for_each(|(t, acc)| {
                acc.clear();
                acc.resize(n, 0.0);
                for c in t * chunk..((t + 1) * chunk).min(n) {
                    let xc = x[c];
                    if xc != 0.0 {
                        for k in cp[c]..cp[c + 1] {
                            acc[ri[k]] += val[k] * xc;
                        }
                    }
                }
            });
        let partial = &self.partial;
        y.par_chunks_mut(4096).enumerate().for_each(|(b, yc)| {
            let off = b * 4096;
            for (i, v) in yc.iter_mut().enumerate() {
                *v = partial.iter().map(|p| p[off + i]).sum();
            }
        });
    }

    /// `‖b_j − A x_j‖` of the `nrhs` columns of `b` and `x` (column-major,
    /// `n × nrhs`) into `norms`, reading `A` once for all of them: the
    /// columns are copied row-major so that each stored entry updates a
    /// contiguous run of the block (one matrix–vector product per column
    /// reads `A` `nrhs` times, and on the contact condensation's hundreds
    /// of columns that was most of a solve's time).
    pub fn residual_norms(&mut self, b: &[f64], x: &[f64], nrhs: usize, norms: &mut Vec<f64>) {
        let n = self.n();
        let (xt, rt) = (&mut self.xt, &mut self.rt);
        xt.resize(n * nrhs, 0.0);
        rt.resize(n * nrhs, 0.0);
        for j in 0..nrhs {
            for i in 0..n {
                xt[i * nrhs + j] = x[j * n + i];
                rt[i * nrhs + j] = b[j * n + i];
            }
        }
        let a = self.pattern.symbolic();
        let (cp, ri) = (a.col_ptr(), a.row_idx());
        for c in 0..n {
            let xc = &xt[c * nrhs..(c + 1) * nrhs];
            for k in cp[c]..cp[c + 1] {
                let v = self.values[k];
                let r = &mut rt[ri[k] * nrhs..(ri[k] + 1) * nrhs];
                for (rj, xj) in r.iter_mut().zip(xc) {
                    *rj -= v * xj;
                }
            }
        }
        norms.clear();
        norms.resize(nrhs, 0.0);
        for row in rt.chunks_exact(nrhs) {
            for (s, r) in norms.iter_mut().zip(row) {
                *s += r * r;
            }
        }
        norms.iter_mut().for_each(|s| *s = s.sqrt());
    }

    /// `y = A x` through a shared reference (serial), for closures that
    /// cannot borrow the scratch.
    pub fn apply_serial(&self, x: &[f64], y: &mut [f64]) {
        self.pattern.mul(&self.values, x, y);
    }

    /// The values of `(A + Aᵀ)/2` on the pattern.
    pub fn symmetric_part(&self, out: &mut Vec<f64>) {
        let t = self.pattern.transpose_positions();
        out.clear();
        out.extend(
            t.iter()
                .enumerate()
                .map(|(k, &kt)| 0.5 * (self.values[k] + self.values[kt])),
        );
    }
}

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
