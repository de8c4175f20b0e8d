//! Quadrature rules of the reference elements: one for the mass (and volume),
//! one for the integrands that depend on the configuration only through `F`
//! (internal force, tangent, strain energy, stress).
//!
//! Which rule and why (Hughes, *The Finite Element Method*, 2000, §3.8;
//! Zienkiewicz, Taylor & Zhu, *The Finite Element Method*, Vol. 1, ch. 6):
//!
//! | kind | mass rule | stiffness rule |
//! |---|---|---|
//! | line2 / line3 | Gauss 2 / 3 | same |
//! | tri3 | 3 points, degree 2 | centroid (F constant) |
//! | tri6 | 6 points, degree 4 (Dunavant 1985) | 3 points, degree 2 |
//! | quad4 | Gauss 2×2 | 2×2 |
//! | quad8, quad9 | Gauss 3×3 | 3×3 |
//! | tet4 | 4 points, degree 2 | centroid (F constant) |
//! | tet10 | 14 points, degree 5 (Walkington 2000; all weights positive) | 4 points, degree 2 |
//! | hex8 | Gauss 2×2×2 | 2×2×2 |
//! | hex20, hex27 | Gauss 3×3×3 | 3×3×3 |
//!
//! The mass rule integrates `N_a N_b` exactly on an undistorted element
//! (degree 2 for first order, 4 for second order: the simplex rules reach
//! total degree 2 / 4 (5 on the tetrahedron), the Gauss rules degree 3 / 5 per
//! direction). The stiffness rule is full integration: it integrates the
//! small-strain stiffness `∇N_a·C∇N_b` of an undistorted element exactly
//! (degree 0 for tri3/tet4, 2 for tri6/tet10, 2 / 4 per direction for the
//! tensor kinds), so no element has spurious zero-energy modes (the 2×2×2
//! "reduced" rule on hex20, or 2×2 on quad8, would). The energy-momentum
//! identities hold at every quadrature point, so they do not depend on the
//! rule being exact.

use super::ElementKind;

/// One quadrature point in reference coordinates with its weight.
#[derive(Debug, Clone, Copy)]
pub struct QuadPoint {
    pub xi: [f64; 3],
    pub weight: f64,
}

/// 1/√3, the 2-point Gauss–Legendre abscissa.
const G2: f64 = 0.577_350_269_189_625_8;
/// √(3/5), the 3-point Gauss–Legendre abscissa; its weights are 5/9 and 8/9.
const G3: f64 = 0.774_596_669_241_483_4;
const GAUSS2: [(f64, f64); 2] = [(-G2, 1.0), (G2, 1.0)];
const GAUSS3: [(f64, f64); 3] = [(-G3, 5.0 / 9.0), (0.0, 8.0 / 9.0), (G3, 5.0 / 9.0)];

/// Tetrahedron degree-2 rule: `(5+3√5)/20` and `(5−√5)/20`.
const TA: f64 = 0.585_410_196_624_968_5;
const TB: f64 = 0.138_196_601_125_010_5;

const fn qp(x: f64, y: f64, z: f64, weight: f64) -> QuadPoint {
    QuadPoint {
        xi: [x, y, z],
        weight,
    }
}

/// Tensor-product Gauss rule of `P` points per direction in `dim` dimensions,
/// ξ fastest.
const fn gauss<const P: usize, const Q: usize>(g: [(f64, f64); P], dim: usize) -> [QuadPoint; Q] {
    let mut out = [qp(0.0, 0.0, 0.0, 0.0); Q];
    let mut q = 0;
    while q < Q {
        let (i, j, k) = (q % P, (q / P) % P, q / (P * P));
        let mut p = qp(g[i].0, 0.0, 0.0, g[i].1);
        if dim >= 2 {
            p.xi[1] = g[j].0;
            p.weight *= g[j].1;
        }
        if dim == 3 {
            p.xi[2] = g[k].0;
            p.weight *= g[k].1;
        }
        out[q] = p;
        q += 1;
    }
    out
}

static Q_LINE2: [QuadPoint; 2] = gauss::<2, 2>(GAUSS2, 1);
static Q_LINE3: [QuadPoint; 3] = gauss::<3, 3>(GAUSS3, 1);
static Q_QUAD3X3: [QuadPoint; 9] = gauss::<3, 9>(GAUSS3, 2);
static Q_HEX3X3X3: [QuadPoint; 27] = gauss::<3, 27>(GAUSS3, 3);
// The 2×2 and 2×2×2 rules keep their historical point order (a cycle of the
// corners), which the kernels' summation order and so every result depend on.
static Q_QUAD4: [QuadPoint; 4] = [
    qp(-G2, -G2, 0.0, 1.0),
    qp(G2, -G2, 0.0, 1.0),
    qp(G2, G2, 0.0, 1.0),
    qp(-G2, G2, 0.0, 1.0),
];
static Q_HEX8: [QuadPoint; 8] = [
    qp(-G2, -G2, -G2, 1.0),
    qp(G2, -G2, -G2, 1.0),
    qp(G2, G2, -G2, 1.0),
    qp(-G2, G2, -G2, 1.0),
    qp(-G2, -G2, G2, 1.0),
    qp(G2, -G2, G2, 1.0),
    qp(G2, G2, G2, 1.0),
    qp(-G2, G2, G2, 1.0),
];
static Q_TRI3: [QuadPoint; 3] = [
    qp(1.0 / 6.0, 1.0 / 6.0, 0.0, 1.0 / 6.0),
    qp(2.0 / 3.0, 1.0 / 6.0, 0.0, 1.0 / 6.0),
    qp(1.0 / 6.0, 2.0 / 3.0, 0.0, 1.0 / 6.0),
];
static Q_TET4: [QuadPoint; 4] = [
    qp(TB, TB, TB, 1.0 / 24.0),
    qp(TA, TB, TB, 1.0 / 24.0),
    qp(TB, TA, TB, 1.0 / 24.0),
    qp(TB, TB, TA, 1.0 / 24.0),
];
static Q_TRI_CENTROID: [QuadPoint; 1] = [qp(1.0 / 3.0, 1.0 / 3.0, 0.0, 0.5)];
static Q_TET_CENTROID: [QuadPoint; 1] = [qp(0.25, 0.25, 0.25, 1.0 / 6.0)];

/// Triangle, 6 points, degree 4 (Dunavant 1985, "High degree efficient
/// symmetrical Gaussian quadrature rules for the triangle", rule 4; the
/// abscissae and weights solved again to 20 digits from the moment equations).
const D4A: f64 = 0.445_948_490_915_964_886;
const D4AW: f64 = 0.111_690_794_839_005_733;
const D4B: f64 = 0.091_576_213_509_770_743;
const D4BW: f64 = 0.054_975_871_827_660_934;
static Q_TRI6: [QuadPoint; 6] = [
    qp(D4A, D4A, 0.0, D4AW),
    qp(1.0 - 2.0 * D4A, D4A, 0.0, D4AW),
    qp(D4A, 1.0 - 2.0 * D4A, 0.0, D4AW),
    qp(D4B, D4B, 0.0, D4BW),
    qp(1.0 - 2.0 * D4B, D4B, 0.0, D4BW),
    qp(D4B, 1.0 - 2.0 * D4B, 0.0, D4BW),
];

/// Tetrahedron, 14 points, degree 5, positive weights (Walkington 2000,
/// "Quadrature on simplices of arbitrary dimension"; also Keast 1986's
/// degree-5 family): 4 points `(a,a,a,1−3a)`, 4 points `(b,b,b,1−3b)` and 6
/// points `(c,c,½−c,½−c)` in barycentric coordinates, solved again to 20
/// digits from the moment equations.
const W5A: f64 = 0.092_735_250_310_891_226;
const W5AW: f64 = 0.012_248_840_519_393_658;
const W5B: f64 = 0.310_885_919_263_300_610;
const W5BW: f64 = 0.018_781_320_953_002_642;
const W5C: f64 = 0.045_503_704_125_649_649;
const W5CW: f64 = 0.007_091_003_462_846_911;
const W5CH: f64 = 0.5 - W5C;
static Q_TET10: [QuadPoint; 14] = [
    qp(W5A, W5A, W5A, W5AW),
    qp(1.0 - 3.0 * W5A, W5A, W5A, W5AW),
    qp(W5A, 1.0 - 3.0 * W5A, W5A, W5AW),
    qp(W5A, W5A, 1.0 - 3.0 * W5A, W5AW),
    qp(W5B, W5B, W5B, W5BW),
    qp(1.0 - 3.0 * W5B, W5B, W5B, W5BW),
    qp(W5B, 1.0 - 3.0 * W5B, W5B, W5BW),
    qp(W5B, W5B, 1.0 - 3.0 * W5B, W5BW),
    qp(W5C, W5C, W5CH, W5CW),
    qp(W5C, W5CH, W5C, W5CW),
    qp(W5C, W5CH, W5CH, W5CW),
    qp(W5CH, W5C, W5C, W5CW),
    qp(W5CH, W5C, W5CH, W5CW),
    qp(W5CH, W5CH, W5C, W5CW),
];

impl ElementKind {
    /// The mass rule: exact for the consistent mass matrix of an undistorted
    /// element (module docs). Weights sum to the reference measure (2, ½, 4,
    /// ⅙, 8).
    pub fn quadrature(self) -> &'static [QuadPoint] {
        match self {
            ElementKind::Line2 => &Q_LINE2,
            ElementKind::Tri3 => &Q_TRI3,
            ElementKind::Quad4 => &Q_QUAD4,
            ElementKind::Tet4 => &Q_TET4,
            ElementKind::Hex8 => &Q_HEX8,
            ElementKind::Line3 => &Q_LINE3,
            ElementKind::Tri6 => &Q_TRI6,
            ElementKind::Quad8 | ElementKind::Quad9 => &Q_QUAD3X3,
            ElementKind::Tet10 => &Q_TET10,
            ElementKind::Hex20 | ElementKind::Hex27 => &Q_HEX3X3X3,
        }
    }

    /// The stiffness rule: full integration of the small-strain stiffness of an
    /// undistorted element (module docs); the centroid on tri3/tet4, where `F`
    /// is constant.
    pub fn stiffness_quadrature(self) -> &'static [QuadPoint] {
        match self {
            ElementKind::Tri3 => &Q_TRI_CENTROID,
            ElementKind::Tet4 => &Q_TET_CENTROID,
            ElementKind::Tri6 => &Q_TRI3,
            ElementKind::Tet10 => &Q_TET4,
            k => k.quadrature(),
        }
    }
}
