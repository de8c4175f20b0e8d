//! The contact law at one point: which constraint Table 1 of Love & Laursen
//! 2003 puts on it, the Signorini–Coulomb law in the point's orthonormal
//! frame, and the one place where open / stick / slip is decided.
//!
//! # The law in the point frame
//!
//! A point's unknowns are `r = [r_N, r_T1, r_T2]` (2D: `[r_N, r_T]`), the
//! normal and tangential contact forces in an orthonormal frame
//! `(ν, e_1, e_2)` of the midpoint geometry (`r = w j [p_N, t·e_1, t·e_2]`,
//! force units: the point's tributary area `w j` times the traction), and its
//! velocities `u = [u_N, u_T1, u_T2]`: the tangential ones are the objective
//! midpoint slip rates `v_T·e_i` (Love & Laursen eq. 52), the normal one is
//! what Table 1 enforces (this code's sign, DESIGN §3: `u_N ≥ 0` separating):
//!
//! | state at `t_n` | constraint | `u_N` |
//! |---|---|---|
//! | not in contact | `g_{n+1} ≥ 0` (new contact closes the gap) | `g_{n+1}/Δt` |
//! | in contact | `v_N ≥ 0` (persistency) | `v_N` (eq. 51) |
//! | in contact, drifted below `−δ` | `g_{n+1} ≥ −δ` (drift bound) | `(g_{n+1} + δ)/Δt` |
//!
//! The Signorini–Coulomb law between them (Acary, Brémond & Dubois 2017,
//! problem 1; the FC problems of [`crate::nonsmooth`]) is
//! `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K`, `K = {‖r_T‖ ≤ μ r_N}`: open (`r = 0`,
//! `u_N ≥ 0`), stick (`r ∈ int K`, `u = 0`) or slip (`‖r_T‖ = μ r_N`,
//! `u_N = 0`, `u_T = −α r_T`). Table 1's release rows are its open branch.
//! Exact enforcement solves it; the augmented Lagrangian solves the
//! Alart–Curnier equations of the same law inside Newton; the penalty law
//! ([`penalty`]) regularizes it.
//!
//! The frictional power per unit area is `t_α v^α_T = (r_T·u_T)/(w j)`, and the
//! contact power `(r·u)/(w j)` for persistent points (DESIGN §5).

use super::geometry::real::Real;

/// Which normal constraint a point carries in this step (Table 1), from its
/// state at `t_n`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Constraint {
    /// Not in contact at `n`: `g_{n+1} ≥ 0`.
    Gap,
    /// In contact at `n`: `v_N ≥ 0` (persistency).
    Rate,
    /// In contact at `n`, but the persistency constraint let the gap drift
    /// below the drift bound `−δ` in this step: `g_{n+1} ≥ −δ` instead. Not in
    /// the paper: the midpoint rate differs from the true change of the gap,
    /// on a faceted master by an amount first order in the slide per step
    /// (the normal jumps at each face boundary), so persistent contact would
    /// drift into the master. Pushing a drifted point back out does work
    /// that the velocity update takes back (DESIGN §6); `δ` bounds the drift.
    Guarded { bound: f64 },
}

impl Constraint {
    /// The normal velocity `u_N` this constraint enforces (table above).
    #[inline]
    pub fn normal_velocity<T: Real>(self, g1: T, v_n: T, dt: f64) -> T {
        match self {
            Constraint::Gap => g1 / dt,
            Constraint::Rate => v_n,
            Constraint::Guarded { bound } => (g1 + bound) / dt,
        }
    }

    /// Whether the gap itself is enforced (a new contact or a guarded one).
    pub fn on_gap(self) -> bool {
        !matches!(self, Constraint::Rate)
    }
}

/// What a point does at the current iterate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointState {
    /// No normal force.
    Open,
    /// Pressed, tangential force inside the Coulomb cone.
    Stick,
    /// Pressed, tangential force on the cone (or frictionless).
    Slip,
}

impl PointState {
    pub fn active(self) -> bool {
        self != PointState::Open
    }
}

/// Relative margin of the cone below which a tangential force sticks.
const CONE_MARGIN: f64 = 1e-10;

/// The point's state from its force (the only place stick/slip is decided):
/// open without normal force, slip on the cone `‖r_T‖ = μ r_N` (and every
/// pressed frictionless point: it has nothing to stick with), stick inside.
pub fn classify(r: [f64; 3], mu: f64, nt: usize) -> PointState {
    if !(r[0] > 0.0) {
        return PointState::Open;
    }
    let rt = tangential_norm(r, nt);
    if mu == 0.0 || rt >= mu * r[0] * (1.0 - CONE_MARGIN) {
        PointState::Slip
    } else {
        PointState::Stick
    }
}

/// `‖r_T‖` of a point vector (`nt` tangent directions).
#[inline]
pub fn tangential_norm<T: Real>(r: [T; 3], nt: usize) -> T {
    let mut s = T::zero();
    for v in &r[1..=nt] {
        s += *v * *v;
    }
    if s.re() > 0.0 {
        s.sqrt()
    } else {
        T::zero()
    }
}

/// Penalty law (Love & Laursen 2003, eqs. 79–83 with the multipliers at
/// zero): `r_N = ⟨−ρ_N u_N⟩`, trial `r_T = −ρ_T u_T` returned onto the cone
/// `‖r_T‖ ≤ μ r_N`. With `ρ = w j ε Δt` this is `p = ε⟨−g_{n+1}⟩` for a new
/// contact and `ε⟨−Δt v_N⟩` for a persistent one, and the tangential return
/// map `t^tr = −ε_T Δt m_αβ v^β` in covariant form. Written for any scalar, so
/// that its dual evaluation gives the consistent tangent of the law.
pub fn penalty<T: Real>(u: [T; 3], rho_n: f64, rho_t: f64, mu: f64, nt: usize) -> [T; 3] {
    let z = T::zero();
    let mut r = [z; 3];
    let rn = -u[0] * rho_n;
    if !(rn.re() > 0.0) {
        return r;
    }
    r[0] = rn;
    if mu == 0.0 {
        return r;
    }
    for i in 1..=nt {
        r[i] = -u[i] * rho_t;
    }
    let norm = tangential_norm(r, nt);
    let limit = rn * mu;
    if norm.re() > limit.re() {
        let s = limit / norm;
        for v in &mut r[1..=nt] {
            *v = *v * s;
        }
    }
    r
}

/// How far `(r, u)` is from the law, as a length (the velocities times
/// `Δt`): for a pressed point `Δt|u_N|` (the constraint is met), plus
/// `Δt‖u_T‖` in stick, or in slip the part of `Δt u_T` not opposed to `r_T`;
/// for an open point the penetration `Δt⟨−u_N⟩`; and how far `r` lies
/// outside the cone, `⟨‖r_T‖ − μ r_N⟩` relative to `r_N`, times `Δt‖u‖`.
pub fn violation(r: [f64; 3], u: [f64; 3], mu: f64, nt: usize, dt: f64) -> f64 {
    let state = classify(r, mu, nt);
    if state == PointState::Open {
        return dt * (-u[0]).max(0.0);
    }
    let ut = tangential_norm(u, nt);
    let tangential = match state {
        _ if mu == 0.0 => 0.0,
        PointState::Stick => ut,
        _ => {
            // u_T should be −α r_T with α ≥ 0: the residual of that direction
            let rt = tangential_norm(r, nt);
            let mut s = 0.0;
            for i in 1..=nt {
                let d = u[i] + ut * r[i] / rt;
                s += d * d;
            }
            s.sqrt()
        }
    };
    let outside = (tangential_norm(r, nt) - mu * r[0]).max(0.0) / r[0];
    dt * (u[0].abs() + tangential + outside * (u[0].abs() + ut))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contact::geometry::real::Dual;

    #[test]
    fn table_1_normal_velocities() {
        let (g1, v, dt) = (-0.01, -0.5, 0.1);
        assert_eq!(Constraint::Gap.normal_velocity(g1, v, dt), g1 / dt);
        assert_eq!(Constraint::Rate.normal_velocity(g1, v, dt), v);
        let b = Constraint::Guarded { bound: 0.02 };
        assert!((b.normal_velocity(g1, v, dt) - 0.1).abs() < 1e-15);
        assert!(b.on_gap() && Constraint::Gap.on_gap() && !Constraint::Rate.on_gap());
    }

    #[test]
    fn penalty_sticks_inside_the_cone_and_slips_on_it() {
        // approaching at 1, sliding slowly: stick, r_T = −ρ_T u_T
        let r = penalty([-1.0, 0.1, 0.0], 100.0, 100.0, 0.5, 2);
        assert_eq!(r, [100.0, -10.0, 0.0]);
        assert_eq!(classify(r, 0.5, 2), PointState::Stick);
        // fast slide: on the cone, opposing the slip
        let r = penalty([-1.0, 3.0, 4.0], 100.0, 100.0, 0.5, 2);
        assert!((tangential_norm(r, 2) - 50.0).abs() < 1e-12);
        assert!(r[1] * 3.0 + r[2] * 4.0 < 0.0, "friction dissipates");
        assert_eq!(classify(r, 0.5, 2), PointState::Slip);
        // separating: open
        assert_eq!(penalty([1e-3, 3.0, 4.0], 100.0, 100.0, 0.5, 2), [0.0; 3]);
        assert_eq!(classify([0.0; 3], 0.5, 2), PointState::Open);
        assert_eq!(classify([1.0, 0.0, 0.0], 0.0, 2), PointState::Slip);
    }

    #[test]
    fn penalty_tangent_is_the_derivative_of_the_active_branch() {
        // slip branch: d r_T / d u_T is the projection's Jacobian
        let u0 = [-1.0, 3.0, 4.0];
        let ud: [Dual<3>; 3] = std::array::from_fn(|i| Dual::var(u0[i], i));
        let r = penalty(ud, 100.0, 80.0, 0.5, 2);
        let h = 1e-6;
        for j in 0..3 {
            let (mut p, mut m) = (u0, u0);
            p[j] += h;
            m[j] -= h;
            let (rp, rm) = (
                penalty(p, 100.0, 80.0, 0.5, 2),
                penalty(m, 100.0, 80.0, 0.5, 2),
            );
            for i in 0..3 {
                let fd = (rp[i] - rm[i]) / (2.0 * h);
                assert!((r[i].d[j] - fd).abs() < 1e-6 * (1.0 + fd.abs()), "{i}{j}");
            }
        }
    }

    #[test]
    fn violation_is_zero_on_the_law_only() {
        let dt = 0.1;
        // stick with u = 0, slip with u_T opposed to r_T, open separating
        assert_eq!(violation([1.0, 0.1, 0.0], [0.0; 3], 0.5, 2, dt), 0.0);
        assert!(violation([1.0, 0.3, -0.4], [0.0, -3.0, 4.0], 0.5, 2, dt) < 1e-15);
        assert_eq!(violation([0.0; 3], [2.0, 1.0, 0.0], 0.5, 2, dt), 0.0);
        // and positive off it
        assert!((violation([1.0, 0.1, 0.0], [0.0, 1e-3, 0.0], 0.5, 2, dt) - 1e-4).abs() < 1e-15);
        assert!(violation([1.0, 0.3, -0.4], [0.0, 3.0, -4.0], 0.5, 2, dt) > 0.9);
        assert!((violation([0.0; 3], [-2.0, 0.0, 0.0], 0.5, 2, dt) - 0.2).abs() < 1e-15);
        assert!((violation([1.0, 0.0, 0.0], [-1e-3, 0.0, 0.0], 0.0, 2, dt) - 1e-4).abs() < 1e-15);
    }
}
