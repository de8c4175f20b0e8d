//! NSGS and semismooth Newton on the FCLIB sample `Capsules-i125-1213.hdf5` (858
//! unknowns, 286 contacts) to the FCLIB error 1e-8, from r = 0. Reference: the
//! fastest solver of Acary, Brémond & Huber (2018) needs 0.0146 s per Capsules
//! problem at 1e-8 on their machine (docs/solvers.md).
//!
//! `cargo bench --bench timings -- fclib/`

use std::time::Duration;

use criterion::{criterion_group, Criterion};
use emcontact::nonsmooth::fclib::{read_problem, FclibProblem};
use emcontact::nonsmooth::global::{self, Control};

fn capsules(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fclib/Capsules-i125-1213.hdf5"
    );
    let (p, _) = read_problem(path).expect("sample file");
    let FclibProblem::Local(p) = p else {
        panic!("Capsules is a local problem")
    };
    let n = p.size();
    let mut group = c.benchmark_group("fclib/capsules-1e-8");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    for name in ["nsgs-ac-newton", "nsgs-pg", "nsn-nm-ls", "hybrid"] {
        if !global::is_solver(name) {
            continue;
        }
        // Report the outcome once, outside the timing.
        let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
        match global::solve(name, &p, &mut r, &mut u, &Control::default()) {
            Ok(i) => eprintln!(
                "{name}: converged, error {:.2e}, {} iterations",
                i.error, i.iterations
            ),
            Err(e) => eprintln!("{name}: {e}"),
        }
        group.bench_function(name, |b| {
            b.iter(|| {
                let (mut r, mut u) = (vec![0.0; n], vec![0.0; n]);
                let _ = global::solve(name, &p, &mut r, &mut u, &Control::default());
                r
            })
        });
    }
    group.finish();
}

criterion_group!(benches, capsules);
