//! Broad + narrow phase cost: build a spatial hash over a wavy 3D surface of
//! ~100k bilinear quads (317 × 317) and find the closest face of 100k slave
//! points lying within ±0.4 h of it (h the face size; margin h). Reports the
//! build time and ns per `closest_face` query (also printed once directly).

use criterion::{criterion_group, Criterion, Throughput};
use emcontact::contact::search::SpatialHash;
use emcontact::fe::ElementKind;
use emcontact::mesh::Element;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use std::hint::black_box;
use std::time::{Duration, Instant};

const N: usize = 317;
const H: f64 = 0.01;

fn height(u: f64, v: f64) -> f64 {
    0.05 * (u * 9.0).sin() * (v * 7.0).cos() + 0.02 * (u * 31.0 + v * 17.0).sin()
}

fn surface() -> (Vec<[f64; 3]>, Vec<Element>) {
    let mut x = Vec::with_capacity((N + 1) * (N + 1));
    for j in 0..=N {
        for i in 0..=N {
            let (u, v) = (i as f64 * H, j as f64 * H);
            x.push([u, v, height(u, v)]);
        }
    }
    let id = |i: usize, j: usize| j * (N + 1) + i;
    let mut faces = Vec::with_capacity(N * N);
    for j in 0..N {
        for i in 0..N {
            faces.push(Element::new(
                ElementKind::Quad4,
                &[id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)],
            ));
        }
    }
    (x, faces)
}

fn slaves(n: usize) -> Vec<[f64; 3]> {
    let mut rng = StdRng::seed_from_u64(7);
    let l = N as f64 * H;
    (0..n)
        .map(|_| {
            let (u, v) = (rng.gen_range(0.0..l), rng.gen_range(0.0..l));
            [u, v, height(u, v) + rng.gen_range(-0.4..0.4) * H]
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let (x, faces) = surface();
    let pts = slaves(100_000);
    let mut hash = SpatialHash::new(H);
    hash.rebuild(&x, &faces);
    let mut scratch = Vec::new();

    // One direct measurement for the record.
    let t = Instant::now();
    let mut found = 0usize;
    for p in &pts {
        found += hash.closest_face(&x, &faces, *p, &mut scratch).is_some() as usize;
    }
    let per = t.elapsed().as_nanos() as f64 / pts.len() as f64;
    let t = Instant::now();
    hash.rebuild(&x, &faces);
    let build = t.elapsed();
    eprintln!(
        "contact_search: {} faces, {} queries ({} found): rebuild {:.1} ms, {:.0} ns/query",
        faces.len(),
        pts.len(),
        found,
        build.as_secs_f64() * 1e3,
        per
    );

    let mut g = c.benchmark_group("contact_search");
    g.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(4));
    g.throughput(Throughput::Elements(faces.len() as u64));
    g.bench_function("rebuild_100k_quads", |b| {
        b.iter(|| hash.rebuild(black_box(&x), black_box(&faces)))
    });
    g.throughput(Throughput::Elements(pts.len() as u64));
    g.bench_function("closest_face_100k_slaves", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &pts {
                n += hash.closest_face(&x, &faces, *p, &mut scratch).is_some() as usize;
            }
            black_box(n)
        })
    });
    g.bench_function("candidates_100k_slaves", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &pts {
                hash.candidates(*p, &mut scratch);
                n += scratch.len();
            }
            black_box(n)
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
