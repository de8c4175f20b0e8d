//! Four groups.
//!
//! `nsgs-sweep/KaplasTower`: one NSGS-AC Gauss–Seidel sweep
//! ([`nsgs_ac::Sweeper`]) over the 570 contacts of Siconos' `KaplasTower-i1061-4`
//! (1,710 unknowns, 12,976 stored 3 × 3 blocks), from the iterate after 200 sweeps
//! (where the contacts are in their final states). Baseline (docs/solvers.md,
//! "NSGS sweep"): 104 µs of thread CPU per sweep (385 µs wall on the loaded shared
//! machine), saved as criterion baseline `solvers`; the CSR row products the
//! contiguous blocks replaced took 1.57× as long in whole solves (same 1,056 sweeps).
//! Before criterion runs, the bench prints the thread CPU per sweep around 1,000
//! sweeps of the same `Sweeper` (three repeats): wall-clock criterion figures on the
//! shared machine depend on its load, thread CPU much less.
//!
//! `newton/<solver>/OneObject-i100000-499`: a whole solve, from `r = 0` to 1e-8, of
//! Siconos' `OneObject-i100000-499` (24 contacts, 72 unknowns, `W` dense), where the
//! semismooth Newton (`nsn-nm-ls`, 12 steps) is our fastest and `auto` reaches it
//! after its NSGS probe: the cost of a small dense Newton step. Thread CPU per solve
//! is printed too (median of 50). Before the dense step of
//! `global/dense_jacobian.rs` (saved as criterion baseline `before`): 33 steps,
//! 2,175 µs (`nsn-nm-ls`) and 2,149 µs (`auto`) of thread CPU; after: 12 steps, 314 µs
//! and 442 µs (docs/solvers.md, load average 8–10 both times).
//!
//! `fe-warm/<solver>/<contacts>`: the FE contact step's hot path — a reduced problem
//! `u = W r + q` like the ones the FE code builds at each Newton iteration (W dense
//! SPD with 3×3 blocks, `W = G Gᵀ/n + 0.2 I` with a coupling that decays with the
//! distance between contacts, μ ∈ [0.1, 0.8], 4 to 300 contacts), solved to 1e-10
//! from a warm start: the solution perturbed by 1e-3 (relative), as from the previous
//! Newton iterate. Each criterion iteration builds nothing: the problem is built once.
//!
//! `local3d/<solver>`: time per one-contact solve for every registered local solver, on a fixed set
//! of 256 random 3D problems (W = R diag(λ) Rᵀ, cond 1 … 1e4, q ∈ [-1,1]³,
//! μ ∈ [0, 1.5]; seeded, so every run sees the same set). Each criterion
//! iteration solves the whole set from r = 0; divide by 256 for ns per solve.
//! Newton-type solvers: tol 1e-10‖q‖, 100 iterations; first-order ones: same
//! tol, 2000 iterations (failures are timed too, as NSGS would meet them).

use std::time::Duration;

use criterion::{black_box, criterion_group, Criterion, Throughput};
use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
use emcontact::nonsmooth::global::nsgs_ac::{NsgsAcParams, Sweeper};
use emcontact::nonsmooth::local::{solvers, LocalParams};
use emcontact::nonsmooth::problem::LocalProblem;
use emcontact::nonsmooth::{self, Control};
use faer::sparse::{SparseColMat, Triplet};
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
    let mut g = c.benchmark_group("nonsmooth/local3d");
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

/// An FE-like reduced problem with `nc` contacts and its solution (module docs).
pub fn fe_problem(nc: usize, seed: u64) -> (LocalProblem, Vec<f64>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let n = 3 * nc;
    let g: Vec<f64> = (0..n * n)
        .map(|k| {
            let (i, j) = (k / n, k % n);
            let d = (i / 3).abs_diff(j / 3) as f64;
            rng.gen_range(-1.0..1.0) * (-d / 4.0).exp()
        })
        .collect();
    let mut trip = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            let mut s: f64 = (0..n).map(|k| g[i * n + k] * g[j * n + k]).sum::<f64>() / n as f64;
            if i == j {
                s += 0.2;
            }
            trip.push(Triplet::new(i, j, s));
        }
    }
    let w = SparseColMat::try_new_from_triplets(n, n, &trip).unwrap();
    let q: Vec<f64> = (0..n)
        .map(|k| {
            if k % 3 == 0 {
                rng.gen_range(-1.0..0.3)
            } else {
                rng.gen_range(-0.5..0.5)
            }
        })
        .collect();
    let mu: Vec<f64> = (0..nc).map(|_| rng.gen_range(0.1..0.8)).collect();
    let p = LocalProblem::new(3, w, q, mu).unwrap();
    let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
    nonsmooth::solve(&p, &mut r, &mut u, "hybrid", &Control::with_tol(1e-13)).unwrap();
    (p, r)
}

fn fe_warm(c: &mut Criterion) {
    let mut g = c.benchmark_group("nonsmooth/fe-warm");
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(2));
    g.sample_size(10);
    for nc in [4, 32, 128, 300] {
        let (p, sol) = fe_problem(nc, nc as u64);
        let scale = sol.iter().map(|x| x.abs()).fold(0.0, f64::max).max(1e-3);
        let warm: Vec<f64> = sol
            .iter()
            .enumerate()
            .map(|(k, x)| x + 1e-3 * scale * ((k * 7 % 11) as f64 / 5.0 - 1.0))
            .collect();
        let control = Control::with_tol(1e-10);
        for name in ["hybrid", "nsgs-ac", "nsn-ac-ls", "nsn-nm-ls"] {
            let (mut r, mut u) = (warm.clone(), vec![0.0; p.size()]);
            match nonsmooth::solve(&p, &mut r, &mut u, name, &control) {
                Ok(i) => eprintln!("fe-warm {name} {nc}: {} iterations", i.iterations),
                Err(e) => eprintln!("fe-warm {name} {nc}: {e}"),
            }
            g.bench_function(format!("{name}/{nc}"), |b| {
                b.iter(|| {
                    let (mut r, mut u) = (warm.clone(), vec![0.0; p.size()]);
                    let _ = nonsmooth::solve(&p, &mut r, &mut u, name, &control);
                    black_box(r)
                })
            });
        }
    }
    g.finish();
}

/// CPU seconds of the calling thread.
fn thread_cpu() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

/// A local problem of `tests/data/siconos-dat/`.
fn sample(name: &str) -> LocalProblem {
    let path = format!(
        "{}/tests/data/siconos-dat/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let (p, _) = read_problem(&path).expect("sample file");
    let FclibProblem::Local(p) = p else {
        panic!("{name} is a local problem")
    };
    p
}

fn nsgs_sweep(c: &mut Criterion) {
    let p = sample("KaplasTower-i1061-4.hdf5");
    let sweeper = Sweeper::new(&p, &NsgsAcParams::default());
    let mut r0 = vec![0.0; p.size()];
    for _ in 0..200 {
        sweeper.sweep(&mut r0);
    }
    for _ in 0..3 {
        let mut r = r0.clone();
        let t = thread_cpu();
        for _ in 0..1000 {
            sweeper.sweep(black_box(&mut r));
        }
        eprintln!(
            "nsgs-sweep/KaplasTower: {:.1} µs of thread CPU per sweep (1,000 sweeps)",
            (thread_cpu() - t) * 1e3
        );
    }
    let mut g = c.benchmark_group("nonsmooth/nsgs-sweep");
    g.throughput(Throughput::Elements(p.n_contacts as u64));
    g.bench_function("KaplasTower", |b| {
        let mut r = r0.clone();
        b.iter(|| {
            sweeper.sweep(black_box(&mut r));
        })
    });
    g.finish();
}

fn newton(c: &mut Criterion) {
    let name = "OneObject-i100000-499";
    let p = sample(&format!("{name}.hdf5"));
    let control = Control::with_tol(1e-8);
    let mut g = c.benchmark_group("nonsmooth/newton");
    for solver in ["nsn-nm-ls", "auto"] {
        let solve = || {
            let (mut r, mut u) = (vec![0.0; p.size()], vec![0.0; p.size()]);
            let info = nonsmooth::solve(&p, &mut r, &mut u, solver, &control);
            black_box(r);
            info
        };
        let info = solve().expect("OneObject converges");
        let mut cpu: Vec<f64> = (0..50)
            .map(|_| {
                let t = thread_cpu();
                let _ = solve();
                thread_cpu() - t
            })
            .collect();
        cpu.sort_by(f64::total_cmp);
        eprintln!(
            "newton/{solver}/{name}: {} iterations, {} Newton steps, {:.0} µs of thread CPU (median of 50)",
            info.iterations,
            info.newton_steps,
            cpu[25] * 1e6
        );
        g.bench_function(format!("{solver}/{name}"), |b| b.iter(solve));
    }
    g.finish();
}

criterion_group!(benches, nsgs_sweep, newton, fe_warm, local_solvers);
