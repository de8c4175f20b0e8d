//! The energy and momentum ledgers of every validation case, recomputed
//! step by step from `history.csv` alone (docs/ledgers.md): short runs of
//! the driven cases (a)–(d) and of every existing validation input
//! (`validation/run_all.sh` runs them whole).
//!
//! Per step, against the run's scales:
//! * energy `|Δtotal + Δdissipation − Δexternal_work|` over
//!   `max_n max(kinetic + strain, |external_work|, dissipation)`, where the
//!   method promises it (energy-momentum with the velocity update);
//! * linear momentum `|ΔL − ΔI|` over `max_n max(|L|, linear_scale,
//!   impulse_size)` (every run, Newmark's with its γ-weighted impulse);
//! * angular momentum `|ΔJ − ΔK|` over the same of `J` (energy-momentum).

use crate::common::run::run_text;
use emcontact::output::CsvTable;
use std::path::Path;

/// The tolerance of the acceptance: 1e-10 of the scale, every step.
const TOL: f64 = 1e-10;

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `text` (an input from `validation/<case>`, shortened) and returns
/// its history.
pub(crate) fn run(name: &str, text: &str) -> CsvTable {
    let r = run_text(text, &["-q"]);
    r.assert_ok(name);
    r.history()
}

/// A validation input with `end` replaced (and no VTK frames to speak of).
pub(crate) fn shortened(case: &str, file: &str, end: &str) -> String {
    let text = std::fs::read_to_string(root().join("validation").join(case).join(file)).unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("end ="))
        .unwrap_or_else(|| panic!("{case}/{file}: no time.end"));
    text.replacen(line, &format!("end = {end}"), 1)
}

/// The largest per-step closures `(energy, linear, angular)` of a history
/// over their scales (module docs).
fn closures(h: &CsvTable) -> (f64, f64, f64) {
    let c = |k: &str| h.column(k).unwrap_or_else(|| panic!("no column {k}"));
    let n = c("t").len();
    let (k, s, w, d, e) = (
        c("kinetic"),
        c("strain"),
        c("external_work"),
        c("dissipation"),
        c("total"),
    );
    let e_scale = (0..n).fold(0.0f64, |m, i| m.max(k[i] + s[i]).max(w[i].abs()).max(d[i]));
    let energy = (1..n)
        .map(|i| ((e[i] - e[i - 1]) + (d[i] - d[i - 1]) - (w[i] - w[i - 1])).abs())
        .fold(0.0, f64::max)
        / e_scale;
    let ledger = |m: [&str; 3], imp: [&str; 3], scales: [&str; 2]| {
        let (m, imp) = (m.map(c), imp.map(c));
        let mut scale = (0..n).fold(0.0f64, |acc, i| {
            acc.max((m[0][i].powi(2) + m[1][i].powi(2) + m[2][i].powi(2)).sqrt())
        });
        for s in scales {
            scale = c(s).iter().fold(scale, |acc, v| acc.max(v.abs()));
        }
        (1..n)
            .map(|i| {
                (0..3)
                    .map(|k| ((m[k][i] - m[k][i - 1]) - (imp[k][i] - imp[k][i - 1])).powi(2))
                    .sum::<f64>()
                    .sqrt()
            })
            .fold(0.0, f64::max)
            / scale
    };
    (
        energy,
        ledger(
            ["lx", "ly", "lz"],
            ["impulse_x", "impulse_y", "impulse_z"],
            ["linear_scale", "impulse_size"],
        ),
        ledger(
            ["jx", "jy", "jz"],
            [
                "angular_impulse_x",
                "angular_impulse_y",
                "angular_impulse_z",
            ],
            ["angular_scale", "angular_impulse_size"],
        ),
    )
}

/// What the method promises for a run.
#[derive(Clone, Copy)]
pub(crate) enum Promise {
    /// Energy-momentum with the velocity update: all three ledgers.
    All,
    /// Energy-momentum without the update: both momenta.
    Momenta,
    /// Newmark: linear momentum.
    Linear,
}

pub(crate) fn check(name: &str, h: &CsvTable, promise: Promise) {
    let (e, l, j) = closures(h);
    eprintln!("{name}: per-step closure energy {e:.2e}, linear {l:.2e}, angular {j:.2e}");
    assert!(l <= TOL, "{name}: linear momentum ledger {l:e}");
    if !matches!(promise, Promise::Linear) {
        assert!(j <= TOL, "{name}: angular momentum ledger {j:e}");
    }
    if matches!(promise, Promise::All) {
        assert!(e <= TOL, "{name}: energy ledger {e:e}");
    }
}

#[test]
fn dragged_block_ledgers_close_every_step() {
    let h = run("drag", &shortened("dragged_block", "drag.toml", "0.6"));
    check("dragged_block", &h, Promise::All);
    assert!(*h.column("external_work").unwrap().last().unwrap() > 0.0);
}

#[test]
fn squeezed_ring_ledgers_close_every_step() {
    let h = run(
        "squeeze",
        &shortened("squeezed_ring", "squeeze.toml", "0.3"),
    );
    check("squeezed_ring", &h, Promise::All);
}

#[test]
fn pressure_plate_ledgers_close_every_step() {
    let h = run("plate", &shortened("pressure_plate", "plate.toml", "0.3"));
    check("pressure_plate", &h, Promise::All);
    assert!(
        h.column("active").unwrap().iter().any(|&a| a > 0.0),
        "the short run reaches the impact"
    );
}

/// The Hertz case's model on a small generated mesh (the case itself reads
/// a graded mesh from make_mesh.py).
#[test]
fn hertz_indentation_ledgers_close_every_step() {
    let text = std::fs::read_to_string(root().join("validation/hertz_indentation/hertz_fine.toml"))
        .unwrap()
        .replace(
            "file = \"mesh/fine.msh\"",
            "[[mesh.generate]]\nkind = \"box\"\nname = \"block\"\nmin = [0.0, 0.0, -1.0]\nmax = [1.0, 1.0, 0.0]\ndivisions = [6, 6, 4]",
        )
        .replace("group = \"bottom\"", "group = \"block_zmin\"")
        .replace("group = \"xsym\"", "group = \"block_xmin\"")
        .replace("group = \"ysym\"", "group = \"block_ymin\"")
        .replace("slave = \"top\"", "slave = \"block_zmax\"")
        .replace("dt = 1.0", "dt = 2.5");
    let h = run("hertz", &text);
    check("hertz_indentation", &h, Promise::All);
    assert!(h.column("active").unwrap().last().unwrap() > &0.0);
}

/// What the method of a validation input promises, by its name: Newmark
/// (`newmark`) linear momentum, energy-momentum without the velocity
/// update (`no_update`) both momenta, every other input all three.
fn promise(input: &str) -> Promise {
    match input {
        "newmark" => Promise::Linear,
        "no_update" => Promise::Momenta,
        _ => Promise::All,
    }
}

/// Each of the `inputs` (names without `.toml`, space-separated) of
/// `validation/<case>` run to `end`, its ledgers closed as its method
/// promises.
fn check_case(case: &str, end: &str, inputs: &str) {
    for input in inputs.split_whitespace() {
        let file = format!("{input}.toml");
        let name = format!("{case}/{file}");
        let h = run(&name, &shortened(case, &file, end));
        check(&name, &h, promise(input));
    }
}

#[test]
fn free_flight_ledgers_close_every_step() {
    check_case("free_flight", "5.0", "energy_momentum newmark");
}

#[test]
fn friction_blocks_ledgers_close_every_step() {
    let inputs =
        "slip_mu02 slip_mu03 slip_mu04 stick_mu08 stick_mu08_regularized no_update newmark";
    check_case("friction_blocks", "0.4", inputs);
}

#[test]
fn golf_ball_ledgers_close_every_step() {
    let inputs = "mu05 frictionless rigid_plane no_update newmark";
    check_case("golf_ball", "0.05", inputs);
}

#[test]
fn ring_impact_ledgers_close_every_step() {
    let inputs = "velocity_update frictionless lumped_mass no_update newmark";
    check_case("ring_impact", "0.8", inputs);
}
