//! Two-pass contact (issue "Contact a user can trust on their own model",
//! item 1): with `passes = 2` each surface is slave and master in turn, so
//! that neither sinks into the other, and the energy balance and momenta stay
//! exact; with one pass the master's nodes are still measured, so that
//! `max_penetration` reports the deepest node of either surface.

use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::input;

/// The ring impact of the validation (velocity update, μ = 0.5) to t = 1.2:
/// the rings touch from t = 0.59.
fn rings(passes: u8) -> String {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/validation/ring_impact/velocity_update.toml"
    ))
    .unwrap();
    text.replace("end = 6.0", "end = 1.2")
        .replace("passes = 2", &format!("passes = {passes}"))
}

/// Runs `text`; returns the summary and the largest `max_penetration_h`.
fn run(text: &str) -> (RunSummary, f64) {
    let dir = tempfile::tempdir().unwrap();
    let mut model = input::parse(&dir.path().join("case.toml"), text).expect("valid input");
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&model, &opts).expect("run completes");
    let h = emcontact::output::read_csv(&model.output.dir.join("history.csv")).unwrap();
    let c = h
        .header
        .iter()
        .position(|c| c == "max_penetration_h")
        .unwrap();
    let deepest = h.rows.iter().map(|r| r[c]).fold(0.0, f64::max);
    (s, deepest)
}

#[test]
fn two_passes_keep_either_ring_out_of_the_other() {
    let (s, deepest) = run(&rings(2));
    println!(
        "rings, two passes: deepest {deepest:.2e} h, balance {:.2e}, L {:.2e}, J {:.2e}, cut-backs {}",
        s.max_energy_drift, s.max_linear_drift, s.max_angular_drift, s.cutbacks
    );
    assert!(s.dissipation > 0.0, "the rings must touch and slip");
    assert!(deepest <= 1e-3, "deepest node {deepest:e} h");
    assert!(
        s.max_energy_drift <= 1e-8,
        "balance {:e}",
        s.max_energy_drift
    );
    assert!(s.max_linear_drift <= 1e-10, "L {:e}", s.max_linear_drift);
    assert!(s.max_angular_drift <= 1e-10, "J {:e}", s.max_angular_drift);
    assert_eq!(s.cutbacks, 0);
}

#[test]
fn one_pass_measures_the_master_nodes_too() {
    // one pass enforces the slave nodes only: ring 2's nodes sink into
    // ring 1 by more than 1e-3 h, and the history says so
    let (s, deepest) = run(&rings(1));
    println!("rings, one pass: deepest {deepest:.2e} h");
    assert!(
        s.max_energy_drift <= 1e-8,
        "balance {:e}",
        s.max_energy_drift
    );
    assert!(deepest > 1e-3, "deepest node {deepest:e} h");
}
