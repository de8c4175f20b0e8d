//! Semismooth Newton on the whole reduced problem, NSN-AC / NSN-JM / NSN-NM
//! (Acary, Brémond & Dubois 2017, "Nonsmooth Newton on F(r) = 0" with the functions
//! of eqs. 11–13; Alart & Curnier 1991).
//!
//! `r ← r + t δ`, `J δ = −Φ(r)`, `J = B + A W` with the block-diagonal generalized
//! Jacobians `A = ∂Φ/∂u`, `B = ∂Φ/∂r` of [`super::functions`]. `J` is assembled in a
//! fixed faer sparse pattern (the block closure of the pattern of `W` plus the diagonal
//! blocks), factorized by a sparse LU whose symbolic analysis is done once and reused
//! every iteration. Without line search `t = 1`; with it, `t` is the first of
//! `1, ½, ¼, …` satisfying Armijo's condition on the merit `ψ = ½‖Φ‖²`:
//! `ψ(r + tδ) ≤ (1 − 2σt) ψ(r)`, `σ = 10⁻⁴` (the directional derivative of `ψ` along the
//! Newton direction is `−2ψ`).

use std::time::Instant;

use faer::sparse::linalg::solvers::{Lu, SymbolicLu};
use faer::sparse::{SparseColMatRef, SymbolicSparseColMat};
use nalgebra::{SMatrix, SVector};

use super::dense_jacobian::{DenseJacobian, REGULARIZATIONS};
use super::functions::NsnFunction;
use super::stop::{Outcome, Watch};
use super::{check_sizes, sanitize, Control, Entry, Info, SolveError, Solver};
use crate::nonsmooth::error::{fclib_error, fclib_error_floor};
use crate::nonsmooth::problem::{csc_mul_add, DiagBlocks, LocalProblem};

const ARMIJO_SIGMA: f64 = 1e-4;
const MAX_HALVINGS: usize = 30;

/// Parameters of the semismooth Newton solvers.
#[derive(Debug, Clone, PartialEq)]
pub struct NsnParams {
    /// The reformulation solved. Default Alart–Curnier.
    pub function: NsnFunction,
    /// Armijo line search on `½‖Φ‖²`. Default true.
    pub line_search: bool,
    /// `ρ_c = rho / (tr W_cc / dim)` (scaled by the diagonal block, as Siconos does).
    /// Default 1.
    pub rho: f64,
    /// Step cap when the [`Control`] gives none. Default 1000.
    pub max_iter: usize,
    /// Stop as stalled when the error has not dropped by 1 % in this many steps.
    /// Default 300.
    pub stall_window: usize,
}

impl Default for NsnParams {
    fn default() -> Self {
        NsnParams {
            function: NsnFunction::AlartCurnier,
            line_search: true,
            rho: 1.0,
            max_iter: 1000,
            stall_window: 300,
        }
    }
}

/// Semismooth Newton (module docs).
#[derive(Debug, Clone, Default)]
pub struct Nsn {
    pub params: NsnParams,
}

fn make(function: NsnFunction, line_search: bool) -> Box<dyn Solver> {
    Box::new(Nsn {
        params: NsnParams {
            function,
            line_search,
            ..NsnParams::default()
        },
    })
}

pub const AC: Entry = Entry {
    name: "nsn-ac",
    description:
        "semismooth Newton on the Alart-Curnier function (Acary et al. 2017 eq. 11), full steps",
    make: || make(NsnFunction::AlartCurnier, false),
};
pub const JM: Entry = Entry {
    name: "nsn-jm",
    description:
        "semismooth Newton on the Jean-Moreau function (Acary et al. 2017 eq. 12), full steps",
    make: || make(NsnFunction::JeanMoreau, false),
};
pub const NM: Entry = Entry {
    name: "nsn-nm",
    description: "semismooth Newton on the natural map (Acary et al. 2017 eq. 13), full steps",
    make: || make(NsnFunction::NaturalMap, false),
};
pub const AC_LS: Entry = Entry {
    name: "nsn-ac-ls",
    description:
        "semismooth Newton on the Alart-Curnier function (eq. 11), Armijo line search on 1/2|Phi|^2",
    make: || make(NsnFunction::AlartCurnier, true),
};
pub const JM_LS: Entry = Entry {
    name: "nsn-jm-ls",
    description:
        "semismooth Newton on the Jean-Moreau function (eq. 12), Armijo line search on 1/2|Phi|^2",
    make: || make(NsnFunction::JeanMoreau, true),
};
pub const NM_LS: Entry = Entry {
    name: "nsn-nm-ls",
    description: "semismooth Newton on the natural map (eq. 13), Armijo line search on 1/2|Phi|^2",
    make: || make(NsnFunction::NaturalMap, true),
};

impl Solver for Nsn {
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        control.validate()?;
        let start = Instant::now();
        let max_iter = control.max_iter.unwrap_or(self.params.max_iter);
        let mut watch = Watch::new(self.params.stall_window);
        let out = newton(
            problem,
            &self.params,
            r,
            u,
            control,
            max_iter,
            0,
            &mut watch,
        )?;
        out.finish(start, out.iterations)
    }
}

/// Newton steps until converged, `max_iter` (counted from `first`), the deadline or a
/// stall. `Err(LinearSolver)` when no regularized Jacobian could be factorized.
#[allow(clippy::too_many_arguments)]
pub(crate) fn newton(
    problem: &LocalProblem,
    params: &NsnParams,
    r: &mut [f64],
    u: &mut [f64],
    control: &Control,
    max_iter: usize,
    first: usize,
    watch: &mut Watch,
) -> Result<Outcome, SolveError> {
    check_sizes(problem, r, u);
    sanitize(r);
    match &problem.blocks {
        DiagBlocks::Two(b) => {
            Newton::<2>::new(problem, b, params).run(r, u, control, max_iter, first, watch)
        }
        DiagBlocks::Three(b) => {
            Newton::<3>::new(problem, b, params).run(r, u, control, max_iter, first, watch)
        }
    }
}

/// `J` is factored densely when its pattern holds at least this share of `n²`
/// (the Delassus operator of a finite-element contact step couples every
/// point with every other): a dense LU of a few hundred unknowns takes
/// microseconds to milliseconds where the sparse one spends its time on
/// structure.
const DENSE_SHARE: f64 = 0.25;
/// Largest `n` factored densely (`n²` values).
const DENSE_MAX: usize = 4000;

/// Whether `J = B + A W` is better factored densely ([`DENSE_SHARE`],
/// [`DENSE_MAX`]); `J`'s pattern holds `W`'s, so a dense `W` decides it
/// without building the sparse pattern.
fn dense_jacobian(problem: &LocalProblem) -> bool {
    let n = problem.size();
    n <= DENSE_MAX && problem.w.val().len() as f64 >= DENSE_SHARE * (n * n) as f64
}

/// Fixed sparse pattern of `J = B + A W` and where each entry of `W` lands in it.
pub(crate) struct JacobianPattern {
    pub symbolic: SymbolicSparseColMat<usize>,
    /// Offset (in `J`'s values) of the block-row start for each stored entry of `W`.
    entry_off: Vec<usize>,
    /// Offset of the diagonal block-row start for each column.
    diag_off: Vec<usize>,
}

impl JacobianPattern {
    pub fn new(problem: &LocalProblem) -> Self {
        let d = problem.dim;
        let n = problem.size();
        let cp = problem.w.symbolic().col_ptr();
        let ri = problem.w.symbolic().row_idx();
        let mut col_ptr = Vec::with_capacity(n + 1);
        let mut row_idx = Vec::new();
        let mut entry_off = vec![0; ri.len()];
        let mut diag_off = vec![0; n];
        let mut blocks: Vec<usize> = Vec::new();
        col_ptr.push(0);
        for j in 0..n {
            blocks.clear();
            blocks.extend(ri[cp[j]..cp[j + 1]].iter().map(|i| i / d));
            blocks.push(j / d);
            blocks.sort_unstable();
            blocks.dedup();
            let base = row_idx.len();
            for &b in &blocks {
                row_idx.extend(b * d..b * d + d);
            }
            for k in cp[j]..cp[j + 1] {
                let pos = blocks.binary_search(&(ri[k] / d)).unwrap_or(0);
                entry_off[k] = base + pos * d;
            }
            diag_off[j] = base + blocks.binary_search(&(j / d)).unwrap_or(0) * d;
            col_ptr.push(row_idx.len());
        }
        let symbolic = SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx);
        JacobianPattern {
            symbolic,
            entry_off,
            diag_off,
        }
    }

    /// `vals` ← values of `B + A W` with per-contact blocks `a[c]`, `b[c]`.
    pub fn fill<const D: usize>(
        &self,
        problem: &LocalProblem,
        a: &[SMatrix<f64, D, D>],
        b: &[SMatrix<f64, D, D>],
        vals: &mut [f64],
    ) {
        vals.iter_mut().for_each(|v| *v = 0.0);
        let cp = problem.w.symbolic().col_ptr();
        let ri = problem.w.symbolic().row_idx();
        let wv = problem.w.val();
        for j in 0..problem.size() {
            for k in cp[j]..cp[j + 1] {
                let (c, l) = (ri[k] / D, ri[k] % D);
                let base = self.entry_off[k];
                for i in 0..D {
                    vals[base + i] += a[c][(i, l)] * wv[k];
                }
            }
            let (c, l) = (j / D, j % D);
            let base = self.diag_off[j];
            for i in 0..D {
                vals[base + i] += b[c][(i, l)];
            }
        }
    }
}

/// Where `J` lives: a fixed sparse pattern with its values and symbolic LU,
/// or a dense workspace ([`dense_jacobian`], [`DenseJacobian`]).
enum Jacobian {
    Sparse {
        pattern: JacobianPattern,
        symbolic_lu: Option<SymbolicLu<usize>>,
        vals: Vec<f64>,
    },
    Dense(DenseJacobian),
}

struct Newton<'a, const D: usize> {
    problem: &'a LocalProblem,
    func: NsnFunction,
    line_search: bool,
    rho: Vec<f64>,
    jacobian: Jacobian,
    a: Vec<SMatrix<f64, D, D>>,
    b: Vec<SMatrix<f64, D, D>>,
    phi: Vec<f64>,
}

/// `ρ_c = rho / (tr W_cc / D)`, or `rho` when the block has no positive trace.
pub(crate) fn scaled_rho<const D: usize>(blocks: &[SMatrix<f64, D, D>], rho: f64) -> Vec<f64> {
    blocks
        .iter()
        .map(|w| {
            let t = w.trace() / D as f64;
            if t > 0.0 && t.is_finite() {
                rho / t
            } else {
                rho
            }
        })
        .collect()
}

impl<'a, const D: usize> Newton<'a, D> {
    fn new(problem: &'a LocalProblem, blocks: &[SMatrix<f64, D, D>], params: &NsnParams) -> Self {
        let nc = problem.n_contacts;
        let n = problem.size();
        let jacobian = if dense_jacobian(problem) {
            Jacobian::Dense(DenseJacobian::new(n, nc))
        } else {
            let pattern = JacobianPattern::new(problem);
            let nnz = pattern.symbolic.row_idx().len();
            Jacobian::Sparse {
                pattern,
                symbolic_lu: None,
                vals: vec![0.0; nnz],
            }
        };
        Newton {
            problem,
            func: params.function,
            line_search: params.line_search,
            rho: scaled_rho(blocks, params.rho),
            jacobian,
            a: vec![SMatrix::zeros(); nc],
            b: vec![SMatrix::zeros(); nc],
            phi: vec![0.0; D * nc],
        }
    }

    /// `Φ` (and, when `jac`, the blocks `A`, `B`); returns `ψ = ½‖Φ‖²`.
    fn evaluate(&mut self, r: &[f64], u: &[f64], jac: bool) -> f64 {
        let mut psi = 0.0;
        for c in 0..self.problem.n_contacts {
            let rc = SVector::<f64, D>::from_column_slice(&r[D * c..D * c + D]);
            let uc = SVector::<f64, D>::from_column_slice(&u[D * c..D * c + D]);
            let (mu, rho) = (self.problem.mu[c], self.rho[c]);
            let phi = if jac {
                let (phi, a, b) = self.func.eval(&rc, &uc, mu, rho);
                self.a[c] = a;
                self.b[c] = b;
                phi
            } else {
                self.func.value(&rc, &uc, mu, rho)
            };
            self.phi[D * c..D * c + D].copy_from_slice(phi.as_slice());
            psi += phi.norm_squared();
        }
        0.5 * psi
    }

    /// Solves `J δ = −Φ`; `delta` holds the step. When `J` is singular (rank-deficient
    /// `W`, e.g. rigid bodies with many contacts), retries with `J + ηI` for the `η`
    /// of [`REGULARIZATIONS`], a Levenberg–Marquardt-like regularization of the
    /// Newton step.
    fn direction(&mut self, delta: &mut [f64]) -> Result<(), String> {
        let (problem, a, b, phi) = (self.problem, &self.a, &self.b, &self.phi);
        match &mut self.jacobian {
            Jacobian::Dense(dense) => dense.solve::<D>(problem, a, b, phi, delta),
            Jacobian::Sparse {
                pattern,
                symbolic_lu,
                vals,
            } => {
                use faer::linalg::solvers::Solve;
                let rhs = |delta: &mut [f64]| {
                    for (d, p) in delta.iter_mut().zip(phi) {
                        *d = -p;
                    }
                };
                let mut last = String::from("singular Jacobian (non-finite Newton step)");
                let mut eta_prev = 0.0;
                pattern.fill::<D>(problem, a, b, vals);
                if symbolic_lu.is_none() {
                    *symbolic_lu = Some(
                        SymbolicLu::try_new(pattern.symbolic.as_ref())
                            .map_err(|e| format!("{e:?}"))?,
                    );
                }
                for eta in REGULARIZATIONS {
                    for j in 0..delta.len() {
                        vals[pattern.diag_off[j] + j % D] += eta - eta_prev;
                    }
                    eta_prev = eta;
                    let mat = SparseColMatRef::new(pattern.symbolic.as_ref(), vals);
                    let sym = symbolic_lu.clone().expect("set above");
                    let lu = match Lu::try_new_with_symbolic(sym, mat) {
                        Ok(lu) => lu,
                        Err(e) => {
                            last = format!("{e:?}");
                            continue;
                        }
                    };
                    rhs(delta);
                    lu.solve_in_place(faer::ColMut::from_slice_mut(delta));
                    if delta.iter().all(|x| x.is_finite()) {
                        return Ok(());
                    }
                    last = "singular Jacobian (non-finite Newton step)".into();
                }
                Err(last)
            }
        }
    }

    fn run(
        mut self,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
        max_iter: usize,
        first: usize,
        watch: &mut Watch,
    ) -> Result<Outcome, SolveError> {
        let line_search = self.line_search;
        let n = self.problem.size();
        let mut delta = vec![0.0; n];
        let mut wdelta = vec![0.0; n];
        let mut r_try = vec![0.0; n];
        let mut u_try = vec![0.0; n];
        self.problem.velocity(r, u);
        let mut it = first;
        loop {
            let error = fclib_error(self.problem, r, u);
            if let Some(status) = watch.check(
                control,
                it,
                max_iter,
                error,
                fclib_error_floor(self.problem, r, u),
            ) {
                return Ok(Outcome {
                    status,
                    error,
                    iterations: it,
                });
            }
            let psi0 = self.evaluate(r, u, true);
            if let Err(reason) = self.direction(&mut delta) {
                return Err(SolveError::LinearSolver {
                    reason,
                    error,
                    iterations: it - first,
                });
            }
            wdelta.iter_mut().for_each(|x| *x = 0.0);
            csc_mul_add(&self.problem.w, &delta, &mut wdelta);
            let mut t = 1.0;
            if line_search {
                for _ in 0..MAX_HALVINGS {
                    for i in 0..n {
                        r_try[i] = r[i] + t * delta[i];
                        u_try[i] = u[i] + t * wdelta[i];
                    }
                    let psi = self.evaluate(&r_try, &u_try, false);
                    if psi <= (1.0 - 2.0 * ARMIJO_SIGMA * t) * psi0 {
                        break;
                    }
                    t *= 0.5;
                }
            }
            for i in 0..n {
                r[i] += t * delta[i];
            }
            // Recompute u from r (no drift from the incremental update).
            self.problem.velocity(r, u);
            it += 1;
        }
    }
}
