//! Exact enumerative one-contact solver of Bonnefon & Daviet, "Quartic
//! formulation of Coulomb 3D frictional contact", INRIA RT-0400 (2011).
//!
//! The law (their eq. 2) is a disjunction: take-off `r = 0, u_N ≥ 0`; stick
//! `u = 0, r ∈ K`; slip `r ∈ ∂K, u_N = 0, u_T = −α r_T, α > 0`. With `W` SPD:
//! * take-off (§2.1) iff `q_N ≥ 0`;
//! * stick (§2.2): `r = −W⁻¹q`, a solution iff it lies in `K`;
//! * slip (§3–4): eliminate `r_N` with `u_N = 0`:
//!   `r_N = −(m·r_T + q_N)/m₀₀` (`m = (W_NT1, W_NT2)`), then
//!   `(Λ₀ + αI) r_T = −w` with the Schur complement `Λ₀ = W_TT − m mᵀ/m₀₀` and
//!   `w = q_T − q_N m/m₀₀` (their eq. 25), together with `‖r_T‖ = μ r_N`.
//!
//! **α-quartic** (their §4, eqs. 25–27): with `D(α) = det Λ(α)` and the linear
//! `N(α) = −adj(Λ(α)) w = D(α) r_T`, the cone condition times `D` squared is
//! `‖N‖² − (μ/m₀₀)²(m·N + q_N D)² = 0`, degree 4 in `α`; roots `α > 0` with
//! `−(m·N + q_N D) ≥ 0` are slip candidates.
//!
//! **tan(θ/2)-quartic** (their §3, eqs. 17–21, re-derived in our notation):
//! `r_T = ρ_t(cos θ, sin θ)`, `r_N = ρ_t/μ`; `u_N = 0` gives the conic
//! `ρ_t = −q_N/(m₀₀/μ + m·e(θ))` (their eq. 8) and eliminating `α` from the
//! tangential equation (cross product with `e(θ)`) gives
//! `A cos²θ + B sin²θ + C sinθcosθ + D sinθ + E cosθ = 0` (their eq. 18) with
//! `A = m₁w₂ − q_Nλ₁₂`, `B = q_Nλ₁₂ − m₂w₁`, `C = m₂w₂ − m₁w₁ − q_N(λ₂ − λ₁)`,
//! `D = −m₀₀w₁/μ`, `E = m₀₀w₂/μ` (the paper's coefficients are written in the
//! eigenbasis of `Λ₀`; this is the same equation in the original basis, so no
//! diagonalization is needed). `t = tan(θ/2)` gives their eq. 21:
//! `(A−E)t⁴ + 2(D−C)t³ + (4B−2A)t² + 2(C+D)t + (A+E) = 0`; `θ = π`
//! (`t = ∞`) is checked separately. `α = −e·(Λ₀r_T + w)/ρ_t ≥ 0` selects.
//!
//! Real roots come from [`super::poly::real_roots`] (critical-point
//! separation + safeguarded Newton–bisection), are polished by Newton on the
//! un-squared scalar equation, and every candidate that is already an
//! approximate solution is polished by at most eight damped semismooth Newton
//! iterations on the natural map (round-off clean-up: the quartic's
//! coefficients lose digits when `W` is badly conditioned) and checked against
//! the complete law through `‖F_nat‖`. The solver returns the best candidate.

use nalgebra::SVector;

use super::acary::NaturalMap;
use super::common::{lambda_max3, solve3, M2, M3, V2, V3};
use super::newton::semismooth_newton_with;
use super::poly::{cauchy_bound, real_roots};
use super::{natural_map, LocalError, LocalInfo, LocalParams, LocalSolver};

/// Which quartic parametrizes the slip case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlipQuartic {
    /// Quartic in the slip multiplier `α` (Bonnefon & Daviet §4).
    Alpha,
    /// Quartic in `tan(θ/2)`, `θ` the direction of `r_T` (Bonnefon & Daviet §3).
    TanHalfAngle,
}

const MAX_CAND: usize = 12;

/// Fixed-capacity candidate list (no allocation).
struct Candidates {
    r: [V3; MAX_CAND],
    n: usize,
}

impl Candidates {
    fn new() -> Self {
        Candidates {
            r: [V3::zeros(); MAX_CAND],
            n: 0,
        }
    }
    fn push(&mut self, r: V3) {
        if self.n < MAX_CAND && r.iter().all(|x| x.is_finite()) {
            self.r[self.n] = r;
            self.n += 1;
        }
    }
}

/// Slip-case data: `m₀₀`, `m`, `Λ₀ = [[l1, l12], [l12, l2]]`, `w`.
struct Slip {
    m00: f64,
    m: V2,
    l1: f64,
    l2: f64,
    l12: f64,
    w: V2,
    qn: f64,
}

impl Slip {
    fn new(w: &M3, q: &V3) -> Option<Self> {
        let m00 = w[(0, 0)];
        if !(m00 > 0.0) {
            return None;
        }
        let m = V2::new(w[(0, 1)], w[(0, 2)]);
        Some(Slip {
            m00,
            m,
            l1: w[(1, 1)] - m[0] * m[0] / m00,
            l2: w[(2, 2)] - m[1] * m[1] / m00,
            l12: 0.5 * (w[(1, 2)] + w[(2, 1)]) - m[0] * m[1] / m00,
            w: V2::new(q[1], q[2]) - m * (q[0] / m00),
            qn: q[0],
        })
    }

    /// `r_T(α) = −(Λ₀ + αI)⁻¹ w`, `dr_T/dα`, and `r_N(α)`.
    fn rt_of_alpha(&self, a: f64) -> Option<(V2, V2, f64)> {
        let lam = M2::new(self.l1 + a, self.l12, self.l12, self.l2 + a);
        let inv = lam.try_inverse()?;
        let rt = -(inv * self.w);
        let drt = -(inv * rt);
        let rn = -(self.m.dot(&rt) + self.qn) / self.m00;
        Some((rt, drt, rn))
    }

    fn full(&self, rt: &V2, rn: f64) -> V3 {
        V3::new(rn, rt[0], rt[1])
    }

    /// Slip candidates from the α-quartic.
    fn alpha_candidates(&self, mu: f64, scale: f64, out: &mut Candidates) {
        let (l1, l2, l12, w) = (self.l1, self.l2, self.l12, self.w);
        // N(α) = a0 + a1 α, D(α) = d0 + d1 α + α².
        let a0 = -V2::new(l2 * w[0] - l12 * w[1], l1 * w[1] - l12 * w[0]);
        let a1 = -w;
        let (d0, d1) = (l1 * l2 - l12 * l12, l1 + l2);
        // S(α) = −(μ/m00)(m·N + q_N D) = s0 + s1 α + s2 α².
        let k = -mu / self.m00;
        let s = [
            k * (self.m.dot(&a0) + self.qn * d0),
            k * (self.m.dot(&a1) + self.qn * d1),
            k * self.qn,
        ];
        let n2 = [a0.dot(&a0), 2.0 * a0.dot(&a1), a1.dot(&a1)];
        let mut c = [0.0; 5];
        for i in 0..3 {
            c[i] += n2[i];
            for j in 0..3 {
                c[i + j] -= s[i] * s[j];
            }
        }
        // α = scale·β for a well-scaled polynomial in β.
        let mut f = 1.0;
        for ck in c.iter_mut() {
            *ck *= f;
            f *= scale;
        }
        let deg = super::poly::degree(&c);
        if deg == 0 {
            return;
        }
        let hi = cauchy_bound(&c, deg);
        let mut roots = [0.0; 4];
        let nr = real_roots(&c, deg, 0.0, hi, &mut roots);
        for &beta in roots.iter().take(nr) {
            let mut a = beta * scale;
            // Newton on h(α) = ‖r_T(α)‖ − μ r_N(α) (the un-squared equation).
            for _ in 0..6 {
                let Some((rt, drt, rn)) = self.rt_of_alpha(a) else {
                    break;
                };
                let nrt = rt.norm();
                if nrt == 0.0 {
                    break;
                }
                let h = nrt - mu * rn;
                let dh = rt.dot(&drt) / nrt + mu * self.m.dot(&drt) / self.m00;
                if dh == 0.0 {
                    break;
                }
                let an = a - h / dh;
                if !(an > 0.0) || (an - a).abs() <= 1e-15 * a.abs() {
                    if an > 0.0 {
                        a = an;
                    }
                    break;
                }
                a = an;
            }
            if let Some((rt, _, rn)) = self.rt_of_alpha(a) {
                if rn >= 0.0 {
                    out.push(self.full(&rt, rn));
                }
            }
        }
    }

    /// Slip candidates from the tan(θ/2)-quartic.
    fn tan_candidates(&self, mu: f64, out: &mut Candidates) {
        let (m1, m2) = (self.m[0], self.m[1]);
        let (w1, w2) = (self.w[0], self.w[1]);
        let qn = self.qn;
        let ca = m1 * w2 - qn * self.l12;
        let cb = qn * self.l12 - m2 * w1;
        let cc = m2 * w2 - m1 * w1 - qn * (self.l2 - self.l1);
        let cd = -self.m00 * w1 / mu;
        let ce = self.m00 * w2 / mu;
        let c = [
            ca + ce,
            2.0 * (cc + cd),
            4.0 * cb - 2.0 * ca,
            2.0 * (cd - cc),
            ca - ce,
        ];
        let trig = |th: f64| {
            let (s, co) = th.sin_cos();
            let f = ca * co * co + cb * s * s + cc * s * co + cd * s + ce * co;
            let df = 2.0 * (cb - ca) * s * co + cc * (co * co - s * s) + cd * co - ce * s;
            (f, df)
        };
        let mut thetas = [0.0; 5];
        let mut nt = 0;
        let deg = super::poly::degree(&c);
        if deg > 0 {
            let b = cauchy_bound(&c, deg);
            let mut roots = [0.0; 4];
            let nr = real_roots(&c, deg, -b, b, &mut roots);
            for &t in roots.iter().take(nr) {
                thetas[nt] = 2.0 * t.atan();
                nt += 1;
            }
        }
        thetas[nt] = std::f64::consts::PI; // t = ∞
        nt += 1;
        for &th0 in thetas.iter().take(nt) {
            let mut th = th0;
            for _ in 0..6 {
                let (f, df) = trig(th);
                if df == 0.0 {
                    break;
                }
                let step = f / df;
                if !(step.abs() < 0.5) {
                    break;
                }
                th -= step;
                if step.abs() <= 1e-16 {
                    break;
                }
            }
            let (s, co) = th.sin_cos();
            let d = self.m00 / mu + m1 * co + m2 * s;
            if d == 0.0 {
                continue;
            }
            let rho_t = -qn / d;
            if !(rho_t > 0.0) {
                continue;
            }
            let rt = V2::new(co, s) * rho_t;
            // α = −e·(Λ₀ r_T + w)/ρ_t must be ≥ 0 (u_T = −α r_T).
            let lam_rt = V2::new(
                self.l1 * rt[0] + self.l12 * rt[1],
                self.l12 * rt[0] + self.l2 * rt[1],
            );
            let alpha = -(lam_rt + self.w).dot(&V2::new(co, s)) / rho_t;
            if alpha >= -1e-12 * (self.l1.abs() + self.l2.abs()) {
                out.push(self.full(&rt, rho_t / mu));
            }
        }
    }
}

/// Polishes a candidate `r` by at most [`POLISH_ITER`] iterations of the
/// damped semismooth Newton method on the natural map (`newton.rs`), but only
/// when it is already an approximate solution (`‖F_nat‖ ≤ 1e-4·scale`, scale
/// `‖q‖ + (1 + λ_max)‖r‖`): polishing removes round-off from the closed-form
/// candidates, it must not turn a wrong case into a solution. Returns `‖F_nat‖`.
fn polish3(w: &M3, q: &V3, mu: f64, r: &mut V3, nm: &NaturalMap, lmax: f64) -> f64 {
    let scale = q.norm() + (1.0 + lmax) * r.norm();
    let err = natural_map(w, q, mu, r).norm();
    let tol = 4.0 * f64::EPSILON * scale;
    if err <= tol || err > 1e-4 * scale {
        return err;
    }
    let p = LocalParams {
        tol,
        max_iter: POLISH_ITER,
    };
    let _ = semismooth_newton_with(nm, w, q, mu, r, &p, lmax);
    natural_map(w, q, mu, r).norm()
}

const POLISH_ITER: usize = 8;

/// All candidates (take-off, stick, slip), polished; returns their number.
fn candidates3(w: &M3, q: &V3, mu: f64, quartic: SlipQuartic, lmax: f64, out: &mut Candidates) {
    if q[0] >= 0.0 {
        out.push(V3::zeros());
    }
    if let Some(r) = solve3(w, &(-q)) {
        out.push(r);
    }
    if mu == 0.0 {
        // Frictionless: K = {r_T = 0, r_N ≥ 0}; the "slip" candidate is r_T = 0, u_N = 0.
        if w[(0, 0)] > 0.0 && q[0] < 0.0 {
            out.push(V3::new(-q[0] / w[(0, 0)], 0.0, 0.0));
        }
    } else if mu > 0.0 {
        if let Some(slip) = Slip::new(w, q) {
            match quartic {
                SlipQuartic::Alpha => slip.alpha_candidates(mu, lmax.max(f64::MIN_POSITIVE), out),
                SlipQuartic::TanHalfAngle => slip.tan_candidates(mu, out),
            }
        }
    }
}

/// Scale of the round-off in `F_nat(r)`: `‖q‖ + ‖W‖‖r‖` (plus `‖r‖`).
fn residual_scale<const D: usize>(wn: f64, q: &SVector<f64, D>, r: &SVector<f64, D>) -> f64 {
    q.norm() + (1.0 + wn) * r.norm()
}

/// Relative acceptance threshold for [`enumerate_all3`]/[`enumerate_all2`].
const ACCEPT_REL: f64 = 1e-11;

/// Every solution of the one-contact problem `u = Wr + q`, `K* ∋ û ⊥ r ∈ K`
/// (3D, `W` SPD), by exhaustive enumeration (Bonnefon & Daviet 2011) with the
/// α-quartic and, as a cross-check, the tan(θ/2)-quartic. A candidate is kept
/// when `‖F_nat(r)‖ ≤ 1e-11 (‖q‖ + (1 + λ_max)‖r‖)` (polished candidates sit
/// near 1e-16 of that scale; 1e-8 admitted unpolished near-copies);
/// near-duplicates (`‖r₁ − r₂‖ ≤ 1e-6 (‖r₁‖ + ‖r₂‖)`) are merged, keeping the
/// more accurate. Allocates the result.
pub fn enumerate_all3(w: &M3, q: &V3, mu: f64) -> Vec<V3> {
    enumerate3(w, q, mu, &[SlipQuartic::Alpha, SlipQuartic::TanHalfAngle])
}

/// As [`enumerate_all3`] with the slip case from one quartic only (to
/// cross-validate the two formulations).
pub fn enumerate_all3_with(w: &M3, q: &V3, mu: f64, quartic: SlipQuartic) -> Vec<V3> {
    enumerate3(w, q, mu, &[quartic])
}

fn enumerate3(w: &M3, q: &V3, mu: f64, quartics: &[SlipQuartic]) -> Vec<V3> {
    let wn = lambda_max3(w);
    let nm = NaturalMap { rho: 1.0 / wn };
    let mut out: Vec<(V3, f64)> = Vec::new();
    for &quartic in quartics {
        let mut c = Candidates::new();
        candidates3(w, q, mu, quartic, wn, &mut c);
        for r in c.r.iter_mut().take(c.n) {
            let err = polish3(w, q, mu, r, &nm, wn);
            if err > ACCEPT_REL * residual_scale(wn, q, r) {
                continue;
            }
            // Merge near-duplicates, keeping the more accurate copy.
            match out
                .iter()
                .position(|s| (s.0 - *r).norm() <= 1e-6 * (s.0.norm() + r.norm()))
            {
                Some(k) if out[k].1 > err => out[k] = (*r, err),
                Some(_) => {}
                None => out.push((*r, err)),
            }
        }
    }
    out.into_iter().map(|s| s.0).collect()
}

/// 2D candidates: take-off, stick, slip with `r_T = ±μ r_N` (direct
/// enumeration; for `μ = 0` the single frictionless contact candidate).
fn candidates2(w: &M2, q: &V2, mu: f64, out: &mut [V2; 4]) -> usize {
    let mut n = 0;
    if q[0] >= 0.0 {
        out[n] = V2::zeros();
        n += 1;
    }
    if let Some(wi) = w.try_inverse() {
        out[n] = -(wi * q);
        n += 1;
    }
    if mu == 0.0 {
        if w[(0, 0)] > 0.0 && q[0] < 0.0 {
            out[n] = V2::new(-q[0] / w[(0, 0)], 0.0);
            n += 1;
        }
    } else if mu > 0.0 {
        for s in [1.0, -1.0] {
            // r_T = sμ r_N, u_N = 0 → (W_NN + sμW_NT) r_N = −q_N.
            let den = w[(0, 0)] + s * mu * w[(0, 1)];
            if den != 0.0 {
                let rn = -q[0] / den;
                let ut = w[(1, 0)] * rn + w[(1, 1)] * s * mu * rn + q[1];
                if rn > 0.0 && s * ut <= 0.0 {
                    out[n] = V2::new(rn, s * mu * rn);
                    n += 1;
                }
            }
        }
    }
    n
}

/// Every solution of the 2D one-contact problem (direct enumeration of
/// take-off, stick and slip in `±t`), same acceptance rule as
/// [`enumerate_all3`].
pub fn enumerate_all2(w: &M2, q: &V2, mu: f64) -> Vec<V2> {
    let mut c = [V2::zeros(); 4];
    let n = candidates2(w, q, mu, &mut c);
    let wn = w.norm();
    let mut out: Vec<V2> = Vec::new();
    for r in c.iter().take(n) {
        let err = natural_map(w, q, mu, r).norm();
        if err <= ACCEPT_REL * residual_scale(wn, q, r)
            && !out
                .iter()
                .any(|s| (s - *r).norm() <= 1e-6 * (s.norm() + r.norm()))
        {
            out.push(*r);
        }
    }
    out
}

/// "enum" / "enum-tan": the exact enumerative solver of Bonnefon & Daviet
/// (2011): take-off, stick, and slip from a quartic in `α` ("enum") or in
/// `tan(θ/2)` ("enum-tan"); returns the candidate with the smallest `‖F_nat‖`.
/// The initial guess is ignored; `LocalInfo::iterations` is the number of
/// candidates examined. 2D: direct enumeration (take-off, stick, slip in `±t`),
/// identical for both variants.
#[derive(Debug, Clone, Copy)]
pub struct Enumerative {
    pub quartic: SlipQuartic,
}

impl Enumerative {
    pub fn new(quartic: SlipQuartic) -> Self {
        Enumerative { quartic }
    }
}

impl LocalSolver for Enumerative {
    fn name(&self) -> &'static str {
        match self.quartic {
            SlipQuartic::Alpha => "enum",
            SlipQuartic::TanHalfAngle => "enum-tan",
        }
    }
    fn description(&self) -> &'static str {
        match self.quartic {
            SlipQuartic::Alpha => "exact enumeration: take-off, stick, slip from the α-quartic (Bonnefon-Daviet 2011 §4)",
            SlipQuartic::TanHalfAngle => {
                "exact enumeration: take-off, stick, slip from the tan(θ/2)-quartic (Bonnefon-Daviet 2011 §3)"
            }
        }
    }
    fn solve3(
        &self,
        w: &M3,
        q: &V3,
        mu: f64,
        r: &mut V3,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        let lmax = lambda_max3(w);
        let nm = NaturalMap { rho: 1.0 / lmax };
        let mut c = Candidates::new();
        candidates3(w, q, mu, self.quartic, lmax, &mut c);
        let mut best = f64::INFINITY;
        for cand in c.r.iter_mut().take(c.n) {
            let err = polish3(w, q, mu, cand, &nm, lmax);
            if err < best {
                best = err;
                *r = *cand;
            }
        }
        if c.n == 0 {
            return Err(LocalError::Breakdown(
                "no candidate (W not positive definite?)",
            ));
        }
        if best <= p.tol {
            Ok(LocalInfo {
                iterations: c.n,
                error: best,
            })
        } else {
            Err(LocalError::NoConvergence {
                error: best,
                iterations: c.n,
            })
        }
    }
    fn solve2(
        &self,
        w: &M2,
        q: &V2,
        mu: f64,
        r: &mut V2,
        p: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        let mut c = [V2::zeros(); 4];
        let n = candidates2(w, q, mu, &mut c);
        let mut best = f64::INFINITY;
        for cand in c.iter().take(n) {
            let err = natural_map(w, q, mu, cand).norm();
            if err < best {
                best = err;
                *r = *cand;
            }
        }
        if n == 0 {
            return Err(LocalError::Breakdown(
                "no candidate (W not positive definite?)",
            ));
        }
        if best <= p.tol {
            Ok(LocalInfo {
                iterations: n,
                error: best,
            })
        } else {
            Err(LocalError::NoConvergence {
                error: best,
                iterations: n,
            })
        }
    }
}
