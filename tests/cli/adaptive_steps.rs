//! Adaptive time steps (the driver's part): after a
//! cut-back the step grows back instead of retrying the full Δt every step.
//! The spinning ring of inputs/spinning_ring.toml at 10× its step (150× the
//! explicit one) with Newton limited to four
//! iterations fails every full step (Newton needs five there) and converges
//! at half of it: with the fixed-grid rule every Δt interval is cut back,
//! with the adaptive rule fewer than 20 % of the steps are. The steps never
//! exceed Δt, land exactly on the output times, and `history.csv` has the
//! Δt actually taken.

use crate::common::fixture::Fixture;
use crate::common::run::model;
use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::output::read_csv;

/// inputs/spinning_ring.toml at Δt = 1 (10× its step) to t = 30 with Newton
/// limited to four iterations, a frame every 3 steps.
fn spin(adaptive: bool) -> String {
    Fixture::file("inputs/spinning_ring.toml")
        .set("problem.name", "spin")
        .set("time.dt", 1.0)
        .set("time.end", 30.0)
        .set("time.adaptive", adaptive)
        .set("solver.max_iterations", 4)
        .remove("solver.tolerance")
        .remove("solver.max_cutbacks")
        .set("output.every", 3)
        .remove("body.0.mass")
        .text()
}

struct Run {
    summary: RunSummary,
    dts: Vec<f64>,
    ts: Vec<f64>,
    frames: Vec<f64>,
}

fn run(adaptive: bool) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), &spin(adaptive));
    let opts = RunOptions {
        plots: false,
        ..RunOptions::default()
    };
    let summary = driver::run(&model, &opts).expect("run completes");
    let h = read_csv(&model.output.dir.join("history.csv")).unwrap();
    let pvd = std::fs::read_to_string(model.output.dir.join("spin.pvd")).unwrap();
    let frames = pvd
        .lines()
        .filter_map(|l| l.split("timestep=\"").nth(1))
        .map(|r| r.split('"').next().unwrap().parse().unwrap())
        .collect();
    Run {
        summary,
        dts: h.column("dt").unwrap()[1..].to_vec(),
        ts: h.column("t").unwrap(),
        frames,
    }
}

#[test]
fn the_step_grows_back_after_a_cut_back() {
    let fixed = run(false);
    let adaptive = run(true);
    for (name, r) in [("fixed grid", &fixed), ("adaptive", &adaptive)] {
        let s = &r.summary;
        println!(
            "{name}: {} steps, {} cut-backs ({:.1} %), smallest step {:.4}, energy drift {:.1e}",
            s.steps,
            s.cutbacks,
            100.0 * s.cutbacks as f64 / s.steps as f64,
            s.smallest_dt,
            s.max_energy_drift
        );
        assert_eq!(r.dts.len(), s.steps, "{name}: one history row per step");
        assert!(
            r.dts.iter().all(|&d| d > 0.0 && d <= 1.0),
            "{name}: 0 < Δt ≤ time.dt"
        );
        let min = r.dts.iter().cloned().fold(f64::INFINITY, f64::min);
        assert_eq!(
            min, s.smallest_dt,
            "{name}: the summary's smallest step is history's"
        );
        // the dt column is the step taken: t advances by it (to round-off)
        for k in 0..r.dts.len() {
            assert!(
                (r.ts[k + 1] - r.ts[k] - r.dts[k]).abs() <= 1e-12,
                "{name}: row {k}"
            );
        }
        // frames exactly at k · every · dt, and at the end
        let want: Vec<f64> = (0..=10).map(|k| (3 * k) as f64).collect();
        assert_eq!(r.frames, want, "{name}: output times hit exactly");
        assert!(
            s.max_energy_drift < 1e-9,
            "{name}: energy {:.1e}",
            s.max_energy_drift
        );
    }
    // the old rule: every Δt interval fails first
    assert!(
        fixed.summary.cutbacks >= 30,
        "the model must need cut-backs at the full step ({} of 30 intervals)",
        fixed.summary.cutbacks
    );
    let share = adaptive.summary.cutbacks as f64 / adaptive.summary.steps as f64;
    assert!(
        share < 0.2,
        "adaptive: {:.1} % of the steps cut back",
        100.0 * share
    );
    assert!(
        adaptive.summary.steps < fixed.summary.steps,
        "fewer steps than halving every interval"
    );
}
