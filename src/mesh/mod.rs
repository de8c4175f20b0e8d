//! Meshes: nodes, elements, named physical groups; the Gmsh reader and the
//! built-in generators.
//!
//! A `Mesh` holds all nodes of a model (z = 0 in 2D) and named groups of
//! elements. A volume group (elements of the model's dimension) is a body; a
//! group of boundary elements (line2 in 2D; tri3/quad4 in 3D) is a surface.
//!
//! Orientation conventions (kept by the generators and the Gmsh reader, checked
//! by [`Mesh::check_elements`] and [`Mesh::orient_surfaces`]):
//! * body elements in Gmsh node order with a positive Jacobian (counter-clockwise
//!   in 2D);
//! * surface faces point out of the body they bound: a 2D line2 edge with
//!   direction `t` has outward normal `(t_y, −t_x)` (edges run counter-clockwise
//!   around the body, clockwise around a hole); a 3D face has outward normal
//!   along `(x1 − x0) × (x2 − x0)`.

use crate::fe::ElementKind;
use std::path::{Path, PathBuf};

mod boundary;
mod check;
pub mod generate;
mod geometry;
mod gmsh;

pub use geometry::element_measure;
pub use gmsh::{parse_gmsh, read_gmsh};

/// One element: its kind and global node indices (0-based into `Mesh::nodes`).
/// Node order follows Gmsh/VTK.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    pub kind: ElementKind,
    nodes: [usize; 8],
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
        let mut n = [0usize; 8];
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
}

/// Nodes and named groups of a whole model.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Mesh {
    /// Spatial dimension, 2 or 3.
    pub dim: usize,
    /// Node coordinates (z = 0 in 2D).
    pub nodes: Vec<[f64; 3]>,
    pub groups: Vec<Group>,
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
    /// The group called `name`.
    pub fn group(&self, name: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Appends `other` (same dimension), offsetting its node indices; returns the
    /// offset. Fails if a group name is already taken or the dimensions differ.
    /// An empty mesh (`Mesh::default()`, dimension 0) takes `other`'s dimension.
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
