//! Self-contact (a pair whose slave and master are the same surface): a
//! thin ring thrown at a rigid wall so fast that its inner surface folds
//! onto itself. Every step keeps the energy and momentum ledgers, no node
//! crosses the body's own surface by a check independent of the contact
//! code (the winding number of the deformed boundary in the VTK output,
//! `validation/self_contact/no_crossing.py`), and that check does see the
//! crossing of the same throw without the self-contact pair.

use crate::common::fixture::source;
use crate::common::history::{assert_exact_energy, col, MOMENTUM};
use crate::common::python::{python, repo};
use crate::common::run::{run_text, BinRun};
use emcontact::output::CsvTable;

const SELF_PAIR: &str = "[[contact]]\nslave = \"ring_inner\"\nmaster = \"ring_inner\"\n";

/// `no_crossing.py` on the run's frames: `(no node crossed, its summary)`.
fn no_crossing(run: &BinRun) -> (bool, String) {
    no_crossing_pvd(&run.out().join("ring_self.pvd"))
}

/// The largest per-step closure of the momentum ledger `m` ("l" or "j")
/// against its impulse, over the largest of the momentum, its scale column
/// and the step impulse size (docs/ledgers.md).
fn momentum_closure(h: &CsvTable, m: &str, impulse: &str, scales: [&str; 2]) -> f64 {
    let comps: Vec<(Vec<f64>, Vec<f64>)> = ["x", "y", "z"]
        .iter()
        .map(|c| (col(h, &format!("{m}{c}")), col(h, &format!("{impulse}{c}"))))
        .collect();
    let n = comps[0].0.len();
    let mut scale: f64 = (0..n)
        .map(|i| comps.iter().map(|(v, _)| v[i] * v[i]).sum::<f64>().sqrt())
        .fold(0.0, f64::max);
    for s in scales {
        scale = col(h, s).into_iter().fold(scale, |a, v| a.max(v.abs()));
    }
    (1..n)
        .map(|i| {
            comps
                .iter()
                .map(|(v, p)| ((v[i] - v[i - 1]) - (p[i] - p[i - 1])).powi(2))
                .sum::<f64>()
                .sqrt()
        })
        .fold(0.0, f64::max)
        / scale
}

#[test]
fn a_ring_folding_onto_itself_keeps_its_ledgers_and_does_not_cross_itself() {
    let text = source("ring_self");
    let run = run_text(&text, &[]);
    run.assert_ok("self-contact ring");
    let h = run.history();
    assert_exact_energy(&h);
    let l = momentum_closure(&h, "l", "impulse_", ["linear_scale", "impulse_size"]);
    let j = momentum_closure(
        &h,
        "j",
        "angular_impulse_",
        ["angular_scale", "angular_impulse_size"],
    );
    assert!(
        l <= MOMENTUM && j <= MOMENTUM,
        "momentum ledgers: L {l:e}, J {j:e}"
    );
    // the inner surface did close onto itself: the self pair carried force
    let contacts = std::fs::read_to_string(run.out().join("contacts.csv")).unwrap();
    let header: Vec<&str> = contacts.lines().next().unwrap().split(',').collect();
    let (pair, active) = (
        header.iter().position(|&c| c == "pair").unwrap(),
        header.iter().position(|&c| c == "active").unwrap(),
    );
    let steps = contacts
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[pair] == "ring_inner:ring_inner" && r[active] != "0")
        .count();
    assert!(steps >= 5, "the self pair was active in {steps} steps only");
    // no cut-back: every step is the input's
    let dt = col(&h, "dt");
    assert!(
        dt[1..].iter().all(|&d| d == 2e-4),
        "a step was cut back: {dt:?}"
    );
    let (ok, summary) = no_crossing(&run);
    assert!(ok, "a node crossed its own surface: {summary}");
}

#[test]
fn without_the_self_pair_the_same_ring_passes_through_itself() {
    let text = source("ring_self").replace(SELF_PAIR, "");
    assert!(
        !text.contains("master = \"ring_inner\""),
        "test bug: pair not removed"
    );
    let run = run_text(&text, &[]);
    // the run's own verdict sees the crossing too (exit 0 or 1, files kept)
    assert!(
        run.stdout().contains("inside their own body"),
        "{}",
        run.stdout()
    );
    let (ok, summary) = no_crossing(&run);
    assert!(!ok, "the independent check missed the crossing: {summary}");
}

/// A hex8 cube whose top face is warped (node 6 raised by `W`) and a small
/// hex8 above it whose lowest corner is `depth` below the cube's bilinear
/// top face at (0.75, 0.25), written as a one-frame `.pvd` in `dir`.
fn warped_pair(dir: &std::path::Path, depth: f64) -> std::path::PathBuf {
    const W: f64 = 0.2;
    let mut x: Vec<[f64; 3]> = vec![
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [1.0, 1.0, 0.0],
        [0.0, 1.0, 0.0],
        [0.0, 0.0, 1.0],
        [1.0, 0.0, 1.0],
        [1.0, 1.0, 1.0 + W],
        [0.0, 1.0, 1.0],
    ];
    // the bilinear top is z = 1 + W x y; over x > y its triangle (4 5 6)
    // is z = 1 + W y, at (0.75, 0.25) W/16 above the face
    let p = [0.75, 0.25, 1.0 + W * 0.75 * 0.25 - depth];
    for o in [
        [0.0, 0.0, 0.0],
        [0.2, 0.0, 0.1],
        [0.2, 0.2, 0.1],
        [0.0, 0.2, 0.1],
    ] {
        x.push([p[0] + o[0], p[1] + o[1], p[2] + o[2]]);
    }
    for k in 8..12 {
        x.push([x[k][0], x[k][1], x[k][2] + 0.3]);
    }
    let points: String = x
        .iter()
        .map(|p| format!("{} {} {}\n", p[0], p[1], p[2]))
        .collect();
    let zeros = "0 0 0\n".repeat(x.len());
    let vtu = format!(
        r#"<?xml version="1.0"?>
<VTKFile type="UnstructuredGrid" version="0.1" byte_order="LittleEndian">
<UnstructuredGrid><Piece NumberOfPoints="{n}" NumberOfCells="2">
<Points><DataArray type="Float64" NumberOfComponents="3" format="ascii">
{points}</DataArray></Points>
<Cells>
<DataArray type="Int64" Name="connectivity" format="ascii">0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15</DataArray>
<DataArray type="Int64" Name="offsets" format="ascii">8 16</DataArray>
<DataArray type="UInt8" Name="types" format="ascii">12 12</DataArray>
</Cells>
<PointData><DataArray type="Float64" Name="displacement" NumberOfComponents="3" format="ascii">
{zeros}</DataArray></PointData>
</Piece></UnstructuredGrid></VTKFile>
"#,
        n = x.len()
    );
    std::fs::write(dir.join("pair_0.vtu"), vtu).unwrap();
    let pvd = dir.join("pair.pvd");
    std::fs::write(
        &pvd,
        r#"<?xml version="1.0"?>
<VTKFile type="Collection" version="0.1"><Collection>
<DataSet timestep="0" part="0" file="pair_0.vtu"/>
</Collection></VTKFile>
"#,
    )
    .unwrap();
    pvd
}

/// `no_crossing.py` on one `.pvd`: whether it found no crossing, and its output.
fn no_crossing_pvd(pvd: &std::path::Path) -> (bool, String) {
    let o = python(&["vtk", "numpy"])
        .arg(repo("validation/self_contact/no_crossing.py"))
        .arg(pvd)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("frames="), "no_crossing.py: {text}");
    (o.status.success(), text)
}

#[test]
fn the_independent_check_takes_a_warped_hex8_face_as_the_bilinear_surface() {
    // a node on the bilinear face (the body's boundary, where contact holds
    // it) lies W/16 = 1.25e-2 under the face's two triangles: not inside
    let dir = tempfile::tempdir().unwrap();
    let (ok, summary) = no_crossing_pvd(&warped_pair(dir.path(), 0.0));
    assert!(ok, "a node on the warped face read as inside it: {summary}");
    // 1e-3 under the bilinear face it is inside the cube, and seen
    let dir = tempfile::tempdir().unwrap();
    let (ok, summary) = no_crossing_pvd(&warped_pair(dir.path(), 1e-3));
    assert!(
        !ok,
        "a node 1e-3 inside the warped face was missed: {summary}"
    );
}
