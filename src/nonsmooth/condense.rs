//! The mass matrix `M` of a global problem as the file stores it, its factorization,
//! and the condensation to the reduced problem (Acary, Brémond & Dubois 2017, relation
//! after Problem 2): `W = Hᵀ M⁻¹ H`, `q = Hᵀ M⁻¹ f + w`.
//!
//! The problem a file defines is `M` exactly as stored. Some published files (the
//! Siconos test file `CubeH8`, LMGC's `GlobalFrictionContactProblem`s) store only the
//! upper triangle of what is surely a symmetric matrix; Siconos 4.5.0 reads those
//! triplets as they are and factorizes that triangular matrix by LU, and so does the
//! independent checker. So do we: [`MassFactor::new`] uses a sparse Cholesky only when
//! `M` is exactly symmetric (both triangles stored, bit-equal), and a sparse LU
//! otherwise — a Cholesky reads one triangle only, which for a triangle-stored `M`
//! is the diagonal: a different problem, solved and reported as converged.
//! [`MassStorage`] says which case a file is in; [`GlobalProblem::symmetrized`]
//! builds the symmetric matrix a triangle presumably stands for, when the
//! caller asks for it.

use faer::linalg::solvers::Solve;
use faer::sparse::linalg::solvers::{Llt, Lu, SymbolicLlt, SymbolicLu};
use faer::sparse::{SparseColMat, Triplet};
use faer::{MatMut, Side};

use super::problem::{csc_mul_add, csc_tr_mul_add, GlobalProblem, LocalProblem, ProblemError};

/// How a (square) mass matrix is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MassStorage {
    /// Both triangles stored and bit-equal (diagonal matrices included).
    Symmetric,
    /// Entries above the diagonal only (`above` of them): one triangle of a
    /// symmetric matrix, or a genuinely triangular one.
    UpperTriangle { above: usize },
    /// Entries below the diagonal only.
    LowerTriangle { below: usize },
    /// Anything else (not symmetric).
    General,
}

impl MassStorage {
    /// Classifies `m` (stored nonzero values only; explicit zeros are ignored).
    pub fn of(m: &SparseColMat<usize, f64>) -> MassStorage {
        let (cp, ri, v) = (m.symbolic().col_ptr(), m.symbolic().row_idx(), m.val());
        let (mut above, mut below) = (0, 0);
        for j in 0..m.ncols() {
            for k in cp[j]..cp[j + 1] {
                if v[k] != 0.0 {
                    match ri[k].cmp(&j) {
                        std::cmp::Ordering::Less => above += 1,
                        std::cmp::Ordering::Greater => below += 1,
                        std::cmp::Ordering::Equal => {}
                    }
                }
            }
        }
        match (above, below) {
            (0, 0) => MassStorage::Symmetric,
            (a, 0) => MassStorage::UpperTriangle { above: a },
            (0, b) => MassStorage::LowerTriangle { below: b },
            _ if is_symmetric(m) => MassStorage::Symmetric,
            _ => MassStorage::General,
        }
    }

    /// One line for `fc solve` and `--verbose`.
    pub fn describe(self) -> String {
        match self {
            MassStorage::Symmetric => "symmetric (both triangles stored)".into(),
            MassStorage::UpperTriangle { above } => {
                format!("upper triangle only ({above} entries above the diagonal, none below)")
            }
            MassStorage::LowerTriangle { below } => {
                format!("lower triangle only ({below} entries below the diagonal, none above)")
            }
            MassStorage::General => "general (not symmetric)".into(),
        }
    }

    pub fn is_triangle(self) -> bool {
        matches!(
            self,
            MassStorage::UpperTriangle { .. } | MassStorage::LowerTriangle { .. }
        )
    }
}

/// Exact symmetry: every stored `(i, j, x)` has a stored `(j, i, x)` with the same bits
/// (explicit zeros may be unmatched).
fn is_symmetric(m: &SparseColMat<usize, f64>) -> bool {
    if m.nrows() != m.ncols() {
        return false;
    }
    let Ok(t) = m.as_ref().transpose().to_col_major() else {
        return false;
    };
    let entries = |a: &SparseColMat<usize, f64>| {
        let (cp, ri, v) = (a.symbolic().col_ptr(), a.symbolic().row_idx(), a.val());
        let mut out = Vec::with_capacity(v.len());
        for j in 0..a.ncols() {
            for k in cp[j]..cp[j + 1] {
                if v[k] != 0.0 {
                    out.push((j, ri[k], v[k].to_bits()));
                }
            }
        }
        out
    };
    entries(m) == entries(&t)
}

/// A factorization of `M` as stored: Cholesky when `M` is exactly symmetric and
/// positive definite, LU otherwise (see the module docs).
#[derive(Debug, Clone)]
pub enum MassFactor {
    Cholesky(Llt<usize, f64>),
    Lu(Lu<usize, f64>),
}

impl MassFactor {
    /// Factorizes `m`; returns the factor and how `m` is stored.
    pub fn new(m: &SparseColMat<usize, f64>) -> Result<(MassFactor, MassStorage), ProblemError> {
        let storage = MassStorage::of(m);
        if storage == MassStorage::Symmetric {
            let llt = SymbolicLlt::try_new(m.symbolic(), Side::Lower)
                .ok()
                .and_then(|s| Llt::try_new_with_symbolic(s, m.as_ref(), Side::Lower).ok());
            if let Some(llt) = llt {
                return Ok((MassFactor::Cholesky(llt), storage));
            }
        }
        let singular = |e: String| ProblemError::MassSingular(e);
        let sym = SymbolicLu::try_new(m.symbolic()).map_err(|e| singular(format!("{e:?}")))?;
        let lu =
            Lu::try_new_with_symbolic(sym, m.as_ref()).map_err(|e| singular(format!("{e:?}")))?;
        let factor = MassFactor::Lu(lu);
        // faer's LU does not report zero pivots: check that a solve stays finite.
        let mut probe = vec![1.0; m.nrows()];
        factor.solve_vec(&mut probe);
        if probe.iter().any(|x| !x.is_finite()) {
            return Err(singular("zero pivot (non-finite solve)".into()));
        }
        Ok((factor, storage))
    }

    /// `x ← M⁻¹ x` (columns of `x`).
    pub fn solve_in_place(&self, x: MatMut<'_, f64>) {
        match self {
            MassFactor::Cholesky(f) => f.solve_in_place(x),
            MassFactor::Lu(f) => f.solve_in_place(x),
        }
    }

    /// `x ← M⁻¹ x` for one vector.
    pub fn solve_vec(&self, x: &mut [f64]) {
        let x = faer::ColMut::from_slice_mut(x);
        match self {
            MassFactor::Cholesky(f) => f.solve_in_place(x),
            MassFactor::Lu(f) => f.solve_in_place(x),
        }
    }

    pub fn is_cholesky(&self) -> bool {
        matches!(self, MassFactor::Cholesky(_))
    }
}

/// A condensed global problem: the reduced problem and the factor of `M`.
#[derive(Debug, Clone)]
pub struct Condensed {
    pub reduced: LocalProblem,
    pub factor: MassFactor,
    pub storage: MassStorage,
}

impl Condensed {
    /// `v = M⁻¹ (H r + f)` (first line of Problem 1).
    pub fn velocity(&self, global: &GlobalProblem, r: &[f64]) -> Vec<f64> {
        let mut v = global.f.clone();
        csc_mul_add(&global.h, r, &mut v);
        self.factor.solve_vec(&mut v);
        v
    }
}

impl GlobalProblem {
    /// Condensation `W = Hᵀ M⁻¹ H`, `q = Hᵀ M⁻¹ f + w` with `M` as stored (module docs).
    /// `M⁻¹H` is formed 64 dense columns at a time; exact zeros of `W` are dropped, so
    /// block-diagonal masses give a sparse `W`.
    pub fn condense(&self) -> Result<Condensed, ProblemError> {
        let (factor, storage) = MassFactor::new(&self.m)?;
        let nd = self.n_dofs();
        let n = self.h.ncols();
        let (hcp, hri, hv) = (
            self.h.symbolic().col_ptr(),
            self.h.symbolic().row_idx(),
            self.h.val(),
        );
        let mut trip = Vec::new();
        const CHUNK: usize = 64;
        let mut buf = faer::Mat::<f64>::zeros(nd, CHUNK);
        let mut start = 0;
        while start < n {
            let width = CHUNK.min(n - start);
            buf.fill(0.0);
            for jj in 0..width {
                for k in hcp[start + jj]..hcp[start + jj + 1] {
                    buf[(hri[k], jj)] += hv[k];
                }
            }
            factor.solve_in_place(buf.as_mut().subcols_mut(0, width));
            for jj in 0..width {
                let col = buf.col(jj);
                for i in 0..n {
                    let s: f64 = (hcp[i]..hcp[i + 1]).map(|k| hv[k] * col[hri[k]]).sum();
                    if s != 0.0 {
                        trip.push(Triplet::new(i, start + jj, s));
                    }
                }
            }
            start += width;
        }
        let wmat = SparseColMat::try_new_from_triplets(n, n, &trip)
            .map_err(|e| ProblemError::Alloc(format!("{e:?}")))?;
        let mut minv_f = self.f.clone();
        factor.solve_vec(&mut minv_f);
        let mut q = self.w.clone();
        csc_tr_mul_add(&self.h, &minv_f, &mut q);
        if q.iter().any(|x| !x.is_finite()) || wmat.val().iter().any(|x| !x.is_finite()) {
            return Err(ProblemError::MassSingular(
                "M⁻¹H or M⁻¹f is not finite".into(),
            ));
        }
        let reduced = LocalProblem::new(self.dim, wmat, q, self.mu.clone())?;
        Ok(Condensed {
            reduced,
            factor,
            storage,
        })
    }

    /// How `M` is stored (see [`MassStorage`]).
    pub fn mass_storage(&self) -> MassStorage {
        MassStorage::of(&self.m)
    }

    /// The same problem with a triangle-stored `M` replaced by the symmetric matrix
    /// it stands for (`M + Mᵀ − diag M`); `None` when `M` is not stored as one
    /// triangle. The result is a different problem from the file's (module docs).
    pub fn symmetrized(&self) -> Option<GlobalProblem> {
        if !self.mass_storage().is_triangle() {
            return None;
        }
        let (cp, ri, v) = (
            self.m.symbolic().col_ptr(),
            self.m.symbolic().row_idx(),
            self.m.val(),
        );
        let mut trip = Vec::with_capacity(2 * v.len());
        for j in 0..self.m.ncols() {
            for k in cp[j]..cp[j + 1] {
                trip.push(Triplet::new(ri[k], j, v[k]));
                if ri[k] != j {
                    trip.push(Triplet::new(j, ri[k], v[k]));
                }
            }
        }
        let m = SparseColMat::try_new_from_triplets(self.m.nrows(), self.m.ncols(), &trip).ok()?;
        Some(GlobalProblem { m, ..self.clone() })
    }
}
