//! Physics invariants of the second-order elements: shape functions and
//! quadrature, kernels, free flight, a cantilever in bending.

mod cantilever;
mod quadratic_free_flight;
mod quadratic_kernels;
mod quadratic_shape;
