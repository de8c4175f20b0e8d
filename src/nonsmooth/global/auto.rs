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
//!   on many contacts, a finite-element Delassus operator): a short NSGS-AC probe
//!   decides — if its error falls at a rate that reaches the tolerance within
//!   [`AutoParams::probe_switch`] sweeps, NSGS-AC goes on from the probe; otherwise
//!   semismooth Newton on the natural map with line search ([`super::nsn`]) starts
//!   from the caller's guess (on the OneObject problems NSGS's error rises and
//!   falls around 1e-3 while Newton converges in 6–33 steps);
//! * otherwise (large sparse sets): the NSGS/Newton [`super::hybrid`].
//!
//! When a method stops without converging (stall, cap, singular Jacobian), the
//! next family starts from the caller's guess, until every family has run or the
//! budget is spent. The answer returned is the converged one, or on failure the
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
    description: "the default: NSGS-AC, semismooth Newton or the hybrid picked by size and density of W, then the other families when the first stalls, within a time budget (after Acary, Bremond & Huber 2018)",
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
    /// Sweeps of the NSGS-AC probe on a dense `W` (the rate is measured over its
    /// second half). Default 50.
    pub probe_sweeps: usize,
    /// NSGS goes on after the probe when the measured rate reaches the tolerance
    /// within this many more sweeps. Default 1500 (PerioBox: about 850 predicted, 866
    /// taken).
    pub probe_switch: f64,
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
            probe_sweeps: 50,
            probe_switch: 1500.0,
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
    Newton,
    Hybrid,
}

/// The automatic solver (module docs).
#[derive(Debug, Clone, Default)]
pub struct Auto {
    pub params: AutoParams,
}

impl Auto {
    /// The order in which the families are tried on `problem` when the first choice
    /// is not decided by a probe (`None` for a dense `W`: see the module docs).
    pub fn plan(&self, problem: &LocalProblem) -> Option<[Family; 3]> {
        let p = &self.params;
        let n = problem.size() as f64;
        if problem.n_contacts <= p.tiny_contacts {
            Some([Family::Nsgs, Family::Newton, Family::Hybrid])
        } else if problem.w.val().len() as f64 >= p.dense_share * n * n {
            None
        } else {
            Some([Family::Hybrid, Family::Nsgs, Family::Newton])
        }
    }

    fn run(
        &self,
        family: Family,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, SolveError> {
        let p = &self.params;
        match family {
            Family::Nsgs => NsgsAc { params: p.nsgs.clone() }.solve(problem, r, u, control),
            Family::Newton => Nsn { params: p.newton.clone() }.solve(problem, r, u, control),
            Family::Hybrid => Hybrid { params: p.hybrid.clone() }.solve(problem, r, u, control),
        }
    }

    /// The NSGS-AC probe on a dense `W`: the family order, and the probe's sweeps
    /// (`r`, `u` hold its iterate; a converged probe returns `Ok`).
    fn probe(
        &self,
        problem: &LocalProblem,
        r: &mut [f64],
        u: &mut [f64],
        control: &Control,
    ) -> Result<Info, ([Family; 3], usize)> {
        let half = (self.params.probe_sweeps / 2).max(1);
        let mut errors = [f64::INFINITY; 2];
        let mut sweeps = 0;
        for e in errors.iter_mut() {
            let c = Control {
                max_iter: Some(half),
                ..control.clone()
            };
            let nsgs = NsgsAc {
                params: self.params.nsgs.clone(),
            };
            match nsgs.solve(problem, r, u, &c) {
                Ok(info) => return Ok(info),
                Err(err) => {
                    let (error, it) = err.last().unwrap_or((f64::INFINITY, half));
                    *e = error;
                    sweeps += it;
                }
            }
        }
        let [e0, e1] = errors;
        let fast = e1 < e0 && e1 > 0.0 && {
            let rate = (e1 / e0).powf(1.0 / half as f64);
            (control.tol / e1).ln() / rate.ln() <= self.params.probe_switch
        };
        Err(if fast {
            ([Family::Nsgs, Family::Newton, Family::Hybrid], sweeps)
        } else {
            ([Family::Newton, Family::Nsgs, Family::Hybrid], sweeps)
        })
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
        let (plan, mut from_probe) = match self.plan(problem) {
            Some(plan) => (plan, false),
            None => match self.probe(problem, r, u, &control) {
                Ok(info) => return Ok(finish(info, 0, start)),
                Err((plan, sweeps)) => {
                    done = sweeps;
                    (plan, plan[0] == Family::Nsgs)
                }
            },
        };
        let mut best: Option<(SolveError, Vec<f64>)> = None;
        for family in plan {
            if !from_probe {
                r.copy_from_slice(&r0);
            }
            from_probe = false;
            match self.run(family, problem, r, u, &control) {
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
