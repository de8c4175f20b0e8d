//! Element topology: boundary faces, the node permutation that reverses an
//! element's orientation, and VTK's node order.

use super::ElementKind;

type Face = (ElementKind, &'static [usize]);

static F_TRI3: [Face; 3] = [
    (ElementKind::Line2, &[0, 1]),
    (ElementKind::Line2, &[1, 2]),
    (ElementKind::Line2, &[2, 0]),
];
static F_QUAD4: [Face; 4] = [
    (ElementKind::Line2, &[0, 1]),
    (ElementKind::Line2, &[1, 2]),
    (ElementKind::Line2, &[2, 3]),
    (ElementKind::Line2, &[3, 0]),
];
static F_TET4: [Face; 4] = [
    (ElementKind::Tri3, &[0, 2, 1]),
    (ElementKind::Tri3, &[0, 1, 3]),
    (ElementKind::Tri3, &[0, 3, 2]),
    (ElementKind::Tri3, &[1, 2, 3]),
];
static F_HEX8: [Face; 6] = [
    (ElementKind::Quad4, &[0, 3, 2, 1]),
    (ElementKind::Quad4, &[4, 5, 6, 7]),
    (ElementKind::Quad4, &[0, 1, 5, 4]),
    (ElementKind::Quad4, &[1, 2, 6, 5]),
    (ElementKind::Quad4, &[2, 3, 7, 6]),
    (ElementKind::Quad4, &[3, 0, 4, 7]),
];
// Second-order faces: the corners as in the first-order face, then the edge
// midpoints of the face's edges in the same cycle (and the face centre).
static F_TRI6: [Face; 3] = [
    (ElementKind::Line3, &[0, 1, 3]),
    (ElementKind::Line3, &[1, 2, 4]),
    (ElementKind::Line3, &[2, 0, 5]),
];
static F_QUAD8: [Face; 4] = [
    (ElementKind::Line3, &[0, 1, 4]),
    (ElementKind::Line3, &[1, 2, 5]),
    (ElementKind::Line3, &[2, 3, 6]),
    (ElementKind::Line3, &[3, 0, 7]),
];
static F_TET10: [Face; 4] = [
    (ElementKind::Tri6, &[0, 2, 1, 6, 5, 4]),
    (ElementKind::Tri6, &[0, 1, 3, 4, 9, 7]),
    (ElementKind::Tri6, &[0, 3, 2, 7, 8, 6]),
    (ElementKind::Tri6, &[1, 2, 3, 5, 8, 9]),
];
static F_HEX20: [Face; 6] = [
    (ElementKind::Quad8, &[0, 3, 2, 1, 9, 13, 11, 8]),
    (ElementKind::Quad8, &[4, 5, 6, 7, 16, 18, 19, 17]),
    (ElementKind::Quad8, &[0, 1, 5, 4, 8, 12, 16, 10]),
    (ElementKind::Quad8, &[1, 2, 6, 5, 11, 14, 18, 12]),
    (ElementKind::Quad8, &[2, 3, 7, 6, 13, 15, 19, 14]),
    (ElementKind::Quad8, &[3, 0, 4, 7, 9, 10, 17, 15]),
];
static F_HEX27: [Face; 6] = [
    (ElementKind::Quad9, &[0, 3, 2, 1, 9, 13, 11, 8, 20]),
    (ElementKind::Quad9, &[4, 5, 6, 7, 16, 18, 19, 17, 25]),
    (ElementKind::Quad9, &[0, 1, 5, 4, 8, 12, 16, 10, 21]),
    (ElementKind::Quad9, &[1, 2, 6, 5, 11, 14, 18, 12, 23]),
    (ElementKind::Quad9, &[2, 3, 7, 6, 13, 15, 19, 14, 24]),
    (ElementKind::Quad9, &[3, 0, 4, 7, 9, 10, 17, 15, 22]),
];

static IDENTITY: [usize; 27] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26,
];
/// VTK_QUADRATIC_TETRA numbers the edges 01, 12, 20, 03, 13, 23; Gmsh 01, 12,
/// 20, 30, 32, 31.
static VTK_TET10: [usize; 10] = [0, 1, 2, 3, 4, 5, 6, 7, 9, 8];
/// VTK_QUADRATIC_HEXAHEDRON numbers the edges 01, 12, 23, 30, 45, 56, 67, 74,
/// 04, 15, 26, 37; Gmsh 01, 03, 04, 12, 15, 23, 26, 37, 45, 47, 56, 67. The
/// triquadratic hexahedron then has the face centres ξ=−1, ξ=+1, η=−1, η=+1,
/// ζ=−1, ζ=+1; Gmsh ζ=−1, η=−1, ξ=−1, ξ=+1, η=+1, ζ=+1 (VTK's
/// vtkTriQuadraticHexahedron and vtkQuadraticHexahedron class documentation).
static VTK_HEX27: [usize; 27] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 13, 9, 16, 18, 19, 17, 10, 12, 14, 15, 22, 23, 21, 24, 20, 25,
    26,
];

// Orientation reversal: mirror the corner cycle about node 0 and the edge
// nodes with it.
static REV_LINE2: [usize; 2] = [1, 0];
static REV_LINE3: [usize; 3] = [1, 0, 2];
static REV_TRI3: [usize; 3] = [0, 2, 1];
static REV_TRI6: [usize; 6] = [0, 2, 1, 5, 4, 3];
static REV_QUAD9: [usize; 9] = [0, 3, 2, 1, 7, 6, 5, 4, 8];

impl ElementKind {
    /// Boundary faces of a 2D element (its edges, `Line2`/`Line3`) or of a 3D
    /// element (triangles, quadrilaterals), as local node indices ordered so that
    /// the face normal computed from the first nodes (2D: edge direction
    /// `x1 − x0` rotated by −90°, i.e. `(t_y, −t_x)`; 3D: `(x1−x0)×(x2−x0)`)
    /// points out of the element. Quad faces list their corners as a cycle;
    /// second-order faces then list their edge midpoints in the same cycle (and
    /// the centre), in the face kind's own node order. Line kinds have no faces
    /// (empty slice). Orientation assumes a positively oriented element
    /// (`det J > 0`: counter-clockwise in 2D).
    pub fn faces(self) -> &'static [(ElementKind, &'static [usize])] {
        match self {
            ElementKind::Line2 | ElementKind::Line3 => &[],
            ElementKind::Tri3 => &F_TRI3,
            ElementKind::Quad4 => &F_QUAD4,
            ElementKind::Tet4 => &F_TET4,
            ElementKind::Hex8 => &F_HEX8,
            ElementKind::Tri6 => &F_TRI6,
            ElementKind::Quad8 | ElementKind::Quad9 => &F_QUAD8,
            ElementKind::Tet10 => &F_TET10,
            ElementKind::Hex20 => &F_HEX20,
            ElementKind::Hex27 => &F_HEX27,
        }
    }

    /// The node permutation `p` that reverses the orientation of a line, a
    /// triangle or a quadrilateral: the element with nodes `old[p[k]]` is the
    /// same element, its normal (or, in the plane, its sense of rotation)
    /// reversed. `None` for volume kinds.
    pub fn reversal(self) -> Option<&'static [usize]> {
        match self {
            ElementKind::Line2 => Some(&REV_LINE2),
            ElementKind::Line3 => Some(&REV_LINE3),
            ElementKind::Tri3 => Some(&REV_TRI3),
            ElementKind::Tri6 => Some(&REV_TRI6),
            ElementKind::Quad4 => Some(&REV_QUAD9[..4]),
            ElementKind::Quad8 => Some(&REV_QUAD9[..8]),
            ElementKind::Quad9 => Some(&REV_QUAD9),
            _ => None,
        }
    }

    /// VTK's node order: VTK node `k` of the cell is node `vtk_order()[k]` in
    /// Gmsh's (our) order. The identity except for tet10, hex20 and hex27.
    pub fn vtk_order(self) -> &'static [usize] {
        match self {
            ElementKind::Tet10 => &VTK_TET10,
            ElementKind::Hex20 => &VTK_HEX27[..20],
            ElementKind::Hex27 => &VTK_HEX27,
            k => &IDENTITY[..k.n_nodes()],
        }
    }
}
