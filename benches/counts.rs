//! Iteration and factorization counts of the contact Newton against their
//! recorded baselines (`benches/baselines/counts.toml`). The counts are a
//! cost, not a contract: the tests assert what a converged step must satisfy
//! (energy, momenta, the Coulomb law, the residual), and this benchmark says
//! when a change makes the same answers take more work.
//!
//! ```text
//! cargo bench --bench counts              # measure, compare, exit 1 on a regression
//! cargo bench --bench counts -- --record  # measure and write the baselines
//! ```
//!
//! Cases (every step at the input's Δt unless a cut-back is needed):
//! * the friction blocks of validation/friction_blocks (coarse: 8×8×4 +
//!   4×4×4 hex8, 1,590 dofs), μ = 0.2 and 0.8, exact and augmented-Lagrangian
//!   enforcement, to t = 0.7: Newton iterations of the contact steps;
//! * the ring impact of validation/ring_impact (μ = 0.5) with
//!   augmented-Lagrangian enforcement to t = 1.5: the same, and cut-backs;
//! * the friction blocks on 16×16×8 + 8×8×8 (9,990 dofs), μ = 0.2 to t = 0.4
//!   and μ = 0.8 to t = 0.5: full factorizations per persistent contact step
//!   (after the first contact step 0.2 → 0.3) and chord iterations.
//!
//! A measured count above its baseline is a regression (exit 1); one below
//! it is printed as an improvement: record the new baselines with the change.

use emcontact::driver::{self, RunOptions};
use emcontact::output::read_csv;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One case's counts, by name.
type Counts = BTreeMap<String, i64>;

fn repo(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

/// A validation input as a TOML table, to edit by key.
fn validation(path: &str) -> toml::Table {
    std::fs::read_to_string(repo(path))
        .unwrap()
        .parse()
        .unwrap()
}

/// Runs `text` and reads its history: `(columns by name, cut-backs)`.
fn run(text: &str) -> (BTreeMap<String, Vec<f64>>, usize) {
    let dir = tempfile::tempdir().unwrap();
    let mut model = emcontact::input::parse(&dir.path().join("case.toml"), text).unwrap();
    model.output.dir = dir.path().join("out");
    let opts = RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    };
    let s = driver::run(&model, &opts).expect("run completes");
    let h = read_csv(&model.output.dir.join("history.csv")).unwrap();
    let cols = h
        .header
        .iter()
        .map(|c| (c.clone(), h.column(c).unwrap()))
        .collect();
    (cols, s.cutbacks)
}

/// Median, maximum and total Newton iterations of the steps in contact.
fn newton_counts(h: &BTreeMap<String, Vec<f64>>, cutbacks: usize) -> Counts {
    let mut its: Vec<i64> = h["active"]
        .iter()
        .zip(&h["newton_iterations"])
        .filter(|(a, _)| **a > 0.0)
        .map(|(_, n)| *n as i64)
        .collect();
    its.sort_unstable();
    Counts::from([
        ("contact_steps".into(), its.len() as i64),
        ("newton_median".into(), its[its.len() / 2]),
        ("newton_max".into(), *its.last().unwrap()),
        ("newton_total".into(), its.iter().sum()),
        ("cutbacks".into(), cutbacks as i64),
    ])
}

fn blocks_coarse(mu: f64, enforcement: &str) -> Counts {
    let mut t = validation("validation/friction_blocks/stick_mu08.toml");
    t["time"]["end"] = 0.7.into();
    t["contact"][0]["friction"] = mu.into();
    let contact = t["contact"][0].as_table_mut().unwrap();
    contact.insert("enforcement".into(), enforcement.into());
    let (h, cutbacks) = run(&toml::to_string(&t).unwrap());
    newton_counts(&h, cutbacks)
}

fn ring_augmented_lagrangian() -> Counts {
    let mut t = validation("validation/ring_impact/velocity_update.toml");
    t["time"]["end"] = 1.5.into();
    let contact = t["contact"][0].as_table_mut().unwrap();
    contact.insert("enforcement".into(), "augmented-lagrangian".into());
    let (h, cutbacks) = run(&toml::to_string(&t).unwrap());
    newton_counts(&h, cutbacks)
}

fn blocks_9990(mu: f64, end: f64) -> Counts {
    let mut t = validation("validation/friction_blocks/stick_mu08.toml");
    t["time"]["end"] = end.into();
    t["contact"][0]["friction"] = mu.into();
    t["mesh"]["generate"][0]["divisions"] = vec![16, 16, 8].into();
    t["mesh"]["generate"][1]["divisions"] = vec![8, 8, 8].into();
    let (h, cutbacks) = run(&toml::to_string(&t).unwrap());
    let persistent: Vec<usize> = (0..h["t"].len())
        .filter(|&k| h["t"][k] > 0.3 + 1e-9 && h["active"][k] > 0.0)
        .collect();
    let sum = |c: &str| h[c].iter().sum::<f64>() as i64;
    Counts::from([
        (
            "factorizations_per_persistent_step_max".into(),
            persistent
                .iter()
                .map(|&k| h["factorizations"][k] as i64)
                .max()
                .unwrap_or(0),
        ),
        ("factorizations_total".into(), sum("factorizations")),
        ("chord_iterations_total".into(), sum("chord_iterations")),
        ("newton_total".into(), sum("newton_iterations")),
        ("cutbacks".into(), cutbacks as i64),
    ])
}

fn main() {
    let record = std::env::args().any(|a| a == "--record");
    let mut measured: BTreeMap<String, Counts> = BTreeMap::new();
    for (mu, label) in [(0.2, "mu02"), (0.8, "mu08")] {
        for (enforcement, e) in [("exact", "exact"), ("augmented-lagrangian", "al")] {
            measured.insert(
                format!("blocks_{label}_{e}"),
                blocks_coarse(mu, enforcement),
            );
        }
    }
    measured.insert("ring_al".into(), ring_augmented_lagrangian());
    measured.insert("blocks_9990_mu02".into(), blocks_9990(0.2, 0.4));
    measured.insert("blocks_9990_mu08".into(), blocks_9990(0.8, 0.5));

    let path = repo("benches/baselines/counts.toml");
    if record {
        let text = format!(
            "# Iteration and factorization counts of benches/counts.rs (written by\n\
             # `cargo bench --bench counts -- --record`): the most a case may take.\n{}",
            toml::to_string(&measured).unwrap()
        );
        std::fs::write(&path, text).unwrap();
        println!("recorded {}", path.display());
        return;
    }
    let baseline: BTreeMap<String, Counts> =
        toml::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut regressions = 0;
    println!(
        "{:<18} {:<40} {:>8} {:>8}",
        "case", "count", "measured", "baseline"
    );
    for (case, counts) in &measured {
        for (name, &m) in counts {
            let b = baseline.get(case).and_then(|c| c.get(name)).copied();
            let verdict = match b {
                Some(b) if m > b => {
                    regressions += 1;
                    "REGRESSION"
                }
                Some(b) if m < b => "better: record it",
                Some(_) => "",
                None => "no baseline",
            };
            let b = b.map_or("-".to_string(), |b| b.to_string());
            println!("{case:<18} {name:<40} {m:>8} {b:>8} {verdict}");
        }
    }
    if regressions > 0 {
        eprintln!("{regressions} count(s) above their baseline");
        std::process::exit(1);
    }
}
