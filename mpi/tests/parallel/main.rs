//! The parallel program's tests (`cargo test --release -p emcontact-mpi`):
//! `emcontact-mpi` run by `mpirun` on 1 and 2 ranks against the
//! serial driver of the same library, the restart, and the errors that
//! must stop every rank.

mod contact;
mod contact_output;
mod drive;
mod errors;
mod harness;
mod ledgers;
mod ordering;
mod program;
mod restart;
