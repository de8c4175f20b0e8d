//! Every path of `LinearSolver` on symmetric and unsymmetric matrices, each
//! solution checked by a residual computed here from the CSC arrays.

use crate::linalg::operator::Operator;
use crate::linalg::pattern::BlockPattern;
use crate::linalg::solver::params::{LinearMethod, LinearParams};
use crate::linalg::solver::plan::{plan, plan_with_memory};
use crate::linalg::solver::LinearSolver;
use crate::linalg::test_matrices::{grid_pattern, relative_residual, values};
use crate::linalg::LinearSolveError;

fn rhs(n: usize, nrhs: usize) -> Vec<f64> {
    (0..n * nrhs)
        .map(|i| ((i * 7 + 3) as f64 * 0.37).sin())
        .collect()
}

fn check(p: &BlockPattern, val: &[f64], x: &[f64], b: &[f64], what: &str) {
    let n = p.n();
    for c in 0..b.len() / n {
        let res = relative_residual(p, val, &x[c * n..(c + 1) * n], &b[c * n..(c + 1) * n]);
        assert!(res <= 1e-12, "{what}: column {c}: ‖Ax − b‖/‖b‖ = {res:e}");
    }
}

fn params(method: LinearMethod, symmetric: bool) -> LinearParams {
    LinearParams {
        method,
        symmetric,
        ..Default::default()
    }
}

#[test]
fn direct_lu_solves_unsymmetric_matrices_including_hard_ones() {
    let p = grid_pattern(4);
    // the last one needs GMRES refinement after the supernode-pivoted LU
    for (diag, skew) in [(6.0, 0.3), (0.5, 0.2), (1e-3, 0.5)] {
        let val = values(&p, diag, skew);
        let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
        s.factorize(&val).unwrap();
        let b = rhs(p.n(), 1);
        let mut x = b.clone();
        s.solve_in_place(&mut x).unwrap();
        check(&p, &val, &x, &b, &format!("LU, diagonal {diag}"));
        assert_eq!(s.stats().factorizations, 1);
    }
}

#[test]
fn reused_factors_precondition_gmres_on_a_new_matrix() {
    // large enough that a factorization costs more than a few iterations
    let p = grid_pattern(7);
    let v0 = values(&p, 6.0, 0.3);
    let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
    s.update(&v0).unwrap();
    assert_eq!(s.stats().factorizations, 0, "decided by the next solve");
    let b = rhs(p.n(), 2);
    let mut x = b.clone();
    let info = s.solve_many_in_place(&mut x, 2).unwrap();
    check(&p, &v0, &x, &b, "fresh LU");
    assert!(info.refactored, "{info:?}");
    assert_eq!(s.stats().factorizations, 1, "the first matrix is factored");
    // a nearby matrix: solved by GMRES with the old factors, not refactored
    let v1: Vec<f64> = v0
        .iter()
        .enumerate()
        .map(|(k, v)| v * (1.0 + 0.02 * ((k % 5) as f64 - 2.0)))
        .collect();
    s.update(&v1).unwrap();
    let mut x = b.clone();
    let info = s.solve_many_in_place(&mut x, 2).unwrap();
    check(&p, &v1, &x, &b, "reused LU + GMRES");
    assert!(!info.refactored && info.iterations > 0, "{info:?}");
    assert_eq!(s.stats().factorizations, 1);
    // a far matrix: the reuse fails within the limit and the solver refactors
    let v2 = values(&p, 0.5, -0.4);
    s.update(&v2).unwrap();
    let mut x = b.clone();
    let info = s.solve_many_in_place(&mut x, 2).unwrap();
    check(&p, &v2, &x, &b, "refactored LU");
    assert!(info.refactored, "{info:?}");
    assert_eq!(s.stats().factorizations, 2);
}

#[test]
fn a_change_of_more_lines_than_the_limit_is_refactored_without_an_attempt() {
    let p = grid_pattern(7);
    let v0 = values(&p, 6.0, 0.3);
    let prm = LinearParams {
        reuse_iterations: Some(10),
        ..params(LinearMethod::Direct, false)
    };
    let mut s = LinearSolver::new(&p, prm).unwrap();
    s.factorize(&v0).unwrap();
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    // `rows` rows scaled by 3: a change of rank `rows`
    let scaled = |rows: usize| -> Vec<f64> {
        let mut v = v0.clone();
        for c in 0..p.n() {
            for k in cp[c]..cp[c + 1] {
                if ri[k] % 17 == 0 && ri[k] / 17 < rows {
                    v[k] *= 3.0;
                }
            }
        }
        v
    };
    let b = rhs(p.n(), 1);
    // 4 rows: within the limit, the old factors are kept
    let v1 = scaled(4);
    s.update(&v1).unwrap();
    let mut x = b.clone();
    let info = s.solve_in_place(&mut x).unwrap();
    check(&p, &v1, &x, &b, "old factors, 4 rows changed");
    assert!(!info.refactored && info.iterations <= 10, "{info:?}");
    // 30 rows: refactored at once, no Krylov iteration on the old factors
    let v2 = scaled(30);
    s.update(&v2).unwrap();
    let before = s.stats().krylov_iterations;
    let mut x = b.clone();
    let info = s.solve_in_place(&mut x).unwrap();
    check(&p, &v2, &x, &b, "refactored, 30 rows changed");
    assert!(info.refactored, "{info:?}");
    assert_eq!(s.stats().krylov_iterations - before, info.iterations);
    assert_eq!(s.stats().factorizations, 2);
}

#[test]
fn symmetric_matrices_take_ldlt_and_reuse_it() {
    let p = grid_pattern(4);
    let val = values(&p, 6.0, 0.0);
    let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, true)).unwrap();
    s.factorize(&val).unwrap();
    let b = rhs(p.n(), 3);
    let mut x = b.clone();
    s.solve_many_in_place(&mut x, 3).unwrap();
    check(&p, &val, &x, &b, "LDLᵀ");
    let v1: Vec<f64> = val.iter().map(|v| v * 1.01).collect();
    s.update(&v1).unwrap();
    let mut x = b.clone();
    s.solve_many_in_place(&mut x, 3).unwrap();
    check(&p, &v1, &x, &b, "reused LDLᵀ + GMRES");
}

#[test]
fn the_iterative_path_solves_both_kinds() {
    let p = grid_pattern(5);
    for (symmetric, skew) in [(true, 0.0), (false, 0.3)] {
        let val = values(&p, 6.0, skew);
        let mut s = LinearSolver::new(&p, params(LinearMethod::Iterative, symmetric)).unwrap();
        assert_eq!(s.plan().method, LinearMethod::Iterative);
        s.update(&val).unwrap();
        let b = rhs(p.n(), 2);
        let mut x = b.clone();
        let info = s.solve_many_in_place(&mut x, 2).unwrap();
        check(
            &p,
            &val,
            &x,
            &b,
            &format!("iterative, symmetric {symmetric}"),
        );
        assert!(info.iterations > 2, "{info:?}");
        assert_eq!(
            s.stats().symbolic_analyses,
            0,
            "no factorization on the iterative path"
        );
    }
}

#[test]
fn a_solve_that_misses_its_target_is_an_error() {
    let p = grid_pattern(4);
    // indefinite, far from block-diagonal: block Jacobi GMRES cannot make it
    // in 5 iterations
    let val = values(&p, 0.5, 0.2);
    let mut s = LinearSolver::new(
        &p,
        LinearParams {
            max_iterations: 5,
            ..params(LinearMethod::Iterative, false)
        },
    )
    .unwrap();
    s.update(&val).unwrap();
    let mut x = rhs(p.n(), 1);
    match s.solve_in_place(&mut x) {
        Err(LinearSolveError::NoConvergence(e)) => assert!(e.residual > 1e-12 && e.iterations >= 5),
        other => panic!("expected NoConvergence, got {other:?}"),
    }
}

#[test]
fn a_direct_request_beyond_memory_is_refused_with_the_estimate() {
    let p = grid_pattern(4);
    let plan = plan(p.node_graph(), 3, &params(LinearMethod::Auto, false)).unwrap();
    assert_eq!(plan.method, LinearMethod::Direct);
    assert!(plan.factor_bytes > 0.0);
    // Auto with a budget below the estimate goes iterative
    let tight = LinearParams {
        memory_budget: Some(0.5 * plan.factor_bytes),
        ..params(LinearMethod::Auto, false)
    };
    let s = LinearSolver::new(&p, tight).unwrap();
    assert_eq!(s.plan().method, LinearMethod::Iterative);
    // Direct with less memory than the estimate: refused, with the estimate
    let direct = params(LinearMethod::Direct, false);
    match plan_with_memory(p.node_graph(), 3, &direct, 0.5 * plan.factor_bytes) {
        Err(LinearSolveError::TooLarge { bytes, available }) => {
            assert_eq!(bytes, plan.factor_bytes);
            assert_eq!(available, 0.5 * plan.factor_bytes);
        }
        other => panic!("expected TooLarge, got {other:?}"),
    }
    assert!(plan_with_memory(p.node_graph(), 3, &direct, 2.0 * plan.factor_bytes).is_ok());
}

#[test]
fn a_solve_stalled_at_its_round_off_floor_is_accepted_and_right() {
    // A = L + δI with L's rows summing to zero (L·1 = 0), δ = 1e-7: the
    // solution has a component ‖b‖/δ along 1, so ‖|A||x|‖ ≫ ‖b‖ and no
    // residual below ε‖|A||x|‖ ≈ 1e-10 ‖b‖ can be computed (the stepper's
    // Newton matrix on a fast rigid motion: stiffness plus a small mass).
    let p = grid_pattern(3);
    let mut val = values(&p, 0.0, 0.3);
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    let mut row_sum = vec![0.0; p.n()];
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            row_sum[ri[k]] += val[k];
        }
    }
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            if ri[k] == c {
                val[k] += 1e-7 - row_sum[c];
            }
        }
    }
    let b = rhs(p.n(), 1);
    let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
    s.factorize(&val).unwrap();
    let mut x = b.clone();
    let info = s.solve_in_place(&mut x).unwrap();
    // independently: the residual, and its round-off scale ‖|A||x| + |b|‖
    let res = relative_residual(&p, &val, &x, &b);
    let mut scale: Vec<f64> = b.iter().map(|v| v.abs()).collect();
    for c in 0..p.n() {
        for k in cp[c]..cp[c + 1] {
            scale[ri[k]] += val[k].abs() * x[c].abs();
        }
    }
    let bnorm = b.iter().map(|v| v * v).sum::<f64>().sqrt();
    let floor = f64::EPSILON * scale.iter().map(|v| v * v).sum::<f64>().sqrt() / bnorm;
    assert!(
        floor > 1e-11,
        "the case must have its floor above rtol: {floor:e}"
    );
    assert!(
        res > 1e-12,
        "residual {res:e} below rtol: the floor was not needed"
    );
    assert!(res <= 64.0 * floor, "residual {res:e}, floor {floor:e}");
    // what the solver claims, by its own residual, is the same bound
    assert!(info.residual <= 64.0 * floor, "claimed {:e}", info.residual);
}

/// An `(m+1)³`-node grid (`m³` hex cells) with a 4×4 patch of its top
/// plane as the volatile (contact) nodes, ordered last by a direct solver.
fn patch_solver_on(m: usize) -> (BlockPattern, Vec<usize>, LinearSolver) {
    let p = grid_pattern(m);
    let side = m + 1;
    let top: Vec<usize> = (4..8)
        .flat_map(|j| (4..8).map(move |i| m * side * side + j * side + i))
        .collect();
    let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
    s.set_pattern(&p, &top, &[]).unwrap();
    (p, top, s)
}

/// [`patch_solver_on`] the 12³-node grid.
fn patch_solver() -> (BlockPattern, Vec<usize>, LinearSolver) {
    patch_solver_on(11)
}

/// Two boxes in contact, the friction blocks in small: a base of
/// `2m × 2m × m` hex8 cells and a cube of `m³` cells on it, each node of
/// the cube's bottom coupled to the four base nodes under it (a contact
/// element); the volatile nodes are those two faces' coupled nodes.
fn two_boxes(m: usize) -> (BlockPattern, Vec<usize>) {
    let (b, c) = (2 * m, m);
    let base = |i: usize, j: usize, k: usize| (k * (b + 1) + j) * (b + 1) + i;
    let nb = (b + 1) * (b + 1) * (m + 1);
    let cube = |i: usize, j: usize, k: usize| nb + (k * (c + 1) + j) * (c + 1) + i;
    let mut lists: Vec<Vec<usize>> = Vec::new();
    let cells = |n: usize, h: usize, id: &dyn Fn(usize, usize, usize) -> usize| {
        let mut l = Vec::new();
        for k in 0..h {
            for j in 0..n {
                for i in 0..n {
                    l.push(
                        [(0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0)]
                            .iter()
                            .flat_map(|&(di, dj, _)| {
                                [id(i + di, j + dj, k), id(i + di, j + dj, k + 1)]
                            })
                            .collect(),
                    );
                }
            }
        }
        l
    };
    lists.extend(cells(b, m, &base));
    lists.extend(cells(c, c, &cube));
    let mut volatile = Vec::new();
    for j in 0..=c {
        for i in 0..=c {
            let (bi, bj) = ((i + m / 2).min(b - 1), j.min(b - 1));
            let under = [(0, 0), (1, 0), (1, 1), (0, 1)].map(|(di, dj)| base(bi + di, bj + dj, m));
            let mut l = vec![cube(i, j, 0)];
            l.extend(under);
            volatile.extend_from_slice(&l);
            lists.push(l);
        }
    }
    volatile.sort_unstable();
    volatile.dedup();
    let n = nb + (c + 1).pow(3);
    (
        BlockPattern::new(n, 3, lists.iter().map(|l| &l[..])),
        volatile,
    )
}

/// The trailing block is the volatile nodes' columns and nothing else:
/// refactoring it costs at most the dense LU of those columns. With faer's
/// default supernode relaxation the last interior separator merged into it
/// at ≤ 5 % explicit zeros (`SPLIT_RELAX`): 3.0× and 3.0× the dense LU's
/// flops on these two sizes.
#[test]
fn the_trailing_block_is_the_volatile_columns_alone() {
    for m in [6, 8] {
        let (p, volatile) = two_boxes(m);
        let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
        s.set_pattern(&p, &volatile, &[]).unwrap();
        let (full, trailing) = s.factor_flops().unwrap();
        let cols = volatile.len() * 3;
        let dense: f64 = (0..cols).map(|c| (c + 2 * c * c) as f64).sum();
        assert!(
            trailing > 0.0 && trailing <= dense,
            "m = {m}: trailing {trailing:e} flops, dense LU of the {cols} volatile columns {dense:e}, full {full:e}"
        );
    }
}

#[test]
fn restricted_solves_are_the_full_solution_on_the_contact_nodes() {
    let (p, top, mut s) = patch_solver();
    let n = p.n();
    let v0 = values(&p, 6.0, 0.3);
    let v1: Vec<f64> = v0.iter().map(|v| v * 1.01).collect();
    // columns on the dofs of a few top nodes; their entries are wanted
    let support: Vec<usize> = top[4..10]
        .iter()
        .flat_map(|&a| (0..3).map(move |i| a * 3 + i))
        .collect();
    let nrhs = 5;
    let mut b = vec![0.0; n * nrhs];
    for c in 0..nrhs {
        for (k, &d) in support.iter().enumerate() {
            b[c * n + d] = ((k * 3 + c) as f64 * 0.7).sin();
        }
    }
    s.factorize(&v0).unwrap();
    for (values, what) in [(&v0, "fresh factors"), (&v1, "a new matrix")] {
        if what != "fresh factors" {
            s.update(values).unwrap();
        }
        let before = s.stats();
        let mut part = b.clone();
        let info = s
            .solve_restricted_many_in_place(&mut part, nrhs, &support)
            .unwrap();
        let after = s.stats();
        assert_eq!(
            after.trailing_solves - before.trailing_solves,
            nrhs,
            "{what}"
        );
        assert_eq!(
            info.refactored,
            what == "a new matrix",
            "{what}: old factors are refactored, not reused"
        );
        assert!(
            info.residual <= 1e-12,
            "{what}: the sample's residual {info:?}"
        );
        let mut full = b.clone();
        s.solve_many_in_place(&mut full, nrhs).unwrap();
        check(&p, values, &full, &b, what);
        for c in 0..nrhs {
            let scale = full[c * n..(c + 1) * n]
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            for &d in &support {
                let (x, y) = (full[c * n + d], part[c * n + d]);
                assert!(
                    (x - y).abs() <= 1e-12 * scale,
                    "{what}: column {c}, dof {d}: {y} against {x}"
                );
            }
        }
    }
    // a support outside the trailing block: the full solve
    let inner = vec![3 * 64 * 3];
    let mut b1 = vec![0.0; n];
    b1[inner[0]] = 1.0;
    let mut x = b1.clone();
    let before = s.stats().trailing_solves;
    s.solve_restricted_many_in_place(&mut x, 1, &inner).unwrap();
    assert_eq!(s.stats().trailing_solves, before);
    check(&p, &v1, &x, &b1, "restricted to an interior node");
}

#[test]
fn update_trailing_refactors_the_contact_block_on_the_old_rest() {
    let (p, top, mut s) = patch_solver();
    let side = 12; // nodes per edge: the bottom plane is the first side² nodes
    let v0 = values(&p, 6.0, 0.3);
    assert!(
        !s.update_trailing(&v0).unwrap(),
        "no full factorization to take a trailing block on"
    );
    s.factorize(&v0).unwrap();
    // v1: v0 with every coupling between two patch nodes changed (the
    // contact terms of a later Newton iterate); v2: v1 with the couplings of
    // the bottom plane changed as well, far from the trailing block
    let node_of = |dof: usize| dof / 3;
    let (mut v1, mut v2) = (v0.clone(), v0.clone());
    let (mut in_patch, mut in_bottom) = (0, 0);
    let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
    for col in 0..p.n() {
        for k in cp[col]..cp[col + 1] {
            let (a, b) = (node_of(ri[k]), node_of(col));
            let skew = 0.2 * ((k % 7) as f64 - 3.0);
            if top.contains(&a) && top.contains(&b) {
                v1[k] += skew + if a == b { 1.5 } else { 0.0 };
                in_patch += 1;
            } else if a < side * side && b < side * side {
                v2[k] *= 1.3;
                in_bottom += 1;
            }
        }
    }
    for k in 0..v2.len() {
        if v1[k] != v0[k] {
            v2[k] = v1[k];
        }
    }
    assert!(in_patch > 0 && in_bottom > 0);
    let b = rhs(p.n(), 2);
    let before = s.stats();
    assert!(s.update_trailing(&v1).unwrap());
    let after = s.stats();
    assert_eq!(
        after.factorizations, before.factorizations,
        "not a full factorization"
    );
    assert_eq!(
        after.trailing_refactorizations,
        before.trailing_refactorizations + 1
    );
    // exact for v1, which differs from the factored v0 in the block only
    let mut x = b.clone();
    let info = s.solve_many_in_place(&mut x, 2).unwrap();
    assert!(!info.refactored && info.iterations == 0, "{info:?}");
    check(&p, &v1, &x, &b, "trailing block updated");
    // the entries of v2 outside the block are not read: the same matrix
    assert!(s.update_trailing(&v2).unwrap());
    let mut y = b.clone();
    s.solve_many_in_place(&mut y, 2).unwrap();
    check(&p, &v1, &y, &b, "v2's bottom plane ignored");
    assert!(relative_residual(&p, &v2, &y[..p.n()], &b[..p.n()]) > 1e-6);
    // a matrix given by `update` ends the chord: the next one is refused
    s.update(&v2).unwrap();
    assert!(!s.update_trailing(&v1).unwrap());
}

#[test]
fn a_large_product_is_the_same_bit_for_bit_on_any_number_of_threads() {
    // 11³ nodes: 3e5 stored entries, above the threshold of the chunked
    // product
    let p = grid_pattern(10);
    let n = p.n();
    let val = values(&p, 6.0, 0.3);
    assert!(
        val.len() >= 1 << 18,
        "{} entries: the small path",
        val.len()
    );
    let x: Vec<f64> = (0..n).map(|i| (i as f64 * 0.17).sin()).collect();
    let product = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut op = Operator::new(&p);
            op.values.copy_from_slice(&val);
            let mut y = vec![0.0; n];
            op.apply(&x, &mut y);
            y
        })
    };
    let one = product(1);
    for threads in [2, 3] {
        assert!(product(threads) == one, "{threads} threads: another y");
    }
    let mut y = vec![0.0; n];
    p.mul(&val, &x, &mut y);
    let err = one
        .iter()
        .zip(&y)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max);
    let scale = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(
        err <= 1e-14 * scale,
        "chunked against plain product: {err:e}"
    );
}

#[test]
fn a_stopped_factorization_is_an_error_of_its_own_and_the_next_one_solves() {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let p = grid_pattern(5);
    let val = values(&p, 6.0, 0.3);
    let mut s = LinearSolver::new(&p, params(LinearMethod::Direct, false)).unwrap();
    let stop = Arc::new(AtomicBool::new(true));
    s.set_stop(Some(Arc::clone(&stop)));
    assert!(
        matches!(s.factorize(&val), Err(LinearSolveError::Cancelled)),
        "a stop is not a singular matrix (no fallback factorization)"
    );
    stop.store(false, Ordering::SeqCst);
    let b = rhs(p.n(), 1);
    let mut x = b.clone();
    s.update(&val).unwrap();
    s.solve_in_place(&mut x).unwrap();
    check(&p, &val, &x, &b, "after a stopped factorization");
}
