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

use emcontact::output::{read_csv, CsvTable};
use std::path::Path;
use std::process::Command;

/// The tolerance of the acceptance: 1e-10 of the scale, every step.
const TOL: f64 = 1e-10;

pub(crate) fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `text` (an input from `validation/<case>`, shortened) and returns
/// its history.
pub(crate) fn run(name: &str, text: &str) -> CsvTable {
    let dir = std::env::temp_dir().join(format!("emc_ledgers_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("input.toml");
    std::fs::write(&input, text).unwrap();
    let out = dir.join("out");
    let o = Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .args([
            "run",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ])
        .output()
        .unwrap();
    assert_eq!(
        o.status.code(),
        Some(0),
        "{name}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    read_csv(&out.join("history.csv")).unwrap()
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

#[test]
fn free_flight_ledgers_close_every_step() {
    let h = run(
        "ff_em",
        &shortened("free_flight", "energy_momentum.toml", "5.0"),
    );
    check("free_flight/energy_momentum", &h, Promise::All);
    let h = run("ff_nm", &shortened("free_flight", "newmark.toml", "5.0"));
    check("free_flight/newmark", &h, Promise::Linear);
}

#[test]
fn friction_blocks_ledgers_close_every_step() {
    for (file, promise) in [
        ("slip_mu02.toml", Promise::All),
        ("slip_mu03.toml", Promise::All),
        ("slip_mu04.toml", Promise::All),
        ("stick_mu08.toml", Promise::All),
        ("stick_mu08_regularized.toml", Promise::All),
        ("no_update.toml", Promise::Momenta),
        ("newmark.toml", Promise::Linear),
    ] {
        let h = run(
            &format!("fb_{file}"),
            &shortened("friction_blocks", file, "0.4"),
        );
        check(&format!("friction_blocks/{file}"), &h, promise);
    }
}

#[test]
fn golf_ball_ledgers_close_every_step() {
    for (file, promise) in [
        ("mu05.toml", Promise::All),
        ("frictionless.toml", Promise::All),
        ("rigid_plane.toml", Promise::All),
        ("no_update.toml", Promise::Momenta),
        ("newmark.toml", Promise::Linear),
    ] {
        let h = run(
            &format!("golf_{file}"),
            &shortened("golf_ball", file, "0.05"),
        );
        check(&format!("golf_ball/{file}"), &h, promise);
    }
}

#[test]
fn ring_impact_ledgers_close_every_step() {
    for (file, promise) in [
        ("velocity_update.toml", Promise::All),
        ("frictionless.toml", Promise::All),
        ("lumped_mass.toml", Promise::All),
        ("no_update.toml", Promise::Momenta),
        ("newmark.toml", Promise::Linear),
    ] {
        let h = run(
            &format!("ring_{file}"),
            &shortened("ring_impact", file, "0.8"),
        );
        check(&format!("ring_impact/{file}"), &h, promise);
    }
}
