//! The integration tests, one crate (one binary to build and link) in five
//! areas by level, each a folder whose `mod.rs` declares one module per
//! concern: `physics` (elements, materials, the energy-momentum step, free
//! flight), `contact` (geometry, search, the exact tangent, enforcement,
//! contact dynamics and their ledgers), `solvers` (the frictional-contact
//! library, FCLIB files, the linear-solver paths), `cli` (the command line,
//! input errors, meshes, output files, restart, the documentation's paths)
//! and `regressions` (one file per bug, named after it). `common` holds the
//! fixtures they share. Run one area with `cargo test --release --test suite
//! contact::`.

mod common;

mod cli;
mod contact;
mod physics;
mod regressions;
mod solvers;
