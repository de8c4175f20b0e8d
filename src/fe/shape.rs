//! Shape functions, quadrature rules and faces of the reference elements.
//! (Interface fixed by the skeleton; bodies are the fe owner's to fill.)

use super::ElementKind;

/// One quadrature point in reference coordinates with its weight.
#[derive(Debug, Clone, Copy)]
pub struct QuadPoint {
    pub xi: [f64; 3],
    pub weight: f64,
}

impl ElementKind {
    /// Shape functions `n[a] = N_a(ξ)` and reference gradients `dn[a][k] = ∂N_a/∂ξ_k`
    /// (`k` beyond the reference dimension is set to 0). Slices must hold `n_nodes()`.
    pub fn shape(self, xi: &[f64; 3], n: &mut [f64], dn: &mut [[f64; 3]]) {
        let _ = (xi, n, dn);
        todo!("fe: shape functions")
    }

    /// Full Gauss quadrature: exact for the consistent mass matrix (degree 2 on
    /// simplices, 2 points per direction on line2/quad4/hex8).
    pub fn quadrature(self) -> &'static [QuadPoint] {
        todo!("fe: quadrature")
    }

    /// Reference coordinates of the nodes.
    pub fn reference_nodes(self) -> &'static [[f64; 3]] {
        todo!("fe: reference nodes")
    }

    /// Boundary faces of a 2D element (its edges, `Line2`) or of a 3D element
    /// (`Tri3`/`Quad4`), as local node indices ordered so that the face normal
    /// computed from the ordering (2D: edge direction rotated by −90°, i.e.
    /// `(t_y, −t_x)`; 3D: `(x1−x0)×(x2−x0)`) points out of the element.
    pub fn faces(self) -> &'static [(ElementKind, &'static [usize])] {
        todo!("fe: faces")
    }
}
