//! Second-order reference elements: shape functions against Gmsh's own Lagrange
//! basis, interpolation properties, quadrature degrees, faces, orientation
//! reversal and VTK's node order.

use crate::common::fe::{assert_rule_inside, shape_at};
use crate::common::geom::{cross, dot, sub};
use emcontact::fe::ElementKind;

const QUADRATIC: [ElementKind; 7] = [
    ElementKind::Line3,
    ElementKind::Tri6,
    ElementKind::Quad8,
    ElementKind::Quad9,
    ElementKind::Tet10,
    ElementKind::Hex20,
    ElementKind::Hex27,
];

fn kind_named(name: &str) -> ElementKind {
    *ElementKind::ALL
        .iter()
        .find(|k| k.name() == name)
        .unwrap_or_else(|| panic!("no kind {name}"))
}

/// Deterministic points inside the reference element.
fn inside(kind: ElementKind) -> Vec<[f64; 3]> {
    let mut out = Vec::new();
    let u = [0.11, 0.37, 0.23, 0.71, 0.05, 0.52, 0.29, 0.13, 0.61, 0.44];
    for i in 0..8 {
        let (a, b, c) = (u[i % 10], u[(i + 3) % 10], u[(i + 7) % 10]);
        out.push(match (kind.is_simplex(), kind.ref_dim()) {
            (_, 1) => [2.0 * a - 1.0, 0.0, 0.0],
            (false, 2) => [2.0 * a - 1.0, 2.0 * b - 1.0, 0.0],
            (false, _) => [2.0 * a - 1.0, 2.0 * b - 1.0, 2.0 * c - 1.0],
            (true, 2) => [a * 0.9, b * (0.9 - a * 0.9), 0.0],
            (true, _) => [a * 0.6, b * 0.4, c * 0.3],
        });
    }
    out
}

/// Ours equal Gmsh's basis functions and reference gradients, as Gmsh's API
/// evaluates them (`meshes/quadratic.toml`, written by
/// `meshes/make_quadratic_meshes.py` with `getBasisFunctions`), to round-off:
/// this pins the node order to Gmsh's.
#[test]
fn shape_functions_are_gmsh_lagrange_basis() {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes/quadratic.toml"),
    )
    .unwrap();
    let doc: toml::Value = toml::from_str(&text).unwrap();
    let basis = doc["basis"].as_array().unwrap();
    assert_eq!(basis.len(), QUADRATIC.len());
    let f = |v: &toml::Value| v.as_float().unwrap();
    for b in basis {
        let kind = kind_named(b["kind"].as_str().unwrap());
        let nn = kind.n_nodes();
        let values: Vec<f64> = b["values"].as_array().unwrap().iter().map(f).collect();
        let grads: Vec<f64> = b["gradients"].as_array().unwrap().iter().map(f).collect();
        for (p, point) in b["points"].as_array().unwrap().iter().enumerate() {
            let xi: Vec<f64> = point.as_array().unwrap().iter().map(f).collect();
            let (n, dn) = shape_at(kind, [xi[0], xi[1], xi[2]]);
            for a in 0..nn {
                let g = values[p * nn + a];
                assert!(
                    (n[a] - g).abs() < 1e-13,
                    "{kind:?} N_{a} at {xi:?}: {} vs Gmsh {g}",
                    n[a]
                );
                for k in 0..kind.ref_dim() {
                    let g = grads[(p * nn + a) * 3 + k];
                    assert!(
                        (dn[a][k] - g).abs() < 1e-12,
                        "{kind:?} dN_{a}/dξ_{k} at {xi:?}: {} vs Gmsh {g}",
                        dn[a][k]
                    );
                }
            }
        }
    }
}

/// `N_a(ξ_b) = δ_ab`; partition of unity; exact interpolation of every
/// polynomial of total degree 2 (the completeness that makes the patch test
/// and quadratic convergence possible); gradients against central differences.
#[test]
fn interpolation_properties() {
    for kind in QUADRATIC {
        let nn = kind.n_nodes();
        let x = kind.reference_nodes();
        for (b, xb) in x.iter().enumerate() {
            let (n, _) = shape_at(kind, *xb);
            for a in 0..nn {
                let want = if a == b { 1.0 } else { 0.0 };
                assert!(
                    (n[a] - want).abs() < 1e-15,
                    "{kind:?}: N_{a}(ξ_{b}) = {}",
                    n[a]
                );
            }
        }
        let monomials: Vec<[i32; 3]> = (0..3)
            .flat_map(|i| (0..3).flat_map(move |j| (0..3).map(move |k| [i, j, k])))
            .filter(|p| p.iter().sum::<i32>() <= 2)
            .filter(|p| (kind.ref_dim()..3).all(|k| p[k] == 0))
            .collect();
        for xi in inside(kind) {
            let (n, dn) = shape_at(kind, xi);
            for p in &monomials {
                let m = |y: &[f64; 3]| (0..3).map(|k| y[k].powi(p[k])).product::<f64>();
                let interp: f64 = (0..nn).map(|a| n[a] * m(&x[a])).sum();
                assert!(
                    (interp - m(&xi)).abs() < 1e-14,
                    "{kind:?}: ξ^{p:?} at {xi:?}"
                );
            }
            let h = 1e-6;
            for k in 0..kind.ref_dim() {
                let (mut xp, mut xm) = (xi, xi);
                xp[k] += h;
                xm[k] -= h;
                let (np, _) = shape_at(kind, xp);
                let (nm, _) = shape_at(kind, xm);
                for a in 0..nn {
                    let fd = (np[a] - nm[a]) / (2.0 * h);
                    assert!(
                        (fd - dn[a][k]).abs() < 1e-8,
                        "{kind:?} ∂N_{a}/∂ξ_{k}: {fd} vs {}",
                        dn[a][k]
                    );
                }
            }
        }
    }
}

fn factorial(n: u32) -> f64 {
    (1..=n).map(f64::from).product()
}

/// `∫ ξ^i η^j ζ^k` over the reference element.
fn exact(kind: ElementKind, p: [u32; 3]) -> f64 {
    if kind.is_simplex() && kind.ref_dim() > 1 {
        let d = kind.ref_dim() as u32;
        p.iter().map(|&e| factorial(e)).product::<f64>() / factorial(p.iter().sum::<u32>() + d)
    } else {
        let line = |e: u32| {
            if e % 2 == 1 {
                0.0
            } else {
                2.0 / (e as f64 + 1.0)
            }
        };
        (0..kind.ref_dim()).map(|k| line(p[k])).product()
    }
}

/// Worst error of `rule` on the monomials of (total or per-direction) degree `deg`.
fn worst(kind: ElementKind, rule: &[emcontact::fe::QuadPoint], deg: u32, total: bool) -> f64 {
    let d = kind.ref_dim();
    let mut w: f64 = 0.0;
    for i in 0..=deg {
        for j in 0..=deg {
            for k in 0..=deg {
                let p = [i, j, k];
                if (0..3).any(|m| m >= d && p[m] > 0) || (total && i + j + k > deg) {
                    continue;
                }
                let q: f64 = rule
                    .iter()
                    .map(|q| q.weight * (0..3).map(|m| q.xi[m].powi(p[m] as i32)).product::<f64>())
                    .sum();
                w = w.max((q - exact(kind, p)).abs());
            }
        }
    }
    w
}

/// The mass rules integrate `N_a N_b` exactly on an undistorted element
/// (total degree 4 on tri6, 5 on tet10; 5 per direction on the tensor kinds)
/// and the stiffness rules `∇N_a·∇N_b` (total degree 2; 5 per direction);
/// every weight positive, every point inside.
#[test]
fn quadrature_degrees() {
    for kind in QUADRATIC {
        let (mass, stiff) = (kind.quadrature(), kind.stiffness_quadrature());
        if kind.is_simplex() && kind.ref_dim() > 1 {
            let m = if kind.ref_dim() == 3 { 5 } else { 4 };
            assert!(worst(kind, mass, m, true) < 1e-15, "{kind:?} mass rule");
            assert!(
                worst(kind, mass, m + 1, true) > 1e-8,
                "{kind:?}: degree {m} is sharp"
            );
            assert!(
                worst(kind, stiff, 2, true) < 1e-15,
                "{kind:?} stiffness rule"
            );
        } else {
            assert!(worst(kind, mass, 5, false) < 1e-14, "{kind:?} mass rule");
            assert!(
                worst(kind, stiff, 5, false) < 1e-14,
                "{kind:?} stiffness rule"
            );
        }
        assert_rule_inside(kind, mass);
        assert_rule_inside(kind, stiff);
    }
}

/// Second-order faces: the corners are the first-order element's face (same
/// outward cycle), every further node is the face kind's node at the same
/// reference position (so the face's own shape functions interpolate the
/// element's trace), and each node lies on the face.
#[test]
fn faces_of_second_order_elements() {
    for kind in QUADRATIC.into_iter().filter(|k| k.ref_dim() >= 2) {
        let x = kind.reference_nodes();
        let lin = kind.linear().faces();
        assert_eq!(kind.faces().len(), lin.len(), "{kind:?}");
        for ((fk, nodes), (lk, lnodes)) in kind.faces().iter().zip(lin) {
            assert_eq!(fk.linear(), *lk);
            assert_eq!(fk.order(), 2);
            assert_eq!(nodes.len(), fk.n_nodes());
            assert_eq!(
                &nodes[..fk.n_corners()],
                *lnodes,
                "{kind:?}: corners of {nodes:?}"
            );
            // the face's map X(s) = Σ N_c(s) X_corner (first order) puts each
            // node at the place its face-kind reference coordinate says
            let corners: Vec<[f64; 3]> = lnodes.iter().map(|&a| x[a]).collect();
            for (k, s) in fk.reference_nodes().iter().enumerate() {
                let (n, _) = shape_at(*lk, *s);
                let mut p = [0.0; 3];
                for (c, xc) in corners.iter().enumerate() {
                    for i in 0..3 {
                        p[i] += n[c] * xc[i];
                    }
                }
                let d = sub(p, x[nodes[k]]);
                assert!(
                    dot(d, d) < 1e-28,
                    "{kind:?} face {nodes:?}: node {k} at {:?}, expected {p:?}",
                    x[nodes[k]]
                );
            }
        }
    }
}

/// Reversal keeps the node set, maps corners to corners and reverses the
/// orientation (edge direction in 2D, face normal in 3D); a second reversal
/// is the identity.
#[test]
fn reversal_flips_orientation() {
    for kind in [
        ElementKind::Line2,
        ElementKind::Line3,
        ElementKind::Tri3,
        ElementKind::Tri6,
        ElementKind::Quad4,
        ElementKind::Quad8,
        ElementKind::Quad9,
    ] {
        let p = kind.reversal().unwrap();
        assert_eq!(p.len(), kind.n_nodes());
        let twice: Vec<usize> = p.iter().map(|&k| p[k]).collect();
        assert_eq!(twice, (0..kind.n_nodes()).collect::<Vec<_>>(), "{kind:?}");
        let x = kind.reference_nodes();
        let y: Vec<[f64; 3]> = p.iter().map(|&k| x[k]).collect();
        let orient = |v: &[[f64; 3]]| {
            if kind.ref_dim() == 1 {
                v[1][0] - v[0][0]
            } else {
                cross(sub(v[1], v[0]), sub(v[2], v[0]))[2]
            }
        };
        assert!(orient(x) * orient(&y) < 0.0, "{kind:?}");
        // the reversed element interpolates the same geometry: node k of the
        // reversed element sits where its own reference node maps to
        for (k, yk) in y.iter().enumerate() {
            let (n, _) = shape_at(kind, x[k]);
            let mut q = [0.0; 3];
            for (a, ya) in y.iter().enumerate() {
                for i in 0..3 {
                    q[i] += n[a] * ya[i];
                }
            }
            assert!(dot(sub(q, *yk), sub(q, *yk)) < 1e-28, "{kind:?}");
        }
    }
    for kind in [ElementKind::Tet10, ElementKind::Hex8, ElementKind::Hex27] {
        assert!(kind.reversal().is_none());
    }
}

/// VTK's order is a permutation; for tet10, hex20 and hex27 it puts every
/// node where VTK's cell documentation puts it (edges 01 12 23 30 45 56 67
/// 74 04 15 26 37 for the hexahedra, 01 12 20 03 13 23 for tet10; face
/// centres ξ−, ξ+, η−, η+, ζ−, ζ+ then the centre for hex27).
#[test]
fn vtk_order_is_vtks() {
    for kind in ElementKind::ALL {
        let mut p = kind.vtk_order().to_vec();
        assert_eq!(p.len(), kind.n_nodes());
        p.sort_unstable();
        assert_eq!(p, (0..kind.n_nodes()).collect::<Vec<_>>(), "{kind:?}");
    }
    let mid = |x: &[[f64; 3]], a: usize, b: usize| -> [f64; 3] {
        std::array::from_fn(|i| 0.5 * (x[a][i] + x[b][i]))
    };
    let check = |kind: ElementKind, edges: &[(usize, usize)], first: usize| {
        let x = kind.reference_nodes();
        let o = kind.vtk_order();
        for (k, &(a, b)) in edges.iter().enumerate() {
            assert_eq!(
                x[o[first + k]],
                mid(x, o[a], o[b]),
                "{kind:?} VTK node {}",
                first + k
            );
        }
    };
    check(
        ElementKind::Tet10,
        &[(0, 1), (1, 2), (2, 0), (0, 3), (1, 3), (2, 3)],
        4,
    );
    let hex_edges = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 0),
        (4, 5),
        (5, 6),
        (6, 7),
        (7, 4),
        (0, 4),
        (1, 5),
        (2, 6),
        (3, 7),
    ];
    check(ElementKind::Hex20, &hex_edges, 8);
    check(ElementKind::Hex27, &hex_edges, 8);
    let x = ElementKind::Hex27.reference_nodes();
    let o = ElementKind::Hex27.vtk_order();
    let centres = [
        [-1.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, -1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, -1.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 0.0],
    ];
    for (k, c) in centres.iter().enumerate() {
        assert_eq!(x[o[20 + k]], *c, "hex27 VTK node {}", 20 + k);
    }
}
