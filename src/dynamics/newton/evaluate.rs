//! Evaluate: the residual `R = c_M M (x₁ − x̂) + f_int − f_c − f_ext` and the
//! tangent at an iterate, every contact point evaluated there.

use crate::contact::EvalOptions;
use crate::dynamics::step::{StepError, Stepper};

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|a| a * a).sum::<f64>().sqrt()
}

/// Residual size at one iterate.
#[derive(Debug, Clone, Copy)]
pub struct Eval {
    pub norm: f64,
    pub scale: f64,
    /// The residual's round-off floor (`NewtonPolicy::round_off_floor ·
    /// c_M ‖M x₁‖`): a rigid motion has a force `scale` at round-off, where
    /// only this floor tells convergence.
    pub floor: f64,
    /// The step's energy error at the iterate, `R · (x₁ − x₀)`
    /// ([`super::energy`]) ...
    pub work: f64,
    /// ... and the largest work of one of the step's forces,
    /// `max(|c_M M (x₁ − x̂)|, |f_int − f_c|, |f_ext|) · (x₁ − x₀)`.
    pub force_work: f64,
}

impl Eval {
    pub fn relative(&self) -> f64 {
        self.norm / self.scale
    }

    /// Below the tolerance, or at the round-off floor.
    pub fn converged(&self, tol: f64) -> bool {
        self.norm <= (tol * self.scale).max(self.floor)
    }

    /// At the round-off floor: no iteration can reduce the residual.
    pub fn at_floor(&self) -> bool {
        self.norm <= self.floor
    }
}

impl<const D: usize> Stepper<D> {
    /// Residual (into `r`) and tangent (into `k`, or with contact
    /// multipliers the contact tangent into `kc`, the rest waiting for
    /// [`Stepper::tangent_at`]) at `x1`, the contact points evaluated there.
    pub(crate) fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError> {
        let (cm, eval) = self.coefficients(dt);
        let multipliers = self.contacts.has_multipliers();
        let started = std::time::Instant::now();
        self.sys.assemble(
            x0,
            x1,
            eval,
            &mut self.f,
            (!multipliers).then_some(&mut self.k[..]),
        )?;
        self.timing.assembly += started.elapsed().as_secs_f64();
        if !self.contacts.is_empty() {
            self.contact_force(x0, x1, dt, options, multipliers)?;
        }
        self.drive_loads(x0, x1, multipliers);
        for i in 0..self.r.len() {
            self.r[i] = x1[i] - self.x_hat[i];
        }
        self.sys.mass_times(&self.r, &mut self.mv);
        for i in 0..self.r.len() {
            self.mv[i] *= cm;
            self.r[i] = self.mv[i] + self.f[i] - self.f_ext[i];
        }
        self.sys.zero_fixed(&mut self.r);
        self.sys.zero_fixed(&mut self.mv);
        self.sys.mass_times(x1, &mut self.mx);
        self.sys.zero_fixed(&mut self.mx);
        let floor = self.policy.round_off_floor * cm * norm(&self.mx);
        let n = norm(&self.r);
        if !n.is_finite() {
            return Err(StepError::NonFinite);
        }
        let scale = norm(&self.mv)
            .max(norm(&self.f))
            .max(norm(&self.f_ext))
            .max(f64::MIN_POSITIVE);
        let on_dx = |v: &[f64]| {
            v.iter()
                .zip(x1.iter().zip(x0))
                .map(|(a, (b, c))| a * (b - c))
                .sum::<f64>()
        };
        let work = on_dx(&self.r);
        let force_work = on_dx(&self.mv)
            .abs()
            .max(on_dx(&self.f).abs())
            .max(on_dx(&self.f_ext).abs());
        if !multipliers {
            self.sys.add_mass(cm, &mut self.k);
            self.sys.apply_fixed(&mut self.k);
        }
        Ok(Eval {
            norm: n,
            scale,
            floor,
            work,
            force_work,
        })
    }

    /// The contact force (acting on the bodies) subtracted from `f`
    /// (`f_int − f_c`, DESIGN §4) and its tangent, into `kc` with
    /// multipliers (chord iterations keep it apart) or into `k`.
    fn contact_force(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
        multipliers: bool,
    ) -> Result<(), StepError> {
        let started = std::time::Instant::now();
        let nnz = self.sys.pattern.nnz();
        self.mv.iter_mut().for_each(|v| *v = 0.0);
        let tangent = if multipliers {
            self.kc.clear();
            self.kc.resize(nnz, 0.0);
            self.ks.resize(nnz, 0.0);
            &mut self.kc
        } else {
            &mut self.k
        };
        self.contacts.evaluate::<D>(
            x0,
            x1,
            dt,
            options,
            &mut self.mv,
            Some((&self.sys.pattern, tangent)),
        )?;
        for i in 0..self.f.len() {
            self.f[i] -= self.mv[i];
        }
        self.timing.contact += started.elapsed().as_secs_f64();
        Ok(())
    }
}
