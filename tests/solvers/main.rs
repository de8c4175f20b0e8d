//! The solvers: the linear solvers of the stepper (and, as the test layout
//! is consolidated, the nonsmooth library and its FCLIB problems).

mod matrices;
mod saddle_point;
