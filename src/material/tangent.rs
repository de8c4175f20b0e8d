//! Voigt storage of stress linearizations (the [`Tangent`] type) and the helpers
//! that move symmetric 3×3 tensors in and out of Voigt vectors.
//!
//! Convention (see [`Tangent`]): Voigt vectors hold *tensor* components in the order
//! `[11, 22, 33, 12, 23, 13]` — no factor 2 on the shears. The double contraction
//! of two symmetric tensors is therefore `A:B = Σ_I w_I A_I B_I` with
//! `w = [1, 1, 1, 2, 2, 2]` ([`VOIGT_WEIGHT`]).

use super::Tangent;
use nalgebra::{Matrix3, Matrix6, Vector6};

/// Index pairs of the Voigt components `[11, 22, 33, 12, 23, 13]` (0-based).
pub const VOIGT_PAIRS: [(usize, usize); 6] = [(0, 0), (1, 1), (2, 2), (0, 1), (1, 2), (0, 2)];

/// Weights turning a Voigt dot product into the tensor contraction `A:B`.
pub const VOIGT_WEIGHT: [f64; 6] = [1.0, 1.0, 1.0, 2.0, 2.0, 2.0];

/// Tensor components of a symmetric 3×3 matrix in Voigt order (upper triangle read).
#[inline]
pub fn to_voigt(m: &Matrix3<f64>) -> Vector6<f64> {
    Vector6::new(
        m[(0, 0)],
        m[(1, 1)],
        m[(2, 2)],
        m[(0, 1)],
        m[(1, 2)],
        m[(0, 2)],
    )
}

/// Symmetric 3×3 matrix from its Voigt tensor components.
#[inline]
pub fn from_voigt(v: &Vector6<f64>) -> Matrix3<f64> {
    Matrix3::new(v[0], v[3], v[5], v[3], v[1], v[4], v[5], v[4], v[2])
}

/// `w ∘ v`: the covector with `(w ∘ a)·b = A:B` for symmetric `A`, `B`.
#[inline]
pub fn weighted(v: &Vector6<f64>) -> Vector6<f64> {
    Vector6::new(v[0], v[1], v[2], 2.0 * v[3], 2.0 * v[4], 2.0 * v[5])
}

/// Double contraction `A:B` of two symmetric tensors given in Voigt form.
#[inline]
pub fn ddot_voigt(a: &Vector6<f64>, b: &Vector6<f64>) -> f64 {
    weighted(a).dot(b)
}

impl Tangent {
    /// `dS = T(dC)`; `dc` must be symmetric (only its upper triangle is read).
    pub fn apply(&self, dc: &Matrix3<f64>) -> Matrix3<f64> {
        from_voigt(&(self.0 * to_voigt(dc)))
    }

    /// The Voigt matrix of an isotropic linear map `dS = a tr(dC) I + b dC`.
    pub fn isotropic(a: f64, b: f64) -> Tangent {
        let mut t = Matrix6::zeros();
        for i in 0..3 {
            for j in 0..3 {
                t[(i, j)] = a;
            }
        }
        for i in 0..6 {
            t[(i, i)] += b;
        }
        Tangent(t)
    }
}
