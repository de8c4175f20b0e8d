//! Properties of the closest-point projection and of the contact operators
//! `N_A`, `D^α_A` (Love & Laursen 2003 §3.2, eqs. 43–52 and 59–66; DESIGN §5)
//! on random segments (2D), triangles, flat and warped bilinear quads (3D), with
//! the slave placed so that the projection is interior, on an edge or at a vertex.
//!
//! Normalisation of the identity errors (stated once, used everywhere):
//! `|Σ N_A| / max_A|N_A|`, `|Σ D^α_A| / max_A|D^α_A|`,
//! `|Σ N_A × x_A| / (max_A|N_A| · max_A|x_A|)` and
//! `|Σ D^α_A × x_A| / (max_A|D^α_A| · max_A|x_A|)`, `x_A` as given (faces lie
//! up to ~15 length units from the origin, face sizes 0.2–3).

use emcontact::contact::geometry::{face_normal, project, Kinematics, Location, Projection};
use emcontact::fe::ElementKind;
use proptest::prelude::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::geom::{add, cross, dot, norm, scale as sc, sub, V};

fn unit(a: V) -> V {
    sc(a, 1.0 / norm(a))
}

/// A random rotation (unit quaternion) as a matrix.
fn rotation(rng: &mut StdRng) -> [[f64; 3]; 3] {
    loop {
        let q: [f64; 4] = [
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
        ];
        let l = q.iter().map(|v| v * v).sum::<f64>().sqrt();
        if !(0.2..=1.0).contains(&l) {
            continue;
        }
        let [w, x, y, z] = q.map(|v| v / l);
        return [
            [
                1.0 - 2.0 * (y * y + z * z),
                2.0 * (x * y - w * z),
                2.0 * (x * z + w * y),
            ],
            [
                2.0 * (x * y + w * z),
                1.0 - 2.0 * (x * x + z * z),
                2.0 * (y * z - w * x),
            ],
            [
                2.0 * (x * z - w * y),
                2.0 * (y * z + w * x),
                1.0 - 2.0 * (x * x + y * y),
            ],
        ];
    }
}
fn rot2d(rng: &mut StdRng) -> [[f64; 3]; 3] {
    let th: f64 = rng.gen_range(0.0..std::f64::consts::TAU);
    let (s, c) = th.sin_cos();
    [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
}
fn apply(q: &[[f64; 3]; 3], v: V) -> V {
    [dot(q[0], v), dot(q[1], v), dot(q[2], v)]
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum FaceType {
    Segment,
    Tri,
    FlatQuad,
    WarpedQuad,
    /// Corner offsets up to 1.2 face sizes out of plane: a strongly twisted
    /// patch, used only for the projection-optimality property.
    TwistedQuad,
}
const TYPES: [FaceType; 4] = [
    FaceType::Segment,
    FaceType::Tri,
    FaceType::FlatQuad,
    FaceType::WarpedQuad,
];

#[derive(Debug, Clone)]
struct Face {
    kind: ElementKind,
    x: Vec<V>,
    size: f64,
}

fn make_face(t: FaceType, rng: &mut StdRng) -> Face {
    let size = rng.gen_range(0.2..3.0);
    let c = random_vec(t, 10.0, rng);
    let (kind, local): (ElementKind, Vec<V>) = match t {
        FaceType::Segment => (ElementKind::Line2, vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]),
        FaceType::Tri => (
            ElementKind::Tri3,
            vec![
                [0.0, 0.0, 0.0],
                [rng.gen_range(0.7..1.3), rng.gen_range(-0.2..0.2), 0.0],
                [rng.gen_range(-0.4..1.2), rng.gen_range(0.3..1.2), 0.0],
            ],
        ),
        FaceType::FlatQuad | FaceType::WarpedQuad | FaceType::TwistedQuad => {
            let w = match t {
                FaceType::WarpedQuad => rng.gen_range(0.1..0.4),
                FaceType::TwistedQuad => rng.gen_range(0.4..1.2),
                _ => 0.0,
            };
            let corners = [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]];
            let sign = [1.0, -1.0, 1.0, -1.0];
            let v = (0..4)
                .map(|a| {
                    [
                        corners[a][0] + rng.gen_range(-0.15..0.15),
                        corners[a][1] + rng.gen_range(-0.15..0.15),
                        w * sign[a] * rng.gen_range(0.5..1.0),
                    ]
                })
                .collect();
            (ElementKind::Quad4, v)
        }
    };
    let q = if t == FaceType::Segment {
        rot2d(rng)
    } else {
        rotation(rng)
    };
    let x = local
        .iter()
        .map(|p| add(apply(&q, sc(*p, size)), c))
        .collect();
    Face { kind, x, size }
}

fn point_at(f: &Face, xi: [f64; 2]) -> V {
    let n: Vec<f64> = match f.kind {
        ElementKind::Line2 => vec![0.5 * (1.0 - xi[0]), 0.5 * (1.0 + xi[0])],
        ElementKind::Tri3 => vec![1.0 - xi[0] - xi[1], xi[0], xi[1]],
        _ => [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]]
            .iter()
            .map(|c| 0.25 * (1.0 + c[0] * xi[0]) * (1.0 + c[1] * xi[1]))
            .collect(),
    };
    f.x.iter()
        .zip(&n)
        .fold([0.0; 3], |p, (x, n)| add(p, sc(*x, *n)))
}

fn vertex_xi(kind: ElementKind, k: usize) -> [f64; 2] {
    match kind {
        ElementKind::Line2 => [[-1.0, 0.0], [1.0, 0.0]][k],
        ElementKind::Tri3 => [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]][k],
        _ => [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]][k],
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Place {
    Interior,
    Edge,
    Vertex,
}

/// The placements a face of type `t` has: interior, on an edge (not on a
/// segment, whose edges are its vertices) and at a vertex.
fn places(t: FaceType) -> impl Iterator<Item = Place> {
    [Place::Interior, Place::Edge, Place::Vertex]
        .into_iter()
        .filter(move |&pl| !(pl == Place::Edge && t == FaceType::Segment))
}

/// A slave point whose closest point is (by construction) interior / on an edge /
/// at a vertex; returns the point, the expected location and ξ̄ and the signed
/// distance (positive on the outward side).
fn place(f: &Face, p: Place, rng: &mut StdRng) -> (V, Location, [f64; 2], f64) {
    let h = f.size;
    let n_v = f.kind.n_nodes();
    let sgn = |rng: &mut StdRng| if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
    match p {
        Place::Interior => {
            let xi = match f.kind {
                ElementKind::Line2 => [rng.gen_range(-0.9..0.9), 0.0],
                ElementKind::Tri3 => {
                    let a: f64 = rng.gen_range(0.05..0.85);
                    [a, rng.gen_range(0.05..(0.95 - a))]
                }
                _ => [rng.gen_range(-0.9..0.9), rng.gen_range(-0.9..0.9)],
            };
            let g = if rng.gen_bool(0.1) {
                0.0
            } else {
                sgn(rng) * rng.gen_range(0.01..0.4) * h
            };
            let n = face_normal(f.kind, &f.x, xi).unwrap();
            (add(point_at(f, xi), sc(n, g)), Location::Interior, xi, g)
        }
        Place::Edge => {
            let k = rng.gen_range(0..n_v);
            let t: f64 = rng.gen_range(0.1..0.9);
            let (a, b) = (vertex_xi(f.kind, k), vertex_xi(f.kind, (k + 1) % n_v));
            let xi = [a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])];
            let xe = point_at(f, xi);
            let n = face_normal(f.kind, &f.x, xi).unwrap();
            let e = unit(sub(f.x[(k + 1) % n_v], f.x[k]));
            let c = cross(e, n);
            let phi = sgn(rng) * rng.gen_range(0.15..1.4f64);
            // Sometimes exactly on the boundary (s is round-off: ν = n_ref).
            let d = if rng.gen_bool(0.1) {
                0.0
            } else {
                rng.gen_range(0.05..0.4) * h
            };
            let dir = add(sc(c, phi.cos()), sc(n, phi.sin()));
            let g = d * phi.sin().signum();
            (add(xe, sc(dir, d)), Location::Edge(k as u8), xi, g)
        }
        Place::Vertex => {
            let k = rng.gen_range(0..n_v);
            let xi = vertex_xi(f.kind, k);
            let n = face_normal(f.kind, &f.x, xi).unwrap();
            let out = if f.kind == ElementKind::Line2 {
                let e = unit(sub(f.x[1], f.x[0]));
                if k == 0 {
                    sc(e, -1.0)
                } else {
                    e
                }
            } else {
                let e_out = unit(sub(f.x[(k + 1) % n_v], f.x[k]));
                let e_in = unit(sub(f.x[k], f.x[(k + n_v - 1) % n_v]));
                add(
                    sc(cross(e_in, n), rng.gen_range(0.2..1.0)),
                    sc(cross(e_out, n), rng.gen_range(0.2..1.0)),
                )
            };
            let gam = sgn(rng) * rng.gen_range(0.15..1.5) * norm(out);
            let dir = unit(add(out, sc(n, gam)));
            // Sometimes exactly on the boundary (s is round-off: ν = n_ref).
            let d = if rng.gen_bool(0.1) {
                0.0
            } else {
                rng.gen_range(0.05..0.4) * h
            };
            (
                add(f.x[k], sc(dir, d)),
                Location::Vertex(k as u8),
                xi,
                d * gam.signum(),
            )
        }
    }
}

fn nodes(f: &Face, xs: V) -> Vec<V> {
    std::iter::once(xs).chain(f.x.iter().copied()).collect()
}

/// The four normalised identity errors of DESIGN §5 / seed 59–66 (see file docs),
/// the α-maximum for the D identities.
fn identity_errors(k: &Kinematics, x: &[V]) -> [f64; 4] {
    let xmax = max_norm(&x);
    let n = k.n_nodes;
    let nmax = (0..n).map(|i| norm(k.n_op[i])).fold(0.0, f64::max);
    let mut e = [0.0f64; 4];
    let (mut sn, mut snx) = ([0.0; 3], [0.0; 3]);
    for i in 0..n {
        sn = add(sn, k.n_op[i]);
        snx = add(snx, cross(k.n_op[i], x[i]));
    }
    e[0] = norm(sn) / nmax;
    e[2] = norm(snx) / (nmax * xmax);
    for al in 0..k.n_tangents {
        let dmax = (0..n).map(|i| norm(k.d_op[al][i])).fold(0.0, f64::max);
        let (mut sd, mut sdx) = ([0.0; 3], [0.0; 3]);
        for i in 0..n {
            sd = add(sd, k.d_op[al][i]);
            sdx = add(sdx, cross(k.d_op[al][i], x[i]));
        }
        e[1] = e[1].max(norm(sd) / dmax);
        e[3] = e[3].max(norm(sdx) / (dmax * xmax));
    }
    e
}

/// Brute-force minimum distance over a few thousand points of the face.
fn sampled_min_distance(f: &Face, xs: V) -> f64 {
    let mut best = f64::INFINITY;
    match f.kind {
        ElementKind::Line2 => {
            for i in 0..=3000 {
                let xi = -1.0 + 2.0 * i as f64 / 3000.0;
                best = best.min(norm(sub(xs, point_at(f, [xi, 0.0]))));
            }
        }
        ElementKind::Tri3 => {
            let m = 80;
            for i in 0..=m {
                for j in 0..=(m - i) {
                    let xi = [i as f64 / m as f64, j as f64 / m as f64];
                    best = best.min(norm(sub(xs, point_at(f, xi))));
                }
            }
        }
        _ => {
            let m = 60;
            for i in 0..=m {
                for j in 0..=m {
                    let xi = [
                        -1.0 + 2.0 * i as f64 / m as f64,
                        -1.0 + 2.0 * j as f64 / m as f64,
                    ];
                    best = best.min(norm(sub(xs, point_at(f, xi))));
                }
            }
        }
    }
    best
}

/// For every face type `t` a random face, and on it a slave at each of its
/// placements (`place`: the point, the expected location and ξ̄, the
/// signed distance); `check` gets them with the random source, which it may
/// draw from further.
fn each_placement<E>(
    rng: &mut StdRng,
    mut check: impl FnMut(
        &mut StdRng,
        FaceType,
        &Face,
        Place,
        (V, Location, [f64; 2], f64),
    ) -> Result<(), E>,
) -> Result<(), E> {
    for t in TYPES {
        let f = make_face(t, rng);
        for pl in places(t) {
            let placed = place(&f, pl, rng);
            check(rng, t, &f, pl, placed)?;
        }
    }
    Ok(())
}

fn kin(f: &Face, xs: V, hint: Option<V>) -> (Projection, Kinematics) {
    let p = project(f.kind, &f.x, xs);
    let k = Kinematics::new(f.kind, &f.x, xs, &p, hint).expect("kinematics");
    (p, k)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Constructed placements are found (location, ξ̄), the gap has the sign
    /// and size of the placement, s = gν, and the four identities hold to 1e-12.
    #[test]
    fn placements_identities_and_gap_sign(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        each_placement(&mut rng, |rng, t, f, pl, (xs, loc, xi, g)| {
            let hint = if rng.gen_bool(0.5) {
                None
            } else {
                // a perturbed neighbour-averaged normal
                let n = face_normal(f.kind, &f.x, xi).unwrap();
                Some(add(n, [rng.gen_range(-0.05..0.05), rng.gen_range(-0.05..0.05),
                    if t == FaceType::Segment { 0.0 } else { rng.gen_range(-0.05..0.05) }]))
            };
            let (p, k) = kin(f, xs, hint);
            if g != 0.0 || pl == Place::Interior {
                // (a slave exactly on an edge may equally be called interior)
                prop_assert_eq!(p.location, loc, "{:?} {:?}", t, pl);
            }
            prop_assert!((p.xi[0] - xi[0]).abs() < 1e-9 && (p.xi[1] - xi[1]).abs() < 1e-9,
                "{:?} {:?}: xi {:?} want {:?}", t, pl, p.xi, xi);
            prop_assert!((k.gap - g).abs() <= 1e-10 * f.size, "{:?} {:?}: gap {} want {}", t, pl, k.gap, g);
            if g != 0.0 {
                prop_assert_eq!(k.gap.signum(), g.signum());
            }
            let x = nodes(f, xs);
            let xmax = max_norm(&x);
            let r = sub(k.s, sc(k.normal, k.gap));
            prop_assert!(norm(r) <= 1e-14 * xmax, "s - g nu = {:e} ({:?} {:?}, xmax {:e}, gap {:e}, hint {:?}, size {:e})", norm(r), t, pl, xmax, k.gap, hint, f.size);
            prop_assert!((norm(k.normal) - 1.0).abs() < 1e-14);
            let e = identity_errors(&k, &x);
            for (i, ei) in e.iter().enumerate() {
                prop_assert!(*ei <= 1e-12, "{:?} {:?}: identity {} error {:e}", t, pl, i, ei);
            }
            Ok(())
        })?;
    }

    /// Random slave points near and far (up to 100 face sizes), on every face type
    /// including strongly twisted quads: the projection
    /// is no farther than any of ~3000 sampled face points, interior projections
    /// satisfy s ⟂ τ_α, and the identities and s = gν hold wherever it lands.
    #[test]
    fn projection_is_optimal(seed in any::<u64>()) {
        projection_optimal_for(seed)?;
    }
}

/// The body of `projection_is_optimal` for one seed.
fn projection_optimal_for(seed: u64) -> Result<(), TestCaseError> {
    let mut rng = StdRng::seed_from_u64(seed);
    for t in TYPES.into_iter().chain([FaceType::TwistedQuad]) {
        let f = make_face(t, &mut rng);
        let c = sc(
            f.x.iter().fold([0.0; 3], |a, b| add(a, *b)),
            1.0 / f.x.len() as f64,
        );
        for r in [0.3, 1.0, 3.0, 100.0] {
            let xs = add(c, sc(random_vec(t, 1.0, &mut rng), r * f.size));
            let (p, k) = kin(&f, xs, None);
            let best = sampled_min_distance(&f, xs);
            prop_assert!(
                p.distance <= best + 1e-12 * (f.size + p.distance),
                "{:?}: projection {} > sampled {} face {:?} xs {:?} proj {:?}",
                t,
                p.distance,
                best,
                f,
                xs,
                p
            );
            prop_assert!(
                (norm(sub(xs, p.point)) - p.distance).abs() <= 1e-13 * (f.size + p.distance)
            );
            let x = nodes(&f, xs);
            let xmax = max_norm(&x);
            if p.location == Location::Interior {
                for al in 0..k.n_tangents {
                    let o = dot(k.s, k.tangents[al]).abs() / norm(k.tangents[al]);
                    prop_assert!(o <= 1e-13 * xmax,
                    "{:?} at {} face sizes: s.tau/|tau| = {:e}, xmax {:e}, xi {:?} face {:?} xs {:?}", t, r, o, xmax, p.xi, f.x, xs);
                }
            }
            prop_assert!(norm(sub(k.s, sc(k.normal, k.gap))) <= 1e-14 * xmax);
            let e = identity_errors(&k, &x);
            for (i, ei) in e.iter().enumerate() {
                prop_assert!(*ei <= 1e-12, "{:?}: identity {} error {:e}", t, i, ei);
            }
        }
    }
    Ok(())
}

/// A seed the property test once drew: a warped quad and a slave 100 face
/// sizes away, whose interior projection left s·τ at 1.8e-12 (above the
/// 1e-13·|x| the projection promises).
#[test]
fn projection_is_optimal_far_from_warped_quad() {
    projection_optimal_for(5139680428250893188).unwrap();
}

/// A vector with components uniform in `[−half, half]` (z = 0 for a segment,
/// which lies in the xy plane), drawn in the order x, y, z.
fn random_vec(t: FaceType, half: f64, rng: &mut StdRng) -> V {
    [
        rng.gen_range(-half..half),
        rng.gen_range(-half..half),
        if t == FaceType::Segment {
            0.0
        } else {
            rng.gen_range(-half..half)
        },
    ]
}

fn random_w(t: FaceType, n: usize, rng: &mut StdRng) -> Vec<V> {
    (0..n).map(|_| random_vec(t, 1.0, rng)).collect()
}

fn max_norm(v: &[V]) -> f64 {
    v.iter().map(|a| norm(*a)).fold(0.0, f64::max)
}

/// `(max_A |N_A|, max_{α,A} |D^α_A|)`.
fn op_scales(k: &Kinematics) -> (f64, f64) {
    let n = (0..k.n_nodes).map(|i| norm(k.n_op[i])).fold(0.0, f64::max);
    let d = (0..k.n_tangents)
        .flat_map(|al| (0..k.n_nodes).map(move |i| (al, i)))
        .map(|(al, i)| norm(k.d_op[al][i]))
        .fold(0.0, f64::max);
    (n, d)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Rigid-body rates vanish: w_A = c (translation) and w_A = ω × x_A
    /// (rotation) give v_N = v^α_T = 0 (seed 57–66), errors normalised by
    /// max|N_A|·max|w_A| and max|D^α_A|·max|w_A|, to 1e-12.
    #[test]
    fn rigid_rates_vanish(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        each_placement(&mut rng, |rng, t, f, pl, (xs, _, _, _)| {
            let (_, k) = kin(f, xs, None);
            let x = nodes(f, xs);
            let (ns, ds) = op_scales(&k);
            let c = random_w(t, 1, rng)[0];
            let om = if t == FaceType::Segment {
                [0.0, 0.0, rng.gen_range(-1.0..1.0)]
            } else {
                random_w(t, 1, rng)[0]
            };
            for w in [vec![c; x.len()], x.iter().map(|xa| cross(om, *xa)).collect::<Vec<_>>()] {
                let wm = max_norm(&w);
                let vn = k.normal_rate(&w);
                let vt = k.tangential_rates(&w);
                prop_assert!(vn.abs() <= 1e-12 * ns * wm, "{:?} {:?}: v_N {:e}", t, pl, vn);
                prop_assert!(vt[0].abs().max(vt[1].abs()) <= 1e-12 * ds * wm,
                    "{:?} {:?}: v_T {:?}", t, pl, vt);
            }
            Ok(())
        })?;
    }

    /// Frame indifference (the objectivity of seed §2.2/§3.2): superposing a
    /// rigid motion — positions x' = Q x + c, velocities w' = Q w + ω × x' + b —
    /// leaves v_N and v^α_T unchanged (projection and kinematics recomputed in
    /// the moved frame), to 1e-9 of max|N|·max|w| resp. max|D|·max|w|.
    #[test]
    fn rates_are_objective(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        each_placement(&mut rng, |rng, t, f, pl, (xs, _, _, _)| {
            let (_, k) = kin(f, xs, None);
            let w = random_w(t, k.n_nodes, rng);
            let (vn, vt) = (k.normal_rate(&w), k.tangential_rates(&w));
            let (q, om) = if t == FaceType::Segment {
                (rot2d(rng), [0.0, 0.0, rng.gen_range(-2.0..2.0)])
            } else {
                (rotation(rng), random_w(t, 1, rng)[0])
            };
            let c = random_w(t, 1, rng)[0];
            let b = random_w(t, 1, rng)[0];
            let moved = |p: V| add(apply(&q, p), sc(c, 5.0));
            let f2 = Face { kind: f.kind, x: f.x.iter().map(|p| moved(*p)).collect(), size: f.size };
            let xs2 = moved(xs);
            let x2 = nodes(&f2, xs2);
            let w2: Vec<V> = w.iter().zip(&x2)
                .map(|(wa, xa)| add(add(apply(&q, *wa), cross(om, *xa)), b))
                .collect();
            let (_, k2) = kin(&f2, xs2, None);
            let (ns, ds) = op_scales(&k);
            let wm = max_norm(&w);
            prop_assert!((k2.gap - k.gap).abs() <= 1e-12 * (f.size + k.gap.abs()) * 20.0);
            prop_assert!((k2.normal_rate(&w2) - vn).abs() <= 1e-9 * ns * wm);
            let vt2 = k2.tangential_rates(&w2);
            for al in 0..k.n_tangents {
                prop_assert!((vt2[al] - vt[al]).abs() <= 1e-9 * ds * wm,
                    "{:?} {:?}: v_T {:?} vs {:?}", t, pl, vt2, vt);
            }
            Ok(())
        })?;
    }

    /// At interior projections D^α_A is the derivative of the convected
    /// coordinate and N_A that of the gap (seed 49–52): for every node moving
    /// with w_A, v^α_T = dξ̄^α/dt and v_N = dg/dt, checked by central differences
    /// of re-projected configurations (step 1e-6·h), including warped quads with
    /// g ≠ 0 (where the curvature term of A_αβ matters) and flat faces at g = 0.
    #[test]
    fn rates_match_finite_differences(seed in any::<u64>()) {
        let mut rng = StdRng::seed_from_u64(seed);
        for t in TYPES {
            let f = make_face(t, &mut rng);
            let (xs, _, _, _) = place(&f, Place::Interior, &mut rng);
            let (_, k) = kin(&f, xs, None);
            let w = random_w(t, k.n_nodes, &mut rng);
            let h = 1e-6 * f.size;
            let moved = |e: f64| {
                let fm = Face {
                    kind: f.kind,
                    x: f.x.iter().zip(&w[1..]).map(|(p, wa)| add(*p, sc(*wa, e))).collect(),
                    size: f.size,
                };
                let xsm = add(xs, sc(w[0], e));
                let (p, km) = kin(&fm, xsm, None);
                (p, km)
            };
            let ((pp, kp), (pm, km)) = (moved(h), moved(-h));
            prop_assert_eq!(pp.location, Location::Interior);
            prop_assert_eq!(pm.location, Location::Interior);
            let vt = k.tangential_rates(&w);
            for al in 0..k.n_tangents {
                let fd = (pp.xi[al] - pm.xi[al]) / (2.0 * h);
                prop_assert!((fd - vt[al]).abs() <= 1e-6 / f.size * (1.0 + vt[al].abs() * f.size),
                    "{:?}: dxi/dt {} vs v_T {}", t, fd, vt[al]);
            }
            let fd = (kp.gap - km.gap) / (2.0 * h);
            let vn = k.normal_rate(&w);
            prop_assert!((fd - vn).abs() <= 1e-6 * (1.0 + vn.abs()), "{:?}: dg/dt {} vs v_N {}", t, fd, vn);
        }
    }
}

/// Closed form: slave on the segment (0,0)–(2,0) at x = 0.5 (g = 0) moving
/// with velocity (1, −0.5), master at rest: ξ̄ = x − 1 so v_T = dξ̄/dt = 1;
/// ν = (0, −1) (outward = −y for this orientation) so v_N = ν·v = 0.5 (moving
/// away); τ = (1, 0), m = 1, D_s = τ/m.
#[test]
fn segment_closed_form() {
    let master = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
    let xs = [0.5, 0.0, 0.0];
    let p = project(ElementKind::Line2, &master, xs);
    assert_eq!(p.location, Location::Interior);
    assert!((p.xi[0] + 0.5).abs() < 1e-15);
    let k = Kinematics::new(ElementKind::Line2, &master, xs, &p, None).unwrap();
    assert_eq!(k.normal, [0.0, -1.0, 0.0]);
    assert_eq!(k.gap, 0.0);
    let w = [[1.0, -0.5, 0.0], [0.0; 3], [0.0; 3]];
    assert!((k.tangential_rates(&w)[0] - 1.0).abs() < 1e-15);
    assert!((k.normal_rate(&w) - 0.5).abs() < 1e-15);
    assert_eq!(k.d_op[0][0], [1.0, 0.0, 0.0]);
    // G_A = p N_A + t D_A: equal and opposite between slave and master.
    let g = k.nodal_forces(2.0, [3.0, 0.0]);
    let sum = (0..3).fold([0.0; 3], |a, i| add(a, g[i]));
    assert!(norm(sum) < 1e-15);
    assert_eq!(g[0], [3.0, -2.0, 0.0]);
}

/// Worst identity / s = gν errors over 3000 random configurations of every
/// face type and placement (printed with --nocapture for the record).
#[test]
fn identity_error_budget() {
    let mut worst = [0.0f64; 5];
    let mut rng = StdRng::seed_from_u64(2003);
    for _ in 0..3000 {
        each_placement(&mut rng, |_, _, f, _, (xs, _, _, _)| {
            let (_, k) = kin(f, xs, None);
            let x = nodes(f, xs);
            let e = identity_errors(&k, &x);
            for i in 0..4 {
                worst[i] = worst[i].max(e[i]);
            }
            let xmax = max_norm(&x);
            worst[4] = worst[4].max(norm(sub(k.s, sc(k.normal, k.gap))) / xmax);
            Ok::<(), ()>(())
        })
        .unwrap();
    }
    eprintln!(
        "worst relative errors: |ΣN| {:.2e}, |ΣD| {:.2e}, |ΣN×x| {:.2e}, |ΣD×x| {:.2e}, |s−gν|/|x| {:.2e}",
        worst[0], worst[1], worst[2], worst[3], worst[4]
    );
    assert!(worst[..4].iter().all(|e| *e <= 1e-12));
    assert!(worst[4] <= 1e-14);
}

/// Numerical failures are typed errors: a zero-area face, and a slave at the
/// focal point of a warped quad, where A_αβ = m_αβ − g ν·x_{m,αβ} is singular
/// (saddle z = w ξη with w = 0.5: A = [[1, −g w], [−g w, 1]] at ξ = 0, singular
/// at g = 1/w = 2).
#[test]
fn degenerate_and_focal_configurations_are_errors() {
    use emcontact::contact::geometry::GeometryError;
    let flat = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
    let xs = [0.5, 0.5, 0.5];
    let p = project(ElementKind::Tri3, &flat, xs);
    assert!(matches!(
        Kinematics::new(ElementKind::Tri3, &flat, xs, &p, None),
        Err(GeometryError::DegenerateFace { .. })
    ));
    let w = 0.5;
    let saddle = [
        [-1.0, -1.0, w],
        [1.0, -1.0, -w],
        [1.0, 1.0, w],
        [-1.0, 1.0, -w],
    ];
    let at = |g: f64| {
        let xs = [0.0, 0.0, g];
        let p = Projection {
            kind: ElementKind::Quad4,
            xi: [0.0, 0.0],
            location: Location::Interior,
            point: [0.0; 3],
            distance: g.abs(),
        };
        Kinematics::new(ElementKind::Quad4, &saddle, xs, &p, None)
    };
    assert!(matches!(at(2.0), Err(GeometryError::SingularMetric { .. })));
    let k = at(1.0).unwrap();
    assert_eq!(k.gap, 1.0);
    assert!((k.a[0][1] + 0.5).abs() < 1e-15 && (k.a[0][0] - 1.0).abs() < 1e-15);
}
