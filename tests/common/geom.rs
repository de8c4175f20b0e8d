//! Small geometry for the mesh and contact tests: vectors as `[f64; 3]`, the
//! faces of a body element, centroids, area normals and the boundary flux
//! `∮ x·n dA` (= D × volume for a closed, outward-oriented boundary).

use emcontact::fe::ElementKind;
use emcontact::mesh::Mesh;

pub type V = [f64; 3];

pub fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
pub fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
pub fn scale(a: V, c: f64) -> V {
    [a[0] * c, a[1] * c, a[2] * c]
}
pub fn dot(a: V, b: V) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
pub fn cross(a: V, b: V) -> V {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
pub fn norm(a: V) -> f64 {
    dot(a, a).sqrt()
}

/// Local faces of a body element (any orientation: only the node sets matter).
pub fn local_faces(kind: ElementKind) -> Vec<Vec<usize>> {
    match kind {
        ElementKind::Tri3 => vec![vec![0, 1], vec![1, 2], vec![2, 0]],
        ElementKind::Quad4 => vec![vec![0, 1], vec![1, 2], vec![2, 3], vec![3, 0]],
        ElementKind::Tet4 => vec![vec![0, 1, 2], vec![0, 1, 3], vec![0, 2, 3], vec![1, 2, 3]],
        ElementKind::Hex8 => vec![
            vec![0, 1, 2, 3],
            vec![4, 5, 6, 7],
            vec![0, 1, 5, 4],
            vec![1, 2, 6, 5],
            vec![2, 3, 7, 6],
            vec![3, 0, 4, 7],
        ],
        ElementKind::Line2 => vec![],
    }
}

pub fn centroid(m: &Mesh, nodes: &[usize]) -> V {
    let mut c = [0.0; 3];
    for &a in nodes {
        for (ck, xk) in c.iter_mut().zip(m.nodes[a]) {
            *ck += xk / nodes.len() as f64;
        }
    }
    c
}

/// Outward-normal vector of a face scaled by its area (flat faces): 2D edge
/// `(t_y, −t_x)`, 3D `½ (x1−x0)×(x2−x0)` for tri3, `½ d1×d2` (diagonals) for quad4.
pub fn area_normal(m: &Mesh, f: &[usize]) -> V {
    let x: Vec<V> = f.iter().map(|&a| m.nodes[a]).collect();
    match x.len() {
        2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        3 => scale(cross(sub(x[1], x[0]), sub(x[2], x[0])), 0.5),
        _ => scale(cross(sub(x[2], x[0]), sub(x[3], x[1])), 0.5),
    }
}

/// ∫ x·n dA over one face: exact for line2/tri3 (flat: x·n constant) and, with
/// 2×2 Gauss points, for bilinear quad4 faces (the integrand is biquadratic).
pub fn face_flux(m: &Mesh, f: &[usize]) -> f64 {
    if f.len() < 4 {
        return dot(m.nodes[f[0]], area_normal(m, f));
    }
    let x: Vec<V> = f.iter().map(|&a| m.nodes[a]).collect();
    let g = 1.0 / 3f64.sqrt();
    let r = [[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]];
    let mut s = 0.0;
    for xi in [-g, g] {
        for eta in [-g, g] {
            let (mut p, mut t1, mut t2) = ([0.0; 3], [0.0; 3], [0.0; 3]);
            for (rk, xk) in r.iter().zip(&x) {
                for q in 0..3 {
                    p[q] += 0.25 * (1.0 + rk[0] * xi) * (1.0 + rk[1] * eta) * xk[q];
                    t1[q] += 0.25 * rk[0] * (1.0 + rk[1] * eta) * xk[q];
                    t2[q] += 0.25 * rk[1] * (1.0 + rk[0] * xi) * xk[q];
                }
            }
            s += dot(p, cross(t1, t2));
        }
    }
    s
}

/// Σ of `face_flux` over the faces of `groups`.
pub fn flux(m: &Mesh, groups: &[&str]) -> f64 {
    groups
        .iter()
        .flat_map(|g| &m.group(g).unwrap().elements)
        .map(|e| face_flux(m, e.nodes()))
        .sum()
}
