//! The off-diagonal blocks of the Delassus operator `W`, by block row, each a dense
//! `dim × dim` block stored contiguously (column-major), for the Gauss–Seidel sweep:
//! `q̃_α = q_α + Σ_{β≠α} W_αβ r_β` is then one small dense product per coupled contact,
//! one index per block instead of one per entry (as Siconos' sparse-block storage does,
//! Acary, Brémond & Dubois 2017 §4).

use faer::sparse::SparseRowMat;

/// `W_αβ`, `β ≠ α`, for every contact `α`: the blocks of row `α` are
/// `ptr[α] .. ptr[α + 1]`; block `k` couples with contact `col[k]` and its values are
/// `val[k·dim² .. (k+1)·dim²]`, entry `(i, j)` at `j·dim + i`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BlockRows {
    pub ptr: Vec<usize>,
    pub col: Vec<usize>,
    pub val: Vec<f64>,
}

impl BlockRows {
    /// The blocks of `w` (rows in CSR), `dim · n_contacts` square.
    pub fn new(w: &SparseRowMat<usize, f64>, dim: usize, n_contacts: usize) -> Self {
        let (rp, ci, v) = (w.symbolic().row_ptr(), w.symbolic().col_idx(), w.val());
        let dd = dim * dim;
        let mut slot = vec![usize::MAX; n_contacts];
        let mut out = BlockRows {
            ptr: Vec::with_capacity(n_contacts + 1),
            col: Vec::new(),
            val: Vec::new(),
        };
        out.ptr.push(0);
        for a in 0..n_contacts {
            let first = out.col.len();
            for i in 0..dim {
                let row = a * dim + i;
                for k in rp[row]..rp[row + 1] {
                    let b = ci[k] / dim;
                    if b == a {
                        continue;
                    }
                    if slot[b] == usize::MAX {
                        slot[b] = out.col.len();
                        out.col.push(b);
                        out.val.extend(std::iter::repeat_n(0.0, dd));
                    }
                    out.val[slot[b] * dd + (ci[k] % dim) * dim + i] += v[k];
                }
            }
            for &b in &out.col[first..] {
                slot[b] = usize::MAX;
            }
            out.ptr.push(out.col.len());
        }
        out
    }

    /// `out += Σ_{β≠α} W_αβ r_β` for contact `a` (`D = dim`). Two interleaved sums
    /// (even and odd blocks), each block's product summed before it is added: the
    /// sum is then bounded by the loads, not by a chain of dependent additions.
    #[inline(always)]
    pub fn add_row<const D: usize>(&self, a: usize, r: &[f64], out: &mut [f64; D]) {
        let (lo, hi) = (self.ptr[a], self.ptr[a + 1]);
        let mut even = [0.0; D];
        let mut odd = [0.0; D];
        let mut k = lo;
        while k + 1 < hi {
            self.block_product::<D>(k, r, &mut even);
            self.block_product::<D>(k + 1, r, &mut odd);
            k += 2;
        }
        if k < hi {
            self.block_product::<D>(k, r, &mut even);
        }
        for i in 0..D {
            out[i] += even[i] + odd[i];
        }
    }

    #[inline(always)]
    fn block_product<const D: usize>(&self, k: usize, r: &[f64], acc: &mut [f64; D]) {
        let b = self.col[k];
        let blk = &self.val[k * D * D..(k + 1) * D * D];
        let rb = &r[b * D..b * D + D];
        for i in 0..D {
            let mut s = blk[i] * rb[0];
            for j in 1..D {
                s += blk[j * D + i] * rb[j];
            }
            acc[i] += s;
        }
    }
}
