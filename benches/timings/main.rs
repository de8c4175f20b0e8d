//! The criterion benchmarks, one binary: each module is one workload and
//! names its benchmark groups after itself (`driven_step/plain`,
//! `nonsmooth/nsgs-sweep/...`):
//!
//! ```text
//! cargo bench --bench timings                           # every workload
//! cargo bench --bench timings -- driven_step/           # one module
//! cargo bench --bench timings -- nonsmooth/nsgs-sweep   # one group of it
//! cargo test --release --benches                        # each once, small sizes
//! ```
//!
//! A filter that starts with a module's name runs that module only (its
//! set-up too: the meshes and steps a workload prepares before timing are
//! skipped for the others); any other filter is criterion's regex over every
//! benchmark id, with every module's set-up.
//!
//! One binary rather than one per workload because each benchmark crate
//! compiles its own copy of the library's generic code (the stepper, the
//! assembly, the solvers) at full optimization: ten binaries were 98 s of
//! CPU in `.ci/run` (docs/decisions/one-build-for-ci.md). The iteration-count
//! regressions (`benches/counts.rs`) stay a binary of their own: a check with
//! its own exit status, not a timing.

use std::alloc::{GlobalAlloc, Layout, System as SysAlloc};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

#[path = "../common/mod.rs"]
mod common;

mod assembly;
mod assembly_quadratic;
mod contact_iteration;
mod contact_search;
mod contact_step;
mod driven_step;
mod fclib;
mod linear;
mod lu;
mod nonsmooth;

/// Counts the bytes currently allocated, for the memory the LU's factors
/// keep (`lu.rs`). One relaxed atomic add per allocation: the timed loops
/// (assembly, contact, the factorizations' numeric phases) do not allocate.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Relaxed);
        SysAlloc.alloc(l)
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        SysAlloc.dealloc(p, l)
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        LIVE.fetch_add(new, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        SysAlloc.realloc(p, l, new)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Bytes allocated and not yet freed.
fn live_bytes() -> usize {
    LIVE.load(Relaxed)
}

/// The workloads by module name, in the order they run.
const WORKLOADS: [(&str, fn()); 10] = [
    ("assembly", assembly::benches),
    ("assembly_quadratic", assembly_quadratic::benches),
    ("contact_iteration", contact_iteration::contact_iteration),
    ("contact_search", contact_search::benches),
    ("contact_step", contact_step::contact_step),
    ("driven_step", driven_step::benches),
    ("fclib", fclib::benches),
    ("linear", linear::linear),
    ("lu", lu::benches),
    ("nonsmooth", nonsmooth::benches),
];

/// Whether command-line argument `arg` names workload `name`: the name
/// itself or a filter that starts with `name/` (a leading `^` allowed).
fn names(arg: &str, name: &str) -> bool {
    let arg = arg.strip_prefix('^').unwrap_or(arg);
    arg == name
        || arg
            .strip_prefix(name)
            .is_some_and(|rest| rest.starts_with('/'))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let picked = |name: &str| args.iter().any(|a| names(a, name));
    let any_picked = WORKLOADS.iter().any(|(name, _)| picked(name));
    for (name, run) in WORKLOADS {
        if !any_picked || picked(name) {
            run();
        }
    }
    criterion::Criterion::default()
        .configure_from_args()
        .final_summary();
}
