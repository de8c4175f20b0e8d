//! The default solver (`auto`): it solves what one of the library's solvers solves,
//! checked by the independent natural-map measure; it says so when it does not; the
//! stall test does not stop a solver whose error is still descending steadily.

use std::path::PathBuf;

use emcontact::nonsmooth::fclib::{self, FclibProblem};
use emcontact::nonsmooth::global::auto::{Auto, Family};
use emcontact::nonsmooth::problem::LocalProblem;
use emcontact::nonsmooth::{self, Control, SolveError};
use faer::sparse::{SparseColMat, Triplet};

use super::check::natural_map_error;

fn problem(name: &str) -> LocalProblem {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/siconos-dat")
        .join(name);
    match fclib::read_problem(path).unwrap().0 {
        FclibProblem::Local(p) => p,
        FclibProblem::Global(_) => panic!("expected a local problem"),
    }
}

/// Solves from zero; on `Ok`, the independent check must confirm the tolerance.
fn solve(p: &LocalProblem, solver: &str) -> Result<f64, SolveError> {
    let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
    let info = nonsmooth::solve(p, &mut r, &mut u, solver, &Control::default())?;
    let e = natural_map_error(p, &r);
    assert!(
        e <= 1e-8,
        "{solver} claims {:e}, the independent check finds {e:e}",
        info.error
    );
    Ok(e)
}

#[test]
fn default_is_auto() {
    assert_eq!(nonsmooth::DEFAULT_SOLVER, "auto");
}

#[test]
fn nsgs_still_descending_is_not_stopped() {
    // Capsules-i100-1090: NSGS's error creeps from 1.1584e-7 to 1.1583e-7 over some
    // 3,500 sweeps, jumps to 1.5e-7 when a contact changes status, then converges
    // (Siconos' NSGS-AC: 4.2e-9 after 4,580 sweeps). A stall test on a 1 % drop
    // alone stopped both NSGS solvers at 1.16e-7.
    let p = problem("Capsules-i100-1090.hdf5");
    for solver in ["nsgs-ac", "nsgs-eal", "auto"] {
        solve(&p, solver).unwrap_or_else(|e| panic!("{solver}: {e}"));
    }
}

#[test]
fn auto_solves_where_the_hybrid_stalls() {
    // OneObject-i100000-499: the NSGS/Newton hybrid stalls near 3.7e-3; Newton from
    // zero converges.
    let p = problem("OneObject-i100000-499.hdf5");
    assert!(solve(&p, "hybrid").is_err());
    solve(&p, "auto").unwrap();
}

fn diagonal(dim: usize, nc: usize, w: f64, q: Vec<f64>) -> LocalProblem {
    let n = dim * nc;
    let t: Vec<_> = (0..n).map(|i| Triplet::new(i, i, w)).collect();
    let w = SparseColMat::try_new_from_triplets(n, n, &t).unwrap();
    LocalProblem::new(dim, w, q, vec![0.5; nc]).unwrap()
}

#[test]
fn auto_plans_by_size_and_density() {
    let auto = Auto::default();
    // A few contacts: NSGS first.
    let tiny = diagonal(3, 2, 1.0, vec![-1.0; 6]);
    assert_eq!(auto.plan(&tiny)[0], (Family::Nsgs, None));
    // A large sparse W: NSGS first, then the other two families.
    let sparse = diagonal(3, 40, 1.0, vec![-1.0; 120]);
    let plan: Vec<Family> = auto.plan(&sparse).iter().map(|s| s.0).collect();
    assert_eq!(plan[0], Family::Nsgs);
    assert!(plan.contains(&Family::Nsgs) && plan.contains(&Family::Newton));
    // A dense W: a short NSGS probe, Newton on a short leash, NSGS, Newton
    // unleashed, the hybrid.
    let n = 60;
    let mut t = Vec::new();
    for i in 0..n {
        for j in 0..n {
            t.push(Triplet::new(i, j, if i == j { 2.0 } else { 0.01 }));
        }
    }
    let w = SparseColMat::try_new_from_triplets(n, n, &t).unwrap();
    let dense = LocalProblem::new(3, w, vec![-1.0; n], vec![0.3; n / 3]).unwrap();
    let plan = auto.plan(&dense);
    assert_eq!(plan[0], (Family::Nsgs, Some(auto.params.nsgs_probe)));
    assert_eq!(plan[1], (Family::Newton, Some(auto.params.newton_leash)));
    assert!(plan.contains(&(Family::Newton, None)));
    assert!(plan.iter().any(|s| s.0 == Family::Nsgs));
    solve(&dense, "auto").unwrap();
}

#[test]
fn auto_reports_failure_on_an_unsolvable_problem() {
    // W = 0 with q_N < 0: no r makes u_N = q_N ≥ 0. Every family fails; auto must say
    // so (an error whose last error is above the tolerance), within its budget.
    for nc in [2, 20] {
        let p = diagonal(3, nc, 0.0, vec![-1.0; 3 * nc]);
        let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
        let control = Control {
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(60)),
            ..Control::default()
        };
        let e = nonsmooth::solve(&p, &mut r, &mut u, "auto", &control).unwrap_err();
        let (error, _) = e.last().expect("a numerical failure");
        assert!(error > 1e-8, "{e}");
        assert!(
            !matches!(e, SolveError::Timeout { .. }),
            "{nc} contacts: {e}"
        );
        assert!(natural_map_error(&p, &r) > 1e-8);
    }
}

#[test]
fn a_flat_error_is_still_a_stall() {
    // The steady-descent rule must not keep a stuck solver going: on W = 0 with an
    // infeasible q the error never falls, and NSGS stops as stalled, not at its cap.
    let p = diagonal(3, 4, 0.0, vec![-1.0; 12]);
    let (mut r, mut u) = (vec![0.0; 12], vec![0.0; 12]);
    let e = nonsmooth::solve(&p, &mut r, &mut u, "nsgs-ac", &Control::default()).unwrap_err();
    assert!(matches!(e, SolveError::Stalled { .. }), "{e}");
}
