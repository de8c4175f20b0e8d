//! The ledger checks of a run's `history.csv`, at the tolerances the theory
//! promises for the tolerances in use (each bound a decade or two above what
//! the runs of the tests achieve, never below what the theory allows).

use emcontact::driver::RunSummary;
use emcontact::output::CsvTable;

/// Energy balance of one step, `|ΔE + ΔD − Δdefect| / E₀` (`D` the frictional
/// work): the discrete energy identity is exact, so a converged step misses
/// it only by what Newton leaves, `R · (x₁ − x₀)`, which Newton holds to
/// 1e-12 of the step's energy (`NewtonPolicy::energy`; the residual
/// tolerance 1e-10 alone would allow about 1e-10 of it), and round-off.
/// Measured: 2e-15 to 5e-13 on the contact runs of the tests.
pub const STEP_ENERGY: f64 = 1e-11;

/// Linear and angular momentum drift relative to the motion's size
/// (`linear_scale`, `angular_scale`): exact for free bodies up to Newton's
/// tolerance (1e-10 relative residual); measured 1e-14 to 3e-13.
pub const MOMENTUM: f64 = 1e-10;

/// Depth of a point under exact enforcement relative to its face size `h`:
/// the contact tolerance is 1e-10 h and the drift bound holds a persistent
/// point at half of it (5e-11 h, reached on the friction blocks).
pub const PENETRATION_H: f64 = 1e-10;

/// A column of `history.csv`.
pub fn col(h: &CsvTable, name: &str) -> Vec<f64> {
    h.column(name)
        .unwrap_or_else(|| panic!("no column {name} in history.csv"))
}

/// The largest value of a column.
pub fn max(h: &CsvTable, name: &str) -> f64 {
    col(h, name).into_iter().fold(f64::NEG_INFINITY, f64::max)
}

/// The largest step balance `|E_{n+1} − E_n + ΔD − Δdefect| / E₀` of the run
/// (`D` the cumulative frictional work, `defect` the energy the velocity
/// update could not restore; both 0 without contact).
pub fn step_balance(h: &CsvTable) -> f64 {
    let e = col(h, "total");
    let zero = vec![0.0; e.len()];
    let d = h.column("dissipation").unwrap_or_else(|| zero.clone());
    let u = h.column("update_defect").unwrap_or(zero);
    (1..e.len())
        .map(|n| (e[n] - e[n - 1] + d[n] - d[n - 1] - (u[n] - u[n - 1])).abs() / e[0].abs())
        .fold(0.0, f64::max)
}

/// Every step keeps the energy balance to `STEP_ENERGY` and no step leaves
/// an update defect beyond round-off.
pub fn assert_exact_energy(h: &CsvTable) {
    let b = step_balance(h);
    assert!(b <= STEP_ENERGY, "step energy balance {b:e} of E0");
    assert_no_defect(h);
}

/// Every row's `update_defect` is at round-off of the initial energy.
pub fn assert_no_defect(h: &CsvTable) {
    let e0 = col(h, "total")[0];
    for (t, d) in col(h, "t").iter().zip(col(h, "update_defect")) {
        assert!(
            d.abs() <= 1e-12 * e0,
            "t = {t}: update defect {d:e} (E0 = {e0})"
        );
    }
}

/// The deepest point of the run relative to its face size stays within the
/// exact enforcement's tolerance.
pub fn assert_exact_penetration(h: &CsvTable) {
    let p = max(h, "max_penetration_h");
    assert!(p <= PENETRATION_H, "penetration {p:e} h");
}

/// Linear momentum drift within `MOMENTUM` (free bodies, any integrator:
/// the internal and contact forces sum to zero).
pub fn assert_linear_momentum(label: &str, s: &RunSummary) {
    assert!(
        s.max_linear_drift <= MOMENTUM,
        "{label}: L drift {:e}",
        s.max_linear_drift
    );
}

/// Linear and angular momentum drift within `MOMENTUM` (free bodies, the
/// energy-momentum scheme).
pub fn assert_momenta(label: &str, s: &RunSummary) {
    assert_linear_momentum(label, s);
    assert!(
        s.max_angular_drift <= MOMENTUM,
        "{label}: J drift {:e}",
        s.max_angular_drift
    );
}
