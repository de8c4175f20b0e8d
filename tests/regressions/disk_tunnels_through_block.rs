//! Bug: a disk thrown at v = −50 with Δt = 0.2 at a block passed straight
//! through it (`active` 0 in every step, exit 0). The disk starts 5.5 above the block, so the full
//! step would carry it 10 down, through the block (1 thick) and out below.
//! Now the step that skips the contact is rejected and cut back until the
//! contact stage sees the impact, and the disk bounces: its centre of mass
//! stays above the block's top surface in every step. Against a rigid plane
//! the contact stage sees every slave at every step, so the swept test must
//! not reject a step.

use crate::common::fixture::Fixture;
use crate::common::history::assert_exact_energy;
use crate::common::run::{model as model_in, run_bin, write_input};
use emcontact::contact::ContactSet;
use emcontact::driver::{self, RunOptions, RunSummary};
use emcontact::dynamics::StepError;
use emcontact::model::Model;
use emcontact::output::read_csv;

const RADIUS: f64 = 1.0;

/// The disk (centre 6.5, radius 1, E = 1e6, ρ = 1) at v = −50 against the
/// top (y = 0) of a fixed block `[-2, 2] × [-1, 0]`, or against the plane
/// y = 0.
fn disk(plane: bool, max_cutbacks: usize) -> String {
    let f = Fixture::load("disk_in_block")
        .set("problem.name", "fast_disk")
        .set("time.dt", 0.2)
        .set("time.end", 0.2)
        .set("solver.max_cutbacks", max_cutbacks as i64)
        .set("mesh.generate.1.center", vec![0.0, 6.5])
        .set("mesh.generate.1.radius", RADIUS)
        .set("body.0.material.young", 1.0e6)
        .set("body.1.material.young", 1.0e6)
        .set("body.1.velocity", vec![0.0, -50.0]);
    if plane {
        f.remove("body.0")
            .remove("mesh.generate.0")
            .remove("contact.0.master")
            .set_toml(
                "contact.0.master_plane",
                "{ point = [0.0, 0.0], normal = [0.0, 1.0] }",
            )
            .text()
    } else {
        f.merge("[[boundary]]\ngroup = \"block\"\nfix = [\"x\", \"y\"]")
            .text()
    }
}

fn model(dir: &std::path::Path, plane: bool, max_cutbacks: usize) -> Model {
    model_in(dir, &disk(plane, max_cutbacks))
}

/// The disk's centre height in every row of bodies.csv.
fn disk_heights(out: &std::path::Path) -> Vec<f64> {
    disk_column(out, "y")
}

/// Column `name` of the disk's rows of bodies.csv.
fn disk_column(out: &std::path::Path, name: &str) -> Vec<f64> {
    let text = std::fs::read_to_string(out.join("bodies.csv")).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let (body, y) = (
        header.iter().position(|c| *c == "body").unwrap(),
        header.iter().position(|c| *c == name).unwrap(),
    );
    lines
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[body] == "disk")
        .map(|r| r[y].parse().unwrap())
        .collect()
}

/// Cut-backs the runs may take in a row. After the bounce the coarse disk
/// rings (a fifth of its energy in strain), and a free-flight step longer
/// than about 1e-3 inverts one of its elements; 8 lets the step go down to
/// 0.2/2⁸ = 7.8e-4 (5, 6.25e-3, stopped the run at t = 0.169).
const CUTBACKS: usize = 8;

/// The run's summary, the disk's centre height and vertical momentum in
/// every output, and the history.
fn run(plane: bool) -> (RunSummary, Vec<f64>, Vec<f64>, emcontact::output::CsvTable) {
    let dir = tempfile::tempdir().unwrap();
    let m = model(dir.path(), plane, CUTBACKS);
    let opts = RunOptions {
        plots: false,
        vtk: false,
        ..RunOptions::default()
    };
    let s = driver::run(&m, &opts).expect("the run completes");
    let heights = disk_heights(&m.output.dir);
    let ly = disk_column(&m.output.dir, "ly");
    let h = read_csv(&m.output.dir.join("history.csv")).unwrap();
    (s, heights, ly, h)
}

#[test]
fn the_full_step_through_the_block_is_rejected_as_tunnelling() {
    let dir = tempfile::tempdir().unwrap();
    let m = model(dir.path(), false, 5);
    let (mut stepper, s0) = driver::setup::<2>(&m).unwrap();
    let h = stepper.contacts.pairs()[0].surface().h;
    match stepper.step(&s0, 0.2) {
        Err(StepError::Tunnelling(t)) => {
            assert!(
                t.slave == "disk_outer" && t.master == "\"block_ymax\"",
                "{t}"
            );
            assert!(m.mesh.group_nodes("disk_outer").unwrap().contains(&t.node));
            // 10 down from 5.5 above: the lowest node ends 4.5 below the top,
            // far beyond the narrow phase's reach (2h)
            assert!(t.depth > 2.0 * h && (t.depth - 4.5).abs() < 0.5, "{t}");
            assert!(StepError::Tunnelling(t).retryable());
        }
        other => panic!("expected tunnelling, got {other:?}"),
    }
}

#[test]
fn a_fast_disk_is_cut_back_and_bounces_off_the_block() {
    let (s, heights, ly, h) = run(false);
    assert!(s.cutbacks >= 1, "cut-backs {}", s.cutbacks);
    assert!(s.smallest_dt < 0.2);
    assert_eq!(s.final_time, 0.2);
    // caught by contact in some step, never through: the centre stays above
    // the block's top (y = 0), and at the end it is on its way up
    let active = h.column("active").unwrap();
    assert!(active.iter().any(|&a| a > 0.0), "no step in contact");
    assert!(heights.iter().all(|&y| y > 0.0), "{heights:?}");
    let last = *heights.last().unwrap();
    assert!(last > RADIUS, "final centre {last}");
    assert!(*ly.last().unwrap() > 0.0 && ly[0] < 0.0, "{ly:?}");
    assert_exact_energy(&h);
}

#[test]
fn a_fast_disk_bounces_off_a_rigid_plane() {
    let dir = tempfile::tempdir().unwrap();
    let m = model(dir.path(), true, 5);
    let (mut stepper, s0) = driver::setup::<2>(&m).unwrap();
    match stepper.step(&s0, 0.2) {
        Err(StepError::Tunnelling(t)) => panic!("the plane sees every slave: {t}"),
        Err(e) => assert!(e.retryable(), "{e}"),
        Ok(_) => {}
    }
    let (s, heights, ly, h) = run(true);
    assert_eq!(s.final_time, 0.2);
    let active = h.column("active").unwrap();
    assert!(active.iter().any(|&a| a > 0.0), "no step in contact");
    // caught, never through: the centre above the plane, no node behind it
    // deeper than the contact stage's drift bound, and at the end the disk
    // is on its way up (one step of 0.2 ends with the disk on the plane, its
    // momentum reversed by the velocity update)
    assert!(heights.iter().all(|&y| y > 0.0), "{heights:?}");
    let bound = ContactSet::new(&m, 2).unwrap().pairs()[0].tolerances().1;
    for p in h.column("max_penetration").unwrap() {
        assert!(p <= bound, "penetration {p:e}, bound {bound:e}");
    }
    assert!(*ly.last().unwrap() > 0.0 && ly[0] < 0.0, "{ly:?}");
    assert_exact_energy(&h);
}

#[test]
fn a_run_out_of_cut_backs_stops_naming_the_node_and_the_surface() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "fast_disk.toml", &disk(false, 1));
    let out = run_bin(&input, &dir.path().join("out"), &["-q"]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("slave node")
            && err.contains("\"disk_outer\"")
            && err.contains("passed through \"block_ymax\""),
        "{err}"
    );
    // the files up to the failure are kept, and the disk is still above the block
    let heights = disk_heights(&dir.path().join("out"));
    assert!(heights.iter().all(|&y| y > 0.0), "{heights:?}");
}
