//! The linear solver against faer's LU on random small systems: 3D (3 dofs
//! per node) and 2D (2 dofs) grids, an SPD stiffness with a random
//! unsymmetric part, some nodes' diagonal blocks exactly zero, contact
//! multipliers with zero diagonal blocks (anchored to their surface node
//! or not), either fill ordering, the surface ordered last or not. Every
//! solve keeps the contract, and its solution agrees with faer's within
//! what the two residuals allow: `‖x − x_faer‖ ≤ ‖A⁻¹‖ (‖r‖ + ‖r_faer‖)`.

use super::matrices::{
    hex8_cells, multipliers, quad4_cells, relative_residual, rhs, round_off_floor, stiffness,
    Multiplier,
};
use emcontact::linalg::{
    BlockPattern, FillOrdering, LinearMethod, LinearParams, LinearSolver, SparseLu,
};
use faer::linalg::solvers::DenseSolveCore;
use proptest::prelude::*;

const CONTRACT: f64 = 1e-12;
const FLOOR_FACTOR: f64 = 64.0;

#[derive(Debug, Clone)]
struct Case {
    dim: usize,
    /// Cells per edge.
    m: usize,
    seed: u64,
    zero_blocks: usize,
    multipliers: bool,
    anchored: bool,
    metis: bool,
    surface_last: bool,
    skew: f64,
}

fn cases() -> impl Strategy<Value = Case> {
    (
        2usize..=3,
        0usize..=2,
        any::<u64>(),
        0usize..=3,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        0.0f64..0.5,
    )
        .prop_map(
            |(dim, k, seed, zero_blocks, multipliers, anchored, metis, surface_last, skew)| Case {
                dim,
                m: if dim == 3 { 2 + k.min(1) } else { 3 + k },
                seed,
                zero_blocks,
                multipliers,
                anchored,
                metis,
                surface_last,
                skew,
            },
        )
}

/// A deterministic value in [-1, 1) from `seed` and `k` (splitmix64).
fn noise(seed: u64, k: u64) -> f64 {
    let mut z = seed.wrapping_add(k.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 52) as f64 - 1.0
}

/// The case's pattern, values, anchored pairs and surface nodes.
fn build(c: &Case) -> (BlockPattern, Vec<f64>, Vec<(usize, usize)>, Vec<usize>) {
    let (d, m) = (c.dim, c.m);
    let (cells, n_nodes, surface): (Vec<Vec<usize>>, usize, Vec<usize>) = if d == 3 {
        let top = |i: usize, j: usize| (m * (m + 1) + j) * (m + 1) + i;
        let surface = (0..=m)
            .flat_map(|j| (0..=m).map(move |i| top(i, j)))
            .collect();
        (hex8_cells(m), (m + 1).pow(3), surface)
    } else {
        let surface = (0..=m).map(|i| m * (m + 1) + i).collect();
        (quad4_cells(m), (m + 1).pow(2), surface)
    };
    let mut mult = Vec::new();
    if c.multipliers {
        // a multiplier on every interior surface node, coupled to it and
        // its surface neighbours
        let side = m + 1;
        for (k, &s) in surface.iter().enumerate() {
            let (i, j) = (k % side, k / side);
            let interior = i > 0 && i < m && (d == 2 || (j > 0 && j < m));
            if !interior {
                continue;
            }
            let mut to = vec![s, surface[k - 1], surface[k + 1]];
            if d == 3 {
                to.extend([surface[k - side], surface[k + side]]);
            }
            let w = (0..to.len())
                .map(|q| {
                    if q == 0 {
                        1.0
                    } else {
                        -0.2 + 0.1 * noise(c.seed, q as u64)
                    }
                })
                .collect();
            mult.push(Multiplier {
                node: n_nodes + mult.len(),
                to,
                w,
            });
        }
    }
    let mut lists = cells.clone();
    for mu in &mult {
        lists.extend(mu.to.iter().map(|&q| vec![mu.node, q]));
    }
    let p = BlockPattern::new(n_nodes + mult.len(), d, lists.iter().map(|l| &l[..]));
    let mut v = vec![0.0; p.nnz()];
    stiffness(&p, &cells, 0.1, &mut v);
    // the unsymmetric part, on the grid's couplings
    for (k, val) in v.iter_mut().enumerate() {
        if *val != 0.0 {
            *val += c.skew * noise(c.seed, k as u64);
        }
    }
    // zero diagonal blocks on some grid nodes
    for z in 0..c.zero_blocks {
        let a = (noise(c.seed, 1_000_000 + z as u64).abs() * n_nodes as f64) as usize % n_nodes;
        for i in 0..d {
            for j in 0..d {
                let off = p.block_offset(a, a).unwrap();
                v[p.position(off, i, a, j)] = 0.0;
            }
        }
    }
    multipliers(&p, &mult, &mut v);
    let anchored = mult.iter().map(|mu| (mu.node, mu.to[0])).collect();
    (p, v, anchored, surface)
}

/// `‖A⁻¹‖_F ≥ ‖A⁻¹‖₂` by faer's dense LU.
fn inverse_norm(p: &BlockPattern, v: &[f64]) -> f64 {
    let n = p.n();
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    let mut a = faer::Mat::<f64>::zeros(n, n);
    for c in 0..n {
        for k in cp[c]..cp[c + 1] {
            a[(ri[k], c)] = v[k];
        }
    }
    let inv = a.partial_piv_lu().inverse();
    let mut s = 0.0;
    for j in 0..n {
        for i in 0..n {
            s += inv[(i, j)] * inv[(i, j)];
        }
    }
    s.sqrt()
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn the_solver_agrees_with_faers_lu(c in cases()) {
        let (p, v, anchored, surface) = build(&c);
        let params = LinearParams {
            method: LinearMethod::Direct,
            ordering: if c.metis { FillOrdering::Metis } else { FillOrdering::Amd },
            ..Default::default()
        };
        let mut solver = LinearSolver::new(&p, params).unwrap();
        let last: &[usize] = if c.surface_last { &surface } else { &[] };
        let anchors: &[(usize, usize)] = if c.anchored { &anchored } else { &[] };
        solver.set_pattern(&p, last, anchors).unwrap();
        solver.factorize(&v).unwrap();
        let b = rhs(p.n());
        let mut x = b.clone();
        let info = solver.solve_in_place(&mut x).unwrap();
        let res = relative_residual(&p, &v, &x, &b);
        let floor = round_off_floor(&p, &v, &x, &b);
        let contract = CONTRACT.max(FLOOR_FACTOR * floor);
        prop_assert!(res <= contract, "residual {:e}, floor {:e}", res, floor);
        prop_assert!(info.residual <= contract, "claimed {:?}", info);
        // faer's LU, partial pivoting over whole columns
        let mut faer = SparseLu::new(&p).unwrap();
        faer.factorize(&p, &v).unwrap();
        let mut y = b.clone();
        faer.solve_in_place(&mut y).unwrap();
        let res_f = relative_residual(&p, &v, &y, &b);
        let floor_f = round_off_floor(&p, &v, &y, &b);
        let bn = norm(&b);
        let diff: Vec<f64> = x.iter().zip(&y).map(|(a, b)| a - b).collect();
        // the residuals as computed, each within its own round-off
        let allowed = inverse_norm(&p, &v)
            * bn
            * (res + res_f + FLOOR_FACTOR * (floor + floor_f));
        prop_assert!(
            norm(&diff) <= allowed,
            "‖x − x_faer‖ = {:e} above {:e} (residuals {:e}, {:e})",
            norm(&diff),
            allowed,
            res,
            res_f
        );
    }
}
