//! The distributed linear solve of a Newton correction: the ranks' shares of
//! the Newton matrix summed into one PETSc MPIAIJ matrix (block size = the
//! dimension), solved by a PETSc KSP.
//!
//! Methods (`[solver] linear`, then `[solver] petsc_options` on top):
//!
//! * direct (and `auto` where the serial estimate of the factors fits in
//!   half the machine): GMRES, right-preconditioned by a MUMPS LU (Amestoy
//!   et al. 2001, SIAM J. Matrix Anal. Appl. 23(1)) of the step's first
//!   matrix — the serial build's reuse policy: one factorization per step,
//!   later Newton matrices of the step solved by GMRES on those factors;
//!   on one rank in the serial build's fill-reducing order
//!   ([`super::petsc::ordering`]: MUMPS's own PORD costs 1.3× its
//!   operations), on several in MUMPS's own (PETSc hands MUMPS no ordering
//!   there);
//! * iterative: GMRES, right-preconditioned by GAMG (smoothed-aggregation
//!   algebraic multigrid, Adams et al. 2004) with the rigid-body modes of
//!   the step's start positions as its near null space, its hierarchy
//!   built from the step's first matrix and kept for the step.
//!
//! Every solve reaches `‖Ax − b‖ ≤ 1e-12 ‖b‖` (the true residual: right
//! preconditioning), the serial build's target. A preconditioner is built
//! from the step's own matrices only, so that a restarted run solves the
//! same systems with the same preconditioners: an iterative method gets a
//! new KSP at the start of each step (GAMG carries state from earlier
//! setups through a `PCReset`, and with it a restarted run took other
//! iterations than the uninterrupted one); a factorization keeps only its
//! symbolic analysis, which depends on the pattern alone. The same bits
//! follow wherever the method repeats its own: GAMG does; MUMPS on several
//! ranks does not (it is asynchronous, its work scheduled at run time,
//! Amestoy et al. 2001, so two runs of a model differ in the last bits); on
//! one rank it does.
//!
//! Bad options are found before the first step: the KSP is configured and
//! set up on a small probe matrix (one identity block per rank), and an
//! option nothing read by then is refused (a misspelt name).

use super::local::LocalSystem;
use super::partition::Layout;
use super::petsc::ordering::NODE_ORDERING;
use super::petsc::{Dense, GhostVec, Krylov, Matrix, Method, Petsc, PetscError};
use emcontact::input::budget;
use emcontact::linalg::LinearMethod;
use emcontact::model::Model;

/// Relative residual every solve reaches (as the serial build's solvers).
pub const RTOL: f64 = 1e-12;

/// The default methods.
const DIRECT: Method = Method {
    ksp: "gmres",
    pc: "lu",
    factor_package: Some("mumps"),
    ordering: None,
};
const ITERATIVE: Method = Method {
    ksp: "gmres",
    pc: "gamg",
    factor_package: None,
    ordering: None,
};

/// The method `[solver] linear` asks for (`auto`: direct where the serial
/// build's estimate of the factors fits in half of this machine).
pub fn method(model: &Model) -> Method {
    let direct = match model.solver.linear {
        LinearMethod::Direct => true,
        LinearMethod::Iterative => false,
        LinearMethod::Auto => {
            let size = super::model_size(model);
            let need = budget::run_bytes_with(model.dim, size, LinearMethod::Direct);
            need <= 0.5 * budget::machine_bytes().unwrap_or(32e9)
        }
    };
    if direct {
        DIRECT
    } else {
        ITERATIVE
    }
}

/// What the solver did, summed over the run.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct LinearStats {
    pub factorizations: usize,
    pub krylov_iterations: usize,
    pub solves: usize,
    pub seconds: f64,
}

/// The Newton matrix, its solver and the vectors of a solve.
pub struct Linear<'p> {
    petsc: &'p Petsc,
    method: Method,
    a: Matrix<'p>,
    ksp: Krylov<'p>,
    b: GhostVec<'p>,
    x: GhostVec<'p>,
    coords: GhostVec<'p>,
    /// The preconditioner is a factorization (its symbolic analysis is kept
    /// from step to step) and it is GAMG (it wants the near null space).
    factorization: bool,
    multigrid: bool,
    /// The step's first solve is still to come.
    fresh: bool,
    /// The element share's COO triplets, kept where contact may add its
    /// own after them ([`Linear::set_extra`]); empty otherwise.
    base_rows: Vec<i32>,
    base_cols: Vec<i32>,
    owned_rows: usize,
    bs: usize,
    pub stats: LinearStats,
}

/// Why the solver could not be configured: the input's fault.
#[derive(Debug, Clone, thiserror::Error)]
pub enum OptionsError {
    #[error("solver.petsc_options: {0}")]
    Rejected(PetscError),
    #[error(
        "solver.petsc_options: PETSc did not use {0} (misspelt, or an option of another method)"
    )]
    Unused(String),
}

/// Configures a KSP on a probe matrix (one identity block per rank) and sets
/// it up: what the options get wrong fails here, on every rank alike.
fn probe(petsc: &Petsc, dim: usize, method: &Method) -> Result<(), OptionsError> {
    let rank_offset = |petsc: &Petsc| -> Result<i32, PetscError> {
        // the probe's rows are numbered by a ghost-free vector's layout
        let v = GhostVec::new(petsc, dim, 1, &[])?;
        let mut start = 0;
        let mut end = 0;
        super::petsc::petsc!(VecGetOwnershipRange(v.raw(), &mut start, &mut end))?;
        Ok(start)
    };
    let run = || -> Result<(), PetscError> {
        let start = rank_offset(petsc)?;
        let mut rows: Vec<i32> = (0..dim as i32).map(|i| start + i).collect();
        let mut cols = rows.clone();
        let mut m = Matrix::new(petsc, dim, dim, &mut rows, &mut cols)?;
        m.set_values(&vec![1.0; dim])?;
        let mut ksp = Krylov::new(petsc, &m, RTOL, method)?;
        ksp.set_up()?;
        let b = GhostVec::new(petsc, dim, 1, &[])?;
        let x = GhostVec::new(petsc, dim, 1, &[])?;
        ksp.solve(&b, &x)?;
        Ok(())
    };
    run().map_err(OptionsError::Rejected)?;
    let unused = petsc.unused_options().map_err(OptionsError::Rejected)?;
    if let Some(u) = unused.first() {
        return Err(OptionsError::Unused(u.clone()));
    }
    Ok(())
}

impl<'p> Linear<'p> {
    /// The solver of `model`'s Newton matrices on this rank's share `local`.
    pub fn new<const D: usize>(
        petsc: &'p Petsc,
        model: &Model,
        layout: &Layout,
        local: &mut LocalSystem<D>,
    ) -> Result<Linear<'p>, LinearSetupError> {
        let mut method = method(model);
        if layout.ranks == 1 && method.factor_package == Some("mumps") {
            // MUMPS on one rank takes the serial build's ordering (on
            // several it orders the distributed matrix itself)
            method.ordering = Some(NODE_ORDERING);
        }
        if let Some(o) = &model.petsc_options {
            petsc
                .set_options(o)
                .map_err(|e| LinearSetupError::Options(OptionsError::Rejected(e)))?;
        }
        probe(petsc, D, &method).map_err(LinearSetupError::Options)?;
        let ghosts: Vec<i32> = layout.petsc[layout.owned..].to_vec();
        let keep = !model.contacts.is_empty();
        let (base_rows, base_cols) = match keep {
            true => (local.coo_rows.clone(), local.coo_cols.clone()),
            false => (Vec::new(), Vec::new()),
        };
        let a = Matrix::new(
            petsc,
            D,
            layout.owned * D,
            &mut local.coo_rows,
            &mut local.coo_cols,
        )?;
        // the COO indices are PETSc's now (it may have reordered them); the
        // values keep the pattern's order
        local.coo_rows = Vec::new();
        local.coo_cols = Vec::new();
        let ksp = Krylov::new(petsc, &a, RTOL, &method)?;
        let pc = ksp.pc_type()?;
        Ok(Linear {
            petsc,
            method,
            a,
            ksp,
            b: GhostVec::new(petsc, D, layout.owned, &ghosts)?,
            x: GhostVec::new(petsc, D, layout.owned, &ghosts)?,
            coords: GhostVec::new(petsc, D, layout.owned, &ghosts)?,
            factorization: pc == "lu" || pc == "cholesky",
            multigrid: pc == "gamg",
            fresh: true,
            base_rows,
            base_cols,
            owned_rows: layout.owned * D,
            bs: D,
            stats: LinearStats::default(),
        })
    }

    /// The matrix on the element share's triplets followed by `rows`,
    /// `cols` (the contact blocks of this rank's rows): a new PETSc matrix
    /// and solver, the preconditioner built again at the next solve (the
    /// serial build redoes its symbolic analysis when the pattern grows).
    pub fn set_extra(&mut self, rows: &[i32], cols: &[i32]) -> Result<(), PetscError> {
        let mut r = [&self.base_rows[..], rows].concat();
        let mut c = [&self.base_cols[..], cols].concat();
        self.a = Matrix::new(self.petsc, self.bs, self.owned_rows, &mut r, &mut c)?;
        self.ksp = Krylov::new(self.petsc, &self.a, RTOL, &self.method)?;
        self.fresh = true;
        Ok(())
    }

    /// A new step: its first solve builds the preconditioner from its own
    /// matrix; `x_owned` (the step's start positions) gives GAMG its
    /// rigid-body modes.
    pub fn begin_step(&mut self, x_owned: &[f64]) -> Result<(), PetscError> {
        self.fresh = true;
        if !self.factorization {
            // a new solver: nothing of an earlier step's left in it
            self.ksp = Krylov::new(self.petsc, &self.a, RTOL, &self.method)?;
        }
        if self.multigrid {
            self.coords.set_owned(x_owned)?;
            self.a.set_rigid_body_modes(&self.coords)?;
        }
        Ok(())
    }

    /// Solves `K dx = −r` for this rank's owned entries (`k`: this rank's
    /// share of `K` on its local pattern).
    pub fn solve(
        &mut self,
        k: &[f64],
        r_owned: &[f64],
        dx_owned: &mut [f64],
    ) -> Result<usize, LinearError> {
        self.set_matrix(k)?;
        let rhs: Vec<f64> = r_owned.iter().map(|v| -v).collect();
        self.solve_owned(&rhs, dx_owned)
    }

    /// The Newton matrix's values: this rank's share `k` on its COO
    /// triplets (the element share's, then any contact blocks').
    pub fn set_matrix(&mut self, k: &[f64]) -> Result<(), LinearError> {
        let started = std::time::Instant::now();
        self.a.set_values(k)?;
        self.stats.seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// The next solve factors the matrix last set (a direct method; an
    /// iterative one keeps its preconditioner): the condensed contact path
    /// solves one column per contact unknown with each Newton matrix, where
    /// GMRES on the step's first factors took about 8 iterations a column.
    pub fn refactor(&mut self) {
        if self.factorization {
            self.fresh = true;
        }
    }

    /// Solves `K X = B` for `ncols` columns (this rank's rows of each,
    /// column-major, in `b` and `x`) with the matrix last set. A direct
    /// method solves them at once on the factors of this matrix (one
    /// multiple-right-hand-side solve: the condensed contact path's `W`
    /// columns cost one solve each otherwise, a round of messages apiece);
    /// a column whose residual misses `RTOL` is solved again by the KSP.
    /// Returns the Krylov iterations.
    pub fn solve_block(
        &mut self,
        b: &mut [f64],
        x: &mut [f64],
        ncols: usize,
    ) -> Result<usize, LinearError> {
        let m = self.owned_rows;
        let single = |lin: &mut Self, b: &[f64], x: &mut [f64]| -> Result<usize, LinearError> {
            let mut its = 0;
            for c in 0..ncols {
                its += lin.solve_owned(&b[c * m..(c + 1) * m], &mut x[c * m..(c + 1) * m])?;
            }
            Ok(its)
        };
        if !self.factorization || ncols < 2 {
            return single(self, b, x);
        }
        let started = std::time::Instant::now();
        if self.fresh {
            self.ksp.reuse_preconditioner(false)?;
            self.ksp.set_up()?;
            self.stats.factorizations += 1;
            self.fresh = false;
        }
        let norms = {
            let bd = Dense::new(m, ncols, b)?;
            let xd = Dense::new(m, ncols, x)?;
            self.ksp.apply_block(&bd, &xd)?;
            let r = self.a.residual(&xd, &bd)?;
            let rn = r.column_norms(ncols)?;
            let bn = bd.column_norms(ncols)?;
            rn.into_iter().zip(bn).collect::<Vec<_>>()
        };
        self.stats.solves += ncols;
        self.stats.seconds += started.elapsed().as_secs_f64();
        let mut its = 0;
        for (c, &(r, bn)) in norms.iter().enumerate() {
            if r > RTOL * bn {
                // the same decision on every rank: the norms are global
                its += self.solve_owned(&b[c * m..(c + 1) * m], &mut x[c * m..(c + 1) * m])?;
            }
        }
        Ok(its)
    }

    /// Solves `K x = b` with the matrix last set, for this rank's owned
    /// entries; the step's first solve builds the preconditioner.
    pub fn solve_owned(&mut self, b: &[f64], x_owned: &mut [f64]) -> Result<usize, LinearError> {
        let started = std::time::Instant::now();
        self.b.set_owned(b)?;
        let fresh = self.fresh;
        self.ksp.reuse_preconditioner(!fresh)?;
        let mut info = self.ksp.solve(&self.b, &self.x)?;
        if fresh {
            self.stats.factorizations += self.factorization as usize;
        } else if info.reason < 0 {
            // the step's preconditioner no longer fits: one from this matrix
            self.ksp.reuse_preconditioner(false)?;
            info = self.ksp.solve(&self.b, &self.x)?;
            self.stats.factorizations += self.factorization as usize;
        }
        self.fresh = false;
        self.stats.solves += 1;
        self.stats.krylov_iterations += info.iterations;
        self.stats.seconds += started.elapsed().as_secs_f64();
        if info.reason < 0 {
            return Err(LinearError::NoConvergence {
                reason: info.reason,
                iterations: info.iterations,
            });
        }
        self.x.get_owned(x_owned)?;
        Ok(info.iterations)
    }
}

/// Why the solver could not be set up.
#[derive(Debug, Clone, thiserror::Error)]
pub enum LinearSetupError {
    #[error("{0}")]
    Options(OptionsError),
    #[error("{0}")]
    Petsc(#[from] PetscError),
}

/// Why a solve failed (the step is then cut back).
#[derive(Debug, Clone, thiserror::Error)]
pub enum LinearError {
    #[error("PETSc KSP did not converge (reason {reason}) in {iterations} iterations")]
    NoConvergence { reason: i32, iterations: usize },
    #[error("{0}")]
    Petsc(#[from] PetscError),
}
