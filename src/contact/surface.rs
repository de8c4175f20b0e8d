//! Surface setup of one contact pair: the slave nodes with their tributary
//! areas `w j` (Love & Laursen 2003 §3.2: the contact "quadrature points"
//! are the slave nodes), the master side (faces of a deformable surface, or
//! a fixed rigid plane), the master surface's rim, and the characteristic
//! face size `h` that scales the pair's tolerances.

use super::geometry::vec3::{cross, norm, sub};
use crate::fe::ElementKind;
use crate::mesh::{Element, Mesh};
use crate::model::{ContactSpec, MasterSpec};
use std::collections::{HashMap, HashSet};

/// Why a contact pair could not be set up.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ContactSetupError {
    #[error("contact surface \"{0}\" has no elements")]
    Empty(String),
    #[error("contact surface \"{group}\": {kind} elements cannot be contact faces in {dim}D")]
    WrongFace {
        group: String,
        kind: &'static str,
        dim: usize,
    },
}

/// The master side, resolved.
#[derive(Debug, Clone)]
pub enum Master {
    /// Faces of a deformable body's boundary, outward normals toward the slaves.
    Faces(Vec<Element>),
    /// A fixed rigid plane: a point, the unit outward normal (toward the
    /// slaves) and an orthonormal tangent basis (`t_2 = ν × t_1` in 3D).
    Plane {
        point: [f64; 3],
        normal: [f64; 3],
        tangents: [[f64; 3]; 2],
    },
}

/// The geometry of a pair that does not change during a run.
#[derive(Debug, Clone)]
pub struct Surface {
    pub dim: usize,
    /// Slave nodes (mesh indices) and their tributary areas `w j` (reference
    /// configuration).
    pub slaves: Vec<usize>,
    pub weights: Vec<f64>,
    pub master: Master,
    /// Characteristic face size `h` (the smaller of the mean slave and the
    /// mean master face size).
    pub h: f64,
    /// The rim of the master surface: edges (3D, node pairs in increasing
    /// order) that belong to one master face only, and the nodes on such an
    /// edge (2D: segment ends used once). Beyond the rim the master body is
    /// bounded by faces that are not part of the contact surface.
    pub rim_edges: HashSet<(usize, usize)>,
    pub rim_nodes: Vec<bool>,
}

/// Unnormalized outward normal of a face (2D segment: `(t_y, −t_x)`).
pub fn face_normal_raw(kind: ElementKind, x: &[[f64; 3]]) -> [f64; 3] {
    match kind {
        ElementKind::Line2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        ElementKind::Tri3 => cross(sub(x[1], x[0]), sub(x[2], x[0])),
        _ => cross(sub(x[2], x[0]), sub(x[3], x[1])),
    }
}

/// Tributary areas `∫ N_a dA` of a face's nodes (2×2 Gauss on quad4).
pub fn face_weights(kind: ElementKind, x: &[[f64; 3]], out: &mut [f64]) {
    match kind {
        ElementKind::Line2 => {
            let l = norm(sub(x[1], x[0]));
            out[..2].iter_mut().for_each(|w| *w = l / 2.0);
        }
        ElementKind::Tri3 => {
            let a = norm(cross(sub(x[1], x[0]), sub(x[2], x[0]))) / 2.0;
            out[..3].iter_mut().for_each(|w| *w = a / 3.0);
        }
        _ => {
            let g = 1.0 / 3f64.sqrt();
            out[..4].iter_mut().for_each(|w| *w = 0.0);
            for (xi, eta) in [(-g, -g), (g, -g), (g, g), (-g, g)] {
                let n = [
                    0.25 * (1.0 - xi) * (1.0 - eta),
                    0.25 * (1.0 + xi) * (1.0 - eta),
                    0.25 * (1.0 + xi) * (1.0 + eta),
                    0.25 * (1.0 - xi) * (1.0 + eta),
                ];
                let dxi = [-(1.0 - eta), 1.0 - eta, 1.0 + eta, -(1.0 + eta)];
                let deta = [-(1.0 - xi), -(1.0 + xi), 1.0 + xi, 1.0 - xi];
                let mut t1 = [0.0; 3];
                let mut t2 = [0.0; 3];
                for a in 0..4 {
                    for i in 0..3 {
                        t1[i] += 0.25 * dxi[a] * x[a][i];
                        t2[i] += 0.25 * deta[a] * x[a][i];
                    }
                }
                let j = norm(cross(t1, t2));
                for a in 0..4 {
                    out[a] += n[a] * j;
                }
            }
        }
    }
}

/// The rim of a master surface (see [`Surface::rim_edges`]).
fn rim(faces: &[Element], dim: usize, n_nodes: usize) -> (HashSet<(usize, usize)>, Vec<bool>) {
    let mut nodes = vec![false; n_nodes];
    let mut edges = HashSet::new();
    if dim == 2 {
        let mut uses = vec![0u32; n_nodes];
        faces
            .iter()
            .flat_map(|e| e.nodes())
            .for_each(|&a| uses[a] += 1);
        for (a, &u) in uses.iter().enumerate() {
            nodes[a] = u == 1;
        }
        return (edges, nodes);
    }
    let mut count: HashMap<(usize, usize), u32> = HashMap::new();
    for e in faces {
        let n = e.nodes();
        for k in 0..n.len() {
            let (a, b) = (n[k], n[(k + 1) % n.len()]);
            *count.entry((a.min(b), a.max(b))).or_default() += 1;
        }
    }
    for (&(a, b), &c) in &count {
        if c == 1 {
            edges.insert((a, b));
            nodes[a] = true;
            nodes[b] = true;
        }
    }
    (edges, nodes)
}

/// The faces of group `name`, checked to be contact faces of dimension `dim`,
/// and their mean size (length in 2D, square root of the area in 3D).
fn faces_of(mesh: &Mesh, name: &str, dim: usize) -> Result<(Vec<Element>, f64), ContactSetupError> {
    let group = mesh
        .group(name)
        .filter(|g| !g.elements.is_empty())
        .ok_or_else(|| ContactSetupError::Empty(name.to_string()))?;
    let mut size = 0.0;
    let (mut w, mut xs) = ([0.0; 4], [[0.0; 3]; 4]);
    for e in &group.elements {
        let ok = if dim == 2 {
            e.kind == ElementKind::Line2
        } else {
            matches!(e.kind, ElementKind::Tri3 | ElementKind::Quad4)
        };
        if !ok {
            return Err(ContactSetupError::WrongFace {
                group: name.to_string(),
                kind: e.kind.name(),
                dim,
            });
        }
        let n = e.nodes().len();
        for (k, &a) in e.nodes().iter().enumerate() {
            xs[k] = mesh.nodes[a];
        }
        face_weights(e.kind, &xs[..n], &mut w);
        let area: f64 = w[..n].iter().sum();
        size += if dim == 2 { area } else { area.sqrt() };
    }
    let mean = size / group.elements.len() as f64;
    Ok((group.elements.clone(), mean))
}

/// An orthonormal tangent basis of a plane with unit normal `n`.
fn plane_tangents(n: [f64; 3], dim: usize) -> [[f64; 3]; 2] {
    if dim == 2 {
        return [[-n[1], n[0], 0.0], [0.0; 3]];
    }
    let a = if n[0].abs() < 0.9 {
        [1.0, 0.0, 0.0]
    } else {
        [0.0, 1.0, 0.0]
    };
    let c = cross(n, a);
    let l = norm(c);
    let t1 = [c[0] / l, c[1] / l, c[2] / l];
    [t1, cross(n, t1)]
}

impl Surface {
    /// Slave nodes and tributary areas, master faces or plane, rim and `h`.
    pub fn new(spec: &ContactSpec, mesh: &Mesh, dim: usize) -> Result<Surface, ContactSetupError> {
        let (slave_faces, mut h) = faces_of(mesh, &spec.slave, dim)?;
        let mut area = vec![0.0; mesh.nodes.len()];
        let (mut w, mut xs) = ([0.0; 4], [[0.0; 3]; 4]);
        for e in &slave_faces {
            let n = e.nodes().len();
            for (k, &a) in e.nodes().iter().enumerate() {
                xs[k] = mesh.nodes[a];
            }
            face_weights(e.kind, &xs[..n], &mut w);
            for (k, &a) in e.nodes().iter().enumerate() {
                area[a] += w[k];
            }
        }
        let mut slaves: Vec<usize> = slave_faces
            .iter()
            .flat_map(|e| e.nodes().to_vec())
            .collect();
        slaves.sort_unstable();
        slaves.dedup();
        let weights = slaves.iter().map(|&a| area[a]).collect();
        let master = match &spec.master {
            MasterSpec::Surface(name) => {
                let (faces, hm) = faces_of(mesh, name, dim)?;
                h = h.min(hm);
                Master::Faces(faces)
            }
            MasterSpec::Plane { point, normal } => Master::Plane {
                point: *point,
                normal: *normal,
                tangents: plane_tangents(*normal, dim),
            },
        };
        let (rim_edges, rim_nodes) = match &master {
            Master::Faces(faces) => rim(faces, dim, mesh.nodes.len()),
            Master::Plane { .. } => (HashSet::new(), vec![false; mesh.nodes.len()]),
        };
        Ok(Surface {
            dim,
            slaves,
            weights,
            master,
            h,
            rim_edges,
            rim_nodes,
        })
    }

    /// The index in `slaves` (sorted) of slave node `node`, if it is one.
    pub fn slave_index(&self, node: usize) -> Option<usize> {
        self.slaves.binary_search(&node).ok()
    }

    /// Number of master faces (0 for a plane).
    pub fn n_faces(&self) -> usize {
        match &self.master {
            Master::Faces(f) => f.len(),
            Master::Plane { .. } => 0,
        }
    }

    /// Nodes of the contact element of slave `k` on `face` (slave first);
    /// returns the node count.
    pub fn element_nodes(&self, k: usize, face: Option<usize>, out: &mut [usize]) -> usize {
        out[0] = self.slaves[k];
        match (&self.master, face) {
            (Master::Faces(faces), Some(f)) => {
                let nodes = faces[f].nodes();
                out[1..1 + nodes.len()].copy_from_slice(nodes);
                1 + nodes.len()
            }
            _ => 1,
        }
    }
}
