//! Reference elements: shape functions, quadrature exactness, faces.

#![allow(clippy::needless_range_loop)]

use crate::common::fe::{assert_rule_inside, shape_at};
use crate::common::geom::{cross, dot, sub};
use emcontact::fe::ElementKind;
use proptest::prelude::*;

const ALL: [ElementKind; 5] = [
    ElementKind::Line2,
    ElementKind::Tri3,
    ElementKind::Quad4,
    ElementKind::Tet4,
    ElementKind::Hex8,
];

/// A point inside the reference element from three numbers in [0, 1).
fn inside(kind: ElementKind, u: [f64; 3]) -> [f64; 3] {
    match kind {
        ElementKind::Line2 => [2.0 * u[0] - 1.0, 0.0, 0.0],
        ElementKind::Quad4 => [2.0 * u[0] - 1.0, 2.0 * u[1] - 1.0, 0.0],
        ElementKind::Hex8 => [2.0 * u[0] - 1.0, 2.0 * u[1] - 1.0, 2.0 * u[2] - 1.0],
        ElementKind::Tri3 => {
            let (a, b) = if u[0] + u[1] > 1.0 {
                (1.0 - u[0], 1.0 - u[1])
            } else {
                (u[0], u[1])
            };
            [a, b, 0.0]
        }
        ElementKind::Tet4 => {
            // scale into the simplex (not uniform, but covers it)
            let s = u[0] + u[1] + u[2];
            let f = if s > 1.0 {
                u[0].max(u[1]).max(u[2]) / s
            } else {
                1.0
            };
            [u[0] * f, u[1] * f, u[2] * f]
        }
        k => unreachable!("this test covers the first-order kinds, not {k:?}"),
    }
}

proptest! {
    /// `Σ_a N_a = 1` and `Σ_a ∂N_a/∂ξ = 0` at random interior points (to 1e-15).
    #[test]
    fn partition_of_unity(u in prop::array::uniform3(0.0..1.0f64)) {
        for kind in ALL {
            let (n, dn) = shape_at(kind, inside(kind, u));
            let nn = kind.n_nodes();
            let s: f64 = n[..nn].iter().sum();
            prop_assert!((s - 1.0).abs() < 1e-15, "{kind:?}: ΣN = {s}");
            for k in 0..3 {
                let g: f64 = dn[..nn].iter().map(|d| d[k]).sum();
                prop_assert!(g.abs() < 1e-15, "{kind:?}: Σ∂N/∂ξ_{k} = {g}");
            }
            // linear completeness: Σ N_a ξ_a = ξ
            let xi = inside(kind, u);
            for k in 0..3 {
                let r: f64 = (0..nn).map(|a| n[a] * kind.reference_nodes()[a][k]).sum();
                prop_assert!((r - xi[k]).abs() < 1e-15, "{kind:?}");
            }
        }
    }

    /// Reference gradients against central differences (h = 1e-6; the shape
    /// functions are multilinear, so the difference is exact up to round-off).
    #[test]
    fn gradients_match_fd(u in prop::array::uniform3(0.0..1.0f64)) {
        let h = 1e-6;
        for kind in ALL {
            let xi = inside(kind, u);
            let (_, dn) = shape_at(kind, xi);
            for k in 0..kind.ref_dim() {
                let mut xp = xi;
                let mut xm = xi;
                xp[k] += h;
                xm[k] -= h;
                let (np, _) = shape_at(kind, xp);
                let (nm, _) = shape_at(kind, xm);
                for a in 0..kind.n_nodes() {
                    let fd = (np[a] - nm[a]) / (2.0 * h);
                    prop_assert!((fd - dn[a][k]).abs() < 1e-9, "{kind:?} a={a} k={k}: {fd} vs {}", dn[a][k]);
                }
            }
            for a in 0..kind.n_nodes() {
                for k in kind.ref_dim()..3 {
                    prop_assert_eq!(dn[a][k], 0.0);
                }
            }
        }
    }
}

/// `N_a(ξ_b) = δ_ab` at the reference nodes.
#[test]
fn kronecker_at_nodes() {
    for kind in ALL {
        for (b, xb) in kind.reference_nodes().iter().enumerate() {
            let (n, _) = shape_at(kind, *xb);
            for a in 0..kind.n_nodes() {
                let want = if a == b { 1.0 } else { 0.0 };
                assert_eq!(n[a], want, "{kind:?} N_{a}(ξ_{b})");
            }
        }
    }
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}

/// Exact integral of `ξ^i η^j ζ^k` over the reference element.
fn exact_monomial(kind: ElementKind, p: [u32; 3]) -> f64 {
    let line = |e: u32| {
        if e % 2 == 1 {
            0.0
        } else {
            2.0 / (f64::from(e) + 1.0)
        }
    };
    match kind {
        ElementKind::Line2 => line(p[0]),
        ElementKind::Quad4 => line(p[0]) * line(p[1]),
        ElementKind::Hex8 => line(p[0]) * line(p[1]) * line(p[2]),
        // ∫_simplex ξ^i η^j = i! j! / (i+j+2)!  (and the 3D analogue with +3)
        ElementKind::Tri3 => factorial(p[0]) * factorial(p[1]) / factorial(p[0] + p[1] + 2),
        ElementKind::Tet4 => {
            factorial(p[0]) * factorial(p[1]) * factorial(p[2]) / factorial(p[0] + p[1] + p[2] + 3)
        }
        k => unreachable!("this test covers the first-order kinds, not {k:?}"),
    }
}

fn quad_monomial(kind: ElementKind, p: [u32; 3]) -> f64 {
    kind.quadrature()
        .iter()
        .map(|q| {
            q.weight
                * q.xi[0].powi(p[0] as i32)
                * q.xi[1].powi(p[1] as i32)
                * q.xi[2].powi(p[2] as i32)
        })
        .sum()
}

/// Tensor rules integrate every monomial of degree ≤ 3 per direction exactly;
/// simplex rules every monomial of total degree ≤ 2 (and not all of degree 3,
/// so the stated degree is sharp).
#[test]
fn quadrature_degree() {
    for kind in ALL {
        let d = kind.ref_dim();
        let mut worst = 0.0f64;
        let mut deg3_fails = false;
        for i in 0..4u32 {
            for j in 0..4u32 {
                for k in 0..4u32 {
                    let p = [i, j, k];
                    if (d < 2 && j > 0) || (d < 3 && k > 0) {
                        continue;
                    }
                    let err = (quad_monomial(kind, p) - exact_monomial(kind, p)).abs();
                    let simplex = matches!(kind, ElementKind::Tri3 | ElementKind::Tet4);
                    if simplex && i + j + k > 2 {
                        deg3_fails |= i + j + k == 3 && err > 1e-6;
                        continue;
                    }
                    worst = worst.max(err);
                }
            }
        }
        assert!(worst < 1e-15, "{kind:?}: monomial error {worst}");
        if matches!(kind, ElementKind::Tri3 | ElementKind::Tet4) {
            assert!(
                deg3_fails,
                "{kind:?}: expected a degree-3 monomial to be inexact"
            );
        }
    }
}

/// Quadrature points lie inside the element and weights are positive.
#[test]
fn quadrature_points_inside() {
    for kind in ALL {
        assert_rule_inside(kind, kind.quadrature());
    }
}

/// Faces on the reference element: the documented normal points outward (from the
/// element centroid to the face centroid), all face nodes lie in the face plane,
/// faces are distinct and cover the boundary (each node in `ref_dim` faces), and
/// quad faces are cycles whose Quad4 Jacobian orientation agrees with the normal.
#[test]
fn faces_are_outward() {
    for kind in [
        ElementKind::Tri3,
        ElementKind::Quad4,
        ElementKind::Tet4,
        ElementKind::Hex8,
    ] {
        let x = kind.reference_nodes();
        let nn = kind.n_nodes();
        let centroid = {
            let mut c = [0.0; 3];
            for p in x {
                for k in 0..3 {
                    c[k] += p[k] / nn as f64;
                }
            }
            c
        };
        let faces = kind.faces();
        let expected = match kind {
            ElementKind::Tri3 => 3,
            ElementKind::Quad4 => 4,
            ElementKind::Tet4 => 4,
            _ => 6,
        };
        assert_eq!(faces.len(), expected);
        let mut count = vec![0; nn];
        let mut sets: Vec<Vec<usize>> = Vec::new();
        for (fk, nodes) in faces {
            assert_eq!(nodes.len(), fk.n_nodes());
            assert_eq!(fk.ref_dim() + 1, kind.ref_dim());
            let p = |i: usize| x[nodes[i]];
            let normal = if kind.ref_dim() == 2 {
                let t = sub(p(1), p(0));
                [t[1], -t[0], 0.0]
            } else {
                cross(sub(p(1), p(0)), sub(p(2), p(0)))
            };
            let mut fc = [0.0; 3];
            for i in 0..nodes.len() {
                for k in 0..3 {
                    fc[k] += p(i)[k] / nodes.len() as f64;
                }
            }
            assert!(
                dot(normal, sub(fc, centroid)) > 0.0,
                "{kind:?} face {nodes:?} not outward"
            );
            for i in 0..nodes.len() {
                assert!(
                    dot(normal, sub(p(i), p(0))).abs() < 1e-15,
                    "{kind:?} face {nodes:?} not planar"
                );
            }
            if *fk == ElementKind::Quad4 {
                for q in fk.quadrature() {
                    let mut n = [0.0; 4];
                    let mut dn = [[0.0; 3]; 4];
                    fk.shape(&q.xi, &mut n, &mut dn);
                    let mut t1 = [0.0; 3];
                    let mut t2 = [0.0; 3];
                    for a in 0..4 {
                        for k in 0..3 {
                            t1[k] += dn[a][0] * p(a)[k];
                            t2[k] += dn[a][1] * p(a)[k];
                        }
                    }
                    assert!(
                        dot(cross(t1, t2), normal) > 0.0,
                        "{kind:?} face {nodes:?} not a cycle"
                    );
                }
            }
            for &a in nodes.iter() {
                count[a] += 1;
            }
            let mut s = nodes.to_vec();
            s.sort();
            assert!(!sets.contains(&s), "{kind:?}: duplicate face {nodes:?}");
            sets.push(s);
        }
        assert!(
            count.iter().all(|&c| c == kind.ref_dim()),
            "{kind:?}: {count:?}"
        );
    }
    assert!(ElementKind::Line2.faces().is_empty());
}
