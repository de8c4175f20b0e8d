//! Solfec's semi-explicit spring–dashpot penalty contact law with Hertz power
//! and cohesion (Solfec, "Semi-explicit penalty formulation", eqs. 88–90 and
//! the algorithm SPRING_DASHPOT_CONTACT).
//!
//! This is *not* a frictional-contact solver: it regularizes the law (the
//! reaction follows from the gap and velocities, penetration is allowed), so it
//! is not in [`super::solvers`].
//!
//! Conventions (DESIGN §3): gap `g ≥ 0` separated, `g < 0` penetrated; the
//! normal velocity `U_N > 0` separates; `R_N > 0` is compression. Local
//! dynamics over the step: `U^{t+h} = B + W R` (`B` the free velocity).
//! The gap is the one computed at the mid-step configuration
//! `q^t + (h/2)u^t`, `g = g^t + (h/2)U_N^t` (Solfec, below eq. 89).

use super::common::{M3, V3};
use nalgebra::{SMatrix, SVector};

/// Spring–dashpot penalty parameters (Solfec's `spring`, `dashpot`, `hpow`,
/// `cohesion`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SpringDashpot {
    /// Spring constant `s` (force per unit penetration^m).
    pub stiffness: f64,
    /// Dashpot constant `d` (force per unit velocity).
    pub damping: f64,
    /// Hertz power `m ≥ 1` (`m = 1`: linear spring, `m = 3/2`: Hertz).
    pub hertz_power: f64,
    /// Largest tensile normal force a cohesive contact sustains (`≥ 0`).
    pub cohesion: f64,
}

/// Kinematic state of one contact for [`SpringDashpot::reaction3`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PenaltyInput<const D: usize> {
    /// Diagonal block `W` of the local dynamics `U^{t+h} = B + W R`.
    pub w: SMatrix<f64, D, D>,
    /// Free velocity `B`.
    pub b: SVector<f64, D>,
    /// Previous reaction (its tangential part enters `B̄_N`, line 1).
    pub r_prev: SVector<f64, D>,
    /// Mid-step gap `g` (negative: penetration).
    pub gap: f64,
    /// Normal velocity at the start of the step, `U_N^t`.
    pub un_prev: f64,
}

impl SpringDashpot {
    /// Normal reaction, lines 1–6 of SPRING_DASHPOT_CONTACT: semi-explicit
    /// (eq. 90 with the Hertz power, lines 3–5) or explicit (line 6).
    fn normal<const D: usize>(&self, inp: &PenaltyInput<D>, h: f64, semi_explicit: bool) -> f64 {
        let (s, d, m) = (self.stiffness, self.damping, self.hertz_power);
        // Line 1: B̄_N = B_N + W_NT R_T (previous tangential reaction).
        let mut bn = inp.b[0];
        for j in 1..D {
            bn += inp.w[(0, j)] * inp.r_prev[j];
        }
        if semi_explicit {
            let g1 = (inp.gap + 0.25 * h * (bn - inp.un_prev)).min(0.0);
            let pen = -g1;
            let s1 = if pen > 0.0 {
                s * m * pen.powf(m - 1.0)
            } else if m == 1.0 {
                s
            } else {
                0.0
            };
            (s * pen.powf(m) - 0.5 * d * (bn + inp.un_prev))
                / (1.0 + (0.25 * s1 * h + 0.5 * d) * inp.w[(0, 0)])
        } else {
            s * (-inp.gap.min(0.0)).powf(m) - d * inp.un_prev
        }
    }

    /// Reaction of the semi-explicit law (Solfec SPRING_DASHPOT_CONTACT with
    /// "semi-explicit" set, eq. 90 with Hertz power) in 3D; `cohesive` is the
    /// contact's cohesion state, switched off when the cohesion or the
    /// friction limit is exceeded (lines 9 and 12).
    ///
    /// One deliberate deviation: line 11 of the seed scales `R_T` to
    /// `μR_N R_T/‖R_T‖`, which flips `R_T` when a cohesive contact is in
    /// tension (`R_N < 0`); the test on line 10 uses `μ|R_N|`, so we scale to
    /// `μ|R_N|`, keeping the direction of the stick estimate.
    pub fn reaction3(&self, inp: &PenaltyInput<3>, mu: f64, h: f64, cohesive: &mut bool) -> V3 {
        self.reaction3_impl(inp, mu, h, cohesive, true)
    }

    /// As [`Self::reaction3`] with the explicit normal law of line 6,
    /// `R_N = s(−min(g, 0))^m − d U_N^t`.
    pub fn reaction3_explicit(
        &self,
        inp: &PenaltyInput<3>,
        mu: f64,
        h: f64,
        cohesive: &mut bool,
    ) -> V3 {
        self.reaction3_impl(inp, mu, h, cohesive, false)
    }

    fn reaction3_impl(
        &self,
        inp: &PenaltyInput<3>,
        mu: f64,
        h: f64,
        cohesive: &mut bool,
        semi: bool,
    ) -> V3 {
        let mut rn = self.normal(inp, h, semi);
        // Line 7.
        if !*cohesive && rn < 0.0 {
            return V3::zeros();
        }
        // Line 8: stick estimate R_T = −W_TT⁻¹(B_T + W_TN R_N).
        let wtt =
            nalgebra::Matrix2::new(inp.w[(1, 1)], inp.w[(1, 2)], inp.w[(2, 1)], inp.w[(2, 2)]);
        let rhs =
            nalgebra::Vector2::new(inp.b[1] + inp.w[(1, 0)] * rn, inp.b[2] + inp.w[(2, 0)] * rn);
        let mut rt = match wtt.try_inverse() {
            Some(inv) => -(inv * rhs),
            None => nalgebra::Vector2::zeros(),
        };
        // Line 9.
        if *cohesive && rn < -self.cohesion {
            *cohesive = false;
            rn = -self.cohesion;
        }
        // Lines 10–12.
        let nrt = rt.norm();
        let lim = mu * rn.abs();
        if nrt > lim {
            rt *= lim / nrt;
            *cohesive = false;
        }
        V3::new(rn, rt[0], rt[1])
    }

    /// 2D version of [`Self::reaction3`] (one tangent; the formulas are the same
    /// with a 1×1 `W_TT`).
    pub fn reaction2(
        &self,
        inp: &PenaltyInput<2>,
        mu: f64,
        h: f64,
        cohesive: &mut bool,
    ) -> SVector<f64, 2> {
        let w3 = M3::new(
            inp.w[(0, 0)],
            inp.w[(0, 1)],
            0.0,
            inp.w[(1, 0)],
            inp.w[(1, 1)],
            0.0,
            0.0,
            0.0,
            1.0,
        );
        let inp3 = PenaltyInput {
            w: w3,
            b: V3::new(inp.b[0], inp.b[1], 0.0),
            r_prev: V3::new(inp.r_prev[0], inp.r_prev[1], 0.0),
            gap: inp.gap,
            un_prev: inp.un_prev,
        };
        let r = self.reaction3(&inp3, mu, h, cohesive);
        SVector::<f64, 2>::new(r[0], r[1])
    }
}
