//! Test matrices for the linear solvers: structured hex8 and quad4 grids,
//! an elasticity-like SPD stiffness on them, contact-multiplier
//! pseudo-nodes coupled to surface nodes, and an independent residual.

use emcontact::linalg::BlockPattern;

/// Node lists of the hex8 cells of an `m × m × m` grid, nodes numbered
/// `(k (m+1) + j)(m+1) + i`.
pub fn hex8_cells(m: usize) -> Vec<Vec<usize>> {
    let id = |i: usize, j: usize, k: usize| (k * (m + 1) + j) * (m + 1) + i;
    let mut cells = Vec::new();
    for k in 0..m {
        for j in 0..m {
            for i in 0..m {
                let mut l = Vec::with_capacity(8);
                for (dk, dj, di) in (0..8).map(|c| (c / 4, (c / 2) % 2, c % 2)) {
                    l.push(id(i + di, j + dj, k + dk));
                }
                cells.push(l);
            }
        }
    }
    cells
}

/// Node lists of the quad4 cells of an `m × m` grid, nodes numbered `j (m+1) + i`.
pub fn quad4_cells(m: usize) -> Vec<Vec<usize>> {
    let id = |i: usize, j: usize| j * (m + 1) + i;
    let mut cells = Vec::new();
    for j in 0..m {
        for i in 0..m {
            cells.push(vec![id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)]);
        }
    }
    cells
}

/// A symmetric positive definite `dim × dim` block (a material tangent's shape).
fn material(dim: usize) -> [[f64; 3]; 3] {
    let b = [[2.0, 0.5, 0.1], [0.5, 1.8, 0.3], [0.1, 0.3, 1.5]];
    let mut out = [[0.0; 3]; 3];
    for i in 0..dim {
        out[i][..dim].copy_from_slice(&b[i][..dim]);
    }
    out
}

/// Adds `v` to the `(row node a, component i; column node b, component j)`
/// entry of the values `val` on `p`.
pub fn add(p: &BlockPattern, val: &mut [f64], a: usize, i: usize, b: usize, j: usize, v: f64) {
    let off = p
        .block_offset(a, b)
        .expect("the nodes are coupled in the pattern");
    val[p.position(off, i, b, j)] += v;
}

/// An elasticity-like SPD stiffness on the cells: per cell the graph
/// Laplacian of its nodes times an SPD material block, plus `mass` on
/// every diagonal (the `2/Δt² M` of the Newton matrix).
pub fn stiffness(p: &BlockPattern, cells: &[Vec<usize>], mass: f64, val: &mut [f64]) {
    let d = p.dim();
    let b = material(d);
    for cell in cells {
        for &a in cell {
            for &c in cell.iter().filter(|&&c| c != a) {
                for i in 0..d {
                    for j in 0..d {
                        add(p, val, a, i, a, j, b[i][j]);
                        add(p, val, a, i, c, j, -b[i][j]);
                    }
                }
            }
        }
    }
    for a in 0..cells.iter().flatten().max().map_or(0, |m| m + 1) {
        for i in 0..d {
            add(p, val, a, i, a, i, mass);
        }
    }
}

/// A contact multiplier: the pseudo-node `node` of `D` unknowns coupled to
/// the nodes `to` with weights `w` (the first is its anchor).
pub struct Multiplier {
    pub node: usize,
    pub to: Vec<usize>,
    pub w: Vec<f64>,
}

/// The saddle-point blocks of the multipliers: `−H` in the nodes' rows,
/// `C = α Hᵀ + δ E` (unsymmetric) in the multipliers' rows, the
/// multipliers' diagonal blocks left exactly zero. `H_qp = w_q R`, `R` a
/// full-rank `D × D` block (normal and tangents).
pub fn multipliers(p: &BlockPattern, mult: &[Multiplier], val: &mut [f64]) {
    let d = p.dim();
    let r = [[0.1, 0.2, 1.0], [1.0, 0.0, 0.1], [0.0, 1.0, -0.2]];
    let (alpha, delta) = (2.0, 0.05);
    for (k, m) in mult.iter().enumerate() {
        for (&q, &w) in m.to.iter().zip(&m.w) {
            for i in 0..d {
                for j in 0..d {
                    let h = w * r[i][j];
                    let e = ((3 * i + j + 7 * k + q) as f64 * 0.7).sin();
                    add(p, val, q, i, m.node, j, -h);
                    add(p, val, m.node, j, q, i, alpha * h + delta * e);
                }
            }
        }
    }
}

/// `‖A x − b‖₂ / ‖b‖₂` from the CSC arrays.
pub fn relative_residual(p: &BlockPattern, val: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    let mut r: Vec<f64> = b.iter().map(|v| -v).collect();
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            r[ri[k]] += val[k] * x[c];
        }
    }
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    norm(&r) / norm(b)
}

/// The residual round-off alone leaves in a computed solution `x`,
/// `ε ‖|A||x| + |b|‖₂ / ‖b‖₂`: no solver does better than a small multiple
/// of it (Oettli & Prager 1964; Higham 2002, §7.1).
pub fn round_off_floor(p: &BlockPattern, val: &[f64], x: &[f64], b: &[f64]) -> f64 {
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    let mut s: Vec<f64> = b.iter().map(|v| v.abs()).collect();
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            s[ri[k]] += val[k].abs() * x[c].abs();
        }
    }
    let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>().sqrt();
    f64::EPSILON * norm(&s) / norm(b)
}

/// A deterministic right-hand side.
pub fn rhs(n: usize) -> Vec<f64> {
    (0..n).map(|i| ((i * 7 + 3) as f64 * 0.37).sin()).collect()
}
