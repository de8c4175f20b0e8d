//! Sparse LU of the friction-blocks tangent: symbolic analysis, numeric
//! factorization and solve, with the fill it produces.
//!
//! The matrix is the one the first-contact step factorizes: the blocks of
//! `benches/timings/contact_step.rs` built through the public API
//! (`input::parse` → `driver::setup`) at t = 0.2 (free flight so far), the
//! pattern extended by the contact couplings of the step from there
//! (`ContactSet::couplings` with the stepper's swept boxes),
//! values = midpoint tangent + `2/Δt²·M` + an unsymmetric frictional contact
//! stiffness on the coupled nodes (normal `e_z`, slip along `e_y`, μ = 0.8),
//! fixed dofs imposed.
//!
//! Printed once per mesh and factorization: symbolic time, min-of-N numeric
//! factorization time, the bytes the numeric factors keep (counted by a
//! global allocator of `main.rs`), and the relative residual of one solve, for the
//! supernodal LU of the solver (`SymbolicFactor` + `SupernodalLu`, nested
//! dissection, pivoting within supernodes) and for its fallback, faer's LU
//! with COLAMD and partial pivoting over whole columns (`SparseLu`).
//!
//! `cargo bench --bench timings -- lu/`: coarse (8×8×4 + 4×4×4, 1,590 dofs) as a criterion
//! benchmark plus the printed figures, fine (20×20×10 + 10×10×10, 18,546 dofs)
//! printed only (min of `LU_FINE_REPS`, default 3, timed with `Instant`).
//! Under `cargo test` only the coarse figures are printed.

use criterion::{criterion_group, Criterion};
use emcontact::driver;
use emcontact::fe::kernel::StressEval;
use emcontact::linalg::{
    BlockPattern, FillOrdering, LuParams, SparseLu, SupernodalLu, SymbolicFactor,
};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::common::input;

const DT: f64 = 0.1;

/// The contact-step tangent of the blocks with the cube resting on the base.
/// `reach` scales the coupling reach (1: the stepper's; 0: only the slave's
/// own faces within `h`).
fn blocks_matrix(base: [usize; 3], cube: [usize; 3], reach: f64) -> (BlockPattern, Vec<f64>) {
    let model =
        emcontact::input::parse(Path::new("blocks.toml"), &input(base, cube)).expect("valid input");
    let (mut stepper, s0) = driver::setup::<3>(&model).expect("setup");
    // the state at t = 0.2 (free flight: x0 + 0.2 v0), just before touch-down,
    // and the coupling reach of the step from there (`Stepper::refresh_couplings`)
    let x: Vec<f64> = s0.x.iter().zip(&s0.v).map(|(x, v)| x + 0.2 * v).collect();
    let v: Vec<f64> = s0.v.iter().map(|v| reach * v).collect();
    let (per_face, _) = stepper.contacts.couplings(&x, &v, DT);
    // (slave, face) lists, slave first → one list per slave with all its nodes
    let mut by_slave: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for l in &per_face {
        by_slave.entry(l[0]).or_default().extend_from_slice(l);
    }
    let lists: Vec<Vec<usize>> = by_slave
        .into_values()
        .map(|mut l| {
            l.sort_unstable();
            l.dedup();
            l
        })
        .collect();
    let n_couplings = lists.len();
    let coupled: usize = lists.iter().map(|l| l.len() - 1).sum();
    stepper.sys.set_couplings(per_face);
    let sys = &stepper.sys;
    let p = &sys.pattern;
    let n = sys.n_dofs();
    // a smooth deformation so the tangent is not the reference one
    let x1: Vec<f64> = x
        .iter()
        .enumerate()
        .map(|(i, &v)| v + 0.002 * ((i as f64) * 0.37).sin())
        .collect();
    let mut f = vec![0.0; n];
    let mut k = vec![0.0; p.nnz()];
    sys.assemble(&x, &x1, StressEval::Midpoint, &mut f, Some(&mut k))
        .expect("assembly");
    sys.add_mass(2.0 / (DT * DT), &mut k);
    // frictional contact stiffness of each slave s against the 4 coupled base
    // nodes m nearest to it in the plane: gap g = z_s − mean z_m, normal
    // block n nᵀ and slip block μ t nᵀ (n = e_z, t = e_y): unsymmetric
    let kappa = (0..n)
        .map(|r| k[p.diagonal_position(r)].abs())
        .fold(0.0, f64::max);
    let blk = [[0.0, 0.0, 0.3], [0.0, 0.0, 0.8], [0.0, 0.0, 1.0]];
    for l in &lists {
        let s = *l
            .iter()
            .find(|&&a| s0.x[3 * a + 2] > 1.1)
            .expect("a slave of the cube");
        let d2 = |a: usize| (x[3 * a] - x[3 * s]).powi(2) + (x[3 * a + 1] - x[3 * s + 1]).powi(2);
        let mut m: Vec<usize> = l.iter().copied().filter(|&a| a != s).collect();
        m.sort_by(|&a, &b| d2(a).total_cmp(&d2(b)));
        m.truncate(4);
        let w = |a: usize| if a == s { 1.0 } else { -1.0 / m.len() as f64 };
        let nodes: Vec<usize> = std::iter::once(s).chain(m.iter().copied()).collect();
        for &a in &nodes {
            for &b in &nodes {
                // two base nodes of different faces are not coupled
                let Some(off) = p.block_offset(a, b) else {
                    continue;
                };
                for (i, row) in blk.iter().enumerate() {
                    for (j, &c) in row.iter().enumerate() {
                        if c != 0.0 {
                            k[p.position(off, i, b, j)] += kappa * w(a) * w(b) * c;
                        }
                    }
                }
            }
        }
    }
    sys.apply_fixed(&mut k);
    eprintln!(
        "blocks {base:?} + {cube:?}: {n} dofs, {} stored entries; {n_couplings} slaves coupled \
         to {:.0} base nodes each on average",
        p.nnz(),
        coupled as f64 / n_couplings.max(1) as f64
    );
    (p.clone(), k)
}

fn full_size() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// `‖A y − b‖∞ / ‖b‖∞` of a solve `y` of `A x = b`.
fn residual(p: &BlockPattern, val: &[f64], y: &[f64], b: &[f64]) -> f64 {
    let mut r = vec![0.0; p.n()];
    p.mul(val, y, &mut r);
    r.iter()
        .zip(b)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max)
        / b.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// A right-hand side with a known solution.
fn rhs(p: &BlockPattern, val: &[f64]) -> Vec<f64> {
    let x: Vec<f64> = (0..p.n()).map(|i| ((i as f64) * 0.1).cos()).collect();
    let mut b = vec![0.0; p.n()];
    p.mul(val, &x, &mut b);
    b
}

/// The supernodal LU: symbolic analysis, `reps` numeric factorizations
/// (min time), factor bytes, residual of one solve (no refinement).
fn measure_supernodal(label: &str, p: &BlockPattern, val: &[f64], reps: usize) {
    let t = Instant::now();
    let sym = SymbolicFactor::new(p, FillOrdering::Auto, None).expect("symbolic");
    let t_sym = t.elapsed();
    let mut best = Duration::MAX;
    let mut bytes = 0usize;
    let mut lu = None;
    for _ in 0..reps {
        drop(lu.take());
        let before = crate::live_bytes();
        let mut fresh = SupernodalLu::new(&sym, p);
        let t = Instant::now();
        fresh
            .factorize(&sym, val, LuParams::default())
            .expect("numeric");
        best = best.min(t.elapsed());
        bytes = crate::live_bytes().saturating_sub(before);
        lu = Some(fresh);
    }
    let lu = lu.expect("one factorization");
    let b = rhs(p, val);
    let mut y = b.clone();
    let (mut w1, mut w2) = (Vec::new(), Vec::new());
    lu.solve_in_place(&sym, &mut y, 1, &mut w1, &mut w2);
    eprintln!(
        "{label} supernodal LU ({:?}): symbolic {t_sym:.2?}, numeric min of {reps} {best:.2?}, \
         {:.2e} flops, factors {:.1} MB, residual ‖Ax−b‖∞/‖b‖∞ {:.1e}",
        sym.ordering(),
        sym.size().lu_flops,
        bytes as f64 / 1e6,
        residual(p, val, &y, &b)
    );
}

/// faer's LU (the fallback): the same figures.
fn measure_fallback(label: &str, p: &BlockPattern, val: &[f64], reps: usize) -> SparseLu {
    let t = Instant::now();
    let mut lu = SparseLu::new(p).expect("symbolic");
    let t_sym = t.elapsed();
    let mut best = Duration::MAX;
    let mut bytes = 0usize;
    for _ in 0..reps {
        // drop the previous factors first so the count is of one set
        lu = {
            let mut fresh = SparseLu::new(p).expect("symbolic");
            drop(lu);
            let before = crate::live_bytes();
            let t = Instant::now();
            fresh.factorize(p, val).expect("numeric");
            best = best.min(t.elapsed());
            bytes = crate::live_bytes().saturating_sub(before);
            fresh
        };
    }
    let b = rhs(p, val);
    let mut y = b.clone();
    lu.solve_in_place(&mut y).expect("solve");
    eprintln!(
        "{label} faer LU (COLAMD): symbolic {t_sym:.2?}, numeric min of {reps} {best:.2?}, \
         factors {:.1} MB, residual ‖Ax−b‖∞/‖b‖∞ {:.1e}",
        bytes as f64 / 1e6,
        residual(p, val, &y, &b)
    );
    lu
}

fn bench_lu(c: &mut Criterion) {
    let (p, val) = blocks_matrix([8, 8, 4], [4, 4, 4], 1.0);
    measure_supernodal("coarse", &p, &val, 5);
    let mut fallback = measure_fallback("coarse", &p, &val, 5);
    let sym = SymbolicFactor::new(&p, FillOrdering::Auto, None).expect("symbolic");
    let mut lu = SupernodalLu::new(&sym, &p);
    let mut g = c.benchmark_group("lu");
    g.sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    g.bench_function(format!("supernodal factorize {} dofs", p.n()), |b| {
        b.iter(|| lu.factorize(&sym, &val, LuParams::default()).unwrap())
    });
    g.bench_function(format!("faer factorize {} dofs", p.n()), |b| {
        b.iter(|| fallback.factorize(&p, &val).unwrap())
    });
    g.finish();
    if !full_size() {
        return;
    }
    let reps = std::env::var("LU_FINE_REPS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(3);
    let (p, val) = blocks_matrix([20, 20, 10], [10, 10, 10], 1.0);
    measure_supernodal("fine", &p, &val, reps);
    measure_fallback("fine", &p, &val, reps);
}

criterion_group!(benches, bench_lu);
