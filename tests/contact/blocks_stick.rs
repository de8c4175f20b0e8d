//! The friction blocks' STICK case with a stated tangential regularization
//! (validation/friction_blocks/stick_mu08_regularized.toml): every contact
//! point sticks in the first contact step, the energy is conserved in every
//! step in which no point slips, at most 1.5 % of E₀ is dissipated over the
//! run (against 19 % unregularized: the cube's front row slips in
//! [0.3, 0.4], 0.52 % of E₀, and the five base nodes that come into
//! contact under the cube's face in [0.4, 0.5], second-pass points, slip as
//! they arrive, 0.83 %), and the cube tumbles (|wx| ≥ 0.5) by the end of that first contact
//! step, as in Love & Laursen 2003, Fig. 7 and 8.

use crate::common::fixture::Fixture;
use crate::common::history::{col, STEP_ENERGY};
use crate::common::run::run;

#[test]
fn regularized_stick_conserves_energy_and_tumbles_in_the_first_contact_step() {
    let run = run(&Fixture::file("validation/friction_blocks/stick_mu08_regularized.toml").text());
    let (s, h) = (&run.summary, &run.history);
    let at = |name: &str| h.header.iter().position(|c| c == name).unwrap();
    let (t, total, active, stick, slip) =
        (at("t"), at("total"), at("active"), at("stick"), at("slip"));
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
    assert!(
        worst <= STEP_ENERGY,
        "|ΔE| {worst:e} E0 in a step without slip"
    );
    assert!(
        s.dissipation <= 0.015 * e0,
        "dissipated {} of {e0}",
        s.dissipation
    );
    assert!(
        s.max_energy_drift <= STEP_ENERGY,
        "balance {:e}",
        s.max_energy_drift
    );
    // the cube tumbles in that step (bodies.csv: rows alternate base, cube)
    let b = run.csv("bodies.csv");
    let (bt, wx) = (col(&b, "t"), col(&b, "wx"));
    let k = (1..bt.len())
        .step_by(2)
        .find(|&k| (bt[k] - 0.3).abs() < 1e-9)
        .expect("the cube's row at t = 0.3");
    println!("wx(0.3) = {:.3}", wx[k]);
    assert!(wx[k].abs() >= 0.5, "wx(0.3) = {}", wx[k]);
}
