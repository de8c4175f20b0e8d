//! Contact geometry on second-order faces (line3, tri6, quad8, quad9): the
//! closest point on the curved face, the operators `N_A`, `D^α_A` with the
//! curvature term `A_αβ = m_αβ − g ν·x_{,αβ}` (Love & Laursen 2003 §3.2,
//! eqs. 43–52 and 59–66; DESIGN §5), their exact derivative, the HRZ slave
//! weights, and the consistency of a flat quadratic face with the first-order
//! faces on the same nodes.
//!
//! Faces are random: corners of a unit-size face moved by up to 0.15, each
//! midside (and centre) node lifted off the corners' surface by up to 0.2
//! and moved in it by up to 0.1, the whole rotated and shifted by up to 5
//! length units. Identity errors are relative as in `geometry.rs`.

use emcontact::contact::geometry::real::{Dual, Real};
use emcontact::contact::geometry::{project, Kinematics, Location};
use emcontact::contact::surface::face_weights;
use emcontact::fe::ElementKind;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::geom::{add, cross, dot, norm, scale, sub, V};

const CURVED: [ElementKind; 4] = [
    ElementKind::Line3,
    ElementKind::Tri6,
    ElementKind::Quad8,
    ElementKind::Quad9,
];

/// A random rotation (3D) or rotation about z (2D).
fn rotation(rng: &mut StdRng, dim: usize) -> [[f64; 3]; 3] {
    let (a, b, c): (f64, f64, f64) = (
        rng.gen_range(0.0..6.3),
        if dim == 3 {
            rng.gen_range(0.0..3.1)
        } else {
            0.0
        },
        if dim == 3 {
            rng.gen_range(0.0..6.3)
        } else {
            0.0
        },
    );
    let rz = |t: f64| {
        [
            [t.cos(), -t.sin(), 0.0],
            [t.sin(), t.cos(), 0.0],
            [0.0, 0.0, 1.0],
        ]
    };
    let rx = |t: f64| {
        [
            [1.0, 0.0, 0.0],
            [0.0, t.cos(), -t.sin()],
            [0.0, t.sin(), t.cos()],
        ]
    };
    let mul = |p: [[f64; 3]; 3], q: [[f64; 3]; 3]| {
        let mut r = [[0.0; 3]; 3];
        for i in 0..3 {
            for j in 0..3 {
                r[i][j] = (0..3).map(|k| p[i][k] * q[k][j]).sum();
            }
        }
        r
    };
    mul(rz(a), mul(rx(b), rz(c)))
}

fn apply(q: &[[f64; 3]; 3], v: V) -> V {
    [dot(q[0], v), dot(q[1], v), dot(q[2], v)]
}

/// Reference coordinates of a face's nodes (Gmsh order).
fn reference(kind: ElementKind) -> Vec<[f64; 2]> {
    kind.reference_nodes()
        .iter()
        .map(|r| [r[0], r[1]])
        .collect()
}

/// A random curved face of `kind` (module docs).
fn curved_face(kind: ElementKind, rng: &mut StdRng) -> Vec<V> {
    let dim = kind.ref_dim() + 1;
    let q = rotation(rng, dim);
    let shift: V = std::array::from_fn(|i| {
        if i < dim {
            rng.gen_range(-5.0..5.0)
        } else {
            0.0
        }
    });
    let nc = kind.n_corners();
    let refs = reference(kind);
    let mut x: Vec<V> = refs
        .iter()
        .map(|r| {
            // the reference face scaled to unit size (triangles: ×1, others: ×½)
            let s = if kind.is_simplex() && dim == 3 {
                1.0
            } else {
                0.5
            };
            [s * r[0], s * r[1], 0.0]
        })
        .collect();
    for p in x.iter_mut().take(nc) {
        for i in 0..dim - 1 {
            p[i] += rng.gen_range(-0.15..0.15);
        }
    }
    // higher-order nodes: the corners' linear surface there, moved
    let (mut n, mut dn) = ([0.0; 9], [[0.0; 3]; 9]);
    for (k, r) in refs.iter().enumerate().skip(nc) {
        kind.linear().shape(&[r[0], r[1], 0.0], &mut n, &mut dn);
        let mut p = [0.0; 3];
        for a in 0..nc {
            p = add(p, scale(x[a], n[a]));
        }
        for i in 0..dim - 1 {
            p[i] += rng.gen_range(-0.1..0.1);
        }
        p[dim - 1] += rng.gen_range(-0.2..0.2);
        x[k] = p;
    }
    x.iter().map(|p| add(apply(&q, *p), shift)).collect()
}

/// `x(ξ)`, its tangents and unit normal, from `fe`'s shape functions.
fn frame(kind: ElementKind, x: &[V], xi: [f64; 2]) -> (V, [V; 2], V) {
    let (mut n, mut dn) = ([0.0; 9], [[0.0; 3]; 9]);
    kind.shape(&[xi[0], xi[1], 0.0], &mut n, &mut dn);
    let mut p = [0.0; 3];
    let mut t = [[0.0; 3]; 2];
    for a in 0..x.len() {
        p = add(p, scale(x[a], n[a]));
        t[0] = add(t[0], scale(x[a], dn[a][0]));
        t[1] = add(t[1], scale(x[a], dn[a][1]));
    }
    let nrm = if kind.ref_dim() == 1 {
        [t[0][1], -t[0][0], 0.0]
    } else {
        cross(t[0], t[1])
    };
    (p, t, scale(nrm, 1.0 / norm(nrm)))
}

/// A random parameter point strictly inside the face (margin `m`).
fn inside(kind: ElementKind, rng: &mut StdRng, m: f64) -> [f64; 2] {
    match kind {
        ElementKind::Line3 => [rng.gen_range(-1.0 + m..1.0 - m), 0.0],
        ElementKind::Tri6 => loop {
            let xi = [rng.gen_range(m..1.0), rng.gen_range(m..1.0)];
            if xi[0] + xi[1] < 1.0 - m {
                return xi;
            }
        },
        _ => [
            rng.gen_range(-1.0 + m..1.0 - m),
            rng.gen_range(-1.0 + m..1.0 - m),
        ],
    }
}

/// The smallest distance from `p` to the face over a fine parameter grid.
fn sampled_distance(kind: ElementKind, x: &[V], p: V) -> f64 {
    let n = 200;
    let mut best = f64::INFINITY;
    for i in 0..=n {
        for j in 0..=(if kind.ref_dim() == 1 { 0 } else { n }) {
            let (u, v) = (i as f64 / n as f64, j as f64 / n as f64);
            let xi = match kind {
                ElementKind::Line3 => [2.0 * u - 1.0, 0.0],
                ElementKind::Tri6 if u + v > 1.0 => continue,
                ElementKind::Tri6 => [u, v],
                _ => [2.0 * u - 1.0, 2.0 * v - 1.0],
            };
            best = best.min(norm(sub(frame(kind, x, xi).0, p)));
        }
    }
    best
}

/// `[Σ N_A, Σ D^α_A, Σ N_A × x_A, Σ D^α_A × x_A]`, relative.
fn identity_errors(k: &Kinematics, x: &[V]) -> [f64; 4] {
    let n = k.n_nodes;
    let xmax = x.iter().map(|p| norm(*p)).fold(0.0, f64::max);
    let mut e = [0.0f64; 4];
    let nmax = (0..n).map(|a| norm(k.n_op[a])).fold(0.0, f64::max);
    let (mut sn, mut sx) = ([0.0; 3], [0.0; 3]);
    for a in 0..n {
        sn = add(sn, k.n_op[a]);
        sx = add(sx, cross(k.n_op[a], x[a]));
    }
    e[0] = norm(sn) / nmax;
    e[2] = norm(sx) / (nmax * xmax);
    for al in 0..k.n_tangents {
        let dmax = (0..n).map(|a| norm(k.d_op[al][a])).fold(0.0, f64::max);
        let (mut sd, mut sdx) = ([0.0; 3], [0.0; 3]);
        for a in 0..n {
            sd = add(sd, k.d_op[al][a]);
            sdx = add(sdx, cross(k.d_op[al][a], x[a]));
        }
        e[1] = e[1].max(norm(sd) / dmax);
        e[3] = e[3].max(norm(sdx) / (dmax * xmax));
    }
    e
}

/// A slave over the interior of a curved face at distance ±0.05..0.2 along
/// its normal projects there: `ξ̄` found again, `s·τ_α = 0` to round-off, no
/// face point closer (a 200² sample), the momentum identities to round-off.
/// Slaves beyond an edge or corner project onto the boundary, never farther
/// than the sample's closest point.
#[test]
fn projection_on_curved_faces_is_the_closest_point() {
    let mut rng = StdRng::seed_from_u64(26);
    let mut worst = [0.0f64; 6];
    for kind in CURVED {
        for _ in 0..40 {
            let x = curved_face(kind, &mut rng);
            let xi = inside(kind, &mut rng, 0.15);
            let (p, t, nrm) = frame(kind, &x, xi);
            let d = rng.gen_range(0.05..0.2) * if rng.gen_bool(0.5) { 1.0 } else { -1.0 };
            let xs = add(p, scale(nrm, d));
            let pr = project(kind, &x, xs);
            assert_eq!(pr.location, Location::Interior, "{kind:?}");
            let sample = sampled_distance(kind, &x, xs);
            assert!(
                pr.distance <= sample + 1e-12,
                "{kind:?}: {} > {sample}",
                pr.distance
            );
            let s = sub(xs, pr.point);
            let ortho = (0..kind.ref_dim())
                .map(|al| {
                    let tt = frame(kind, &x, pr.xi).1[al];
                    dot(s, tt).abs() / (norm(s) * norm(tt))
                })
                .fold(0.0, f64::max);
            worst[0] = worst[0].max(ortho);
            worst[1] = worst[1].max((pr.distance - d.abs()).abs() / d.abs());
            let _ = t;
            let k = Kinematics::new(kind, &x, xs, &pr, None).unwrap();
            assert!((k.gap - d).abs() <= 1e-12, "{kind:?}: gap {} vs {d}", k.gap);
            let mut nodes = vec![xs];
            nodes.extend_from_slice(&x);
            let e = identity_errors(&k, &nodes);
            for i in 0..4 {
                worst[2 + i] = worst[2 + i].max(e[i]);
            }
            // beyond the face: a point pushed out over an edge or corner
            let far = add(
                xs,
                scale(sub(p, frame(kind, &x, reference(kind)[0]).0), -1.5),
            );
            let pf = project(kind, &x, far);
            let sf = sampled_distance(kind, &x, far);
            assert!(
                pf.distance <= sf + 1e-12,
                "{kind:?} beyond: {} > {sf}",
                pf.distance
            );
        }
    }
    println!(
        "curved faces: s·τ {:.1e}, |s| − |d| {:.1e}, ΣN {:.1e}, ΣD {:.1e}, ΣN×x {:.1e}, ΣD×x {:.1e}",
        worst[0], worst[1], worst[2], worst[3], worst[4], worst[5]
    );
    assert!(worst[0] <= 1e-12, "s·τ {:e}", worst[0]);
    assert!(worst[1] <= 1e-12, "distance {:e}", worst[1]);
    for (i, name) in ["ΣN", "ΣD", "ΣN×x", "ΣD×x"].iter().enumerate() {
        assert!(worst[2 + i] <= 1e-12, "{name} {:e}", worst[2 + i]);
    }
}

/// The convected rate `D^α_A·w_A` is the rate of `ξ̄` and `N_A·w_A` the rate
/// of the gap: both against central differences of the projection under
/// node velocities `w` (step 1e-6), to 1e-7 relative. This is what the
/// curvature term of `A_αβ` on a curved face makes true.
#[test]
fn rates_are_the_derivatives_of_the_projection() {
    let mut rng = StdRng::seed_from_u64(27);
    let mut worst: f64 = 0.0;
    for kind in CURVED {
        for _ in 0..40 {
            let x = curved_face(kind, &mut rng);
            let xi = inside(kind, &mut rng, 0.25);
            let (p, _, nrm) = frame(kind, &x, xi);
            let xs = add(p, scale(nrm, rng.gen_range(-0.2..0.2)));
            let w: Vec<V> = (0..=x.len())
                .map(|_| {
                    let mut v: V = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
                    if kind.ref_dim() == 1 {
                        v[2] = 0.0;
                    }
                    v
                })
                .collect();
            let pr = project(kind, &x, xs);
            let k = Kinematics::new(kind, &x, xs, &pr, None).unwrap();
            let vn = k.normal_rate(&w);
            let vt = k.tangential_rates(&w);
            let h = 1e-6;
            let at = |sg: f64| {
                let xm: Vec<V> = x
                    .iter()
                    .zip(&w[1..])
                    .map(|(a, b)| add(*a, scale(*b, sg * h)))
                    .collect();
                let s = add(xs, scale(w[0], sg * h));
                let pp = project(kind, &xm, s);
                let kk = Kinematics::new(kind, &xm, s, &pp, None).unwrap();
                (pp.xi, kk.gap)
            };
            let ((xp, gp), (xm, gm)) = (at(1.0), at(-1.0));
            let dg = (gp - gm) / (2.0 * h);
            worst = worst.max((dg - vn).abs() / (1.0 + vn.abs()));
            for al in 0..kind.ref_dim() {
                let dxi = (xp[al] - xm[al]) / (2.0 * h);
                worst = worst.max((dxi - vt[al]).abs() / (1.0 + vt[al].abs()));
            }
        }
    }
    println!("rates against differences of the projection: {worst:.1e}");
    assert!(worst <= 1e-7, "{worst:e}");
}

/// The kinematics in dual numbers carry the exact derivative of the gap and
/// of `D^α_A` with respect to every node coordinate: against central
/// differences (step 1e-6) to 1e-6 relative, at interior and at edge
/// projections of curved faces.
#[test]
fn dual_derivatives_of_curved_kinematics_match_differences() {
    type T = Dual<30>;
    let mut rng = StdRng::seed_from_u64(28);
    let mut worst: f64 = 0.0;
    for kind in CURVED {
        let dim = kind.ref_dim() + 1;
        for case in 0..20 {
            let x = curved_face(kind, &mut rng);
            let xi = inside(kind, &mut rng, 0.2);
            let (p, t, nrm) = frame(kind, &x, xi);
            let mut xs = add(p, scale(nrm, rng.gen_range(-0.2..0.2)));
            if case % 2 == 1 && dim == 3 {
                // out over an edge: moved along −τ_1 beyond the face
                xs = add(xs, scale(t[0], -2.5));
            }
            let pr = project(kind, &x, xs);
            let nodes: Vec<V> = std::iter::once(xs).chain(x.iter().copied()).collect();
            let nd = nodes.len() * dim;
            let xd: Vec<[T; 3]> = nodes
                .iter()
                .enumerate()
                .map(|(a, q)| {
                    std::array::from_fn(|i| {
                        if i < dim {
                            T::var(q[i], a * dim + i)
                        } else {
                            T::cst(q[i])
                        }
                    })
                })
                .collect();
            let kd = Kinematics::new(kind, &xd[1..], xd[0], &pr, None).unwrap();
            let value = |q: &[V]| {
                let k = Kinematics::new(kind, &q[1..], q[0], &pr_of(kind, q, &pr), None).unwrap();
                (k.gap, k.d_op[0][0])
            };
            for col in 0..nd {
                let (a, i) = (col / dim, col % dim);
                let mut qp = nodes.clone();
                let mut qm = nodes.clone();
                qp[a][i] += 1e-6;
                qm[a][i] -= 1e-6;
                let ((gp, dp), (gm, dm)) = (value(&qp), value(&qm));
                let fd = (gp - gm) / 2e-6;
                worst = worst.max((kd.gap.d[col] - fd).abs() / (1.0 + fd.abs()));
                for c in 0..dim {
                    let fd = (dp[c] - dm[c]) / 2e-6;
                    let ex = kd.d_op[0][0][c].d[col];
                    worst = worst.max((ex - fd).abs() / (1.0 + fd.abs()));
                }
            }
        }
    }
    println!("dual against central differences: {worst:.1e}");
    assert!(worst <= 1e-6, "{worst:e}");
}

/// The projection at perturbed positions, on the same edge or vertex as
/// `pr` (a difference must not cross a kink of the projection).
fn pr_of(
    kind: ElementKind,
    q: &[V],
    pr: &emcontact::contact::geometry::Projection,
) -> emcontact::contact::geometry::Projection {
    let p = project(kind, &q[1..], q[0]);
    assert_eq!(
        p.location, pr.location,
        "{kind:?}: the difference crosses a kink"
    );
    p
}

/// HRZ slave weights (`w_a = A ∫N_a² / Σ_b ∫N_b²`): positive at every node of
/// every second-order face, summing to its area (the face's mass rule
/// integrates the area density `|x_,ξ × x_,η|`, not a polynomial on a
/// curved face: measured within 2.6e-3 on these faces, whose midside nodes
/// sag up to 0.2 of the face size, 20 times a sphere's tet10 faces at 4
/// faces a radius); on a straight line3
/// Simpson's (1/6, 1/6, 2/3)·L and on a flat affine quad9 its tensor
/// product — there the consistent nodal forces `∫ N_a p dA` of a uniform
/// pressure, so such a surface transmits a uniform pressure exactly.
#[test]
fn hrz_weights_are_positive_and_consistent_where_the_face_is_affine() {
    let mut rng = StdRng::seed_from_u64(29);
    let mut worst: f64 = 0.0;
    for kind in CURVED {
        for _ in 0..20 {
            let x = curved_face(kind, &mut rng);
            let mut w = [0.0; 9];
            face_weights(kind, &x, &mut w);
            let n = kind.n_nodes();
            assert!(w[..n].iter().all(|&v| v > 0.0), "{kind:?}: {:?}", &w[..n]);
            // the area by a fine midpoint sum of |x_,ξ × x_,η|
            let m = 300;
            let mut area = 0.0;
            for i in 0..m {
                for j in 0..(if kind.ref_dim() == 1 { 1 } else { m }) {
                    let (u, v) = ((i as f64 + 0.5) / m as f64, (j as f64 + 0.5) / m as f64);
                    let (xi, jac) = match kind {
                        ElementKind::Line3 => ([2.0 * u - 1.0, 0.0], 2.0 / m as f64),
                        ElementKind::Tri6 if i + j >= m => continue,
                        // the cells the hypotenuse cuts in half
                        ElementKind::Tri6 if i + j == m - 1 => ([u, v], 0.5 / (m * m) as f64),
                        ElementKind::Tri6 => ([u, v], 1.0 / (m * m) as f64),
                        _ => ([2.0 * u - 1.0, 2.0 * v - 1.0], 4.0 / (m * m) as f64),
                    };
                    let (_, t, _) = frame(kind, &x, xi);
                    let da = if kind.ref_dim() == 1 {
                        norm(t[0])
                    } else {
                        norm(cross(t[0], t[1]))
                    };
                    area += da * jac;
                }
            }
            let sum: f64 = w[..n].iter().sum();
            worst = worst.max((sum - area).abs() / area);
            assert!(
                (sum - area).abs() <= 5e-3 * area,
                "{kind:?}: Σw {sum} vs area {area}"
            );
        }
    }
    println!("HRZ weights: Σw against the area {worst:.1e}");
    // straight line3 of length 2 (midside at the middle): Simpson
    let mut w = [0.0; 9];
    face_weights(
        ElementKind::Line3,
        &[[0.0; 3], [2.0, 0.0, 0.0], [1.0, 0.0, 0.0]],
        &mut w,
    );
    for (got, want) in w[..3].iter().zip([1.0 / 3.0, 1.0 / 3.0, 4.0 / 3.0]) {
        assert!((got - want).abs() < 1e-14, "line3 {got} vs {want}");
    }
    // affine quad9 (a parallelogram of area 2): (1, 4, 16)/36 · A
    let corners = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [2.5, 1.0, 0.0],
        [0.5, 1.0, 0.0],
    ];
    let mut x = corners.to_vec();
    for k in 0..4 {
        let (a, b) = (corners[k], corners[(k + 1) % 4]);
        x.push(scale(add(a, b), 0.5));
    }
    x.push(scale(
        corners.iter().fold([0.0; 3], |s, c| add(s, *c)),
        0.25,
    ));
    face_weights(ElementKind::Quad9, &x, &mut w);
    let want = [1.0, 1.0, 1.0, 1.0, 4.0, 4.0, 4.0, 4.0, 16.0].map(|v| v / 36.0 * 2.0);
    for (got, want) in w.iter().zip(want) {
        assert!((got - want).abs() < 1e-14, "quad9 {got} vs {want}");
    }
}

/// A flat quadratic face is the surface its first-order refinement on the
/// same nodes describes: a straight line3 (midside node at the middle)
/// against its two line2 halves, a flat affine quad9 against its four quad4
/// quarters. For random slaves and node velocities that are affine along
/// the face (so that the refined faces move as the quadratic one): the
/// same closest point, gap and normal, the same normal rate, slip speed and
/// slave force `G_s = p ν + t_α D^α_s` of a spatial traction `t`, to
/// round-off. (The master nodes share that force by the quadratic or by
/// the linear functions: the same resultant and moment, another split.)
#[test]
fn a_flat_quadratic_face_gives_the_contact_of_its_refinement() {
    let mut rng = StdRng::seed_from_u64(30);
    let mut worst: f64 = 0.0;
    for kind in [ElementKind::Line3, ElementKind::Quad9] {
        let dim = kind.ref_dim() + 1;
        for _ in 0..50 {
            let q = rotation(&mut rng, dim);
            // the affine map ξ → c + A ξ of the face, and a velocity field
            // affine in ξ
            let c: V = std::array::from_fn(|i| {
                if i < dim {
                    rng.gen_range(-2.0..2.0)
                } else {
                    0.0
                }
            });
            let a1 = apply(&q, [rng.gen_range(0.5..1.5), 0.0, 0.0]);
            let a2 = apply(&q, [rng.gen_range(-0.3..0.3), rng.gen_range(0.5..1.5), 0.0]);
            let map = |xi: [f64; 2]| {
                add(
                    add(c, scale(a1, xi[0])),
                    scale(if dim == 3 { a2 } else { [0.0; 3] }, xi[1]),
                )
            };
            let vel: [V; 3] = std::array::from_fn(|_| {
                let mut v: V = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
                if dim == 2 {
                    v[2] = 0.0;
                }
                v
            });
            let wmap = |xi: [f64; 2]| {
                add(
                    add(vel[0], scale(vel[1], xi[0])),
                    scale(vel[2], if dim == 3 { xi[1] } else { 0.0 }),
                )
            };
            let refs = reference(kind);
            let x: Vec<V> = refs.iter().map(|r| map(*r)).collect();
            let w: Vec<V> = refs.iter().map(|r| wmap(*r)).collect();
            let xi = inside(kind, &mut rng, 0.05);
            let (p, _, nrm) = frame(kind, &x, xi);
            let xs = add(p, scale(nrm, rng.gen_range(-0.3..0.3)));
            let ws: V = std::array::from_fn(|i| {
                if i < dim {
                    rng.gen_range(-1.0..1.0)
                } else {
                    0.0
                }
            });
            let traction: V = {
                let t: V = std::array::from_fn(|i| {
                    if i < dim {
                        rng.gen_range(-1.0..1.0)
                    } else {
                        0.0
                    }
                });
                sub(t, scale(nrm, dot(t, nrm)))
            };
            let pn = rng.gen_range(0.0..2.0);
            let eval = |kind: ElementKind, x: &[V], w: &[V]| {
                let pr = project(kind, x, xs);
                let k = Kinematics::new(kind, x, xs, &pr, None).unwrap();
                let mut ww = vec![ws];
                ww.extend_from_slice(w);
                let vn = k.normal_rate(&ww);
                let vt = k.tangential_rates(&ww);
                let speed = k.slip_speed(vt);
                let t = [dot(traction, k.tangents[0]), dot(traction, k.tangents[1])];
                let g = k.nodal_forces(pn, t);
                (pr.point, k.gap, k.normal, vn, speed, g[0])
            };
            let quad = eval(kind, &x, &w);
            // the refined face the slave is over (its parameter quarter)
            let sub_faces: Vec<Vec<[f64; 2]>> = if kind == ElementKind::Line3 {
                vec![vec![[-1.0, 0.0], [0.0, 0.0]], vec![[0.0, 0.0], [1.0, 0.0]]]
            } else {
                let mut v = Vec::new();
                for (u0, v0) in [(-1.0, -1.0), (0.0, -1.0), (0.0, 0.0), (-1.0, 0.0)] {
                    v.push(vec![
                        [u0, v0],
                        [u0 + 1.0, v0],
                        [u0 + 1.0, v0 + 1.0],
                        [u0, v0 + 1.0],
                    ]);
                }
                v
            };
            let lin = kind.linear();
            let inside_sub = |f: &[[f64; 2]]| {
                (0..kind.ref_dim()).all(|al| {
                    let lo = f.iter().map(|r| r[al]).fold(f64::INFINITY, f64::min);
                    let hi = f.iter().map(|r| r[al]).fold(f64::NEG_INFINITY, f64::max);
                    xi[al] > lo && xi[al] < hi
                })
            };
            let f = sub_faces.iter().find(|f| inside_sub(f)).unwrap();
            let xl: Vec<V> = f.iter().map(|r| map(*r)).collect();
            let wl: Vec<V> = f.iter().map(|r| wmap(*r)).collect();
            let linear = eval(lin, &xl, &wl);
            let scale_x = 1.0 + norm(c);
            worst = worst.max(norm(sub(quad.0, linear.0)) / scale_x);
            worst = worst.max((quad.1 - linear.1).abs() / scale_x);
            worst = worst.max(norm(sub(quad.2, linear.2)));
            worst = worst.max((quad.3 - linear.3).abs() / (1.0 + quad.3.abs()));
            worst = worst.max((quad.4 - linear.4).abs() / (1.0 + quad.4.abs()));
            worst = worst.max(norm(sub(quad.5, linear.5)) / (1.0 + norm(quad.5)));
        }
    }
    println!("flat quadratic against refined linear faces: {worst:.1e}");
    assert!(worst <= 1e-12, "{worst:e}");
}
