//! The command line, input errors and output formats of second-order meshes.

mod quadratic_meshes;
