//! Shape functions and reference nodes of the reference elements, in Gmsh's
//! node order (Gmsh reference manual, "Node ordering"; the reference
//! coordinates below are those `gmsh.model.mesh.getElementProperties`
//! reports, checked by the tests against Gmsh's own Lagrange basis).
//!
//! First order:
//! * `Line2`: ξ = −1, +1.
//! * `Tri3`: (0,0), (1,0), (0,1); `N = (1−ξ−η, ξ, η)`.
//! * `Quad4`: (−1,−1), (1,−1), (1,1), (−1,1); `N_a = ¼(1+ξ_aξ)(1+η_aη)`.
//! * `Tet4`: (0,0,0), (1,0,0), (0,1,0), (0,0,1); `N = (1−ξ−η−ζ, ξ, η, ζ)`.
//! * `Hex8`: the bottom face ζ = −1 counter-clockwise seen from +ζ, then the top
//!   face in the same order; `N_a = ⅛(1+ξ_aξ)(1+η_aη)(1+ζ_aζ)`.
//!
//! Second order (corners first, as above, then the edge midpoints, then face
//! and volume centres):
//! * `Line3`: −1, +1, 0; Lagrange `ℓ₋ = ½ξ(ξ−1)`, `ℓ₀ = 1−ξ²`, `ℓ₊ = ½ξ(ξ+1)`.
//! * `Tri6`, `Tet10` (P2 on barycentric coordinates `L`): a vertex `i` has
//!   `N = L_i(2L_i − 1)`, an edge node between `i` and `j` has `N = 4 L_i L_j`.
//!   Tri6 edges 01, 12, 20; tet10 edges 01, 12, 20, 30, 32, 31.
//! * `Quad9`, `Hex27` (tensor-product Lagrange): `N_a = Π_k ℓ_{ξ_a,k}(ξ_k)`.
//!   Quad9: edges (0,−1), (1,0), (0,1), (−1,0), centre. Hex27: edges 01, 03, 04,
//!   12, 15, 23, 26, 37, 45, 47, 56, 67, then the face centres ζ=−1, η=−1,
//!   ξ=−1, ξ=+1, η=+1, ζ=+1 and the centre.
//! * `Quad8`, `Hex20` (serendipity, the same corners and edges as quad9 / hex27):
//!   a corner has `N = 2^{−d}Π_k(1+ξ_{a,k}ξ_k)·(Σ_k ξ_{a,k}ξ_k − d + 1)`, an edge
//!   node with `ξ_{a,m} = 0` has `N = 2^{1−d}(1−ξ_m²)Π_{k≠m}(1+ξ_{a,k}ξ_k)`
//!   (Zienkiewicz, Taylor & Zhu, Vol. 1, §6.4).

use super::ElementKind;

static N_LINE2: [[f64; 3]; 2] = [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0]];
static N_TRI3: [[f64; 3]; 3] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
static N_TET4: [[f64; 3]; 4] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
];
static N_LINE3: [[f64; 3]; 3] = [[-1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 0.0]];
static N_TRI6: [[f64; 3]; 6] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.5, 0.0, 0.0],
    [0.5, 0.5, 0.0],
    [0.0, 0.5, 0.0],
];
static N_TET10: [[f64; 3]; 10] = [
    [0.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.5, 0.0, 0.0],
    [0.5, 0.5, 0.0],
    [0.0, 0.5, 0.0],
    [0.0, 0.0, 0.5],
    [0.0, 0.5, 0.5],
    [0.5, 0.0, 0.5],
];
/// Quad9 (the first 4 are quad4's, the first 8 quad8's).
static N_QUAD9: [[f64; 3]; 9] = [
    [-1.0, -1.0, 0.0],
    [1.0, -1.0, 0.0],
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [0.0, -1.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [-1.0, 0.0, 0.0],
    [0.0, 0.0, 0.0],
];
/// Hex27 (the first 8 are hex8's, the first 20 hex20's).
static N_HEX27: [[f64; 3]; 27] = [
    [-1.0, -1.0, -1.0],
    [1.0, -1.0, -1.0],
    [1.0, 1.0, -1.0],
    [-1.0, 1.0, -1.0],
    [-1.0, -1.0, 1.0],
    [1.0, -1.0, 1.0],
    [1.0, 1.0, 1.0],
    [-1.0, 1.0, 1.0],
    [0.0, -1.0, -1.0],
    [-1.0, 0.0, -1.0],
    [-1.0, -1.0, 0.0],
    [1.0, 0.0, -1.0],
    [1.0, -1.0, 0.0],
    [0.0, 1.0, -1.0],
    [1.0, 1.0, 0.0],
    [-1.0, 1.0, 0.0],
    [0.0, -1.0, 1.0],
    [-1.0, 0.0, 1.0],
    [1.0, 0.0, 1.0],
    [0.0, 1.0, 1.0],
    [0.0, 0.0, -1.0],
    [0.0, -1.0, 0.0],
    [-1.0, 0.0, 0.0],
    [1.0, 0.0, 0.0],
    [0.0, 1.0, 0.0],
    [0.0, 0.0, 1.0],
    [0.0, 0.0, 0.0],
];

/// Barycentric index pairs of the P2 simplex nodes (`(i, i)` a vertex).
const TRI6_PAIRS: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (2, 0)];
const TET10_PAIRS: [(usize, usize); 10] = [
    (0, 0),
    (1, 1),
    (2, 2),
    (3, 3),
    (0, 1),
    (1, 2),
    (2, 0),
    (3, 0),
    (3, 2),
    (3, 1),
];

/// Value and derivative of the 1D quadratic Lagrange function of the node at
/// `r` ∈ {−1, 0, 1}.
#[inline]
fn lagrange2(r: f64, x: f64) -> (f64, f64) {
    if r < -0.5 {
        (0.5 * x * (x - 1.0), x - 0.5)
    } else if r > 0.5 {
        (0.5 * x * (x + 1.0), x + 0.5)
    } else {
        (1.0 - x * x, -2.0 * x)
    }
}

/// Tensor-product quadratic Lagrange functions in `d` dimensions on `nodes`.
fn tensor(nodes: &[[f64; 3]], d: usize, xi: &[f64; 3], n: &mut [f64], dn: &mut [[f64; 3]]) {
    for (a, p) in nodes.iter().enumerate() {
        let mut v = [0.0; 3];
        let mut dv = [0.0; 3];
        for k in 0..d {
            (v[k], dv[k]) = lagrange2(p[k], xi[k]);
        }
        let prod = |skip: usize| (0..d).filter(|&k| k != skip).map(|k| v[k]).product::<f64>();
        n[a] = prod(usize::MAX);
        dn[a] = [0.0; 3];
        for k in 0..d {
            dn[a][k] = dv[k] * prod(k);
        }
    }
}

/// Serendipity quad8 / hex20 in `d` = 2 / 3 dimensions (module docs).
fn serendipity(nodes: &[[f64; 3]], d: usize, xi: &[f64; 3], n: &mut [f64], dn: &mut [[f64; 3]]) {
    let scale = 0.5f64.powi(d as i32);
    for (a, p) in nodes.iter().enumerate() {
        dn[a] = [0.0; 3];
        match (0..d).find(|&k| p[k] == 0.0) {
            None => {
                // corner: s Π(1+p_k ξ_k) (Σ p_k ξ_k − d + 1)
                let lin: [f64; 3] = std::array::from_fn(|k| 1.0 + p[k] * xi[k]);
                let pr: f64 = lin[..d].iter().product();
                let sum: f64 = (0..d).map(|k| p[k] * xi[k]).sum::<f64>() - d as f64 + 1.0;
                n[a] = scale * pr * sum;
                for k in 0..d {
                    let others: f64 = (0..d).filter(|&m| m != k).map(|m| lin[m]).product();
                    dn[a][k] = scale * p[k] * others * (sum + lin[k]);
                }
            }
            Some(m) => {
                // edge node on the ξ_m axis: 2s (1−ξ_m²) Π_{k≠m}(1+p_k ξ_k)
                let s = 2.0 * scale;
                let bubble = 1.0 - xi[m] * xi[m];
                let lin: [f64; 3] = std::array::from_fn(|k| 1.0 + p[k] * xi[k]);
                let pr: f64 = (0..d).filter(|&k| k != m).map(|k| lin[k]).product();
                n[a] = s * bubble * pr;
                for k in 0..d {
                    dn[a][k] = if k == m {
                        s * (-2.0 * xi[m]) * pr
                    } else {
                        let others: f64 = (0..d)
                            .filter(|&j| j != m && j != k)
                            .map(|j| lin[j])
                            .product();
                        s * bubble * p[k] * others
                    };
                }
            }
        }
    }
}

/// P2 Lagrange on a simplex of dimension `d` with node pairs `pairs`.
fn simplex_p2(
    pairs: &[(usize, usize)],
    d: usize,
    xi: &[f64; 3],
    n: &mut [f64],
    dn: &mut [[f64; 3]],
) {
    // barycentric L_0 = 1 − Σξ, L_k = ξ_{k−1}, and their gradients
    let mut l = [0.0; 4];
    let mut dl = [[0.0; 3]; 4];
    l[0] = 1.0 - xi[..d].iter().sum::<f64>();
    for k in 0..d {
        l[k + 1] = xi[k];
        dl[0][k] = -1.0;
        dl[k + 1][k] = 1.0;
    }
    for (a, &(i, j)) in pairs.iter().enumerate() {
        if i == j {
            n[a] = l[i] * (2.0 * l[i] - 1.0);
            dn[a] = std::array::from_fn(|k| (4.0 * l[i] - 1.0) * dl[i][k]);
        } else {
            n[a] = 4.0 * l[i] * l[j];
            dn[a] = std::array::from_fn(|k| 4.0 * (l[j] * dl[i][k] + l[i] * dl[j][k]));
        }
    }
}

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
                for (a, p) in N_QUAD9[..4].iter().enumerate() {
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
                for (a, p) in N_HEX27[..8].iter().enumerate() {
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
            ElementKind::Line3 => tensor(&N_LINE3, 1, xi, n, dn),
            ElementKind::Tri6 => simplex_p2(&TRI6_PAIRS, 2, xi, n, dn),
            ElementKind::Quad8 => serendipity(&N_QUAD9[..8], 2, xi, n, dn),
            ElementKind::Quad9 => tensor(&N_QUAD9, 2, xi, n, dn),
            ElementKind::Tet10 => simplex_p2(&TET10_PAIRS, 3, xi, n, dn),
            ElementKind::Hex20 => serendipity(&N_HEX27[..20], 3, xi, n, dn),
            ElementKind::Hex27 => tensor(&N_HEX27, 3, xi, n, dn),
        }
    }

    /// Reference coordinates of the nodes.
    pub fn reference_nodes(self) -> &'static [[f64; 3]] {
        match self {
            ElementKind::Line2 => &N_LINE2,
            ElementKind::Tri3 => &N_TRI3,
            ElementKind::Quad4 => &N_QUAD9[..4],
            ElementKind::Tet4 => &N_TET4,
            ElementKind::Hex8 => &N_HEX27[..8],
            ElementKind::Line3 => &N_LINE3,
            ElementKind::Tri6 => &N_TRI6,
            ElementKind::Quad8 => &N_QUAD9[..8],
            ElementKind::Quad9 => &N_QUAD9,
            ElementKind::Tet10 => &N_TET10,
            ElementKind::Hex20 => &N_HEX27[..20],
            ElementKind::Hex27 => &N_HEX27,
        }
    }
}
