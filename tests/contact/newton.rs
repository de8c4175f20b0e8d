//! The contact Newton:
//! the multipliers inside Newton converge quadratically with the exact
//! tangent, a contact step of the friction blocks takes a handful of
//! iterations and no cut-back, exact enforcement meets the Coulomb law of
//! its subproblems to 1e-10, and every subproblem can be written as an FCLIB
//! file that the library reads back and solves.

use crate::common::fixture::Fixture;
use crate::common::history::PENETRATION_H;
use crate::common::python::fclib_check;
use crate::common::run::{emcontact, printed, stderr, write_input};
use emcontact::driver;
use emcontact::dynamics::StepReport;
use emcontact::input;
use std::path::Path;

/// The friction blocks of the validation (coarse mesh, Δt = 0.1) with
/// friction `mu`, `enforcement`, the default contact tolerance, to `end`.
fn blocks(mu: f64, enforcement: &str, end: f64) -> Fixture {
    Fixture::file("validation/friction_blocks/stick_mu08.toml")
        .set("time.end", end)
        .set("contact.0.friction", mu)
        .set("contact.0.enforcement", enforcement)
}

/// Every step of `text` from t = 0 by the input's Δt (no cut-back allowed).
fn steps(text: &str, dump: Option<&Path>) -> Vec<StepReport> {
    let model = input::parse(Path::new("blocks.toml"), text).expect("valid input");
    let (mut stepper, mut s) = driver::setup::<3>(&model).expect("setup");
    stepper.dump_contact = dump.map(Path::to_path_buf);
    let mut out = Vec::new();
    while s.t < model.time.end - 1e-9 {
        let (s1, r) = stepper
            .step(&s, model.time.dt)
            .unwrap_or_else(|e| panic!("step from t = {} at the full Δt: {e}", s.t));
        s = s1;
        out.push(r);
    }
    out
}

/// `r_{k+1} ≤ 10 r_k² + 1e-12` wherever the residual decreases from below 1e-3:
/// quadratic convergence to the round-off floor.
fn assert_quadratic(h: &[f64], what: &str) {
    let mut seen = 0;
    for w in h.windows(2) {
        let (a, b) = (w[0], w[1]);
        if a < 1e-3 && a > 1e-11 && b < a {
            seen += 1;
            assert!(
                b <= 10.0 * a * a + 1e-12,
                "{what}: {a:.3e} → {b:.3e} in {h:?}"
            );
        }
    }
    assert!(seen >= 1, "{what}: no convergent pair in {h:?}");
}

#[test]
fn the_first_contact_step_converges_quadratically() {
    for enforcement in ["exact", "augmented-lagrangian"] {
        let reports = steps(&blocks(0.8, enforcement, 0.3).text(), None);
        let first = &reports[2];
        assert!(first.active > 0, "{enforcement}: contact in [0.2, 0.3]");
        println!("{enforcement}: residuals {:?}", first.residual_history);
        assert_quadratic(&first.residual_history, enforcement);
    }
}

/// Every step of the blocks, μ = 0.2 and 0.8, exact and augmented-Lagrangian,
/// converges at the full Δt to Newton's tolerance (1e-10 relative residual).
/// How many iterations the contact steps take is a cost, not a contract:
/// benches/counts.rs records it against its baseline.
#[test]
fn every_contact_step_converges_at_the_full_step() {
    for mu in [0.2, 0.8] {
        for enforcement in ["exact", "augmented-lagrangian"] {
            let reports = steps(&blocks(mu, enforcement, 0.7).text(), None);
            let contact: Vec<&StepReport> = reports.iter().filter(|r| r.active > 0).collect();
            let its: Vec<usize> = contact.iter().map(|r| r.iterations).collect();
            println!("μ = {mu}, {enforcement}: Newton iterations of the contact steps {its:?}");
            assert!(contact.len() >= 3, "contact steps {its:?}");
            for r in contact {
                let last = *r.residual_history.last().unwrap();
                assert!(
                    last <= 1e-10,
                    "μ = {mu}, {enforcement}: final residual {last:e}"
                );
            }
        }
    }
}

#[test]
fn exact_enforcement_meets_the_coulomb_law_of_every_subproblem_without_penetration() {
    let reports = steps(&blocks(0.2, "exact", 0.5).text(), None);
    let contact: Vec<&StepReport> = reports.iter().filter(|r| r.active > 0).collect();
    assert!(!contact.is_empty());
    for r in contact {
        assert!(r.subproblems > 0);
        assert!(
            r.subproblem_error <= 1e-10,
            "FCLIB error of a subproblem {:e}",
            r.subproblem_error
        );
        // no node of either block deeper than the contact tolerance (1e-10 h)
        // in the other, the sliding (persistent) points included
        assert!(
            r.max_penetration_h <= PENETRATION_H,
            "penetration {:e} h",
            r.max_penetration_h
        );
    }
}

/// `--dump-contact`: the first contact step's subproblems are FCLIB files that
/// the library reads back, `emcontact fc solve` solves to 1e-8, and an
/// independent numpy/h5py check (`tests/common/fclib_check.py`) accepts.
#[test]
fn contact_subproblems_are_written_as_fclib_files() {
    use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
    let dir = tempfile::tempdir().unwrap();
    let dump = dir.path().join("dump");
    // one pass: the problem holds the cube's 25 bottom nodes
    let text = blocks(0.8, "exact", 0.3).set("contact.0.passes", 1).text();
    let reports = steps(&text, Some(&dump));
    let first = &reports[2];
    assert!(first.subproblems > 0);
    let mut files: Vec<_> = std::fs::read_dir(&dump)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    // one file per subproblem (the approach builds some before touch-down)
    let total: usize = reports.iter().map(|r| r.subproblems).sum();
    assert_eq!(files.len(), total, "{files:?}");
    let before: usize = reports[..2].iter().map(|r| r.subproblems).sum();
    let file = &files[before];
    assert!(file.ends_with(format!("contact_{:05}.hdf5", before + 1)));
    let (p, info) = read_problem(file).expect("the library reads the file back");
    let FclibProblem::Local(p) = p else {
        panic!("a reduced (fclib_local) problem")
    };
    assert_eq!((p.dim, p.n_contacts), (3, 25));
    assert!(info.is_some_and(|i| i.title.contains("emcontact")));
    let sol = dir.path().join("solution.hdf5");
    let o = emcontact(&[
        "fc",
        "solve",
        "--tol",
        "1e-8",
        "--output",
        sol.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "fc solve: {}", printed(&o));
    // the same through the command line and the input key
    let text = blocks(0.8, "exact", 0.3)
        .set("output.contact_problems", true)
        .text();
    let input = write_input(dir.path(), "blocks.toml", &text);
    let out = dir.path().join("run");
    let o = emcontact(&[
        "run",
        "-q",
        "--out",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let n = std::fs::read_dir(out.join("contact_problems"))
        .unwrap()
        .count();
    assert_eq!(n, total, "[output] contact_problems = true");
    let (ok, e) = fclib_check(file, &sol, 1e-8);
    assert!(ok, "the independent numpy/h5py check finds error {e:e}");
}
