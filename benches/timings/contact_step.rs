//! One full time step of the 3D "friction blocks" contact problem: a
//! neo-Hookean cube (velocity [0, 1.5, −1]) lands on and slides over a base
//! block fixed at its bottom, μ = 0.8, augmented Lagrangian (tolerance 1e-5).
//!
//! Built through the public API the way `emcontact run` does it
//! (`input::parse` → `driver::setup` → `driver::advance`).
//! Two steps are timed, each from a fixed state reached outside the timed loop
//! (the contact pairs are restored from a clone before every timed step):
//!
//! * `first_contact`: t = 0.2 → 0.3, the step in which the cube touches down;
//! * `persistent`: t = 0.3 → 0.4, in sliding contact.
//!
//! A step that fails at Δt = 0.1 is timed as the run loop takes it
//! (`driver::advance`: halve Δt until every sub-step converges; the failed
//! attempts are part of the time). The Newton iterations and contact restarts of
//! the timed step (`StepReport`) are printed once.
//!
//! Coarse mesh (8×8×4 + 4×4×4 hex8, 530 nodes, 1,590 dofs): criterion, 10 samples.
//! Fine mesh (20×20×10 + 10×10×10 hex8, 18,546 dofs; with
//! `CONTACT_STEP_MESH=kratos` Kratos' fine mesh 16×16×8 + 8×8×8, 9,990
//! dofs): one run timed with `Instant` and in CPU seconds (a step takes too
//! long for criterion samples), only with `CONTACT_STEP_FINE=1`
//! (first-contact step) or `CONTACT_STEP_FINE=2` (both).

use criterion::{criterion_group, Criterion, SamplingMode};
use emcontact::driver;
use emcontact::dynamics::{State, StepReport, Stepper};
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::{cpu_seconds, input};

const DT: f64 = 0.1;

/// The stepper and initial state of the blocks, as `emcontact run` builds them.
fn setup(base: [usize; 3], cube: [usize; 3]) -> (Stepper<3>, State) {
    let model =
        emcontact::input::parse(Path::new("blocks.toml"), &input(base, cube)).expect("valid input");
    driver::setup::<3>(&model).expect("setup")
}

/// What one run-loop step took: Δt of the accepted sub-steps, cut-backs,
/// Newton iterations and contact restarts (accepted sub-steps and all).
#[derive(Debug, Default)]
struct Taken {
    cutbacks: usize,
    substeps: usize,
    iterations: usize,
    contact_restarts: usize,
    reports: Vec<StepReport>,
}

/// The run loop's step from `s0` by `dt` (`driver::advance`: halved until
/// every sub-step converges).
fn advance(stepper: &mut Stepper<3>, s0: &State, dt: f64) -> (State, Taken) {
    let (subs, cutbacks) = driver::advance(stepper, s0, dt).expect("step converges");
    let reports: Vec<StepReport> = subs.iter().map(|(_, r, _)| r.clone()).collect();
    let state = subs.into_iter().last().expect("one sub-step at least").0;
    let taken = Taken {
        cutbacks,
        substeps: reports.len(),
        iterations: reports.iter().map(|r| r.iterations).sum(),
        contact_restarts: reports.iter().map(|r| r.contact_restarts).sum(),
        reports,
    };
    (state, taken)
}

/// Advances from t = 0 to `t` in run-loop steps of `DT` (untimed).
fn advance_to(stepper: &mut Stepper<3>, mut s: State, t: f64) -> State {
    while s.t < t - 1e-9 {
        let t0 = s.t;
        let (s1, taken) = advance(stepper, &s, DT);
        eprintln!(
            "  setup step {t0:.1} -> {:.1}: {} sub-step(s), {} Newton iterations, {} contact restarts",
            s1.t, taken.substeps, taken.iterations, taken.contact_restarts
        );
        s = s1;
    }
    s
}

fn describe(label: &str, dofs: usize, t0: f64, taken: &Taken) {
    eprintln!(
        "{label} ({dofs} dofs), step {t0:.1} -> {:.1}: {} cut-back(s) (= failed attempts), \
         {} sub-step(s) of dt = {:e}; Newton iterations {} (per sub-step {:?}); contact restarts {} \
         (per sub-step {:?}); active/stick/slip at the end {}/{}/{}",
        t0 + DT,
        taken.cutbacks,
        taken.substeps,
        DT / taken.substeps as f64,
        taken.iterations,
        taken
            .reports
            .iter()
            .map(|r| r.iterations)
            .collect::<Vec<_>>(),
        taken.contact_restarts,
        taken
            .reports
            .iter()
            .map(|r| r.contact_restarts)
            .collect::<Vec<_>>(),
        taken.reports.last().map_or(0, |r| r.active),
        taken.reports.last().map_or(0, |r| r.stick),
        taken.reports.last().map_or(0, |r| r.slip),
    );
}

/// The stepper at state `t0` (contacts as committed at `t0`).
fn at(base: [usize; 3], cube: [usize; 3], t0: f64) -> (Stepper<3>, State) {
    let (mut stepper, s) = setup(base, cube);
    let s = advance_to(&mut stepper, s, t0);
    (stepper, s)
}

fn bench_coarse(c: &mut Criterion) {
    let (base, cube) = ([8, 8, 4], [4, 4, 4]);
    let mut g = c.benchmark_group("contact_step/coarse_1590dofs");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(5));
    for (name, t0) in [("first_contact_0.2-0.3", 0.2), ("persistent_0.3-0.4", 0.3)] {
        let (mut stepper, s0) = at(base, cube, t0);
        let saved = stepper.contacts.clone();
        let dofs = stepper.sys.n_dofs();
        // one untimed step for the statistics (the timed ones are identical)
        let (_, taken) = advance(&mut stepper, &s0, DT);
        describe("coarse", dofs, t0, &taken);
        g.bench_function(name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    stepper.contacts = saved.clone();
                    let start = Instant::now();
                    let out = advance(&mut stepper, &s0, DT);
                    total += start.elapsed();
                    black_box(out);
                }
                total
            })
        });
    }
    g.finish();
}

fn fine() {
    let level: u32 = std::env::var("CONTACT_STEP_FINE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    if level == 0 {
        eprintln!("fine mesh skipped (CONTACT_STEP_FINE=1: first-contact step, =2: both steps)");
        return;
    }
    let _ = env_logger::try_init();
    // CONTACT_STEP_MESH=kratos: Kratos' fine mesh (benches/kratos/)
    let (base, cube) = match std::env::var("CONTACT_STEP_MESH").as_deref() {
        Ok("kratos") => ([16, 16, 8], [8, 8, 8]),
        _ => ([20, 20, 10], [10, 10, 10]),
    };
    let start = Instant::now();
    let (mut stepper, s) = setup(base, cube);
    let dofs = stepper.sys.n_dofs();
    eprintln!("fine: {dofs} dofs, set up in {:.2?}", start.elapsed());
    let s = advance_to(&mut stepper, s, 0.2);
    let steps: &[f64] = if level >= 2 { &[0.2, 0.3] } else { &[0.2] };
    let mut s = s;
    for &t0 in steps {
        let start = Instant::now();
        let (cpu0, lin0, tim0) = (cpu_seconds(), stepper.lu.stats(), stepper.timing);
        let (s1, taken) = advance(&mut stepper, &s, DT);
        let secs = start.elapsed().as_secs_f64();
        let (cpu, lin, tim) = (cpu_seconds() - cpu0, stepper.lu.stats(), stepper.timing);
        describe("fine", dofs, t0, &taken);
        eprintln!(
            "fine, step {t0:.1} -> {:.1}: {secs:.2} s (one run, Instant), {cpu:.2} s CPU; \
             per Newton iteration {:.3} s CPU; factorizations {} and {} of the contact block alone \
             ({:.2} s), solves {} ({} on the contact block alone) with {} Krylov iterations \
             ({:.2} s), assembly {:.2} s, contact {:.2} s, contact subproblems {:.2} s",
            t0 + DT,
            cpu / taken.iterations.max(1) as f64,
            lin.factorizations - lin0.factorizations,
            lin.trailing_refactorizations - lin0.trailing_refactorizations,
            lin.factor_seconds - lin0.factor_seconds,
            lin.solves - lin0.solves,
            lin.trailing_solves - lin0.trailing_solves,
            lin.krylov_iterations - lin0.krylov_iterations,
            lin.solve_seconds - lin0.solve_seconds,
            tim.assembly - tim0.assembly,
            tim.contact - tim0.contact,
            tim.subproblem - tim0.subproblem,
        );
        s = s1;
    }
}

fn benches(c: &mut Criterion) {
    bench_coarse(c);
    fine();
}

criterion_group!(contact_step, benches);
