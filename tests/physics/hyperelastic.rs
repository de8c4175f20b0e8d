//! Material laws: stresses against finite differences of the energy, tangents
//! against finite differences of the stresses, and the energy identity of the
//! algorithmic stresses (Simo & Tarnow 1992; Gonzalez 2000; DESIGN §4).

use crate::common::fe::{materials, LAMBDA, MU};
use emcontact::material::discrete_gradient::DISCRETE_GRADIENT_THRESHOLD;
use emcontact::material::{Material, Svk};
use nalgebra::Matrix3;
use proptest::prelude::*;

/// `C = FᵀF` with `F = I + P`, `|P_ij| ≤ 0.3` (so `det F > 0`: `‖P‖₂ ≤ 0.9`).
fn cauchy_green(p: [f64; 9]) -> Matrix3<f64> {
    let f = Matrix3::identity() + Matrix3::from_row_slice(&p);
    f.transpose() * f
}

fn sym(p: [f64; 6]) -> Matrix3<f64> {
    Matrix3::new(p[0], p[3], p[5], p[3], p[1], p[4], p[5], p[4], p[2])
}

/// Unit symmetric perturbation of component (i, j) (both (i,j) and (j,i) set).
fn unit_sym(i: usize, j: usize) -> Matrix3<f64> {
    let mut e = Matrix3::zeros();
    e[(i, j)] = 1.0;
    e[(j, i)] = 1.0;
    e
}

fn pmat() -> impl Strategy<Value = [f64; 9]> {
    prop::array::uniform9(-0.3..0.3f64)
}

fn psym() -> impl Strategy<Value = [f64; 6]> {
    prop::array::uniform6(-1.0..1.0f64)
}

/// Relative difference `‖a − b‖ / max(‖b‖, floor)`.
fn rel(a: &Matrix3<f64>, b: &Matrix3<f64>, floor: f64) -> f64 {
    (a - b).norm() / b.norm().max(floor)
}

proptest! {
    /// `S_ij = 2∂W/∂C_ij` by central differences on symmetric C (h = 1e-6).
    #[test]
    fn stress_is_twice_energy_gradient(p in pmat()) {
        let c = cauchy_green(p);
        let h = 1e-6;
        for m in materials() {
            let s = m.stress(&c);
            let mut sfd = Matrix3::zeros();
            for i in 0..3 {
                for j in i..3 {
                    // Diagonal: W(C ± h e_ii) → ∂W/∂C_ii; off-diagonal: both entries move,
                    // dW = 2 ∂W/∂C_ij h = S_ij h.
                    let e = unit_sym(i, j);
                    let d = (m.energy(&(c + e * h)) - m.energy(&(c - e * h))) / (2.0 * h);
                    let v = if i == j { 2.0 * d } else { d };
                    sfd[(i, j)] = v;
                    sfd[(j, i)] = v;
                }
            }
            // FD error: h²·W''' ~ 1e-12 plus ε·W/h ~ 1e-10.
            prop_assert!(rel(&s, &sfd, MU) < 1e-8, "{m:?}: S {s} vs FD {sfd}");
        }
    }

    /// `Tangent::apply(dC)` equals the central difference of `S` along a random
    /// symmetric `dC`; and `diag(w)·T` is symmetric (hyperelastic major symmetry).
    #[test]
    fn tangent_matches_fd_of_stress(p in pmat(), d in psym()) {
        let c = cauchy_green(p);
        let dc = sym(d);
        let h = 1e-6;
        for m in materials() {
            let t = m.tangent(&c);
            let ds = t.apply(&dc);
            let fd = (m.stress(&(c + dc * h)) - m.stress(&(c - dc * h))) / (2.0 * h);
            prop_assert!(rel(&ds, &fd, MU) < 1e-8, "{m:?}: {ds} vs FD {fd}");
            // A:(T B) = B:(T A)
            let a = sym([d[1], d[2], d[0], d[5], d[3], d[4]]);
            let lhs = a.dot(&t.apply(&dc));
            let rhs = dc.dot(&t.apply(&a));
            prop_assert!((lhs - rhs).abs() <= 1e-13 * (1.0 + lhs.abs()), "{lhs} vs {rhs}");
        }
    }

    /// `∂S_alg/∂C1` against central differences of `S_alg(C0, ·)`.
    #[test]
    fn algorithmic_tangent_matches_fd(p0 in pmat(), p1 in pmat(), d in psym()) {
        let c0 = cauchy_green(p0);
        let c1 = cauchy_green(p1);
        let dc = sym(d);
        let h = 1e-6;
        for m in materials() {
            let ds = m.algorithmic_tangent(&c0, &c1).apply(&dc);
            let fd = (m.algorithmic_stress(&c0, &(c1 + dc * h))
                - m.algorithmic_stress(&c0, &(c1 - dc * h)))
                / (2.0 * h);
            prop_assert!(rel(&ds, &fd, MU) < 1e-7, "{m:?}: {ds} vs FD {fd}");
        }
    }

    /// The exact algorithmic tangent also for small steps `ΔC ~ 10⁻ᵏ` (k ≤ 6, down to
    /// 100× the discrete-gradient threshold), against 4th-order central differences
    /// with `h = min(0.02 |ΔC|, 10⁻³)`: relative error below 1e-6. The stencil's own
    /// error is truncation `~(h/|ΔC|)⁴|ΔC|` plus round-off `~ε|S|/h`, observed up to
    /// 1.2e-7 at `|ΔC| ~ 1e-6`; an error in the correction terms (relative size
    /// `O(|ΔC|)`) shows up as ≥ 1e-4 for k ≤ 4. (A 2nd-order stencil would need
    /// `h ≪ |ΔC|` and drown in round-off.)
    #[test]
    fn algorithmic_tangent_small_steps(p0 in pmat(), q in pmat(), d in psym(), k in 0i32..7) {
        let f0 = Matrix3::identity() + Matrix3::from_row_slice(&p0);
        let f1 = f0 * (Matrix3::identity() + Matrix3::from_row_slice(&q) * 10f64.powi(-k));
        let c0 = f0.transpose() * f0;
        let c1 = f1.transpose() * f1;
        let dc = sym(d);
        prop_assume!((c1 - c0).norm() > 1e-2 * 10f64.powi(-k) && dc.norm() > 0.1);
        let h = (0.02 * (c1 - c0).norm()).min(1e-3) / dc.norm();
        for m in materials() {
            let ds = m.algorithmic_tangent(&c0, &c1).apply(&dc);
            let sa = |t: f64| m.algorithmic_stress(&c0, &(c1 + dc * t));
            let fd = (sa(-2.0 * h) - sa(2.0 * h) + (sa(h) - sa(-h)) * 8.0) / (12.0 * h);
            prop_assert!(rel(&ds, &fd, MU) < 1e-6, "{m:?} k={k}: {} ", rel(&ds, &fd, MU));
        }
    }

    /// `W(C1) − W(C0) = ½ S_alg:(C1 − C0)` to round-off, for finite and tiny `ΔC`
    /// (scales 1 … 1e-14, across the discrete-gradient threshold).
    /// `C1 = F1ᵀF1` with `F1 = F0 (I + 10⁻ᵏ Q)`, `det F1 > 0`.
    #[test]
    fn discrete_gradient_identity(p0 in pmat(), q in pmat(), k in 0i32..15) {
        let f0 = Matrix3::identity() + Matrix3::from_row_slice(&p0);
        let f1 = f0 * (Matrix3::identity() + Matrix3::from_row_slice(&q) * 10f64.powi(-k));
        let c0 = f0.transpose() * f0;
        let c1 = f1.transpose() * f1;
        for m in materials() {
            let s = m.algorithmic_stress(&c0, &c1);
            let w0 = m.energy(&c0);
            let w1 = m.energy(&c1);
            let work = 0.5 * s.dot(&(c1 - c0));
            // Naive W1 − W0 carries round-off ε·(|W| + μ tr C); measure against that.
            let scale = w0.abs() + w1.abs() + MU * c0.trace() + s.norm() * (c1 - c0).norm();
            prop_assert!((w1 - w0 - work).abs() <= 1e-14 * scale,
                "{m:?} k={k}: ΔW={} work={work} scale={scale}", w1 - w0);
            // Against the cancellation-free difference the identity holds relative
            // to the increment itself.
            let dw = m.energy_difference(&c0, &c1);
            let inc = (s.norm() + MU) * (c1 - c0).norm();
            prop_assert!((dw - work).abs() <= 1e-14 * inc,
                "{m:?} k={k}: ΔW={dw} work={work} inc={inc}");
        }
    }

    /// The cancellation-free neo-Hookean energy difference agrees with the naive one.
    #[test]
    fn energy_difference_matches_naive(p0 in pmat(), p1 in pmat()) {
        let c0 = cauchy_green(p0);
        let c1 = cauchy_green(p1);
        for m in materials() {
            let naive = m.energy(&c1) - m.energy(&c0);
            let dw = m.energy_difference(&c0, &c1);
            let scale = m.energy(&c1).abs() + m.energy(&c0).abs() + MU;
            prop_assert!((dw - naive).abs() <= 1e-14 * scale, "{m:?}: {dw} vs {naive}");
        }
    }

    /// `S_alg(C, C) = S(C)` exactly, and the algorithmic tangent there is `½ ∂S/∂C`.
    #[test]
    fn algorithmic_stress_consistent(p in pmat(), d in psym()) {
        let c = cauchy_green(p);
        let dc = sym(d);
        for m in materials() {
            prop_assert_eq!(m.algorithmic_stress(&c, &c), m.stress(&c));
            let ta = m.algorithmic_tangent(&c, &c).apply(&dc);
            let t = m.tangent(&c).apply(&dc) * 0.5;
            prop_assert!(rel(&ta, &t, MU) < 1e-15, "{m:?}: {ta} vs {t}");
        }
    }

    /// Across the threshold the discrete gradient is continuous: just above it,
    /// `S_alg` equals `S(C_m)` to ~δ² + round-off and the exact tangent equals `½ ∂S/∂C|_{C_m}`
    /// to ~δ (δ = 1e-8).
    #[test]
    fn discrete_gradient_continuous_at_threshold(p0 in pmat(), d in psym()) {
        let m = materials()[1];
        let c0 = cauchy_green(p0);
        let dir = sym(d);
        let dc = dir * (3.0 * DISCRETE_GRADIENT_THRESHOLD * c0.norm() / dir.norm());
        let c1 = c0 + dc;
        let cm = (c0 + c1) * 0.5;
        let s = m.algorithmic_stress(&c0, &c1);
        // the jump is O(δ²) ≈ 1e-16 plus the round-off of φ = ΔW − ½S_m:ΔC (a
        // cancellation of terms of size (|S| + μ)|ΔC|), observed up to 1.0e-14
        prop_assert!(rel(&s, &m.stress(&cm), MU) < 1e-13, "{:e}", rel(&s, &m.stress(&cm), MU));
        let ta = m.algorithmic_tangent(&c0, &c1).0;
        let tm = m.tangent(&cm).0 * 0.5;
        prop_assert!((ta - tm).norm() / tm.norm() < 1e-6, "{}", (ta - tm).norm() / tm.norm());
    }
}

/// The Simo–Tarnow stress is the stress of the average strain, and its tangent is
/// exactly `¼ ℂ` (λ/4 on the normal block, μ/2 on the diagonal).
#[test]
fn svk_simo_tarnow_closed_form() {
    let m = Svk {
        lambda: LAMBDA,
        mu: MU,
    };
    let mat = Material::Svk(m);
    let c0 = cauchy_green([0.1, -0.2, 0.05, 0.0, 0.2, 0.1, -0.1, 0.03, -0.2]);
    let c1 = cauchy_green([-0.1, 0.1, 0.0, 0.25, 0.1, -0.1, 0.0, 0.2, 0.1]);
    let s = mat.algorithmic_stress(&c0, &c1);
    let s_avg = mat.stress(&((c0 + c1) * 0.5));
    assert!(rel(&s, &s_avg, MU) < 1e-15);
    let t = mat.algorithmic_tangent(&c0, &c1).0;
    for i in 0..6 {
        for j in 0..6 {
            let mut e = if i < 3 && j < 3 { LAMBDA / 4.0 } else { 0.0 };
            if i == j {
                e += MU / 2.0;
            }
            assert_eq!(t[(i, j)], e);
        }
    }
}

/// Stress-free reference state and small-strain limit: `S(I) = 0` and
/// `∂S/∂C|_I` = `λ/2 I⊗I + μ 𝕀` for both laws.
#[test]
fn reference_state_and_linear_limit() {
    let c = Matrix3::identity();
    for m in materials() {
        assert!(m.stress(&c).norm() < 1e-16);
        assert!(m.energy(&c).abs() < 1e-16);
        let t = m.tangent(&c).0;
        let want = Material::Svk(Svk {
            lambda: LAMBDA,
            mu: MU,
        })
        .tangent(&c)
        .0;
        assert!((t - want).norm() < 1e-15, "{m:?}: {t}");
    }
}

/// Neo-Hookean energy is +∞ for `det C ≤ 0`.
#[test]
fn neo_hookean_rejects_nonpositive_det() {
    let m = materials()[1];
    let c = Matrix3::from_diagonal(&nalgebra::Vector3::new(1.0, -1.0, 1.0));
    assert_eq!(m.energy(&c), f64::INFINITY);
    assert!(m.stress(&c).iter().all(|v| v.is_nan()));
}
