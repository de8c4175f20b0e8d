//! Tests of the supernodal LU: the trailing-block refactorization and
//! solve, unsymmetric grid matrices on every ordering, and a factorization
//! stopped on request.

use crate::linalg::lu::params::LuParams;
use crate::linalg::lu::symbolic::SymbolicFactor;
use crate::linalg::lu::SupernodalLu;
use crate::linalg::ordering::nodes::FillOrdering;
use crate::linalg::test_matrices::{grid_pattern, relative_residual, values};

#[test]
fn refactoring_the_trailing_block_factors_the_mixed_matrix() {
    let p = grid_pattern(5);
    let n = p.n();
    // the nodes of the top face plane last
    let last: Vec<usize> = (5 * 36..6 * 36).collect();
    let sym = SymbolicFactor::with_last(&p, FillOrdering::Metis, None, &last).unwrap();
    assert!(sym.split().is_some());
    let v0 = values(&p, 6.0, 0.3);
    let v1 = values(&p, 5.0, -0.4);
    let mut lu = SupernodalLu::new(&sym, &p);
    lu.factorize(&sym, &v0, LuParams::default()).unwrap();
    lu.refactor_trailing(&sym, &v1, LuParams::default())
        .unwrap();
    // the factored matrix: v1 where an entry lands in the trailing block, v0 elsewhere
    let mut mixed = v0.clone();
    for &(k, _) in &lu.tail {
        mixed[k] = v1[k];
    }
    assert!(
        lu.tail.len() >= 36 * 36 * 9 / 4,
        "the top plane's couplings are trailing"
    );
    let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.3).cos()).collect();
    let mut x = b.clone();
    let (mut w1, mut w2) = (Vec::new(), Vec::new());
    lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
    let res = relative_residual(&p, &mixed, &x, &b);
    assert!(res < 1e-13, "residual of the mixed matrix {res:e}");
    // and a full factorization of v1 after it is again exact for v1
    lu.factorize(&sym, &v1, LuParams::default()).unwrap();
    let mut x = b.clone();
    lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
    let res = relative_residual(&p, &v1, &x, &b);
    assert!(res < 1e-13, "residual after refactoring {res:e}");
}

#[test]
fn factors_unsymmetric_grid_matrices_with_every_ordering() {
    let p = grid_pattern(5);
    let n = p.n();
    // diagonally dominant, unsymmetric: the restricted pivoting is stable
    // (harder matrices are solved to 1e-12 with refinement, `solver.rs`)
    for (diag, skew) in [(4.0, 0.3), (6.0, 1.0)] {
        let val = values(&p, diag, skew);
        for ordering in [FillOrdering::Metis, FillOrdering::Amd] {
            let sym = SymbolicFactor::new(&p, ordering, None).unwrap();
            let mut lu = SupernodalLu::new(&sym, &p);
            lu.factorize(&sym, &val, LuParams::default()).unwrap();
            let nrhs = 3;
            let b: Vec<f64> = (0..n * nrhs)
                .map(|i| ((i * 7) as f64 * 0.13).sin())
                .collect();
            let mut x = b.clone();
            let (mut w1, mut w2) = (Vec::new(), Vec::new());
            lu.solve_in_place(&sym, &mut x, nrhs, &mut w1, &mut w2);
            for c in 0..nrhs {
                let res =
                    relative_residual(&p, &val, &x[c * n..(c + 1) * n], &b[c * n..(c + 1) * n]);
                assert!(res < 1e-13, "{ordering:?}: column {c}: residual {res:e}");
            }
        }
    }
}

#[test]
fn the_trailing_solve_is_the_full_solve_on_the_trailing_dofs() {
    let p = grid_pattern(5);
    let n = p.n();
    let last: Vec<usize> = (5 * 36..6 * 36).collect();
    let sym = SymbolicFactor::with_last(&p, FillOrdering::Metis, None, &last).unwrap();
    let c0 = SupernodalLu::trailing_begin(&sym).expect("a trailing block");
    let (_, inv) = sym.perm();
    let val = values(&p, 6.0, 0.3);
    let mut lu = SupernodalLu::new(&sym, &p);
    lu.factorize(&sym, &val, LuParams::default()).unwrap();
    // right-hand sides on the trailing nodes only
    let nrhs = 4;
    let trailing = |dof: usize| inv[dof] >= c0;
    let b: Vec<f64> = (0..n * nrhs)
        .map(|i| {
            if trailing(i % n) {
                ((i * 5) as f64 * 0.21).cos()
            } else {
                0.0
            }
        })
        .collect();
    let (mut w1, mut w2) = (Vec::new(), Vec::new());
    let mut full = b.clone();
    lu.solve_in_place(&sym, &mut full, nrhs, &mut w1, &mut w2);
    let mut part = b.clone();
    lu.solve_trailing_in_place(&sym, &mut part, nrhs, &mut w1, &mut w2);
    let mut whole = b.clone();
    lu.solve_trailing_rhs_in_place(&sym, &mut whole, nrhs, &mut w1, &mut w2);
    assert!(
        whole == full,
        "the full solve without the leading forward solve differs"
    );
    let mut outside = 0;
    for c in 0..nrhs {
        let xc = &full[c * n..(c + 1) * n];
        let res = relative_residual(&p, &val, xc, &b[c * n..(c + 1) * n]);
        assert!(res < 1e-13, "full solve, column {c}: residual {res:e}");
        let scale = xc.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        for dof in 0..n {
            let (f, t) = (xc[dof], part[c * n + dof]);
            if trailing(dof) {
                assert!(
                    (f - t).abs() <= 1e-13 * scale,
                    "column {c}, dof {dof}: {t} against {f}"
                );
            } else {
                assert_eq!(t, 0.0, "the first block is left alone");
                outside += (f != 0.0) as usize;
            }
        }
    }
    assert!(
        outside > 0,
        "the full solution is not zero off the trailing block"
    );
}

#[test]
fn subtrees_factor_exactly_and_alike_on_any_number_of_threads() {
    let p = grid_pattern(11);
    let n = p.n();
    let sym = SymbolicFactor::new(&p, FillOrdering::Metis, None).unwrap();
    assert!(!sym.levels().is_empty(), "no parallel subtrees");
    let val = values(&p, 6.0, 0.3);
    let factor = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut lu = SupernodalLu::new(&sym, &p);
            lu.factorize(&sym, &val, LuParams::default()).unwrap();
            lu
        })
    };
    let (one, two) = (factor(1), factor(2));
    assert!(
        one.l == two.l && one.u == two.u && one.piv == two.piv,
        "the factors depend on the number of threads"
    );
    let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.37).sin()).collect();
    let mut x = b.clone();
    let (mut w1, mut w2) = (Vec::new(), Vec::new());
    two.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
    let res = relative_residual(&p, &val, &x, &b);
    assert!(res < 1e-13, "residual {res:e}");
}

#[test]
fn a_zero_pivot_leaves_the_factors_usable_for_the_next_matrix() {
    for m in [5, 11] {
        let p = grid_pattern(m);
        let n = p.n();
        let sym = SymbolicFactor::new(&p, FillOrdering::Metis, None).unwrap();
        let mut lu = SupernodalLu::new(&sym, &p);
        let zero = vec![0.0; p.nnz()];
        assert!(
            lu.factorize(&sym, &zero, LuParams::default()).is_err(),
            "a zero matrix is singular"
        );
        let val = values(&p, 6.0, 0.3);
        lu.factorize(&sym, &val, LuParams::default()).unwrap();
        let b: Vec<f64> = (0..n).map(|i| (i as f64 * 0.11).cos()).collect();
        let mut x = b.clone();
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
        let res = relative_residual(&p, &val, &x, &b);
        assert!(res < 1e-13, "{m}³ cells: residual {res:e}");
    }
}

#[test]
fn factors_in_the_arrays_of_another_pattern_are_the_fresh_factors() {
    // a larger pattern's arrays into a smaller one and back, with and
    // without a trailing block: the same factors as in fresh arrays
    let factored = |m: usize, last: bool, old: Option<SupernodalLu>| {
        let p = grid_pattern(m);
        let side = m + 1;
        let top: Vec<usize> = (0..side * side).map(|a| m * side * side + a).collect();
        let sym = if last {
            SymbolicFactor::with_last(&p, FillOrdering::Metis, None, &top).unwrap()
        } else {
            SymbolicFactor::new(&p, FillOrdering::Metis, None).unwrap()
        };
        let val = values(&p, 6.0, 0.3);
        let mut lu = SupernodalLu::reusing(&sym, &p, old);
        lu.factorize(&sym, &val, LuParams::default()).unwrap();
        (lu, p, sym, val)
    };
    let mut old = None;
    for (m, last) in [(9, false), (6, true), (9, true), (11, true), (6, false)] {
        let (fresh, ..) = factored(m, last, None);
        let (lu, p, sym, val) = factored(m, last, old.take());
        assert!(
            lu.l == fresh.l && lu.u == fresh.u && lu.piv == fresh.piv,
            "{m}³ cells: the factors depend on the arrays they were computed in"
        );
        let b: Vec<f64> = (0..p.n()).map(|i| (i as f64 * 0.31).sin()).collect();
        let mut x = b.clone();
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
        let res = relative_residual(&p, &val, &x, &b);
        assert!(res < 1e-13, "{m}³ cells: residual {res:e}");
        old = Some(lu);
    }
}

#[test]
fn a_stop_request_ends_the_factorization_and_the_next_one_is_whole() {
    use crate::linalg::lu::error::LuError;
    use std::sync::atomic::AtomicBool;
    let m = 9;
    let p = grid_pattern(m);
    let sym = SymbolicFactor::new(&p, FillOrdering::Metis, None).unwrap();
    let val = values(&p, 6.0, 0.3);
    let mut fresh = SupernodalLu::new(&sym, &p);
    fresh.factorize(&sym, &val, LuParams::default()).unwrap();
    let mut lu = SupernodalLu::new(&sym, &p);
    let stop = AtomicBool::new(true);
    assert_eq!(
        lu.factorize_until(&sym, &val, LuParams::default(), Some(&stop)),
        Err(LuError::Cancelled)
    );
    stop.store(false, std::sync::atomic::Ordering::SeqCst);
    lu.factorize_until(&sym, &val, LuParams::default(), Some(&stop))
        .unwrap();
    assert!(
        lu.l == fresh.l && lu.u == fresh.u && lu.piv == fresh.piv,
        "the factorization after a stopped one is a fresh one"
    );
}
