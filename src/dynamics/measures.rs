//! Energies and momenta of a state (DESIGN §4):
//! `K = ½ vᵀ M v`, `Π = Σ ∫ W dV`, gravity potential `V = −Σ_A m_A g·x_A`,
//! `L = Σ_A (M v)_A`, `J = Σ_A x_A × (M v)_A` (about the origin; 2D: only `J_z`).

use super::system::System;
use crate::fe::kernel::KernelError;

/// Global measures of one state.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
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

/// Per-body measures (`bodies.csv`): kinetic and strain energy, linear momentum,
/// angular momentum about the body's centre of mass `J_c = Σ (x_A − x_c) × (Mv)_A`,
/// the centre of mass `x_c` (row-sum masses) and the mean angular velocity
/// `ω = I_c⁻¹ J_c`, `I_c = Σ m_A (|r_A|² 1 − r_A ⊗ r_A)` (2D: `ω_z = J_z / Σ m_A |r_A|²`).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BodyMeasures {
    pub kinetic: f64,
    pub strain: f64,
    pub linear: [f64; 3],
    pub angular: [f64; 3],
    pub center: [f64; 3],
    pub omega: [f64; 3],
}

impl BodyMeasures {
    /// The `bodies.csv` values after the body name.
    pub fn row(&self, t: f64) -> [f64; 15] {
        let (l, j, c, w) = (self.linear, self.angular, self.center, self.omega);
        [
            t,
            self.kinetic,
            self.strain,
            l[0],
            l[1],
            l[2],
            j[0],
            j[1],
            j[2],
            c[0],
            c[1],
            c[2],
            w[0],
            w[1],
            w[2],
        ]
    }
}

/// Measures of every body; `mv` must hold `M v` (as left by [`measure`]).
pub fn measure_bodies<const D: usize>(
    sys: &System<D>,
    x: &[f64],
    v: &[f64],
    mv: &[f64],
    n_bodies: usize,
) -> Result<Vec<BodyMeasures>, KernelError> {
    let mut strain = vec![0.0; n_bodies];
    sys.strain_energy_by_body(x, &mut strain)?;
    let mut out = vec![BodyMeasures::default(); n_bodies];
    let mut mass = vec![0.0; n_bodies];
    let pos = |a: usize| {
        let mut p = [0.0; 3];
        p[..D].copy_from_slice(&x[a * D..a * D + D]);
        p
    };
    for a in 0..sys.n_nodes {
        let b = sys.node_body[a];
        if b == usize::MAX {
            continue;
        }
        let p = pos(a);
        mass[b] += sys.lumped[a];
        for i in 0..3 {
            out[b].center[i] += sys.lumped[a] * p[i];
        }
        for i in 0..D {
            out[b].kinetic += 0.5 * v[a * D + i] * mv[a * D + i];
            out[b].linear[i] += mv[a * D + i];
        }
    }
    let mut inertia = vec![nalgebra::Matrix3::<f64>::zeros(); n_bodies];
    for (b, o) in out.iter_mut().enumerate() {
        o.strain = strain[b];
        if mass[b] > 0.0 {
            o.center.iter_mut().for_each(|c| *c /= mass[b]);
        }
    }
    for a in 0..sys.n_nodes {
        let b = sys.node_body[a];
        if b == usize::MAX {
            continue;
        }
        let p = pos(a);
        let c = out[b].center;
        let r = nalgebra::Vector3::new(p[0] - c[0], p[1] - c[1], p[2] - c[2]);
        let mut q = nalgebra::Vector3::zeros();
        for i in 0..D {
            q[i] = mv[a * D + i];
        }
        let j = r.cross(&q);
        for i in 0..3 {
            out[b].angular[i] += j[i];
        }
        inertia[b] +=
            sys.lumped[a] * (r.norm_squared() * nalgebra::Matrix3::identity() - r * r.transpose());
    }
    for (b, o) in out.iter_mut().enumerate() {
        if D == 2 {
            let iz = inertia[b][(2, 2)];
            o.omega = [0.0, 0.0, if iz > 0.0 { o.angular[2] / iz } else { 0.0 }];
        } else if let Some(inv) = inertia[b].try_inverse() {
            let w = inv * nalgebra::Vector3::from(o.angular);
            o.omega = [w[0], w[1], w[2]];
        }
    }
    Ok(out)
}
