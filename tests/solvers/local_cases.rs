//! Hand-computed special cases for every registered local solver: frictionless
//! (μ = 0), take-off (q_N > 0 → r = 0), pure stick, and slip with a diagonal
//! W in 2D and 3D. Each answer is asserted to 1e-10 (relative to |r| or |q|).

use emcontact::nonsmooth::local::{
    by_name, enumerate_all2, enumerate_all3, natural_map, project_cone, solvers, Enumerative,
    LocalInfo, LocalParams, LocalSolver, SlipQuartic,
};
use nalgebra::{Matrix2, Matrix3, SVector, Vector2, Vector3};

fn params() -> LocalParams {
    LocalParams {
        tol: 1e-12,
        max_iter: 5000,
    }
}

/// Every registered solver finds `expect` (to 1e-10 relative to 1 + |r|),
/// and the enumeration of all solutions (`all`) finds it alone.
fn check_all<const D: usize, E>(
    solve: impl Fn(&dyn LocalSolver, &mut SVector<f64, D>) -> Result<LocalInfo, E>,
    all: Vec<SVector<f64, D>>,
    expect: &SVector<f64, D>,
    what: &str,
) where
    E: std::fmt::Debug,
{
    for s in solvers() {
        let mut r = SVector::zeros();
        let res = solve(s.as_ref(), &mut r);
        assert!(res.is_ok(), "{what}: {} failed: {res:?}", s.name());
        let d = (r - expect).norm();
        assert!(
            d <= 1e-10 * (1.0 + expect.norm()),
            "{what}: {} gave {r:?}, expected {expect:?}",
            s.name()
        );
    }
    assert_eq!(all.len(), 1, "{what}: the enumeration found {all:?}");
}

fn check3(w: &Matrix3<f64>, q: &Vector3<f64>, mu: f64, expect: &Vector3<f64>, what: &str) {
    let solve = |s: &dyn LocalSolver, r: &mut Vector3<f64>| s.solve3(w, q, mu, r, &params());
    check_all(solve, enumerate_all3(w, q, mu), expect, what);
}

fn check2(w: &Matrix2<f64>, q: &Vector2<f64>, mu: f64, expect: &Vector2<f64>, what: &str) {
    let solve = |s: &dyn LocalSolver, r: &mut Vector2<f64>| s.solve2(w, q, mu, r, &params());
    check_all(solve, enumerate_all2(w, q, mu), expect, what);
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

#[test]
fn several_solutions_2d_hand_computed() {
    // W = [[1.5, 1.5], [1.5, 1.7]], q = (0.2, 0.6), μ = 1.9 has three solutions:
    // take-off r = 0 (q_N > 0); stick r = −W⁻¹q = (28/15, −2) (|r_T| = 2 < μ r_N);
    // slip r_T = −μ r_N with u_N = (1.5 − 1.5μ) r_N + 0.2 = 0 → r_N = 4/27,
    // r_T = −1.9·4/27, u_T = 1.5 r_N + 1.7 r_T + 0.6 > 0.
    let w = Matrix2::new(1.5, 1.5, 1.5, 1.7);
    let q = Vector2::new(0.2, 0.6);
    let mu = 1.9;
    let expect = [
        Vector2::zeros(),
        Vector2::new(28.0 / 15.0, -2.0),
        Vector2::new(4.0 / 27.0, -1.9 * 4.0 / 27.0),
    ];
    let all = enumerate_all2(&w, &q, mu);
    assert_eq!(all.len(), 3, "{all:?}");
    for e in &expect {
        assert!(
            all.iter().any(|a| (a - e).norm() < 1e-12),
            "{e:?} missing from {all:?}"
        );
    }
    for s in solvers() {
        let mut r = Vector2::zeros();
        if s.solve2(&w, &q, mu, &mut r, &params()).is_ok() {
            assert!(
                expect.iter().any(|e| (r - e).norm() < 1e-9),
                "{}: {r:?} is not a solution",
                s.name()
            );
        }
    }
}

#[test]
fn several_solutions_3d() {
    // Found by search: three solutions (take-off, stick inside K, slip on ∂K).
    let w = Matrix3::new(1.18, 0.63, -0.49, 0.63, 1.07, -1.0, -0.49, -1.0, 2.1);
    let q = Vector3::new(0.02, 0.38, -0.48);
    let mu = 2.0;
    let all = enumerate_all3(&w, &q, mu);
    assert_eq!(all.len(), 3, "{all:?}");
    for a in &all {
        assert!(natural_map(&w, &q, mu, a).norm() < 1e-13, "{a:?}");
        let nt = a[1].hypot(a[2]);
        assert!(nt <= mu * a[0] + 1e-13);
    }
    // Each quartic variant returns one of them.
    for quartic in [SlipQuartic::Alpha, SlipQuartic::TanHalfAngle] {
        let mut r = Vector3::zeros();
        Enumerative::new(quartic)
            .solve3(&w, &q, mu, &mut r, &params())
            .unwrap();
        assert!(all.iter().any(|a| (a - r).norm() < 1e-10));
    }
    for s in solvers() {
        let mut r = Vector3::zeros();
        if s.solve3(&w, &q, mu, &mut r, &params()).is_ok() {
            assert!(
                all.iter().any(|a| (a - r).norm() < 1e-8 * (1.0 + a.norm())),
                "{}: {r:?}",
                s.name()
            );
        }
    }
}

#[test]
fn unreachable_tolerance_stops_at_the_roundoff_floor() {
    // tol below round-off: the Newton-type solvers reach the floor
    // (‖F_nat‖ ~ 1e-16 here) and stop early instead of running all 100
    // iterations with escalating fallbacks.
    let w = w3();
    let q = Vector3::new(-1.0, 2.0, -0.5);
    let p = LocalParams {
        tol: 1e-300,
        max_iter: 100,
    };
    for name in [
        "ac-newton",
        "jm-newton",
        "nm-newton",
        "nsfe",
        "nsve",
        "ebp",
        "eal",
    ] {
        let mut r = Vector3::zeros();
        match by_name(name).unwrap().solve3(&w, &q, 0.4, &mut r, &p) {
            Ok(info) => assert_eq!(info.error, 0.0, "{name}"),
            Err(emcontact::nonsmooth::local::LocalError::NoConvergence { error, iterations }) => {
                assert!(error < 1e-14, "{name}: error {error:e}");
                assert!(iterations < 30, "{name}: {iterations} iterations");
            }
            Err(e) => panic!("{name}: {e:?}"),
        }
    }
}

#[test]
fn non_finite_input_is_an_error_not_a_hang() {
    let mut w = w3();
    w[(1, 2)] = f64::NAN;
    let q = Vector3::new(-1.0, 0.5, 0.0);
    for s in solvers() {
        let mut r = Vector3::zeros();
        assert!(
            s.solve3(&w, &q, 0.5, &mut r, &params()).is_err(),
            "{}",
            s.name()
        );
    }
}
