//! Surface setup of one contact pair: the slave nodes with their tributary
//! areas `w j` (Love & Laursen 2003 §3.2: the contact "quadrature points"
//! are the slave nodes), the master side (faces of a deformable surface, or
//! a fixed rigid plane), the master surface's rim, and the characteristic
//! face size `h` that scales the pair's tolerances.
//!
//! Faces are first order (line2; tri3, quad4) or second order (line3; tri6,
//! quad8, quad9), one order per surface. Every node of a slave surface is a
//! contact point, the midside and centre nodes of second-order faces
//! included. Their tributary areas cannot be the first-order rule `∫ N_a dA`:
//! on a tri6 it is zero at the corners and on a quad8 negative (a corner
//! would then carry no or an adhesive contact force). Second-order faces take
//! the HRZ diagonal scaling (Hinton, Rock & Zienkiewicz 1976) of the face's
//! "mass" `∫ N_a N_b dA`: `w_a = A ∫N_a² dA / Σ_b ∫N_b² dA`, positive at
//! every node and summing to the face area `A`; on a straight line3 it is
//! Simpson's rule (1/6, 1/6, 2/3), on an affine quad9 its tensor product,
//! both equal to `∫ N_a dA` there.

use super::geometry::vec3::{cross, norm, sub};
use super::geometry::MAX_FACE_NODES;
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
    #[error("contact surface \"{group}\" mixes first- and second-order faces ({first} and {second}): use one order per surface")]
    MixedOrders {
        group: String,
        first: &'static str,
        second: &'static str,
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
    /// A rigid analytic surface that may move (plane, sphere, cylinder; the
    /// kinematics are [`super::rigid`]'s).
    Rigid(Box<super::rigid::Rigid>),
}

impl Master {
    /// Whether the master is rigid (a plane or an analytic surface): its
    /// points are evaluated without a face.
    pub fn is_rigid(&self) -> bool {
        !matches!(self, Master::Faces(_))
    }
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
    /// A self-contact: the master faces are the slave surface's own, and a
    /// node's own side is no master face for it ([`super::own`]).
    pub own: bool,
}

/// Unnormalized outward normal of a face from its corners (2D segment:
/// `(t_y, −t_x)`; a second-order face's corner line, triangle or quad, which
/// gives its orientation but not its curvature).
pub fn face_normal_raw(kind: ElementKind, x: &[[f64; 3]]) -> [f64; 3] {
    match kind.linear() {
        ElementKind::Line2 => {
            let t = sub(x[1], x[0]);
            [t[1], -t[0], 0.0]
        }
        ElementKind::Tri3 => cross(sub(x[1], x[0]), sub(x[2], x[0])),
        _ => cross(sub(x[2], x[0]), sub(x[3], x[1])),
    }
}

/// Tributary areas of a face's nodes: `∫ N_a dA` on first-order faces (2×2
/// Gauss on quad4), the HRZ scaling on second-order ones (module docs).
/// `out` holds at least the face's node count.
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
        ElementKind::Quad4 => {
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
        _ => hrz_weights(kind, x, out),
    }
}

/// HRZ tributary areas of a second-order face (module docs), integrated by
/// the face kind's mass rule (exact for `N_a²` on an undistorted face).
fn hrz_weights(kind: ElementKind, x: &[[f64; 3]], out: &mut [f64]) {
    let nn = kind.n_nodes();
    let (mut n, mut dn) = ([0.0; MAX_FACE_NODES], [[0.0; 3]; MAX_FACE_NODES]);
    let mut diag = [0.0; MAX_FACE_NODES];
    let mut area = 0.0;
    for q in kind.quadrature() {
        kind.shape(&q.xi, &mut n, &mut dn);
        let (mut t1, mut t2) = ([0.0; 3], [0.0; 3]);
        for a in 0..nn {
            for i in 0..3 {
                t1[i] += dn[a][0] * x[a][i];
                t2[i] += dn[a][1] * x[a][i];
            }
        }
        let j = if kind.ref_dim() == 1 {
            norm(t1)
        } else {
            norm(cross(t1, t2))
        };
        area += q.weight * j;
        for a in 0..nn {
            diag[a] += q.weight * j * n[a] * n[a];
        }
    }
    let total: f64 = diag[..nn].iter().sum();
    for a in 0..nn {
        out[a] = area * diag[a] / total;
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
            .flat_map(|e| &e.nodes()[..e.kind.n_corners()])
            .for_each(|&a| uses[a] += 1);
        for (a, &u) in uses.iter().enumerate() {
            nodes[a] = u == 1;
        }
        return (edges, nodes);
    }
    let mut count: HashMap<(usize, usize), u32> = HashMap::new();
    for e in faces {
        let n = &e.nodes()[..e.kind.n_corners()];
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

/// The faces of group `name`, checked to be contact faces of dimension `dim`
/// of one order, and their mean size (length in 2D, square root of the area
/// in 3D).
fn faces_of(mesh: &Mesh, name: &str, dim: usize) -> Result<(Vec<Element>, f64), ContactSetupError> {
    let group = mesh
        .group(name)
        .filter(|g| !g.elements.is_empty())
        .ok_or_else(|| ContactSetupError::Empty(name.to_string()))?;
    let mut size = 0.0;
    let (mut w, mut xs) = ([0.0; MAX_FACE_NODES], [[0.0; 3]; MAX_FACE_NODES]);
    let first = group.elements[0].kind;
    for e in &group.elements {
        if e.kind.ref_dim() + 1 != dim {
            return Err(ContactSetupError::WrongFace {
                group: name.to_string(),
                kind: e.kind.name(),
                dim,
            });
        }
        if e.kind.order() != first.order() {
            let (a, b) = if first.order() == 1 {
                (first, e.kind)
            } else {
                (e.kind, first)
            };
            return Err(ContactSetupError::MixedOrders {
                group: name.to_string(),
                first: a.name(),
                second: b.name(),
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

impl Surface {
    /// Slave nodes and tributary areas, master faces or plane, rim and `h`.
    pub fn new(spec: &ContactSpec, mesh: &Mesh, dim: usize) -> Result<Surface, ContactSetupError> {
        let (slave_faces, mut h) = faces_of(mesh, &spec.slave, dim)?;
        let mut area = vec![0.0; mesh.nodes.len()];
        let (mut w, mut xs) = ([0.0; MAX_FACE_NODES], [[0.0; 3]; MAX_FACE_NODES]);
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
                tangents: super::rigid::orthonormal_tangents(*normal, dim),
            },
            MasterSpec::Rigid(r) => {
                let at: Vec<[f64; 3]> = slaves.iter().map(|&a| mesh.nodes[a]).collect();
                Master::Rigid(Box::new(super::rigid::Rigid::new(r, dim, &at)))
            }
        };
        let (rim_edges, rim_nodes) = match &master {
            Master::Faces(faces) => rim(faces, dim, mesh.nodes.len()),
            Master::Plane { .. } | Master::Rigid(_) => {
                (HashSet::new(), vec![false; mesh.nodes.len()])
            }
        };
        Ok(Surface {
            dim,
            slaves,
            weights,
            master,
            h,
            rim_edges,
            rim_nodes,
            own: spec.is_self(),
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
            Master::Plane { .. } | Master::Rigid(_) => 0,
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
