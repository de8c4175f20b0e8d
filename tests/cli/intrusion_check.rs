//! The run's own penetration check (`src/driver/intrusion/`): a node pushed
//! through a face is found at its depth, a node resting just outside a
//! warped (bilinear) face is not, and a failed verdict is the run's exit
//! status while a clean contact run exits 0 with verdict OK.

use crate::common::fixture::Fixture;
use crate::common::run::{model, run_bin, run_text};
use emcontact::driver;
use emcontact::driver::balance::VERDICT_EXIT;
use emcontact::driver::intrusion::{Intruders, Target};
use emcontact::dynamics::Stepper;
use emcontact::model::Model;

/// The boxes of `box_on_box` (base `[-1, 1]² × [-1, 0]`, faces 0.5 wide;
/// top `[-0.25, 0.25]² × [0.5, 1]`, its bottom the slave) set up, with the
/// positions at the start.
fn boxes(dir: &std::path::Path) -> (Model, Stepper<3>, Vec<f64>) {
    let m = model(dir, &Fixture::load("box_on_box").text());
    let (stepper, s0) = driver::setup::<3>(&m).unwrap();
    (m, stepper, s0.x)
}

/// The node at `p` (reference position).
fn node_at(m: &Model, p: [f64; 3]) -> usize {
    (0..m.mesh.nodes.len())
        .find(|&a| (0..3).all(|i| (m.mesh.nodes[a][i] - p[i]).abs() < 1e-12))
        .unwrap_or_else(|| panic!("no node at {p:?}"))
}

fn put(x: &mut [f64], a: usize, p: [f64; 3]) {
    x[3 * a..3 * a + 3].copy_from_slice(&p);
}

#[test]
fn a_node_pushed_through_a_face_is_found_at_its_depth() {
    let dir = tempfile::tempdir().unwrap();
    let (m, stepper, mut x) = boxes(dir.path());
    let mut check = Intruders::new(&m, &m.mesh, &stepper.contacts);
    assert!(check.check(&x, 3, 0.0, &stepper.contacts).is_empty());
    // the top's bottom corner node 1e-3 under the base's top face z = 0
    let a = node_at(&m, [0.25, 0.25, 0.5]);
    put(&mut x, a, [0.25, 0.25, -1e-3]);
    let lines = check.check(&x, 3, 0.01, &stepper.contacts);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let f = &check.found[0];
    assert_eq!(
        (f.body.as_str(), &f.into),
        ("top", &Target::Body("base".into()))
    );
    assert_eq!((f.count, f.node), (1, a));
    assert!((f.depth - 1e-3).abs() < 1e-15, "{}", f.depth);
}

/// The base's top node at (0.5, 0.5) raised by `W`: the face over
/// `[0, 0.5]²` is the bilinear `z = 4 W x y`, and either split of it into
/// two triangles is off the bilinear face by `W/4` at its centre.
const W: f64 = 0.1;

/// The positions with the base warped and the top's corner node at
/// `(0.25, 0.25)`, `offset` along z off the bilinear face (`W/4` there).
fn on_warped_face(m: &Model, x: &[f64], offset: f64) -> Vec<f64> {
    let mut x = x.to_vec();
    put(&mut x, node_at(m, [0.5, 0.5, 0.0]), [0.5, 0.5, W]);
    let a = node_at(m, [0.25, 0.25, 0.5]);
    put(&mut x, a, [0.25, 0.25, 0.25 * W + offset]);
    x
}

#[test]
fn a_node_just_outside_a_warped_face_is_not_inside() {
    let dir = tempfile::tempdir().unwrap();
    let (m, stepper, x) = boxes(dir.path());
    // 1e-6 above the bilinear face, 1e-6 = 2e-6 h: well above the tolerance
    // as a depth, and inside the tetrahedra of one of the two splits
    for offset in [1e-6, 0.0] {
        let mut check = Intruders::new(&m, &m.mesh, &stepper.contacts);
        let lines = check.check(&on_warped_face(&m, &x, offset), 3, 0.0, &stepper.contacts);
        assert!(lines.is_empty(), "offset {offset}: {lines:?}");
    }
}

#[test]
fn a_node_just_through_a_warped_face_is_found() {
    let dir = tempfile::tempdir().unwrap();
    let (m, stepper, x) = boxes(dir.path());
    let mut check = Intruders::new(&m, &m.mesh, &stepper.contacts);
    let delta = 1e-6;
    let lines = check.check(&on_warped_face(&m, &x, -delta), 3, 0.0, &stepper.contacts);
    assert_eq!(lines.len(), 1, "{lines:?}");
    let f = &check.found[0];
    assert_eq!(f.node, node_at(&m, [0.25, 0.25, 0.5]));
    // the face's slope there is 4W·(y, x) = (0.1, 0.1): the depth is δ
    // along its normal, δ/√1.02, to second order in δ
    let expected = delta / 1.02f64.sqrt();
    assert!(
        (f.depth - expected).abs() < 1e-12,
        "{} against {expected}",
        f.depth
    );
}

#[test]
fn a_clean_contact_run_exits_0_with_verdict_ok() {
    // the friction blocks at μ = 0.2: the cube's bottom slides over the
    // base's dented top (warped faces, slaves held on a face's extension
    // across a valley edge)
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("slip.toml");
    std::fs::write(
        &input,
        Fixture::file("validation/friction_blocks/slip_mu02.toml").text(),
    )
    .unwrap();
    let out = run_bin(&input, &dir.path().join("out"), &[]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{stdout}");
    assert!(!stdout.contains("penetration:"), "{stdout}");
    let verdict = stdout.lines().last().unwrap();
    assert!(verdict.starts_with("verdict: OK"), "{stdout}");
}

#[test]
fn a_body_thrown_through_another_fails_the_run_with_the_verdict() {
    // no contact declared: the top goes 1.0 down in one step, through the
    // base's top face
    let text = Fixture::load("box_on_box")
        .remove("contact.0")
        .set("body.1.velocity", vec![0.0, 0.0, -100.0])
        .text();
    for quiet in [false, true] {
        let extra: &[&str] = if quiet { &["--quiet"] } else { &[] };
        let r = run_text(&text, extra);
        let (stdout, stderr) = (r.stdout(), r.stderr());
        assert_eq!(r.code(), Some(VERDICT_EXIT as i32), "{stdout}{stderr}");
        // the verdict where it is read: the summary, or stderr when quiet
        let printed = if quiet { &stderr } else { &stdout };
        assert!(
            printed
                .lines()
                .any(|l| l.starts_with("verdict: NOT OK") && l.contains("inside body \"base\"")),
            "{stdout}{stderr}"
        );
    }
}
