//! Size and memory estimates of a model, known before its mesh is generated
//! or its system allocated, so that a model the machine cannot hold is
//! refused with a message (exit 2) instead of aborting out of memory.
//!
//! The estimate of a run's peak memory is the mesh (nodes, elements), the
//! system (block pattern values and indices: two Newton matrices, the mass,
//! the LU's copy) and the sparse LU's factors, which dominate: in 3D their
//! size follows the measured `553 MB · (dofs / 18 546)^1.56` of the friction
//! blocks (MEASUREMENTS.md: 21 MB at 1.6k dofs to 14.5 GB at 134k), in 2D
//! nested dissection's `O(n log n)` fill. The time per step is a rough
//! figure from the same measurements (ten Newton iterations, LU time
//! `1.7 s · (dofs / 18 546)^2.04` in 3D on one core).

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

/// Estimated peak memory of a run of a model of this size (bytes).
pub fn run_bytes(dim: usize, size: Size) -> f64 {
    let d = dim as f64;
    let dofs = size.nodes * d;
    let mesh = size.nodes * 64.0 + size.elements * (16.0 + 8.0 * size.per_element);
    // node-to-node couplings: about 27 neighbours per node in 3D, 9 in 2D
    let blocks = size.nodes * if dim == 3 { 27.0 } else { 9.0 };
    let system = blocks * d * d * (4.0 * 8.0 + 8.0);
    let lu = if dim == 3 {
        553e6 * (dofs / 18_546.0).powf(1.56)
    } else {
        blocks * d * d * 8.0 * 2.0 * dofs.max(2.0).log2()
    };
    mesh + system + lu
}

/// Rough wall time of one step on one core (seconds): ten Newton iterations.
pub fn seconds_per_step(dim: usize, size: Size) -> f64 {
    let dofs = size.nodes * dim as f64;
    let lu = if dim == 3 {
        1.7 * (dofs / 18_546.0).powf(2.04)
    } else {
        2e-6 * dofs * dofs.max(2.0).log2()
    };
    let assembly = 2e-5 * size.elements;
    10.0 * (lu + assembly)
}

/// Total memory of this machine (bytes), from `/proc/meminfo`; `None` where
/// that is not available.
pub fn machine_bytes() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024.0)
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
    fn the_estimate_matches_the_measured_blocks() {
        // fine blocks: 16×16×8 + 8×8×8 hex8, 9,990 dofs, 246 MB measured
        let s = box_size(&[16, 16, 8], false).add(box_size(&[8, 8, 8], false));
        assert_eq!(s.nodes * 3.0, 9_990.0);
        let b = run_bytes(3, s);
        assert!(b > 200e6 && b < 400e6, "{}", human(b));
        // a 10⁹-element box is far beyond any machine
        assert!(run_bytes(3, box_size(&[1000, 1000, 1000], false)) > 1e15);
        assert_eq!(human(1.5e9), "1.5 GB");
    }
}
