//! Reference finite elements: shape functions, quadrature, boundary faces and the
//! element-level kernels (internal force, tangent, mass, energy).
//!
//! Node numbering follows Gmsh (which is also VTK's for these linear elements).
//! Reference coordinates: line2 ξ∈[-1,1]; tri3 (ξ,η) with ξ,η≥0, ξ+η≤1; quad4
//! [-1,1]²; tet4 unit simplex; hex8 [-1,1]³. Unused reference coordinates are 0.

pub mod kernel;
mod shape;
mod tables;

pub use shape::*;

/// The element types the code knows. `Line2`, `Tri3` and `Quad4` also serve as
/// boundary faces of 2D (line2) and 3D (tri3, quad4) bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementKind {
    Line2,
    Tri3,
    Quad4,
    Tet4,
    Hex8,
}

impl ElementKind {
    /// Number of nodes.
    pub const fn n_nodes(self) -> usize {
        match self {
            ElementKind::Line2 => 2,
            ElementKind::Tri3 => 3,
            ElementKind::Quad4 => 4,
            ElementKind::Tet4 => 4,
            ElementKind::Hex8 => 8,
        }
    }

    /// Topological (reference) dimension.
    pub const fn ref_dim(self) -> usize {
        match self {
            ElementKind::Line2 => 1,
            ElementKind::Tri3 | ElementKind::Quad4 => 2,
            ElementKind::Tet4 | ElementKind::Hex8 => 3,
        }
    }

    /// Gmsh element type number.
    pub const fn gmsh_type(self) -> i32 {
        match self {
            ElementKind::Line2 => 1,
            ElementKind::Tri3 => 2,
            ElementKind::Quad4 => 3,
            ElementKind::Tet4 => 4,
            ElementKind::Hex8 => 5,
        }
    }

    /// Element kind from a Gmsh element type number (first-order elements only).
    pub const fn from_gmsh_type(t: i32) -> Option<ElementKind> {
        match t {
            1 => Some(ElementKind::Line2),
            2 => Some(ElementKind::Tri3),
            3 => Some(ElementKind::Quad4),
            4 => Some(ElementKind::Tet4),
            5 => Some(ElementKind::Hex8),
            _ => None,
        }
    }

    /// VTK cell type number.
    pub const fn vtk_type(self) -> u8 {
        match self {
            ElementKind::Line2 => 3,
            ElementKind::Tri3 => 5,
            ElementKind::Quad4 => 9,
            ElementKind::Tet4 => 10,
            ElementKind::Hex8 => 12,
        }
    }

    /// Lower-case name as used in input files ("hex8", …).
    pub const fn name(self) -> &'static str {
        match self {
            ElementKind::Line2 => "line2",
            ElementKind::Tri3 => "tri3",
            ElementKind::Quad4 => "quad4",
            ElementKind::Tet4 => "tet4",
            ElementKind::Hex8 => "hex8",
        }
    }
}
