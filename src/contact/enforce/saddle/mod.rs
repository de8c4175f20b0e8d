//! The saddle-point path of exact and augmented-Lagrangian enforcement: the
//! linearized step of [`super`] solved with `δx` and the multipliers `r`
//! together, by a semismooth Newton method on the Alart–Curnier functions
//! (Alart & Curnier 1991; Acary, Brémond & Dubois 2017, eq. 11; the
//! library's [`NsnFunction::AlartCurnier`](crate::nonsmooth::global::NsnFunction::AlartCurnier)) whose linear systems are sparse:
//!
//! ```text
//! ⎡ K        −H         ⎤ ⎡Δy⎤     ⎡ K y − H (r − r_old) + R ⎤
//! ⎣ A B   B_r + A (C+γ) ⎦ ⎣Δr⎦ = − ⎣ Φ(r, u + B y)           ⎦
//! ```
//!
//! `y` is the Newton correction `δx` being built, `Φ = [Φ_N, Φ_T]` the
//! Alart–Curnier function of each point with `A = ∂Φ/∂u`, `B_r = ∂Φ/∂r`
//! (generalized Jacobians), `C` the tangential compliance of a stated
//! `tangential_penalty`, and `γ` a proximal term (below). Each point's
//! multipliers are a pseudo-node of `D` unknowns coupled to the nodes it
//! may reach in the step, ordered right after its slave node in the
//! factorization ([`crate::linalg::LinearSolver::set_pattern`]'s anchors):
//! the pivoting inside that supernode takes the zero diagonal of a
//! sticking point. The matrix has the bulk tangent's sparsity plus `D` rows
//! per contact point, so a contact iteration costs about one factorization
//! whatever the number of points (the condensed path builds `W` with a
//! solve per contact unknown and solves a dense problem).
//!
//! Iterations ("inner", all with the same `K`): the first from `y = 0`,
//! `r = r_old` is the semismooth Newton step on `(x, r)` together, a
//! primal–dual active-set step (Hüeber & Wohlmuth 2005; Popp, Gee & Wall
//! 2009). Exact enforcement goes on until the linearized step meets the
//! law to a forcing term (`SaddleParams`); with `SaddleParams::one_step` it
//! stops after the first step, one linear solve per Newton iteration,
//! while the active set holds (no point switched between open and in
//! contact and no face settled at the iterate being corrected), and solves
//! fully only at the step's first correction and where the active set
//! changed: one semismooth step per Newton iteration there made
//! the first contact of the 16² scaling model diverge (an inverted
//! element, then a cut-back), the full solve keeps it robust. Outer
//! Newton converges only where the law holds at its iterate
//! ([`crate::contact::ContactSet::violation`]), so the answer is that of
//! the full solve. Augmented-Lagrangian enforcement stops after the first
//! step unless Newton asks for the full solve. Later inner iterations
//! change only the contact rows, so the linear solver's reuse (old
//! factors preconditioning GMRES) makes them cheap.
//! The first inner step is taken whole: it also solves the bodies' block,
//! whose residual `‖Φ‖²` does not see. Later steps are damped by a
//! non-monotone backtracking line search on `‖Φ‖²` (the first block stays
//! exact along the direction, being linear), and the inner iteration stops
//! at a forcing term (`SaddleParams`) on the law's violation and, where a
//! point's function is in its open branch, on the multiplier left there
//! (`Δt ‖r‖/ρ`: a tensile or tangential multiplier on a separating point
//! works outside the frictional ledger). One that
//! cycles (no progress over a few iterates) leaves the second pass out
//! for the step, and, cycling again, the first-pass points that repeat a
//! lifted second-pass point ([`crate::contact::second_pass`]). One that
//! cycles with no second-pass point left to leave out ends there and
//! leaves its iterate to the outer Newton, as at its cap: its later
//! iterates cost a factorization each and do not improve it (measured in
//! `docs/decisions/settle-restarts-after-landing.md`).
//!
//! `ρ_l = D / tr W̃_ll` with `W̃_ll = Σ_A B_A K_AA⁻¹ H_Aᵀ` from the diagonal
//! blocks of `K` (the condensed path's `D / tr W_ll` without building `W`).
//! `γ_l = ε_prox/ρ_l` (velocity per force) regularizes the Jacobian only,
//! never `Φ`: where two passes constrain the same motion (their rows of
//! `[A B  B_r]` are then dependent) the matrix stays regular and the inner
//! iteration is a proximal point method that keeps the multipliers nearest
//! their last value along the redundant directions; converged, `Φ = 0`
//! holds exactly.

use super::{EnforceError, EnforceOptions, SubproblemInfo};
use crate::contact::geometry::MAX_NODES;
use crate::contact::set::ContactSet;
use crate::linalg::{BlockPattern, LinearSolver};
use crate::model::Enforcement;
use nalgebra::SMatrix;
use std::time::Instant;

mod census;
mod params;
mod point;
mod reach;
pub use params::SaddleParams;
use point::{evaluate, Iterate, PointJac};
pub use reach::Reach;

/// The saddle-point system of a step's layout: which points carry a
/// multiplier block, the augmented pattern, and scratch.
pub struct Saddle {
    /// `(pair, point)` of each pseudo-node, in pseudo-node order.
    points: Vec<(usize, usize)>,
    /// Per pair, the pseudo-node of each point (`usize::MAX`: none).
    index: Vec<Vec<usize>>,
    /// Per pseudo-node, the nodes it is coupled to (its slave node first).
    reach: Vec<Vec<usize>>,
    /// Nodes of the bodies; pseudo-node `j` is node `n_nodes + j`.
    n_nodes: usize,
    pattern: BlockPattern,
    /// Position in the augmented values of each entry of the bodies' pattern.
    k_pos: Vec<usize>,
    values: Vec<f64>,
    params: SaddleParams,
    /// The proximal parameter of the current inner iteration.
    prox: f64,
    /// The merits of the last inner iterates (non-monotone line search).
    merits: Vec<f64>,
    /// The merits of the inner iterates after the first step (stall test).
    history: Vec<f64>,
    /// The second pass's shadow rule has been applied in this step, at a
    /// correction where the first pass was engaged
    /// ([`crate::contact::second_pass`]).
    shadowed: bool,
    // scratch of the inner iteration
    rho: Vec<f64>,
    jac: Vec<PointJac>,
    r: Vec<[f64; 3]>,
    r_old: Vec<[f64; 3]>,
    r_trial: Vec<[f64; 3]>,
    y: Vec<f64>,
    y_trial: Vec<f64>,
    ky: Vec<f64>,
    rhs: Vec<f64>,
}

/// The augmented pattern: the nodes of `k_pattern`, then one pseudo-node
/// per point `j`, coupled to the nodes it may reach (`lists[j]`, its slave
/// node first).
pub fn augmented_pattern<L: AsRef<[usize]>>(k_pattern: &BlockPattern, lists: &[L]) -> BlockPattern {
    let n = k_pattern.n_nodes();
    let pairs = lists
        .iter()
        .enumerate()
        .flat_map(|(j, l)| l.as_ref().iter().map(move |&a| (n + j, a)));
    k_pattern.extended(lists.len(), pairs)
}

/// `(pseudo-node, anchor)` of [`augmented_pattern`]'s points: each point's
/// multipliers ordered after its slave node.
pub fn anchors<L: AsRef<[usize]>>(n_nodes: usize, lists: &[L]) -> Vec<(usize, usize)> {
    lists
        .iter()
        .enumerate()
        .map(|(j, l)| (n_nodes + j, l.as_ref()[0]))
        .collect()
}

impl Saddle {
    /// The system for the points of `reach` on the bodies' pattern `k_pattern`.
    pub fn new(
        k_pattern: &BlockPattern,
        reach: Reach,
        pairs: usize,
        params: SaddleParams,
    ) -> Saddle {
        let n_nodes = k_pattern.n_nodes();
        let mut index: Vec<Vec<usize>> = vec![Vec::new(); pairs];
        let mut points = Vec::with_capacity(reach.len());
        let mut lists = Vec::with_capacity(reach.len());
        for (j, (p, k, nodes)) in reach.into_iter().enumerate() {
            if index[p].len() <= k {
                index[p].resize(k + 1, usize::MAX);
            }
            index[p][k] = j;
            points.push((p, k));
            lists.push(nodes);
        }
        let pattern = augmented_pattern(k_pattern, &lists);
        let k_pos = positions(k_pattern, &pattern);
        let m = points.len();
        Saddle {
            points,
            index,
            reach: lists,
            n_nodes,
            values: vec![0.0; pattern.nnz()],
            pattern,
            k_pos,
            params,
            shadowed: false,
            prox: params.proximal,
            merits: Vec::new(),
            history: Vec::new(),
            rho: vec![0.0; m],
            jac: vec![PointJac::default(); m],
            r: vec![[0.0; 3]; m],
            r_old: vec![[0.0; 3]; m],
            r_trial: vec![[0.0; 3]; m],
            y: Vec::new(),
            y_trial: Vec::new(),
            ky: Vec::new(),
            rhs: Vec::new(),
        }
    }

    /// Whether this system serves a step whose points reach `reach` on the
    /// same bodies' pattern: every point has its pseudo-node, coupled to at
    /// least the nodes it may reach now.
    pub fn covers(&self, reach: &Reach) -> bool {
        reach.iter().all(|(p, k, nodes)| {
            let j = self.index.get(*p).and_then(|v| v.get(*k)).copied();
            match j {
                Some(j) if j != usize::MAX => nodes.iter().all(|a| self.reach[j].contains(a)),
                _ => false,
            }
        })
    }

    /// The augmented pattern (the bodies' nodes, then one pseudo-node per point).
    pub fn pattern(&self) -> &BlockPattern {
        &self.pattern
    }

    /// `(pseudo-node, anchor)`: each point's multipliers after its slave node.
    pub fn anchored(&self) -> Vec<(usize, usize)> {
        anchors(self.n_nodes, &self.reach)
    }

    /// The layout: per multiplier block its pair, point and coupled nodes
    /// (what [`Saddle::new`] was built from; checkpoints).
    pub fn layout(&self) -> Reach {
        self.points
            .iter()
            .zip(&self.reach)
            .map(|(&(p, k), l)| (p, k, l.clone()))
            .collect()
    }

    /// Starts a step: the shadow rule applies again at its first correction.
    pub fn begin_step(&mut self) {
        self.shadowed = false;
    }

    /// Points with a multiplier block.
    pub fn len(&self) -> usize {
        self.points.len()
    }

    pub fn is_empty(&self) -> bool {
        self.points.is_empty()
    }
}

/// Where each entry of `k` (the bodies' pattern) lies in `aug`.
fn positions(k: &BlockPattern, aug: &BlockPattern) -> Vec<usize> {
    let d = k.dim();
    let mut pos = vec![0; k.nnz()];
    let (cp, ri) = (k.symbolic().col_ptr(), k.symbolic().row_idx());
    for col in 0..k.n() {
        let (b, j) = (col / d, col % d);
        for p in cp[col]..cp[col + 1] {
            let (a, i) = (ri[p] / d, ri[p] % d);
            let off = aug
                .block_offset(a, b)
                .expect("the augmented pattern holds the bodies' pattern");
            pos[p] = aug.position(off, i, b, j);
        }
    }
    pos
}

/// The bodies' Newton iterate the saddle path corrects: `K`'s values on
/// its pattern (supports applied), the residual `R` (fixed dofs zero), the
/// fixed dofs, and where the correction goes.
pub struct BodiesSystem<'a> {
    pub pattern: &'a BlockPattern,
    pub k: &'a [f64],
    pub residual: &'a [f64],
    pub fixed: &'a [bool],
    pub dx: &'a mut [f64],
}

impl Saddle {
    /// The saddle-point correction of the current iterate (module docs):
    /// `δx` into `sys.dx`, the multipliers of the points updated (points
    /// without a block carry none).
    pub fn correct<const D: usize>(
        &mut self,
        set: &mut ContactSet,
        lu: &mut LinearSolver,
        sys: BodiesSystem,
        opts: &EnforceOptions,
    ) -> Result<SubproblemInfo, EnforceError> {
        let start = Instant::now();
        if !self.shadowed {
            self.shadowed = crate::contact::second_pass::shadow(set);
        }
        if log::log_enabled!(log::Level::Debug) {
            census::log_second_pass(&self.points, set);
        }
        self.scale::<D>(set, &sys);
        let m = self.points.len();
        for (j, &(p, k)) in self.points.iter().enumerate() {
            self.r_old[j] = set.pairs[p].points[k].r;
        }
        self.r.copy_from_slice(&self.r_old);
        let n = sys.fixed.len();
        self.y.clear();
        self.y.resize(n, 0.0);
        let exact = set
            .pairs
            .iter()
            .any(|p| p.has_multipliers() && p.spec.enforcement == Enforcement::Exact);
        let full = match exact {
            true => opts.active_set_changed || !self.params.one_step,
            false => opts.solve_fully,
        };
        let mut info = SubproblemInfo {
            contacts: m,
            ..Default::default()
        };
        let mut dropped = false;
        self.prox = match exact && !full {
            true => self.params.one_step_proximal,
            false => self.params.proximal,
        };
        let mut target = self.params.inner_tol;
        let forcing = match exact && self.params.one_step {
            true => self.params.one_step_forcing,
            false => self.params.forcing,
        };
        self.merits.clear();
        self.history.clear();
        loop {
            let (merit, worst) = self.evaluate::<D>(set, opts.dt);
            info.error = worst;
            log::trace!(
                "contact (saddle): inner {}: merit {merit:.3e}, law {worst:.3e} of the tolerance",
                info.iterations
            );
            if info.iterations == 0 {
                target = target.max(forcing * worst);
            }
            let done = info.iterations > 0 && (!full || worst <= target);
            if done {
                break;
            }
            if info.iterations > 0 {
                self.history.push(merit);
            }
            let spent = info.iterations >= self.params.max_inner;
            // (a stall after the drop runs on to the cap: ended there, the
            // 44²×6 landing's step at t = 0.125 stopped converging, record
            // `settle-restarts-after-landing.md`)
            if self.stalled() && !dropped {
                dropped = true;
                let left = crate::contact::second_pass::drop_all(set);
                if left > 0 {
                    // the two passes constrain the same motion and the inner
                    // iteration stalls there: the first pass alone, for the
                    // rest of the step (as the condensed path does), but for
                    // the lifted points, each in place of the first-pass
                    // point it repeats most
                    log::debug!("contact (saddle): inner iteration stalled at {worst:.3e} of the tolerance after {} iterations; second pass left out for the step ({left})", info.iterations);
                    self.r.copy_from_slice(&self.r_old);
                    self.y.iter_mut().for_each(|v| *v = 0.0);
                    self.history.clear();
                    self.merits.clear();
                    info.iterations = 0;
                    continue;
                }
                // nothing left to leave out: the step's lifts now wait for a
                // first pass that holds (`second_pass::lift`), and the inner
                // iteration ends here, as at its cap (module docs)
                log::debug!("contact (saddle): inner iteration stalled at {worst:.3e} of the tolerance after {} iterations with no second-pass point to leave out; the step's lifts now wait for a first pass that holds, and Newton takes this iterate", info.iterations);
                break;
            }
            if spent {
                log::debug!("contact (saddle): inner iteration left at {worst:.3e} of the tolerance after {} iterations", info.iterations);
                break;
            }
            if opts
                .stop
                .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
            {
                log::debug!("contact (saddle): inner iteration ended by a stop request");
                break;
            }
            info.iterations += 1;
            self.assemble::<D>(set, &sys);
            lu.update(&self.values)?;
            lu.solve_in_place(&mut self.rhs)?;
            if info.iterations == 1 {
                // the first step also solves the bodies' block, whose residual
                // the merit does not see: it is taken whole
                self.trial::<D>(n, 1.0);
                std::mem::swap(&mut self.y, &mut self.y_trial);
                std::mem::swap(&mut self.r, &mut self.r_trial);
                continue;
            }
            self.line_search::<D>(set, opts.dt, n, merit);
        }
        sys.dx.copy_from_slice(&self.y);
        for pair in set.pairs.iter_mut().filter(|p| p.has_multipliers()) {
            pair.points.iter_mut().for_each(|s| s.r = [0.0; 3]);
        }
        for (j, &(p, k)) in self.points.iter().enumerate() {
            let point = &mut set.pairs[p].points[k];
            if point.acts() {
                point.r = self.r[j];
            }
        }
        info.seconds = start.elapsed().as_secs_f64();
        Ok(info)
    }

    /// The inner iteration cycles (`SaddleParams::stall_window`): the least
    /// merit of its last iterates is no lower than a share of the least
    /// before them.
    fn stalled(&self) -> bool {
        let (w, h) = (self.params.stall_window, &self.history);
        if h.len() <= w {
            return false;
        }
        let least = |v: &[f64]| v.iter().fold(f64::INFINITY, |m, &x| m.min(x));
        let split = h.len() - w;
        least(&h[split..]) > self.params.stall_progress * least(&h[..split])
    }

    /// `ρ_l = D / tr W̃_ll` of every point (module docs).
    fn scale<const D: usize>(&mut self, set: &ContactSet, sys: &BodiesSystem) {
        let mut nodes = [0usize; MAX_NODES];
        for (j, &(p, k)) in self.points.iter().enumerate() {
            let pair = &set.pairs[p];
            let lin = &pair.points[k].lin;
            let n = pair.element_nodes(k, &mut nodes);
            let mut tr = 0.0;
            for a in 0..n {
                let Some(inv) = diagonal_inverse::<D>(sys, nodes[a]) else {
                    continue;
                };
                for c in 0..D {
                    for i in 0..D {
                        for l in 0..D {
                            tr += lin.b[c][a * D + i] * inv[(i, l)] * lin.h[c][a * D + l];
                        }
                    }
                }
            }
            self.rho[j] = if tr > 0.0 && tr.is_finite() {
                D as f64 / tr
            } else {
                1.0
            };
        }
    }

    /// Every point's function and Jacobians at the inner iterate (into
    /// `jac`); returns the merit `Σ ‖Φ‖²` and the largest law violation
    /// relative to the tolerance.
    fn evaluate<const D: usize>(&mut self, set: &ContactSet, dt: f64) -> (f64, f64) {
        let at = Iterate {
            r: &self.r,
            y: &self.y,
        };
        evaluate::<D>(
            set,
            &self.points,
            &self.rho,
            self.prox,
            at,
            dt,
            Some(&mut self.jac),
        )
    }

    /// The augmented matrix and right-hand side at the current inner iterate.
    fn assemble<const D: usize>(&mut self, set: &ContactSet, sys: &BodiesSystem) {
        let n = sys.fixed.len();
        self.values.iter_mut().for_each(|v| *v = 0.0);
        for (p, &v) in sys.k.iter().enumerate() {
            self.values[self.k_pos[p]] = v;
        }
        // first block: −(K y − H (r − r_old) + R)
        self.ky.resize(n, 0.0);
        sys.pattern.mul(sys.k, &self.y, &mut self.ky);
        self.rhs.clear();
        self.rhs.resize(self.pattern.n(), 0.0);
        for i in 0..n {
            self.rhs[i] = if sys.fixed[i] {
                0.0
            } else {
                -(self.ky[i] + sys.residual[i])
            };
        }
        let mut nodes = [0usize; MAX_NODES];
        for (j, &(p, k)) in self.points.iter().enumerate() {
            let pseudo = self.n_nodes + j;
            let pj = self.jac[j];
            let row0 = pseudo * D;
            for i in 0..D {
                self.rhs[row0 + i] = -pj.phi[i];
            }
            let off = self.pattern.block_offset(pseudo, pseudo).expect("diagonal");
            for i in 0..D {
                for c in 0..D {
                    self.values[self.pattern.position(off, i, pseudo, c)] = pj.b[i][c];
                }
            }
            if pj.open {
                continue;
            }
            let pair = &set.pairs[p];
            let lin = &pair.points[k].lin;
            let cnt = pair.element_nodes(k, &mut nodes);
            for a in 0..cnt {
                let node = nodes[a];
                let (Some(col), Some(row)) = (
                    self.pattern.block_offset(node, pseudo),
                    self.pattern.block_offset(pseudo, node),
                ) else {
                    continue;
                };
                for i in 0..D {
                    let dof = node * D + i;
                    if sys.fixed[dof] {
                        continue;
                    }
                    for c in 0..D {
                        let h = lin.h[c][a * D + i];
                        self.values[self.pattern.position(col, i, pseudo, c)] -= h;
                        self.rhs[dof] += h * (self.r[j][c] - self.r_old[j][c]);
                    }
                    for ii in 0..D {
                        let v: f64 = (0..D).map(|c| pj.a[ii][c] * lin.b[c][a * D + i]).sum();
                        self.values[self.pattern.position(row, ii, node, i)] += v;
                    }
                }
            }
        }
    }

    /// Backtracking on the merit along the solved direction (in `rhs`):
    /// takes the first length that decreases it by the Armijo margin, the
    /// full step where none does (the merit is nonsmooth where a point
    /// changes branch). An open point's full step zeroes its multipliers
    /// exactly.
    fn line_search<const D: usize>(&mut self, set: &ContactSet, dt: f64, n: usize, merit: f64) {
        if self.merits.len() == self.params.memory {
            self.merits.remove(0);
        }
        self.merits.push(merit);
        let reference = self.merits.iter().fold(0.0f64, |m, &v| m.max(v));
        let mut alpha = 1.0;
        let mut improved = false;
        for _ in 0..=self.params.halvings {
            self.trial::<D>(n, alpha);
            let at = Iterate {
                r: &self.r_trial,
                y: &self.y_trial,
            };
            let (mt, _) = evaluate::<D>(set, &self.points, &self.rho, self.prox, at, dt, None);
            if reference == 0.0 || mt <= (1.0 - self.params.armijo * alpha) * reference {
                improved = true;
                break;
            }
            alpha *= 0.5;
        }
        if !improved {
            alpha = 1.0;
            self.trial::<D>(n, alpha);
        }
        self.prox = match improved && alpha == 1.0 {
            true => (0.1 * self.prox).max(self.params.proximal),
            false if improved => self.prox,
            false => (10.0 * self.prox).min(self.params.max_proximal),
        };
        log::trace!(
            "contact (saddle): inner step of length {alpha}, proximal {:.0e}",
            self.prox
        );
        std::mem::swap(&mut self.y, &mut self.y_trial);
        std::mem::swap(&mut self.r, &mut self.r_trial);
    }

    /// The trial iterate `(y, r) + α (Δy, Δr)`.
    fn trial<const D: usize>(&mut self, n: usize, alpha: f64) {
        self.y_trial.resize(n, 0.0);
        for i in 0..n {
            self.y_trial[i] = self.y[i] + alpha * self.rhs[i];
        }
        for j in 0..self.points.len() {
            let row0 = (self.n_nodes + j) * D;
            for c in 0..3 {
                self.r_trial[j][c] = if c >= D || (self.jac[j].open && alpha == 1.0) {
                    0.0
                } else {
                    self.r[j][c] + alpha * self.rhs[row0 + c]
                };
            }
        }
    }
}

/// `K_AA⁻¹` of node `a` (its diagonal block on the bodies' pattern).
fn diagonal_inverse<const D: usize>(sys: &BodiesSystem, a: usize) -> Option<SMatrix<f64, D, D>> {
    let off = sys.pattern.block_offset(a, a)?;
    let m = SMatrix::<f64, D, D>::from_fn(|i, j| sys.k[sys.pattern.position(off, i, a, j)]);
    m.try_inverse()
}
