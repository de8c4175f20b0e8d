//! Solvers: the frictional-contact library (local and global solvers, FCLIB files
//! through the library and the command line) and the linear solvers of the stepper.

mod check;
mod default_solver;
mod fallback;
mod fclib_cli;
mod fclib_fuzz;
mod fclib_io;
mod global;
mod linear_solver;
mod local;
mod local_cases;
mod local_penalty;
mod lu_property;
mod matrices;
mod real_tangents;
mod saddle_point;
mod siconos_dat;
mod spheres;
