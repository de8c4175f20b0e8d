//! Built-in structured mesh generators. Each returns a `Mesh` with the volume
//! group `<name>` and its boundary surface groups (element kinds follow `fe`).
//!
//! Conventions (checked by `tests/cli/mesh_generate.rs`): every body element is
//! positively oriented in Gmsh node order; every boundary face is oriented
//! outward — in 2D the line2 edges run counter-clockwise around the body, so the
//! outward normal is `(t_y, −t_x)` for edge direction `t`; in 3D
//! `(x1 − x0) × (x2 − x0)` points out of the body.
use super::{Element, Group, Mesh, MeshError};
use crate::fe::ElementKind;
use std::f64::consts::PI;

mod ball;
mod round;
pub use ball::ball;
pub use round::{disk, ring};

fn invalid(msg: String) -> MeshError {
    MeshError::Invalid(msg)
}

/// Coordinate `i` of `n` divisions of `[lo, hi]` (exact at both ends).
fn lerp(lo: f64, hi: f64, i: usize, n: usize) -> f64 {
    if i == n {
        hi
    } else {
        lo + (hi - lo) * (i as f64 / n as f64)
    }
}

fn group(name: String, dim: usize, elements: Vec<Element>) -> Group {
    Group {
        name,
        dim,
        elements,
    }
}

/// Box `[min, max]` with `divisions` per axis. 2D (`min.len() == 2`): quad4 or
/// tri3 (two per cell, split along the (0,0)–(1,1) diagonal), surfaces
/// `<name>_xmin/_xmax/_ymin/_ymax` (line2). 3D: hex8 or tet4 (six per cell, the
/// Kuhn/Freudenthal split along the cell's main diagonal — one tet per
/// permutation σ of the axes, with vertices 0, e_σ1, e_σ1 + e_σ2, 1 —
/// identical in every cell so neighbouring cells share faces; H. W. Kuhn,
/// IBM J. Res. Dev. 4 (1960) 518–524; H. Freudenthal, Ann. Math. 43 (1942)
/// 580–582), surfaces `<name>_xmin … <name>_zmax` (quad4 for hex8, tri3 for
/// tet4). Nodes are numbered x fastest, then y, z.
pub fn box_mesh(
    name: &str,
    min: &[f64],
    max: &[f64],
    divisions: &[usize],
    element: ElementKind,
) -> Result<Mesh, MeshError> {
    let d = min.len();
    if d != 2 && d != 3 {
        return Err(invalid(format!(
            "box \"{name}\": min has {d} coordinates (expected 2 or 3)"
        )));
    }
    if max.len() != d || divisions.len() != d {
        return Err(invalid(format!(
            "box \"{name}\": min, max and divisions must have the same length ({}, {}, {})",
            d,
            max.len(),
            divisions.len()
        )));
    }
    for k in 0..d {
        if !(min[k].is_finite() && max[k].is_finite() && max[k] > min[k]) {
            return Err(invalid(format!(
                "box \"{name}\": max[{k}] = {} must exceed min[{k}] = {}",
                max[k], min[k]
            )));
        }
        if divisions[k] == 0 {
            return Err(invalid(format!("box \"{name}\": divisions[{k}] is 0")));
        }
    }
    if element.ref_dim() != d {
        return Err(invalid(format!(
            "box \"{name}\": a {d}D box cannot be meshed with {} elements",
            element.name()
        )));
    }
    let total = divisions
        .iter()
        .try_fold(1usize, |acc, &n| acc.checked_mul(n + 1))
        .filter(|&t| t <= 1 << 32);
    if total.is_none() {
        return Err(invalid(format!(
            "box \"{name}\": too many divisions {divisions:?}"
        )));
    }
    Ok(if d == 2 {
        box2(name, min, max, [divisions[0], divisions[1]], element)
    } else {
        box3(
            name,
            min,
            max,
            [divisions[0], divisions[1], divisions[2]],
            element,
        )
    })
}

fn box2(name: &str, min: &[f64], max: &[f64], n: [usize; 2], kind: ElementKind) -> Mesh {
    let id = |i: usize, j: usize| i + (n[0] + 1) * j;
    let mut nodes = Vec::with_capacity((n[0] + 1) * (n[1] + 1));
    for j in 0..=n[1] {
        for i in 0..=n[0] {
            nodes.push([
                lerp(min[0], max[0], i, n[0]),
                lerp(min[1], max[1], j, n[1]),
                0.0,
            ]);
        }
    }
    let mut body = Vec::new();
    for j in 0..n[1] {
        for i in 0..n[0] {
            let (a, b, c, e) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            if kind == ElementKind::Quad4 {
                body.push(Element::new(kind, &[a, b, c, e]));
            } else {
                body.push(Element::new(kind, &[a, b, c]));
                body.push(Element::new(kind, &[a, c, e]));
            }
        }
    }
    let line = |a, b| Element::new(ElementKind::Line2, &[a, b]);
    let groups = vec![
        group(name.to_string(), 2, body),
        group(
            format!("{name}_xmin"),
            1,
            (0..n[1]).map(|j| line(id(0, j + 1), id(0, j))).collect(),
        ),
        group(
            format!("{name}_xmax"),
            1,
            (0..n[1])
                .map(|j| line(id(n[0], j), id(n[0], j + 1)))
                .collect(),
        ),
        group(
            format!("{name}_ymin"),
            1,
            (0..n[0]).map(|i| line(id(i, 0), id(i + 1, 0))).collect(),
        ),
        group(
            format!("{name}_ymax"),
            1,
            (0..n[0])
                .map(|i| line(id(i + 1, n[1]), id(i, n[1])))
                .collect(),
        ),
    ];
    Mesh {
        dim: 2,
        nodes,
        groups,
    }
}

/// The six permutations of the axes with their parity (Kuhn simplices).
const PERMS: [([usize; 3], bool); 6] = [
    ([0, 1, 2], true),
    ([1, 2, 0], true),
    ([2, 0, 1], true),
    ([0, 2, 1], false),
    ([2, 1, 0], false),
    ([1, 0, 2], false),
];

fn box3(name: &str, min: &[f64], max: &[f64], n: [usize; 3], kind: ElementKind) -> Mesh {
    let id = |p: [usize; 3]| p[0] + (n[0] + 1) * (p[1] + (n[1] + 1) * p[2]);
    let mut nodes = Vec::with_capacity((n[0] + 1) * (n[1] + 1) * (n[2] + 1));
    for k in 0..=n[2] {
        for j in 0..=n[1] {
            for i in 0..=n[0] {
                nodes.push([
                    lerp(min[0], max[0], i, n[0]),
                    lerp(min[1], max[1], j, n[1]),
                    lerp(min[2], max[2], k, n[2]),
                ]);
            }
        }
    }
    let mut body = Vec::new();
    for k in 0..n[2] {
        for j in 0..n[1] {
            for i in 0..n[0] {
                let v = |a: usize, b: usize, c: usize| id([i + a, j + b, k + c]);
                if kind == ElementKind::Hex8 {
                    let h = [
                        v(0, 0, 0),
                        v(1, 0, 0),
                        v(1, 1, 0),
                        v(0, 1, 0),
                        v(0, 0, 1),
                        v(1, 0, 1),
                        v(1, 1, 1),
                        v(0, 1, 1),
                    ];
                    body.push(Element::new(kind, &h));
                } else {
                    // Path 000 → e_p0 → e_p0 + e_p1 → 111; det = parity of p.
                    for (p, even) in PERMS {
                        let mut c1 = [0usize; 3];
                        c1[p[0]] = 1;
                        let mut c2 = c1;
                        c2[p[1]] = 1;
                        let (a, b, c, e) = (
                            v(0, 0, 0),
                            v(c1[0], c1[1], c1[2]),
                            v(c2[0], c2[1], c2[2]),
                            v(1, 1, 1),
                        );
                        let t = if even { [a, b, c, e] } else { [a, c, b, e] };
                        body.push(Element::new(kind, &t));
                    }
                }
            }
        }
    }
    let mut groups = vec![group(name.to_string(), 3, body)];
    let face_kind = if kind == ElementKind::Hex8 {
        ElementKind::Quad4
    } else {
        ElementKind::Tri3
    };
    for axis in 0..3 {
        // (b, c) cyclic after `axis`, so e_b × e_c = +e_axis.
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        for (side, at) in [("min", 0), ("max", n[axis])] {
            let mut faces = Vec::new();
            for v in 0..n[c] {
                for u in 0..n[b] {
                    let p = |du: usize, dv: usize| {
                        let mut q = [0usize; 3];
                        q[axis] = at;
                        q[b] = u + du;
                        q[c] = v + dv;
                        id(q)
                    };
                    let (p00, p10, p11, p01) = (p(0, 0), p(1, 0), p(1, 1), p(0, 1));
                    // Listed with normal +e_axis; reversed on the min side.
                    let mut polys: Vec<Vec<usize>> = if face_kind == ElementKind::Quad4 {
                        vec![vec![p00, p10, p11, p01]]
                    } else {
                        vec![vec![p00, p10, p11], vec![p00, p11, p01]]
                    };
                    for f in polys.iter_mut() {
                        if side == "min" {
                            f[1..].reverse();
                        }
                        faces.push(Element::new(face_kind, f));
                    }
                }
            }
            let axis_name = ["x", "y", "z"][axis];
            groups.push(group(format!("{name}_{axis_name}{side}"), 2, faces));
        }
    }
    Mesh {
        dim: 3,
        nodes,
        groups,
    }
}

/// Polar point `center + r (cos θ, sin θ)`.
fn polar(center: [f64; 2], r: f64, theta: f64) -> [f64; 3] {
    [
        center[0] + r * theta.cos(),
        center[1] + r * theta.sin(),
        0.0,
    ]
}

/// Exact area of the ring mesh (straight-sided quads between polygons).
pub fn ring_mesh_area(radius: f64, thickness: f64, around: usize) -> f64 {
    let (ro, ri) = (radius + 0.5 * thickness, radius - 0.5 * thickness);
    0.5 * around as f64 * (ro * ro - ri * ri) * (2.0 * PI / around as f64).sin()
}

/// Exact area of the disk mesh: the inscribed `4·divisions`-gon.
pub fn disk_mesh_area(radius: f64, divisions: usize) -> f64 {
    2.0 * divisions as f64 * radius * radius * (PI / (2.0 * divisions as f64)).sin()
}
