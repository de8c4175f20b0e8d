//! The acceptance of driven problems not covered elsewhere: one input
//! written with exactly the documented driven keys (every one of them at
//! once) runs and closes its ledgers every step; a driven run continued with
//! a later `time.end` is identical byte for byte to one never stopped; the
//! dragged block (validation case (a)) is driven by μN once it slides; the
//! second-order validation runs close their ledgers as the others do
//! (`ledgers.rs`).

use super::ledgers::{check, root, run, shortened, Promise};
use crate::common::fixture::source;
use crate::common::run::{emcontact, run_bin, stderr, write_input};
use emcontact::output::{read_csv, CsvTable};
use std::path::{Path, PathBuf};

/// A 2D block with every driven key of the acceptance list
/// (`tests/common/models/every_driven_key.toml`).
fn every_key() -> String {
    source("every_driven_key")
}

#[test]
fn every_documented_driven_key_in_one_input_runs_and_closes_its_ledgers() {
    let dir = tempfile::tempdir().unwrap();
    let out = run_to(dir.path(), "keys", &every_key());
    let h = read_csv(&out.join("history.csv")).unwrap();
    check("every driven key", &h, Promise::All);
    let w = h.column("external_work").unwrap();
    assert!(*w.last().unwrap() > 0.0, "the loads and motions do work");
    // both rigid masters carry the block at the end
    let (pairs, c) = table(&out, "contacts.csv");
    let active = c.column("active").unwrap();
    for pair in ["b_ymin:plane", "b_xmax:sphere"] {
        let last = pairs
            .iter()
            .rposition(|p| p == pair)
            .unwrap_or_else(|| panic!("no pair {pair} in contacts.csv"));
        assert!(active[last] > 0.0, "{pair} not in contact at the end");
    }
}

/// Runs `text` as `dir/NAME.toml` into `dir/NAME`; returns that folder.
fn run_to(dir: &Path, name: &str, text: &str) -> PathBuf {
    let input = write_input(dir, &format!("{name}.toml"), text);
    let out = dir.join(name);
    let o = run_bin(&input, &out, &["-q"]);
    assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
    out
}

/// A per-step CSV of a run with its text column (`group`, `pair`) apart.
fn table(out: &Path, file: &str) -> (Vec<String>, CsvTable) {
    let text = String::from_utf8(bytes(out, file)).unwrap();
    let names = text
        .lines()
        .skip(1)
        .map(|l| l.split(',').nth(1).unwrap().to_string())
        .collect();
    (names, read_csv(&out.join(file)).unwrap())
}

fn bytes(dir: &Path, file: &str) -> Vec<u8> {
    std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{}: {e}", dir.join(file).display()))
}

/// Validation case (a) whole: once the drag velocity is constant (t ≥ 1.3,
/// plus 0.2 for the start to pass), every contact point slips, so the
/// friction resultant is μN to round-off (the Coulomb law, measured on the
/// pair's resultants), and the block's momentum is steady in the mean, so
/// the mean driving force (the top face's reaction) is μN within 1 % (the
/// acceptance; the undamped block rings a few percent about it, the
/// case's README).
#[test]
fn the_dragged_block_is_driven_by_mu_n_in_steady_sliding() {
    const MU: f64 = 0.3;
    let text = std::fs::read_to_string(root().join("validation/dragged_block/drag.toml")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let out = run_to(dir.path(), "drag", &text);
    let (groups, r) = table(&out, "reactions.csv");
    let (pairs, c) = table(&out, "contacts.csv");
    assert!(
        groups.iter().all(|g| g == "block_ymax") && pairs.iter().all(|p| p == "block_ymin:plane")
    );
    let (t, fx) = (r.column("t").unwrap(), r.column("fx").unwrap());
    let (fn_, ft) = (c.column("fny").unwrap(), c.column("ftx").unwrap());
    let (stick, slip) = (c.column("stick").unwrap(), c.column("slip").unwrap());
    let steady: Vec<usize> = (0..t.len()).filter(|&i| t[i] >= 1.5).collect();
    assert!(steady.len() >= 100, "{} steady steps", steady.len());
    let (mut drive, mut normal) = (0.0, 0.0);
    for &i in &steady {
        assert!(
            stick[i] == 0.0 && slip[i] >= 10.0,
            "t = {}: {} stick, {} slip",
            t[i],
            stick[i],
            slip[i]
        );
        let coulomb = (ft[i].abs() - MU * fn_[i]).abs() / (MU * fn_[i]);
        assert!(
            coulomb <= 1e-10,
            "t = {}: |ft| = {} against mu N = {}",
            t[i],
            ft[i].abs(),
            MU * fn_[i]
        );
        drive += fx[i];
        normal += fn_[i];
    }
    let ratio = drive / (MU * normal);
    eprintln!("dragged block: mean driving force / (mu N) over t >= 1.5 = {ratio:.5}");
    assert!(
        (ratio - 1.0).abs() <= 0.01,
        "mean driving force {ratio} mu N"
    );
}

/// Stopped at t = 0.03 and continued to 0.06 with only `time.end` changed:
/// the histories and the final state are those of a run never stopped, byte
/// for byte. (The first run's own last state is one more frame in the
/// series: a run always writes its last state.)
#[test]
fn a_driven_run_continued_to_a_later_end_is_identical_bit_for_bit() {
    let dir = tempfile::tempdir().unwrap();
    let a = run_to(dir.path(), "a", &every_key());
    let b = run_to(
        dir.path(),
        "b",
        &every_key().replace("end = 0.06", "end = 0.03"),
    );
    let full = dir.path().join("a.toml");
    let o = emcontact(&[
        "run",
        full.to_str().unwrap(),
        "--restart",
        b.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(o.status.code(), Some(0), "restart: {}", stderr(&o));
    for file in ["history.csv", "bodies.csv", "reactions.csv", "contacts.csv"] {
        assert!(bytes(&a, file) == bytes(&b, file), "{file} differs");
    }
    assert_eq!(
        read_csv(&b.join("history.csv"))
            .unwrap()
            .column("t")
            .unwrap()
            .len(),
        7,
        "t = 0 and six steps"
    );
    assert!(
        bytes(&a, "keys_00001.vtu") == bytes(&b, "keys_00002.vtu"),
        "the final state differs"
    );
}

/// The second-order free flights of `validation/quadratic` (not in
/// `ledgers.rs`): energy and both momenta every step.
#[test]
fn quadratic_ledgers_close_every_step() {
    let meshes = format!("{}/meshes/", root().display());
    for (file, end) in [
        ("tet10_lumped.toml", "0.84"),
        ("tet10_consistent.toml", "0.84"),
        ("hex27_consistent.toml", "0.84"),
        ("quad8_lumped.toml", "0.45"),
    ] {
        let text = shortened("quadratic", file, end).replace("../../meshes/", &meshes);
        let h = run(&format!("quadratic_{file}"), &text);
        check(&format!("quadratic/{file}"), &h, Promise::All);
    }
}
