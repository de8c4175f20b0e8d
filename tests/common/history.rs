//! Shared checks of a run's `history.csv` for the contact run tests.

use emcontact::output::CsvTable;

/// Per-step energy balance (frictionless: `E` itself) and no update defect.
pub fn assert_exact_energy(h: &CsvTable) {
    let e = h.column("total").unwrap();
    let e0 = e[0];
    for w in e.windows(2) {
        assert!(
            (w[1] - w[0]).abs() <= 1e-8 * e0,
            "step energy change {:e} of E0",
            (w[1] - w[0]) / e0
        );
    }
    for d in h.column("update_defect").unwrap() {
        assert!(d.abs() <= 1e-12 * e0, "update defect {d:e}");
    }
}
