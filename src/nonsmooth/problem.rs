//! Problem types of the solver library (DESIGN §8, Acary, Brémond & Dubois 2017, Problems 1–2).
//!
//! * [`LocalProblem`] — the reduced problem FC/II: given `W` (symmetric PSD), `q`
//!   and `μ`, find `u = W r + q` with `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K` (FCLIB "local").
//! * [`GlobalProblem`] — the general problem FC/I: `M v = H r + f`, `u = Hᵀ v + w`,
//!   same law (FCLIB "global").
//!
//! Conventions: `dim` is the space dimension (2 or 3); contact `c` owns the
//! entries `dim·c .. dim·c + dim` of `r`, `u`, `q`, ordered
//! `[normal, tangent1, (tangent2)]`; `r_N ≥ 0` is the normal reaction, `u_N > 0`
//! a separating normal velocity. `K = Π_c {r : ‖r_T‖ ≤ μ_c r_N}`.

use faer::sparse::{SparseColMat, SparseRowMat};
use nalgebra::{Matrix2, Matrix3};

use super::block_rows::BlockRows;

/// Why a problem could not be built.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ProblemError {
    #[error("space dimension {0} is not 2 or 3")]
    Dimension(usize),
    #[error("{what}: expected {expected}, found {found}")]
    Shape {
        what: &'static str,
        expected: usize,
        found: usize,
    },
    #[error("friction coefficient of contact {contact} is {mu} (must be finite and ≥ 0)")]
    Friction { contact: usize, mu: f64 },
    #[error("non-finite entry in {0}")]
    NonFinite(&'static str),
    #[error("sparse matrix construction failed: {0}")]
    Alloc(String),
    #[error("the mass matrix M (as stored) is singular: {0}")]
    MassSingular(String),
}

/// Dense `dim × dim` diagonal blocks `W_cc` of the Delassus operator, one per contact,
/// extracted once (used by the Gauss–Seidel sweep and to scale Newton functions).
#[derive(Debug, Clone, PartialEq)]
pub enum DiagBlocks {
    Two(Vec<Matrix2<f64>>),
    Three(Vec<Matrix3<f64>>),
}

/// The reduced frictional-contact problem FC/II (FCLIB "local"): `u = W r + q`.
#[derive(Debug, Clone)]
pub struct LocalProblem {
    /// Space dimension, 2 or 3.
    pub dim: usize,
    pub n_contacts: usize,
    /// Delassus operator, `dim·n_contacts` square.
    pub w: SparseColMat<usize, f64>,
    /// Row-major copy of `w` (same values), for the row products of Gauss–Seidel.
    pub w_rows: SparseRowMat<usize, f64>,
    pub q: Vec<f64>,
    /// Friction coefficient per contact.
    pub mu: Vec<f64>,
    /// Optional FCLIB extras (`V`, `R`, `s` of `fclib_local`, for problems with extra
    /// unknowns `s`); read and written, not used by the solvers.
    pub v: Option<SparseColMat<usize, f64>>,
    pub r_mat: Option<SparseColMat<usize, f64>>,
    pub s: Option<Vec<f64>>,
    /// Diagonal blocks of `w`.
    pub blocks: DiagBlocks,
    /// Off-diagonal blocks of `w` by block row, contiguous (for Gauss–Seidel sweeps).
    pub block_rows: BlockRows,
}

impl LocalProblem {
    /// Checks the shapes and values and extracts the diagonal blocks.
    pub fn new(
        dim: usize,
        w: SparseColMat<usize, f64>,
        q: Vec<f64>,
        mu: Vec<f64>,
    ) -> Result<Self, ProblemError> {
        if dim != 2 && dim != 3 {
            return Err(ProblemError::Dimension(dim));
        }
        let n = dim * mu.len();
        for (what, found) in [
            ("rows of W", w.nrows()),
            ("columns of W", w.ncols()),
            ("length of q", q.len()),
        ] {
            if found != n {
                return Err(ProblemError::Shape {
                    what,
                    expected: n,
                    found,
                });
            }
        }
        check_mu(&mu)?;
        if q.iter().any(|x| !x.is_finite()) {
            return Err(ProblemError::NonFinite("q"));
        }
        if w.val().iter().any(|x| !x.is_finite()) {
            return Err(ProblemError::NonFinite("W"));
        }
        let w_rows = w
            .as_ref()
            .to_row_major()
            .map_err(|e| ProblemError::Alloc(format!("{e:?}")))?;
        let blocks = extract_blocks(&w, dim, mu.len());
        let block_rows = BlockRows::new(&w_rows, dim, mu.len());
        Ok(LocalProblem {
            dim,
            n_contacts: mu.len(),
            w,
            w_rows,
            q,
            mu,
            v: None,
            r_mat: None,
            s: None,
            blocks,
            block_rows,
        })
    }

    /// Number of unknowns `dim · n_contacts`.
    pub fn size(&self) -> usize {
        self.dim * self.n_contacts
    }

    /// `out = W r + q`.
    pub fn velocity(&self, r: &[f64], out: &mut [f64]) {
        out.copy_from_slice(&self.q);
        csc_mul_add(&self.w, r, out);
    }
}

fn check_mu(mu: &[f64]) -> Result<(), ProblemError> {
    for (contact, &m) in mu.iter().enumerate() {
        if !(m.is_finite() && m >= 0.0) {
            return Err(ProblemError::Friction { contact, mu: m });
        }
    }
    Ok(())
}

/// `out += A x` for a CSC matrix.
pub fn csc_mul_add(a: &SparseColMat<usize, f64>, x: &[f64], out: &mut [f64]) {
    let cp = a.symbolic().col_ptr();
    let ri = a.symbolic().row_idx();
    let v = a.val();
    for j in 0..a.ncols() {
        let xj = x[j];
        if xj == 0.0 {
            continue;
        }
        for k in cp[j]..cp[j + 1] {
            out[ri[k]] += v[k] * xj;
        }
    }
}

/// `out += Aᵀ x` for a CSC matrix.
pub fn csc_tr_mul_add(a: &SparseColMat<usize, f64>, x: &[f64], out: &mut [f64]) {
    let cp = a.symbolic().col_ptr();
    let ri = a.symbolic().row_idx();
    let v = a.val();
    for j in 0..a.ncols() {
        let mut s = 0.0;
        for k in cp[j]..cp[j + 1] {
            s += v[k] * x[ri[k]];
        }
        out[j] += s;
    }
}

fn extract_blocks(w: &SparseColMat<usize, f64>, dim: usize, nc: usize) -> DiagBlocks {
    let cp = w.symbolic().col_ptr();
    let ri = w.symbolic().row_idx();
    let v = w.val();
    let mut dense = vec![0.0; nc * dim * dim];
    for j in 0..w.ncols() {
        let c = j / dim;
        let b = j % dim;
        for k in cp[j]..cp[j + 1] {
            let i = ri[k];
            if i / dim == c {
                dense[c * dim * dim + b * dim + i % dim] += v[k];
            }
        }
    }
    match dim {
        2 => DiagBlocks::Two(dense.chunks(4).map(Matrix2::from_column_slice).collect()),
        _ => DiagBlocks::Three(dense.chunks(9).map(Matrix3::from_column_slice).collect()),
    }
}

/// The general frictional-contact problem FC/I (FCLIB "global"):
/// `M v = H r + f`, `u = Hᵀ v + w` (Acary, Brémond & Dubois 2017, Problem 1;
/// FCLIB `fclib_global`). Optional equality constraints `Gᵀ v + b = 0` are read
/// and written but not supported by the solvers (they report an error).
#[derive(Debug, Clone)]
pub struct GlobalProblem {
    pub dim: usize,
    pub n_contacts: usize,
    /// Mass (iteration) matrix, `n_dofs` square, exactly as stored in the file
    /// (see [`super::condense`] for triangle-stored matrices).
    pub m: SparseColMat<usize, f64>,
    /// `n_dofs × dim·n_contacts`.
    pub h: SparseColMat<usize, f64>,
    pub f: Vec<f64>,
    pub w: Vec<f64>,
    pub mu: Vec<f64>,
    pub g: Option<SparseColMat<usize, f64>>,
    pub b: Option<Vec<f64>>,
}

impl GlobalProblem {
    pub fn new(
        dim: usize,
        m: SparseColMat<usize, f64>,
        h: SparseColMat<usize, f64>,
        f: Vec<f64>,
        w: Vec<f64>,
        mu: Vec<f64>,
    ) -> Result<Self, ProblemError> {
        if dim != 2 && dim != 3 {
            return Err(ProblemError::Dimension(dim));
        }
        let n = dim * mu.len();
        let nd = m.nrows();
        for (what, expected, found) in [
            ("columns of M", nd, m.ncols()),
            ("rows of H", nd, h.nrows()),
            ("columns of H", n, h.ncols()),
            ("length of f", nd, f.len()),
            ("length of w", n, w.len()),
        ] {
            if found != expected {
                return Err(ProblemError::Shape {
                    what,
                    expected,
                    found,
                });
            }
        }
        check_mu(&mu)?;
        for (name, x) in [("f", &f), ("w", &w)] {
            if x.iter().any(|x| !x.is_finite()) {
                return Err(ProblemError::NonFinite(name));
            }
        }
        Ok(GlobalProblem {
            dim,
            n_contacts: mu.len(),
            m,
            h,
            f,
            w,
            mu,
            g: None,
            b: None,
        })
    }

    pub fn n_dofs(&self) -> usize {
        self.m.nrows()
    }
}
