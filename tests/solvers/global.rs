//! Global solvers: every returned solution satisfies the Signorini–Coulomb law to the
//! requested tolerance (checked independently of the solver), or the solver says it
//! did not converge (DESIGN §9).

use crate::common::fclib as common;

use std::time::{Duration, Instant};

use common::{data, random_problem, TestLocal, FILES};
use emcontact::nonsmooth::error::{dumont_error, fclib_error};
use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
use emcontact::nonsmooth::global::nsgs::{self, NsgsParams};
use emcontact::nonsmooth::global::nsn::{Nsn, NsnParams};
use emcontact::nonsmooth::global::{self, Control, Info, NsnFunction, SolveError, Solver};
use emcontact::nonsmooth::problem::{csc_mul_add, LocalProblem};

/// Independent check of the law on `(r, u)`: `r ∈ K`, `û = u + μ‖u_T‖e_N ∈ K*`,
/// `r·û = 0`, each to `tol` (absolute, relative to `scale`).
fn law_violation(dim: usize, mu: &[f64], r: &[f64], u: &[f64]) -> f64 {
    let mut worst: f64 = 0.0;
    for (c, &m) in mu.iter().enumerate() {
        let rc = &r[dim * c..dim * c + dim];
        let uc = &u[dim * c..dim * c + dim];
        let rt = rc[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
        let ut = uc[1..].iter().map(|x| x * x).sum::<f64>().sqrt();
        let uhn = uc[0] + m * ut;
        worst = worst.max(rt - m * rc[0]); // r ∈ K
        worst = worst.max(m * ut - uhn); // û ∈ K* = {μ‖v_T‖ ≤ v_N}
        worst = worst.max(
            (rc[0] * uhn
                + rc[1..]
                    .iter()
                    .zip(&uc[1..])
                    .map(|(a, b)| a * b)
                    .sum::<f64>())
            .abs(),
        );
    }
    worst
}

fn fresh_u(p: &LocalProblem, r: &[f64]) -> Vec<f64> {
    let mut u = p.q.clone();
    csc_mul_add(&p.w, r, &mut u);
    u
}

/// Runs a solver by key: registry names, plus "nsgs-test" with the test-only local
/// solver (independent of the local-solver module).
fn run(
    name: &str,
    p: &LocalProblem,
    params: &Control,
) -> (Vec<f64>, Vec<f64>, Result<Info, SolveError>) {
    run_nsgs(name, p, params, &NsgsParams::default())
}

fn run_nsgs(
    name: &str,
    p: &LocalProblem,
    params: &Control,
    nsgs_params: &NsgsParams,
) -> (Vec<f64>, Vec<f64>, Result<Info, SolveError>) {
    let n = p.size();
    let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
    let res = match name {
        "nsgs-test" => nsgs::solve_with(p, &TestLocal, nsgs_params, &mut r, &mut u, params),
        _ => global::solve(name, p, &mut r, &mut u, params),
    };
    (r, u, res)
}

/// Every registered solver that works on reduced problems, plus the test NSGS.
fn all() -> Vec<String> {
    let mut v: Vec<String> = global::registry()
        .into_iter()
        .map(|s| s.name)
        .filter(|n| n != "global-nsn-ac")
        .collect();
    v.push("nsgs-test".into());
    v
}

/// The contract: `Ok` means the FCLIB error of `(r, W r + q)` is ≤ tol (recomputed here)
/// and the returned `u` is `W r + q`; `Err` carries a finite error above tol.
fn check_contract(
    name: &str,
    p: &LocalProblem,
    r: &[f64],
    u: &[f64],
    res: &Result<Info, SolveError>,
    tol: f64,
) {
    let uf = fresh_u(p, r);
    let e = fclib_error(p, r, &uf);
    match res {
        Ok(info) => {
            assert!(
                e <= tol,
                "{name}: claims {:e} but error is {e:e}",
                info.error
            );
            assert!(
                (info.error - e).abs() <= 1e-12 * (1.0 + e),
                "{name}: reported error {:e} vs {e:e}",
                info.error
            );
            for (a, b) in u.iter().zip(&uf) {
                assert!(
                    (a - b).abs() <= 1e-12 * (1.0 + b.abs()),
                    "{name}: u ≠ W r + q"
                );
            }
        }
        Err(
            SolveError::NoConvergence { error, .. }
            | SolveError::Timeout { error, .. }
            | SolveError::Stalled { error, .. },
        ) => {
            assert!(
                *error > tol || error.is_nan(),
                "{name}: failure with error {error:e} ≤ tol"
            );
            assert!(
                r.iter().all(|x| x.is_finite()),
                "{name}: non-finite last iterate"
            );
        }
        Err(e) => panic!("{name}: unexpected error {e}"),
    }
}

/// On a well-conditioned SPD problem (flexible-body-like) every solver converges to
/// 1e-10, the law holds to 1e-9, and all solvers find the same solution.
#[test]
fn every_solver_solves_spd_problems_2d_and_3d() {
    for dim in [2, 3] {
        let (w, q, mu) = random_problem(dim, 8, 0.3, 11 + dim as u64);
        let p = LocalProblem::new(dim, w, q, mu).unwrap();
        let params = Control::with_tol(1e-10);
        let mut reference: Option<Vec<f64>> = None;
        for name in all() {
            let name = name.as_str();
            let (r, u, res) = run(name, &p, &params);
            check_contract(name, &p, &r, &u, &res, params.tol);
            let info = res.unwrap_or_else(|e| panic!("{dim}D {name}: {e}"));
            let scale = p.q.iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!(
                law_violation(dim, &p.mu, &r, &u) <= 1e-9 * scale.max(1.0),
                "{dim}D {name}"
            );
            if name.starts_with("nsn") {
                assert!(
                    info.iterations <= 60,
                    "{dim}D {name}: {} Newton steps",
                    info.iterations
                );
            }
            match &reference {
                None => reference = Some(r.clone()),
                Some(r0) => {
                    let d = r
                        .iter()
                        .zip(r0)
                        .map(|(a, b)| (a - b).abs())
                        .fold(0.0, f64::max);
                    assert!(d <= 1e-7, "{dim}D {name}: differs from NSGS by {d:e}");
                }
            }
        }
        // Some contacts are active and some separate, so the test exercises both branches.
        let r = reference.unwrap();
        let active = (0..8).filter(|c| r[dim * c] > 1e-8).count();
        assert!(active > 0 && active < 8, "{dim}D: {active} active contacts");
    }
}

/// When every contact separates (`q_N > 0`), `r = 0` is the solution; `‖q‖ = 0` is guarded.
#[test]
fn trivial_problems() {
    let (w, mut q, mu) = random_problem(3, 4, 0.5, 3);
    for c in 0..4 {
        q[3 * c] = 1.0 + c as f64;
    }
    let p = LocalProblem::new(3, w.clone(), q, mu.clone()).unwrap();
    for name in all() {
        let (r, _, res) = run(&name, &p, &Control::default());
        let info = res.unwrap();
        assert!(info.error == 0.0 && r.iter().all(|&x| x == 0.0), "{name}");
        assert!(
            info.iterations <= 1,
            "{name}: {} iterations",
            info.iterations
        );
    }
    let p0 = LocalProblem::new(3, w, vec![0.0; 12], mu).unwrap();
    assert_eq!(fclib_error(&p0, &[0.0; 12], &[0.0; 12]), 0.0);
    let (_, _, res) = run("nsn-ac", &p0, &Control::default());
    assert_eq!(res.unwrap().error, 0.0);
}

/// Dumont's eq. 37 at `r = 0` is the mean penetration `−min(0, q_N)`; at a solution
/// it is at round-off level; a wrong `u` shows up in the motion term.
#[test]
fn dumont_criterion() {
    let (w, q, mu) = random_problem(3, 8, 0.3, 5);
    let p = LocalProblem::new(3, w, q.clone(), mu).unwrap();
    let zero = vec![0.0; 24];
    let expected: f64 = (0..8).map(|c| -(q[3 * c].min(0.0))).sum::<f64>() / 8.0;
    assert!(expected > 0.0);
    assert!((dumont_error(&p, &zero, &q) - expected).abs() <= 1e-15);
    let (r, u, res) = run("nsn-ac-ls", &p, &Control::with_tol(1e-12));
    res.unwrap();
    assert!(
        dumont_error(&p, &r, &u) <= 1e-10,
        "{:e}",
        dumont_error(&p, &r, &u)
    );
    let mut u_bad = u.clone();
    u_bad[1] += 0.5;
    assert!(dumont_error(&p, &r, &u_bad) >= 0.5 / 8.0);
}

/// NSGS options: shuffled order, relaxation, sparse error checks.
#[test]
fn nsgs_options() {
    let (w, q, mu) = random_problem(3, 10, 0.4, 21);
    let p = LocalProblem::new(3, w, q, mu).unwrap();
    let c = Control::default();
    let base = run("nsgs-test", &p, &c).0;
    for params in [
        NsgsParams {
            shuffle: Some(42),
            ..NsgsParams::default()
        },
        NsgsParams {
            omega: 0.8,
            ..NsgsParams::default()
        },
        NsgsParams {
            check_every: 7,
            ..NsgsParams::default()
        },
    ] {
        let (r, u, res) = run_nsgs("nsgs-test", &p, &c, &params);
        check_contract("nsgs", &p, &r, &u, &res, c.tol);
        let info = res.unwrap();
        if params.check_every == 7 {
            assert_eq!(info.iterations % 7, 0);
        }
        let d = r
            .iter()
            .zip(&base)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(d <= 1e-6, "{params:?}: {d:e}");
    }
    // Same seed, same iterate.
    let three = Control {
        max_iter: Some(3),
        ..Control::default()
    };
    let seeded = NsgsParams {
        shuffle: Some(1),
        ..NsgsParams::default()
    };
    let a = run_nsgs("nsgs-test", &p, &three, &seeded).0;
    let b = run_nsgs("nsgs-test", &p, &three, &seeded).0;
    assert_eq!(a, b);
}

/// Iteration limits and deadlines end in typed errors with the last iterate.
#[test]
fn limits_and_deadlines() {
    let (p, _) = read_problem(data("Capsules-i125-1213.hdf5")).unwrap();
    let FclibProblem::Local(p) = p else { panic!() };
    let (r, u, res) = run(
        "nsgs-test",
        &p,
        &Control {
            max_iter: Some(3),
            ..Control::default()
        },
    );
    check_contract("nsgs", &p, &r, &u, &res, 1e-8);
    assert!(matches!(
        res,
        Err(SolveError::NoConvergence { iterations: 3, .. })
    ));
    let past = Control {
        deadline: Some(Instant::now()),
        ..Control::default()
    };
    for name in ["nsgs-test", "nsn-nm-ls", "hybrid", "nsgs-ac"] {
        let (r, u, res) = run(name, &p, &past);
        check_contract(name, &p, &r, &u, &res, 1e-8);
        assert!(
            matches!(res, Err(SolveError::Timeout { .. })),
            "{name}: {res:?}"
        );
    }
    let mut r = vec![0.0; p.size()];
    let mut u = r.clone();
    assert!(matches!(
        global::solve("nope", &p, &mut r, &mut u, &Control::default()),
        Err(SolveError::UnknownSolver(_))
    ));
    assert!(matches!(
        global::solve("global-nsn-ac", &p, &mut r, &mut u, &Control::default()),
        Err(SolveError::Unsupported(_))
    ));
}

/// The registry: unique names, every entry constructible, the Newton family, hybrid,
/// global Newton; an `nsgs-<local>` entry for every registered local solver.
#[test]
fn registry() {
    let names: Vec<String> = global::registry().into_iter().map(|s| s.name).collect();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len());
    for n in &names {
        assert!(global::by_name(n).is_ok(), "{n}");
    }
    for n in [
        "nsn-ac",
        "nsn-jm",
        "nsn-nm",
        "nsn-ac-ls",
        "nsn-jm-ls",
        "nsn-nm-ls",
        "nsgs-ac",
        "hybrid",
        "global-nsn-ac",
    ] {
        assert!(names.iter().any(|x| x == n), "{n}");
    }
    assert_eq!(global::DEFAULT_SOLVER, "hybrid");
    for l in emcontact::nonsmooth::local::solvers() {
        assert!(names.contains(&format!("nsgs-{}", l.name())));
    }
    assert!(!global::is_solver("nsgs-nope") && !global::is_solver(""));
}

/// Condensation of the global sample: `W x = Hᵀ M⁻¹ H x` (M is diagonal there, so
/// checked by hand), `q = Hᵀ M⁻¹ f + w`, and a global solve returns `v` with
/// `M v = H r + f` and `u = Hᵀ v + w`.
#[test]
fn condensation_and_global_solves() {
    let (p, _) = read_problem(data("Box_Stacks-i0122-82-5.hdf5")).unwrap();
    let FclibProblem::Global(g) = p else { panic!() };
    let (nd, n) = (g.n_dofs(), g.dim * g.n_contacts);
    let mut mdiag = vec![0.0; nd];
    let (cp, ri, mv) = (
        g.m.symbolic().col_ptr(),
        g.m.symbolic().row_idx(),
        g.m.val(),
    );
    for j in 0..nd {
        for k in cp[j]..cp[j + 1] {
            assert_eq!(ri[k], j, "sample M is diagonal");
            mdiag[j] += mv[k];
        }
    }
    let c = g.condense().unwrap();
    let x: Vec<f64> = (0..n).map(|k| ((k * 7 % 13) as f64 - 6.0) * 0.1).collect();
    let mut hx = vec![0.0; nd];
    csc_mul_add(&g.h, &x, &mut hx);
    let minv_hx: Vec<f64> = hx.iter().zip(&mdiag).map(|(a, m)| a / m).collect();
    let mut expect = vec![0.0; n];
    emcontact::nonsmooth::problem::csc_tr_mul_add(&g.h, &minv_hx, &mut expect);
    let got = fresh_u(
        &LocalProblem {
            q: vec![0.0; n],
            ..c.reduced.clone()
        },
        &x,
    );
    let scale = expect.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    for (a, b) in got.iter().zip(&expect) {
        assert!((a - b).abs() <= 1e-12 * scale, "W x: {a} vs {b}");
    }
    let minv_f: Vec<f64> = g.f.iter().zip(&mdiag).map(|(a, m)| a / m).collect();
    let mut q = g.w.clone();
    emcontact::nonsmooth::problem::csc_tr_mul_add(&g.h, &minv_f, &mut q);
    for (a, b) in c.reduced.q.iter().zip(&q) {
        assert!((a - b).abs() <= 1e-12 * (1.0 + b.abs()), "q: {a} vs {b}");
    }
    for name in ["nsn-ac-ls", "global-nsn-ac"] {
        let (mut r, mut u, mut v) = (vec![0.0; n], vec![0.0; n], vec![f64::NAN; nd]);
        let info =
            global::solve_global(name, &g, &mut r, &mut u, &mut v, &Control::default()).unwrap();
        assert!(info.error <= 1e-8, "{name}");
        // M v = H r + f
        let mut res = vec![0.0; nd];
        csc_mul_add(&g.m, &v, &mut res);
        let mut rhs = g.f.clone();
        csc_mul_add(&g.h, &r, &mut rhs);
        let s = rhs.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for (a, b) in res.iter().zip(&rhs) {
            assert!((a - b).abs() <= 1e-12 * s, "{name}: M v ≠ H r + f");
        }
        // Independent error with the condensed problem.
        let uf = fresh_u(&c.reduced, &r);
        assert!(fclib_error(&c.reduced, &r, &uf) <= 1e-8, "{name}");
        let mut u2 = g.w.clone();
        emcontact::nonsmooth::problem::csc_tr_mul_add(&g.h, &v, &mut u2);
        for (a, b) in u.iter().zip(&u2) {
            assert!(
                (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                "{name}: u ≠ Hᵀ v + w"
            );
        }
    }
}

/// Every solver on every sample file: converged (checked independently) or an honest
/// failure; and the combinations measured to converge keep converging.
#[test]
fn every_solver_on_every_sample_file() {
    let must_converge = [
        ("Capsules-i125-1213.hdf5", "nsgs-test"),
        ("Capsules-i125-1213.hdf5", "nsn-nm-ls"),
        ("Capsules-i125-1213.hdf5", "hybrid"),
        ("Capsules-i125-1213.hdf5", "nsgs-ac"),
        ("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "nsgs-test"),
        ("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "hybrid"),
        ("LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "nsgs-ac"),
        ("local_problem_test.hdf5", "nsn-nm-ls"),
        ("local_problem_test.hdf5", "hybrid"),
        ("Box_Stacks-i0122-82-5.hdf5", "nsgs-test"),
        ("Box_Stacks-i0122-82-5.hdf5", "nsn-ac-ls"),
        ("Box_Stacks-i0122-82-5.hdf5", "hybrid"),
        ("Box_Stacks-i0122-82-5.hdf5", "nsgs-ac"),
    ];
    for f in FILES {
        let (p, _) = read_problem(data(f)).unwrap();
        let p = match p {
            FclibProblem::Local(l) => l,
            FclibProblem::Global(g) => g.condense().unwrap().reduced,
        };
        let names = [
            "nsgs-test",
            "nsgs-ac",
            "hybrid",
            "nsn-ac",
            "nsn-jm",
            "nsn-nm",
        ];
        for name in names
            .into_iter()
            .chain(["nsn-ac-ls", "nsn-jm-ls", "nsn-nm-ls"])
        {
            let params = Control {
                deadline: Some(Instant::now() + Duration::from_secs(15)),
                max_iter: if name.starts_with("nsn") {
                    Some(500)
                } else {
                    None
                },
                ..Control::default()
            };
            let (r, u, res) = run(name, &p, &params);
            check_contract(name, &p, &r, &u, &res, params.tol);
            if must_converge.contains(&(f, name)) {
                assert!(res.is_ok(), "{f} {name}: {res:?}");
                assert!(law_violation(3, &p.mu, &r, &u).is_finite());
            }
        }
    }
}

/// The Newton functions' Jacobians are consistent with the functions on a whole problem:
/// near a solution NSN converges quadratically (few steps from a close NSGS iterate).
#[test]
fn newton_converges_fast_from_a_close_start() {
    let (w, q, mu) = random_problem(3, 12, 0.5, 99);
    let p = LocalProblem::new(3, w, q, mu).unwrap();
    let n = p.size();
    let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
    let _ = nsgs::solve_with(
        &p,
        &TestLocal,
        &NsgsParams::default(),
        &mut r,
        &mut u,
        &Control::with_tol(1e-4),
    )
    .unwrap();
    for f in [
        NsnFunction::AlartCurnier,
        NsnFunction::JeanMoreau,
        NsnFunction::NaturalMap,
    ] {
        let (mut r2, mut u2) = (r.clone(), u.clone());
        let newton = Nsn {
            params: NsnParams {
                function: f,
                line_search: false,
                ..NsnParams::default()
            },
        };
        let info = newton
            .solve(&p, &mut r2, &mut u2, &Control::with_tol(1e-13))
            .unwrap();
        assert!(info.iterations <= 8, "{f:?}: {} steps", info.iterations);
    }
}

/// A small 2D global problem (flexible-like: more dofs than contact unknowns): the
/// direct `(v, r)` Newton and the condensed Newton/NSGS find the same solution.
#[test]
fn global_problem_2d_direct_and_condensed_agree() {
    use emcontact::nonsmooth::problem::GlobalProblem;
    use faer::sparse::{SparseColMat, Triplet};
    let (nd, nc) = (20, 4);
    let mut g = common::Lcg(17);
    let mut mt = Vec::new();
    for i in 0..nd {
        mt.push(Triplet::new(i, i, 2.0 + g.next()));
        if i + 1 < nd {
            let o = 0.3 * g.next();
            mt.push(Triplet::new(i, i + 1, o));
            mt.push(Triplet::new(i + 1, i, o));
        }
    }
    let m = SparseColMat::try_new_from_triplets(nd, nd, &mt).unwrap();
    let mut ht = Vec::new();
    for j in 0..2 * nc {
        for i in 0..nd {
            if (i + j) % 3 == 0 {
                ht.push(Triplet::new(i, j, g.next()));
            }
        }
    }
    let h = SparseColMat::try_new_from_triplets(nd, 2 * nc, &ht).unwrap();
    let f: Vec<f64> = (0..nd).map(|_| g.next()).collect();
    let w: Vec<f64> = (0..2 * nc).map(|_| 0.5 * g.next()).collect();
    let p = GlobalProblem::new(2, m, h, f, w, vec![0.4; nc]).unwrap();
    let mut sols = Vec::new();
    for name in ["global-nsn-ac", "nsn-nm-ls", "nsn-ac-ls"] {
        let (mut r, mut u, mut v) = (vec![0.0; 2 * nc], vec![0.0; 2 * nc], vec![f64::NAN; nd]);
        let info =
            global::solve_global(name, &p, &mut r, &mut u, &mut v, &Control::with_tol(1e-12))
                .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(info.error <= 1e-12);
        assert!(law_violation(2, &p.mu, &r, &u) <= 1e-10, "{name}");
        sols.push(r);
    }
    let c = p.condense().unwrap();
    let (r, u, res) = run("nsgs-test", &c.reduced, &Control::with_tol(1e-12));
    check_contract("nsgs-test", &c.reduced, &r, &u, &res, 1e-12);
    sols.push(r);
    let active = (0..nc).filter(|k| sols[0][2 * k] > 1e-9).count();
    assert!(active > 0, "no active contact: the test would be trivial");
    for s in &sols[1..] {
        let d = s
            .iter()
            .zip(&sols[0])
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        assert!(d <= 1e-8, "solutions differ by {d:e}");
    }
}
