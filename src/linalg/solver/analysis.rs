//! The symbolic side of [`LinearSolver`]: which ordering a pattern is
//! analysed with (the contact nodes last or not), and the work model that
//! decides between refactoring and reusing old factors (module docs of
//! [`super`]).

use super::{
    LinearSolveError, LinearSolver, Precond, SparseLdlt, SupernodalLu, SymbolicFactor, FACTOR_RATE,
    MAX_TRAILING_DOFS, MEMORY_RATE,
};
use crate::linalg::plan::LinearMethod;
use crate::linalg::solver_types::Factorization;
use std::time::Instant;

/// Supernode relaxation of the analysis with the volatile nodes last:
/// faer's default (`(4, 1.0), (16, 0.8), (48, 0.1), (usize::MAX, 0.05)`:
/// a merge of a child into its parent supernode is allowed while the
/// explicit zeros stay within that share of the merged supernode) without
/// its last entry, so no merge above 256 columns adds zeros. With the
/// default, the last interior separator (684 columns on the 18,546-dof
/// friction blocks) merged into the contact block at ≤ 5 % zeros, and the
/// trailing block a chord iteration refactors and `W` is solved on had
/// 1,590–1,758 columns for 948–1,113 contact columns: 1.6–2.4e9 flops
/// against 3.9–5.6e8 now, a full factorization unchanged (1.116e10 against
/// 1.129e10 flops). Merges that add no zeros (a child whose structure is
/// exactly its parent's) faer makes whatever the table, and a merge under
/// 256 columns may still add a neighbour to a small contact block (two
/// boxes of 4³ and 8×8×4 cells: 3× the dense LU of the contact columns);
/// from the 6³ + 12×12×6 boxes up the block is the contact columns alone
/// (`solver_tests::the_trailing_block_is_the_volatile_columns_alone`).
const SPLIT_RELAX: &[(usize, f64)] = &[(4, 1.0), (16, 0.8), (48, 0.1), (256, 0.05)];

impl LinearSolver {
    /// The symbolic analysis with the volatile nodes last, when the
    /// trailing block is at most half of a full factorization and ordering
    /// it last costs at most 50 % more work than the unconstrained ordering;
    /// otherwise the unconstrained one. The block serves the restricted
    /// solves of `W` (each a fraction of a full solve) and the refactoring of
    /// the block alone. With faer's supernode relaxation the contact block
    /// of the coarse friction blocks is 22–32 % of the work (288–399
    /// columns): at a bound of 1/4 half of its patterns were refused and
    /// `W` took full solves, 0.22 s of the run against 0.10 s.
    ///
    /// The unconstrained analysis is done once and its work remembered: a
    /// constrained one within 1.5× of that is kept without analysing the
    /// unconstrained ordering of its own pattern again (the contact
    /// couplings add little to it; half of the symbolic time of the coarse
    /// blocks' run was that second ordering).
    pub(super) fn symbolic(&mut self) -> Result<SymbolicFactor, LinearSolveError> {
        let err =
            |e: crate::linalg::symbolic::SymbolicError| LinearSolveError::Symbolic(e.to_string());
        let pattern = &self.op.pattern;
        let d = pattern.dim();
        let plain = |s: &mut Self| -> Result<SymbolicFactor, LinearSolveError> {
            let f = SymbolicFactor::new(&s.op.pattern, s.plan.ordering, None).map_err(err)?;
            s.plain_flops = Some(f.size().lu_flops);
            Ok(f)
        };
        if self.volatile.is_empty() || self.volatile.len() * d > MAX_TRAILING_DOFS {
            return plain(self);
        }
        let split = SymbolicFactor::with_last(
            pattern,
            self.plan.ordering,
            Some(SPLIT_RELAX),
            &self.volatile,
        )
        .map_err(err)?;
        let fs = split.size().lu_flops;
        let small = split.trailing_flops() <= 0.5 * fs;
        let keep_by = |fp: f64| small && fs <= 1.5 * fp;
        let (keep, fp, other) = match self.plain_flops {
            Some(fp) if keep_by(fp) => (true, fp, None),
            _ => {
                let other = plain(self)?;
                let fp = other.size().lu_flops;
                (keep_by(fp), fp, Some(other))
            }
        };
        let sn = split.supernodal();
        let sc = split.split().unwrap_or(0);
        log::debug!(
            "linear solver: {} volatile nodes last: {:.3e} flops ({:.3e} unconstrained), trailing block {:.3e} ({} columns, {} supernodes): {}",
            self.volatile.len(),
            fs,
            fp,
            split.trailing_flops(),
            split.n() - sn.supernode_begin()[sc],
            sn.n_supernodes() - sc,
            if keep { "kept" } else { "not used" }
        );
        match (keep, other) {
            (false, Some(other)) => Ok(other),
            _ => Ok(split),
        }
    }

    pub(super) fn analyse(&mut self) -> Result<(), LinearSolveError> {
        // the arrays of the last pattern's factors serve the new ones
        let old = self.precond.take();
        if self.plan.method != LinearMethod::Direct {
            return Ok(());
        }
        let t = Instant::now();
        let symmetric =
            self.params.symmetric || self.params.factorization == Factorization::SymmetricPart;
        let sym = if symmetric {
            SymbolicFactor::new(&self.op.pattern, self.plan.ordering, None)
                .map_err(|e| LinearSolveError::Symbolic(e.to_string()))?
        } else {
            self.symbolic()?
        };
        let pattern = &self.op.pattern;
        let (old, x, tw) = match old {
            Some(Precond::Lu { lu, x, t, .. }) => (Some(lu), x, t),
            _ => (None, Vec::new(), Vec::new()),
        };
        self.precond = Some(if symmetric {
            Precond::Ldlt {
                ldlt: SparseLdlt::new(&sym),
                sym,
                sym_values: Vec::new(),
            }
        } else {
            Precond::Lu {
                lu: SupernodalLu::reusing(&sym, pattern, old),
                sym,
                x,
                t: tw,
            }
        });
        self.stats.symbolic_analyses += 1;
        self.stats.symbolic_seconds += t.elapsed().as_secs_f64();
        self.work_model();
        Ok(())
    }

    /// The factorization and Krylov-iteration costs of the work model.
    pub(super) fn work_model(&mut self) {
        let size = match &self.precond {
            Some(Precond::Lu { sym, .. }) | Some(Precond::Ldlt { sym, .. }) => sym.size(),
            _ => return,
        };
        let symmetric = matches!(self.precond, Some(Precond::Ldlt { .. }));
        // an LDLᵀ solve reads L twice
        let (flops, entries) = if symmetric {
            (0.5 * size.lu_flops, 2 * size.l_entries)
        } else {
            (size.lu_flops, size.lu_entries)
        };
        self.factor_cost = flops / FACTOR_RATE;
        self.trailing_cost = match &self.precond {
            Some(Precond::Lu { sym, .. }) => sym.trailing_flops() / FACTOR_RATE,
            _ => 0.0,
        };
        // bytes read: the factors, A (values and row indices), the Krylov basis
        let basis = self.params.restart as f64 * size.n as f64;
        self.iteration_cost =
            8.0 * (entries as f64 + 2.0 * self.op.pattern.nnz() as f64 + basis) / MEMORY_RATE;
    }

    /// Krylov iterations a solve with old factors may take.
    pub(super) fn reuse_limit(&self) -> usize {
        self.params.reuse_iterations.unwrap_or_else(|| {
            let r = self.factor_cost / self.iteration_cost.max(f64::MIN_POSITIVE);
            r.clamp(10.0, 300.0) as usize
        })
    }
}
