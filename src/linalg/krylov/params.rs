//! The Params / Info / Error of the Krylov solvers, and their scratch.

/// Stopping rule and sizes of a Krylov solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovParams {
    /// Target relative residual `‖b − A x‖ / ‖b‖` (default 1e-12).
    pub rtol: f64,
    /// Iterations (operator applications) before giving up (default 500).
    pub max_iterations: usize,
    /// GMRES restart length (default 60).
    pub restart: usize,
}

impl Default for KrylovParams {
    fn default() -> Self {
        KrylovParams {
            rtol: 1e-12,
            max_iterations: 500,
            restart: 60,
        }
    }
}

/// What a converged solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct KrylovInfo {
    /// Krylov iterations (one operator and one preconditioner application each).
    pub iterations: usize,
    /// The true relative residual `‖b − A x‖ / ‖b‖` at return.
    pub residual: f64,
}

/// The solve missed its target.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("Krylov solve stopped after {iterations} iterations at relative residual {residual:e} (target {target:e})")]
pub struct KrylovError {
    pub iterations: usize,
    pub residual: f64,
    pub target: f64,
}

/// Scratch of the Krylov solvers, kept between solves.
#[derive(Debug, Default)]
pub struct KrylovWork {
    pub(super) basis: Vec<f64>,
    pub(super) vecs: Vec<Vec<f64>>,
    pub(super) h: Vec<f64>,
}

impl KrylovWork {
    pub(super) fn vectors(&mut self, n: usize, count: usize) -> &mut [Vec<f64>] {
        if self.vecs.len() < count {
            self.vecs.resize_with(count, Vec::new);
        }
        for v in &mut self.vecs[..count] {
            v.resize(n, 0.0);
        }
        &mut self.vecs[..count]
    }
}
