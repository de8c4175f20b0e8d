//! One-contact ("local") solvers. Interface shared with the global solvers.
//!
//! A local problem is `u = W r + q` for one contact in dimension `D` (2 or 3),
//! with friction coefficient `μ`; a solution satisfies the Signorini–Coulomb law
//! in De Saxcé's form `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K`,
//! `K = {r : ‖r_T‖ ≤ μ r_N}`.
//!
//! Every solver reports the same error measure, `‖F_nat(r)‖` ([`natural_map`],
//! Acary et al. 2017 eq. 13 with ρ = 1), and succeeds when it is `≤ tol`.
//!
//! | name | method | source | file |
//! |------|--------|--------|------|
//! | `pg` | projected gradient, self-adaptive ρ | Solfec eqs. 76–77 | `projection.rs` |
//! | `desaxce` | De Saxcé–Feng projection (SBP), self-adaptive ρ | Solfec eq. 80, Dumont eqs. 21–22 | `projection.rs` |
//! | `ac-newton` | semismooth Newton, Alart–Curnier | Acary et al. eq. 11 | `acary.rs` |
//! | `jm-newton` | semismooth Newton, Jean–Moreau | Acary et al. eq. 12 | `acary.rs` |
//! | `nm-newton` | semismooth Newton, natural map | Acary et al. eq. 13 | `acary.rs` |
//! | `nsfe` | semismooth Newton, non-smooth force equation | Solfec eqs. 81–83 (Hüeber et al.) | `nsfe.rs` |
//! | `nsve` | semismooth Newton, non-smooth velocity equation | Solfec eqs. 84–87 | `nsve.rs` |
//! | `sal` | Dumont's standard augmented Lagrangian, fixed ρ | Dumont eq. 35 | `projection.rs` |
//! | `ebp` | Dumont's enhanced bi-potential Newton, 6×6→3×3 | Dumont eqs. 26–32 | `dumont.rs` |
//! | `eal` | Dumont's enhanced augmented Lagrangian Newton | Dumont eqs. 29–32, 36 | `dumont.rs` |
//! | `enum`, `enum-tan` | exact enumeration, α- or tan(θ/2)-quartic | Bonnefon & Daviet 2011 | `enumerative.rs` |
//!
//! The Newton-type solvers share the damped driver of `newton.rs` (Armijo line
//! search on `½‖Φ‖²`, projected-gradient fallback). 2D problems are solved by
//! an exact embedding into 3D (`common::embed2` explains why it is exact),
//! except `enum`, which enumerates the 2D cases directly.
//! [`enumerate_all3`] / [`enumerate_all2`] list every solution.
//! [`SpringDashpot`] is Solfec's penalty law (`penalty.rs`): a regularization,
//! not a solver of this problem, so it is not in [`solvers`].
//! Nothing allocates inside the iterations (fixed-size `nalgebra` types).

use nalgebra::{SMatrix, SVector};

mod acary;
mod common;
mod dumont;
mod enumerative;
mod newton;
mod nsfe;
mod nsve;
mod penalty;
mod poly;
mod projection;

pub use acary::{AcNewton, JmNewton, NmNewton};
pub use dumont::{Eal, Ebp};
pub use enumerative::{
    enumerate_all2, enumerate_all3, enumerate_all3_with, Enumerative, SlipQuartic,
};
pub use nsfe::Nsfe;
pub use nsve::Nsve;
pub use penalty::{PenaltyInput, SpringDashpot};
pub use projection::{DeSaxceFeng, ProjectedGradient, Sal};

/// Stopping criteria of a local solver.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalParams {
    /// Absolute tolerance on `‖F_nat(r)‖` (natural map, see `natural_map`). Default 1e-12.
    pub tol: f64,
    /// Iteration limit. Default 100.
    pub max_iter: usize,
}

impl Default for LocalParams {
    fn default() -> Self {
        LocalParams {
            tol: 1e-12,
            max_iter: 100,
        }
    }
}

/// What a successful local solve reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocalInfo {
    pub iterations: usize,
    /// `‖F_nat(r)‖` at the returned point.
    pub error: f64,
}

/// Why a local solve failed; `r` then holds the last iterate.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum LocalError {
    #[error("no convergence: error {error:e} after {iterations} iterations")]
    NoConvergence { error: f64, iterations: usize },
    #[error("numerical breakdown: {0}")]
    Breakdown(&'static str),
}

/// A one-contact solver. `r` is the initial guess on entry and the answer (or
/// the last iterate) on return.
pub trait LocalSolver: Send + Sync {
    /// Short unique name, used on the command line (e.g. "ac-newton").
    fn name(&self) -> &'static str;
    /// One line: the method and its source (paper, equation).
    fn description(&self) -> &'static str;
    fn solve3(
        &self,
        w: &SMatrix<f64, 3, 3>,
        q: &SVector<f64, 3>,
        mu: f64,
        r: &mut SVector<f64, 3>,
        params: &LocalParams,
    ) -> Result<LocalInfo, LocalError>;
    /// 2D problems. The default is the exact embedding into 3D (decoupled second
    /// tangent, see `common::embed2`); a solver with a genuine 2D algorithm
    /// (the enumerative one) overrides it.
    fn solve2(
        &self,
        w: &SMatrix<f64, 2, 2>,
        q: &SVector<f64, 2>,
        mu: f64,
        r: &mut SVector<f64, 2>,
        params: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        common::solve2_by_embedding(w, q, mu, r, params, |w, q, mu, r, p| {
            self.solve3(w, q, mu, r, p)
        })
    }
}

/// Every local solver, in a fixed order: "pg", "desaxce", "ac-newton",
/// "jm-newton", "nm-newton", "nsfe", "nsve", "sal", "ebp", "eal", "enum",
/// "enum-tan". (The spring–dashpot penalty law is not a solver of this
/// problem; see [`SpringDashpot`].)
pub fn solvers() -> Vec<Box<dyn LocalSolver>> {
    vec![
        Box::new(ProjectedGradient),
        Box::new(DeSaxceFeng),
        Box::new(AcNewton),
        Box::new(JmNewton),
        Box::new(NmNewton),
        Box::new(Nsfe),
        Box::new(Nsve),
        Box::new(Sal),
        Box::new(Ebp),
        Box::new(Eal),
        Box::new(Enumerative::new(SlipQuartic::Alpha)),
        Box::new(Enumerative::new(SlipQuartic::TanHalfAngle)),
    ]
}

/// The local solver called `name`.
pub fn by_name(name: &str) -> Option<Box<dyn LocalSolver>> {
    solvers().into_iter().find(|s| s.name() == name)
}

/// Projection onto the Coulomb cone `K = {r : ‖r_T‖ ≤ μ r_N}` (D = 2 or 3).
/// `K` includes `r_N ≥ 0` (Solfec eq. 78), which matters for `μ = 0`.
pub fn project_cone<const D: usize>(r: &SVector<f64, D>, mu: f64) -> SVector<f64, D> {
    let rn = r[0];
    let mut rt = *r;
    rt[0] = 0.0;
    let nt = rt.norm();
    if nt <= mu * rn && rn >= 0.0 {
        return *r;
    }
    if mu * nt <= -rn {
        return SVector::zeros();
    }
    let t = (rn + mu * nt) / (1.0 + mu * mu);
    let mut p = rt * (mu * t / nt);
    p[0] = t;
    p
}

/// Natural map `F_nat(r) = r − P_K(r − (u + μ‖u_T‖e_N))`, `u = W r + q`
/// (Acary, Brémond & Dubois 2017, eq. 13 with ρ = 1).
pub fn natural_map<const D: usize>(
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &SVector<f64, D>,
) -> SVector<f64, D> {
    let u = w * r + q;
    let mut ut = u;
    ut[0] = 0.0;
    let mut uh = u;
    uh[0] += mu * ut.norm();
    r - project_cone(&(r - uh), mu)
}
