//! Time integration: mass, internal force and tangent assembly, energy-momentum
//! and Newmark integrators, Newton with line search and step cut-back.
