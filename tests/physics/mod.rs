//! Physics invariants: shape functions and quadrature, element kernels, materials, one
//! energy-momentum step, free flight; energy and momenta to the tolerance the theory promises.

mod cantilever;
mod free_flight;
mod hyperelastic;
mod kernel_force;
mod kernel_mass;
mod kernel_step;
mod quadratic_free_flight;
mod quadratic_kernels;
mod quadratic_shape;
mod shape;
mod validation_free_flight;
