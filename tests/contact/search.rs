//! Broad phase (`contact::search::SpatialHash`) against brute force on random
//! surfaces: wavy, jittered quad and triangle surfaces in 3D, polylines in 2D,
//! with a few large faces mixed in. The contract: the candidates are exactly the
//! faces whose margin-enlarged bounding box contains the point (hence every face
//! within `margin`), and `closest_face` returns the brute-force minimum distance.

use emcontact::contact::geometry::{project, Location, Projection};
use emcontact::contact::search::SpatialHash;
use emcontact::fe::ElementKind;
use emcontact::mesh::Element;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

struct Surface {
    x: Vec<[f64; 3]>,
    faces: Vec<Element>,
    lo: [f64; 3],
    hi: [f64; 3],
}

/// 3D: an `n × m` grid of quads (or each split into two triangles) on a wavy,
/// jittered height field, sometimes with one coarse "large" face on top.
/// 2D: a wavy polyline of `n` segments (z = 0).
fn surface(kind: ElementKind, rng: &mut StdRng) -> Surface {
    let n = rng.gen_range(2..25usize);
    let m = if kind == ElementKind::Line2 {
        0
    } else {
        rng.gen_range(2..25usize)
    };
    let h = rng.gen_range(0.05..1.0);
    let amp = rng.gen_range(0.0..2.0) * h;
    let off = [
        rng.gen_range(-50.0..50.0),
        rng.gen_range(-50.0..50.0),
        rng.gen_range(-50.0..50.0),
    ];
    let mut x = Vec::new();
    for j in 0..=m {
        for i in 0..=n {
            let (u, v) = (i as f64 * h, j as f64 * h);
            let jit = |rng: &mut StdRng| rng.gen_range(-0.2..0.2) * h;
            let z = amp * (u / (3.0 * h)).sin() * (1.0 + (v / (2.0 * h)).cos());
            if kind == ElementKind::Line2 {
                x.push([u + off[0] + jit(rng), z + off[1] + jit(rng), 0.0]);
            } else {
                x.push([
                    u + off[0] + jit(rng),
                    v + off[1] + jit(rng),
                    z + off[2] + jit(rng),
                ]);
            }
        }
    }
    let id = |i: usize, j: usize| j * (n + 1) + i;
    let mut faces = Vec::new();
    if kind == ElementKind::Line2 {
        for i in 0..n {
            faces.push(Element::new(kind, &[id(i, 0), id(i + 1, 0)]));
        }
    } else {
        for j in 0..m {
            for i in 0..n {
                let q = [id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)];
                if kind == ElementKind::Quad4 {
                    faces.push(Element::new(kind, &q));
                } else {
                    faces.push(Element::new(kind, &[q[0], q[1], q[2]]));
                    faces.push(Element::new(kind, &[q[0], q[2], q[3]]));
                }
            }
        }
        if rng.gen_bool(0.3) {
            // One large face spanning the whole patch, above it.
            let c = [id(0, 0), id(n, 0), id(n, m), id(0, m)];
            let base = x.len();
            for k in c {
                let p = x[k];
                x.push([p[0], p[1], p[2] + amp + h]);
            }
            let f = [base, base + 1, base + 2, base + 3];
            if kind == ElementKind::Quad4 {
                faces.push(Element::new(kind, &f));
            } else {
                faces.push(Element::new(kind, &[f[0], f[1], f[2]]));
            }
        }
    }
    let mut lo = [f64::INFINITY; 3];
    let mut hi = [f64::NEG_INFINITY; 3];
    for p in &x {
        for d in 0..3 {
            lo[d] = lo[d].min(p[d]);
            hi[d] = hi[d].max(p[d]);
        }
    }
    Surface { x, faces, lo, hi }
}

fn project_face(s: &Surface, f: usize, p: [f64; 3]) -> Projection {
    let nodes: Vec<[f64; 3]> = s.faces[f].nodes().iter().map(|&n| s.x[n]).collect();
    project(s.faces[f].kind, &nodes, p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn broad_phase_never_misses(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut out = Vec::new();
        for kind in [ElementKind::Line2, ElementKind::Tri3, ElementKind::Quad4] {
            let s = surface(kind, &mut rng);
            let margin = rng.gen_range(0.0..1.5) * (s.hi[0] - s.lo[0]) / 10.0;
            let mut hash = SpatialHash::new(margin);
            hash.rebuild(&s.x, &s.faces);
            // Move the nodes a little and rebuild again: reuse must be exact too.
            let mut s = s;
            for p in s.x.iter_mut() {
                p[0] += 0.01;
            }
            hash.rebuild(&s.x, &s.faces);
            for _ in 0..200 {
                let mut p = [0.0; 3];
                for d in 0..3 {
                    let w = s.hi[d] - s.lo[d] + 2.0 * margin + 0.1;
                    p[d] = s.lo[d] - margin - 0.05 + rng.gen_range(0.0..1.0) * w;
                }
                if kind == ElementKind::Line2 {
                    p[2] = 0.0;
                }
                hash.candidates(p, &mut out);
                // Exactly the faces whose enlarged box contains p.
                let mut want = Vec::new();
                let mut best: Option<(f64, usize)> = None;
                for f in 0..s.faces.len() {
                    let nodes = s.faces[f].nodes();
                    let inside = (0..3).all(|d| {
                        let lo = nodes.iter().map(|&n| s.x[n][d]).fold(f64::INFINITY, f64::min);
                        let hi = nodes.iter().map(|&n| s.x[n][d]).fold(f64::NEG_INFINITY, f64::max);
                        p[d] >= lo - margin && p[d] <= hi + margin
                    });
                    if inside {
                        want.push(f);
                    }
                    let d = project_face(&s, f, p).distance;
                    if d <= margin {
                        prop_assert!(out.contains(&f), "face {} at distance {} <= margin {} missed", f, d, margin);
                        if best.map_or(true, |(bd, _)| d < bd) {
                            best = Some((d, f));
                        }
                    }
                }
                prop_assert_eq!(&out, &want);
                let got = hash.closest_face(&s.x, &s.faces, p, &mut out);
                match (best, got) {
                    (None, None) => {}
                    (Some((bd, _)), Some((gf, gp))) => {
                        prop_assert!((gp.distance - bd).abs() <= 1e-12 * (bd + 1.0));
                        prop_assert_eq!(gp, project_face(&s, gf, p));
                    }
                    (b, g) => prop_assert!(false, "brute force {:?} vs hash {:?}", b, g),
                }
            }
        }
    }
}

/// Ties: a point right above a vertex shared by four coplanar quads returns the
/// lowest-index face, and an interior projection beats an equally distant
/// vertex/edge one.
#[test]
fn ties_are_consistent() {
    let mut x = Vec::new();
    for j in 0..3 {
        for i in 0..3 {
            x.push([i as f64, j as f64, 0.0]);
        }
    }
    let id = |i: usize, j: usize| j * 3 + i;
    let mut faces = Vec::new();
    for j in 0..2 {
        for i in 0..2 {
            faces.push(Element::new(
                ElementKind::Quad4,
                &[id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1)],
            ));
        }
    }
    let mut hash = SpatialHash::new(0.5);
    hash.rebuild(&x, &faces);
    let mut out = Vec::new();
    let (f, p) = hash
        .closest_face(&x, &faces, [1.0, 1.0, 0.3], &mut out)
        .unwrap();
    assert_eq!(f, 0);
    assert!((p.distance - 0.3).abs() < 1e-15);
    // Faces in reverse order: still the lowest index among the tied ones.
    let rev: Vec<Element> = faces.iter().rev().copied().collect();
    hash.rebuild(&x, &rev);
    let (f, _) = hash
        .closest_face(&x, &rev, [1.0, 1.0, 0.3], &mut out)
        .unwrap();
    assert_eq!(f, 0);
    // No allocation after warm-up: the scratch keeps its capacity.
    let queries: Vec<[f64; 3]> = (0..100).map(|k| [0.02 * k as f64, 1.0, 0.1]).collect();
    for q in &queries {
        hash.candidates(*q, &mut out);
    }
    let cap = out.capacity();
    for q in &queries {
        hash.candidates(*q, &mut out);
        assert!(!out.is_empty());
        assert_eq!(out.capacity(), cap);
    }

    // Interior beats an equally distant vertex: face 0 is a triangle whose vertex
    // touches the foot point of face 2's interior projection.
    let x = vec![
        [0.5, 0.5, 0.0],
        [0.5, 2.0, -1.0],
        [2.0, 0.5, -1.0],
        [0.0, 0.0, 0.0],
        [1.2, 0.0, 0.0],
        [1.2, 1.0, 0.0],
        [0.0, 1.0, 0.0],
    ];
    let faces = vec![
        Element::new(ElementKind::Tri3, &[0, 1, 2]),
        Element::new(ElementKind::Tri3, &[3, 4, 5]),
        Element::new(ElementKind::Tri3, &[3, 5, 6]),
    ];
    hash.rebuild(&x, &faces);
    let nodes: Vec<[f64; 3]> = faces[0].nodes().iter().map(|&n| x[n]).collect();
    let pv = project(ElementKind::Tri3, &nodes, [0.5, 0.5, 0.3]);
    assert_eq!(pv.location, Location::Vertex(0));
    let (f, pr) = hash
        .closest_face(&x, &faces, [0.5, 0.5, 0.3], &mut out)
        .unwrap();
    assert_eq!(f, 2);
    assert!((pr.distance - 0.3).abs() < 1e-15);
    assert_eq!(pr.location, Location::Interior);
}
