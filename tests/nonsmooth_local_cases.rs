//! Hand-computed special cases for every registered local solver: frictionless
//! (μ = 0), take-off (q_N > 0 → r = 0), pure stick, and slip with a diagonal
//! W in 2D and 3D. Each answer is asserted to 1e-10 (relative to |r| or |q|).

use emcontact::nonsmooth::local::{
    by_name, enumerate_all2, enumerate_all3, natural_map, project_cone, solvers, Enumerative,
    LocalParams, LocalSolver, SlipQuartic,
};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};

fn params() -> LocalParams {
    LocalParams {
        tol: 1e-12,
        max_iter: 5000,
    }
}

fn check3(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, expect: &Vector3<f64>, what: &str) {
    for s in solvers() {
        let mut r = Vector3::zeros();
        let res = s.solve3(w, q, mu, &mut r, &params());
        assert!(res.is_ok(), "{what}: {} failed: {res:?}", s.name());
        let d = (r - expect).norm();
        assert!(
            d <= 1e-10 * (1.0 + expect.norm()),
            "{what}: {} gave {r:?}, expected {expect:?}",
            s.name()
        );
    }
    let all = enumerate_all3(w, q, mu);
    assert_eq!(all.len(), 1, "{what}: enumerate_all3 found {all:?}");
}

fn check2(w: &Matrix2<f64>, q: &Vector2<f64>, mu: f64, expect: &Vector2<f64>, what: &str) {
    for s in solvers() {
        let mut r = Vector2::zeros();
        let res = s.solve2(w, q, mu, &mut r, &params());
        assert!(res.is_ok(), "{what}: {} failed: {res:?}", s.name());
        let d = (r - expect).norm();
        assert!(
            d <= 1e-10 * (1.0 + expect.norm()),
            "{what}: {} gave {r:?}, expected {expect:?}",
            s.name()
        );
    }
    let all = enumerate_all2(w, q, mu);
    assert_eq!(all.len(), 1, "{what}: enumerate_all2 found {all:?}");
}

fn w3() -> Matrix3<f64> {
    Matrix3::new(2.0, 0.3, -0.2, 0.3, 1.5, 0.1, -0.2, 0.1, 1.0)
}

#[test]
fn registered_names() {
    let names: Vec<_> = solvers().iter().map(|s| s.name()).collect();
    assert_eq!(
        names,
        [
            "pg",
            "desaxce",
            "ac-newton",
            "jm-newton",
            "nm-newton",
            "nsfe",
            "nsve",
            "sal",
            "ebp",
            "eal",
            "enum",
            "enum-tan"
        ]
    );
    for n in names {
        assert_eq!(by_name(n).unwrap().name(), n);
        assert!(!by_name(n).unwrap().description().is_empty());
    }
    assert!(by_name("spring-dashpot").is_none());
}

#[test]
fn frictionless_mu_zero() {
    // μ = 0: r_T = 0 and r_N = max(0, −q_N/W_NN).
    let w = w3();
    let q = Vector3::new(-1.0, 0.7, -0.4);
    check3(&w, &q, 0.0, &Vector3::new(0.5, 0.0, 0.0), "3D mu=0");
    let w2 = Matrix2::new(2.0, 0.5, 0.5, 1.0);
    check2(
        &w2,
        &Vector2::new(-1.0, 0.7),
        0.0,
        &Vector2::new(0.5, 0.0),
        "2D mu=0",
    );
    // project_cone with μ = 0 keeps r_N ≥ 0 (K includes r_N ≥ 0).
    assert_eq!(
        project_cone(&Vector3::new(-1.0, 0.0, 0.0), 0.0),
        Vector3::zeros()
    );
}

#[test]
fn take_off_when_qn_positive() {
    let w = w3();
    check3(
        &w,
        &Vector3::new(0.3, 0.7, -0.4),
        0.8,
        &Vector3::zeros(),
        "3D take-off",
    );
    let w2 = Matrix2::new(2.0, 0.5, 0.5, 1.0);
    check2(
        &w2,
        &Vector2::new(0.3, -2.0),
        0.8,
        &Vector2::zeros(),
        "2D take-off",
    );
}

#[test]
fn pure_stick() {
    // W = I: r = −q, ‖r_T‖ = 0.1 < μ r_N = 1.
    let q = Vector3::new(-1.0, 0.1, 0.0);
    check3(
        &Matrix3::identity(),
        &q,
        1.0,
        &Vector3::new(1.0, -0.1, 0.0),
        "3D stick",
    );
    check2(
        &Matrix2::identity(),
        &Vector2::new(-1.0, 0.1),
        1.0,
        &Vector2::new(1.0, -0.1),
        "2D stick",
    );
}

#[test]
fn diagonal_slip_hand_computed() {
    // W = diag(2, 1), q = (−4, 3), μ = 0.5: u_N = 0 gives r_N = 2; the stick
    // force r_T = −3 exceeds μr_N = 1, so r_T = −1 and u_T = −1 + 3 = 2 > 0
    // (opposite to r_T).
    let w2 = Matrix2::new(2.0, 0.0, 0.0, 1.0);
    check2(
        &w2,
        &Vector2::new(-4.0, 3.0),
        0.5,
        &Vector2::new(2.0, -1.0),
        "2D slip",
    );
    // Same in 3D, slip along a rotated tangent: q_T = 3(0.6, 0.8).
    let w = Matrix3::from_diagonal(&Vector3::new(2.0, 1.0, 1.0));
    check3(
        &w,
        &Vector3::new(-4.0, 1.8, 2.4),
        0.5,
        &Vector3::new(2.0, -0.6, -0.8),
        "3D slip",
    );
}

#[test]
fn enum_variants_agree_and_ignore_initial_guess() {
    let w = w3();
    let q = Vector3::new(-1.0, 2.0, -0.5);
    let a = Enumerative::new(SlipQuartic::Alpha);
    let t = Enumerative::new(SlipQuartic::TanHalfAngle);
    let mut ra = Vector3::new(5.0, 5.0, 5.0);
    let mut rt = Vector3::zeros();
    a.solve3(&w, &q, 0.4, &mut ra, &params()).unwrap();
    t.solve3(&w, &q, 0.4, &mut rt, &params()).unwrap();
    assert!((ra - rt).norm() < 1e-10 * ra.norm());
    assert!(natural_map(&w, &q, 0.4, &ra).norm() < 1e-12);
    // Sliding case: on the cone boundary with r_N > 0.
    let rtn = ra[1].hypot(ra[2]);
    assert!(ra[0] > 0.0 && (rtn - 0.4 * ra[0]).abs() < 1e-12);
}

#[test]
fn failure_reports_last_iterate() {
    // One iteration of the projected gradient cannot reach 1e-14 on a
    // badly conditioned problem: NoConvergence with the error of r.
    let w = Matrix3::from_diagonal(&Vector3::new(1.0, 1e-4, 1e-4));
    let q = Vector3::new(-1.0, 0.01, 0.0);
    let mut r = Vector3::zeros();
    let res = by_name("pg").unwrap().solve3(
        &w,
        &q,
        0.5,
        &mut r,
        &LocalParams {
            tol: 1e-14,
            max_iter: 1,
        },
    );
    match res {
        Err(emcontact::nonsmooth::local::LocalError::NoConvergence { error, iterations }) => {
            assert_eq!(iterations, 1);
            assert!((error - natural_map(&w, &q, 0.5, &r).norm()).abs() < 1e-15);
        }
        other => panic!("expected NoConvergence, got {other:?}"),
    }
}
