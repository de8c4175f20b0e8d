//! `emcontact run` end to end through the binary: the output contract (file
//! names, history columns, VTK arrays read back by the Python `vtk` readers),
//! a failing run that keeps what it computed, and docs/input.md in sync.

use crate::common::fixture::Fixture;
use crate::common::python::{check_vtk, repo};
use crate::common::run::{emcontact, run_bin, write_input};

fn spin() -> Fixture {
    Fixture::load("spin_box")
}

#[test]
fn run_writes_the_output_contract() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "spin.toml", &spin().text());
    let out = dir.path().join("out");
    let o = run_bin(&input, &out, &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let history = std::fs::read_to_string(out.join("history.csv")).unwrap();
    let header = history.lines().next().unwrap();
    assert!(
        header.starts_with("t,dt,kinetic,strain,gravity,total,external_work,lx,ly,lz,jx,jy,jz,newton_iterations,residual"),
        "history header: {header}"
    );
    assert_eq!(
        history.lines().count(),
        1 + 11,
        "header + initial state + 10 steps"
    );
    for f in ["energy.png", "momentum.png", "spin.pvd", "spin_00000.vtu"] {
        let p = out.join(f);
        assert!(
            p.exists() && std::fs::metadata(&p).unwrap().len() > 0,
            "{f} missing"
        );
    }
    // 0, 2, 4, 6, 8, 10 → 6 frames
    let pvd = std::fs::read_to_string(out.join("spin.pvd")).unwrap();
    assert_eq!(pvd.matches("<DataSet").count(), 6, "{pvd}");
    // no temporary files left behind by the atomic writes
    for e in std::fs::read_dir(&out).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(!name.contains(".tmp"), "leftover temporary {name}");
    }
    let (ok, text) = check_vtk(
        &out.join("spin.pvd"),
        "displacement:3,velocity:3",
        "stress:9,strain_energy_density:1,body:1",
    );
    assert!(ok, "check_vtk: {text}");
}

#[test]
fn a_failed_run_exits_1_and_keeps_its_files() {
    // A very soft body, enormous step and no cut-backs: the first step inverts
    // elements or fails to converge.
    let text = spin()
        .set("body.0.material.young", 0.01)
        .set("body.0.velocity", vec![0.0, 0.0, 0.0])
        .set("time.end", 100.0)
        .set("time.dt", 10.0)
        .set("solver.max_cutbacks", 0)
        .set("solver.max_iterations", 3)
        .text();
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "fail.toml", &text);
    let out = dir.path().join("out");
    let o = run_bin(&input, &out, &["-q"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    if o.status.success() {
        panic!("expected this run to fail; it completed");
    }
    assert_eq!(o.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("failed") && stderr.contains("kept"),
        "{stderr}"
    );
    let history = std::fs::read_to_string(out.join("history.csv")).unwrap();
    assert!(history.lines().count() >= 2, "initial state row kept");
    assert!(out.join("spin.pvd").exists() && out.join("spin_00000.vtu").exists());
    assert!(
        out.join("energy.png").exists(),
        "plots of what was computed"
    );
}

#[test]
fn input_reference_is_in_sync() {
    let o = emcontact(&["keys"]);
    assert!(o.status.success());
    let doc = std::fs::read_to_string(repo("docs/input.md")).unwrap();
    assert_eq!(
        doc,
        String::from_utf8(o.stdout).unwrap(),
        "docs/input.md is stale: run `emcontact keys > docs/input.md`"
    );
}

#[test]
fn check_prints_sizes_mass_and_stable_step() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "spin.toml", &spin().text());
    let o = emcontact(&["check", input.to_str().unwrap()]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    // 2×1×1 hex8 box: 12 nodes, 2 elements, 36 dofs, mass 2.0
    assert!(
        s.contains("nodes 12") && s.contains("elements 2") && s.contains("dofs 36"),
        "{s}"
    );
    assert!(s.contains("total mass 2.000000e0"), "{s}");
    assert!(s.contains("stable explicit dt"), "{s}");
}

/// `emcontact check` prints how each pair is enforced: for exact enforcement
/// the solver, the tolerance and the drift bound as lengths; for the penalty
/// law the penalties it chose and why. Friction blocks: h = 0.25, default
/// tolerance 1e-10·h = 2.5e-11, drift bound half of it, 1.25e-11; (λ + 2μ)/h =
/// 1e4/0.25 = 4e4 (ν = 0), 2ρh/Δt² = 2·100·0.25/0.01 = 5e3, so the penalty
/// law's ε_N = 1000·4e4 = 4e7.
#[test]
fn check_prints_the_contact_enforcement_and_why() {
    let line = |text: &str| -> String {
        let dir = tempfile::tempdir().unwrap();
        let input = write_input(dir.path(), "blocks.toml", text);
        let o = emcontact(&["check", input.to_str().unwrap()]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let s = String::from_utf8_lossy(&o.stdout).to_string();
        s.lines()
            .find(|l| l.starts_with("contact[0]"))
            .unwrap_or_else(|| panic!("no contact line in {s}"))
            .to_string()
    };
    let blocks = Fixture::file("validation/friction_blocks/slip_mu02.toml");
    let exact = line(&blocks.text());
    for part in [
        "25 slave nodes",
        "64 master faces",
        "μ = 0.2",
        "exact (solver nsn-ac-ls)",
        "tolerance 2.500e-11 (length)",
        "drift bound 1.250e-11 (length)",
    ] {
        assert!(exact.contains(part), "missing \"{part}\" in: {exact}");
    }
    let penalty = line(&blocks.set("contact.0.enforcement", "penalty").text());
    for part in [
        "penalty ε_N = 4.0000e7",
        "(λ+2μ)/h = 4.000e4",
        "2ρh/Δt² = 5.000e3",
        "ε_T = 4.0000e7",
    ] {
        assert!(penalty.contains(part), "missing \"{part}\" in: {penalty}");
    }
    assert!(!penalty.contains("drift bound"), "{penalty}");
}
