//! The nonsmooth solver library: problem files, solvers, the default's choices.

mod check;
mod default_solver;
mod siconos_dat;
