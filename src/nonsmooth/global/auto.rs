//! `auto`, the default solver: a method picked by the problem, and the other
//! families in turn when the first stalls, within a time budget (after the
//! per-problem rankings of Acary, Brémond & Huber 2018, "On solving contact problems
//! with Coulomb friction: formulations and numerical comparisons": no single method
//! wins on every family, NSGS on large sparse rigid sets, semismooth Newton on small
//! coupled ones).
//!
//! The first choice, from the size of the problem and the density of `W`
//! ([`AutoParams`]):
//! * a few contacts: NSGS-AC ([`super::nsgs_ac`]), a handful of sweeps of a few
//!   microseconds each;
//! * a dense `W` (every contact coupled with many others: a rigid object resting
//!   on many contacts, a finite-element Delassus operator): NSGS-AC for
//!   [`AutoParams::nsgs_probe`] sweeps from the caller's guess (a warm-started
//!   finite-element step converges in 4–5, where one Newton step costs 100–200
//!   sweeps), then semismooth Newton on the
//!   natural map with line search ([`super::nsn`]) on a short leash,
//!   [`AutoParams::newton_leash`] steps (the OneObject problems converge in 6–33
//!   steps where NSGS's error rises and falls around 1e-3), then NSGS-AC for at most
//!   [`AutoParams::nsgs_leash`] sweeps (LMGC PerioBox: 866 sweeps, where Newton
//!   stalls near 2e-5), then Newton without the leash (BoxesStack1: 233 steps), then
//!   the hybrid;
//! * otherwise (large sparse sets): NSGS-AC for at most [`AutoParams::sparse_probe`]
//!   sweeps (it solves every Capsules, KaplasTower and Box_Stacks problem within
//!   them, fastest or within 1.3× of the fastest of ours), then semismooth Newton on
//!   Alart–Curnier with the full step ([`AutoParams::full_newton`], on a leash of
//!   [`AutoParams::full_newton_leash`] steps and a short stall window: on a pile of
//!   spheres NSGS needs some 60,000 sweeps where the full Newton step converges in
//!   about 30, and the Armijo search of the line-search variants stalls), then NSGS-AC
//!   without a cap, then Newton with line search, then the hybrid.
//!
//! When a stage stops without converging (stall, cap, singular Jacobian), the
//! next one starts from the caller's guess — except an NSGS stage, which resumes
//! from where the previous NSGS stage stopped (its sweeps are not lost) — until
//! every family has run or the budget is spent. The answer returned is the converged one, or on failure the
//! iterate of lowest error. `Info::iterations` counts sweeps and Newton steps of
//! every stage.

use std::time::{Duration, Instant};

use super::hybrid::{Hybrid, HybridParams};
use super::nsgs_ac::{NsgsAc, NsgsAcParams};
use super::nsn::{Nsn, NsnParams};
use super::{check_sizes, sanitize, Control, Entry, Info, NsnFunction, SolveError, Solver};
use crate::nonsmooth::problem::LocalProblem;

pub const ENTRY: Entry = Entry {
    name: "auto",
    description: "the default: NSGS-AC or semismooth Newton picked by size and density of W, then the other families (and the hybrid) when the first stalls, within a time budget (after Acary, Bremond & Huber 2018)",
    make: || Box::new(Auto::default()),
};

/// Parameters of `auto`.
#[derive(Debug, Clone, PartialEq)]
pub struct AutoParams {
    /// At most this many contacts: NSGS-AC first. Default 8 (the Rover problems, 1–5
    /// contacts, converge in 1–19 sweeps).
    pub tiny_contacts: usize,
    /// `W` is dense when its stored entries are at least this share of `n²`.
    /// Default 0.15: the OneObject, BoxesStack1 and LMGC PerioBox problems hold
    /// 22–33 %, the Capsules and KaplasTower ones 1.6–4 %.
    pub dense_share: f64,
    /// Newton steps of the first stage on a dense `W`. Default 40: the OneObject
    /// problems take 6–33; on PerioBox, where Newton does not converge, the leash costs
    /// about as much as the NSGS solve that follows.
    pub newton_leash: usize,
    /// Sweeps of the first NSGS-AC stage on a dense `W`. Default 25.
    pub nsgs_probe: usize,
    /// Sweeps of the NSGS-AC stage on a dense `W`. Default 3000: PerioBox takes 866;
    /// on BoxesStack1 and `local_problem_test` NSGS's error falls by 1 % every few
    /// hundred sweeps without ever converging.
    pub nsgs_leash: usize,
    /// Sweeps of the first NSGS-AC stage on a sparse `W`. Default 5000: the Capsules
    /// problems take 2,300–4,600 sweeps, KaplasTower 1,056, Box_Stacks 32; a pile of
    /// spheres some 60,000 (there the full Newton step converges in about 30).
    pub sparse_probe: usize,
    /// Steps of the full-step Newton stage on a sparse `W`. Default 200.
    pub full_newton_leash: usize,
    /// The full-step Newton stage: Alart–Curnier, no line search, stalled when the
    /// error has not dropped by 1 % in 50 steps (on the spheres pile the error does not
    /// drop below its start for the first 10–20 steps, then converges by step 32; a
    /// diverging full step is given up after 50 steps, some 30 ms on 500 contacts).
    pub full_newton: NsnParams,
    /// Wall-clock budget of the whole solve when the [`Control`] has no deadline.
    /// Default 300 s: a fallback never runs unbounded.
    pub budget: Duration,
    /// The NSGS-AC stage.
    pub nsgs: NsgsAcParams,
    /// The Newton stage: natural map with line search.
    pub newton: NsnParams,
    /// The hybrid stage.
    pub hybrid: HybridParams,
}

impl Default for AutoParams {
    fn default() -> Self {
        AutoParams {
            tiny_contacts: 8,
            dense_share: 0.15,
            newton_leash: 40,
            nsgs_probe: 25,
            nsgs_leash: 3000,
            sparse_probe: 5000,
            full_newton_leash: 200,
            full_newton: NsnParams {
                function: NsnFunction::AlartCurnier,
                line_search: false,
                stall_window: 50,
                ..NsnParams::default()
            },
            budget: Duration::from_secs(300),
            nsgs: NsgsAcParams::default(),
            newton: NsnParams {
                function: NsnFunction::NaturalMap,
                line_search: true,
                ..NsnParams::default()
            },
            hybrid: HybridParams::default(),
        }
    }
}

/// The families `auto` runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Nsgs,
    /// Newton with line search ([`AutoParams::newton`]).
    Newton,
    /// Newton with the full step ([`AutoParams::full_newton`]).
    FullNewton,
    Hybrid,
}

/// The automatic solver (module docs).
#[derive(Debug, Clone, Default)]
pub struct Auto {
    pub params: AutoParams,
}

/// One stage of the plan: a family and, optionally, its own iteration cap.
pub type Stage = (Family, Option<usize>);

impl Auto {
    /// The stages tried, in order, on `problem` (module docs).
    pub fn plan(&self, problem: &LocalProblem) -> Vec<Stage> {
        let p = &self.params;
        let n = problem.size() as f64;
        if problem.n_contacts <= p.tiny_contacts {
            vec![
                (Family::Nsgs, None),
                (Family::Newton, None),
                (Family::Hybrid, None),
            ]
        } else if problem.w.val().len() as f64 >= p.dense_share * n * n {
            vec![
                (Family::Nsgs, Some(p.nsgs_probe)),
                (Family::Newton, Some(p.newton_leash)),
                (Family::Nsgs, Some(p.nsgs_leash)),
                (Family::Newton, None),
                (Family::Hybrid, None),
            ]
        } else {
            vec![
                (Family::Nsgs, Some(p.sparse_probe)),
                (Family::FullNewton, Some(p.full_newton_leash)),
                (Family::Nsgs, None),
                (Family::Newton, None),
                (Family::Hybrid, None),
            ]
        }
    }

    fn run(
        &self,
        (family, cap): Stage,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        let p = &self.params;
        let capped;
        let control = match cap {
            Some(c) => {
                capped = Control {
                    max_iter: Some(control.max_iter.map_or(c, |m| m.min(c))),
                    ..control.clone()
                };
                &capped
            }
            None => control,
        };
        match family {
            Family::Nsgs => NsgsAc {
                params: p.nsgs.clone(),
            }
            .solve(problem, r, u, control),
            Family::Newton => Nsn {
                params: p.newton.clone(),
            }
            .solve(problem, r, u, control),
            Family::FullNewton => Nsn {
                params: p.full_newton.clone(),
            }
            .solve(problem, r, u, control),
            Family::Hybrid => Hybrid {
                params: p.hybrid.clone(),
            }
            .solve(problem, r, u, control),
        }
    }
}

impl Solver for Auto {
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
        let own = start + self.params.budget;
        let control = Control {
            deadline: Some(control.deadline.map_or(own, |d| d.min(own))),
            ..control.clone()
        };
        let r0 = r.to_vec();
        let mut done = 0;
        let mut best: Option<(SolveError, Vec<f64>)> = None;
        // Where the last NSGS stage stopped: the next NSGS stage resumes there.
        let mut nsgs_at: Option<Vec<f64>> = None;
        for (k, stage) in self.plan(problem).into_iter().enumerate() {
            match (&nsgs_at, stage.0) {
                (Some(at), Family::Nsgs) => r.copy_from_slice(at),
                _ if k > 0 => r.copy_from_slice(&r0),
                _ => {}
            }
            let result = self.run(stage, problem, r, u, &control);
            if stage.0 == Family::Nsgs && result.is_err() {
                nsgs_at = Some(r.to_vec());
            }
            match result {
                Ok(info) => return Ok(finish(info, done, start)),
                Err(e) if e.is_bad_input() => return Err(e),
                Err(e) => {
                    let (error, it) = e.last().unwrap_or((f64::INFINITY, 0));
                    done += it;
                    let better = best
                        .as_ref()
                        .is_none_or(|(b, _)| error < b.last().map_or(f64::INFINITY, |x| x.0));
                    let timeout = matches!(e, SolveError::Timeout { .. });
                    if better {
                        best = Some((e, r.to_vec()));
                    }
                    if timeout {
                        break;
                    }
                }
            }
        }
        let (e, r_best) = best.expect("at least one stage ran");
        r.copy_from_slice(&r_best);
        problem.velocity(r, u);
        Err(with_iterations(e, done))
    }
}

fn finish(mut info: Info, before: usize, start: Instant) -> Info {
    info.iterations += before;
    info.seconds = start.elapsed().as_secs_f64();
    info
}

/// The failure of the best stage, with the iterations of every stage.
fn with_iterations(e: SolveError, total: usize) -> SolveError {
    match e {
        SolveError::NoConvergence { error, .. } => SolveError::NoConvergence {
            error,
            iterations: total,
        },
        SolveError::Stalled { error, window, .. } => SolveError::Stalled {
            error,
            iterations: total,
            window,
        },
        SolveError::Timeout { error, .. } => SolveError::Timeout {
            error,
            iterations: total,
        },
        SolveError::LinearSolver { reason, error, .. } => SolveError::LinearSolver {
            reason,
            error,
            iterations: total,
        },
        other => other,
    }
}
