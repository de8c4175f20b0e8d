//! The contact phases of a distributed step (docs/parallel.md, "Contact
//! across ranks"), each the serial step's (`dynamics::step`) on the
//! replicated contact set and the gathered vectors of [`super::contact`]:
//! detect (the broad phase, the contact blocks of the Newton matrix), the
//! contact force and tangent of an evaluation, the condensed correction,
//! the tunnelling check, the velocity update of Love & Laursen 2003 (§3.3–3.5)
//! and its defect, and the contact state of a checkpoint.

use super::contact::{mesh_fixed, surface_dofs, ContactBlocks, MeshGather, RankSolves};
use super::stepper::{linear_error, Distributed};
use emcontact::contact::enforce::{self, EnforceOptions};
use emcontact::contact::update::{self, MassInverse, UpdateOutcome};
use emcontact::contact::{ContactSet, EvalOptions};
use emcontact::dynamics::defect;
use emcontact::dynamics::forces::{contact_resultants, PairForces};
use emcontact::dynamics::{
    restored_contacts, RestoreError, State, StepError, StepReport, StepperSnapshot,
};
use emcontact::linalg::LinearSolveError;
use emcontact::model::Model;

/// A run with contact: the maps and mesh-sized vectors of the replicated
/// contact set.
pub struct Gathered {
    pub gather: MeshGather,
    /// The contact surfaces' dofs, and every dof of the mesh (sorted).
    pub surface: Vec<usize>,
    pub all: Vec<usize>,
    /// The constrained dofs and the complete lumped mass (per node) of the
    /// whole mesh (the mass filled on the surfaces).
    pub fixed: Vec<bool>,
    pub lumped: Vec<f64>,
    /// Mesh-sized positions at the step's start and at the iterate, a
    /// velocity, the contact force (filled on the surfaces).
    pub x0: Vec<f64>,
    pub x1: Vec<f64>,
    pub v: Vec<f64>,
    pub fc: Vec<f64>,
    /// Mesh-sized positions at an accepted step's start and end (filled on
    /// the surfaces), for its records.
    pub ends: [Vec<f64>; 2],
    /// The residual and correction of the condensed path (whole mesh), and
    /// its scratch.
    pub residual: Vec<f64>,
    pub dx: Vec<f64>,
    pub w_rhs: Vec<f64>,
    pub blocks: ContactBlocks,
}

fn petsc_error(e: super::petsc::PetscError) -> StepError {
    StepError::Linear(LinearSolveError::Numeric(e.to_string()))
}

impl<const D: usize> Distributed<'_, D> {
    /// The contact set of `model` and its gathered vectors (nothing without
    /// contact); errs (an input error) where the set cannot be built.
    pub(super) fn set_up_contact(&mut self, model: &Model) -> Result<(), String> {
        if model.contacts.is_empty() {
            return Ok(());
        }
        self.contacts = ContactSet::new(model, D)
            .map_err(|e| format!("{}: contact: {e}", model.source.display()))?;
        let n = model.mesh.nodes.len();
        let gather = MeshGather::new(&self.layout, n, D);
        let surface = surface_dofs(&self.contacts, D);
        let fixed = mesh_fixed(model, &gather, D);
        // the complete lumped masses of the surface nodes
        let mut local_mass = vec![0.0; self.n_local()];
        for (l, m) in self.local.mass.iter().enumerate() {
            local_mass[l * D..l * D + D]
                .iter_mut()
                .for_each(|v| *v = *m);
        }
        let mut mass = vec![0.0; n * D];
        gather.gather(self.world, &surface, &local_mass, &mut mass);
        let lumped = (0..n).map(|a| mass[a * D]).collect();
        let mut x_ref = vec![0.0; n * D];
        for (a, p) in model.mesh.nodes.iter().enumerate() {
            x_ref[a * D..a * D + D].copy_from_slice(&p[..D]);
        }
        self.gathered = Some(Gathered {
            blocks: ContactBlocks::empty(n, D),
            gather,
            surface,
            all: (0..n * D).collect(),
            fixed,
            lumped,
            x0: x_ref.clone(),
            ends: [x_ref.clone(), x_ref.clone()],
            x1: x_ref,
            v: vec![0.0; n * D],
            fc: vec![0.0; n * D],
            residual: vec![0.0; n * D],
            dx: vec![0.0; n * D],
            w_rhs: Vec::new(),
        });
        Ok(())
    }

    /// The contact blocks of the Newton matrix for `couplings`: a new
    /// PETSc matrix when they are not covered yet (the serial
    /// `System::set_couplings`).
    fn set_couplings(&mut self, couplings: Vec<Vec<usize>>) -> Result<(), StepError> {
        let g = self.gathered.as_mut().expect("a run with contact");
        if g.blocks.covers(&couplings) {
            return Ok(());
        }
        g.blocks = ContactBlocks::new(couplings, &g.gather, &self.layout, &g.fixed, D);
        self.linear
            .set_extra(&g.blocks.rows, &g.blocks.cols)
            .map_err(petsc_error)?;
        self.k.resize(self.nnz + g.blocks.owned.len(), 0.0);
        log::debug!(
            "contact: Newton matrix rebuilt ({} contact entries on this rank)",
            g.blocks.owned.len()
        );
        Ok(())
    }

    /// Broad phase of the step from the gathered `x_n`, `v_n` of the
    /// surfaces: the contact blocks, the pairs' start; returns whether any
    /// slave may touch (Newton then starts from `x_n`).
    pub(super) fn detect(&mut self, s0: &State, dt: f64) -> Result<bool, StepError> {
        let Some(g) = self.gathered.as_mut() else {
            return Ok(false);
        };
        g.gather.gather(self.world, &g.surface, &s0.x, &mut g.x0);
        g.gather.gather(self.world, &g.surface, &s0.v, &mut g.v);
        let (lists, possible) = self.contacts.couplings(&g.x0, &g.v, dt);
        self.set_couplings(lists)?;
        let g = self.gathered.as_ref().expect("a run with contact");
        self.contacts.begin_step(&g.x0, dt);
        Ok(possible)
    }

    /// Every contact point evaluated at the gathered `x1`: the contact force
    /// subtracted from the (complete) local `f` (`f_int − f_c`), its
    /// tangent's owned rows into the contact part of `k`.
    pub(super) fn contact_force(
        &mut self,
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<(), StepError> {
        let Some(g) = self.gathered.as_mut() else {
            return Ok(());
        };
        let started = std::time::Instant::now();
        g.gather.gather(self.world, &g.surface, x1, &mut g.x1);
        for &d in &g.surface {
            g.fc[d] = 0.0;
        }
        g.blocks.values.iter_mut().for_each(|v| *v = 0.0);
        self.contacts.evaluate::<D>(
            &g.x0,
            &g.x1,
            dt,
            options,
            &mut g.fc,
            Some((&g.blocks.pattern, &mut g.blocks.values)),
        )?;
        for &d in &g.surface {
            if let Some(l) = g.gather.local(d / D) {
                self.f[l * D + d % D] -= g.fc[d];
            }
        }
        g.blocks.owned_values(&mut self.k[self.nnz..]);
        self.timing.communication += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// The condensed path's correction (`enforce::correct`) with the
    /// distributed Newton matrix: the residual gathered on the whole mesh,
    /// `W`'s columns and `K⁻¹ R` solved by the KSP, the subproblem solved on
    /// every rank alike; the correction's local entries into `dx`.
    pub(super) fn correct_condensed(
        &mut self,
        dt: f64,
        solve_fully: bool,
        report: &mut StepReport,
    ) -> Result<(), StepError> {
        self.linear.set_matrix(&self.k).map_err(linear_error)?;
        self.linear.refactor();
        let g = self.gathered.as_mut().expect("a run with contact");
        g.gather
            .gather(self.world, &g.all, &self.r, &mut g.residual);
        let owned = self.layout.owned;
        let mut solves = RankSolves {
            linear: &mut self.linear,
            gather: &g.gather,
            world: self.world,
            owned: &self.layout.nodes[..owned],
            all: &g.all,
            dim: D,
            iterations: 0,
        };
        let sys = enforce::NewtonSystem {
            solves: &mut solves,
            residual: &g.residual,
            fixed: &g.fixed,
            dx: &mut g.dx,
            scratch: &mut g.w_rhs,
        };
        let mut opts = EnforceOptions {
            dt,
            solve_fully,
            // the condensed path solves exact enforcement's subproblem fully
            active_set_changed: true,
            export: None,
            // a rank alone must not end its part of a collective solve
            stop: None,
        };
        let info = enforce::correct::<D>(&mut self.contacts, sys, &mut opts)?;
        report.linear_iterations += solves.iterations;
        for (l, &a) in self.layout.nodes.iter().enumerate() {
            for i in 0..D {
                self.scratch.dx[l * D + i] = g.dx[a * D + i];
            }
        }
        if info.contacts > 0 {
            report.subproblems += 1;
            report.subproblem_iterations += info.iterations;
            report.subproblem_error = report.subproblem_error.max(info.error);
        }
        Ok(())
    }

    /// A slave that passed through its master in the step `x_n → x1`.
    pub(super) fn tunnelling(&mut self, x1: &[f64]) -> Result<(), StepError> {
        let Some(g) = self.gathered.as_mut() else {
            return Ok(());
        };
        g.gather.gather(self.world, &g.surface, x1, &mut g.x1);
        match self.contacts.tunnelling(&g.x0, &g.x1) {
            Some(t) => Err(StepError::Tunnelling(t)),
            None => Ok(()),
        }
    }

    /// The velocity update on the gathered surface velocities (lumped mass:
    /// the parallel build refuses a consistent mass with contact), each
    /// rank keeping its local nodes' updated velocities.
    pub(super) fn velocity_update(
        &mut self,
        x1: &[f64],
        dt: f64,
        v1: &mut [f64],
    ) -> Result<UpdateOutcome, StepError> {
        let g = self.gathered.as_mut().expect("a run with contact");
        g.gather.gather(self.world, &g.surface, x1, &mut g.x1);
        g.gather.gather(self.world, &g.surface, v1, &mut g.v);
        let u = update::apply::<D>(
            &self.contacts,
            &g.x1,
            dt,
            &g.fixed,
            MassInverse::Lumped(&g.lumped),
            &mut g.v,
        )?;
        g.gather.scatter(&g.surface, &g.v, v1);
        Ok(u)
    }

    /// `Err(UpdateDefect)` where the update's defect is above round-off
    /// (`dynamics::defect`), the energies summed over the ranks.
    pub(super) fn check_defect(
        &mut self,
        s0: &State,
        x1: &[f64],
        v1: &[f64],
        u: &UpdateOutcome,
    ) -> Result<(), StepError> {
        if u.defect == 0.0 {
            return Ok(());
        }
        let k0 = self.kinetic(&s0.v)?;
        let k1 = self.kinetic(v1)?;
        // every rank takes the same branch: the strain energies are collective
        defect::judge(u, (k0, k1), || {
            Ok((self.strain_energy(&s0.x)?, self.strain_energy(x1)?))
        })
    }

    /// `½ v·M v` over the whole problem.
    pub(super) fn kinetic(&mut self, v: &[f64]) -> Result<f64, StepError> {
        let mut mv = vec![0.0; v.len()];
        self.local.sys.mass_times(v, &mut mv);
        self.complete_vector(&mut mv).map_err(petsc_error)?;
        let m = self.layout.owned * D;
        let own: f64 = (0..m).map(|i| 0.5 * v[i] * mv[i]).sum();
        Ok(self.world.sum1(own))
    }

    /// The strain energy at `x` over the whole problem (an element failure
    /// on any rank fails it on all).
    pub(super) fn strain_energy(&self, x: &[f64]) -> Result<f64, StepError> {
        let own = self.collective_kernel(self.local.sys.strain_energy(x))?;
        Ok(self.world.sum1(own))
    }

    /// The resultants of each of the `pairs` contacts of the input over the
    /// accepted step `s0 → s1` (size `dt`), for `contacts.csv`: the serial
    /// `forces::contact_resultants` on the replicated set (every rank
    /// alike, point by point in the set's order, whatever the rank count)
    /// with the surfaces' positions gathered. Collective; empty without
    /// contact.
    pub fn pair_resultants(
        &mut self,
        s0: &State,
        s1: &State,
        dt: f64,
        pairs: usize,
    ) -> Vec<PairForces> {
        let Some(g) = self.gathered.as_mut() else {
            return Vec::new();
        };
        let [x0, x1] = &mut g.ends;
        g.gather.gather(self.world, &g.surface, &s0.x, x0);
        g.gather.gather(self.world, &g.surface, &s1.x, x1);
        contact_resultants::<D>(&self.contacts, pairs, (x0, x1), dt, None)
    }

    /// The contact state of a checkpoint: the couplings of the contact
    /// blocks and every pair's memory (the same on every rank).
    pub fn contact_snapshot(&self) -> (Vec<Vec<usize>>, Vec<emcontact::dynamics::PairSnapshot>) {
        let couplings = self
            .gathered
            .as_ref()
            .map_or_else(Vec::new, |g| g.blocks.couplings.clone());
        (
            couplings,
            emcontact::dynamics::pair_snapshots(&self.contacts),
        )
    }

    /// Puts the contact state of `snap` into this (freshly set-up) stepper:
    /// the pairs' memory, and the contact blocks of its couplings (they
    /// decide the matrix, hence the solver's round-off).
    pub fn restore_contact(&mut self, snap: &StepperSnapshot) -> Result<(), RestoreError> {
        let restored = restored_contacts(&self.contacts, snap)?;
        if self.gathered.is_some() {
            self.set_couplings(snap.couplings.clone())
                .map_err(|e| RestoreError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        }
        self.contacts = restored;
        Ok(())
    }
}
