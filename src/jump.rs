//! What a jump of the velocities does to the ledgers: the kinetic energy,
//! momentum and angular momentum it adds. Two jumps occur in a step: the
//! prescribed end velocities of driven boundaries
//! ([`crate::dynamics::prescribed`]) and the velocity update's impulses
//! through supports and rigid masters ([`crate::contact::update`]); both
//! enter the external work and impulse of the step's ledger
//! (docs/ledgers.md).

/// What setting the velocities `v̂ → v` added: kinetic energy, momenta and
/// their sizes (`M` the mass matrix, `x_A` the node positions).
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Jump {
    /// Kinetic energy added, `½vᵀMv − ½v̂ᵀMv̂`.
    pub work: f64,
    /// Linear momentum added, `Σ_A (M(v − v̂))_A`.
    pub linear: [f64; 3],
    /// Angular momentum about the origin added, `Σ_A x_A × (M(v − v̂))_A`.
    pub angular: [f64; 3],
    /// `Σ_A |…|` of the same: the size of the impulses, for the scales.
    pub linear_size: f64,
    pub angular_size: f64,
}

impl Jump {
    /// The sum of two jumps.
    pub fn plus(&self, o: &Jump) -> Jump {
        Jump {
            work: self.work + o.work,
            linear: [0, 1, 2].map(|i| self.linear[i] + o.linear[i]),
            angular: [0, 1, 2].map(|i| self.angular[i] + o.angular[i]),
            linear_size: self.linear_size + o.linear_size,
            angular_size: self.angular_size + o.angular_size,
        }
    }
}
