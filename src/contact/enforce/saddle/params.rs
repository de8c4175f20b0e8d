//! The saddle-point path's tunables (`SaddleParams`), each with its reason.

/// Tunables of the saddle-point path, each with its reason.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SaddleParams {
    /// The inner iteration stops once the linearized step meets the law
    /// to this fraction of the pair's tolerance, or to `forcing` times the
    /// violation it started from, whichever is larger: an inexact Newton
    /// method's forcing term (Dembo, Eisenstat & Steihaug 1982) — far from
    /// the solution the linearization is solved loosely, near it tightly,
    /// which keeps the outer convergence fast without the tail of slowly
    /// converging inner iterations an absolute bound asks for early on.
    pub inner_tol: f64,
    /// The forcing factor of the bound above (full solves at every
    /// Newton iteration): with 1e-2 the ring impact forced onto this path
    /// cycles in an inner iteration at t = 2.42, leaves the second pass out
    /// for the step and ends with ring-2 nodes 1.5e-3 inside ring 1.
    pub forcing: f64,
    /// The forcing factor with the one-solve iterations (`one_step`), where
    /// the full solves come only where the active set changed: on the 16²
    /// scaling model's first contact full solves to 1e-4 took 38 linear
    /// solves in 8 Newton iterations, to 1e-2 15 in 6 (the later inner
    /// iterations polish a linearization the next Newton iteration
    /// replaces anyway), to 0.3 or 0.5 Newton took 10–13 iterations.
    pub one_step_forcing: f64,
    /// Inner iterations allowed; an inner iteration that has not converged
    /// by then leaves its last iterate to the outer Newton (which judges the
    /// law itself at its next iterate). One that converges slowly is not
    /// cut short by dropping the second pass: on the ring impact one
    /// converged linearly (×0.8 per iterate, where the proximal term holds
    /// two passes constraining the same motion) and, dropped after 30,
    /// left a second-pass node 7e-7 inside the other ring.
    pub max_inner: usize,
    /// An inner iteration is stalled when the least merit of its last
    /// `stall_window` iterates is no lower than `stall_progress` times the
    /// least before them: it cycles between branches of the nonsmooth
    /// merit, as where the two passes constrain the same motion, and the
    /// second pass is then left out for the step (as the condensed path
    /// does). On the 24² scaling model's first contact
    /// the merit of the second correction bounced between 6 and 8e4 for
    /// 30 inner iterations (a factorization each, 65 s of an 82 s step)
    /// before the second pass was dropped and the first pass alone
    /// converged in 4; where the inner iteration converges its merit falls
    /// by orders of magnitude per iterate, far from this bound.
    pub stall_window: usize,
    pub stall_progress: f64,
    /// `ε_prox` of the proximal term `γ = ε_prox/ρ` (module docs) of a
    /// full solve: small against the point's own compliance `1/ρ`, so that
    /// it slows the convergence of well-posed points by about `ε_prox` per
    /// iteration. An inner step that no line-search length improves
    /// multiplies it by 10 (up to `max_proximal`; a damped,
    /// Levenberg–Marquardt-like step along directions the constraints
    /// leave loose), one that improves divides it by 10 down to
    /// `proximal`. Without it (1e-5, 1e-7) the 16² first contact's full
    /// solves stalled and the step was cut back.
    pub proximal: f64,
    pub max_proximal: f64,
    /// `ε_prox` of a one-step iteration (the active set unchanged): there
    /// the proximal term only keeps the matrix regular where the two passes
    /// constrain the same motion, and any larger value makes the outer
    /// Newton converge linearly at about its size relative to the
    /// points' true compliance (1e-3: the law's violation fell 10× per
    /// Newton iteration on the 16² model; 1e-6: quadratically).
    pub one_step_proximal: f64,
    /// Exact enforcement takes one step where the active set holds (module
    /// docs), with `one_step_forcing` where it solves fully. Off by default:
    /// the friction blocks, the golf ball and the scaling family keep their
    /// ledgers with it; the 2D ring impact forced onto this path keeps its
    /// ledger but, as with the looser forcing above, leaves ring-2 nodes
    /// 1.4e-3 inside ring 1 at t = 2.42
    /// (docs/decisions/saddle-point-contact.md).
    pub one_step: bool,
    /// Armijo constant and halvings of the inner line search, which is
    /// non-monotone (Grippo, Lampariello & Lucidi 1986): a length is taken
    /// when it decreases the largest merit of the last `memory` iterates.
    /// The Alart–Curnier merit is nonsmooth where points change branch; a
    /// monotone search cuts the steps short there and stalls
    /// (docs/decisions/saddle-point-contact.md).
    pub armijo: f64,
    pub halvings: usize,
    pub memory: usize,
}

impl Default for SaddleParams {
    fn default() -> Self {
        SaddleParams {
            inner_tol: 1e-2,
            forcing: 1e-4,
            one_step_forcing: 1e-2,
            max_inner: 30,
            stall_window: 5,
            stall_progress: 0.5,
            proximal: 1e-3,
            max_proximal: 1e2,
            one_step_proximal: 1e-6,
            one_step: false,
            armijo: 1e-4,
            halvings: 10,
            memory: 5,
        }
    }
}
