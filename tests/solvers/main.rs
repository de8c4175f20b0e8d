//! The solvers: the linear solvers of the stepper (and, as the test layout
//! is consolidated, the nonsmooth library and its FCLIB problems).

mod fallback;
mod lu_property;
mod matrices;
mod real_tangents;
mod saddle_point;
