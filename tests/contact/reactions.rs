//! Reactions and contact resultants: the fixed base's
//! reaction balances the contact force on it and its inertial force — the
//! momentum balance of a supported body — in every step, for the friction
//! blocks and the golf ball (short versions). The three are computed
//! independently: the reaction from the residual at the fixed dofs, the
//! contact force from the pairs' per-point evaluations, the inertial force
//! here from the mass and the states.

use crate::common::fixture::Fixture;
use crate::common::run::{model, run};
use emcontact::driver;
use emcontact::dynamics::forces::ForceProbe;

fn blocks() -> String {
    Fixture::load("blocks_coarse").text()
}

/// The golf ball thrown at a club head held at its back face (the impact of
/// golf_ball.rs seen from the club).
fn golf() -> String {
    super::golf_ball::golf(0.5, true)
        .remove("body.1.velocity")
        .set("body.0.velocity", vec![16.9047, 0.0, -36.2523])
        .set("time.end", 0.5)
        .set("contact.0.penalty", 1150.0)
        .merge("[[boundary]]\ngroup = \"club_zmin\"\nfix = [\"x\", \"y\", \"z\"]")
        .text()
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}

/// Steps `text` by hand and checks, in every step, `R + F_c = I` for the
/// supported body `base` (no gravity): reaction, contact force and inertial
/// force summed over its nodes. Returns the number of steps with contact.
fn balance(text: &str, base: &str) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), text);
    let (mut stepper, mut s) = driver::setup::<3>(&model).expect("setup");
    let mut probe = ForceProbe::new(&model);
    let b = model.bodies.iter().position(|x| x.name == base).unwrap();
    let n = stepper.sys.n_dofs();
    let dt = model.time.dt;
    let mut touched = 0;
    let mut worst = 0.0f64;
    while s.t < model.time.end - 1e-9 {
        let (s1, report) = stepper.step(&s, dt).expect("step converges");
        let f = probe.evaluate(&stepper, &s, &s1, dt).unwrap();
        // inertial force c_M M (x1 − x0 − Δt v0), energy-momentum c_M = 2/Δt²
        let dx: Vec<f64> = (0..n).map(|i| s1.x[i] - s.x[i] - dt * s.v[i]).collect();
        let mut mdx = vec![0.0; n];
        stepper.sys.mass_times(&dx, &mut mdx);
        let (mut r, mut c, mut inertia) = ([0.0; 3], [0.0; 3], [0.0; 3]);
        for a in (0..stepper.sys.n_nodes).filter(|&a| stepper.sys.node_body[a] == b) {
            for i in 0..3 {
                r[i] += f.reaction[a * 3 + i];
                c[i] += f.contact[a * 3 + i];
                inertia[i] += 2.0 / (dt * dt) * mdx[a * 3 + i];
            }
        }
        // the base is the master side: the pair's resultant on it is minus the slave side's
        let p = &f.pairs[0];
        let master = [
            -(p.normal[0] + p.tangential[0]),
            -(p.normal[1] + p.tangential[1]),
            -(p.normal[2] + p.tangential[2]),
        ];
        let scale = norm(r).max(norm(c)).max(norm(inertia));
        if p.active > 0 {
            touched += 1;
            assert_eq!(
                p.active, report.active,
                "point counts agree with the stepper"
            );
            assert!(scale > 0.0);
            let miss = [
                r[0] + c[0] - inertia[0],
                r[1] + c[1] - inertia[1],
                r[2] + c[2] - inertia[2],
            ];
            let rel = norm(miss) / scale;
            worst = worst.max(rel);
            assert!(
                rel <= 1e-10,
                "t = {}: reaction {r:?} + contact {c:?} ≠ inertial {inertia:?} (relative {rel:.2e})",
                s1.t
            );
            let d = [master[0] - c[0], master[1] - c[1], master[2] - c[2]];
            assert!(
                norm(d) <= 1e-12 * norm(c),
                "t = {}: the pair's resultant {master:?} is not the nodal sum {c:?}",
                s1.t
            );
        }
        s = s1;
    }
    println!("{base}: {touched} contact steps, worst relative momentum balance of the supported body {worst:.2e}");
    touched
}

#[test]
fn blocks_base_reaction_balances_contact_and_inertia() {
    assert!(
        balance(&blocks(), "base") >= 3,
        "the cube must land on the base"
    );
}

#[test]
fn golf_club_reaction_balances_contact_and_inertia() {
    assert!(balance(&golf(), "club") >= 3, "the ball must hit the club");
}

#[test]
fn reactions_and_contacts_are_written() {
    let run = run(&blocks());
    let s = &run.summary;
    let r = run.csv("reactions.csv");
    assert_eq!(r.header, driver::REACTION_COLUMNS);
    assert_eq!(r.rows.len(), s.steps, "one support group, one row per step");
    let c = run.csv("contacts.csv");
    assert_eq!(c.header, driver::CONTACT_COLUMNS);
    assert_eq!(c.rows.len(), s.steps);
    let h = &run.history;
    // counts and the cumulative work agree with history.csv
    let col = |t: &emcontact::output::CsvTable, n: &str| t.column(n).unwrap();
    assert_eq!(col(&c, "active"), col(h, "active")[1..].to_vec());
    assert_eq!(col(&c, "slip"), col(h, "slip")[1..].to_vec());
    let (w, d) = (col(&c, "work"), col(h, "dissipation"));
    for k in 0..w.len() {
        assert!(
            (w[k] - d[k + 1]).abs() <= 1e-12 * d[k + 1].abs().max(1e-300),
            "{k}"
        );
    }
    assert!(*w.last().unwrap() > 0.0, "μ = 0.2: the cube slides");
    // a reaction while the cube presses on the base: upward (+z) on the base
    let fz = col(&r, "fz");
    let active = col(&c, "active");
    assert!(fz.iter().zip(&active).any(|(f, a)| *a > 0.0 && *f != 0.0));
}
