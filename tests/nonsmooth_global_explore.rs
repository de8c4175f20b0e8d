//! Measurement run (ignored by default): every registered solver on every sample file
//! through `fc bench`, for docs/solvers.md. Output in $FC_BENCH_DIR (default
//! target/fc-bench). Run with
//! `cargo test --release --test nonsmooth_global_explore -- --ignored --nocapture`.

#[path = "nonsmooth_global_common/mod.rs"]
mod common;

use common::{data, FILES};
use emcontact::nonsmooth::cli::{run, FcCommand};
use emcontact::nonsmooth::global;

#[test]
#[ignore]
fn measure_all_solvers() {
    let dir = std::env::var("FC_BENCH_DIR").unwrap_or_else(|_| "target/fc-bench".into());
    let timeout = std::env::var("FC_BENCH_TIMEOUT")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let solvers: Vec<String> = match std::env::var("FC_BENCH_SOLVERS") {
        Ok(s) => s.split(',').map(String::from).collect(),
        Err(_) => global::solvers().into_iter().map(|s| s.name).collect(),
    };
    let code = run(FcCommand::Bench {
        files: FILES.iter().map(|f| data(f)).collect(),
        solvers,
        tol: 1e-8,
        timeout,
        output: dir.into(),
    });
    assert_eq!(code, 0);
}
