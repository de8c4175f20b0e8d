//! The sparse-matrix groups of FCLIB files (`nzmax, m, n, nz, p, i, x`, CSparse
//! conventions) and their conversion to and from faer matrices.

use faer::sparse::{SparseColMat, Triplet};

/// Storage of a sparse matrix in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SparseFormat {
    /// `nz = −1`.
    #[default]
    Csc,
    /// `nz = −2`.
    Csr,
    /// `nz ≥ 0`: `i` rows, `p` columns.
    Triplet,
}

/// The raw arrays of a sparse matrix group.
#[derive(Debug, Clone, PartialEq)]
pub struct SparseStorage {
    pub nzmax: i64,
    pub m: i64,
    pub n: i64,
    pub nz: i64,
    pub p: Vec<i64>,
    pub i: Vec<i64>,
    pub x: Vec<f64>,
}

impl SparseStorage {
    /// The arrays of `a` in `format` (entries in column-major order for CSC and triplets).
    pub fn from_matrix(a: &SparseColMat<usize, f64>, format: SparseFormat) -> Self {
        let (m, n) = (a.nrows() as i64, a.ncols() as i64);
        let cp = a.symbolic().col_ptr();
        let ri = a.symbolic().row_idx();
        let v = a.val();
        let nnz = v.len() as i64;
        match format {
            SparseFormat::Csc => SparseStorage {
                nzmax: nnz,
                m,
                n,
                nz: -1,
                p: cp.iter().map(|&x| x as i64).collect(),
                i: ri.iter().map(|&x| x as i64).collect(),
                x: v.to_vec(),
            },
            SparseFormat::Triplet => {
                let mut p = Vec::with_capacity(v.len());
                for j in 0..a.ncols() {
                    p.extend(std::iter::repeat(j as i64).take(cp[j + 1] - cp[j]));
                }
                SparseStorage {
                    nzmax: nnz,
                    m,
                    n,
                    nz: nnz,
                    p,
                    i: ri.iter().map(|&x| x as i64).collect(),
                    x: v.to_vec(),
                }
            }
            SparseFormat::Csr => {
                let t = a.as_ref().to_row_major().expect("allocation of a CSR copy");
                SparseStorage {
                    nzmax: nnz,
                    m,
                    n,
                    nz: -2,
                    p: t.symbolic().row_ptr().iter().map(|&x| x as i64).collect(),
                    i: t.symbolic().col_idx().iter().map(|&x| x as i64).collect(),
                    x: t.val().to_vec(),
                }
            }
        }
    }

    /// The matrix (duplicate triplets are summed). `Err` explains what is inconsistent.
    pub fn to_matrix(&self) -> Result<SparseColMat<usize, f64>, String> {
        if self.m < 0 || self.n < 0 {
            return Err(format!(
                "negative dimensions m = {}, n = {}",
                self.m, self.n
            ));
        }
        let (m, n) = (self.m as usize, self.n as usize);
        let mut trip = Vec::new();
        let idx = |v: i64, bound: usize, what: &str| -> Result<usize, String> {
            if v < 0 || v as usize >= bound {
                Err(format!("{what} index {v} out of range 0..{bound}"))
            } else {
                Ok(v as usize)
            }
        };
        match self.nz {
            nz if nz >= 0 => {
                let nz = nz as usize;
                if self.p.len() < nz || self.i.len() < nz || self.x.len() < nz {
                    return Err(format!(
                        "triplet form with nz = {nz} but p, i, x have {}, {}, {} entries",
                        self.p.len(),
                        self.i.len(),
                        self.x.len()
                    ));
                }
                for k in 0..nz {
                    trip.push(Triplet::new(
                        idx(self.i[k], m, "row")?,
                        idx(self.p[k], n, "column")?,
                        self.x[k],
                    ));
                }
            }
            -1 | -2 => {
                let csc = self.nz == -1;
                let (outer, inner) = if csc { (n, m) } else { (m, n) };
                if self.p.len() != outer + 1 {
                    return Err(format!(
                        "p has {} entries, expected {}",
                        self.p.len(),
                        outer + 1
                    ));
                }
                let nnz = self.p[outer];
                if self.p[0] != 0 || self.p.windows(2).any(|w| w[1] < w[0]) || nnz < 0 {
                    return Err("p is not a nondecreasing pointer array starting at 0".into());
                }
                let nnz = nnz as usize;
                if self.i.len() < nnz || self.x.len() < nnz {
                    return Err(format!(
                        "p ends at {nnz} but i, x have {}, {} entries",
                        self.i.len(),
                        self.x.len()
                    ));
                }
                for o in 0..outer {
                    for k in self.p[o] as usize..self.p[o + 1] as usize {
                        let in_ = idx(self.i[k], inner, if csc { "row" } else { "column" })?;
                        let (r, c) = if csc { (in_, o) } else { (o, in_) };
                        trip.push(Triplet::new(r, c, self.x[k]));
                    }
                }
            }
            nz => return Err(format!("nz = {nz} is not a known storage (≥ 0, −1 or −2)")),
        }
        if trip.iter().any(|t| !t.val.is_finite()) {
            return Err("non-finite value in x".into());
        }
        SparseColMat::try_new_from_triplets(m, n, &trip).map_err(|e| format!("{e:?}"))
    }
}
