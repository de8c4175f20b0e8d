//! Time per one-contact solve for every registered local solver, on a fixed set
//! of 256 random 3D problems (W = R diag(λ) Rᵀ, cond 1 … 1e4, q ∈ [-1,1]³,
//! μ ∈ [0, 1.5]; seeded, so every run sees the same set). Each criterion
//! iteration solves the whole set from r = 0; divide by 256 for ns per solve.
//! Newton-type solvers: tol 1e-10‖q‖, 100 iterations; first-order ones: same
//! tol, 2000 iterations (failures are timed too, as NSGS would meet them).

use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use emcontact::nonsmooth::local::{solvers, LocalParams};
use nalgebra::{Matrix3, UnitQuaternion, Vector3};
use rand::{rngs::StdRng, Rng, SeedableRng};

const N: usize = 256;

fn problems() -> Vec<(Matrix3<f64>, Vector3<f64>, f64)> {
    let mut rng = StdRng::seed_from_u64(7);
    (0..N)
        .map(|_| {
            let axis = Vector3::new(
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
            );
            let rot = UnitQuaternion::from_scaled_axis(axis * 3.0)
                .to_rotation_matrix()
                .into_inner();
            let k: f64 = 10f64.powf(rng.gen_range(0.0..4.0));
            let t: f64 = rng.gen_range(0.0..1.0);
            let lam = Vector3::new(k.powf(-0.5), k.powf(t - 0.5), k.powf(0.5));
            let w = rot * Matrix3::from_diagonal(&lam) * rot.transpose();
            let w = (w + w.transpose()) * 0.5;
            let q = Vector3::new(
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
                rng.gen_range(-1.0..1.0),
            );
            (w, q, rng.gen_range(0.0..1.5))
        })
        .collect()
}

fn local_solvers(c: &mut Criterion) {
    let set = problems();
    let mut g = c.benchmark_group("local3d");
    g.throughput(Throughput::Elements(N as u64));
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(2));
    g.sample_size(20);
    for s in solvers() {
        let max_iter = match s.name() {
            "pg" | "desaxce" | "sal" => 2000,
            _ => 100,
        };
        g.bench_function(s.name(), |b| {
            b.iter(|| {
                let mut ok = 0usize;
                for (w, q, mu) in &set {
                    let mut r = Vector3::zeros();
                    let p = LocalParams {
                        tol: 1e-10 * q.norm(),
                        max_iter,
                    };
                    if s.solve3(w, q, *mu, &mut r, &p).is_ok() {
                        ok += 1;
                    }
                    black_box(&r);
                }
                black_box(ok)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, local_solvers);
criterion_main!(benches);
