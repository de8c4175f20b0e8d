//! What a load or a prescribed motion adds to a step: one time step of a 3D
//! block (16×16×8 hex8, 7,803 dofs under `cargo bench`, 4×4×2 under `cargo
//! test`), base fixed, neo-Hookean, Δt far above the explicit limit, from
//! the same state each time, in four variants:
//!
//! * `plain`: the top face free, no load;
//! * `pressure`: a follower pressure on the top face (its force and load
//!   stiffness in every residual evaluation);
//! * `top_fixed` / `top_prescribed`: the top face fixed, or moving at a
//!   prescribed velocity (the same constrained dofs);
//!
//! and `pressure_assembly`, the pressure's own assembly (force and tangent)
//! once. The claim (docs/performance.md, "Driven steps"): `pressure` costs
//! `plain` plus its Newton evaluations times `pressure_assembly` (more
//! Newton iterations only where the load makes the step more nonlinear: the
//! counts are printed), and `top_prescribed` costs `top_fixed`.

use criterion::{criterion_group, Criterion};
use emcontact::driver;
use emcontact::dynamics::{State, Stepper};
use std::hint::black_box;
use std::path::Path;
use std::time::Duration;

const DT: f64 = 0.02;

fn input(div: [usize; 3], top: &str) -> String {
    format!(
        r#"
[problem]
name = "driven"
dimension = 3
[time]
dt = {DT}
end = 1.0
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0, 0.0]
max = [2.0, 2.0, 1.0]
divisions = [{}, {}, {}]
[[body]]
name = "b"
group = "b"
material = {{ model = "neo-hookean", young = 1000.0, poisson = 0.3, density = 1.0 }}
velocity = [0.0, 0.0, -0.2]
[[boundary]]
group = "b_zmin"
fix = ["x", "y", "z"]
{top}
"#,
        div[0], div[1], div[2]
    )
}

const PRESSURE: &str = "[[load]]\ngroup = \"b_zmax\"\npressure = 20.0";
const FIXED: &str = "[[boundary]]\ngroup = \"b_zmax\"\nfix = [\"x\", \"y\", \"z\"]";
const PRESCRIBED: &str =
    "[[boundary]]\ngroup = \"b_zmax\"\nvelocity = { x = 0.1, y = 0.0, z = -0.2 }";

fn setup(div: [usize; 3], top: &str) -> (Stepper<3>, State) {
    let model = emcontact::input::parse(Path::new("driven.toml"), &input(div, top)).expect("input");
    driver::setup::<3>(&model).expect("setup")
}

fn full_size() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn bench(c: &mut Criterion) {
    let div = if full_size() { [16, 16, 8] } else { [4, 4, 2] };
    let mut g = c.benchmark_group("driven_step");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(if full_size() { 20 } else { 1 }));
    for (name, top) in [
        ("plain", ""),
        ("pressure", PRESSURE),
        ("top_fixed", FIXED),
        ("top_prescribed", PRESCRIBED),
    ] {
        let (mut stepper, s0) = setup(div, top);
        let (_, report) = stepper.step(&s0, DT).expect("step converges");
        eprintln!(
            "{name}: {} dofs, {} Newton iterations per step",
            stepper.sys.n_dofs(),
            report.iterations
        );
        g.bench_function(name, |b| {
            b.iter(|| black_box(stepper.step(&s0, DT).expect("step")))
        });
    }
    // the pressure's own assembly: force and load stiffness once
    let (stepper, s0) = setup(div, PRESSURE);
    let n = stepper.sys.n_dofs();
    let mut f = vec![0.0; n];
    let mut k = vec![0.0; stepper.sys.pattern.nnz()];
    g.bench_function("pressure_assembly", |b| {
        b.iter(|| {
            stepper.drive.loads.add::<3>(
                0.5 * DT,
                &s0.x,
                &mut f,
                Some((&stepper.sys.pattern, &mut k, 0.5)),
            );
            black_box(&f);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
