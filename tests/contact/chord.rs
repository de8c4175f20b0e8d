//! Chord iterations of the contact Newton: on a model whose
//! factorization is expensive, the late Newton corrections of a contact step
//! refactor only the contact block of their matrix, and the step's result
//! keeps the energy balance of exact Newton (the residual and the contact
//! law decide convergence, not the matrix).

use crate::common::fixture::Fixture;
use crate::common::run::{model, quiet, run};
use emcontact::driver;
use emcontact::output::{read_csv, CsvTable};
use std::sync::OnceLock;

/// The friction blocks (exact enforcement) on the 16×16×8 + 8×8×8 mesh
/// (9,990 dofs; its factorization, ~3e9 flops, is what chord iterations
/// save) with friction `mu`, to `end`: the first contact step (0.2 → 0.3)
/// and persistent ones.
fn blocks_9990(mu: f64, end: f64) -> String {
    Fixture::file("validation/friction_blocks/stick_mu08.toml")
        .set("time.end", end)
        .set("mesh.generate.0.divisions", vec![16, 16, 8])
        .set("mesh.generate.1.divisions", vec![8, 8, 8])
        .set("contact.0.friction", mu)
        .set("output.every", 100)
        .text()
}

/// A run's `history.csv` (as a table and as text) and `contacts.csv`.
struct Written {
    history: CsvTable,
    history_text: String,
    contacts_text: String,
}

/// `text` run to its end on a pool of `threads` threads.
fn run_on(text: &str, threads: usize) -> Written {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), text);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    pool.install(|| driver::run(&model, &quiet()).expect("run completes"));
    let read = |f: &str| std::fs::read_to_string(model.output.dir.join(f)).unwrap();
    Written {
        history: read_csv(&model.output.dir.join("history.csv")).unwrap(),
        history_text: read("history.csv"),
        contacts_text: read("contacts.csv"),
    }
}

/// μ = 0.8 to t = 0.5 on two threads, run once for the two tests that
/// read it (the energy balance of its chord iterations; its steps to
/// t = 0.3 against the same run on one thread).
fn mu08_on_two_threads() -> &'static Written {
    static RUN: OnceLock<Written> = OnceLock::new();
    RUN.get_or_init(|| run_on(&blocks_9990(0.8, 0.5), 2))
}

#[test]
fn chord_iterations_keep_the_energy_balance_of_exact_newton_mu02() {
    let r = run(&blocks_9990(0.2, 0.4));
    chord_iterations_keep_the_energy_balance(0.2, &r.history);
}

/// μ = 0.8 to t = 0.5: its step 0.4 → 0.5 ends on four chord iterations,
/// whose last residual (5.3e-11) balanced only to 1.2e-11 E₀ before a solve
/// ending on a chord iteration was held to 1e-2 of the tolerance.
#[test]
fn chord_iterations_keep_the_energy_balance_of_exact_newton_mu08() {
    chord_iterations_keep_the_energy_balance(0.8, &mu08_on_two_threads().history);
}

fn chord_iterations_keep_the_energy_balance(mu: f64, h: &CsvTable) {
    let col = |c: &str| h.column(c).unwrap();
    let (chord, fact, newton) = (
        col("chord_iterations"),
        col("factorizations"),
        col("newton_iterations"),
    );
    let total: f64 = chord.iter().sum();
    assert!(total > 0.0, "no chord iteration: {chord:?}");
    for k in 0..chord.len() {
        // every correction is a full factorization or a chord iteration
        assert!(
            chord[k] + fact[k] <= newton[k],
            "step {k}: {} chord + {} full for {} corrections",
            chord[k],
            fact[k],
            newton[k]
        );
    }
    // the per-step balance of the validation runs (≤ 5e-12 E₀ with exact
    // Newton): the residual and the contact law decide convergence, not the
    // matrix the corrections were solved with
    let (e, d) = (col("total"), col("dissipation"));
    let e0 = e[0];
    for k in 1..e.len() {
        let balance = (e[k] + d[k]) - (e[k - 1] + d[k - 1]);
        assert!(
            balance.abs() <= 5e-12 * e0,
            "step {k}: balance {:.3e} E0 ({} chord iterations)",
            balance / e0,
            chord[k]
        );
    }
    // a step with chord iterations ends below the tolerance (a free-flight
    // step may end at the round-off floor of its inertia instead)
    for (k, r) in col("residual").iter().enumerate() {
        if chord[k] > 0.0 {
            assert!(*r <= 1e-10, "step {k}: final relative residual {r:e}");
        }
    }
    // How many full factorizations a persistent step takes is a cost, not a
    // contract: benches/counts.rs records it against its baseline.
    println!(
        "μ = {mu}: factorizations per step {fact:?}, chord iterations {chord:?}, step balance ≤ {:.2e}",
        crate::common::history::step_balance(h)
    );
}

/// The same run on one thread and on two is the same bit for bit: the
/// parallel assembly, the subtrees of the factorization factored side by
/// side, the chord iterations' trailing refactorizations and the
/// matrix–vector products of the solves' residual checks sum in an order
/// that does not depend on the threads (the first contact at 9,990 dofs:
/// one factorization has 3e9 flops and parallel subtrees). The run to
/// t = 0.3 on one thread against the first rows (to t = 0.3) of the
/// μ = 0.8 run to t = 0.5 on two threads, which the energy test reads too.
#[test]
fn a_contact_run_is_the_same_bit_for_bit_on_one_thread_and_on_two() {
    let one = run_on(&blocks_9990(0.8, 0.3), 1);
    let two = mu08_on_two_threads();
    // header and one row per step (history.csv), per step and pair
    // (contacts.csv): the one-thread file is a prefix of the longer run's
    let prefix = |short: &str, long: &str| {
        let n = short.lines().count();
        short.lines().eq(long.lines().take(n)) && long.lines().count() > n
    };
    assert!(
        prefix(&one.history_text, &two.history_text),
        "history.csv differs between one and two threads"
    );
    assert!(
        prefix(&one.contacts_text, &two.contacts_text),
        "contacts.csv differs between one and two threads"
    );
}
