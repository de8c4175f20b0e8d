//! The condensed path of exact and augmented-Lagrangian enforcement: the
//! contact subproblem of a Newton iterate as the frictional-contact problem
//! FC/II of the solver library, `u = W r + q` with the Delassus operator
//! `W = B K⁻¹ H` built from the iterate's factorization (see [`super`] for
//! the linearization).
//!
//! `W` is built column block by column block from the factorization Newton
//! already has (`K⁻¹ H`, then `B·`), and after the solve
//! `δx = K⁻¹(−R + H (r − r_old))`.
//!
//! * **Exact**: the problem is solved by the library (warm-started from
//!   `r_old`) to its tolerance, so every Newton iterate satisfies the law of
//!   its linearization, and Newton on `x` converges to the law itself.
//!   A stated `tangential_penalty` ε_T regularizes stick (see
//!   [`crate::contact::pair::Pair`]'s tangential compliance): `W` gets the
//!   compliance `1/(w j ε_T Δt)` on its tangential diagonal, which is the
//!   penalty law's stick `t_T = −ε_T Δt v_T` with the normal constraint and
//!   the cone exact.
//! * **Augmented Lagrangian**: one semismooth Newton step on the
//!   Alart–Curnier equations `Φ(r, u) = 0` (Alart & Curnier 1991; Acary et
//!   al. 2017 eq. 11; the library's [`NsnFunction::AlartCurnier`]) with the
//!   augmentation parameter `ρ_l = dim / tr W_ll` of each point:
//!   `(∂Φ/∂r + ∂Φ/∂u W) δr = −Φ`.
//!   Together with the Newton step on `x` this is the generalized Newton
//!   method on `(x, r)`: no outer augmentation loop. Where a point has
//!   switched between open and in contact within the step the semismooth
//!   step can cycle, and the iteration solves the subproblem fully as exact
//!   enforcement does (`solve_fully` of [`super::EnforceOptions`], set by
//!   Newton).
//!
//! Cost: one restricted solve per column of `W` (`D` per candidate point)
//! and a dense subproblem: cubic in the points; the saddle-point path
//! ([`super::saddle`]) is the one whose cost follows the contact area.

use super::{EnforceError, EnforceOptions, NewtonSolves, NewtonSystem, Subproblem, SubproblemInfo};
use crate::contact::enforce::DEFAULT_SOLVER;
use crate::contact::geometry::MAX_NODES;
use crate::contact::second_pass;
use crate::contact::set::ContactSet;
use crate::contact::slave::Role;
use crate::linalg::LinearSolveError;
use crate::model::Enforcement;
use crate::nonsmooth::global::NsnFunction;
use crate::nonsmooth::problem::{LocalProblem, ProblemError};
use crate::nonsmooth::{self, Control, SolveError};
use faer::sparse::{SparseColMat, Triplet};
use nalgebra::{DMatrix, DVector, SMatrix, SVector};
use std::time::Instant;

/// Tolerance of the library on the FCLIB error `‖F_nat(r)‖/‖q‖` of a
/// subproblem: well below the Newton tolerance, so that the subproblem's
/// error never limits Newton's convergence.
const SUBPROBLEM_TOL: f64 = 1e-12;
/// Library iterations allowed a two-pass subproblem before its second pass is
/// left out (`solve_exact`).
const TWO_PASS_MAX_ITER: usize = 100;
/// ... and stalled after this many without 1 % progress (the degenerate
/// 231-point subproblems of the 18,546-dof blocks took 100 iterations,
/// 0.8–0.9 s, at the start of every contact step).
const TWO_PASS_STALL: usize = 15;

/// A point enters the subproblem within this fraction of `h` of its master
/// (besides the pressed ones). A point outside that still penetrates at the
/// iterate violates the law, so Newton goes on and takes it in next time.
const CANDIDATE_GAP: f64 = 0.25;

/// A normal force below this fraction of the subproblem's largest is zero.
const NEGLIGIBLE: f64 = 1e-12;

/// Right-hand sides solved together when building `W` (fewer where the
/// dofs are many: the block holds `dofs × BLOCK` values, at most
/// `BLOCK_VALUES`). Wider blocks let the supernodal solve use matrix–matrix
/// kernels: on the fine blocks (9,990 dofs, 243 columns) 256 columns at a
/// time took 0.40 s against 0.58 s in blocks of 32.
const BLOCK: usize = 256;
const BLOCK_VALUES: usize = 1 << 25;

/// One point of the subproblem.
struct Candidate {
    pair: usize,
    point: usize,
    nodes: [usize; MAX_NODES],
    n: usize,
}

/// Whether point `k` of pair `p` takes part in the subproblem: pressed now
/// or at `t_n`, or within a face size of its master at the iterate.
fn is_candidate(set: &ContactSet, p: usize, k: usize) -> bool {
    let pair = &set.pairs[p];
    let point = &pair.points[k];
    if !pair.has_multipliers() || !point.on_master() || !point.acts() {
        return false;
    }
    pair.engaged(k) || point.lin.g1 < CANDIDATE_GAP * pair.surface.h
}

fn candidates(set: &ContactSet) -> Vec<Candidate> {
    let mut out = Vec::new();
    for (p, pair) in set.pairs.iter().enumerate() {
        for k in 0..pair.points.len() {
            if is_candidate(set, p, k) {
                let mut nodes = [0; MAX_NODES];
                let n = pair.element_nodes(k, &mut nodes);
                out.push(Candidate {
                    pair: p,
                    point: k,
                    nodes,
                    n,
                });
            }
        }
    }
    out
}

/// The columns of `H`, each as its `(dof, value)` entries (fixed dofs left out).
type HColumns = Vec<Vec<(usize, f64)>>;

/// `W = B K⁻¹ H` (dense, column-major) and the columns of `H`. `buf`
/// holds a block of `H`'s columns at full length; it is kept between
/// calls (allocated anew, its 38 MB on the 18,546-dof blocks were fresh
/// pages to fault in at every Newton iteration).
fn delassus<const D: usize>(
    set: &ContactSet,
    cands: &[Candidate],
    fixed: &[bool],
    solves: &mut dyn NewtonSolves,
    buf: &mut Vec<f64>,
) -> Result<(Vec<f64>, HColumns), LinearSolveError> {
    let n = fixed.len();
    let m = D * cands.len();
    let mut h = Vec::with_capacity(m);
    for c in cands {
        let lin = &set.pairs[c.pair].points[c.point].lin;
        for comp in 0..D {
            let mut col = Vec::with_capacity(c.n * D);
            for a in 0..c.n {
                for i in 0..D {
                    let dof = c.nodes[a] * D + i;
                    if !fixed[dof] {
                        col.push((dof, lin.h[comp][a * D + i]));
                    }
                }
            }
            h.push(col);
        }
    }
    // the dofs of the candidates' nodes: where H's columns live and all B reads
    let mut support: Vec<usize> = cands
        .iter()
        .flat_map(|c| {
            c.nodes[..c.n]
                .iter()
                .flat_map(|&a| (0..D).map(move |i| a * D + i))
        })
        .collect();
    support.sort_unstable();
    support.dedup();
    let mut w = vec![0.0; m * m];
    let block = BLOCK.min(BLOCK_VALUES / n.max(1)).max(1);
    buf.resize(buf.len().max(n * block.min(m)), 0.0);
    for start in (0..m).step_by(block) {
        let nb = block.min(m - start);
        let y = &mut buf[..n * nb];
        y.fill(0.0);
        for j in 0..nb {
            for &(dof, v) in &h[start + j] {
                y[j * n + dof] = v;
            }
        }
        solves.solve_restricted(y, nb, &support)?;
        for (ci, c) in cands.iter().enumerate() {
            let lin = &set.pairs[c.pair].points[c.point].lin;
            for comp in 0..D {
                let row = ci * D + comp;
                for j in 0..nb {
                    let mut s = 0.0;
                    for a in 0..c.n {
                        for i in 0..D {
                            s += lin.b[comp][a * D + i] * y[j * n + c.nodes[a] * D + i];
                        }
                    }
                    w[(start + j) * m + row] = s;
                }
            }
        }
    }
    Ok((w, h))
}

/// Solves the subproblem with the library solver `name`. Where a two-pass
/// contact makes it degenerate (a node of each surface on the other's node:
/// the second pass repeats the first pass's constraint in another frame,
/// and the solvers stall on the near-singular `W`), the second pass's points
/// (`second`) are left out and the first pass's subproblem is solved alone:
/// the first pass holds the surfaces apart there, and the second pass keeps
/// acting wherever its subproblem is well posed. Returns whether the second
/// pass was left out (the caller then leaves it out for the rest of the
/// step: its points would otherwise stay violated and Newton would go on).
/// `r0` is the start (`r` holds it on entry; the retry starts from it).
fn solve_exact<const D: usize>(
    problem: &LocalProblem,
    second: &[bool],
    name: &str,
    (r0, r): (&[f64], &mut [f64]),
    u: &mut [f64],
) -> Result<(nonsmooth::Info, bool), SolveError> {
    let control = Control::with_tol(SUBPROBLEM_TOL);
    let two_pass = second.iter().any(|&s| s);
    // A well-posed subproblem converges in a few library iterations (2–5
    // warm-started on the validation runs, up to 70 on the golf ball); a
    // degenerate two-pass one stalls for the whole stall window (880
    // iterations, 3.9 s on the fine blocks' first contact) before the
    // fallback below. Cap it when there is one, and call it stalled early.
    let first = Control {
        max_iter: two_pass.then_some(TWO_PASS_MAX_ITER),
        stall_window: two_pass.then_some(TWO_PASS_STALL),
        ..control.clone()
    };
    let err = match nonsmooth::solve(problem, r, u, name, &first) {
        Ok(i) => return Ok((i, false)),
        Err(e) if e.is_bad_input() || !two_pass => return Err(e),
        Err(e) => e,
    };
    log::debug!(
        "contact subproblem: {err}; solved again without the {} second-pass points",
        second.iter().filter(|&&s| s).count()
    );
    let info = solve_without::<D>(problem, second, r0, name, r, u)?;
    Ok((info, true))
}

/// Solves `problem` without the points `left` (their multipliers 0), from
/// the multipliers `r0`, to the subproblem tolerance.
fn solve_without<const D: usize>(
    problem: &LocalProblem,
    left: &[bool],
    r0: &[f64],
    name: &str,
    r: &mut [f64],
    u: &mut [f64],
) -> Result<nonsmooth::Info, SolveError> {
    let control = Control::with_tol(SUBPROBLEM_TOL);
    let keep: Vec<usize> = (0..left.len()).filter(|&c| !left[c]).collect();
    let idx: Vec<usize> = keep
        .iter()
        .flat_map(|&c| (0..D).map(move |i| c * D + i))
        .collect();
    let w = &problem.w;
    let mut trip = Vec::new();
    for (jj, &j) in idx.iter().enumerate() {
        let col = w.as_ref().col_range(j);
        let (rows, vals) = (w.row_idx(), w.val());
        for k in col {
            if let Some(ii) = idx.iter().position(|&i| i == rows[k]) {
                trip.push(Triplet::new(ii, jj, vals[k]));
            }
        }
    }
    let n = idx.len();
    let ws = SparseColMat::try_new_from_triplets(n, n, &trip)
        .map_err(|e| SolveError::from(ProblemError::Alloc(format!("{e:?}"))))?;
    let q: Vec<f64> = idx.iter().map(|&i| problem.q[i]).collect();
    let mu: Vec<f64> = keep.iter().map(|&c| problem.mu[c]).collect();
    let sub = LocalProblem::new(D, ws, q, mu)?;
    let mut rs: Vec<f64> = idx.iter().map(|&i| r0[i]).collect();
    let mut us = vec![0.0; n];
    let info = nonsmooth::solve(&sub, &mut rs, &mut us, name, &control)?;
    r.iter_mut().for_each(|v| *v = 0.0);
    for (k, &i) in idx.iter().enumerate() {
        r[i] = rs[k];
    }
    problem.velocity(r, u);
    Ok(info)
}

/// A subproblem that stalled with lifted second-pass points among its
/// candidates (solved in full, [`crate::contact::second_pass`]): each of them
/// that has not done so yet takes the place of the first-pass point it
/// repeats most ([`second_pass::release_lifted`]), and the subproblem is
/// solved again from `r_start` without those points (nor the droppable ones,
/// `second`). `None` where no first-pass point was released: the stall
/// stands and the step fails.
fn release_lifted<const D: usize>(
    set: &mut ContactSet,
    cands: &[Candidate],
    problem: &LocalProblem,
    second: &[bool],
    name: &str,
    (r_start, r): (&[f64], &mut [f64]),
    u: &mut [f64],
) -> Option<Result<(nonsmooth::Info, bool), SolveError>> {
    let released = second_pass::release_lifted(set, cands.iter().map(|c| (c.pair, c.point)));
    if released == 0 {
        return None;
    }
    let left: Vec<bool> = cands
        .iter()
        .zip(second)
        .map(|(c, &s)| s || set.pairs[c.pair].points[c.point].role == Role::Shadowed)
        .collect();
    log::debug!(
        "contact subproblem with lifted points stalled: solved again without the {released} \
         first-pass point(s) they repeat"
    );
    r.copy_from_slice(r_start);
    let info = solve_without::<D>(problem, &left, r_start, name, r, u);
    Some(info.map(|i| (i, second.iter().any(|&s| s))))
}

/// One Alart–Curnier semismooth Newton step from `r` on `u = W r + q`.
fn alart_curnier_step<const D: usize>(
    w: &[f64],
    q: &[f64],
    mu: &[f64],
    rho: &[f64],
    r: &mut [f64],
) -> Result<(), EnforceError> {
    let m = q.len();
    let mut u = q.to_vec();
    for j in 0..m {
        for i in 0..m {
            u[i] += w[j * m + i] * r[j];
        }
    }
    let wm = DMatrix::from_column_slice(m, m, w);
    let mut jac = DMatrix::<f64>::zeros(m, m);
    let mut rhs = DVector::<f64>::zeros(m);
    for c in 0..m / D {
        let rc = SVector::<f64, D>::from_column_slice(&r[c * D..c * D + D]);
        let uc = SVector::<f64, D>::from_column_slice(&u[c * D..c * D + D]);
        let (phi, a, b): (_, SMatrix<f64, D, D>, SMatrix<f64, D, D>) =
            NsnFunction::AlartCurnier.eval::<D>(&rc, &uc, mu[c], rho[c]);
        let aw = a * wm.rows(c * D, D);
        for i in 0..D {
            rhs[c * D + i] = -phi[i];
            for j in 0..m {
                jac[(c * D + i, j)] = aw[(i, j)];
            }
            for j in 0..D {
                jac[(c * D + i, c * D + j)] += b[(i, j)];
            }
        }
    }
    let delta = jac.lu().solve(&rhs).ok_or(EnforceError::Singular(m / D))?;
    for i in 0..m {
        r[i] += delta[i];
    }
    Ok(())
}

/// The reduced problem of the candidates: `W` (dense, column-major, with
/// the tangential compliance on its diagonal), `q`, `μ`, the Alart–Curnier
/// parameters `ρ`, and the iterate's velocities `u` and multipliers `r_old`.
struct Reduced {
    w: Vec<f64>,
    h: HColumns,
    q: Vec<f64>,
    mu: Vec<f64>,
    rho: Vec<f64>,
    u: Vec<f64>,
    r_old: Vec<f64>,
}

/// `q = u − B z − W r_old` (`z = K⁻¹ R` in `z`), `ρ_l = D / tr W_ll` and
/// the compliance on `W`'s tangential diagonal.
fn reduce<const D: usize>(
    set: &ContactSet,
    cands: &[Candidate],
    (w, h): (Vec<f64>, HColumns),
    z: &[f64],
    dt: f64,
) -> Reduced {
    let m = D * cands.len();
    let mut red = Reduced {
        w,
        h,
        q: vec![0.0; m],
        mu: Vec::with_capacity(cands.len()),
        rho: Vec::with_capacity(cands.len()),
        u: vec![0.0; m],
        r_old: vec![0.0; m],
    };
    for (ci, c) in cands.iter().enumerate() {
        let pair = &set.pairs[c.pair];
        let point = &pair.points[c.point];
        red.mu.push(pair.spec.friction);
        // ρ scaled by the point's Delassus block, as the library's Newton
        // solvers do (Acary et al. 2017 §5): ρ = w j ε_N Δt from the penalty
        // was 10–100 times larger, and the iteration then cycled between
        // stick and slip on the friction blocks' persistent steps
        let tr: f64 = (0..D).map(|i| red.w[(ci * D + i) * m + ci * D + i]).sum();
        red.rho.push(D as f64 / tr);
        for comp in 0..D {
            let mut bz = 0.0;
            for a in 0..c.n {
                for i in 0..D {
                    bz += point.lin.b[comp][a * D + i] * z[c.nodes[a] * D + i];
                }
            }
            red.u[ci * D + comp] = point.lin.u[comp];
            red.r_old[ci * D + comp] = point.r[comp];
            red.q[ci * D + comp] = point.lin.u[comp] - bz;
        }
    }
    for j in 0..m {
        for i in 0..m {
            red.q[i] -= red.w[j * m + i] * red.r_old[j];
        }
    }
    // A stated tangential regularization is a compliance on the tangential
    // diagonal (Pair::tangential_compliance): the law sees u_T + C r_T with
    // the whole r, so it joins W after q (which holds W r_old) is formed.
    for (ci, c) in cands.iter().enumerate() {
        let comp = set.pairs[c.pair].tangential_compliance(c.point, dt);
        for i in 1..D {
            let j = ci * D + i;
            red.w[j * m + j] += comp;
        }
    }
    red
}

/// Solves the reduced problem for `r` (exact: the library; augmented
/// Lagrangian: one Alart–Curnier step unless `solve_fully`). A two-pass
/// subproblem solved without its second pass shadows those points for the
/// rest of the step; one that stalls with lifted points is solved again
/// without the first-pass points they repeat (`release_lifted`).
fn solve_reduced<const D: usize>(
    set: &mut ContactSet,
    cands: &[Candidate],
    red: &Reduced,
    solve_fully: bool,
    r: &mut [f64],
) -> Result<SubproblemInfo, EnforceError> {
    let m = red.q.len();
    let trip: Vec<Triplet<usize, usize, f64>> = (0..m)
        .flat_map(|j| (0..m).map(move |i| (i, j)))
        .filter(|&(i, j)| red.w[j * m + i] != 0.0)
        .map(|(i, j)| Triplet::new(i, j, red.w[j * m + i]))
        .collect();
    let wm = SparseColMat::try_new_from_triplets(m, m, &trip)
        .map_err(|e| ProblemError::Alloc(format!("{e:?}")))?;
    let problem = LocalProblem::new(D, wm, red.q.clone(), red.mu.clone())?;
    let mut info = SubproblemInfo {
        contacts: cands.len(),
        iterations: 1,
        ..Default::default()
    };
    let mut u = vec![0.0; m];
    let spec = &set.pairs[cands[0].pair].spec;
    if spec.enforcement == Enforcement::Exact || solve_fully {
        let name = spec
            .solver
            .clone()
            .unwrap_or_else(|| DEFAULT_SOLVER.to_string());
        let second: Vec<bool> = cands
            .iter()
            .map(|c| set.pairs[c.pair].droppable(c.point))
            .collect();
        let r_start = r.to_vec();
        let (i, dropped) =
            match solve_exact::<D>(&problem, &second, &name, (&r_start, r), &mut u) {
                Err(e) if !e.is_bad_input() => {
                    release_lifted::<D>(set, cands, &problem, &second, &name, (&r_start, r), &mut u)
                        .ok_or(e)
                        .and_then(|res| res)
                }
                res => res,
            }
            .map_err(|source| EnforceError::Solver {
                contacts: cands.len(),
                source,
            })?;
        if dropped {
            for (c, _) in cands.iter().zip(&second).filter(|(_, &s)| s) {
                set.pairs[c.pair].points[c.point].role = Role::Shadowed;
            }
        }
        info.iterations = i.iterations;
        info.error = i.error;
    } else {
        alart_curnier_step::<D>(&red.w, &red.q, &red.mu, &red.rho, r)?;
        problem.velocity(r, &mut u);
        info.error = crate::nonsmooth::error::fclib_error(&problem, r, &u);
    }
    // A normal force at the round-off of the largest one is no contact: the
    // solvers return such residues (1e-23 beside forces of 1e1 on the ring)
    // for points that separate, and a pressed point would have to meet its
    // constraint.
    let largest = (0..m / D).map(|c| r[c * D]).fold(0.0f64, f64::max);
    for c in 0..m / D {
        if r[c * D] <= NEGLIGIBLE * largest {
            r[c * D..c * D + D].iter_mut().for_each(|v| *v = 0.0);
        }
    }
    Ok(info)
}

/// The condensed correction of the current Newton iterate (module docs):
/// the Newton correction into `sys.dx`, the multipliers of the pairs
/// updated.
pub(super) fn correct<const D: usize>(
    set: &mut ContactSet,
    sys: NewtonSystem,
    opts: &mut EnforceOptions,
) -> Result<SubproblemInfo, EnforceError> {
    let start = Instant::now();
    let NewtonSystem {
        solves,
        residual,
        fixed,
        dx,
        scratch,
    } = sys;
    let cands = candidates(set);
    // W first: where it needs new factors they serve z as well
    let wh = if cands.is_empty() {
        Default::default()
    } else {
        delassus::<D>(set, &cands, fixed, solves, scratch)?
    };
    // z = K⁻¹ R (in dx)
    dx.copy_from_slice(residual);
    solves.solve(dx, 1)?;
    if cands.is_empty() {
        dx.iter_mut().for_each(|v| *v = -*v);
        return Ok(SubproblemInfo::default());
    }
    let red = reduce::<D>(set, &cands, wh, dx, opts.dt);
    if let Some(f) = opts.export.as_mut() {
        f(&Subproblem {
            dim: D,
            w: &red.w,
            q: &red.q,
            mu: &red.mu,
            h: &red.h,
            u: &red.u,
            r_old: &red.r_old,
            residual,
        });
    }
    let mut r = red.r_old.clone();
    let mut info = solve_reduced::<D>(set, &cands, &red, opts.solve_fully, &mut r)?;
    // δx = K⁻¹(−R + H (r − r_old)) = −z + K⁻¹ H δr
    let mut rhs = vec![0.0; dx.len()];
    for (col, hc) in red.h.iter().enumerate() {
        let dr = r[col] - red.r_old[col];
        for &(dof, v) in hc {
            rhs[dof] += v * dr;
        }
    }
    solves.solve(&mut rhs, 1)?;
    for i in 0..dx.len() {
        dx[i] = rhs[i] - dx[i];
    }
    // points outside the subproblem carry no force
    for pair in set.pairs.iter_mut().filter(|p| p.has_multipliers()) {
        pair.points.iter_mut().for_each(|s| s.r = [0.0; 3]);
    }
    for (ci, c) in cands.iter().enumerate() {
        let point = &mut set.pairs[c.pair].points[c.point];
        point.r[..D].copy_from_slice(&r[ci * D..ci * D + D]);
    }
    info.seconds = start.elapsed().as_secs_f64();
    Ok(info)
}
