//! The linear solver layer on the hex8 free-flight tangent (SVK, ρ = 1,
//! E = 1000, ν = 0.3, unit elements, Δt = 10× the explicit limit; midpoint
//! tangent + 2/Δt²·M at a rotated, deformed state, so unsymmetric):
//! ordering, symbolic analysis, numeric factorization, solves and a full
//! Newton iteration (assemble force and tangent, factor or reuse, solve).
//!
//! `cargo bench --bench timings -- linear/`: criterion at 16×16×12 (11,271 dofs) and
//! 28×28×22 (58,029 dofs); under `cargo test` (no `--bench`) tiny meshes.
//!
//! One-shot probe for the cost-vs-size study (validation/scaling/):
//! `LINEAR_PROBE=nx,ny,nz` prints, in CPU seconds of this process, the
//! symbolic analysis, one factorization, one solve and one full Newton
//! iteration of the direct path (`LINEAR_METHOD=direct`), or one full
//! Newton iteration of the iterative path (`LINEAR_METHOD=iterative`), with
//! the factor memory and the residual, then exits.

use criterion::{criterion_group, BenchmarkId, Criterion};
use emcontact::dynamics::System;
use emcontact::fe::kernel::StressEval;
use emcontact::input;
use emcontact::linalg::{
    node_ordering, FillOrdering, LinearMethod, LinearParams, LinearSolver, LuParams, SparseLu,
    SupernodalLu, SymbolicFactor,
};
use std::path::Path;
use std::time::Duration;

use crate::common::{cpu_seconds, peak_memory};

fn model(div: [usize; 3]) -> emcontact::model::Model {
    let text = format!(
        r#"
[problem]
name = "bench"
dimension = 3
[time]
dt = 1.0
end = 1.0
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0, 0.0]
max = [{}, {}, {}]
divisions = [{}, {}, {}]
element = "hex8"
[[body]]
name = "b"
group = "b"
material = {{ model = "svk", young = 1000.0, poisson = 0.3, density = 1.0 }}
"#,
        div[0], div[1], div[2], div[0], div[1], div[2]
    );
    input::parse(Path::new("bench.toml"), &text).expect("bench model")
}

/// The system, the states x0, x1 (a rigid rotation of 0.2 rad plus a smooth
/// deformation), and c_M = 2/Δt² at Δt = 10× the explicit limit.
struct Case {
    sys: System<3>,
    x0: Vec<f64>,
    x1: Vec<f64>,
    cm: f64,
}

impl Case {
    fn new(div: [usize; 3]) -> Case {
        let m = model(div);
        let dt = 10.0 * emcontact::dynamics::model_info(&m).unwrap().stable_dt;
        let sys = System::<3>::new(&m).expect("system");
        let n = sys.n_dofs();
        let (mut x0, mut x1) = (vec![0.0; n], vec![0.0; n]);
        let (c, s) = (0.2f64.cos(), 0.2f64.sin());
        for a in 0..sys.n_nodes {
            let p = sys.xref[a];
            let q = [c * p[0] - s * p[1], s * p[0] + c * p[1], p[2]];
            for i in 0..3 {
                x0[a * 3 + i] = p[i];
                x1[a * 3 + i] = q[i] + 0.01 * (p[(i + 1) % 3] * 0.3).sin();
            }
        }
        Case {
            sys,
            x0,
            x1,
            cm: 2.0 / (dt * dt),
        }
    }

    /// Force and Newton matrix at `x1` (into `f`, `k`).
    fn assemble(&self, f: &mut [f64], k: &mut [f64]) {
        self.sys
            .assemble(&self.x0, &self.x1, StressEval::Midpoint, f, Some(k))
            .unwrap();
        self.sys.add_mass(self.cm, k);
        self.sys.apply_fixed(k);
    }

    fn matrix(&self) -> (Vec<f64>, Vec<f64>) {
        let mut f = vec![0.0; self.sys.n_dofs()];
        let mut k = vec![0.0; self.sys.pattern.nnz()];
        self.assemble(&mut f, &mut k);
        (f, k)
    }

    fn dofs(&self) -> usize {
        self.sys.n_dofs()
    }
}

fn full_size() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn direct() -> LinearParams {
    LinearParams {
        method: LinearMethod::Direct,
        ..Default::default()
    }
}

fn bench_sizes(c: &mut Criterion) {
    if std::env::var("LINEAR_PROBE").is_ok() || std::env::var("LINEAR_ORDERINGS").is_ok() {
        return;
    }
    let sizes: &[[usize; 3]] = if full_size() {
        &[[16, 16, 12], [28, 28, 22]]
    } else {
        &[[4, 4, 3], [6, 6, 4]]
    };
    for &div in sizes {
        let case = Case::new(div);
        let n = case.dofs();
        let p = &case.sys.pattern;
        let (f, k) = case.matrix();
        let mut g = c.benchmark_group("linear");
        g.sample_size(10)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(if n > 30_000 { 20 } else { 5 }));
        for (name, o) in [("metis", FillOrdering::Metis), ("amd", FillOrdering::Amd)] {
            g.bench_with_input(
                BenchmarkId::new(format!("ordering/{name}"), n),
                &o,
                |b, &o| b.iter(|| node_ordering(p.node_graph(), o).unwrap()),
            );
        }
        g.bench_with_input(BenchmarkId::new("symbolic", n), &n, |b, _| {
            b.iter(|| SymbolicFactor::new(p, FillOrdering::Metis, None).unwrap())
        });
        let sym = SymbolicFactor::new(p, FillOrdering::Metis, None).unwrap();
        let mut lu = SupernodalLu::new(&sym, p);
        g.bench_with_input(BenchmarkId::new("factorize/lu", n), &n, |b, _| {
            b.iter(|| lu.factorize(&sym, &k, LuParams::default()).unwrap())
        });
        if n < 30_000 {
            let mut old = SparseLu::new(p).unwrap();
            g.bench_with_input(
                BenchmarkId::new("factorize/faer-lu-colamd", n),
                &n,
                |b, _| b.iter(|| old.factorize(p, &k).unwrap()),
            );
        }
        let (mut w1, mut w2) = (Vec::new(), Vec::new());
        for nrhs in [1usize, 32] {
            let b0: Vec<f64> = (0..n * nrhs).map(|i| (i as f64 * 0.1).sin()).collect();
            g.bench_with_input(
                BenchmarkId::new(format!("solve/{nrhs}rhs"), n),
                &nrhs,
                |b, &nrhs| {
                    b.iter(|| {
                        let mut x = b0.clone();
                        lu.solve_in_place(&sym, &mut x, nrhs, &mut w1, &mut w2);
                        x
                    })
                },
            );
        }
        // full Newton iterations: assemble, factor (or reuse), solve to 1e-12
        let mut kk = vec![0.0; p.nnz()];
        let mut ff = vec![0.0; n];
        let mut s = LinearSolver::new(p, direct()).unwrap();
        g.bench_with_input(BenchmarkId::new("newton/direct-refactor", n), &n, |b, _| {
            b.iter(|| {
                case.assemble(&mut ff, &mut kk);
                s.factorize(&kk).unwrap();
                s.solve_in_place(&mut ff).unwrap()
            })
        });
        // reuse: the factors of the matrix at a nearby state precondition GMRES
        let mut near = Case::new(div);
        near.x1
            .iter_mut()
            .enumerate()
            .for_each(|(i, v)| *v += 1e-3 * (i as f64 * 0.7).cos());
        let (_, k_near) = near.matrix();
        let mut s = LinearSolver::new(p, direct()).unwrap();
        s.factorize(&k_near).unwrap();
        g.bench_with_input(BenchmarkId::new("newton/direct-reuse", n), &n, |b, _| {
            b.iter(|| {
                case.assemble(&mut ff, &mut kk);
                s.update(&kk).unwrap();
                s.solve_in_place(&mut ff).unwrap()
            })
        });
        eprintln!(
            "{n} dofs: reuse bench: {} factorizations (1 = the nearby matrix only), {} Krylov iterations in {} solves",
            s.stats().factorizations,
            s.stats().krylov_iterations,
            s.stats().solves
        );
        let mut s = LinearSolver::new(
            p,
            LinearParams {
                method: LinearMethod::Iterative,
                ..Default::default()
            },
        )
        .unwrap();
        g.bench_with_input(BenchmarkId::new("newton/iterative", n), &n, |b, _| {
            b.iter(|| {
                case.assemble(&mut ff, &mut kk);
                s.update(&kk).unwrap();
                s.solve_in_place(&mut ff).unwrap()
            })
        });
        g.finish();
        let _ = f;
    }
}

/// One-shot figures for one size (see the module doc).
fn probe() {
    let Ok(spec) = std::env::var("LINEAR_PROBE") else {
        return;
    };
    let d: Vec<usize> = spec
        .split(',')
        .map(|v| v.trim().parse().expect("nx,ny,nz"))
        .collect();
    let method = std::env::var("LINEAR_METHOD").unwrap_or_else(|_| "direct".into());
    let t = cpu_seconds();
    let case = Case::new([d[0], d[1], d[2]]);
    let (n, nnz) = (case.dofs(), case.sys.pattern.nnz());
    println!(
        "probe {spec}: {n} dofs, {nnz} stored entries, set-up {:.2} s",
        cpu_seconds() - t
    );
    let mut f = vec![0.0; n];
    let mut k = vec![0.0; nnz];
    let t = cpu_seconds();
    case.assemble(&mut f, &mut k);
    println!("  assembly {:.2} s", cpu_seconds() - t);
    let params = LinearParams {
        method: if method == "iterative" {
            LinearMethod::Iterative
        } else {
            LinearMethod::Direct
        },
        ..Default::default()
    };
    let t = cpu_seconds();
    let mut s = LinearSolver::new(&case.sys.pattern, params).unwrap();
    let plan = s.plan();
    println!(
        "  {method}: plan {:.2} s (estimated factors {:.2} GB), symbolic {:.2} s",
        cpu_seconds() - t,
        plan.factor_bytes / 1e9,
        s.stats().symbolic_seconds
    );
    // one full Newton iteration: assemble, factor, solve
    let t = cpu_seconds();
    case.assemble(&mut f, &mut k);
    let ta = cpu_seconds();
    s.factorize(&k).unwrap();
    let tf = cpu_seconds();
    let mut x = f.clone();
    let info = match s.solve_in_place(&mut x) {
        Ok(info) => info,
        Err(e) => {
            println!("  {method}: solve failed: {e}");
            return;
        }
    };
    let ts = cpu_seconds();
    // independent residual
    let mut r = vec![0.0; n];
    case.sys.pattern.mul(&k, &x, &mut r);
    let res = r
        .iter()
        .zip(&f)
        .map(|(a, b)| (a - b).powi(2))
        .sum::<f64>()
        .sqrt()
        / f.iter().map(|v| v * v).sum::<f64>().sqrt();
    println!(
        "  newton iteration {:.2} s: assembly {:.2} s, factorization {:.2} s, solve {:.2} s ({} Krylov iterations); residual {res:.1e}; peak memory {:.2} GB",
        ts - t,
        ta - t,
        tf - ta,
        ts - tf,
        info.iterations,
        peak_memory() / 1e9
    );
}

/// `LINEAR_ORDERINGS=1`: METIS against AMD on the node graphs of hex8 boxes
/// of growing size: ordering time, factor entries and LU flops (from the
/// elimination tree of the node graph, `linalg::estimate`).
fn orderings() {
    if std::env::var("LINEAR_ORDERINGS").is_err() {
        return;
    }
    for div in [
        [4, 4, 3],
        [6, 6, 5],
        [8, 8, 6],
        [10, 10, 8],
        [12, 12, 10],
        [16, 16, 12],
        [28, 28, 22],
        [40, 40, 32],
    ] {
        let m = model(div);
        let lists: Vec<&[usize]> = m
            .mesh
            .group("b")
            .unwrap()
            .elements
            .iter()
            .map(|e| e.nodes())
            .collect();
        let g = emcontact::linalg::BlockPattern::new(m.mesh.nodes.len(), 1, lists);
        let mut row = format!("{div:?} {} nodes:", m.mesh.nodes.len());
        for o in [FillOrdering::Amd, FillOrdering::Metis] {
            let t = std::time::Instant::now();
            node_ordering(g.node_graph(), o).unwrap();
            let to = t.elapsed();
            let (size, _) = emcontact::linalg::estimate(g.node_graph(), 3, o).unwrap();
            row += &format!(
                "  {o:?}: ordering {to:.2?}, L {:.3e}, LU flops {:.3e};",
                size.l_entries as f64, size.lu_flops
            );
        }
        println!("{row}");
    }
}

fn benches(c: &mut Criterion) {
    orderings();
    probe();
    bench_sizes(c);
}

criterion_group!(linear, benches);
