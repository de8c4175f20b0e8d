//! Timing of the hex8 internal force + tangent (machine dependent, so `#[ignore]`d;
//! run with `cargo test --release --test fe_kernel_timing -- --ignored --nocapture`).
//! Target from the lead: well under 10 µs per element with SVK.

use emcontact::fe::kernel::{internal_force, KernelError, StressEval};
use emcontact::fe::ElementKind;
use emcontact::material::{Material, NeoHookean, Svk};
use std::hint::black_box;

/// On-CPU time of this thread in seconds (Linux `schedstat`, nanoseconds), so that
/// time spent waiting on a loaded machine is not counted; wall time elsewhere.
fn cpu_time() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
    Some(ns * 1e-9)
}

fn now() -> (Option<f64>, std::time::Instant) {
    (cpu_time(), std::time::Instant::now())
}

fn since(t: (Option<f64>, std::time::Instant)) -> f64 {
    match (t.0, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => t.1.elapsed().as_secs_f64(),
    }
}

type Kernel = fn(
    ElementKind,
    &Material,
    &[[f64; 3]],
    &[[f64; 3]],
    &[[f64; 3]],
    StressEval,
    &mut [f64],
    Option<&mut [f64]>,
) -> Result<(), KernelError>;

fn kernel(kind: ElementKind) -> Kernel {
    if kind.ref_dim() == 2 {
        internal_force::<2>
    } else {
        internal_force::<3>
    }
}

fn per_call(kind: ElementKind, m: &Material, eval: StressEval) -> f64 {
    let xref = kind.reference_nodes().to_vec();
    let x0: Vec<[f64; 3]> = xref
        .iter()
        .map(|p| [1.01 * p[0], p[1] + 0.02 * p[0], p[2]])
        .collect();
    let x1: Vec<[f64; 3]> = xref
        .iter()
        .map(|p| [1.02 * p[0], p[1] + 0.03 * p[2], 0.99 * p[2]])
        .collect();
    let nd = kind.n_nodes() * kind.ref_dim();
    let mut f = vec![0.0; nd];
    let mut k = vec![0.0; nd * nd];
    // batches of 1000 calls until 0.3 s of wall time (CPU-time accounting is tick-granular)
    let wall = std::time::Instant::now();
    let t = now();
    let mut n = 0usize;
    while wall.elapsed().as_secs_f64() < 0.3 {
        for _ in 0..1000 {
            kernel(kind)(
                kind,
                m,
                black_box(&xref),
                &x0,
                black_box(&x1),
                eval,
                &mut f,
                Some(&mut k),
            )
            .unwrap();
            black_box(&k);
        }
        n += 1000;
    }
    since(t) / n as f64 * 1e6
}

#[test]
#[ignore]
fn hex8_force_and_tangent_under_10us() {
    let svk = Material::Svk(Svk {
        lambda: 1.0,
        mu: 1.0,
    });
    let nh = Material::NeoHookean(NeoHookean {
        lambda: 1.0,
        mu: 1.0,
    });
    for kind in [
        ElementKind::Tri3,
        ElementKind::Quad4,
        ElementKind::Tet4,
        ElementKind::Hex8,
    ] {
        for (name, m) in [("svk", svk), ("neo-hookean", nh)] {
            for eval in [StressEval::Midpoint, StressEval::EndPoint] {
                // best of 5 runs: the machine is shared
                let us = (0..5)
                    .map(|_| per_call(kind, &m, eval))
                    .fold(f64::INFINITY, f64::min);
                println!(
                    "{} {name} {eval:?}: {us:.2} µs per force+tangent",
                    kind.name()
                );
                if kind == ElementKind::Hex8 && name == "svk" {
                    assert!(us < 10.0, "{us} µs");
                }
            }
        }
    }
}
