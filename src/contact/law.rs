//! Contact laws at one contact point: the normal cases of Love & Laursen 2003,
//! Table 1 / eq. 79 (augmented Lagrangian, multiplier fixed during a Newton
//! solve) and the Coulomb stick/slip return mapping, eqs. 80–83, with the
//! multiplier reset of the end of §3.6. Sign conventions of this code (DESIGN §3):
//! `g ≥ 0` separated, `p_N ≥ 0`, `v_N < 0` approaching.

/// Which row of Table 1 applies at the current iterate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormalCase {
    /// Not in contact at `n`, no pressure.
    Open,
    /// Not in contact at `n`: enforcing `g_{n+1} = 0`.
    New,
    /// In contact at `n`: enforcing `v_N = 0` (persistency).
    Persistent,
    /// In contact at `n`, but the persistency constraint let the gap drift
    /// below the drift bound `−δ` in this step: enforcing `g_{n+1} = −δ`
    /// instead (see [`guarded_law`]).
    Guarded,
    /// In contact at `n`, no pressure: the point releases.
    Released,
}

impl NormalCase {
    /// Whether this case carries pressure.
    pub fn enforces(self) -> bool {
        matches!(
            self,
            NormalCase::New | NormalCase::Persistent | NormalCase::Guarded
        )
    }
}

/// Normal pressure and case (Love & Laursen 2003, eq. 79 and Table 1):
/// a point not in contact at `n` gets `p = ⟨λ_N − ε_N g_{n+1}⟩` (impenetrability
/// at the end of the step), a point in contact at `n` gets
/// `p = ⟨λ_N − ε_N Δt v_N⟩` (persistency). Table 1 switches to `p = 0` on the sign
/// of `g_{n+1}` or `v_N`; with a warm-started multiplier `λ_N > 0` that switch is
/// a jump of the pressure that makes Newton cycle, so here the Macaulay bracket
/// alone decides: it is continuous, equals Table 1 in the penalty limit
/// (`λ_N = 0`), and at converged augmentations gives the same complementarity
/// (`p > 0 ⇒` constraint met, constraint slack `⇒ p = 0`).
pub fn normal_law(
    in_contact: bool,
    lambda: f64,
    eps: f64,
    g1: f64,
    dt: f64,
    v_n: f64,
) -> (NormalCase, f64) {
    if in_contact {
        let p = (lambda - eps * dt * v_n).max(0.0);
        (
            if p > 0.0 {
                NormalCase::Persistent
            } else {
                NormalCase::Released
            },
            p,
        )
    } else {
        let p = (lambda - eps * g1).max(0.0);
        (
            if p > 0.0 {
                NormalCase::New
            } else {
                NormalCase::Open
            },
            p,
        )
    }
}

/// Drift control of persistent contact (not in the paper; DESIGN §7 notes the
/// trade-off). Table 1 enforces only the rate `v_N = 0` once a point is in
/// contact, so its gap drifts by the difference between the midpoint rate
/// and the true change of the gap. On a faceted master surface that
/// difference is first order in the slide per step (the normal jumps at each
/// face boundary the slave crosses): on the friction blocks at μ = 0.2 the
/// leading edge, sliding 0.6 h per step over the base it dents, sank by
/// 1.0e-3 h in one step. A persistent point found below `−δ` at a converged
/// solve is enforced on its gap instead, `p = ⟨λ_N − ε_N (g_{n+1} + δ)⟩`, for
/// the rest of the step: the penetration stays within `δ` + tolerance.
///
/// Pushing the point back out does positive work `Δt w j p_N v_N` that the
/// rate form would not have done. The velocity update takes it back where its
/// quadratic has a root (a sliding point: the extra impulse is friction
/// opposing the slide, `b < 0`); elsewhere it is reported as update defect.
/// That is why `δ` is a bound on drift, well above the constraint tolerance,
/// and not zero.
pub fn guarded_law(lambda: f64, eps: f64, g1: f64, bound: f64) -> (NormalCase, f64) {
    // the rate is unused in the guarded form; normal_pressure is the active
    // branch, unclamped
    let p = normal_pressure(NormalCase::Guarded, lambda, eps, g1, 0.0, 0.0, bound).max(0.0);
    (
        if p > 0.0 {
            NormalCase::Guarded
        } else {
            NormalCase::Released
        },
        p,
    )
}

/// Pressure of a given case (the case frozen, for the finite-difference
/// tangent); `bound` is the drift bound `δ` of [`NormalCase::Guarded`].
///
/// The branch of an enforcing case is not clamped at zero: the tangent is the
/// derivative of the active branch. A grazing point (`p` smaller than the
/// penalty times the difference step, e.g. a new contact with `g_{n+1}` of a
/// few nanometres) would otherwise have one side of the central difference
/// clamped, half its normal stiffness in the matrix, and Newton would converge
/// only linearly (ring, t = 1.22: 25 iterations at rate 0.85, then a cut-back).
pub fn normal_pressure(
    case: NormalCase,
    lambda: f64,
    eps: f64,
    g1: f64,
    dt: f64,
    v_n: f64,
    bound: f64,
) -> f64 {
    match case {
        NormalCase::New => lambda - eps * g1,
        NormalCase::Persistent => lambda - eps * dt * v_n,
        NormalCase::Guarded => lambda - eps * (g1 + bound),
        _ => 0.0,
    }
}

/// Result of the tangential return mapping.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tangential {
    /// Covariant traction components `t_{Tα}`.
    pub t: [f64; 2],
    /// `true`: slip (on the Coulomb cone); `false`: stick.
    pub slip: bool,
}

/// Norm of covariant components with the inverse metric: `‖t‖² = t_α m^{αβ} t_β`.
pub fn covariant_norm(t: [f64; 2], m_inv: &[[f64; 2]; 2], n: usize) -> f64 {
    let mut s = 0.0;
    for a in 0..n {
        for b in 0..n {
            s += t[a] * m_inv[a][b] * t[b];
        }
    }
    s.max(0.0).sqrt()
}

/// Return mapping (eqs. 80–83): trial `t^tr_α = λ_α − ε_T Δt m_αβ v^β_T`,
/// `Φ = ‖t^tr‖ − μ p_N`; stick if `Φ ≤ 0`, else scale onto the cone.
/// `lambda` are covariant multiplier components, `v` contravariant slip rates,
/// `n` the number of tangent directions (1 in 2D, 2 in 3D).
pub fn return_map(
    lambda: [f64; 2],
    eps_t: f64,
    dt: f64,
    m: &[[f64; 2]; 2],
    m_inv: &[[f64; 2]; 2],
    v: [f64; 2],
    mu: f64,
    p_n: f64,
    n: usize,
) -> Tangential {
    let mut trial = [0.0; 2];
    for a in 0..n {
        let mut mv = 0.0;
        for b in 0..n {
            mv += m[a][b] * v[b];
        }
        trial[a] = lambda[a] - eps_t * dt * mv;
    }
    let norm = covariant_norm(trial, m_inv, n);
    let limit = mu * p_n;
    if norm <= limit {
        Tangential {
            t: trial,
            slip: false,
        }
    } else if norm > 0.0 {
        let s = limit / norm;
        Tangential {
            t: [trial[0] * s, trial[1] * s],
            slip: true,
        }
    } else {
        Tangential {
            t: [0.0; 2],
            slip: true,
        }
    }
}

/// The multiplier reset of Love & Laursen §3.6 (end): a tangential multiplier
/// whose power `λ_α v^α` is positive would generate energy; it is zeroed.
pub fn reset_multiplier(lambda: [f64; 2], v: [f64; 2], n: usize) -> [f64; 2] {
    let power: f64 = (0..n).map(|a| lambda[a] * v[a]).sum();
    if power > 0.0 {
        [0.0; 2]
    } else {
        lambda
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const I: [[f64; 2]; 2] = [[1.0, 0.0], [0.0, 1.0]];

    #[test]
    fn table_1_cases_and_pressures() {
        // not in contact at n: g_{n+1} decides (λ = 0)
        assert_eq!(
            normal_law(false, 0.0, 100.0, 0.1, 0.1, -1.0),
            (NormalCase::Open, 0.0)
        );
        assert_eq!(
            normal_law(false, 0.0, 100.0, -0.01, 0.1, -1.0),
            (NormalCase::New, 1.0)
        );
        // in contact at n: v_N decides
        let (c, p) = normal_law(true, 2.0, 100.0, -0.01, 0.1, -0.5);
        assert_eq!(c, NormalCase::Persistent);
        assert!((p - 7.0).abs() < 1e-14);
        assert_eq!(
            normal_law(true, 0.0, 100.0, -0.01, 0.1, 0.5),
            (NormalCase::Released, 0.0)
        );
        // continuity at the switch with a warm multiplier: p → 0 as λ − εΔt v_N → 0
        let (_, p) = normal_law(true, 1.0, 100.0, 0.0, 0.1, 0.1 - 1e-12);
        assert!(p > 0.0 && p < 1e-9);
        for c in [NormalCase::Open, NormalCase::Released] {
            assert_eq!(normal_pressure(c, 5.0, 100.0, -1.0, 0.1, -1.0, 0.0), 0.0);
        }
    }

    #[test]
    fn guarded_point_is_pushed_back_to_the_drift_bound() {
        // 0.3 below the bound of 0.2: pressure λ + ε·0.1, whatever the rate
        let (c, p) = guarded_law(1.0, 100.0, -0.3, 0.2);
        assert_eq!(c, NormalCase::Guarded);
        assert!((p - 11.0).abs() < 1e-12, "p = {p}");
        assert_eq!(
            normal_pressure(NormalCase::Guarded, 1.0, 100.0, -0.3, 0.1, 5.0, 0.2),
            p
        );
        // above the bound with no multiplier left: released
        assert_eq!(
            guarded_law(0.0, 100.0, -0.1, 0.2),
            (NormalCase::Released, 0.0)
        );
        assert!(NormalCase::Guarded.enforces());
    }

    #[test]
    fn frozen_pressure_is_the_unclamped_active_branch() {
        // A grazing new contact (g1 = −4e-9, ε = 1e4): a central difference of
        // step 8e-8 straddles the kink. The frozen branch stays linear, so its
        // derivative is the full −ε on both sides.
        let (eps, h) = (1e4, 8e-8);
        let g = -4e-9;
        let fp = normal_pressure(NormalCase::New, 0.0, eps, g + h, 0.1, 0.0, 0.0);
        let fm = normal_pressure(NormalCase::New, 0.0, eps, g - h, 0.1, 0.0, 0.0);
        assert!(fp < 0.0, "unclamped: {fp}");
        assert!(((fp - fm) / (2.0 * h) + eps).abs() < 1e-6 * eps);
        // persistent: derivative −εΔt in v_N across v_N = λ/(εΔt)
        let (lam, dt) = (1.0, 0.1);
        let v = lam / (eps * dt);
        let d = (normal_pressure(NormalCase::Persistent, lam, eps, 0.0, dt, v + 1e-6, 0.0)
            - normal_pressure(NormalCase::Persistent, lam, eps, 0.0, dt, v - 1e-6, 0.0))
            / 2e-6;
        assert!((d + eps * dt).abs() < 1e-6 * eps * dt, "d = {d}");
        // the law itself (the residual) still clamps
        assert_eq!(normal_law(false, 0.0, eps, 1e-9, dt, 0.0).1, 0.0);
    }

    #[test]
    fn stick_inside_the_cone_slip_on_it() {
        // stick: small slip rate
        let s = return_map([0.0; 2], 10.0, 0.1, &I, &I, [0.1, 0.0], 0.5, 10.0, 2);
        assert!(!s.slip);
        assert!((s.t[0] + 0.1).abs() < 1e-15);
        // slip: traction on the cone, opposing the slip
        let s = return_map([0.0; 2], 1000.0, 0.1, &I, &I, [3.0, 4.0], 0.5, 10.0, 2);
        assert!(s.slip);
        assert!((covariant_norm(s.t, &I, 2) - 5.0).abs() < 1e-12);
        let power = s.t[0] * 3.0 + s.t[1] * 4.0;
        assert!(power < 0.0, "friction dissipates: power {power}");
        // non-orthonormal metric: norm with the inverse metric
        let m = [[4.0, 0.0], [0.0, 1.0]];
        let mi = [[0.25, 0.0], [0.0, 1.0]];
        let s = return_map([0.0; 2], 1000.0, 0.1, &m, &mi, [1.0, 0.0], 0.5, 2.0, 2);
        assert!((covariant_norm(s.t, &mi, 2) - 1.0).abs() < 1e-12);
    }

    #[test]
    fn multiplier_reset_only_when_it_would_generate_energy() {
        assert_eq!(reset_multiplier([1.0, 0.0], [1.0, 0.0], 2), [0.0, 0.0]);
        assert_eq!(reset_multiplier([-1.0, 0.0], [1.0, 0.0], 2), [-1.0, 0.0]);
    }
}
