//! Bug: the golf ball at μ = 0.5 (`validation/golf_ball/mu05.toml`,
//! Δt = 5e-3) converged its step at t = 0.07 with one slipping point
//! 5.29e-10 mm (1.06e-10 h) behind the club face. The point was persistent
//! and had drifted below the drift bound `−δ` (5e-11 h); settle put it on
//! its bound at the converged iterate, the re-evaluation measured its law
//! `g + δ ≥ 0` as violated by 0.56e-10 h — within the contact tolerance
//! (1e-10 h) — and Newton accepted the iterate without the correction
//! that enforces the bound. A guarded point is now corrected once before
//! the step is accepted, so it sits on `−δ` to round-off. The step sequence
//! that reached the drifted point came from a change to the condensed
//! subproblem's release of lifted points; the run stops just past it.

use crate::common::fixture::Fixture;
use crate::common::history::{assert_exact_penetration, max};
use crate::common::run;

#[test]
fn golf_ball_mu05_keeps_a_guarded_point_on_its_drift_bound() {
    let f = Fixture::file("validation/golf_ball/mu05.toml").set("time.end", 0.075);
    let r = run::run(&f.text());
    println!("penetration {:.3e} h", max(&r.history, "max_penetration_h"));
    assert_exact_penetration(&r.history);
}
