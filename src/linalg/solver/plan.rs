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
/// 16 GiB where that cannot be read), at most [`memory_limit`].
pub fn available_memory() -> f64 {
    let have = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map(|kb| kb * 1024.0)
        .unwrap_or(16.0 * (1u64 << 30) as f64);
    memory_limit().map_or(have, |l| have.min(l))
}

/// The environment variable that caps the memory a run may count on.
pub const MEMORY_LIMIT_VAR: &str = "EMCONTACT_MEMORY_LIMIT";

/// The cap set by `EMCONTACT_MEMORY_LIMIT` (bytes, or a number with `kB`,
/// `MB`, `GB`, `TB`: powers of 1000): what `check` and `run` take as the
/// memory available and the machine's, as under a job scheduler's memory
/// limit that /proc/meminfo does not show; the tests use it to ask for a
/// refusal. Read once per process; the command line refuses a value that
/// does not parse ([`memory_limit_setting`]) before any work, so here it
/// counts as unset.
pub fn memory_limit() -> Option<f64> {
    static LIMIT: std::sync::OnceLock<Option<f64>> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| memory_limit_setting().ok().flatten())
}

/// `EMCONTACT_MEMORY_LIMIT` parsed: `None` where unset, an error naming
/// the variable, its value and the forms expected where it is not a size.
pub fn memory_limit_setting() -> Result<Option<f64>, String> {
    let Ok(text) = std::env::var(MEMORY_LIMIT_VAR) else {
        return Ok(None);
    };
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == 'E'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let scale = match unit.trim() {
        "" | "B" => Some(1.0),
        "kB" => Some(1e3),
        "MB" => Some(1e6),
        "GB" => Some(1e9),
        "TB" => Some(1e12),
        _ => None,
    };
    match (num.parse::<f64>(), scale) {
        (Ok(v), Some(s)) if v > 0.0 && v.is_finite() => Ok(Some(v * s)),
        _ => Err(format!(
            "{MEMORY_LIMIT_VAR} = \"{text}\" is not a memory size: expected a positive number of bytes, or one with kB, MB, GB or TB (e.g. 16GB); set it so or unset it"
        )),
    }
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
