//! `hybrid`: NSGS-AC while it is predicted to converge soon, and
//! semismooth Newton (natural map, line search) when it is not (after Acary, Brémond
//! & Dubois 2017, "NSN-AC-NLS-HYBRID": NSN preconditioned by NSGS-AC sweeps).
//!
//! NSGS-AC ([`super::nsgs_ac`]) runs in chunks of [`HybridParams::chunk`] sweeps.
//! After each chunk the observed rate `ρ = (e_k / e_{k−chunk})^{1/chunk}` predicts the
//! sweeps still needed, `ln(tol/e)/ln ρ`. While that is below
//! [`HybridParams::switch_sweeps`] NSGS goes on — on the rigid FCLIB samples NSGS-AC is
//! then the fastest method, as Siconos's measurements also find. Otherwise (slow or
//! stalled NSGS, the rank-deficient stacks where NSGS stalls near 1e-5) up to
//! [`HybridParams::newton_steps`] Newton steps start from the NSGS iterate. A Newton
//! attempt that fails (stalls, singular Jacobian, step cap) returns to NSGS from the
//! better of the two iterates with the switch threshold doubled, so neither method can
//! make the hybrid much worse than the other alone. `Info::iterations` counts sweeps
//! plus Newton steps, `Info::newton_steps` the latter.

use std::time::Instant;

use super::functions::NsnFunction;
use super::nsgs_ac::{self, NsgsAcParams};
use super::nsn::{self, NsnParams};
use super::stop::{Outcome, Status, Watch};
use super::{check_sizes, sanitize, Control, Entry, Info, SolveError, Solver};
use crate::nonsmooth::error::fclib_error;
use crate::nonsmooth::problem::LocalProblem;

pub const ENTRY: Entry = Entry {
    name: "hybrid",
    description: "NSGS-AC while it converges fast, else semismooth Newton on the natural map with line search (after Acary et al. 2017, NSN-AC-NLS-HYBRID)",
    make: || Box::new(Hybrid::default()),
};

/// Parameters of the hybrid.
#[derive(Debug, Clone, PartialEq)]
pub struct HybridParams {
    /// Sweeps between two rate estimates. Default 25.
    pub chunk: usize,
    /// Switch to Newton when NSGS is predicted to need more sweeps than this.
    /// Default 5000: LMGC PerioBox (866 sweeps) stays with NSGS, where it is fastest;
    /// on Capsules-i125 the NSGS error sits near 1.5e-6 from sweep 400 to 1200 (then
    /// drops), the prediction exceeds 5000 and Newton takes over (0.117 s CPU, against
    /// 0.078 s for NSGS alone and 0.084 s for Newton alone); on `local_problem_test`
    /// NSGS stalls near 7e-6 and only Newton converges.
    pub switch_sweeps: f64,
    /// Newton steps per attempt. Default 1000 (on the rigid samples Newton converges
    /// after long non-monotone phases; shorter attempts cost more in total).
    pub newton_steps: usize,
    /// The Newton phase. Default: natural map with line search (3–8× fewer steps
    /// than Alart–Curnier after the same warm start on the FCLIB samples).
    pub newton: NsnParams,
    /// The NSGS phase.
    pub nsgs: NsgsAcParams,
    /// Cap on sweeps plus Newton steps when the [`Control`] gives none. Default 100 000.
    pub max_iter: usize,
}

impl Default for HybridParams {
    fn default() -> Self {
        HybridParams {
            chunk: 25,
            switch_sweeps: 5000.0,
            newton_steps: 1000,
            newton: NsnParams {
                function: NsnFunction::NaturalMap,
                line_search: true,
                ..NsnParams::default()
            },
            nsgs: NsgsAcParams::default(),
            max_iter: 100_000,
        }
    }
}

/// The hybrid solver (module docs).
#[derive(Debug, Clone, Default)]
pub struct Hybrid {
    pub params: HybridParams,
}

impl Solver for Hybrid {
    fn solve(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        control.validate()?;
        check_sizes(problem, r, u);
        sanitize(r);
        let start = Instant::now();
        let p = &self.params;
        let cap = control.max_iter.unwrap_or(p.max_iter);
        let mut total = 0;
        let mut newton_steps = 0;
        let mut switch = p.switch_sweeps;
        let mut watch = Watch::new(p.nsgs.stall_window);
        let mut prev: Option<f64> = None;
        let mut best_round = f64::INFINITY;
        let mut round_start = 0;
        loop {
            let end = (total + p.chunk.max(1)).min(cap);
            let out = nsgs_ac::sweeps(problem, &p.nsgs, r, u, control, end, total, &mut watch);
            total = out.iterations;
            match out.status {
                Status::Converged | Status::Timeout => return out.finish(start, newton_steps),
                _ if total >= cap => return capped(out).finish(start, newton_steps),
                Status::Cap if !slow(prev, out.error, p.chunk, control.tol, switch) => {
                    prev = Some(out.error);
                    continue;
                }
                _ => {}
            }
            // NSGS is slow or stalled: a Newton attempt from its iterate.
            let (r_gs, u_gs, e_gs) = (r.to_vec(), u.to_vec(), out.error);
            let steps = p.newton_steps.min(cap - total);
            let mut nw = Watch::new(p.newton.stall_window);
            let res = nsn::newton(
                problem,
                &p.newton,
                r,
                u,
                control,
                total + steps,
                total,
                &mut nw,
            );
            let nt = match res {
                Ok(o) => o,
                Err(SolveError::LinearSolver { iterations, .. }) => Outcome {
                    status: Status::Stalled { window: 0 },
                    error: f64::INFINITY,
                    iterations: total + iterations,
                },
                Err(e) => return Err(e),
            };
            newton_steps += nt.iterations - total;
            total = nt.iterations;
            match nt.status {
                Status::Converged | Status::Timeout => return nt.finish(start, newton_steps),
                _ => {}
            }
            if !(nt.error < e_gs) {
                r.copy_from_slice(&r_gs);
                u.copy_from_slice(&u_gs);
            }
            if total >= cap {
                let error = fclib_error(problem, r, u);
                return Err(SolveError::NoConvergence {
                    error,
                    iterations: total,
                });
            }
            // A whole round (NSGS then Newton) without progress: stalled.
            let e = nt.error.min(e_gs);
            if !(e < 0.99 * best_round) {
                return Outcome {
                    status: Status::Stalled {
                        window: total - round_start,
                    },
                    error: fclib_error(problem, r, u),
                    iterations: total,
                }
                .finish(start, newton_steps);
            }
            best_round = e;
            round_start = total;
            switch *= 2.0;
            prev = None;
            watch = Watch::new(p.nsgs.stall_window);
        }
    }
}

/// An NSGS outcome at the overall cap is a cap, whatever the chunk said.
fn capped(out: Outcome) -> Outcome {
    match out.status {
        Status::Converged | Status::Timeout => out,
        _ => Outcome {
            status: Status::Cap,
            ..out
        },
    }
}

/// Whether NSGS is predicted to need more than `switch` sweeps from error `e` (the
/// error `chunk` sweeps earlier was `prev`).
fn slow(prev: Option<f64>, e: f64, chunk: usize, tol: f64, switch: f64) -> bool {
    let Some(e0) = prev else { return false };
    if !(e < e0) || e <= 0.0 {
        return true;
    }
    let rate = (e / e0).powf(1.0 / chunk.max(1) as f64);
    (tol / e).ln() / rate.ln() > switch
}
