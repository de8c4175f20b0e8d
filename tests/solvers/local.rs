//! Property tests of the one-contact frictional solvers (src/nonsmooth/local).
//!
//! Random problems: `W = Q diag(λ) Qᵀ` with a random rotation `Q` and
//! eigenvalues `κ^{-1/2}, κ^{t-1/2}, κ^{1/2}` (`log₁₀κ ∈ [0, 6]`, so the
//! condition number spans 1 … 1e6 around a unit geometric mean), `q ∈ [-1, 1]^D`,
//! `μ ∈ [0, 2]`.
//!
//! Contract checked for every solver and case:
//! * success means `‖F_nat(r)‖ ≤ tol` with `tol = max(1e-10, 2 eps κ)‖q‖`
//!   (relative to ‖q‖; the round-off floor of the natural map is
//!   `~eps‖W‖‖r‖ ≤ eps κ‖q‖`, so `tol` is 1e-10‖q‖ up to κ ≈ 2e5 and at most
//!   4.4e-10‖q‖ at κ = 1e6);
//! * a successful answer satisfies the law checked directly: `r ∈ K`,
//!   `û ∈ K*`, `r·û ≈ 0`, each to `1e-8` relative to its natural scale;
//! * `enumerate_all3_with` gives the same number of solutions with the α- and
//!   the tan(θ/2)-quartic alone (independent derivations of the slip case);
//! * "enum" always succeeds; every successful solver's answer is one of the
//!   solutions listed by `enumerate_all3/2` (relative distance ≤ 1e-8, scale
//!   `‖r*‖ + ‖q‖/λ_min`): agreement where the solution is unique, and a
//!   completeness check of the enumeration where there are several.
//! Success rates per solver are printed and asserted against floors.

use std::sync::Mutex;

use emcontact::nonsmooth::local::{
    enumerate_all2, enumerate_all3, enumerate_all3_with, natural_map, solvers, LocalParams,
    SlipQuartic,
};
use nalgebra::{Matrix2, Matrix3, SMatrix, SVector, UnitQuaternion, Vector2, Vector3, Vector4};
use proptest::prelude::*;
use proptest::test_runner::RngSeed;

const CASES: u32 = 5000;

/// Iteration limits: first-order methods converge linearly (rate tied to the
/// conditioning of W) and get many more iterations than the Newton-type ones.
fn params_for(name: &str, tol: f64) -> LocalParams {
    let max_iter = match name {
        "pg" | "desaxce" | "sal" => 20_000,
        _ => 100,
    };
    LocalParams { tol, max_iter }
}

#[derive(Default, Clone)]
struct Stat {
    ok: u64,
    fail: u64,
    worst_err_rel: f64,
    iters: u64,
    /// failures by condition band (log10 κ in [0,2), [2,4), [4,6])
    fail_band: [u64; 3],
    cases_band: [u64; 3],
}

struct Stats {
    names: Vec<&'static str>,
    s: Vec<Stat>,
    cases: u32,
    unique: u64,
    multiple: u64,
}

static STATS3: Mutex<Option<Stats>> = Mutex::new(None);
static STATS2: Mutex<Option<Stats>> = Mutex::new(None);

fn record(
    cell: &Mutex<Option<Stats>>,
    dim: usize,
    band: usize,
    results: &[(&'static str, bool, f64, usize)],
    nsol: usize,
) {
    let mut g = cell.lock().unwrap();
    let st = g.get_or_insert_with(|| Stats {
        names: results.iter().map(|r| r.0).collect(),
        s: vec![Stat::default(); results.len()],
        cases: 0,
        unique: 0,
        multiple: 0,
    });
    st.cases += 1;
    if nsol == 1 {
        st.unique += 1;
    } else if nsol > 1 {
        st.multiple += 1;
    }
    for (k, &(_, ok, err_rel, it)) in results.iter().enumerate() {
        let s = &mut st.s[k];
        s.cases_band[band] += 1;
        if ok {
            s.ok += 1;
            s.iters += it as u64;
            s.worst_err_rel = s.worst_err_rel.max(err_rel);
        } else {
            s.fail += 1;
            s.fail_band[band] += 1;
        }
    }
    if st.cases == CASES {
        println!("\n{dim}D: {CASES} random problems; enumerate_all: {} unique, {} with several solutions", st.unique, st.multiple);
        println!(
            "{:>10} {:>9} {:>14} {:>10}  failures by log10(cond) band [0,2) [2,4) [4,6]",
            "solver", "success", "max err/|q|", "mean iter"
        );
        for (k, name) in st.names.iter().enumerate() {
            let s = &st.s[k];
            println!(
                "{:>10} {:>8.2}% {:>14.2e} {:>10.1}  {:?} of {:?}",
                name,
                100.0 * s.ok as f64 / st.cases as f64,
                s.worst_err_rel,
                s.iters as f64 / s.ok.max(1) as f64,
                s.fail_band,
                s.cases_band
            );
        }
        // Floors: overall rate, rate for cond < 1e2, rate for cond in [1e2, 1e4).
        let floor = |n: &str| match n {
            "enum" | "enum-tan" => (1.0, 1.0, 1.0),
            "ac-newton" | "jm-newton" | "nm-newton" | "nsfe" | "nsve" | "ebp" | "eal" => {
                (0.995, 1.0, 1.0)
            }
            _ => (0.85, 1.0, 0.85),
        };
        for (k, name) in st.names.iter().enumerate() {
            let s = &st.s[k];
            let rate = s.ok as f64 / st.cases as f64;
            let band_rate = |b: usize| 1.0 - s.fail_band[b] as f64 / s.cases_band[b] as f64;
            let (f, f0, f1) = floor(name);
            assert!(
                rate >= f,
                "{dim}D solver {name}: success rate {rate} below {f}"
            );
            assert!(
                band_rate(0) >= f0,
                "{dim}D solver {name}: rate {} for cond < 1e2 below {f0}",
                band_rate(0)
            );
            assert!(
                band_rate(1) >= f1,
                "{dim}D solver {name}: rate {} for cond in [1e2, 1e4) below {f1}",
                band_rate(1)
            );
        }
    }
}

fn rotation(qv: &Vector4<f64>) -> Matrix3<f64> {
    let v = if qv.norm() < 1e-3 {
        Vector4::new(1.0, 0.0, 0.0, 0.0)
    } else {
        *qv
    };
    UnitQuaternion::from_quaternion(nalgebra::Quaternion::new(v[0], v[1], v[2], v[3]))
        .to_rotation_matrix()
        .into_inner()
}

fn make_w3(qv: &Vector4<f64>, log_kappa: f64, t: f64) -> Matrix3<f64> {
    let k = 10f64.powf(log_kappa);
    let lam = Vector3::new(k.powf(-0.5), k.powf(t - 0.5), k.powf(0.5));
    let r = rotation(qv);
    let w = r * Matrix3::from_diagonal(&lam) * r.transpose();
    (w + w.transpose()) * 0.5
}

fn make_w2(angle: f64, log_kappa: f64) -> Matrix2<f64> {
    let k = 10f64.powf(log_kappa);
    let (s, c) = angle.sin_cos();
    let r = Matrix2::new(c, -s, s, c);
    let w = r * Matrix2::from_diagonal(&Vector2::new(k.powf(-0.5), k.powf(0.5))) * r.transpose();
    (w + w.transpose()) * 0.5
}

/// Direct check of the law at `r`: `r ∈ K`, `û ∈ K*`, `r·û ≈ 0`, each within
/// `1e-8` of its natural scale plus what `‖F_nat‖ ≤ tol` allows (the natural
/// map bounds the distance of `r` to `K` by `tol`).
fn check_law<const D: usize>(
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &SVector<f64, D>,
    tol: f64,
) -> Result<(), String> {
    let u = w * r + q;
    let mut ut = u;
    ut[0] = 0.0;
    let mut rt = *r;
    rt[0] = 0.0;
    let mut uh = u;
    uh[0] += mu * ut.norm();
    let su = q.norm() + w.norm() * r.norm(); // velocity scale
    let sr = r.norm() + q.norm() / w.norm(); // force scale
    let e = 1e-8;
    let m = (1.0 + mu * mu).sqrt();
    if r[0] < -(e * sr + tol) || rt.norm() > mu * r[0] + m * (e * sr + tol) {
        return Err(format!("r = {r:?} not in K (mu = {mu})"));
    }
    if mu * ut.norm() > uh[0] + m * (e * su + tol) {
        return Err(format!("û = {uh:?} not in K* (mu = {mu})"));
    }
    let c = r.dot(&uh).abs();
    if c > e * su * sr + 2.0 * tol * (r.norm() + uh.norm()) {
        return Err(format!("r·û = {c:e} not ≈ 0 (scale {:e})", su * sr));
    }
    Ok(())
}

/// What a solver that says it converged must have found: `‖F_nat(r)‖ ≤ tol`,
/// the law checked directly, and one of the enumerated solutions `all` (for a
/// unique solution: agreement; otherwise: completeness), to 1e-8 relative
/// (`lmin`: the smallest eigenvalue of `W`).
fn check_answer<const D: usize>(
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &SVector<f64, D>,
    tol: f64,
    all: &[SVector<f64, D>],
    lmin: f64,
) -> Result<(), String> {
    let err = natural_map(w, q, mu, r).norm();
    if err > tol {
        return Err(format!("Ok but error {err:e} > tol {tol:e}"));
    }
    check_law(w, q, mu, r, tol)?;
    let (d, k) = all
        .iter()
        .enumerate()
        .map(|(k, a)| ((r - a).norm() / (a.norm() + q.norm() / lmin), k))
        .fold((f64::INFINITY, 0), |m, x| if x.0 < m.0 { x } else { m });
    if d > 1e-8 {
        return Err(format!(
            "r = {r:?} is not among the {} enumerated solutions (nearest {:?}, rel. distance {d:e})",
            all.len(),
            all.get(k)
        ));
    }
    Ok(())
}

fn band(log_kappa: f64) -> usize {
    ((log_kappa / 2.0) as usize).min(2)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: CASES,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(20261122),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_3d_problems(
        qv in prop::array::uniform4(-1.0f64..1.0),
        log_kappa in 0.0f64..6.0,
        t in 0.0f64..1.0,
        qq in prop::array::uniform3(-1.0f64..1.0),
        mu in 0.0f64..2.0,
    ) {
        let w = make_w3(&Vector4::from(qv), log_kappa, t);
        let q = Vector3::from(qq);
        prop_assume!(q.norm() > 1e-6);
        let tol = 1e-10f64.max(2.0 * f64::EPSILON * 10f64.powf(log_kappa)) * q.norm();
        let all = enumerate_all3(&w, &q, mu);
        // The two quartics (α and tan(θ/2)) give the same solution set.
        for quartic in [SlipQuartic::Alpha, SlipQuartic::TanHalfAngle] {
            let one = enumerate_all3_with(&w, &q, mu, quartic);
            prop_assert_eq!(one.len(), all.len(), "{:?}: {:?} vs {:?}", quartic, one, all);
        }
        let lmin = w.symmetric_eigenvalues().min();
        let mut results = Vec::new();
        for s in solvers() {
            let mut r = Vector3::zeros();
            let res = s.solve3(&w, &q, mu, &mut r, &params_for(s.name(), tol));
            let err = natural_map(&w, &q, mu, &r).norm();
            match res {
                Ok(info) => {
                    prop_assert!((info.error - err).abs() <= 1e-3 * err.max(1e-300) + 1e-300, "{}: reported error {} vs {}", s.name(), info.error, err);
                    if let Err(m) = check_answer(&w, &q, mu, &r, tol, &all, lmin) {
                        prop_assert!(false, "{}: {m}", s.name());
                    }
                    results.push((s.name(), true, err / q.norm(), info.iterations));
                }
                Err(_) => {
                    prop_assert!(s.name() != "enum" && s.name() != "enum-tan", "{} failed: error {err:e}, |q| {}", s.name(), q.norm());
                    results.push((s.name(), false, err / q.norm(), 0));
                }
            }
        }
        prop_assert!(!all.is_empty(), "enumerate_all3 found no solution");
        record(&STATS3, 3, band(log_kappa), &results, all.len());
    }

    #[test]
    fn random_2d_problems(
        angle in 0.0f64..std::f64::consts::PI,
        log_kappa in 0.0f64..6.0,
        qq in prop::array::uniform2(-1.0f64..1.0),
        mu in 0.0f64..2.0,
    ) {
        let w = make_w2(angle, log_kappa);
        let q = Vector2::from(qq);
        prop_assume!(q.norm() > 1e-6);
        let tol = 1e-10f64.max(2.0 * f64::EPSILON * 10f64.powf(log_kappa)) * q.norm();
        let all = enumerate_all2(&w, &q, mu);
        let lmin = w.symmetric_eigenvalues().min();
        let mut results = Vec::new();
        for s in solvers() {
            let mut r = Vector2::zeros();
            let res = s.solve2(&w, &q, mu, &mut r, &params_for(s.name(), tol));
            let err = natural_map(&w, &q, mu, &r).norm();
            match res {
                Ok(info) => {
                    if let Err(m) = check_answer(&w, &q, mu, &r, tol, &all, lmin) {
                        prop_assert!(false, "{}: {m}", s.name());
                    }
                    results.push((s.name(), true, err / q.norm(), info.iterations));
                }
                Err(_) => {
                    prop_assert!(s.name() != "enum" && s.name() != "enum-tan", "{} failed: error {err:e}", s.name());
                    results.push((s.name(), false, err / q.norm(), 0));
                }
            }
        }
        prop_assert!(!all.is_empty(), "enumerate_all2 found no solution");
        record(&STATS2, 2, band(log_kappa), &results, all.len());
    }
}
