//! One time step on several processes: the serial build's step
//! (`dynamics::step`) with its vectors split over the ranks, solved by the
//! serial Newton loop (`dynamics::newton`, generic over the step it
//! iterates on), with contact through the replicated contact set of
//! [`super::contact`].
//!
//! The residual and its Newton matrix are those of the serial build
//! (Love & Laursen 2003, eq. 54; Simo & Tarnow 1992 for the
//! energy-momentum scheme):
//!
//! ```text
//! R(x₁) = c_M M (x₁ − x̂) + f_int(x₀, x₁) − f_ext,    K = c_M M + ∂f_int/∂x₁
//! ```
//!
//! Each rank assembles its own elements into its local vectors and matrix
//! share (the serial kernels and coloured assembly, `dynamics::System`);
//! the ghost rows are summed into their owners ([`GhostVec::reverse_add`]),
//! the matrix shares by PETSc. A rank's state vectors hold its local nodes
//! (owned, then ghosts), the ghosts refreshed after every update. Norms and
//! every test that decides what Newton does are reduced in rank order
//! ([`World`]), so all ranks take the same decisions; an element that fails
//! on one rank fails the iterate on all.
//!
//! Loads and prescribed motion are the serial build's (`dynamics::drive`)
//! on the rank's share of them ([`super::drive`]): the prescribed positions
//! set before Newton and the velocities after it, the loads and their
//! stiffness added in every evaluation and completed like the element
//! forces, the prescribed velocities' jump summed over the owned nodes.
//!
//! The Newton loop is the serial one ([`newton::solve`]): this stepper
//! gives it the residual, the correction and the norms, each the whole
//! problem's. Extra unknowns per contact point (the saddle-point design,
//! docs/parallel.md) would extend the owned rows of the rank owning the
//! slave node; nothing here assumes the rows are nodal beyond the block
//! size.

use super::comm::World;
use super::contact_step::Gathered;
use super::linear::{Linear, LinearError};
use super::local::LocalSystem;
use super::partition::Layout;
use super::petsc::{GhostVec, PetscError};
use emcontact::contact::{ContactSet, EvalOptions, TouchPolicy};
use emcontact::driver::{nodal_stress_sums, Steps, NODAL_SUM_WIDTH};
use emcontact::dynamics::drive::{jump_sums, prescribed_velocities, Drive, StepSpan};
use emcontact::dynamics::newton::{
    self, policy::NewtonPolicy, Eval, NewtonScratch, StepProblem, Taken,
};
use emcontact::dynamics::prescribed::Jump;
use emcontact::dynamics::step::contact_statistics;
use emcontact::dynamics::step::end_velocities;
use emcontact::dynamics::{State, StepError, StepReport};
use emcontact::fe::kernel::{KernelError, StressEval};
use emcontact::linalg::LinearSolveError;
use emcontact::model::{Integrator, Model, SolverParams};

/// Where a distributed stepper's time went.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timing {
    pub assembly: f64,
    pub communication: f64,
}

/// The distributed stepper of one rank.
pub struct Distributed<'p, const D: usize> {
    pub world: &'p World,
    pub layout: Layout,
    pub local: LocalSystem<D>,
    pub linear: Linear<'p>,
    integrator: Integrator,
    params: SolverParams,
    gravity: [f64; 3],
    /// External force (gravity and loads) of the last evaluation on the
    /// local nodes, zero at the constrained dofs.
    f_ext: Vec<f64>,
    /// `m_A g`, not zeroed (the support reactions balance it).
    gravity_force: Vec<f64>,
    /// The loads of the last evaluation (complete on the local nodes, not
    /// zeroed): with the reactions, what the step's ledger sums.
    pub load: Vec<f64>,
    /// This rank's share of the loads and prescribed motion, and the
    /// current step's start time.
    pub drive: Drive,
    /// Whether any rank has prescribed motion (a rank's share may be empty).
    prescribed: bool,
    t0: f64,
    /// Local vectors: force, inertia, `M x₁`, residual.
    pub(super) f: Vec<f64>,
    mv: Vec<f64>,
    mx: Vec<f64>,
    pub(super) r: Vec<f64>,
    x_hat: Vec<f64>,
    /// Newton's correction, trial iterate and multipliers.
    pub(super) scratch: NewtonScratch,
    /// This rank's share of the Newton matrix: its local pattern's values
    /// (the first `nnz`), then its contact blocks' ([`super::contact`]).
    pub(super) k: Vec<f64>,
    pub(super) nnz: usize,
    /// The Newton policy (the serial defaults).
    pub policy: NewtonPolicy,
    /// Every contact pair, on every rank alike, and the gathered vectors
    /// and contact blocks (with contact only).
    pub contacts: ContactSet,
    pub(super) gathered: Option<Gathered>,
    /// Support reactions of the last evaluation, on the local nodes.
    pub reaction: Vec<f64>,
    ghosts: GhostVec<'p>,
    /// The ghost exchange of [`NODAL_SUM_WIDTH`] values per node, made at
    /// the first frame (runs without frames do without it).
    nodal_ghosts: Option<GhostVec<'p>>,
    pub timing: Timing,
}

/// Owned part of a local vector.
fn owned<const D: usize>(layout: &Layout, v: &[f64]) -> std::ops::Range<usize> {
    let _ = v;
    0..layout.owned * D
}

impl<'p, const D: usize> Distributed<'p, D> {
    /// The stepper of a rank; errs (an input error) where the loads cannot
    /// be shared over the ranks ([`super::drive::share`]).
    pub fn new(
        world: &'p World,
        model: &Model,
        layout: Layout,
        local: LocalSystem<D>,
        linear: Linear<'p>,
        ghosts: GhostVec<'p>,
    ) -> Result<Distributed<'p, D>, String> {
        let n = layout.nodes.len() * D;
        let mut gravity_force = vec![0.0; n];
        for a in 0..layout.nodes.len() {
            for i in 0..D {
                gravity_force[a * D + i] = local.mass[a] * model.gravity[i];
            }
        }
        let mut f_ext = gravity_force.clone();
        local.sys.zero_fixed(&mut f_ext);
        let nnz = local.sys.pattern.nnz();
        let drive = super::drive::share(world, model, &layout, &local, gravity_force.clone())?;
        let mut st = Distributed {
            world,
            layout,
            local,
            linear,
            integrator: model.time.integrator,
            params: model.solver,
            gravity: model.gravity,
            f_ext,
            gravity_force,
            load: vec![0.0; n],
            drive,
            prescribed: model.boundaries.iter().any(|b| b.moves()),
            t0: 0.0,
            f: vec![0.0; n],
            mv: vec![0.0; n],
            mx: vec![0.0; n],
            r: vec![0.0; n],
            x_hat: vec![0.0; n],
            scratch: NewtonScratch::new(n),
            k: vec![0.0; nnz],
            nnz,
            policy: NewtonPolicy {
                // a rank's states hold its own dofs and the first-touch
                // prediction reads every contact node's velocity: off here
                // (the large faces it is for take the saddle path, which
                // several ranks refuse)
                touch: TouchPolicy {
                    min_points: usize::MAX,
                    ..TouchPolicy::default()
                },
                ..NewtonPolicy::default()
            },
            contacts: ContactSet::default(),
            gathered: None,
            reaction: vec![0.0; n],
            ghosts,
            nodal_ghosts: None,
            timing: Timing::default(),
        };
        st.set_up_contact(model)?;
        Ok(st)
    }

    pub fn gravity(&self) -> [f64; 3] {
        self.gravity
    }

    pub fn integrator(&self) -> Integrator {
        self.integrator
    }

    /// Local dofs (owned and ghost nodes).
    pub fn n_local(&self) -> usize {
        self.layout.nodes.len() * D
    }

    /// `c_M` and where the stress is evaluated (as `Stepper::coefficients`).
    fn coefficients(&self, dt: f64) -> (f64, StressEval) {
        match self.integrator {
            Integrator::EnergyMomentum => (2.0 / (dt * dt), StressEval::Midpoint),
            Integrator::Newmark { beta, .. } => (1.0 / (beta * dt * dt), StressEval::EndPoint),
        }
    }

    /// `‖v‖` over the owned entries of every rank.
    pub(super) fn norm(&self, v: &[f64]) -> f64 {
        let r = owned::<D>(&self.layout, v);
        self.world
            .sum1(v[r].iter().map(|a| a * a).sum::<f64>())
            .sqrt()
    }

    /// `max |v|` over the owned entries of every rank.
    pub(super) fn max_abs(&self, v: &[f64]) -> f64 {
        let r = owned::<D>(&self.layout, v);
        self.world
            .max(&[v[r].iter().fold(0.0f64, |m, a| m.max(a.abs()))])[0]
    }

    /// Sums the ranks' shares of a local vector into its owned entries and
    /// sends them to the ghosts.
    fn complete(&mut self, which: Which) -> Result<(), PetscError> {
        let started = std::time::Instant::now();
        let v = match which {
            Which::F => &mut self.f,
            Which::Mv => &mut self.mv,
            Which::Mx => &mut self.mx,
            Which::Dx => &mut self.scratch.dx,
        };
        if which != Which::Dx {
            self.ghosts.reverse_add(v)?;
        }
        self.ghosts.forward(v)?;
        self.timing.communication += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Sums the ranks' shares of a local vector `v` into its owned entries
    /// and sends them to the ghosts.
    pub(super) fn complete_vector(&mut self, v: &mut [f64]) -> Result<(), PetscError> {
        let started = std::time::Instant::now();
        self.ghosts.reverse_add(v)?;
        self.ghosts.forward(v)?;
        self.timing.communication += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// The [`nodal_stress_sums`] of this rank's local nodes at `x` over
    /// every rank's elements: this rank's elements' sums, the other ranks'
    /// added at shared nodes (summed at the owners, then sent to the
    /// ghosts), so that the nodal stress of every local node, owned or
    /// ghost, is the whole mesh's. A neighbour exchange of
    /// [`NODAL_SUM_WIDTH`] values per ghost node each way. Collective.
    pub fn nodal_stress_sums(&mut self, x: &[f64]) -> Result<Vec<f64>, PetscError> {
        let mut sums = nodal_stress_sums(&self.local.sys, x);
        let started = std::time::Instant::now();
        let exchange = match &mut self.nodal_ghosts {
            Some(g) => g,
            none => none.insert(GhostVec::new(
                self.ghosts.petsc(),
                NODAL_SUM_WIDTH,
                self.layout.owned,
                &self.layout.petsc[self.layout.owned..],
            )?),
        };
        exchange.reverse_add(&mut sums)?;
        exchange.forward(&mut sums)?;
        self.timing.communication += started.elapsed().as_secs_f64();
        Ok(sums)
    }

    /// One rank's element failure, seen by every rank: the lowest failing
    /// rank's error.
    pub(super) fn collective_kernel<T>(
        &self,
        local: Result<T, KernelError>,
    ) -> Result<T, StepError> {
        let failed = self.world.first_set(local.is_err());
        let Some(rank) = failed else {
            return Ok(local.unwrap_or_else(|_| unreachable!("no rank failed")));
        };
        let (kind, value) = match &local {
            Err(KernelError::Inverted { det_f }) => (0.0, *det_f),
            Err(KernelError::BadReference { det_j }) => (1.0, *det_j),
            Ok(_) => (0.0, 0.0),
        };
        let all = self.world.gather(&[kind, value]);
        let (kind, value) = (all[2 * rank], all[2 * rank + 1]);
        Err(StepError::Element(if kind == 0.0 {
            KernelError::Inverted { det_f: value }
        } else {
            KernelError::BadReference { det_j: value }
        }))
    }

    /// Residual at `x1` into `r`, this rank's matrix share into `k` (the
    /// contact blocks' included), the reactions of the supports; the
    /// contact points evaluated at `x1` (`super::contact_step`).
    fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError> {
        let (cm, eval) = self.coefficients(dt);
        let started = std::time::Instant::now();
        let nnz = self.nnz;
        let assembled =
            self.local
                .sys
                .assemble(x0, x1, eval, &mut self.f, Some(&mut self.k[..nnz]));
        self.timing.assembly += started.elapsed().as_secs_f64();
        self.collective_kernel(assembled)?;
        self.loads(x0, x1, dt)?;
        let n = self.n_local();
        for i in 0..n {
            self.r[i] = x1[i] - self.x_hat[i];
        }
        self.local.sys.mass_times(&self.r, &mut self.mv);
        self.mv.iter_mut().for_each(|v| *v *= cm);
        self.local.sys.mass_times(x1, &mut self.mx);
        let petsc = |e: PetscError| StepError::Linear(LinearSolveError::Numeric(e.to_string()));
        self.complete(Which::F).map_err(petsc)?;
        self.complete(Which::Mv).map_err(petsc)?;
        self.complete(Which::Mx).map_err(petsc)?;
        self.contact_force(x1, dt, options)?;
        let sys = &self.local.sys;
        for i in 0..n {
            self.r[i] = self.mv[i] + self.f[i] - self.f_ext[i];
            self.reaction[i] = if sys.fixed[i] {
                self.mv[i] + self.f[i] - (self.gravity_force[i] + self.load[i])
            } else {
                0.0
            };
        }
        sys.zero_fixed(&mut self.r);
        sys.zero_fixed(&mut self.mv);
        sys.zero_fixed(&mut self.mx);
        let floor = self.policy.round_off_floor * cm * self.norm(&self.mx);
        let norm = self.norm(&self.r);
        if !norm.is_finite() {
            return Err(StepError::NonFinite);
        }
        let scale = self
            .norm(&self.mv)
            .max(self.norm(&self.f))
            .max(self.norm(&self.f_ext))
            .max(f64::MIN_POSITIVE);
        // R · (x₁ − x₀) and the forces' works over the owned dofs, in rank order
        let m = self.layout.owned * D;
        let on_dx = |v: &[f64]| -> f64 { (0..m).map(|i| v[i] * (x1[i] - x0[i])).sum::<f64>() };
        let works = self.world.sum(&[
            on_dx(&self.r),
            on_dx(&self.mv),
            on_dx(&self.f),
            on_dx(&self.f_ext),
        ]);
        let sys = &self.local.sys;
        sys.add_mass(cm, &mut self.k[..nnz]);
        self.local.apply_fixed(&mut self.k[..nnz]);
        Ok(Eval {
            norm,
            scale,
            floor,
            work: works[0],
            force_work: works[1].abs().max(works[2].abs()).max(works[3].abs()),
        })
    }

    /// `f_ext` = gravity + loads at the iterate `x1` (zero at the
    /// constrained dofs), the loads' stiffness into this rank's matrix
    /// share (`dynamics::drive`; its share of the loads, completed over the
    /// ranks). Without loads `f_ext` is gravity, constant, and nothing is done.
    fn loads(&mut self, x0: &[f64], x1: &[f64], dt: f64) -> Result<(), StepError> {
        if self.drive.loads.is_empty() {
            return Ok(());
        }
        let span = StepSpan {
            integrator: self.integrator,
            t0: self.t0,
            dt,
            x0,
            x1,
        };
        let mut load = std::mem::take(&mut self.load);
        load.iter_mut().for_each(|v| *v = 0.0);
        let k = (&self.local.sys.pattern, &mut self.k[..self.nnz]);
        self.drive.add_loads_at::<D>(span, &mut load, Some(k));
        let completed = self.complete_vector(&mut load);
        self.load = load;
        completed.map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        for i in 0..self.f_ext.len() {
            self.f_ext[i] = self.gravity_force[i] + self.load[i];
        }
        self.local.sys.zero_fixed(&mut self.f_ext);
        Ok(())
    }

    /// The Newton correction `−K⁻¹R` into `dx` (all local entries);
    /// returns the Krylov iterations.
    pub(super) fn correction(&mut self) -> Result<usize, StepError> {
        let m = self.layout.owned * D;
        let mut dx = vec![0.0; m];
        let its = self
            .linear
            .solve(&self.k, &self.r[..m], &mut dx)
            .map_err(linear_error)?;
        self.scratch.dx[..m].copy_from_slice(&dx);
        self.complete(Which::Dx)
            .map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        Ok(its)
    }

    fn step_inner(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let n = self.n_local();
        self.t0 = s0.t;
        for i in 0..n {
            self.x_hat[i] = s0.x[i] + dt * s0.v[i];
            if let Integrator::Newmark { beta, .. } = self.integrator {
                self.x_hat[i] += dt * dt * (0.5 - beta) * s0.a[i];
            }
        }
        self.contacts.place_rigid(s0.t, dt);
        let possible = self.detect(s0, dt)?;
        let owned = self.layout.owned * D;
        self.linear
            .begin_step(&s0.x[..owned])
            .map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        // where contact may happen Newton starts from x_n, as in the serial step
        let mut x1 = if possible {
            s0.x.clone()
        } else {
            self.x_hat.clone()
        };
        self.drive.prescribed.set_positions(s0.t + dt, &mut x1);
        let mut report = StepReport::default();
        let before = self.linear.stats;
        newton::solve(self, s0, &mut x1, dt, &mut report)?;
        report.factorizations = self.linear.stats.factorizations - before.factorizations;
        self.tunnelling(&x1)?;
        let (cm, _) = self.coefficients(dt);
        let mut v1 = vec![0.0; n];
        let mut a1 = vec![0.0; n];
        end_velocities(
            (self.integrator, cm),
            s0,
            &self.x_hat,
            &x1,
            dt,
            (&mut v1, &mut a1),
        );
        self.local.sys.zero_fixed(&mut v1);
        self.local.sys.zero_fixed(&mut a1);
        report.jump = self.prescribed_velocities(s0, &x1, dt, &mut v1)?;
        contact_statistics(&self.contacts, dt, &mut report);
        if self.integrator == Integrator::EnergyMomentum && !self.contacts.is_empty() {
            let u = self.velocity_update(&x1, dt, &mut v1)?;
            self.check_defect(s0, &x1, &v1, &u)?;
            report.update_defect += u.defect;
            report.jump = report.jump.plus(&u.impulse);
        }
        Ok((
            State {
                t: s0.t + dt,
                x: x1,
                v: v1,
                a: a1,
            },
            report,
        ))
    }

    /// The prescribed velocities at the end of the step into `v1` and the
    /// jump they make (`Stepper::drive_velocities`): the change's mass
    /// product completed over the ranks, its sums over the owned nodes
    /// added in rank order.
    fn prescribed_velocities(
        &mut self,
        s0: &State,
        x1: &[f64],
        dt: f64,
        v1: &mut [f64],
    ) -> Result<Jump, StepError> {
        let pr = &self.drive.prescribed;
        if !self.prescribed {
            return Ok(Jump::default());
        }
        if self.integrator != Integrator::EnergyMomentum {
            pr.set_velocities(s0.t + dt, v1, false);
            return Ok(Jump::default());
        }
        let n = v1.len();
        let (mut before, mut delta, mut m_delta) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
        prescribed_velocities(pr, s0, x1, dt, v1, &mut before, &mut delta);
        self.local.sys.mass_times(&delta, &mut m_delta);
        self.complete_vector(&mut m_delta)
            .map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
        let j = jump_sums::<D>(&m_delta, v1, &before, x1, self.layout.owned);
        let s = self.world.sum(&[
            j.work,
            j.linear[0],
            j.linear[1],
            j.linear[2],
            j.angular[0],
            j.angular[1],
            j.angular[2],
            j.linear_size,
            j.angular_size,
        ]);
        Ok(Jump {
            work: s[0],
            linear: [s[1], s[2], s[3]],
            angular: [s[4], s[5], s[6]],
            linear_size: s[7],
            angular_size: s[8],
        })
    }

    /// Newmark's `a₀ = M⁻¹ (f_ext − f_int(x₀))` with the lumped mass (the
    /// parallel build refuses Newmark with a consistent mass, `super::run`).
    pub fn initial_acceleration(&mut self, x: &[f64]) -> Result<Vec<f64>, StepError> {
        let n = self.n_local();
        let mut a = vec![0.0; n];
        if let Integrator::Newmark { .. } = self.integrator {
            let assembled = self
                .local
                .sys
                .assemble(x, x, StressEval::EndPoint, &mut self.f, None);
            self.collective_kernel(assembled)?;
            self.complete(Which::F)
                .map_err(|e| StepError::Linear(LinearSolveError::Numeric(e.to_string())))?;
            // gravity alone, as the serial build's initial state has it
            let mut g = self.gravity_force.clone();
            self.local.sys.zero_fixed(&mut g);
            for i in 0..n {
                a[i] = (g[i] - self.f[i]) / self.local.mass[i / D].max(f64::MIN_POSITIVE);
            }
            self.local.sys.zero_fixed(&mut a);
        }
        Ok(a)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Which {
    F,
    Mv,
    Mx,
    Dx,
}

impl<const D: usize> Steps for Distributed<'_, D> {
    /// A step; on error the contact state is as it was (as `Stepper::step`).
    fn step(&mut self, s0: &State, dt: f64) -> Result<(State, StepReport), StepError> {
        let result = self.step_inner(s0, dt);
        match &result {
            Ok(_) => self.contacts.commit(),
            Err(_) => self.contacts.rollback(),
        }
        result
    }
}

/// A linear solve's failure as a step error (the step is cut back).
pub(super) fn linear_error(e: LinearError) -> StepError {
    StepError::Linear(LinearSolveError::Numeric(e.to_string()))
}

impl<const D: usize> StepProblem for Distributed<'_, D> {
    fn contacts(&self) -> &ContactSet {
        &self.contacts
    }
    fn policy(&self) -> &NewtonPolicy {
        &self.policy
    }
    fn tolerance(&self) -> f64 {
        self.params.tolerance
    }
    fn max_iterations(&self) -> usize {
        self.params.max_iterations
    }
    fn parts(&mut self) -> (&mut ContactSet, &mut NewtonScratch) {
        (&mut self.contacts, &mut self.scratch)
    }
    fn dx(&self) -> &[f64] {
        &self.scratch.dx
    }
    fn evaluate(
        &mut self,
        x0: &[f64],
        x1: &[f64],
        dt: f64,
        options: EvalOptions,
    ) -> Result<Eval, StepError> {
        Distributed::evaluate(self, x0, x1, dt, options)
    }
    /// No chord iterations: they refactor the trailing block of the serial
    /// LU (where the serial run takes none, small models, the runs agree).
    fn chord_enabled(&self) -> bool {
        false
    }
    fn correct(
        &mut self,
        _x0: &[f64],
        _x1: &[f64],
        dt: f64,
        report: &mut StepReport,
        (solve_fully, _, _): (bool, bool, bool),
    ) -> Result<Taken, StepError> {
        if self.contacts.has_multipliers() {
            self.correct_condensed(dt, solve_fully, report)?;
        } else {
            report.linear_iterations += self.correction()?;
        }
        Ok(Taken::Full)
    }
    fn max_abs(&self, v: &[f64]) -> f64 {
        Distributed::max_abs(self, v)
    }
    fn start_energy(&mut self, s0: &State) -> Result<f64, StepError> {
        Ok(self.kinetic(&s0.v)? + self.strain_energy(&s0.x)?)
    }
}
