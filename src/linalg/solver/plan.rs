//! Which method a [`crate::linalg::LinearSolver`] uses for a pattern: the
//! factor memory estimated on the node graph ([`estimate`]) against
//! the memory the machine has available.

use crate::linalg::error::LinearSolveError;
use crate::linalg::lu::estimate::estimate;
use crate::linalg::ordering::nodes::FillOrdering;
use crate::linalg::solver::params::{LinearMethod, LinearParams};

/// The method chosen for a pattern, with the memory estimate behind it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LinearPlan {
    pub method: LinearMethod,
    pub ordering: FillOrdering,
    /// Estimated bytes of the direct factors.
    pub factor_bytes: f64,
    /// Memory available when planned (bytes).
    pub available: f64,
}

/// Memory the system can still give (`MemAvailable` of /proc/meminfo;
/// 16 GiB where that cannot be read).
pub fn available_memory() -> f64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kb| kb * 1024.0)
        .unwrap_or(16.0 * (1u64 << 30) as f64)
}

/// Chooses direct or iterative for matrices with node graph `g` and `dim`
/// dofs per node, from the factor size estimated on the node graph. A
/// `Direct` request whose factors exceed the available memory is refused.
pub fn plan(
    g: faer::sparse::SymbolicSparseColMatRef<'_, usize>,
    dim: usize,
    params: &LinearParams,
) -> Result<LinearPlan, LinearSolveError> {
    plan_with_memory(g, dim, params, available_memory())
}

/// [`plan`] with `available` bytes of memory.
pub fn plan_with_memory(
    g: faer::sparse::SymbolicSparseColMatRef<'_, usize>,
    dim: usize,
    params: &LinearParams,
    available: f64,
) -> Result<LinearPlan, LinearSolveError> {
    if params.method == LinearMethod::Iterative {
        return Ok(LinearPlan {
            method: LinearMethod::Iterative,
            ordering: params.ordering,
            factor_bytes: 0.0,
            available,
        });
    }
    let (size, ordering) =
        estimate(g, dim, params.ordering).map_err(|e| LinearSolveError::Symbolic(e.to_string()))?;
    let bytes = if params.symmetric {
        size.ldlt_bytes()
    } else {
        size.lu_bytes()
    };
    let method = match params.method {
        LinearMethod::Direct if bytes > available => {
            return Err(LinearSolveError::TooLarge { bytes, available })
        }
        LinearMethod::Auto if bytes > params.memory_budget.unwrap_or(0.5 * available) => {
            LinearMethod::Iterative
        }
        LinearMethod::Auto => LinearMethod::Direct,
        m => m,
    };
    Ok(LinearPlan {
        method,
        ordering,
        factor_bytes: bytes,
        available,
    })
}
