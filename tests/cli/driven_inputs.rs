//! The keys of driven problems (`[[curve]]`, prescribed motion on
//! `[[boundary]]`, `[[load]]`, moving and curved rigid masters): written
//! exactly as documented they run; each bad value of the acceptance list
//! exits 2 with the file, the key and the line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A 2D block on a moving rigid plane with every driven key.
const DRIVEN_2D: &str = r#"
[problem]
name = "driven"
dimension = 2
[time]
dt = 0.01
end = 0.05
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0]
max = [1.0, 0.5]
divisions = [4, 2]
[[body]]
name = "b"
group = "b"
material = { model = "neo-hookean", young = 1000.0, poisson = 0.3, density = 1.0 }
[[curve]]
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

/// A 3D block under a moving sphere, a cylinder contact and a rotation.
const DRIVEN_3D: &str = r#"
[problem]
name = "driven3"
dimension = 3
[time]
dt = 0.01
end = 0.03
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0, 0.0]
max = [1.0, 1.0, 0.5]
divisions = [3, 3, 2]
[[body]]
name = "b"
group = "b"
material = { model = "neo-hookean", young = 1000.0, poisson = 0.3, density = 1.0 }
[[boundary]]
group = "b_zmin"
rotation = { point = [0.5, 0.5, 0.0], axis = [0.0, 0.0, 1.0], angular_velocity = 0.5 }
[[contact]]
slave = "b_zmax"
master_sphere = { center = [0.5, 0.5, 1.0], radius = 0.5 }
[[contact]]
slave = "b_xmax"
master_cylinder = { point = [2.0, 0.0, 0.0], axis = [0.0, 1.0, 0.0], radius = 0.9, velocity = [-1.0, 0.0, 0.0] }
"#;

fn emcontact(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("emc_driven_inputs_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, text: &str) -> PathBuf {
    let p = dir.join("input.toml");
    std::fs::write(&p, text).unwrap();
    p
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
    for (name, text) in [("2d", DRIVEN_2D), ("3d", DRIVEN_3D)] {
        let dir = scratch(name);
        let input = write(&dir, text);
        let out = dir.join("out");
        let o = emcontact(&[
            "run",
            input.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "-q",
        ]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{name}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let h = emcontact::output::read_csv(&out.join("history.csv")).unwrap();
        let w = h.column("external_work").unwrap();
        assert!(
            w.last().unwrap().abs() > 0.0,
            "{name}: a driven model does external work"
        );
    }
}

/// Replaces `from` in `base` by `to` and checks `check` exits 2 naming the
/// file, `key` and the line of the text `at`, and saying `what`.
fn refused(base: &str, (from, to): (&str, &str), at: &str, key: &str, what: &str) {
    assert!(base.contains(from), "{from:?} not in the base input");
    let text = base.replacen(from, to, 1);
    let dir = scratch(&key.replace(['[', ']', '.'], "_"));
    let input = write(&dir, &text);
    let o = emcontact(&["check", input.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(2), "{key}: {err}");
    assert!(err.contains("input.toml"), "{key}: no file in {err}");
    assert!(err.contains(key), "{key}: key not named in {err}");
    let line = line_of(&text, at);
    assert!(
        err.contains(&format!("line {line}")),
        "{key}: line {line} not named in {err}"
    );
    assert!(err.contains(what), "{key}: {what:?} not said in {err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn an_unknown_curve_is_refused() {
    refused(
        DRIVEN_2D,
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
        DRIVEN_2D,
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
        DRIVEN_2D,
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
        DRIVEN_2D,
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
        DRIVEN_3D,
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
            DRIVEN_3D,
            ("radius = 0.5 }", &to),
            &to,
            "contact[0].master_sphere.radius",
            "must be a positive number",
        );
    }
}
