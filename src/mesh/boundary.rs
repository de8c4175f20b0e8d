//! Boundary surfaces: outward orientation of surface groups and extraction of
//! a body's boundary.
use super::geometry::{coords, cross, dot, faces, sub, V3};
use super::{Mesh, MeshError};
use crate::fe::ElementKind;
use std::collections::HashMap;

impl Mesh {
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

impl Mesh {
    /// Adds the group `name` of the boundary faces of body group `body` (faces
    /// used by exactly one of its elements), oriented outward (the conventions
    /// of [`Mesh::orient_surfaces`]), in element order. Use it for contact
    /// surfaces when a mesh file has no physical surface groups. Returns the
    /// number of faces.
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
        let mut count: HashMap<[usize; 4], u32> = HashMap::new();
        for e in &g.elements {
            for f in faces(e.kind) {
                *count
                    .entry(face_key(f.iter().map(|&k| e.nodes()[k])))
                    .or_insert(0) += 1;
            }
        }
        let mut out = Vec::new();
        for e in &g.elements {
            for f in faces(e.kind) {
                if count[&face_key(f.iter().map(|&k| e.nodes()[k]))] == 1 {
                    let kind = match f.len() {
                        2 => ElementKind::Line2,
                        3 => ElementKind::Tri3,
                        _ => ElementKind::Quad4,
                    };
                    let mut nodes = [0usize; 4];
                    for (n, &k) in nodes.iter_mut().zip(f.iter()) {
                        *n = e.nodes()[k];
                    }
                    out.push(super::Element::new(kind, &nodes[..f.len()]));
                }
            }
        }
        let n = out.len();
        self.groups.push(super::Group {
            name: name.to_string(),
            dim: self.dim - 1,
            elements: out,
        });
        Ok(n)
    }
}
