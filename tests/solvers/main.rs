//! The solvers: the linear solvers of the stepper, and the nonsmooth library
//! (problem files, solvers, the default's choices).

mod check;
mod default_solver;
mod matrices;
mod saddle_point;
mod siconos_dat;
