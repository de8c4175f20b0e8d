//! Size and memory estimates of a model, known before its mesh is generated
//! or its system allocated, so that a model the machine cannot hold is
//! refused with a message (exit 2) instead of aborting out of memory.
//!
//! The estimate of a run's peak memory is the mesh (nodes, elements), the
//! system (block pattern values and indices: two Newton matrices, the mass,
//! the linear solver's copy) and the linear solver's own memory. The direct
//! solver's LU factors dominate: in 3D their size follows the measured
//! `2.84 GB · (dofs / 166 419)^1.41` (hex8 boxes with the METIS ordering:
//! 63 MB at 11k dofs, 0.65 GB at 58k, 2.84 GB at 166k; docs/performance.md),
//! in 2D nested dissection's `O(n log n)` fill. Where the factors would take
//! more than half of the machine, `[solver] linear = "auto"` solves
//! iteratively and the solver keeps only a Krylov basis (31 vectors). The
//! time per step is a rough figure from the same measurements (ten Newton
//! iterations on one core: a factorization `29.5 s · (dofs / 166 419)^1.67`
//! and ten solves, or ten GMRES solves of 2.1e-5 s per dof).

use crate::linalg::LinearMethod;

/// Element and node counts of a mesh part.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Size {
    pub nodes: f64,
    pub elements: f64,
    /// Nodes per element (8 for hex8, …).
    pub per_element: f64,
}

impl Size {
    pub fn add(self, o: Size) -> Size {
        let elements = self.elements + o.elements;
        Size {
            nodes: self.nodes + o.nodes,
            elements,
            per_element: if elements > 0.0 {
                (self.per_element * self.elements + o.per_element * o.elements) / elements
            } else {
                0.0
            },
        }
    }
}

/// Estimated peak memory of a run of a model of this size (bytes), with
/// `[solver] linear = "auto"`.
pub fn run_bytes(dim: usize, size: Size) -> f64 {
    run_bytes_with(dim, size, LinearMethod::Auto)
}

/// Bytes of the direct solver's LU factors.
fn lu_bytes(dim: usize, size: Size) -> f64 {
    let d = dim as f64;
    let dofs = size.nodes * d;
    if dim == 3 {
        2.84e9 * (dofs / 166_419.0).powf(1.41)
    } else {
        size.nodes * 9.0 * d * d * 8.0 * 2.0 * dofs.max(2.0).log2()
    }
}

/// Whether the linear solver of a model of this size factors (`auto`:
/// when the factors fit in half of the machine, 16 GB where unknown).
fn direct(dim: usize, size: Size, linear: LinearMethod) -> bool {
    match linear {
        LinearMethod::Direct => true,
        LinearMethod::Iterative => false,
        LinearMethod::Auto => lu_bytes(dim, size) <= 0.5 * machine_bytes().unwrap_or(32e9),
    }
}

/// Estimated peak memory of a run of a model of this size (bytes).
pub fn run_bytes_with(dim: usize, size: Size, linear: LinearMethod) -> f64 {
    let d = dim as f64;
    let dofs = size.nodes * d;
    let mesh = size.nodes * 64.0 + size.elements * (16.0 + 8.0 * size.per_element);
    // node-to-node couplings: about 27 neighbours per node in 3D, 9 in 2D
    let blocks = size.nodes * if dim == 3 { 27.0 } else { 9.0 };
    let system = blocks * d * d * (4.0 * 8.0 + 8.0);
    let solver = if direct(dim, size, linear) {
        lu_bytes(dim, size)
    } else {
        // the solver's copy of the matrix and a Krylov basis
        blocks * d * d * 16.0 + 34.0 * dofs * 8.0
    };
    mesh + system + solver
}

/// Rough time of one step on one core (seconds): ten Newton iterations.
pub fn seconds_per_step(dim: usize, size: Size, linear: LinearMethod) -> f64 {
    let dofs = size.nodes * dim as f64;
    let assembly = 10.0 * 2e-5 * size.elements;
    if !direct(dim, size, linear) {
        return assembly + 10.0 * 2.1e-5 * dofs;
    }
    let lu = if dim == 3 {
        29.5 * (dofs / 166_419.0).powf(1.67)
    } else {
        2e-6 * dofs * dofs.max(2.0).log2()
    };
    // one factorization, ten solves of about 1/50 of it
    assembly + 1.2 * lu
}

/// Total memory of this machine (bytes), from `/proc/meminfo`, at most
/// [`crate::linalg::solver::plan::memory_limit`]; `None` where neither is
/// available.
pub fn machine_bytes() -> Option<f64> {
    let total = || -> Option<f64> {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024.0)
    };
    match (total(), crate::linalg::memory_limit()) {
        (Some(t), Some(l)) => Some(t.min(l)),
        (t, l) => t.or(l),
    }
}

/// `bytes` in a readable unit.
pub fn human(bytes: f64) -> String {
    const UNITS: [&str; 6] = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut v = bytes;
    let mut u = 0;
    while v >= 1000.0 && u + 1 < UNITS.len() {
        v /= 1000.0;
        u += 1;
    }
    if u + 1 == UNITS.len() && v >= 1000.0 {
        return format!("{bytes:.1e} B");
    }
    format!("{v:.1} {}", UNITS[u])
}

/// The size of a generated box (`divisions` per axis; tet4 splits each hex
/// in 6, tri3 each quad in 2).
pub fn box_size(divisions: &[usize], simplex: bool) -> Size {
    let cells: f64 = divisions.iter().map(|&n| n as f64).product();
    let nodes: f64 = divisions.iter().map(|&n| n as f64 + 1.0).product();
    let d = divisions.len();
    let (split, per) = match (d, simplex) {
        (2, false) => (1.0, 4.0),
        (2, true) => (2.0, 3.0),
        (_, false) => (1.0, 8.0),
        (_, true) => (6.0, 4.0),
    };
    Size {
        nodes,
        elements: cells * split,
        per_element: per,
    }
}

/// A ring of `around × through` quad4.
pub fn ring_size(around: usize, through: usize) -> Size {
    let (a, t) = (around as f64, through as f64);
    Size {
        nodes: a * (t + 1.0),
        elements: a * t,
        per_element: 4.0,
    }
}

/// The O-grid disk of `n` divisions: `n²` core quads and `4n·m` ring quads,
/// `m = max(1, ⌊(2n + 2)/5⌋)`.
pub fn disk_size(n: usize) -> Size {
    let m = ((2 * n as u128 + 2) / 5).max(1) as f64;
    let n = n as f64;
    Size {
        nodes: (n + 1.0) * (n + 1.0) + 4.0 * n * m,
        elements: n * n + 4.0 * n * m,
        per_element: 4.0,
    }
}

/// The cubed-sphere ball of `n` divisions: `n³ + 6n²·m` hex8.
pub fn ball_size(n: usize) -> Size {
    let m = ((2 * n as u128 + 2) / 5).max(1) as f64;
    let n = n as f64;
    Size {
        nodes: (n + 1.0).powi(3) + 6.0 * (n + 1.0) * (n + 1.0) * m,
        elements: n * n * n + 6.0 * n * n * m,
        per_element: 8.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_estimate_matches_the_measured_runs() {
        // 166k-dof free flight, direct: 3.81 GB peak measured
        let s = box_size(&[40, 40, 32], false);
        assert_eq!(s.nodes * 3.0, 166_419.0);
        let b = run_bytes_with(3, s, LinearMethod::Direct);
        assert!(b > 3.0e9 && b < 4.6e9, "{}", human(b));
        // 1.07M dofs, iterative: 4.78 GB peak measured; direct would need ≈ 40 GB
        let s = box_size(&[70, 70, 70], false);
        let b = run_bytes_with(3, s, LinearMethod::Iterative);
        assert!(b > 3.8e9 && b < 5.8e9, "{}", human(b));
        assert!(run_bytes_with(3, s, LinearMethod::Direct) > 35e9);
        // a 10⁹-element box is far beyond any machine, either way
        let huge = box_size(&[1000, 1000, 1000], false);
        assert!(run_bytes_with(3, huge, LinearMethod::Iterative) > 1e12);
        assert_eq!(human(1.5e9), "1.5 GB");
    }
}

/// Constants of [`contact_step_seconds`], calibrated on first-contact
/// steps of the scaling family and the friction blocks, one thread
/// (docs/decisions/contact-time-estimate.md has the table).
#[derive(Debug, Clone, Copy)]
pub struct ContactStepParams {
    /// Flops per second of one factorization, one thread: 44²×6's
    /// augmented LU (2.27e11 flops) took 13.8 s per factorization
    /// (827 s for 60). Smaller LUs run slower: 16²×4's coupled LU
    /// (1.5e9 flops) took 0.15 s, 1.0e10 flops/s.
    pub factor_rate: f64,
    /// Saddle path: a contact step costs this many factorizations of the
    /// augmented system, low and high, counting with the factorizations
    /// themselves (10–20 in first contacts not cut back) the solves, the
    /// assembly and the subproblem, which cost about as much again: uncut
    /// first contacts of 16²×4 to 32²×4 measured 25–35. The high end
    /// leaves room for harder steps: 64²×4's first contact, cut back,
    /// cost twice 67 (112 factorizations).
    pub factorizations: [f64; 2],
    /// Condensed path: Newton iterations of a contact step, low and high
    /// (5 for 16²×4's first contact; the 18,546-dof friction blocks' took
    /// 16, most of them cheap: the range is high there). Each factors,
    /// builds `W` (one solve per contact unknown) and runs the subproblem.
    pub newton: [f64; 2],
    /// Condensed path: bytes of factors per second a solve of `W`'s block
    /// of right-hand sides reads: 16²×4 solved 4,260 with 35 MB of
    /// factors in 6.4 s.
    pub solve_rate: f64,
    /// Condensed path: inner iterations of the dense subproblem per Newton
    /// iteration, each a dense LU of `2/3 m³` flops (16²×4: 48 in 5).
    pub inner: f64,
    /// A first-contact step that is cut back (the attempt at Δt that fails
    /// and its halves) costs about this many uncut steps: 16²×12 took
    /// 96–112 s cut back and 52–56 s once it was not (2026-11-29). It can
    /// be far more: 44²×6's cut-back step took 885–960 s, where the same
    /// landing with one pass converged uncut in 105 s.
    pub cut_back: f64,
}

impl Default for ContactStepParams {
    fn default() -> Self {
        ContactStepParams {
            factor_rate: 1.6e10,
            factorizations: [25.0, 70.0],
            newton: [5.0, 10.0],
            solve_rate: 23e9,
            inner: 10.0,
            cut_back: 2.0,
        }
    }
}

/// What [`contact_step_seconds`] needs from the contact budget.
#[derive(Debug, Clone, Copy)]
pub struct ContactStepSize {
    /// Whether the run takes the saddle path.
    pub saddle: bool,
    /// Unknowns of the condensed problem (`D·P`).
    pub unknowns: usize,
    /// LU flops of one factorization with contact (the augmented system on
    /// the saddle path, the bodies' with the contact couplings on the
    /// condensed) and the bytes of its factors.
    pub factor_flops: f64,
    pub factor_bytes: f64,
}

/// Rough CPU of a contact step not cut back, on one core (seconds), low
/// and high: on the saddle path `factorizations × flops / rate`; on the
/// condensed path per Newton iteration a factorization, one solve per
/// contact unknown (`W`) and the dense subproblem's LUs (`2/3 m³` each).
/// `free` is the free step's figure, the floor.
pub fn contact_step_seconds(c: ContactStepSize, free: f64, p: &ContactStepParams) -> [f64; 2] {
    let factor = c.factor_flops / p.factor_rate;
    let per = |k: usize| -> f64 {
        if c.saddle {
            p.factorizations[k] * factor
        } else {
            let m = c.unknowns as f64;
            let w = m * c.factor_bytes / p.solve_rate;
            let dense = p.inner * 2.0 / 3.0 * m * m * m / p.factor_rate;
            p.newton[k] * (factor + w + dense)
        }
    };
    [per(0).max(free), per(1).max(free)]
}
