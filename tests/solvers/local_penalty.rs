//! Solfec's semi-explicit spring–dashpot penalty law (Solfec eqs. 88–90 and
//! SPRING_DASHPOT_CONTACT): Hertz exponent, the semi-explicit formula, cohesion
//! and the friction bound.

use emcontact::nonsmooth::local::{PenaltyInput, SpringDashpot};
use nalgebra::{Matrix2, Matrix3, Vector2, Vector3};
use proptest::prelude::*;

fn input(w: Matrix3<f64>, b: Vector3<f64>, gap: f64, un_prev: f64) -> PenaltyInput<3> {
    PenaltyInput {
        w,
        b,
        r_prev: Vector3::zeros(),
        gap,
        un_prev,
    }
}

#[test]
fn hertz_force_scales_with_power() {
    // No dashpot, no velocities, negligible W: R_N = s(−g)^m (eq. 90, line 5).
    for m in [1.0, 1.5, 2.0] {
        let law = SpringDashpot {
            stiffness: 1e6,
            damping: 0.0,
            hertz_power: m,
            cohesion: 0.0,
        };
        let w = Matrix3::identity() * 1e-14;
        let f = |g: f64| {
            let mut coh = false;
            law.reaction3(&input(w, Vector3::zeros(), g, 0.0), 0.5, 1e-3, &mut coh)[0]
        };
        let (f1, f2) = (f(-1e-3), f(-2e-3));
        assert!(
            (f1 - 1e6 * 1e-3f64.powf(m)).abs() <= 1e-6 * f1,
            "m = {m}: R_N = {f1}"
        );
        let slope = (f2 / f1).log2();
        assert!((slope - m).abs() < 1e-6, "m = {m}: log-log slope {slope}");
        assert_eq!(f(1e-3), 0.0, "separated contact carries no force");
    }
}

#[test]
fn semi_explicit_formula_linear_spring() {
    // m = 1, eq. 90: R_N = [−s(g + h/4(B̄_N − U_N^t)) − d/2(B̄_N + U_N^t)] / [1 + (sh/4 + d/2)W_NN].
    let (s, d, h) = (1e4, 10.0, 1e-3);
    let law = SpringDashpot {
        stiffness: s,
        damping: d,
        hertz_power: 1.0,
        cohesion: 0.0,
    };
    let w = Matrix3::new(0.5, 0.1, 0.0, 0.1, 0.4, 0.0, 0.0, 0.0, 0.4);
    let r_prev = Vector3::new(0.0, 2.0, 0.0);
    let b = Vector3::new(-0.3, 0.05, 0.0);
    let (g, un) = (-1e-3, -0.2);
    let bn = b[0] + 0.1 * 2.0;
    let expect = (-s * (g + h / 4.0 * (bn - un)) - d / 2.0 * (bn + un))
        / (1.0 + (s * h / 4.0 + d / 2.0) * 0.5);
    let input = PenaltyInput {
        w,
        b,
        r_prev,
        gap: g,
        un_prev: un,
    };
    let mut coh = false;
    let r = law.reaction3(&input, 10.0, h, &mut coh);
    assert!(
        (r[0] - expect).abs() < 1e-12 * expect.abs(),
        "{} vs {expect}",
        r[0]
    );
    // Large μ: the stick estimate R_T = −W_TT⁻¹(B_T + W_TN R_N) (line 8).
    let rt = -(b[1] + 0.1 * r[0]) / 0.4;
    assert!((r[1] - rt).abs() < 1e-12 * rt.abs());
    // Explicit variant, line 6: R_N = s(−min(g,0))^m − d U_N^t.
    let r = law.reaction3_explicit(&input, 10.0, h, &mut coh);
    assert!((r[0] - (s * 1e-3 + d * 0.2)).abs() < 1e-12);
}

#[test]
fn cohesion_allows_tension_up_to_the_cohesion() {
    // Separating velocity with a dashpot gives tension R_N < 0.
    let law = SpringDashpot {
        stiffness: 1e4,
        damping: 100.0,
        hertz_power: 1.0,
        cohesion: 5.0,
    };
    let w = Matrix3::identity() * 1e-3;
    let tension = |bn: f64, cohesive: &mut bool| {
        law.reaction3(
            &input(w, Vector3::new(bn, 0.0, 0.0), 1e-4, bn),
            1.0,
            1e-3,
            cohesive,
        )
    };
    // Small tension: kept, still cohesive.
    let mut coh = true;
    let r = tension(0.02, &mut coh);
    assert!(r[0] < 0.0 && r[0] > -5.0 && coh, "{r:?} {coh}");
    // Large tension: capped at −cohesion and the bond breaks.
    let mut coh = true;
    let r = tension(1.0, &mut coh);
    assert_eq!(r[0], -5.0);
    assert!(!coh);
    // Not cohesive: no tension at all.
    let mut coh = false;
    assert_eq!(tension(0.02, &mut coh), Vector3::zeros());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn friction_bounded_by_mu(
        b in prop::array::uniform3(-1.0f64..1.0),
        rp in prop::array::uniform3(-10.0f64..10.0),
        gap in -1e-2f64..1e-2,
        un in -1.0f64..1.0,
        mu in 0.0f64..2.0,
        cohesive in any::<bool>(),
        m in 1.0f64..2.0,
    ) {
        let law = SpringDashpot { stiffness: 1e5, damping: 50.0, hertz_power: m, cohesion: 3.0 };
        let w = Matrix3::new(0.5, 0.1, -0.05, 0.1, 0.4, 0.02, -0.05, 0.02, 0.3);
        let mut coh = cohesive;
        let inp = PenaltyInput { w, b: Vector3::from(b), r_prev: Vector3::from(rp), gap, un_prev: un };
        let r = law.reaction3(&inp, mu, 1e-3, &mut coh);
        let rt = r[1].hypot(r[2]);
        prop_assert!(rt <= mu * r[0].abs() * (1.0 + 1e-12) + 1e-300, "R = {r:?}, mu = {mu}");
        prop_assert!(r[0] >= -3.0, "tension beyond the cohesion: {r:?}");
        if !cohesive {
            prop_assert!(r[0] >= 0.0);
            prop_assert!(!coh);
        }
        // 2D agrees with the 3D law restricted to one tangent.
        let w2 = Matrix2::new(w[(0, 0)], w[(0, 1)], w[(1, 0)], w[(1, 1)]);
        let inp2 = PenaltyInput { w: w2, b: Vector2::new(b[0], b[1]), r_prev: Vector2::new(rp[0], rp[1]), gap, un_prev: un };
        let mut coh2 = cohesive;
        let r2 = law.reaction2(&inp2, mu, 1e-3, &mut coh2);
        prop_assert!(r2[1].abs() <= mu * r2[0].abs() * (1.0 + 1e-12) + 1e-300);
    }
}
