//! Shape functions, quadrature rules and faces of the reference elements.
//!
//! Linear Lagrange elements in Gmsh node order (Gmsh reference manual, "Node
//! ordering"; identical to VTK for these cells):
//!
//! * `Line2`: ξ = −1, +1.
//! * `Tri3`: (0,0), (1,0), (0,1); `N = (1−ξ−η, ξ, η)`.
//! * `Quad4`: (−1,−1), (1,−1), (1,1), (−1,1); `N_a = ¼(1+ξ_aξ)(1+η_aη)`.
//! * `Tet4`: (0,0,0), (1,0,0), (0,1,0), (0,0,1); `N = (1−ξ−η−ζ, ξ, η, ζ)`.
//! * `Hex8`: the bottom face ζ = −1 counter-clockwise seen from +ζ, then the top
//!   face in the same order; `N_a = ⅛(1+ξ_aξ)(1+η_aη)(1+ζ_aζ)`.
//!
//! Quadrature (Hughes, *The Finite Element Method*, 2000, ch. 3; Zienkiewicz, Taylor &
//! Zhu, *The Finite Element Method*, Vol. 1, ch. 6): tensor Gauss–Legendre with
//! 2 points per direction (exact to degree 3 per direction) on line/quad/hex;
//! the 3-point interior rule on triangles and the 4-point rule
//! `a = (5+3√5)/20, b = (5−√5)/20` on tetrahedra, both exact to total degree 2,
//! so the consistent mass of an affine simplex is integrated exactly.

use super::ElementKind;

/// One quadrature point in reference coordinates with its weight.
#[derive(Debug, Clone, Copy)]
pub struct QuadPoint {
    pub xi: [f64; 3],
    pub weight: f64,
}

/// 1/√3, the 2-point Gauss–Legendre abscissa.
const G: f64 = 0.577_350_269_189_625_8;
/// Tetrahedron degree-2 rule: `(5+3√5)/20` and `(5−√5)/20`.
const TA: f64 = 0.585_410_196_624_968_5;
const TB: f64 = 0.138_196_601_125_010_5;

const fn qp(x: f64, y: f64, z: f64, weight: f64) -> QuadPoint {
    QuadPoint {
        xi: [x, y, z],
        weight,
    }
}

static Q_LINE2: [QuadPoint; 2] = [qp(-G, 0.0, 0.0, 1.0), qp(G, 0.0, 0.0, 1.0)];
static Q_TRI3: [QuadPoint; 3] = [
    qp(1.0 / 6.0, 1.0 / 6.0, 0.0, 1.0 / 6.0),
    qp(2.0 / 3.0, 1.0 / 6.0, 0.0, 1.0 / 6.0),
    qp(1.0 / 6.0, 2.0 / 3.0, 0.0, 1.0 / 6.0),
];
static Q_QUAD4: [QuadPoint; 4] = [
    qp(-G, -G, 0.0, 1.0),
    qp(G, -G, 0.0, 1.0),
    qp(G, G, 0.0, 1.0),
    qp(-G, G, 0.0, 1.0),
];
static Q_TET4: [QuadPoint; 4] = [
    qp(TB, TB, TB, 1.0 / 24.0),
    qp(TA, TB, TB, 1.0 / 24.0),
    qp(TB, TA, TB, 1.0 / 24.0),
    qp(TB, TB, TA, 1.0 / 24.0),
];
static Q_HEX8: [QuadPoint; 8] = [
    qp(-G, -G, -G, 1.0),
    qp(G, -G, -G, 1.0),
    qp(G, G, -G, 1.0),
    qp(-G, G, -G, 1.0),
    qp(-G, -G, G, 1.0),
    qp(G, -G, G, 1.0),
    qp(G, G, G, 1.0),
    qp(-G, G, G, 1.0),
];

static N_LINE2: [[f64; 3]; 2] = [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]];
static N_TRI3: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
static N_QUAD4: [[f64; 3]; 4] = [
    [-1.0, -1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
];
static N_TET4: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];
static N_HEX8: [[f64; 3]; 8] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
];

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

impl ElementKind {
    /// Shape functions `n[a] = N_a(ξ)` and reference gradients `dn[a][k] = ∂N_a/∂ξ_k`
    /// (`k` beyond the reference dimension is set to 0). Slices must hold `n_nodes()`.
    #[track_caller]
    pub fn shape(self, xi: &[f64; 3], n: &mut [f64], dn: &mut [[f64; 3]]) {
        let nn = self.n_nodes();
        assert!(
            n.len() >= nn && dn.len() >= nn,
            "shape: output slices shorter than {nn}"
        );
        let [x, y, z] = *xi;
        match self {
            ElementKind::Line2 => {
                n[0] = 0.5 * (1.0 - x);
                n[1] = 0.5 * (1.0 + x);
                dn[0] = [-0.5, 0.0, 0.0];
                dn[1] = [0.5, 0.0, 0.0];
            }
            ElementKind::Tri3 => {
                n[0] = 1.0 - x - y;
                n[1] = x;
                n[2] = y;
                dn[0] = [-1.0, -1.0, 0.0];
                dn[1] = [1.0, 0.0, 0.0];
                dn[2] = [0.0, 1.0, 0.0];
            }
            ElementKind::Quad4 => {
                for (a, p) in N_QUAD4.iter().enumerate() {
                    let sx = 1.0 + p[0] * x;
                    let sy = 1.0 + p[1] * y;
                    n[a] = 0.25 * sx * sy;
                    dn[a] = [0.25 * p[0] * sy, 0.25 * p[1] * sx, 0.0];
                }
            }
            ElementKind::Tet4 => {
                n[0] = 1.0 - x - y - z;
                n[1] = x;
                n[2] = y;
                n[3] = z;
                dn[0] = [-1.0, -1.0, -1.0];
                dn[1] = [1.0, 0.0, 0.0];
                dn[2] = [0.0, 1.0, 0.0];
                dn[3] = [0.0, 0.0, 1.0];
            }
            ElementKind::Hex8 => {
                for (a, p) in N_HEX8.iter().enumerate() {
                    let sx = 1.0 + p[0] * x;
                    let sy = 1.0 + p[1] * y;
                    let sz = 1.0 + p[2] * z;
                    n[a] = 0.125 * sx * sy * sz;
                    dn[a] = [
                        0.125 * p[0] * sy * sz,
                        0.125 * p[1] * sx * sz,
                        0.125 * p[2] * sx * sy,
                    ];
                }
            }
        }
    }

    /// Full Gauss quadrature: exact for the consistent mass matrix (degree 2 on
    /// simplices, 2 points per direction on line2/quad4/hex8). Weights sum to the
    /// reference measure (2, ½, 4, ⅙, 8).
    pub fn quadrature(self) -> &'static [QuadPoint] {
        match self {
            ElementKind::Line2 => &Q_LINE2,
            ElementKind::Tri3 => &Q_TRI3,
            ElementKind::Quad4 => &Q_QUAD4,
            ElementKind::Tet4 => &Q_TET4,
            ElementKind::Hex8 => &Q_HEX8,
        }
    }

    /// Reference coordinates of the nodes.
    pub fn reference_nodes(self) -> &'static [[f64; 3]] {
        match self {
            ElementKind::Line2 => &N_LINE2,
            ElementKind::Tri3 => &N_TRI3,
            ElementKind::Quad4 => &N_QUAD4,
            ElementKind::Tet4 => &N_TET4,
            ElementKind::Hex8 => &N_HEX8,
        }
    }

    /// Boundary faces of a 2D element (its edges, `Line2`) or of a 3D element
    /// (`Tri3`/`Quad4`), as local node indices ordered so that the face normal
    /// computed from the ordering (2D: edge direction rotated by −90°, i.e.
    /// `(t_y, −t_x)`; 3D: `(x1−x0)×(x2−x0)`) points out of the element.
    /// Quad faces are listed as a cycle in `Quad4` node order. `Line2` has no
    /// faces (empty slice). Orientation assumes a positively oriented element
    /// (`det J > 0`: counter-clockwise in 2D).
    pub fn faces(self) -> &'static [(ElementKind, &'static [usize])] {
        match self {
            ElementKind::Line2 => &[],
            ElementKind::Tri3 => &F_TRI3,
            ElementKind::Quad4 => &F_QUAD4,
            ElementKind::Tet4 => &F_TET4,
            ElementKind::Hex8 => &F_HEX8,
        }
    }
}
