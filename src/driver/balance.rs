//! What the run conserves, measured honestly: the energy balance
//! `total + dissipation − external work` against a scale that does not
//! depend on where the potential's zero is, and the momenta only where the
//! model conserves them (no supports, no rigid plane, no gravity).

use crate::dynamics::{Measures, StepReport};
use crate::model::{Integrator, MasterSpec, Model};
use serde::{Deserialize, Serialize};

/// Running conservation measures (part of a checkpoint).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Balance {
    pub initial: Measures,
    pub last: Measures,
    /// Cumulative frictional work `Σ Δt w j D`, velocity-update defect and
    /// work of external forces other than gravity (none yet: 0).
    pub dissipation: f64,
    pub defect: f64,
    pub external_work: f64,
    /// `max_n (K_n + Π_n)`: the energy scale of the drift.
    pub scale: f64,
    /// `max_n |E_n + D_n − W_n − E_0|`.
    pub max_balance: f64,
    pub max_linear_drift: f64,
    pub max_angular_drift: f64,
    pub max_penetration: f64,
    pub newton_iterations: usize,
    /// Whether the model conserves linear and angular momentum (no supports,
    /// no rigid plane, no meshed obstacle, no gravity).
    pub momentum_conserved: bool,
    /// What acts on the model from outside (empty when momentum is conserved).
    pub external: Vec<String>,
    /// Whether the method promises an exact energy balance for this model
    /// (energy-momentum integrator, the velocity update on every contact pair).
    pub energy_exact: bool,
}

fn norm3(a: &[f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

fn drift(a: &[f64; 3], b: &[f64; 3], scale: f64) -> f64 {
    let d = ((a[0] - b[0]).powi(2) + (a[1] - b[1]).powi(2) + (a[2] - b[2]).powi(2)).sqrt();
    if scale > 0.0 {
        d / scale
    } else {
        d
    }
}

impl Balance {
    /// The balance of a run starting at `m0`.
    pub fn new(model: &Model, m0: Measures, obstacle: bool) -> Balance {
        let mut external = Vec::new();
        if !model.boundaries.is_empty() {
            external.push("supports: their forces are in reactions.csv".to_string());
        }
        if obstacle {
            external.push("a meshed obstacle that is no body".to_string());
        }
        if model.gravity != [0.0; 3] {
            external.push("gravity".to_string());
        }
        if model
            .contacts
            .iter()
            .any(|c| matches!(c.master, MasterSpec::Plane { .. }))
        {
            external.push("a rigid plane: its force is in contacts.csv".to_string());
        }
        let momentum_conserved = external.is_empty();
        let energy_exact = model.time.integrator == Integrator::EnergyMomentum
            && model.contacts.iter().all(|c| c.velocity_update);
        Balance {
            initial: m0,
            last: m0,
            dissipation: 0.0,
            defect: 0.0,
            external_work: 0.0,
            scale: m0.kinetic + m0.strain,
            max_balance: 0.0,
            max_linear_drift: 0.0,
            max_angular_drift: 0.0,
            max_penetration: 0.0,
            newton_iterations: 0,
            momentum_conserved,
            external,
            energy_exact,
        }
    }

    /// `E_n + D_n − W_n − E_0` of the last recorded state.
    pub fn balance(&self) -> f64 {
        self.last.total() + self.dissipation - self.external_work - self.initial.total()
    }

    /// Adds one accepted step ending in the state measured by `m`.
    pub fn step(&mut self, m: Measures, r: &StepReport) {
        self.dissipation += r.dissipation;
        self.defect += r.update_defect;
        self.last = m;
        self.scale = self.scale.max(m.kinetic + m.strain);
        self.max_balance = self.max_balance.max(self.balance().abs());
        self.max_penetration = self.max_penetration.max(r.max_penetration);
        self.newton_iterations += r.iterations;
        // Drifts are relative to the initial norms; where those vanish (a body
        // at rest hit by another, J = 0 by symmetry) to the size of the initial motion.
        let m0 = &self.initial;
        let l0 = norm3(&m0.linear).max(m0.linear_scale);
        let j0 = norm3(&m0.angular).max(m0.angular_scale);
        self.max_linear_drift = self.max_linear_drift.max(drift(&m.linear, &m0.linear, l0));
        self.max_angular_drift = self
            .max_angular_drift
            .max(drift(&m.angular, &m0.angular, j0));
    }

    /// `max_n |E_n + D_n − W_n − E_0| / max_n (K_n + Π_n)`.
    pub fn relative_drift(&self) -> f64 {
        if self.scale > 0.0 {
            self.max_balance / self.scale
        } else {
            self.max_balance
        }
    }

    /// The summary's conservation lines, ending with a plain verdict.
    pub fn report(&self) -> Vec<String> {
        let mut lines = Vec::new();
        let rel = self.relative_drift();
        lines.push(format!(
            "energy: kinetic + strain + gravity + dissipation − external work changed by at most {:.3e} ({:.2e} of the largest kinetic + strain energy, {:.3e}); frictional work {:.4e}{}",
            self.max_balance,
            rel,
            self.scale,
            self.dissipation,
            if self.defect != 0.0 {
                format!(", velocity-update defect {:.3e}", self.defect)
            } else {
                String::new()
            }
        ));
        if self.momentum_conserved {
            lines.push(format!(
                "momentum: linear changed by {:.2e}, angular by {:.2e} (relative to the initial momenta)",
                self.max_linear_drift, self.max_angular_drift
            ));
        } else {
            lines.push(format!(
                "momentum: not conserved by this model ({}); not checked",
                self.external.join(", ")
            ));
        }
        lines.push(self.verdict());
        lines
    }

    /// One plain-language line: is the balance what the method promises?
    pub fn verdict(&self) -> String {
        let rel = self.relative_drift();
        let momentum_ok = !self.momentum_conserved
            || (self.max_linear_drift <= 1e-8 && self.max_angular_drift <= 1e-8);
        if !self.energy_exact {
            return format!(
                "verdict: energy is not conserved by construction here (Newmark, or a contact pair without the velocity update); it changed by {rel:.1e} of the energy scale{}",
                if momentum_ok { "" } else { "; momentum drifted" }
            );
        }
        if rel <= 1e-8 && momentum_ok && self.defect.abs() <= 1e-12 * self.scale {
            "verdict: OK — energy balance and momenta exact to the solver tolerance".into()
        } else if rel <= 1e-8 && momentum_ok {
            format!(
                "verdict: balance exact, but the velocity update could not restore {:.3e} of energy (update_defect in history.csv)",
                self.defect
            )
        } else {
            format!(
                "verdict: CHECK — the energy balance drifted by {rel:.1e} of the energy scale{} (expected ≤ 1e-8); see history.csv",
                if momentum_ok { "" } else { " and the momenta drifted" }
            )
        }
    }
}
