//! The supernodal LU's fallback: a nonsingular matrix whose supernode
//! block has no pivot (an exact zero), or whose restricted pivoting leaves
//! factors too poor to refine (a tiny pivot), is factored by faer's LU
//! instead and solved to the contract; the next matrix goes back to the
//! supernodal LU. The restricted solves of `W` check a sampled column and
//! take full solves where it misses.

use super::matrices::{relative_residual, rhs, round_off_floor};
use super::saddle_point::{grid_2d, grid_3d, Saddle};
use emcontact::linalg::{
    FillOrdering, LinearMethod, LinearParams, LinearSolver, LuError, LuParams, SparseLu,
    SupernodalLu, SymbolicFactor,
};

/// The residual every `Ok` solve of `LinearSolver` reaches (its `rtol`;
/// these cases' round-off floors are below it).
const CONTRACT: f64 = 1e-12;

fn direct(ordering: FillOrdering) -> LinearParams {
    LinearParams {
        method: LinearMethod::Direct,
        ordering,
        ..Default::default()
    }
}

/// Solves `s` (its multipliers not anchored) with a direct solver and
/// checks the contract; returns the solver.
fn solve_unanchored(
    s: &Saddle,
    values: &[f64],
    ordering: FillOrdering,
    what: &str,
) -> LinearSolver {
    let mut solver = LinearSolver::new(&s.pattern, direct(ordering)).unwrap();
    solver.factorize(values).unwrap();
    let b = rhs(s.pattern.n());
    let mut x = b.clone();
    let info = solver.solve_in_place(&mut x).unwrap();
    let res = relative_residual(&s.pattern, values, &x, &b);
    let floor = round_off_floor(&s.pattern, values, &x, &b);
    assert!(floor < CONTRACT, "{what}: a well-posed case ({floor:e})");
    assert!(res <= CONTRACT, "{what}: residual {res:e}");
    assert!(info.residual <= CONTRACT, "{what}: claimed {info:?}");
    solver
}

#[test]
fn a_singular_supernode_block_of_a_nonsingular_matrix_falls_back_to_faers_lu() {
    for s in [grid_3d(), grid_2d()] {
        for ordering in [FillOrdering::Amd, FillOrdering::Metis] {
            let what = format!("dim {}, {ordering:?}", s.pattern.dim());
            // without their anchors the multipliers' zero diagonal blocks
            // are pivot blocks of their own: the supernodal LU finds no pivot
            let sym = SymbolicFactor::new(&s.pattern, ordering, None).unwrap();
            let mut lu = SupernodalLu::new(&sym, &s.pattern);
            assert!(
                matches!(
                    lu.factorize(&sym, &s.values, LuParams::default()),
                    Err(LuError::ZeroPivot { .. })
                ),
                "{what}: the case needs the fallback"
            );
            let mut solver = solve_unanchored(&s, &s.values, ordering, &what);
            assert_eq!(solver.stats().fallback_factorizations, 1, "{what}");
            // a matrix with pivots in every block: the supernodal LU again
            let mut regular = s.values.clone();
            let d = s.pattern.dim();
            for &(p, _) in &s.anchored {
                for i in 0..d {
                    regular[s.pattern.diagonal_position(p * d + i)] = 1.0;
                }
            }
            solver.factorize(&regular).unwrap();
            let b = rhs(s.pattern.n());
            let mut x = b.clone();
            solver.solve_in_place(&mut x).unwrap();
            let res = relative_residual(&s.pattern, &regular, &x, &b);
            assert!(
                res <= CONTRACT,
                "{what}: residual {res:e} after the fallback"
            );
            assert_eq!(solver.stats().fallback_factorizations, 1, "{what}");
            assert_eq!(solver.stats().factorizations, 2, "{what}");
        }
    }
}

/// The saddle points with the multipliers' diagonal blocks `δ I`, `δ` below
/// the round-off of the matrix (1e-20 `max|A|`): no zero pivot, but where a
/// multiplier is eliminated before its nodes the pivoting within its block
/// takes pivots of `δ`, and the growth of `1/δ` leaves factors whose solve
/// is off by O(1) and which GMRES cannot refine.
fn tiny_pivots(s: &Saddle) -> Vec<f64> {
    let amax = s.values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let mut v = s.values.clone();
    let d = s.pattern.dim();
    for &(p, _) in &s.anchored {
        for i in 0..d {
            v[s.pattern.diagonal_position(p * d + i)] = 1e-20 * amax;
        }
    }
    v
}

#[test]
fn a_refinement_that_stalls_above_the_contract_falls_back_to_faers_lu() {
    for s in [grid_3d(), grid_2d()] {
        let what = format!("dim {}", s.pattern.dim());
        let values = tiny_pivots(&s);
        // the factors exist, with small pivots, and solve poorly
        let sym = SymbolicFactor::new(&s.pattern, FillOrdering::Amd, None).unwrap();
        let mut lu = SupernodalLu::new(&sym, &s.pattern);
        let info = lu.factorize(&sym, &values, LuParams::default()).unwrap();
        assert!(info.small_pivots > 0, "{what}: {info:?}");
        let b = rhs(s.pattern.n());
        let mut x = b.clone();
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
        let raw = relative_residual(&s.pattern, &values, &x, &b);
        assert!(raw > 1.0, "{what}: the factors alone reach {raw:e}");
        let solver = solve_unanchored(&s, &values, FillOrdering::Amd, &what);
        assert_eq!(solver.stats().fallback_factorizations, 1, "{what}");
    }
}

#[test]
fn restricted_solves_whose_sample_misses_the_target_take_full_solves() {
    let s = grid_3d();
    let values = tiny_pivots(&s);
    let d = s.pattern.dim();
    // the small-pivot guard off: the sampled column must catch the factors
    let params = LinearParams {
        lu: LuParams {
            small_pivot: 0.0,
            ..Default::default()
        },
        ..direct(FillOrdering::Metis)
    };
    let mut solver = LinearSolver::new(&s.pattern, params).unwrap();
    solver.set_pattern(&s.pattern, &s.surface, &[]).unwrap();
    let (_, trailing) = solver.factor_flops().unwrap();
    assert!(trailing > 0.0, "the surface is ordered last");
    solver.factorize(&values).unwrap();
    // columns on the surface dofs, as W's
    let n = s.pattern.n();
    let support: Vec<usize> = s
        .surface
        .iter()
        .flat_map(|&a| (0..d).map(move |i| a * d + i))
        .collect();
    let nrhs = 4;
    let mut b = vec![0.0; n * nrhs];
    for c in 0..nrhs {
        for (k, &dof) in support.iter().enumerate() {
            b[c * n + dof] = ((k * 3 + c) as f64 * 0.7).sin();
        }
    }
    let mut part = b.clone();
    let info = solver
        .solve_restricted_many_in_place(&mut part, nrhs, &support)
        .unwrap();
    assert_eq!(
        solver.stats().trailing_solves,
        0,
        "the sample missed: full solves"
    );
    assert!(info.residual <= CONTRACT, "{info:?}");
    // the reference: faer's LU
    let mut faer = SparseLu::new(&s.pattern).unwrap();
    faer.factorize(&s.pattern, &values).unwrap();
    let mut full = b.clone();
    faer.solve_columns(&mut full, nrhs).unwrap();
    for c in 0..nrhs {
        let scale = full[c * n..(c + 1) * n]
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        for &dof in &support {
            let (x, y) = (full[c * n + dof], part[c * n + dof]);
            assert!(
                (x - y).abs() <= 1e-10 * scale,
                "column {c}, dof {dof}: {y} against {x}"
            );
        }
    }
}

#[test]
fn a_fallback_solve_is_the_same_on_any_number_of_threads() {
    let s = grid_3d();
    let solve = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut solver = LinearSolver::new(&s.pattern, direct(FillOrdering::Metis)).unwrap();
            solver.factorize(&s.values).unwrap();
            let mut x = rhs(s.pattern.n());
            solver.solve_in_place(&mut x).unwrap();
            assert_eq!(solver.stats().fallback_factorizations, 1);
            x
        })
    };
    assert!(solve(1) == solve(2), "the fallback depends on the threads");
}
