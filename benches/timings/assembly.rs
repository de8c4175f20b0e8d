//! Internal force + tangent assembly on a ~50k-element hex8 mesh, and one full
//! Newton iteration (assemble, factorize, solve) against the bare factorization
//! and solve of the same matrix (second-order elements: `benches/
//! assembly_quadratic.rs`). Run with `cargo bench --bench timings -- assembly/`; under
//! `cargo test` (no `--bench` flag) a small mesh is used so the check is quick.

use criterion::{criterion_group, Criterion};
use emcontact::dynamics::System;
use emcontact::fe::kernel::StressEval;
use emcontact::linalg::SparseLu;
use std::time::Duration;

/// The hex8 box of the second-order benchmark's builder.
fn model(div: [usize; 3]) -> emcontact::model::Model {
    crate::assembly_quadratic::model_of(div, "hex8")
}

fn full_size() -> bool {
    std::env::args().any(|a| a == "--bench")
}

fn bench_assembly(c: &mut Criterion) {
    let div = if full_size() { [40, 40, 32] } else { [6, 6, 4] };
    assembly_and_newton(c, div, true);
    // The sparse LU of the 51k-element mesh (166k dofs) does not fit in 24 GB
    // with faer's default ordering: the Newton comparison uses a smaller mesh.
    let div = if full_size() { [16, 16, 12] } else { [4, 4, 3] };
    assembly_and_newton(c, div, false);
}

fn assembly_and_newton(c: &mut Criterion, div: [usize; 3], assembly_only: bool) {
    let m = model(div);
    let sys = System::<3>::new(&m).expect("system");
    let n = sys.n_dofs();
    let n_el = sys.elements.len();
    // a smooth, moderate deformation so the kernels do real work
    let mut x0 = vec![0.0; n];
    let mut x1 = vec![0.0; n];
    for a in 0..sys.n_nodes {
        let p = sys.xref[a];
        for i in 0..3 {
            x0[a * 3 + i] = p[i];
            x1[a * 3 + i] = p[i] + 0.01 * (p[(i + 1) % 3] * 0.3).sin();
        }
    }
    let mut f = vec![0.0; n];
    let mut k = vec![0.0; sys.pattern.nnz()];
    println!(
        "assembly bench: {n_el} hex8 elements, {n} dofs, {} nonzeros",
        sys.pattern.nnz()
    );

    let mut g = c.benchmark_group("assembly");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    g.throughput(criterion::Throughput::Elements(n_el as u64));
    g.bench_function(format!("force+tangent hex8 x{n_el} (midpoint, SVK)"), |b| {
        b.iter(|| {
            sys.assemble(&x0, &x1, StressEval::Midpoint, &mut f, Some(&mut k))
                .unwrap()
        })
    });
    g.bench_function(format!("force only hex8 x{n_el}"), |b| {
        b.iter(|| {
            sys.assemble(&x0, &x1, StressEval::Midpoint, &mut f, None)
                .unwrap()
        })
    });
    g.finish();
    if assembly_only {
        return;
    }

    // Newton iteration vs bare factorization + solve
    let mut lu = SparseLu::new(&sys.pattern).expect("symbolic");
    let cm = 2.0 / (0.01f64 * 0.01);
    let mut g = c.benchmark_group("assembly/newton");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(20))
        .warm_up_time(Duration::from_secs(1));
    sys.assemble(&x0, &x1, StressEval::Midpoint, &mut f, Some(&mut k))
        .unwrap();
    sys.add_mass(cm, &mut k);
    sys.apply_fixed(&mut k);
    let kfixed = k.clone();
    g.bench_function(format!("factorize+solve {n} dofs"), |b| {
        b.iter(|| {
            lu.factorize(&sys.pattern, &kfixed).unwrap();
            let mut r = f.clone();
            lu.solve_in_place(&mut r).unwrap();
            r
        })
    });
    g.bench_function(format!("full Newton iteration {n} dofs"), |b| {
        b.iter(|| {
            sys.assemble(&x0, &x1, StressEval::Midpoint, &mut f, Some(&mut k))
                .unwrap();
            sys.add_mass(cm, &mut k);
            sys.apply_fixed(&mut k);
            lu.factorize(&sys.pattern, &k).unwrap();
            let mut r = f.clone();
            sys.zero_fixed(&mut r);
            lu.solve_in_place(&mut r).unwrap();
            r
        })
    });
    g.finish();
}

criterion_group!(benches, bench_assembly);
