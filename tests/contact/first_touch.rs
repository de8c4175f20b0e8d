//! A step in which a contact face first closes from a distance ends where
//! the faces are predicted to touch (`contact::touch`), and the impact is
//! the next step's. On the friction blocks (the cube 0.28 above the base,
//! falling at 1, Δt = 0.1, μ = 0.8 sticking: at t = 0.2 the gap is a third
//! of a face, outside the quarter face where a pair counts as engaged) with
//! the policy's point count
//! lowered to 1: the step 0.2 → 0.3 is the one predicted to close, the step
//! ended at the touch is free flight (no point in contact, every gap open,
//! its energy kept), the faces are then within the band where the next step
//! starts engaged, and every later step meets the Coulomb law (checked from
//! the tractions) without a cut-back or a gain of energy.
//!
//! The same with a finer cube (16² faces, h = 1/16) 0.16 above the base at
//! the start of a step of 0.2 at t = 0.2: farther than the two face sizes
//! the narrow phase looks, so no slave has a face at `t_n` and the touch is
//! predicted from the faces the broad phase says each may reach.

use crate::common::coulomb::assert_coulomb;
use crate::common::fixture::Fixture;
use emcontact::driver::{self, control::StepControl};
use emcontact::dynamics::{measure, State, StepError, Stepper};
use emcontact::input;
use std::path::Path;

fn energy(stepper: &Stepper<3>, s: &State) -> f64 {
    let mut mv = vec![0.0; s.v.len()];
    measure::<3>(&stepper.sys, &s.x, &s.v, &[0.0; 3], &mut mv)
        .expect("a valid state")
        .total()
}

#[test]
fn a_step_ends_where_a_face_first_touches_and_the_impact_is_the_next() {
    let text = Fixture::file("validation/friction_blocks/stick_mu08.toml")
        .set("time.end", 0.5)
        .set("mesh.generate.1.min", vec![0.5, 0.0, 1.28])
        .set("mesh.generate.1.max", vec![1.5, 1.0, 2.28])
        .set("solver.contact_system", "saddle")
        .text();
    lands_after_a_split(&text);
}

#[test]
fn a_touch_beyond_the_narrow_phase_is_predicted_from_the_broad_phase() {
    let text = Fixture::file("validation/friction_blocks/stick_mu08.toml")
        .set("time.dt", 0.2)
        .set("time.end", 0.6)
        .set("mesh.generate.1.min", vec![0.5, 0.0, 1.36])
        .set("mesh.generate.1.max", vec![1.5, 1.0, 2.36])
        .set("mesh.generate.1.divisions", vec![16, 16, 4])
        .set("solver.contact_system", "saddle")
        .text();
    lands_after_a_split(&text);
}

/// Steps `text`'s model (the policy's point count lowered to 1) and asserts
/// the module docs' sequence: one step ends at the predicted touch, free
/// flight that ends within a quarter face; the later steps meet the law.
fn lands_after_a_split(text: &str) {
    let model = input::parse(Path::new("blocks.toml"), text).expect("valid input");
    let (mut stepper, mut s) = driver::setup::<3>(&model).expect("setup");
    stepper.policy.touch.min_points = 1;
    let t = &model.time;
    let mut control = StepControl::new(t.dt, t.dt_min, t.end, t.adaptive, 5, 1);
    let e0 = energy(&stepper, &s);
    let mut predicted = None;
    let mut touched = false;
    while !control.done(s.t) {
        // (the step the controller will take, tried on its own while no
        // touch has been predicted: once the faces touch it is a contact step)
        let probe = predicted.is_none().then(|| stepper.step(&s, t.dt));
        if let Some(Err(StepError::FirstTouch { dt, points })) = probe {
            assert!(
                (0.1 * t.dt..=0.9 * t.dt).contains(&dt),
                "touch at {dt} into the step"
            );
            assert!(points > 0);
            predicted = Some((s.t, dt));
        }
        let (s1, report, size) = control.step(&mut stepper, &s).expect("no failed step");
        let split = predicted.filter(|&(t0, _)| t0 == s.t);
        if split.is_none() {
            // (the helper expects contact after t = 0.25, where the blocks
            // 0.25 apart touch; these touch at 0.28)
            assert_coulomb(&stepper.contacts, s1.t);
        }
        let (e_before, e_after) = (energy(&stepper, &s), energy(&stepper, &s1));
        // sticking and free flight keep the energy; contact never adds any
        assert!(
            e_after <= e_before + 1e-10 * e0,
            "t = {}: energy gained",
            s1.t
        );
        if let Some((t0, dt)) = split {
            assert_eq!(size, dt, "the step ends at the predicted touch");
            assert_eq!(
                report.active, 0,
                "t = {}: the step ended at the touch is free flight",
                s1.t
            );
            assert!(
                (e_after - e_before).abs() <= 1e-10 * e0,
                "free flight keeps its energy"
            );
            let gaps: Vec<(f64, f64)> = stepper
                .contacts
                .points()
                .filter(|p| p.pass == 1 && p.eval.g1.is_finite())
                .map(|p| (p.eval.g1, p.h))
                .collect();
            assert!(
                gaps.iter().all(|&(g, _)| g > 0.0),
                "t = {}: a gap closed",
                s1.t
            );
            let near = gaps.iter().any(|&(g, h)| g < 0.25 * h);
            assert!(
                near,
                "from t = {t0}: the faces end within a quarter face of touching"
            );
        }
        touched |= report.active > 0;
        s = s1;
    }
    assert!(predicted.is_some(), "the first contact was predicted");
    assert!(touched, "the blocks came into contact");
    assert_eq!(control.splits, 1);
    assert_eq!(control.cutbacks, 0);
}
