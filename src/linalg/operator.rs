//! The matrix a [`crate::linalg::LinearSolver`] solves with: its own copy of
//! the pattern and values, and a parallel product.

use crate::linalg::pattern::BlockPattern;
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
/// Column chunks of a product above [`PAR_NNZ`]: a fixed number, not one
/// per thread, so that the sum's order, and the product bit for bit, is
/// the same on any number of threads (a run's residuals, and with them its
/// results, do not depend on the threads).
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

    /// The residual round-off alone leaves in a computed solution `x` of
    /// `A x = b`: `ε ‖|A||x| + |b|‖₂` (the componentwise backward error's
    /// scale, Oettli & Prager 1964; Higham 2002, §7.1). No solver's
    /// residual is reliably below a small multiple of it.
    pub fn round_off_floor(&self, x: &[f64], b: &[f64]) -> f64 {
        let a = self.pattern.symbolic();
        let (cp, ri) = (a.col_ptr(), a.row_idx());
        let mut s: Vec<f64> = b.iter().map(|v| v.abs()).collect();
        for c in 0..self.n() {
            let xc = x[c].abs();
            for k in cp[c]..cp[c + 1] {
                s[ri[k]] += self.values[k].abs() * xc;
            }
        }
        f64::EPSILON * s.iter().map(|v| v * v).sum::<f64>().sqrt()
    }

    /// `y = A x` through a shared reference (serial), for closures that
    /// cannot borrow the scratch.
    pub fn apply_serial(&self, x: &[f64], y: &mut [f64]) {
        self.pattern.mul(&self.values, x, y);
    }
}
