//! The Signorini–Coulomb law checked point by point from what a contact
//! set reports (tractions, pressures, slip rates), independently of the
//! law's own residual.

/// Every active point of the enforced pairs: pressure `p ≥ 0`, traction
/// inside the cone `‖t‖ ≤ μ p`, and a slipping point's traction opposed
/// to its slip at the cone's edge, `−t·v = μ p ‖v‖` (a traction at the
/// edge but turned by an angle θ loses a factor cos θ there).
pub fn assert_coulomb(c: &emcontact::contact::ContactSet, t: f64) {
    let mut checked = 0;
    for pt in c.points().filter(|p| p.enforced && p.eval.active()) {
        let e = pt.eval;
        let mu = pt.friction;
        let tn = e.traction.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(e.p >= 0.0, "t = {t}: node {} pulls, p = {:e}", pt.node, e.p);
        assert!(
            tn <= mu * e.p * (1.0 + 1e-9) + 1e-12 * e.p.abs().max(1.0),
            "t = {t}: node {} outside the cone: ‖t‖ = {tn:e}, μ p = {:e}",
            pt.node,
            mu * e.p
        );
        if e.slip() && e.slip_rate > 1e-8 {
            let power = e.dissipation_rate();
            let edge = mu * e.p * e.slip_rate;
            assert!(
                (power - edge).abs() <= 1e-8 * edge,
                "t = {t}: node {} slips with −t·v = {power:e} against μ p ‖v‖ = {edge:e}",
                pt.node
            );
        }
        checked += 1;
    }
    if t > 0.25 {
        assert!(checked > 0, "t = {t}: no active point checked");
    }
}
