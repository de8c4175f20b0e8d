//! What the run conserves, measured honestly, for every model: the energy
//! ledger `E_n + D_n − W_n − E_0` (frictional work `D`, external work `W`
//! of loads, supports, prescribed motion and moving rigid masters; gravity
//! is in `E` as a potential) and the momentum ledgers `L_n − L_0 − I_n`,
//! `J_n − J_0 − K_n` (external impulses `I`, `K`, [`super::ledger`]), each
//! per step and cumulated, against scales that do not depend on where a
//! potential or the origin is. A free body is the special case `W = I =
//! K = 0`. Nodes found inside another body or behind a rigid surface
//! ([`super::intrusion`]) also make the verdict fail.

use super::intrusion::Intrusion;
use super::ledger::StepLedger;
use crate::dynamics::{Measures, StepReport};
use crate::model::{Integrator, MasterSpec, Model};
use serde::{Deserialize, Serialize};

/// Largest relative ledger closure the verdict accepts.
pub const LEDGER_TOLERANCE: f64 = 1e-8;

/// Exit code of a run that completed with a failed verdict
/// ([`Balance::failed`]): 1 is a run that stopped, 2 bad input.
pub const VERDICT_EXIT: u8 = 3;

/// Running conservation measures (part of a checkpoint).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    pub initial: Measures,
    pub last: Measures,
    /// Cumulative frictional work `Σ Δt w j D`, velocity-update defect and
    /// external work (loads, supports, prescribed motion, moving rigid
    /// masters, velocity jumps; not gravity).
    pub dissipation: f64,
    pub defect: f64,
    pub external_work: f64,
    /// Cumulative external impulse and angular impulse about the origin.
    pub impulse: [f64; 3],
    pub angular_impulse: [f64; 3],
    /// Energy scale `max_n max(K_n + Π_n, |W_n|, D_n)`.
    pub scale: f64,
    /// `max_n |E_n + D_n − W_n − E_0|` and the largest single step's
    /// `|E_{n+1} − E_n + ΔD − ΔW|`.
    pub max_balance: f64,
    pub max_step_balance: f64,
    /// Momentum scales `max_n max(|L_n|, Σ_A |(Mv)_A|, step impulse size)`
    /// and the same for `J`.
    pub linear_scale: f64,
    pub angular_scale: f64,
    /// `max_n |L_n − L_0 − I_n|` and the largest step's `|ΔL − ΔI|`; the
    /// same for `J`.
    pub max_linear: f64,
    pub max_angular: f64,
    pub max_step_linear: f64,
    pub max_step_angular: f64,
    /// Total external force of the last step (Newmark's impulse).
    pub last_force: [f64; 3],
    pub max_penetration: f64,
    pub newton_iterations: usize,
    /// What acts on the model from outside (empty for free bodies).
    pub external: Vec<String>,
    /// Whether the method promises an exact energy balance for this model
    /// (energy-momentum integrator, the velocity update on every contact pair).
    pub energy_exact: bool,
    /// Whether it promises an exact angular momentum ledger (not Newmark).
    pub angular_exact: bool,
    /// Whether the momentum ledgers are kept: not under Newmark with a
    /// prescribed motion, whose velocity jump at the driven dofs is not
    /// measured (`dynamics::drive`), so that impulse is missing from them.
    pub momentum_kept: bool,
    /// Nodes inside another body or behind a rigid surface: the worst
    /// finding of each surface and body, and the first step it was seen.
    pub intrusions: Vec<Intrusion>,
}

fn norm3(a: &[f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

fn ratio(a: f64, scale: f64) -> f64 {
    if scale > 0.0 {
        a / scale
    } else {
        a
    }
}

impl Balance {
    /// The balance of a run starting at `m0`.
    pub fn new(model: &Model, m0: Measures, obstacle: bool) -> Balance {
        let mut external = Vec::new();
        if model.boundaries.iter().any(|b| b.moves()) {
            external.push("prescribed motion".to_string());
        }
        if model.boundaries.iter().any(|b| !b.moves()) {
            external.push("supports".to_string());
        }
        if obstacle {
            external.push("a meshed obstacle that is no body".to_string());
        }
        if model.gravity != [0.0; 3] {
            external.push("gravity".to_string());
        }
        if !model.loads.is_empty() {
            external.push("loads".to_string());
        }
        if model
            .contacts
            .iter()
            .any(|c| matches!(c.master, MasterSpec::Plane { .. } | MasterSpec::Rigid(_)))
        {
            external.push("rigid masters".to_string());
        }
        let energy_exact = model.time.integrator == Integrator::EnergyMomentum
            && model.contacts.iter().all(|c| c.velocity_update);
        Balance {
            initial: m0,
            last: m0,
            dissipation: 0.0,
            defect: 0.0,
            external_work: 0.0,
            impulse: [0.0; 3],
            angular_impulse: [0.0; 3],
            scale: m0.kinetic + m0.strain,
            max_balance: 0.0,
            max_step_balance: 0.0,
            linear_scale: norm3(&m0.linear).max(m0.linear_scale),
            angular_scale: norm3(&m0.angular).max(m0.angular_scale),
            max_linear: 0.0,
            max_angular: 0.0,
            max_step_linear: 0.0,
            max_step_angular: 0.0,
            last_force: [0.0; 3],
            max_penetration: 0.0,
            newton_iterations: 0,
            external,
            energy_exact,
            angular_exact: model.time.integrator == Integrator::EnergyMomentum,
            momentum_kept: model.time.integrator == Integrator::EnergyMomentum
                || !model.boundaries.iter().any(|b| b.moves()),
            intrusions: Vec::new(),
        }
    }

    /// `E_n + D_n − W_n − E_0` of the last recorded state.
    pub fn balance(&self) -> f64 {
        self.last.total() + self.dissipation - self.external_work - self.initial.total()
    }

    /// Adds one accepted step ending in the state measured by `m`.
    pub fn step(&mut self, m: Measures, r: &StepReport, l: &StepLedger) {
        let before = self.balance();
        let (l_prev, j_prev) = (self.last.linear, self.last.angular);
        self.dissipation += r.dissipation;
        self.defect += r.update_defect;
        self.external_work += l.work;
        for i in 0..3 {
            self.impulse[i] += l.impulse[i];
            self.angular_impulse[i] += l.angular_impulse[i];
        }
        self.last_force = l.force;
        self.last = m;
        self.scale = self
            .scale
            .max(m.kinetic + m.strain)
            .max(self.external_work.abs())
            .max(self.dissipation);
        self.max_balance = self.max_balance.max(self.balance().abs());
        self.max_step_balance = self.max_step_balance.max((self.balance() - before).abs());
        self.max_penetration = self.max_penetration.max(r.max_penetration);
        self.newton_iterations += r.iterations;
        self.linear_scale = self
            .linear_scale
            .max(norm3(&m.linear))
            .max(m.linear_scale)
            .max(l.impulse_size);
        self.angular_scale = self
            .angular_scale
            .max(norm3(&m.angular))
            .max(m.angular_scale)
            .max(l.angular_impulse_size);
        let m0 = &self.initial;
        let gap = |now: &[f64; 3], start: &[f64; 3], owed: &[f64; 3]| {
            norm3(&[0, 1, 2].map(|i| now[i] - start[i] - owed[i]))
        };
        self.max_linear = self
            .max_linear
            .max(gap(&m.linear, &m0.linear, &self.impulse));
        self.max_angular =
            self.max_angular
                .max(gap(&m.angular, &m0.angular, &self.angular_impulse));
        self.max_step_linear = self
            .max_step_linear
            .max(gap(&m.linear, &l_prev, &l.impulse));
        self.max_step_angular =
            self.max_step_angular
                .max(gap(&m.angular, &j_prev, &l.angular_impulse));
    }

    /// `max_n |E_n + D_n − W_n − E_0| / energy scale`.
    pub fn relative_drift(&self) -> f64 {
        ratio(self.max_balance, self.scale)
    }

    /// The largest step's energy ledger closure over the energy scale.
    pub fn relative_step_drift(&self) -> f64 {
        ratio(self.max_step_balance, self.scale)
    }

    /// `max_n |L_n − L_0 − I_n|` and the same for `J`, over their scales.
    pub fn linear_drift(&self) -> f64 {
        ratio(self.max_linear, self.linear_scale)
    }

    pub fn angular_drift(&self) -> f64 {
        ratio(self.max_angular, self.angular_scale)
    }

    /// The summary's conservation lines, ending with a plain verdict.
    pub fn report(&self) -> Vec<String> {
        let mut lines = Vec::new();
        lines.push(format!(
            "energy: kinetic + strain + gravity + dissipation − external work changed by at most {:.3e} ({:.2e} of the energy scale {:.3e}; per step at most {:.2e}); external work {:.4e}, frictional work {:.4e}{}",
            self.max_balance,
            self.relative_drift(),
            self.scale,
            self.relative_step_drift(),
            self.external_work,
            self.dissipation,
            if self.defect != 0.0 {
                format!(", velocity-update defect {:.3e}", self.defect)
            } else {
                String::new()
            }
        ));
        let what = if self.external.is_empty() {
            "a free model: no external impulse".to_string()
        } else {
            format!("against the impulse of {}", self.external.join(", "))
        };
        lines.push(format!(
            "momentum: linear ledger closed to {:.2e}, angular to {:.2e} of their scales ({what})",
            self.linear_drift(),
            self.angular_drift()
        ));
        for i in &self.intrusions {
            lines.push(format!("penetration: {i}"));
        }
        lines.push(self.verdict());
        lines
    }

    /// Whether the verdict is a failure the run could see: a node went
    /// through a surface, or a ledger the method promises exact did not
    /// close ("NOT OK", "CHECK", a momentum ledger that did not close).
    /// `emcontact run` then exits with [`VERDICT_EXIT`], so that a script
    /// cannot take such a run for a good one. Newmark's energy drift and an
    /// update defect are what those methods promise, and pass.
    pub fn failed(&self) -> bool {
        if !self.intrusions.is_empty() {
            return true;
        }
        let energy = !self.energy_exact || self.relative_drift() <= LEDGER_TOLERANCE;
        !(energy && self.momentum_ok())
    }

    /// Whether the momentum ledgers close (angular only where promised;
    /// neither where they are not kept).
    fn momentum_ok(&self) -> bool {
        !self.momentum_kept
            || self.linear_drift() <= LEDGER_TOLERANCE
                && (!self.angular_exact || self.angular_drift() <= LEDGER_TOLERANCE)
    }

    /// One plain-language line: is the balance what the method promises?
    pub fn verdict(&self) -> String {
        let rel = self.relative_drift();
        let momentum_ok = self.momentum_ok();
        if let Some(i) = self.intrusions.first() {
            return format!(
                "verdict: NOT OK — {} node(s) of body \"{}\" went {} (first at t = {}); the run is not physical there{}",
                i.count,
                i.body,
                i.behind(),
                i.t,
                if self.intrusions.len() > 1 {
                    format!(" ({} more such findings above)", self.intrusions.len() - 1)
                } else {
                    String::new()
                }
            );
        }
        if !self.energy_exact {
            return format!(
                "verdict: energy is not conserved by construction here (Newmark, or a contact pair without the velocity update); its ledger closed to {rel:.1e} of the energy scale{}",
                if !self.momentum_kept {
                    "; no momentum ledger (Newmark's velocity jump at prescribed dofs is not measured)"
                } else if momentum_ok {
                    ""
                } else {
                    "; the momentum ledger did not close"
                }
            );
        }
        if rel <= LEDGER_TOLERANCE && momentum_ok && self.defect.abs() <= 1e-12 * self.scale {
            "verdict: OK — energy and momentum ledgers exact to the solver tolerance".into()
        } else if rel <= LEDGER_TOLERANCE && momentum_ok {
            format!(
                "verdict: ledgers exact, but the velocity update could not restore {:.3e} of energy (update_defect in history.csv)",
                self.defect
            )
        } else {
            format!(
                "verdict: CHECK — the energy ledger closed to {rel:.1e} of the energy scale{} (expected ≤ {LEDGER_TOLERANCE:e}); see history.csv",
                if momentum_ok { "" } else { " and the momentum ledger did not close" }
            )
        }
    }
}
