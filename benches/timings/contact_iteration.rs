//! One contact Newton iteration of the contact-scaling family
//! (`validation/contact_scaling/make.py N 4 --gap 0.03 --gravity 10 --end
//! 0.05`: a cube of N × N × 4 hex8 lands on a base of N × N × 4, μ = 0.8,
//! exact enforcement, two passes, Δt = 0.05) at three contact sizes, slave
//! faces 8², 12² and 16² on the saddle-point path, and 8² on the condensed
//! path (`W = B K⁻¹ H`).
//!
//! The timed iteration is the first-contact step's second correction, the
//! first at an iterate in contact (`dynamics::newton::iterate`: evaluate
//! the residual and the tangents,
//! the contact correction with its linear solves, the update), from a
//! fixed state: before every sample the step is abandoned
//! (`ContactSet::rollback`), started again (`Stepper::start_step`, which
//! also makes the next correction factor its matrix) and taken through its
//! first correction untimed, so every sample does the same work (checked: the
//! same factorizations and solves). What the timed iteration did, and the
//! share of each part (`Stepper::timing`, the linear solver's counters), is
//! printed once per size. Criterion, 10 samples of one iteration each
//! (about 30 s of CPU for the four sizes, the untimed corrections included).

use criterion::{criterion_group, Criterion, SamplingMode};
use emcontact::driver;
use emcontact::dynamics::newton::iterate;
use emcontact::dynamics::{State, StepReport, Stepper};
use std::hint::black_box;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

const DT: f64 = 0.05;
/// Untimed corrections before the timed one: the step's first, from the
/// positions at `t_n` with the gap open, moves the cube into the base; the
/// timed one is the first at an iterate in contact.
const BEFORE: usize = 1;

/// The family's input with a slave face of `n` × `n` elements on path
/// `system` (`saddle` or `condensed`), written by make.py.
fn input(n: usize, system: &str) -> String {
    let make = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/validation/contact_scaling/make.py"
    );
    let n = n.to_string();
    let args = [&n, "4", "--gap", "0.03", "--gravity", "10", "--end", "0.05"];
    let out = Command::new("python3")
        .arg(make)
        .args(args)
        .args(["--system", system])
        .output()
        .expect("python3 runs validation/contact_scaling/make.py");
    assert!(
        out.status.success(),
        "make.py: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("make.py writes UTF-8")
}

/// The model's stepper and initial state, as `emcontact run` builds them.
fn setup(n: usize, system: &str) -> (Stepper<3>, State) {
    let model =
        emcontact::input::parse(Path::new("scaling.toml"), &input(n, system)).expect("valid input");
    driver::setup::<3>(&model).expect("setup")
}

/// The fixed state: the step started again and taken through [`BEFORE`]
/// corrections; returns the iterate the timed correction starts from.
fn restore(stepper: &mut Stepper<3>, s0: &State) -> Vec<f64> {
    stepper.contacts.rollback();
    let mut x1 = stepper.start_step(s0, DT).expect("step starts");
    let mut report = StepReport::default();
    for _ in 0..BEFORE {
        iterate(stepper, s0, &mut x1, DT, &mut report).expect("correction");
    }
    x1
}

/// The work of one timed iteration: factorizations, solves, Krylov
/// iterations, subproblems' inner iterations.
fn work(stepper: &mut Stepper<3>, s0: &State, x1: &mut [f64]) -> [usize; 4] {
    let before = stepper.lu.stats();
    let mut report = StepReport::default();
    iterate(stepper, s0, x1, DT, &mut report).expect("correction");
    let after = stepper.lu.stats();
    [
        after.factorizations - before.factorizations,
        after.solves - before.solves,
        after.krylov_iterations - before.krylov_iterations,
        report.subproblem_iterations,
    ]
}

/// One untimed iteration from the fixed state: what it did and where its
/// time went (one run, wall clock of its parts); returns its work and
/// seconds.
fn describe(name: &str, stepper: &mut Stepper<3>, s0: &State) -> ([usize; 4], f64) {
    let mut x1 = restore(stepper, s0);
    let (lin0, tim0) = (stepper.lu.stats(), stepper.timing);
    let start = Instant::now();
    let did = work(stepper, s0, &mut x1);
    let secs = start.elapsed().as_secs_f64();
    let (lin, tim) = (stepper.lu.stats(), stepper.timing);
    // the points in contact at the iterate it corrected
    let active = stepper
        .contacts
        .points()
        .filter(|p| p.eval.active())
        .count();
    eprintln!(
        "{name} ({} dofs, {active} active points): {secs:.3} s; {} factorizations ({:.3} s), \
         {} solves with {} Krylov iterations ({:.3} s), {} inner iterations; assembly {:.3} s, \
         contact {:.3} s, subproblem {:.3} s",
        stepper.sys.n_dofs(),
        did[0],
        lin.factor_seconds - lin0.factor_seconds,
        did[1],
        did[2],
        lin.solve_seconds - lin0.solve_seconds,
        did[3],
        tim.assembly - tim0.assembly,
        tim.contact - tim0.contact,
        tim.subproblem - tim0.subproblem,
    );
    (did, secs)
}

fn benches(c: &mut Criterion) {
    let mut g = c.benchmark_group("contact_iteration");
    g.sample_size(10)
        .sampling_mode(SamplingMode::Flat)
        .warm_up_time(Duration::from_millis(100));
    let sizes = [
        (8, "saddle"),
        (12, "saddle"),
        (16, "saddle"),
        (8, "condensed"),
    ];
    for (n, system) in sizes {
        let (mut stepper, s0) = setup(n, system);
        let name = format!("{system}_{n}x{n}");
        let (did, secs) = describe(&name, &mut stepper, &s0);
        // ten samples of one iteration, without criterion's warning
        g.measurement_time(Duration::from_secs_f64((15.0 * secs).max(0.5)));
        g.bench_function(&name, |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let mut x1 = restore(&mut stepper, &s0);
                    let start = Instant::now();
                    let again = work(&mut stepper, &s0, &mut x1);
                    total += start.elapsed();
                    assert_eq!(again, did, "every sample does the same work");
                    black_box(&x1);
                }
                total
            })
        });
    }
    g.finish();
}

criterion_group!(contact_iteration, benches);
