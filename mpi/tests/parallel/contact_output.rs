//! The contact output of a run on 2 ranks is the serial program's: the rows
//! of `contacts.csv` (rank 0, the pairs in input order after each step) and
//! the point data of every frame (motion, nodal stress and contact), each
//! `.vtu` piece carrying its nodes' and the `.pvtu` declaring them. The
//! coarse friction blocks at μ = 0.8: the cube lands, slides, then its
//! leading edge sticks.

use crate::contact::blocks;
use crate::harness::{input, run_ranks, run_serial_with};
use emcontact::driver::{CONTACT_FIELDS, POINT_FIELDS};
use std::path::Path;
use std::process::Command;

/// Columns of `contacts.csv` compared as text: the time, the pair's name
/// and the point counts.
const EXACT: [&str; 5] = ["t", "pair", "active", "stick", "slip"];

/// `contacts.csv` of `out`: its header and its rows' fields.
fn contacts(out: &Path) -> (String, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(out.join("contacts.csv")).expect("contacts.csv");
    let mut lines = text.lines();
    let header = lines.next().expect("a header").to_string();
    let rows = lines
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect();
    (header, rows)
}

/// `b`'s `contacts.csv` is `a`'s: the same header, the same rows in the same
/// order, the [`EXACT`] columns as printed and every force, moment, area and
/// work within `tol` of its column's largest magnitude over the run (the
/// scale of its round-off); returns the largest such difference.
fn assert_same_contacts(a: &Path, b: &Path, tol: f64) -> f64 {
    let ((ha, ra), (hb, rb)) = (contacts(a), contacts(b));
    assert_eq!(ha, hb, "contacts.csv header");
    assert_eq!(ra.len(), rb.len(), "contacts.csv rows");
    let header: Vec<&str> = ha.split(',').collect();
    let value = |s: &str| s.parse::<f64>().expect("a number");
    let mut worst = 0.0f64;
    for (c, name) in header.iter().enumerate() {
        if EXACT.contains(name) {
            for (k, (x, y)) in ra.iter().zip(&rb).enumerate() {
                assert_eq!(x[c], y[c], "contacts.csv row {k}: {name}");
            }
            continue;
        }
        let scale = ra.iter().map(|r| value(&r[c]).abs()).fold(0.0, f64::max);
        for (k, (x, y)) in ra.iter().zip(&rb).enumerate() {
            let d = (value(&x[c]) - value(&y[c])).abs();
            assert!(
                d <= tol * scale,
                "contacts.csv row {k}: {name} {} against {} (scale {scale:e})",
                x[c],
                y[c]
            );
            if scale > 0.0 {
                worst = worst.max(d / scale);
            }
        }
    }
    // a comparison of a frictional contact: points that stick, points that
    // slip, and frictional work
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let total = |name: &str| ra.iter().map(|r| value(&r[col(name)])).sum::<f64>();
    assert!(
        total("stick") > 0.0 && total("slip") > 0.0 && total("work") > 0.0,
        "no sticking and slipping contact with work in the serial contacts.csv"
    );
    worst
}

/// `point_fields.py` (VTK's own readers) on each serial frame and its
/// parallel `.pvtu`: every point field of a frame ([`POINT_FIELDS`]: the
/// nodal stress at a node on a rank boundary averages the elements of both
/// ranks) and every contact field at every node of every piece, owned or
/// ghost, equal to the serial one within `tol` of the field's largest
/// magnitude; returns what it printed.
fn assert_same_fields(a: &Path, b: &Path, frames: usize, tol: f64) -> String {
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/parallel/point_fields.py"
    );
    // a missing module fails the test, never skips it
    let probe = Command::new("python3").args(["-c", "import vtk"]).output();
    assert!(
        probe.as_ref().is_ok_and(|o| o.status.success()),
        "this cross-check needs python3 with vtk (run `bash .ci/setup`, then `. .venv/bin/activate`): {probe:?}"
    );
    let fields: Vec<String> = POINT_FIELDS
        .iter()
        .chain(&CONTACT_FIELDS)
        .map(|(name, c)| format!("{name}:{c}"))
        .collect();
    let mut cmd = Command::new("python3");
    cmd.arg(script).arg(tol.to_string()).arg(fields.join(","));
    for f in 0..frames {
        cmd.arg(a.join(format!("blocks_{f:05}.vtu")));
        cmd.arg(b.join(format!("blocks_{f:05}.pvtu")));
    }
    let o = cmd.output().expect("python3 runs");
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "point fields differ: {text}");
    text
}

/// contacts.csv and the point data of the 2-rank run equal the serial run's
/// to 1e-10 of their scales, at the nodes the ranks share as well.
#[test]
fn contact_output_on_two_ranks_equals_the_serial_output() {
    let dir = tempfile::tempdir().unwrap();
    let model = input(dir.path(), "blocks.toml", &blocks("", "every = 1"));
    let (serial, two) = (dir.path().join("serial"), dir.path().join("two"));
    run_serial_with(&model, &serial, true);
    run_ranks(2, &model, &two);
    let worst = assert_same_contacts(&serial, &two, 1e-10);
    // t = 0 and the six steps of 0.1
    let text = assert_same_fields(&serial, &two, 7, 1e-10);
    let count = |key: &str| -> usize {
        text.split(key)
            .nth(1)
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("point_fields.py: no {key} in {text}"))
    };
    assert!(
        count("active=") > 0,
        "no active contact point in the frames: {text}"
    );
    // the nodal stress where a rank's elements are not all of a node's
    assert!(count("shared=") > 0, "no node on a rank boundary: {text}");
    // the figures the docs quote (`--nocapture`)
    eprintln!("contacts.csv: largest difference {worst:.1e} of its column's scale\n{text}");
}
