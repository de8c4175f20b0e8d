//! The friction blocks' STICK case with a stated tangential regularization
//! (issue "Contact a user can trust on their own model", acceptance 3;
//! validation/friction_blocks/stick_mu08_regularized.toml): every contact
//! point sticks in the first contact step, the energy is conserved in every
//! step in which no point slips, at most 1 % of E₀ is dissipated over the
//! run, and the cube tumbles (|wx| ≥ 0.5) by the end of that first contact
//! step, as in Love & Laursen 2003, Fig. 7 and 8.

use emcontact::driver::{self, RunOptions};
use emcontact::input;
use emcontact::output::read_csv;

#[test]
fn regularized_stick_conserves_energy_and_tumbles_in_the_first_contact_step() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/validation/friction_blocks/stick_mu08_regularized.toml"
    );
    let text = std::fs::read_to_string(path).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut model = input::parse(std::path::Path::new(path), &text).expect("valid input");
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&model, &opts).expect("run completes");
    let h = read_csv(&model.output.dir.join("history.csv")).unwrap();
    let col = |name: &str| h.header.iter().position(|c| c == name).unwrap();
    let (t, total, active, stick, slip) = (
        col("t"),
        col("total"),
        col("active"),
        col("stick"),
        col("slip"),
    );
    let e0 = h.rows[0][total];
    // the first contact step: every active point sticks
    let first = h
        .rows
        .iter()
        .position(|r| r[active] > 0.0)
        .expect("contact");
    let r = &h.rows[first];
    println!(
        "first contact step to t = {}: {} stick, {} slip",
        r[t], r[stick], r[slip]
    );
    assert!((r[t] - 0.3).abs() < 1e-9, "first contact at t = {}", r[t]);
    assert_eq!((r[stick], r[slip]), (r[active], 0.0));
    // energy conserved in every step without slip
    let mut worst = 0.0f64;
    for w in h.rows.windows(2) {
        if w[1][slip] == 0.0 {
            worst = worst.max((w[1][total] - w[0][total]).abs() / e0);
        }
    }
    println!(
        "no-slip steps: |ΔE| ≤ {worst:.2e} E0; dissipated {:.4} E0",
        s.dissipation / e0
    );
    assert!(worst <= 1e-8, "|ΔE| {worst:e} E0 in a step without slip");
    assert!(
        s.dissipation <= 0.01 * e0,
        "dissipated {} of {e0}",
        s.dissipation
    );
    assert!(
        s.max_energy_drift <= 1e-8,
        "balance {:e}",
        s.max_energy_drift
    );
    // the cube tumbles in that step
    let b = read_csv(&model.output.dir.join("bodies.csv")).unwrap();
    let (bt, wx) = (
        b.header.iter().position(|c| c == "t").unwrap(),
        b.header.iter().position(|c| c == "wx").unwrap(),
    );
    let cube = b
        .rows
        .iter()
        .skip(1)
        .step_by(2)
        .find(|r| (r[bt] - 0.3).abs() < 1e-9)
        .expect("the cube's row at t = 0.3");
    println!("wx(0.3) = {:.3}", cube[wx]);
    assert!(cube[wx].abs() >= 0.5, "wx(0.3) = {}", cube[wx]);
}
