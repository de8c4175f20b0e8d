//! Element validity (positive orientation) and outward orientation of surfaces.
use super::geometry::{coords, cross, det3, dot, faces, sub, HEX_REF, QUAD_REF, V3};
use super::{Mesh, MeshError};
use crate::fe::ElementKind;
use std::collections::HashMap;

/// Relative size below which a corner Jacobian counts as degenerate:
/// `det / h^D < DEGENERATE`, `h` the largest node distance of the element.
const DEGENERATE: f64 = 1e-10;

/// Smallest corner Jacobian determinant of a body element, scaled by `h^D`
/// (`h` = largest node-to-node distance) and the corner where it occurs.
/// tri3/tet4: the constant `(x1−x0)×(x2−x0)` / `det[x1−x0, x2−x0, x3−x0]`;
/// quad4: the cross product of the two edges at each corner; hex8: the triple
/// product of the three edges at each corner (edges taken in the +ξ, +η, +ζ
/// directions, so a positively oriented element has all of them positive).
fn min_corner_jacobian(kind: ElementKind, x: &[V3]) -> (f64, usize) {
    let mut h2: f64 = 0.0;
    for a in x {
        for b in x {
            let d = sub(*a, *b);
            h2 = h2.max(dot(d, d));
        }
    }
    let h = h2.sqrt().max(f64::MIN_POSITIVE);
    let z = |v: V3| v[2];
    match kind {
        ElementKind::Tri3 => (z(cross(sub(x[1], x[0]), sub(x[2], x[0]))) / (h * h), 0),
        ElementKind::Tet4 => (
            det3(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0])) / (h * h * h),
            0,
        ),
        ElementKind::Quad4 => {
            let mut best = (f64::INFINITY, 0);
            for (i, r) in QUAD_REF.iter().enumerate() {
                let nb = |axis: usize| {
                    let j = QUAD_REF
                        .iter()
                        .position(|s| s[axis] == -r[axis] && s[1 - axis] == r[1 - axis]);
                    let d = sub(x[j.unwrap_or(i)], x[i]);
                    [-r[axis] * d[0], -r[axis] * d[1], -r[axis] * d[2]]
                };
                let d = z(cross(nb(0), nb(1))) / (h * h);
                if d < best.0 {
                    best = (d, i);
                }
            }
            best
        }
        ElementKind::Hex8 => {
            let mut best = (f64::INFINITY, 0);
            for (i, r) in HEX_REF.iter().enumerate() {
                let nb = |axis: usize| {
                    let j = HEX_REF.iter().position(|s| {
                        (0..3).all(|k| {
                            if k == axis {
                                s[k] == -r[k]
                            } else {
                                s[k] == r[k]
                            }
                        })
                    });
                    let d = sub(x[j.unwrap_or(i)], x[i]);
                    [-r[axis] * d[0], -r[axis] * d[1], -r[axis] * d[2]]
                };
                let d = det3(nb(0), nb(1), nb(2)) / (h * h * h);
                if d < best.0 {
                    best = (d, i);
                }
            }
            best
        }
        ElementKind::Line2 => (1.0, 0),
    }
}

impl Mesh {
    /// Checks every element of every group of the model's dimension: positive
    /// Jacobian at every corner (tri3/tet4: signed area/volume; quad4/hex8: the
    /// corner Jacobians, which for quad4 bound the Jacobian everywhere). A
    /// negative or degenerate (`|det| < 1e-10 h^D`) element is an error naming
    /// the group, the element's index in it and the corner.
    pub fn check_elements(&self) -> Result<(), MeshError> {
        for g in self.groups.iter().filter(|g| g.dim == self.dim) {
            for (i, e) in g.elements.iter().enumerate() {
                if e.kind.ref_dim() != self.dim {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} is a {} in a {}D body group",
                        g.name,
                        e.kind.name(),
                        self.dim
                    )));
                }
                if let Some(&a) = e.nodes().iter().find(|&&a| a >= self.nodes.len()) {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} references node {a}, but the mesh has {} nodes",
                        g.name,
                        self.nodes.len()
                    )));
                }
                let (x, n) = coords(e, &self.nodes);
                let (det, corner) = min_corner_jacobian(e.kind, &x[..n]);
                if det.is_nan() || det.abs() < DEGENERATE {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} ({}, nodes {:?}) is degenerate \
                         (relative Jacobian {det:.3e} at corner {corner})",
                        g.name,
                        e.kind.name(),
                        e.nodes()
                    )));
                }
                if det < 0.0 {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} ({}, nodes {:?}) is inverted \
                         (negative Jacobian {det:.3e} relative at corner {corner})",
                        g.name,
                        e.kind.name(),
                        e.nodes()
                    )));
                }
            }
        }
        Ok(())
    }

    /// Orients every face of every surface group (dimension `dim − 1`) outward
    /// from the single body element it bounds: in 2D the edge direction `t` has
    /// outward normal `(t_y, −t_x)`; in 3D `(x1 − x0) × (x2 − x0)` points out.
    /// Faces bounding no body element or two of them are left as they are.
    /// Returns the number of faces reversed.
    pub fn orient_surfaces(&mut self) -> Result<usize, MeshError> {
        let n_nodes = self.nodes.len();
        let dim = self.dim;
        let out_of_range = |name: &str| {
            MeshError::Invalid(format!(
                "group \"{name}\" references a node beyond the {n_nodes} nodes"
            ))
        };
        // Sorted key of every surface face → (adjacent body elements, centroid of one).
        let mut adj: HashMap<[usize; 4], (u32, V3)> = HashMap::new();
        for g in self.groups.iter().filter(|g| g.dim + 1 == dim) {
            for e in &g.elements {
                if e.nodes().iter().any(|&a| a >= n_nodes) {
                    return Err(out_of_range(&g.name));
                }
                adj.insert(face_key(e.nodes().iter().copied()), (0, [0.0; 3]));
            }
        }
        if adj.is_empty() {
            return Ok(0);
        }
        for g in self.groups.iter().filter(|g| g.dim == dim) {
            for e in &g.elements {
                if e.nodes().iter().any(|&a| a >= n_nodes) {
                    return Err(out_of_range(&g.name));
                }
                for f in faces(e.kind) {
                    let key = face_key(f.iter().map(|&k| e.nodes()[k]));
                    if let Some(slot) = adj.get_mut(&key) {
                        let (x, n) = coords(e, &self.nodes);
                        *slot = (slot.0 + 1, centroid(&x[..n]));
                    }
                }
            }
        }
        let mut flipped = 0;
        for g in self.groups.iter_mut().filter(|g| g.dim + 1 == dim) {
            for e in &mut g.elements {
                let Some(&(1, c)) = adj.get(&face_key(e.nodes().iter().copied())) else {
                    continue;
                };
                let (x, n) = coords(e, &self.nodes);
                let normal = face_normal(&x[..n]);
                if dot(normal, sub(centroid(&x[..n]), c)) < 0.0 {
                    let v = e.nodes_mut();
                    v[1..].reverse();
                    if v.len() == 2 {
                        v.swap(0, 1);
                    }
                    flipped += 1;
                }
            }
        }
        Ok(flipped)
    }
}

/// Sorted node indices of a face, padded with `usize::MAX`.
fn face_key(nodes: impl Iterator<Item = usize>) -> [usize; 4] {
    let mut k = [usize::MAX; 4];
    for (s, a) in k.iter_mut().zip(nodes) {
        *s = a;
    }
    k.sort_unstable();
    k
}

fn centroid(x: &[V3]) -> V3 {
    let mut c = [0.0; 3];
    for p in x {
        for k in 0..3 {
            c[k] += p[k] / x.len() as f64;
        }
    }
    c
}

/// Area-weighted normal of a face: 2D edge `(t_y, −t_x)`; 3D tri `(x1−x0)×(x2−x0)`;
/// 3D quad `(x2−x0)×(x3−x1)` (the diagonals; equals the triangle rule for planar quads).
pub(super) fn face_normal(x: &[V3]) -> V3 {
    match x.len() {
        2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        3 => cross(sub(x[1], x[0]), sub(x[2], x[0])),
        _ => cross(sub(x[2], x[0]), sub(x[3], x[1])),
    }
}
