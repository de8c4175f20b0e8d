//! Meshes: nodes, elements, named physical groups; the Gmsh reader and the
//! built-in generators.
//!
//! A `Mesh` holds all nodes of a model (z = 0 in 2D) and named groups of
//! elements. A volume group (elements of the model's dimension) is a body; a
//! group of boundary elements (line2/line3 in 2D; tri3/quad4/tri6/quad8/quad9 in
//! 3D) is a surface. A mesh read from a file remembers the file and the Gmsh
//! node and element tags, so that messages name what the user's mesher shows
//! ([`Mesh::node_label`], [`Group::element_label`]).
//!
//! Orientation conventions (kept by the generators and the Gmsh reader, checked
//! by [`Mesh::check_elements`] and [`Mesh::orient_surfaces`]):
//! * body elements in Gmsh node order with a positive Jacobian (counter-clockwise
//!   in 2D);
//! * surface faces point out of the body they bound: a 2D edge with
//!   direction `t = x1 − x0` has outward normal `(t_y, −t_x)` (edges run
//!   counter-clockwise around the body, clockwise around a hole); a 3D face has
//!   outward normal along `(x1 − x0) × (x2 − x0)` (nodes 0, 1, 2 are corners
//!   for every kind).

use crate::fe::{ElementKind, MAX_NODES};
use std::path::{Path, PathBuf};

mod boundary;
mod check;
mod elevate;
pub mod generate;
mod geometry;
mod gmsh;

pub use geometry::element_measure;
pub use gmsh::{parse_gmsh, read_gmsh};

/// One element: its kind and global node indices (0-based into `Mesh::nodes`).
/// Node order follows Gmsh (VTK's differs for tet10, hex20 and hex27:
/// [`ElementKind::vtk_order`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    pub kind: ElementKind,
    nodes: [usize; MAX_NODES],
}

impl Element {
    /// Panics if `nodes.len() != kind.n_nodes()` (a caller bug).
    #[track_caller]
    pub fn new(kind: ElementKind, nodes: &[usize]) -> Element {
        assert_eq!(
            nodes.len(),
            kind.n_nodes(),
            "node count of a {}",
            kind.name()
        );
        let mut n = [0usize; MAX_NODES];
        n[..nodes.len()].copy_from_slice(nodes);
        Element { kind, nodes: n }
    }

    /// Global node indices.
    pub fn nodes(&self) -> &[usize] {
        &self.nodes[..self.kind.n_nodes()]
    }

    /// Mutable global node indices.
    pub fn nodes_mut(&mut self) -> &mut [usize] {
        let n = self.kind.n_nodes();
        &mut self.nodes[..n]
    }
}

/// A named physical group.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub name: String,
    /// Topological dimension of the group's elements (1, 2 or 3).
    pub dim: usize,
    pub elements: Vec<Element>,
    /// The Gmsh element tag of each element when the group was read from a
    /// file; empty for generated groups.
    pub tags: Vec<u64>,
}

impl Group {
    /// A group without file tags (generated).
    pub fn new(name: String, dim: usize, elements: Vec<Element>) -> Group {
        Group {
            name,
            dim,
            elements,
            tags: Vec::new(),
        }
    }

    /// How messages name element `i` of the group: its Gmsh tag when the
    /// group was read from a file (`element 1234`), else its position
    /// (`element #12`, 0-based).
    pub fn element_label(&self, i: usize) -> String {
        match self.tags.get(i) {
            Some(t) => format!("element {t}"),
            None => format!("element #{i}"),
        }
    }
}

/// Nodes and named groups of a whole model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Spatial dimension, 2 or 3.
    pub dim: usize,
    /// Node coordinates (z = 0 in 2D).
    pub nodes: Vec<[f64; 3]>,
    pub groups: Vec<Group>,
    /// The mesh file the nodes (the first `node_tags.len()` of them) came from.
    pub file: Option<PathBuf>,
    /// Gmsh node tags of the first nodes (those read from `file`).
    pub node_tags: Vec<u64>,
}

/// Why a mesh could not be read or built. Always names the file (when there is
/// one) and, where known, the line.
#[derive(Debug, thiserror::Error)]
pub enum MeshError {
    #[error("{file}: {source}")]
    Io {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
    Parse {
        file: PathBuf,
        line: Option<usize>,
        message: String,
    },
    #[error("{0}")]
    Invalid(String),
}

impl Mesh {
    /// The nodes' coordinates, `dim` per node in node order (the dof layout
    /// of a state's positions).
    pub fn positions(&self, dim: usize) -> Vec<f64> {
        self.nodes
            .iter()
            .flat_map(|p| p[..dim].iter().copied())
            .collect()
    }

    /// How messages name node `a`: its Gmsh tag when it was read from a file
    /// (`node 57`), else its position (`node #56`, 0-based).
    pub fn node_label(&self, a: usize) -> String {
        match self.node_tags.get(a) {
            Some(t) => format!("node {t}"),
            None => format!("node #{a}"),
        }
    }

    /// The labels of nodes `nodes`, space-separated ([`Mesh::node_label`]
    /// without the word "node").
    pub fn node_list(&self, nodes: &[usize]) -> String {
        let one = |a: usize| match self.node_tags.get(a) {
            Some(t) => t.to_string(),
            None => format!("#{a}"),
        };
        nodes.iter().map(|&a| one(a)).collect::<Vec<_>>().join(" ")
    }

    /// `"<file>: "` for a mesh read from a file, else `""`: the start of a
    /// message about the mesh.
    pub fn file_prefix(&self) -> String {
        self.file
            .as_ref()
            .map(|f| format!("{}: ", f.display()))
            .unwrap_or_default()
    }

    /// The group called `name`.
    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Appends `other` (same dimension), offsetting its node indices; returns the
    /// offset. Fails if a group name is already taken or the dimensions differ.
    /// An empty mesh (`Mesh::default()`, dimension 0) takes `other`'s dimension
    /// and file; otherwise the appended nodes have no file tags.
    pub fn append(&mut self, other: Mesh) -> Result<usize, MeshError> {
        let empty = self.dim == 0 && self.nodes.is_empty() && self.groups.is_empty();
        if !empty && self.dim != other.dim {
            return Err(MeshError::Invalid(format!(
                "cannot append a {}D mesh to a {}D mesh",
                other.dim, self.dim
            )));
        }
        for g in &other.groups {
            if self.group(&g.name).is_some() {
                return Err(MeshError::Invalid(format!(
                    "cannot append: group name \"{}\" is already taken",
                    g.name
                )));
            }
        }
        let mut names: Vec<&str> = other.groups.iter().map(|g| g.name.as_str()).collect();
        names.sort_unstable();
        if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
            return Err(MeshError::Invalid(format!(
                "cannot append: the appended mesh has two groups named \"{}\"",
                w[0]
            )));
        }
        if empty {
            self.dim = other.dim;
            self.file = other.file;
            self.node_tags = other.node_tags;
        }
        let offset = self.nodes.len();
        self.nodes.extend_from_slice(&other.nodes);
        for mut g in other.groups {
            for e in &mut g.elements {
                for n in e.nodes_mut() {
                    *n += offset;
                }
            }
            self.groups.push(g);
        }
        Ok(offset)
    }

    /// Why the surface group `name` cannot be a contact surface, if it
    /// cannot: it mixes first-order (line2, tri3, quad4) and second-order
    /// (line3, tri6, quad8, quad9) faces. Contact takes either order, one per
    /// surface: the slave weights and the master projection are those of the
    /// surface's order, and a first-order face next to a second-order one
    /// leaves the midside node of their shared edge hanging.
    pub fn contact_surface_problem(&self, name: &str) -> Option<String> {
        let g = self.group(name)?;
        let (i, e) = g
            .elements
            .iter()
            .enumerate()
            .find(|(_, e)| e.kind.order() == 2)?;
        let (j, f) = g
            .elements
            .iter()
            .enumerate()
            .find(|(_, f)| f.kind.order() == 1)?;
        Some(format!(
            "{}group \"{name}\" mixes orders ({} faces and {} faces: {} is a {}, {} a {}): \
             a contact surface takes one order; mesh the bodies in contact with one \
             element order (Gmsh: Mesh.ElementOrder)",
            self.file_prefix(),
            f.kind.name(),
            e.kind.name(),
            g.element_label(j),
            f.kind.name(),
            g.element_label(i),
            e.kind.name()
        ))
    }

    /// Nodes used by a group, sorted and deduplicated.
    pub fn group_nodes(&self, name: &str) -> Option<Vec<usize>> {
        let g = self.group(name)?;
        let mut v: Vec<usize> = g
            .elements
            .iter()
            .flat_map(|e| e.nodes().iter().copied())
            .collect();
        v.sort_unstable();
        v.dedup();
        Some(v)
    }

    /// Total measure (length, area or volume) of a group's elements, computed
    /// from the node coordinates ([`element_measure`]).
    pub fn group_measure(&self, name: &str) -> Option<f64> {
        let g = self.group(name)?;
        Some(
            g.elements
                .iter()
                .map(|e| element_measure(e, &self.nodes))
                .sum(),
        )
    }
}

/// Reads a mesh file by extension (`.msh`: Gmsh 2.2 or 4.1, ASCII or binary).
pub fn read(path: &Path, dim: usize) -> Result<Mesh, MeshError> {
    read_gmsh(path, dim)
}
