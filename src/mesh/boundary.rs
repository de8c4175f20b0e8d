//! Boundary surfaces: outward orientation of surface groups and extraction of
//! a body's boundary. Faces are matched by their corner nodes, so a
//! second-order face (line3, tri6, quad8, quad9) matches the face of the
//! second-order body element it bounds.
use super::geometry::{coords, cross, dot, sub, V3};
use super::{Element, Group, Mesh, MeshError};
use crate::fe::ElementKind;
use std::collections::HashMap;

impl Mesh {
    /// Orients every face of every surface group (dimension `dim − 1`) outward
    /// from the single body element it bounds: in 2D the edge direction `t` has
    /// outward normal `(t_y, −t_x)`; in 3D `(x1 − x0) × (x2 − x0)` points out.
    /// A face is reversed with [`ElementKind::reversal`](crate::fe::ElementKind::reversal).
    /// Faces bounding no body element or two of them are left as they are.
    /// Returns the number of faces reversed.
    pub fn orient_surfaces(&mut self) -> Result<usize, MeshError> {
        let n_nodes = self.nodes.len();
        let dim = self.dim;
        let prefix = self.file_prefix();
        let out_of_range = |name: &str| {
            MeshError::Invalid(format!(
                "{prefix}group \"{name}\" references a node beyond the {n_nodes} nodes"
            ))
        };
        // Corner key of every surface face → (adjacent body elements, centroid of one).
        let mut adj: HashMap<[usize; 4], (u32, V3)> = HashMap::new();
        for g in self.groups.iter().filter(|g| g.dim + 1 == dim) {
            for e in &g.elements {
                if e.nodes().iter().any(|&a| a >= n_nodes) {
                    return Err(out_of_range(&g.name));
                }
                adj.insert(face_key(e), (0, [0.0; 3]));
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
                for (fk, f) in e.kind.faces() {
                    let key = corner_key(f.iter().map(|&k| e.nodes()[k]), fk.n_corners());
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
                let Some(&(1, c)) = adj.get(&face_key(e)) else {
                    continue;
                };
                let (x, n) = coords(e, &self.nodes);
                let normal = face_normal(&x[..e.kind.n_corners()]);
                if dot(normal, sub(centroid(&x[..n]), c)) < 0.0 {
                    if let Some(p) = e.kind.reversal() {
                        let old: Vec<usize> = e.nodes().to_vec();
                        for (v, &k) in e.nodes_mut().iter_mut().zip(p) {
                            *v = old[k];
                        }
                        flipped += 1;
                    }
                }
            }
        }
        Ok(flipped)
    }
}

/// Sorted corner node indices of a face element, padded with `usize::MAX`.
fn face_key(e: &Element) -> [usize; 4] {
    corner_key(e.nodes().iter().copied(), e.kind.n_corners())
}

/// Sorted indices of the first `corners` nodes (a face's corners come first),
/// padded with `usize::MAX`.
fn corner_key(nodes: impl Iterator<Item = usize>, corners: usize) -> [usize; 4] {
    let mut k = [usize::MAX; 4];
    for (s, a) in k.iter_mut().zip(nodes.take(corners)) {
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

/// Area-weighted normal of a face from its corners: 2D edge `(t_y, −t_x)`;
/// 3D tri `(x1−x0)×(x2−x0)`; 3D quad `(x2−x0)×(x3−x1)` (the diagonals; equals
/// the triangle rule for planar quads).
pub(super) fn face_normal(corners: &[V3]) -> V3 {
    let x = corners;
    match x.len() {
        2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        3 => cross(sub(x[1], x[0]), sub(x[2], x[0])),
        _ => cross(sub(x[2], x[0]), sub(x[3], x[1])),
    }
}

impl Mesh {
    /// Adds the group `name` of the boundary faces of body group `body` (faces
    /// used by exactly one of its elements), oriented outward (the conventions
    /// of [`Mesh::orient_surfaces`]), in element order; second-order bodies give
    /// second-order faces. Use it for contact surfaces when a mesh file has no
    /// physical surface groups. Returns the number of faces.
    pub fn add_boundary_group(&mut self, body: &str, name: &str) -> Result<usize, MeshError> {
        if self.group(name).is_some() {
            return Err(MeshError::Invalid(format!(
                "group name \"{name}\" is already taken"
            )));
        }
        let g = self
            .group(body)
            .ok_or_else(|| MeshError::Invalid(format!("no group \"{body}\"")))?;
        if g.dim != self.dim {
            return Err(MeshError::Invalid(format!(
                "group \"{body}\" has dimension {} in a {}D mesh: not a body",
                g.dim, self.dim
            )));
        }
        let key_of = |e: &Element, fk: ElementKind, f: &[usize]| {
            corner_key(f.iter().map(|&k| e.nodes()[k]), fk.n_corners())
        };
        let mut count: HashMap<[usize; 4], u32> = HashMap::new();
        for e in &g.elements {
            for &(fk, f) in e.kind.faces() {
                *count.entry(key_of(e, fk, f)).or_insert(0) += 1;
            }
        }
        let mut out = Vec::new();
        for e in &g.elements {
            for &(kind, f) in e.kind.faces() {
                if count[&key_of(e, kind, f)] == 1 {
                    let mut nodes = [0usize; 9];
                    for (n, &k) in nodes.iter_mut().zip(f.iter()) {
                        *n = e.nodes()[k];
                    }
                    out.push(Element::new(kind, &nodes[..f.len()]));
                }
            }
        }
        let n = out.len();
        self.groups
            .push(Group::new(name.to_string(), self.dim - 1, out));
        Ok(n)
    }
}
