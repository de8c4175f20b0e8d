//! Bad input → one clear message naming the file and key (and line), exit code 2,
//! never a panic. One test per kind of mistake.

use crate::common::fixture::source;
use crate::common::run::{
    assert_refused, check_edit, emcontact_guarded, write_input as write, Outcome,
};
use std::path::Path;

fn plate() -> String {
    source("plate")
}

fn ball() -> String {
    source("ball_on_plane")
}

/// `emcontact check INPUT`.
fn check(input: &Path) -> Outcome {
    emcontact_guarded(&["check", input.to_str().unwrap()])
}

/// Runs `check` on the plate with `from` replaced by `to`; asserts exit 2
/// and that the message names the file and every string in `names`.
fn bad(from: &str, to: &str, names: &[&str]) -> String {
    check_edit(&plate(), from, to, names)
}

#[test]
fn good_input_passes() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "good.toml", &plate());
    let o = check(&p);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn malformed_toml() {
    bad("dt = 0.01", "dt = = 0.01", &["line 7"]);
}

#[test]
fn unknown_key() {
    bad(
        "end = 0.02",
        "end = 0.02\nstep_size = 3",
        &["step_size", "line 9"],
    );
}

#[test]
fn missing_mesh_file() {
    bad(
        "[mesh]\n",
        "[mesh]\nfile = \"nowhere.msh\"\n",
        &["mesh.file", "nowhere.msh", "line 11"],
    );
}

#[test]
fn missing_group() {
    bad(
        "group = \"plate\"",
        "group = \"slab\"",
        &["body[0].group", "slab", "line 20"],
    );
}

#[test]
fn non_positive_modulus() {
    bad(
        "young = 1000.0",
        "young = 0.0",
        &["body[0].material.young", "line 21"],
    );
}

#[test]
fn non_positive_density() {
    bad(
        "density = 1.0",
        "density = -2.0",
        &["body[0].material.density", "line 21"],
    );
}

#[test]
fn poisson_out_of_range() {
    bad(
        "poisson = 0.3",
        "poisson = 0.5",
        &["body[0].material.poisson", "(-1, 0.5)"],
    );
    bad(
        "poisson = 0.3",
        "poisson = -1.0",
        &["body[0].material.poisson"],
    );
}

#[test]
fn non_positive_dt() {
    bad("dt = 0.01", "dt = 0.0", &["time.dt", "line 7"]);
    bad("dt = 0.01", "dt = -1e-3", &["time.dt"]);
}

#[test]
fn dimension_not_2_or_3() {
    bad(
        "dimension = 2",
        "dimension = 4",
        &["problem.dimension", "line 4"],
    );
}

const MSH_HEAD: &str =
    "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$PhysicalNames\n1\n2 1 \"plate\"\n$EndPhysicalNames\n\
$Nodes\n6\n1 0 0 0\n2 1 0 0\n3 1 1 0\n4 0 1 0\n5 2 0 0\n6 2 1 0\n$EndNodes\n";

/// The plate read from `plate.msh` next to it instead of generated.
fn plate_from_msh() -> String {
    let toml = plate().replacen(
        "[[mesh.generate]]\nkind = \"box\"\nname = \"plate\"\nmin = [0.0, 0.0]\nmax = [1.0, 1.0]\ndivisions = [2, 2]\n",
        "file = \"plate.msh\"\n",
        1,
    );
    assert!(toml.contains("plate.msh"));
    toml
}

fn mesh_case(msh: &str, names: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "plate.msh", msh);
    let p = write(dir.path(), "case.toml", &plate_from_msh());
    assert_refused(&check(&p), "case.toml", names);
}

#[test]
fn valid_handwritten_msh22_is_accepted() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "plate.msh",
        &format!("{MSH_HEAD}$Elements\n2\n1 3 2 1 1 1 2 3 4\n2 3 2 1 1 2 5 6 3\n$EndElements\n"),
    );
    let toml = plate_from_msh();
    let p = write(dir.path(), "case.toml", &toml);
    let o = check(&p);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn truncated_mesh() {
    let full =
        format!("{MSH_HEAD}$Elements\n2\n1 3 2 1 1 1 2 3 4\n2 3 2 1 1 2 5 6 3\n$EndElements\n");
    let cut = &full[..full.find("2 3 2 1 1 2 5").unwrap() + 5];
    mesh_case(cut, &["mesh.file", "plate.msh"]);
}

#[test]
fn inverted_element() {
    // second quad numbered clockwise
    mesh_case(
        &format!("{MSH_HEAD}$Elements\n2\n1 3 2 1 1 1 2 3 4\n2 3 2 1 1 2 3 6 5\n$EndElements\n"),
        &["mesh", "plate"],
    );
}

#[test]
fn degenerate_element() {
    // second quad collapsed onto a line
    mesh_case(
        &format!("{MSH_HEAD}$Elements\n2\n1 3 2 1 1 1 2 3 4\n2 3 2 1 1 2 5 5 2\n$EndElements\n"),
        &["mesh", "plate"],
    );
}

#[test]
fn missing_input_file() {
    let o = check(Path::new("/nonexistent/dir/case.toml"));
    assert_eq!(o.code, Some(2));
    assert!(o.stderr.contains("case.toml"), "{}", o.stderr);
}

#[test]
fn wrong_component_count() {
    bad(
        "density = 1.0 }",
        "density = 1.0 }\nvelocity = [1.0, 2.0, 3.0]",
        &["body[0].velocity", "expected 2 components"],
    );
}

/// `bad` for the 3D ball input (`kind = "ball"` on a plane: the golf
/// ball's generator).
fn bad_ball(from: &str, to: &str, names: &[&str]) -> String {
    check_edit(&ball(), from, to, names)
}

#[test]
fn generated_ball_is_accepted_with_its_outer_surface() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "ball.toml", &ball());
    let o = check(&p);
    assert_eq!(o.code, Some(0), "{}", o.stderr);
}

#[test]
fn generated_ball_bad_values() {
    bad_ball(
        "dimension = 3",
        "dimension = 2",
        &["mesh.generate[0].kind", "3D generator", "line 12"],
    );
    bad_ball(
        "radius = 1.0\n",
        "",
        &["mesh.generate[0].radius", "missing"],
    );
    bad_ball(
        "radius = 1.0",
        "radius = -1.0",
        &["mesh.generate[0].radius", "positive", "line 15"],
    );
    bad_ball(
        "center = [0.0, 0.0, 1.5]",
        "center = [0.0, 1.5]",
        &[
            "mesh.generate[0].center",
            "expected 3 components",
            "line 14",
        ],
    );
    bad_ball(
        "divisions = 2",
        "divisions = [2, 2]",
        &["mesh.generate[0].divisions", "expected 1 numbers"],
    );
    bad_ball(
        "divisions = 2",
        "divisions = 0",
        &["mesh.generate[0].divisions", "≥ 1", "line 16"],
    );
    bad_ball(
        "divisions = 2",
        "divisions = 5000",
        &["mesh.generate[0]", "divisions = 5000"],
    );
    bad_ball(
        "kind = \"ball\"",
        "kind = \"sphere\"",
        &["mesh.generate[0].kind", "\"ball\"", "sphere"],
    );
}
