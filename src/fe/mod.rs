//! Reference finite elements: shape functions, quadrature, boundary faces and the
//! element-level kernels (internal force, tangent, mass, energy, stress).
//!
//! Node numbering follows Gmsh (Gmsh reference manual, "Node ordering"); VTK's
//! differs for tet10, hex20 and hex27 ([`ElementKind::vtk_order`]). Reference
//! coordinates: lines ξ∈[-1,1]; triangles (ξ,η) with ξ,η≥0, ξ+η≤1; quadrilaterals
//! [-1,1]²; tetrahedra the unit simplex; hexahedra [-1,1]³. Unused reference
//! coordinates are 0.

pub mod kernel;
mod quadrature;
mod shape;
mod tables;
mod topology;

pub use quadrature::QuadPoint;
pub use tables::MAX_NODES;

/// The element types the code knows: first order (`Line2` … `Hex8`) and
/// second order (`Line3` … `Hex27`). Line, triangle and quadrilateral kinds
/// also serve as boundary faces of 2D (lines) and 3D (triangles, quads) bodies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElementKind {
    Line2,
    Tri3,
    Quad4,
    Tet4,
    Hex8,
    Line3,
    Tri6,
    /// Serendipity quadrilateral (corners and edge midpoints).
    Quad8,
    /// Lagrange quadrilateral (corners, edge midpoints and the centre).
    Quad9,
    Tet10,
    /// Serendipity hexahedron (corners and edge midpoints).
    Hex20,
    /// Lagrange hexahedron (corners, edges, face centres and the centre).
    Hex27,
}

impl ElementKind {
    /// Every kind, in declaration order (`ALL[k as usize] == k`).
    pub const ALL: [ElementKind; 12] = [
        ElementKind::Line2,
        ElementKind::Tri3,
        ElementKind::Quad4,
        ElementKind::Tet4,
        ElementKind::Hex8,
        ElementKind::Line3,
        ElementKind::Tri6,
        ElementKind::Quad8,
        ElementKind::Quad9,
        ElementKind::Tet10,
        ElementKind::Hex20,
        ElementKind::Hex27,
    ];

    /// Number of nodes.
    pub const fn n_nodes(self) -> usize {
        match self {
            ElementKind::Line2 => 2,
            ElementKind::Tri3 => 3,
            ElementKind::Quad4 => 4,
            ElementKind::Tet4 => 4,
            ElementKind::Hex8 => 8,
            ElementKind::Line3 => 3,
            ElementKind::Tri6 => 6,
            ElementKind::Quad8 => 8,
            ElementKind::Quad9 => 9,
            ElementKind::Tet10 => 10,
            ElementKind::Hex20 => 20,
            ElementKind::Hex27 => 27,
        }
    }

    /// Topological (reference) dimension.
    pub const fn ref_dim(self) -> usize {
        match self {
            ElementKind::Line2 | ElementKind::Line3 => 1,
            ElementKind::Tri3
            | ElementKind::Quad4
            | ElementKind::Tri6
            | ElementKind::Quad8
            | ElementKind::Quad9 => 2,
            ElementKind::Tet4
            | ElementKind::Hex8
            | ElementKind::Tet10
            | ElementKind::Hex20
            | ElementKind::Hex27 => 3,
        }
    }

    /// Polynomial order of the interpolation: 1 or 2.
    pub const fn order(self) -> usize {
        match self {
            ElementKind::Line2
            | ElementKind::Tri3
            | ElementKind::Quad4
            | ElementKind::Tet4
            | ElementKind::Hex8 => 1,
            _ => 2,
        }
    }

    /// The first-order kind with the same corners (itself for first-order kinds).
    pub const fn linear(self) -> ElementKind {
        match self {
            ElementKind::Line2 | ElementKind::Line3 => ElementKind::Line2,
            ElementKind::Tri3 | ElementKind::Tri6 => ElementKind::Tri3,
            ElementKind::Quad4 | ElementKind::Quad8 | ElementKind::Quad9 => ElementKind::Quad4,
            ElementKind::Tet4 | ElementKind::Tet10 => ElementKind::Tet4,
            ElementKind::Hex8 | ElementKind::Hex20 | ElementKind::Hex27 => ElementKind::Hex8,
        }
    }

    /// Number of corner nodes (they come first in the node order).
    pub const fn n_corners(self) -> usize {
        self.linear().n_nodes()
    }

    /// Whether the kind is a simplex (line, triangle, tetrahedron).
    pub const fn is_simplex(self) -> bool {
        matches!(
            self.linear(),
            ElementKind::Line2 | ElementKind::Tri3 | ElementKind::Tet4
        )
    }

    /// Gmsh element type number.
    pub const fn gmsh_type(self) -> i32 {
        match self {
            ElementKind::Line2 => 1,
            ElementKind::Tri3 => 2,
            ElementKind::Quad4 => 3,
            ElementKind::Tet4 => 4,
            ElementKind::Hex8 => 5,
            ElementKind::Line3 => 8,
            ElementKind::Tri6 => 9,
            ElementKind::Quad9 => 10,
            ElementKind::Tet10 => 11,
            ElementKind::Hex27 => 12,
            ElementKind::Quad8 => 16,
            ElementKind::Hex20 => 17,
        }
    }

    /// Element kind from a Gmsh element type number.
    pub const fn from_gmsh_type(t: i32) -> Option<ElementKind> {
        match t {
            1 => Some(ElementKind::Line2),
            2 => Some(ElementKind::Tri3),
            3 => Some(ElementKind::Quad4),
            4 => Some(ElementKind::Tet4),
            5 => Some(ElementKind::Hex8),
            8 => Some(ElementKind::Line3),
            9 => Some(ElementKind::Tri6),
            10 => Some(ElementKind::Quad9),
            11 => Some(ElementKind::Tet10),
            12 => Some(ElementKind::Hex27),
            16 => Some(ElementKind::Quad8),
            17 => Some(ElementKind::Hex20),
            _ => None,
        }
    }

    /// VTK cell type number (VTK_LINE … VTK_HEXAHEDRON; VTK_QUADRATIC_EDGE,
    /// _TRIANGLE, _QUAD, VTK_BIQUADRATIC_QUAD, VTK_QUADRATIC_TETRA,
    /// _HEXAHEDRON, VTK_TRIQUADRATIC_HEXAHEDRON).
    pub const fn vtk_type(self) -> u8 {
        match self {
            ElementKind::Line2 => 3,
            ElementKind::Tri3 => 5,
            ElementKind::Quad4 => 9,
            ElementKind::Tet4 => 10,
            ElementKind::Hex8 => 12,
            ElementKind::Line3 => 21,
            ElementKind::Tri6 => 22,
            ElementKind::Quad8 => 23,
            ElementKind::Quad9 => 28,
            ElementKind::Tet10 => 24,
            ElementKind::Hex20 => 25,
            ElementKind::Hex27 => 29,
        }
    }

    /// Lower-case name as used in input files and messages ("hex8", "tet10", …).
    pub const fn name(self) -> &'static str {
        match self {
            ElementKind::Line2 => "line2",
            ElementKind::Tri3 => "tri3",
            ElementKind::Quad4 => "quad4",
            ElementKind::Tet4 => "tet4",
            ElementKind::Hex8 => "hex8",
            ElementKind::Line3 => "line3",
            ElementKind::Tri6 => "tri6",
            ElementKind::Quad8 => "quad8",
            ElementKind::Quad9 => "quad9",
            ElementKind::Tet10 => "tet10",
            ElementKind::Hex20 => "hex20",
            ElementKind::Hex27 => "hex27",
        }
    }
}
