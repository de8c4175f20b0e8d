//! The keys of driven problems (`[[curve]]`, prescribed motion on
//! `[[boundary]]`, `[[load]]`, moving and curved rigid masters): written
//! exactly as documented they run; each bad value of the acceptance list
//! exits 2 with the file, the key and the line.

use crate::common::fixture::source;
use crate::common::run::{check_edit, run_text};

/// The driven keys of the 2D block (`block_2d`) on a moving rigid plane.
const DRIVEN_2D: &str = r#"[[curve]]
name = "ramp"
points = [[0.0, 0.0], [0.02, 1.0], [1.0, 1.0]]
[[boundary]]
group = "b_xmin"
fix = ["x"]
[[boundary]]
group = "b_ymax"
displacement = { y = -0.01 }
velocity = { x = 0.1 }
curve = "ramp"
[[load]]
group = "b_xmax"
pressure = 1.0
curve = "ramp"
[[load]]
group = "b_ymin"
traction = [0.5, 0.0]
[[load]]
group = "b"
force = [0.0, -1.0]
curve = "ramp"
[[contact]]
slave = "b_ymin"
master_plane = { point = [0.0, 0.0], normal = [0.0, 1.0], velocity = [0.0, -0.01] }
friction = 0.2
"#;

/// The 3D block (`block_3d`) under a moving sphere, a cylinder contact and
/// a rotation.
const DRIVEN_3D: &str = r#"[[boundary]]
group = "b_zmin"
rotation = { point = [0.5, 0.5, 0.0], axis = [0.0, 0.0, 1.0], angular_velocity = 0.5 }
[[contact]]
slave = "b_zmax"
master_sphere = { center = [0.5, 0.5, 1.0], radius = 0.5 }
[[contact]]
slave = "b_xmax"
master_cylinder = { point = [2.0, 0.0, 0.0], axis = [0.0, 1.0, 0.0], radius = 0.9, velocity = [-1.0, 0.0, 0.0] }
"#;

fn driven_2d() -> String {
    source("block_2d") + DRIVEN_2D
}

fn driven_3d() -> String {
    source("block_3d") + DRIVEN_3D
}

/// The line (1-based) of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let at = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in the input"));
    text[..at].matches('\n').count() + 1
}

#[test]
fn the_documented_driven_keys_run() {
    for (name, text) in [("2d", driven_2d()), ("3d", driven_3d())] {
        let r = run_text(&text, &["-q"]);
        r.assert_ok(name);
        let w = r.history().column("external_work").unwrap();
        assert!(
            w.last().unwrap().abs() > 0.0,
            "{name}: a driven model does external work"
        );
    }
}

/// Replaces `from` in `base` by `to` and checks `check` exits 2 with one
/// error naming the file, `key` and the line of the text `at`, and saying
/// `what`.
fn refused(base: &str, (from, to): (&str, &str), at: &str, key: &str, what: &str) {
    let line = line_of(&base.replacen(from, to, 1), at);
    check_edit(base, from, to, &[key, &format!("line {line}"), what]);
}

#[test]
fn an_unknown_curve_is_refused() {
    refused(
        &driven_2d(),
        (
            "pressure = 1.0\ncurve = \"ramp\"",
            "pressure = 1.0\ncurve = \"rmap\"",
        ),
        "curve = \"rmap\"",
        "load[0].curve",
        "no curve \"rmap\" (curves: ramp)",
    );
}

#[test]
fn curve_times_not_increasing_are_refused() {
    refused(
        &driven_2d(),
        (
            "points = [[0.0, 0.0], [0.02, 1.0], [1.0, 1.0]]",
            "points = [[0.0, 0.0], [0.02, 1.0], [0.02, 1.0]]",
        ),
        "points = [[0.0, 0.0], [0.02, 1.0], [0.02, 1.0]]",
        "curve[0].points",
        "times must increase strictly",
    );
}

#[test]
fn a_component_both_fixed_and_prescribed_is_refused() {
    refused(
        &driven_2d(),
        (
            "group = \"b_xmin\"\nfix = [\"x\"]",
            "group = \"b_xmin\"\nfix = [\"x\"]\nvelocity = { x = 1.0 }",
        ),
        "velocity = { x = 1.0 }",
        "boundary[0].velocity.x",
        "both fixed",
    );
}

#[test]
fn a_pressure_on_a_volume_group_is_refused() {
    refused(
        &driven_2d(),
        (
            "group = \"b_xmax\"\npressure = 1.0",
            "group = \"b\"\npressure = 1.0",
        ),
        "pressure = 1.0",
        "load[0].pressure",
        "acts on a surface group",
    );
}

#[test]
fn a_rotation_axis_of_zero_length_is_refused() {
    refused(
        &driven_3d(),
        (
            "axis = [0.0, 0.0, 1.0], angular_velocity",
            "axis = [0.0, 0.0, 0.0], angular_velocity",
        ),
        "axis = [0.0, 0.0, 0.0]",
        "boundary[0].rotation.axis",
        "must not be the zero vector",
    );
}

#[test]
fn a_sphere_of_radius_zero_or_less_is_refused() {
    for r in ["0.0", "-0.5"] {
        let to = format!("radius = {r} }}");
        refused(
            &driven_3d(),
            ("radius = 0.5 }", &to),
            &to,
            "contact[0].master_sphere.radius",
            "must be a positive number",
        );
    }
}
