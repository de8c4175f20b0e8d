//! Internal force + tangent assembly on second-order meshes, per element:
//! tet10, hex20 and hex27 (the generated boxes with their midside nodes
//! added, `Mesh::to_second_order`), the energy-momentum (midpoint) and the
//! end-point (Newmark) force, St. Venant–Kirchhoff. Run with `cargo bench
//! --bench timings -- assembly_quadratic/` (`RAYON_NUM_THREADS=1` for the per-core
//! figures); DOLFINx's side of the comparison is `benches/
//! dolfinx_p2_assembly.py` on the same meshes and quadrature. Under `cargo
//! test` (no `--bench` flag) small meshes are used so the check is quick.

use criterion::{criterion_group, Criterion};
use emcontact::dynamics::System;
use emcontact::fe::kernel::StressEval;
use emcontact::input;
use std::path::Path;
use std::time::Duration;

/// A fixed-base SVK box of `element`s (hex8 too: `assembly.rs`).
pub(crate) fn model_of(div: [usize; 3], element: &str) -> emcontact::model::Model {
    let text = format!(
        r#"
[problem]
name = "bench"
dimension = 3
[time]
dt = 0.01
end = 0.01
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0, 0.0]
max = [{}, {}, {}]
divisions = [{}, {}, {}]
element = "{element}"
[[body]]
name = "b"
group = "b"
material = {{ model = "svk", young = 1000.0, poisson = 0.3, density = 1.0 }}
[[boundary]]
group = "b_zmin"
fix = ["x", "y", "z"]
"#,
        div[0], div[1], div[2], div[0], div[1], div[2]
    );
    input::parse(Path::new("bench.toml"), &text).expect("bench model")
}

/// CPU seconds used by this process so far.
fn process_cpu() -> f64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    t.tv_sec as f64 + 1e-9 * t.tv_nsec as f64
}

fn full_size() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// Force + tangent of the energy-momentum scheme (SVK) on second-order
/// meshes: tet10 on a 16×16×12 box (6 tets a cell: 18,432 elements, the mesh
/// of DOLFINx's `create_box(…, tetrahedron)` with P2), hex20 and hex27 on a
/// 20×20×16 box (6,400 elements).
fn bench_quadratic(c: &mut Criterion) {
    let cases = if full_size() {
        [
            ("tet10", "tet4", false, [16, 16, 12]),
            ("hex20", "hex8", true, [20, 20, 16]),
            ("hex27", "hex8", false, [20, 20, 16]),
        ]
    } else {
        [
            ("tet10", "tet4", false, [2, 2, 2]),
            ("hex20", "hex8", true, [2, 2, 2]),
            ("hex27", "hex8", false, [2, 2, 2]),
        ]
    };
    let mut g = c.benchmark_group("assembly_quadratic");
    g.sample_size(10)
        .measurement_time(Duration::from_secs(10))
        .warm_up_time(Duration::from_secs(1));
    for (name, linear, serendipity, div) in cases {
        let mut m = model_of(div, linear);
        m.mesh.to_second_order(serendipity);
        let sys = System::<3>::new(&m).expect("system");
        let n = sys.n_dofs();
        let n_el = sys.elements.len();
        let x0: Vec<f64> = sys.xref.iter().flat_map(|p| *p).collect();
        let x1: Vec<f64> = x0
            .iter()
            .enumerate()
            .map(|(k, &x)| x + 0.01 * (x0[k - k % 3 + (k + 1) % 3] * 0.3).sin())
            .collect();
        let mut f = vec![0.0; n];
        let mut k = vec![0.0; sys.pattern.nnz()];
        println!(
            "assembly bench: {n_el} {name} elements, {n} dofs, {} nonzeros",
            sys.pattern.nnz()
        );
        // the process's CPU time of a few assemblies, best of three: the
        // figure comparable with DOLFINx's (`dolfinx_p2_assembly.py` times
        // its own assemblies the same way), whatever else loads the machine
        for (eval, label) in [
            (StressEval::Midpoint, "midpoint"),
            (StressEval::EndPoint, "end point"),
        ] {
            let best = (0..3)
                .map(|_| {
                    let t0 = process_cpu();
                    sys.assemble(&x0, &x1, eval, &mut f, Some(&mut k)).unwrap();
                    process_cpu() - t0
                })
                .fold(f64::INFINITY, f64::min);
            println!(
                "{name} {label}: force + tangent {best:.4} s CPU, {:.2} us per element (best of 3, {} threads)",
                1e6 * best / n_el as f64,
                rayon::current_num_threads()
            );
        }
        g.throughput(criterion::Throughput::Elements(n_el as u64));
        g.bench_function(
            format!("force+tangent {name} x{n_el} (midpoint, SVK)"),
            |b| {
                b.iter(|| {
                    sys.assemble(&x0, &x1, StressEval::Midpoint, &mut f, Some(&mut k))
                        .unwrap()
                })
            },
        );
    }
    g.finish();
}

criterion_group!(benches, bench_quadratic);
