//! `emcontact-mpi`, the parallel program: the command line of
//! [`emcontact::cli::app`] with the distributed driver (one or more ranks
//! under `mpirun`, docs/parallel.md).

use emcontact::cli::app::{self, Backend, Failure};
use emcontact::driver::{RunOptions, RunSummary};
use emcontact::model::Model;

const PARALLEL: Backend = Backend {
    name: "emcontact-mpi",
    run,
    check_lines: emcontact_mpi::check_lines,
    petsc: true,
};

fn run(model: &Model, opts: &RunOptions) -> Result<RunSummary, Failure> {
    emcontact_mpi::run(model, opts).map_err(|e| Failure {
        message: e.to_string(),
        input: e.is_input(),
    })
}

fn main() -> std::process::ExitCode {
    // MPI first, finalized after everything else
    let _mpi = emcontact_mpi::Mpi::init();
    app::main(&PARALLEL)
}
