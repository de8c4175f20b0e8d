//! Free flight (no supports, no gravity) of spinning, translating bodies with the
//! energy-momentum scheme at time steps far above the explicit limit: total
//! energy, linear and angular momentum are constant over 300 steps (DESIGN §9),
//! to what Newton's tolerance (1e-12 here) leaves: measured ≤ 5e-12 of E₀
//! over the run and ≤ 3e-12 of the momenta's scale.

use crate::common::fixture::Fixture;
use crate::common::history::step_balance;
use crate::common::run::{model, run};
use emcontact::driver::RunSummary;

/// Energy and momentum drift over 300 steps, relative to E₀ and to the
/// motion's size.
const DRIFT: f64 = 1e-10;

/// The 2D (quad4 bar, tri3 block) or 3D (hex8 brick, tet4 cube) pair of free
/// bodies with `material` and `mass` for both.
fn flight(dim: usize, material: &str, mass: &str) -> Fixture {
    let f = Fixture::load(if dim == 2 { "flight_2d" } else { "flight_3d" });
    f.set("body.0.material.model", material)
        .set("body.1.material.model", material)
        .set("body.0.mass", mass)
        .set("body.1.mass", mass)
}

/// Runs `f`; returns the summary, the largest step balance and Δt / Δt_crit.
fn run_flight(f: &Fixture) -> (RunSummary, f64, f64) {
    let text = f.text();
    let dir = tempfile::tempdir().unwrap();
    let info = emcontact::dynamics::model_info(&model(dir.path(), &text)).unwrap();
    let r = run(&text);
    let ratio = r.model.time.dt / info.stable_dt;
    let balance = step_balance(&r.history);
    (r.summary, balance, ratio)
}

fn assert_conserves(dim: usize) {
    for material in ["svk", "neo-hookean"] {
        for mass in ["lumped", "consistent"] {
            let label = format!("{dim}D {material} {mass}");
            let (s, balance, ratio) = run_flight(&flight(dim, material, mass));
            println!(
                "{label}: dt/dt_crit = {ratio:.1}, steps {}, energy drift {:.2e}, step balance {balance:.2e}, L drift {:.2e}, J drift {:.2e}, newton {}",
                s.steps, s.max_energy_drift, s.max_linear_drift, s.max_angular_drift, s.newton_iterations
            );
            assert!(
                ratio >= 10.0,
                "{label}: dt must be ≥ 10× the stable step, is {ratio:.2}×"
            );
            assert!(s.steps >= 300);
            for (what, d) in [
                ("energy", s.max_energy_drift),
                ("linear momentum", s.max_linear_drift),
                ("angular momentum", s.max_angular_drift),
            ] {
                assert!(d <= DRIFT, "{label}: {what} drift {d:e}");
            }
            // the bodies really deform: strain energy is a visible part of the total
            assert!(
                s.last.strain > 1e-6 * s.initial.total(),
                "{label}: no deformation?"
            );
        }
    }
}

#[test]
fn free_flight_2d_conserves_energy_and_momenta() {
    assert_conserves(2);
}

#[test]
fn free_flight_3d_conserves_energy_and_momenta() {
    assert_conserves(3);
}

/// Newmark (β = ¼, γ = ½) on the same bodies does not conserve energy: the
/// contrast the validation plot shows. Its momenta stay exact (the internal
/// forces sum to zero in any configuration); its energy drifts. 40 steps of
/// Δt = 0.2 (longer runs may blow up, which proves nothing).
#[test]
fn newmark_drifts_in_energy_and_keeps_the_momenta() {
    let f = flight(2, "svk", "lumped")
        .set("time.integrator", "newmark")
        .set("time.dt", 0.2)
        .set("time.end", 8.0);
    let s = run(&f.text()).summary;
    println!(
        "newmark: energy drift {:.3e}, L drift {:.2e}, J drift {:.2e}",
        s.max_energy_drift, s.max_linear_drift, s.max_angular_drift
    );
    assert!(
        s.max_energy_drift > 1e-4,
        "Newmark drift {:e} unexpectedly small",
        s.max_energy_drift
    );
    assert!(
        s.max_linear_drift <= DRIFT,
        "L drift {:e}",
        s.max_linear_drift
    );
}

/// Newton converges quadratically for SVK: wherever the relative residual is in
/// the asymptotic range (below 1e-1) and the next one is still above the
/// round-off floor (1e-11), `r_{k+1} ≤ C r_k²` with a moderate `C` — linear or
/// superlinear convergence would fail it.
#[test]
fn newton_converges_quadratically_for_svk() {
    let s = run(&flight(3, "svk", "lumped").text()).summary;
    const C: f64 = 10.0;
    let mut checked = 0;
    for (n, h) in s.residual_histories.iter().enumerate() {
        if n < 3 {
            println!("step {n}: relative residuals {h:.3?}");
        }
        for w in h.windows(2) {
            if w[0] < 1e-1 && w[1] > 1e-11 {
                assert!(
                    w[1] <= C * w[0] * w[0],
                    "step {n}: {:e} -> {:e} is not quadratic; history {h:?}",
                    w[0],
                    w[1]
                );
                checked += 1;
            }
        }
    }
    println!("{checked} Newton contractions checked");
    assert!(
        checked >= 100,
        "too few contractions in the asymptotic range: {checked}"
    );
}
