//! Energies and momenta of a state (DESIGN §4):
//! `K = ½ vᵀ M v`, `Π = Σ ∫ W dV`, gravity potential `V = −Σ_A m_A g·x_A`,
//! `L = Σ_A (M v)_A`, `J = Σ_A x_A × (M v)_A` (about the origin; 2D: only `J_z`).

use super::system::System;
use crate::fe::kernel::KernelError;

/// Global measures of one state.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Measures {
    pub kinetic: f64,
    pub strain: f64,
    pub gravity: f64,
    pub linear: [f64; 3],
    pub angular: [f64; 3],
    /// `Σ_A |(M v)_A|` and `Σ_A |x_A × (M v)_A|`: the size of the motion, used to
    /// normalize momentum drifts when `L` or `J` itself is (nearly) zero.
    pub linear_scale: f64,
    pub angular_scale: f64,
}

impl Measures {
    /// `K + Π + V`.
    pub fn total(&self) -> f64 {
        self.kinetic + self.strain + self.gravity
    }
}

/// Computes the measures of `(x, v)`; `mv` is scratch of the dof count.
pub fn measure<const D: usize>(
    sys: &System<D>,
    x: &[f64],
    v: &[f64],
    g: &[f64; 3],
    mv: &mut [f64],
) -> Result<Measures, KernelError> {
    sys.mass_times(v, mv);
    let kinetic = 0.5 * v.iter().zip(mv.iter()).map(|(a, b)| a * b).sum::<f64>();
    let strain = sys.strain_energy(x)?;
    let mut gravity = 0.0;
    let mut linear = [0.0; 3];
    let mut angular = [0.0; 3];
    let (mut linear_scale, mut angular_scale) = (0.0, 0.0);
    for a in 0..sys.n_nodes {
        let mut p = [0.0; 3];
        let mut xa = [0.0; 3];
        p[..D].copy_from_slice(&mv[a * D..a * D + D]);
        xa[..D].copy_from_slice(&x[a * D..a * D + D]);
        for i in 0..3 {
            linear[i] += p[i];
            gravity -= sys.lumped[a] * g[i] * xa[i];
        }
        let j = [
            xa[1] * p[2] - xa[2] * p[1],
            xa[2] * p[0] - xa[0] * p[2],
            xa[0] * p[1] - xa[1] * p[0],
        ];
        for i in 0..3 {
            angular[i] += j[i];
        }
        linear_scale += (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]).sqrt();
        angular_scale += (j[0] * j[0] + j[1] * j[1] + j[2] * j[2]).sqrt();
    }
    Ok(Measures {
        kinetic,
        strain,
        gravity,
        linear,
        angular,
        linear_scale,
        angular_scale,
    })
}
