//! Contact laws at one contact point: the normal cases of Love & Laursen 2003,
//! Table 1 / eq. 79 (augmented Lagrangian, multiplier fixed during a Newton
//! solve) and the Coulomb stick/slip return mapping, eqs. 80–83, with the
//! multiplier reset of the end of §3.6. Sign conventions of this code (DESIGN §3):
//! `g ≥ 0` separated, `p_N ≥ 0`, `v_N < 0` approaching.

/// Which row of Table 1 applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NormalCase {
    /// Not in contact at `n` and `g_{n+1} > 0`.
    Open,
    /// Not in contact at `n`, `g_{n+1} ≤ 0`: enforce `g_{n+1} = 0`.
    New,
    /// In contact at `n`, `g_{n+1} > 0`.
    Released,
    /// In contact at `n`, `v_N ≤ 0`: enforce `v_N = 0` (persistency).
    Persistent,
    /// In contact at `n`, `v_N > 0`, `g_{n+1} ≤ 0`.
    Releasing,
}

impl NormalCase {
    /// Table 1: the case from the state at `n` and the step's kinematics.
    pub fn select(in_contact: bool, g1: f64, v_n: f64) -> NormalCase {
        match (in_contact, g1 > 0.0) {
            (false, true) => NormalCase::Open,
            (false, false) => NormalCase::New,
            (true, true) => NormalCase::Released,
            (true, false) if v_n <= 0.0 => NormalCase::Persistent,
            (true, false) => NormalCase::Releasing,
        }
    }

    /// Whether this case enforces a constraint (and so may carry pressure).
    pub fn enforces(self) -> bool {
        matches!(self, NormalCase::New | NormalCase::Persistent)
    }
}

/// Normal pressure (eq. 79 and Table 1): `⟨λ_N − ε_N g_{n+1}⟩` for new contact,
/// `⟨λ_N − ε_N Δt v_N⟩` for persistent contact, 0 otherwise.
pub fn normal_pressure(case: NormalCase, lambda: f64, eps: f64, g1: f64, dt: f64, v_n: f64) -> f64 {
    match case {
        NormalCase::New => (lambda - eps * g1).max(0.0),
        NormalCase::Persistent => (lambda - eps * dt * v_n).max(0.0),
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
    fn table_1_cases() {
        assert_eq!(NormalCase::select(false, 0.1, -1.0), NormalCase::Open);
        assert_eq!(NormalCase::select(false, -0.1, -1.0), NormalCase::New);
        assert_eq!(NormalCase::select(false, 0.0, -1.0), NormalCase::New);
        assert_eq!(NormalCase::select(true, 0.1, -1.0), NormalCase::Released);
        assert_eq!(NormalCase::select(true, -0.1, -1.0), NormalCase::Persistent);
        assert_eq!(NormalCase::select(true, -0.1, 0.0), NormalCase::Persistent);
        assert_eq!(NormalCase::select(true, -0.1, 1.0), NormalCase::Releasing);
    }

    #[test]
    fn pressures_are_non_negative_and_follow_eq_79() {
        assert_eq!(
            normal_pressure(NormalCase::New, 0.0, 100.0, -0.01, 0.1, -5.0),
            1.0
        );
        assert_eq!(
            normal_pressure(NormalCase::New, 0.0, 100.0, 0.01, 0.1, -5.0),
            0.0
        );
        assert!(
            (normal_pressure(NormalCase::Persistent, 2.0, 100.0, -0.01, 0.1, -0.5) - 7.0).abs()
                < 1e-14
        );
        assert_eq!(
            normal_pressure(NormalCase::Persistent, 0.0, 100.0, -0.01, 0.1, 0.5),
            0.0
        );
        for c in [
            NormalCase::Open,
            NormalCase::Released,
            NormalCase::Releasing,
        ] {
            assert_eq!(normal_pressure(c, 5.0, 100.0, -1.0, 0.1, -1.0), 0.0);
        }
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
