//! Initial overlap: two bodies that overlap at the start
//! are refused by `check` and `run` (exit 2, naming the pair, the number of
//! nodes, the deepest one and its depth); `initial_overlap = "adjust"` moves
//! the nodes onto the other surface, strain-free, and the run then keeps the
//! energy exactly. The counts and depths are checked against an independent
//! measure: the block's top is the line y = 0, and the disk is a polygon
//! (point-in-polygon and distance to its edges).

use crate::common::fixture::Fixture;
use crate::common::history::assert_exact_energy;
use crate::common::run::{bin, run_bin, write_input};
use emcontact::contact::overlap;
use emcontact::driver;
use emcontact::input;
use emcontact::model::Model;
use emcontact::output::read_csv;
use std::path::Path;

/// A disk (radius 1, centre 0.9) sunk 0.1 into a block `[-2, 2] × [-1, 0]`,
/// thrown down and sideways; `master`: the block's top or the plane y = 0.
fn disk_in_block(adjust: bool, plane: bool) -> Fixture {
    let mut f = Fixture::load("disk_in_block");
    if adjust {
        f = f.set("contact.0.initial_overlap", "adjust");
    }
    if plane {
        f = f.remove("contact.0.master").set_toml(
            "contact.0.master_plane",
            "{ point = [0.0, 0.0], normal = [0.0, 1.0] }",
        );
    }
    f
}

fn write(dir: &Path, f: &Fixture) -> std::path::PathBuf {
    write_input(dir, "overlap.toml", &f.text())
}

fn emcontact(args: &[&str], input: &Path) -> (Option<i32>, String) {
    let out = bin().args(args).arg(input).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Signed distance of `p` to the closed polygon of line2 faces `edges`
/// (negative inside), by the crossing number and the distance to the edges.
fn polygon_distance(x: &[[f64; 3]], edges: &[[usize; 2]], p: [f64; 3]) -> f64 {
    let mut inside = false;
    let mut dist = f64::INFINITY;
    for &[a, b] in edges {
        let (pa, pb) = (x[a], x[b]);
        if (pa[1] > p[1]) != (pb[1] > p[1]) {
            let xc = pa[0] + (p[1] - pa[1]) / (pb[1] - pa[1]) * (pb[0] - pa[0]);
            if p[0] < xc {
                inside = !inside;
            }
        }
        let (dx, dy) = (pb[0] - pa[0], pb[1] - pa[1]);
        let t = (((p[0] - pa[0]) * dx + (p[1] - pa[1]) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
        dist = dist.min((p[0] - pa[0] - t * dx).hypot(p[1] - pa[1] - t * dy));
    }
    if inside {
        -dist
    } else {
        dist
    }
}

fn disk_edges(m: &Model) -> Vec<[usize; 2]> {
    let g = m.mesh.group("disk_outer").unwrap();
    g.elements
        .iter()
        .map(|e| [e.nodes()[0], e.nodes()[1]])
        .collect()
}

/// The part of the message after `key` up to the next `sep`.
fn field<'a>(msg: &'a str, key: &str, sep: char) -> &'a str {
    let rest = &msg[msg.find(key).unwrap_or_else(|| panic!("{key:?} in {msg}")) + key.len()..];
    rest.split(sep).next().unwrap()
}

#[test]
fn an_overlapping_start_is_refused_with_exit_2_naming_the_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), &disk_in_block(false, false));
    let m = input::load(&input).unwrap();
    let x = &m.mesh.nodes;
    // independent measure: disk nodes below y = 0 over the block; block-top
    // nodes inside the disk polygon
    let disk = m.mesh.group_nodes("disk_outer").unwrap();
    let below: Vec<usize> = disk
        .iter()
        .copied()
        .filter(|&a| x[a][1] < 0.0 && x[a][0].abs() < 2.0)
        .collect();
    let deepest = *below
        .iter()
        .min_by(|&&a, &&b| x[a][1].total_cmp(&x[b][1]))
        .unwrap();
    let edges = disk_edges(&m);
    let sunk: Vec<(usize, f64)> = m
        .mesh
        .group_nodes("block_ymax")
        .unwrap()
        .into_iter()
        .map(|a| (a, polygon_distance(x, &edges, x[a])))
        .filter(|&(_, d)| d < 0.0)
        .collect();
    assert_eq!((below.len(), sunk.len()), (3, 1));
    for args in [&["check"][..], &["run", "-q"]] {
        let (code, err) = emcontact(args, &input);
        assert_eq!(code, Some(2), "{args:?}: {err}");
        let slave_line = err
            .lines()
            .find(|l| l.contains("of surface \"disk_outer\""))
            .expect(&err);
        let master_line = err
            .lines()
            .find(|l| l.contains("of surface \"block_ymax\""))
            .expect(&err);
        for l in [slave_line, master_line] {
            assert!(
                l.contains(&format!("{}: contact[0]: ", input.display())),
                "{l}"
            );
            assert!(l.contains("initial_overlap = \"adjust\""), "{l}");
        }
        assert!(slave_line.contains(&format!("contact[0]: {} node(s) of surface \"disk_outer\" start inside the body of \"block_ymax\"", below.len())), "{slave_line}");
        assert_eq!(
            field(slave_line, "the deepest is node ", ' '),
            deepest.to_string()
        );
        let depth: f64 = field(slave_line, "), ", ' ').parse().unwrap();
        assert!(
            (depth + x[deepest][1]).abs() < 1e-6 * depth,
            "{depth} vs {}",
            -x[deepest][1]
        );
        let pos = field(slave_line, &format!("node {deepest} at ("), ')');
        let p: Vec<f64> = pos.split(", ").map(|v| v.parse().unwrap()).collect();
        assert!(
            (p[0] - x[deepest][0]).abs() < 1e-6 && (p[1] - x[deepest][1]).abs() < 1e-6,
            "{pos}"
        );
        assert!(master_line.contains("contact[0]: 1 node(s) of surface \"block_ymax\" start inside the body of \"disk_outer\""), "{master_line}");
        assert_eq!(
            field(master_line, "the deepest is node ", ' '),
            sunk[0].0.to_string()
        );
        let depth: f64 = field(master_line, "), ", ' ').parse().unwrap();
        assert!(
            (depth + sunk[0].1).abs() < 1e-6 * depth,
            "{depth} vs {}",
            -sunk[0].1
        );
    }
    assert!(
        !dir.path().join("out").exists(),
        "a refused run writes nothing"
    );
}

#[test]
fn slave_nodes_behind_a_rigid_plane_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), &disk_in_block(false, true));
    let (code, err) = emcontact(&["check"], &input);
    assert_eq!(code, Some(2), "{err}");
    assert!(
        err.contains(
            "contact[0]: 3 node(s) of surface \"disk_outer\" start behind the rigid plane"
        ),
        "{err}"
    );
    assert!(err.contains(", 0.1 deep"), "{err}");
}

/// A disk just below a thin plate (`[-2, 2] × [0, 0.1]`) whose contact
/// surface is the plate's top: the disk's top nodes are behind that surface
/// (0.15 below it, within the narrow phase's reach of 2h) but beyond the
/// plate's body, so they are not inside it.
#[test]
fn a_node_behind_an_open_surface_but_beyond_its_body_is_not_inside() {
    let text = disk_in_block(false, false)
        .set("mesh.generate.0.min", vec![-2.0, 0.0])
        .set("mesh.generate.0.max", vec![2.0, 0.1])
        .set("mesh.generate.0.divisions", vec![8, 1])
        .set("mesh.generate.1.center", vec![0.0, -1.05]);
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), &text);
    let m = input::load(&input).unwrap();
    let h = emcontact::contact::ContactSet::new(&m, 2).unwrap().pairs()[0]
        .surface()
        .h;
    let x = &m.mesh.nodes;
    let top = m
        .mesh
        .group_nodes("disk_outer")
        .unwrap()
        .into_iter()
        .map(|a| x[a][1])
        .fold(f64::NEG_INFINITY, f64::max);
    assert!(top < 0.1 && 0.1 - top < 2.0 * h, "top {top}, h {h}");
    assert!(overlap::find(&m).unwrap().is_empty());
    let (code, err) = emcontact(&["check"], &input);
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn adjust_moves_the_overlapping_nodes_onto_the_other_surface() {
    for plane in [false, true] {
        let dir = tempfile::tempdir().unwrap();
        let input = write(dir.path(), &disk_in_block(true, plane));
        let m = input::load(&input).unwrap();
        let h = emcontact::contact::ContactSet::new(&m, 2).unwrap().pairs()[0]
            .surface()
            .h;
        let r = overlap::resolve(&m).unwrap();
        let moved = r.nodes.expect("nodes moved");
        let (x0, disk) = (&m.mesh.nodes, m.mesh.group_nodes("disk_outer").unwrap());
        for &a in &disk {
            if x0[a][1] < 0.0 {
                // onto the block's top: gap ≥ −1e-12 h, moved straight up
                assert!(moved[a][1].abs() <= 1e-12 * h, "node {a}: {:?}", moved[a]);
                assert!((moved[a][0] - x0[a][0]).abs() < 1e-15);
            } else {
                assert_eq!(moved[a], x0[a], "node {a} moved");
            }
        }
        assert_eq!(r.moved.len(), 1, "{:?}", r.moved);
        let d = &r.moved[0];
        assert_eq!((d.surface.as_str(), d.count), ("disk_outer", 3));
        assert!((d.max - 0.1).abs() < 1e-12, "{}", d.max);
        // no block node inside the moved disk any more, and nothing left to find
        let edges = disk_edges(&m);
        for a in m.mesh.group_nodes("block_ymax").unwrap() {
            assert!(
                polygon_distance(&moved, &edges, moved[a]) >= -1e-12 * h,
                "block node {a}"
            );
        }
        let mut adjusted = m.clone();
        adjusted.mesh.nodes = moved;
        assert!(overlap::find(&adjusted).unwrap().is_empty());
        // `check` says what moved and accepts the model
        let (code, err) = emcontact(&["check"], &input);
        assert_eq!(code, Some(0), "{err}");
        let other = if plane {
            "the rigid plane"
        } else {
            "\"block_ymax\""
        };
        assert!(
            err.contains(&format!("note: {}: contact[0]: initial_overlap = \"adjust\" moved 3 node(s) of surface \"disk_outer\" onto {other}", input.display()))
                && err.contains("at most 0.1 (node"),
            "{err}"
        );
    }
}

#[test]
fn an_adjusted_start_is_strain_free_and_keeps_the_energy_exactly() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), &disk_in_block(true, false));
    let m = input::load(&input).unwrap();
    // the stepper starts from the moved mesh: reference = positions at t = 0
    let (stepper, s0) = driver::setup::<2>(&m).unwrap();
    let h = stepper.contacts.pairs()[0].surface().h;
    for a in m.mesh.group_nodes("disk_outer").unwrap() {
        assert!(
            s0.x[a * 2 + 1] >= -1e-12 * h || s0.x[a * 2].abs() > 2.0,
            "node {a}"
        );
        assert_eq!(stepper.sys.xref[a][1], s0.x[a * 2 + 1]);
    }
    // the same model through `emcontact run`: it says what moved, completes,
    // and keeps the energy from the first step on
    let out = dir.path().join("out");
    let run = run_bin(&input, &out, &["-q"]);
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{err}");
    assert!(
        err.contains("initial_overlap = \"adjust\" moved 3 node(s) of surface \"disk_outer\""),
        "{err}"
    );
    let hist = read_csv(&out.join("history.csv")).unwrap();
    let (e, strain) = (
        hist.column("total").unwrap(),
        hist.column("strain").unwrap(),
    );
    let e0 = e[0];
    assert!(
        strain[0].abs() <= 1e-12 * e0,
        "initial strain energy {}",
        strain[0]
    );
    assert_exact_energy(&hist);
    // in contact from the first step, and never deeper than the contact
    // stage's drift bound (half its tolerance, 2e-11 here; the start
    // overlapped by 0.1 = 0.256 h): the
    // overlap is gone, not pushed out
    // A point that reaches the bound is held at it by a constraint met to
    // the contact tolerance `tol_abs`, so it lands on the bound within
    // round-off, on either side (3.8e-18 deeper measured, against a
    // tolerance of 3.9e-11); anything deeper than the tolerance allows is a
    // point that was not held.
    let (tol, bound) = stepper.contacts.pairs()[0].tolerances();
    assert!(hist.column("active").unwrap()[1] > 0.0);
    for p in hist.column("max_penetration").unwrap() {
        assert!(
            p <= bound + tol,
            "penetration {p:e}, bound {bound:e} + {tol:e}"
        );
    }
    assert_eq!(*hist.column("t").unwrap().last().unwrap(), 0.2);
}

#[test]
fn a_box_sunk_deeper_than_two_face_sizes_is_found_in_3d() {
    for (sink, element) in [(0.1, "hex8"), (0.6, "hex8"), (0.1, "tet4")] {
        let toml = Fixture::load("box_on_box")
            .set("mesh.generate.0.element", element)
            .set("mesh.generate.1.element", element)
            .set("mesh.generate.1.min", vec![-0.25, -0.25, -sink])
            .set("mesh.generate.1.max", vec![0.25, 0.25, 0.5 - sink])
            .set("contact.0.initial_overlap", "adjust")
            .text();
        let m = input::parse(&std::env::temp_dir().join("boxes.toml"), &toml).unwrap();
        let found = overlap::find(&m).unwrap();
        let slave = found
            .iter()
            .find(|o| o.surface == "top_zmin")
            .expect("slave side");
        // the top's 3×3 bottom nodes, all `sink` deep
        assert_eq!(slave.nodes.len(), 9, "{element} {sink}");
        assert!(
            (slave.deepest().depth - sink).abs() < 1e-12,
            "{element} {sink}"
        );
        // the base's top node at the origin is inside the top box when the
        // box reaches above it (sink 0.1), not when the box is below it
        let master = found.iter().find(|o| o.surface == "base_zmax");
        assert_eq!(
            master.map(|o| o.nodes.len()),
            if sink < 0.5 { Some(1) } else { None },
            "{element} {sink}"
        );
        match overlap::resolve(&m) {
            Ok(r) => {
                let x = r.nodes.unwrap();
                for a in m.mesh.group_nodes("top_zmin").unwrap() {
                    assert!(
                        x[a][2].abs() <= 1e-12,
                        "{element} {sink}: node {a} at {:?}",
                        x[a]
                    );
                }
            }
            // sunk beyond the narrow phase's reach (2h) and below its own
            // height: moving its bottom up to the base's top would turn its
            // elements inside out, so adjust refuses
            Err(e @ overlap::OverlapError::Mesh { .. }) => {
                assert!(sink > 2.0 * slave.h && sink > 0.5, "{element} {sink}: {e}");
                assert!(e.to_string().contains("move the bodies apart"), "{e}");
            }
            Err(e) => panic!("{element} {sink}: {e}"),
        }
    }
}
