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
    for a in 0..sys.n_nodes {
        let mut p = [0.0; 3];
        let mut xa = [0.0; 3];
        p[..D].copy_from_slice(&mv[a * D..a * D + D]);
        xa[..D].copy_from_slice(&x[a * D..a * D + D]);
        for i in 0..3 {
            linear[i] += p[i];
            gravity -= sys.lumped[a] * g[i] * xa[i];
        }
        angular[0] += xa[1] * p[2] - xa[2] * p[1];
        angular[1] += xa[2] * p[0] - xa[0] * p[2];
        angular[2] += xa[0] * p[1] - xa[1] * p[0];
    }
    Ok(Measures {
        kinetic,
        strain,
        gravity,
        linear,
        angular,
    })
}
