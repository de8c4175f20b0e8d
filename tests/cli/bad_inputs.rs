//! Bad input: every case exits 2 with one message naming the file, the key
//! or line, and what was expected; none panics or aborts, none runs past
//! 60 s (a guard against hangs and out-of-memory, not a speed test). With
//! input_errors.rs and the restart and output tests: a box of 10⁹ elements,
//! a ball of 1000 divisions, byte-order and type errors in binary MSH, an
//! unwritable output folder.

use crate::common::fixture::source;
use crate::common::run::{
    assert_refused as refused, check_edit, emcontact_guarded as emcontact, write_input as write,
};
use std::path::Path;

fn plate() -> String {
    source("plate_on_plane")
}

fn cube() -> String {
    source("cube")
}

/// `check` on `base` with `from` replaced by `to`.
fn case(base: &str, from: &str, to: &str, names: &[&str]) {
    check_edit(base, from, to, names);
}

#[test]
fn time_keys() {
    case(
        &plate(),
        "dt = 0.01",
        "dt = -0.01",
        &["time.dt", "line 6", "positive"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.0",
        &["time.end", "positive"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\nintegrator = \"rk4\"",
        &["time.integrator", "\"energy-momentum\" or \"newmark\""],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\nbeta = 0.3",
        &["time.beta", "newmark"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\nintegrator = \"newmark\"\ngamma = -1.0",
        &["time.gamma", "≥ 0"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\ndt_min = 0.1",
        &["time.dt_min", "must not exceed time.dt"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\ndt_min = -1.0",
        &["time.dt_min", "positive"],
    );
    case(
        &plate(),
        "end = 0.02",
        "end = 0.02\nadaptive = \"yes\"",
        &["line 8", "bool"],
    );
}

#[test]
fn solver_and_output_keys() {
    case(
        &plate(),
        "[mesh]",
        "[solver]\ntolerance = 0.0\n[mesh]",
        &["solver.tolerance", "positive"],
    );
    case(
        &plate(),
        "[mesh]",
        "[solver]\nmax_iterations = 0\n[mesh]",
        &["solver.max_iterations", "≥ 1"],
    );
    case(
        &plate(),
        "[mesh]",
        "[solver]\nmax_cutbacks = 31\n[mesh]",
        &["solver.max_cutbacks", "at most 30"],
    );
    case(
        &plate(),
        "[mesh]",
        "[output]\nevery = 0\n[mesh]",
        &["output.every", "≥ 1"],
    );
    case(
        &plate(),
        "[mesh]",
        "[output]\ncheckpoint_every = -1\n[mesh]",
        &["output.checkpoint_every", "≥ 0"],
    );
    case(
        &plate(),
        "[mesh]",
        "[output]\ncheckpoint_minutes = -5\n[mesh]",
        &["output.checkpoint_minutes", "≥ 0"],
    );
    case(
        &plate(),
        "name = \"plate\"",
        "name = \"a/b\"",
        &["problem.name", "path separators"],
    );
    case(
        &plate(),
        "dimension = 2",
        "dimension = \"2\"",
        &["line 4", "integer"],
    );
}

#[test]
fn generators() {
    case(
        &plate(),
        "divisions = [2, 2]",
        "divisions = [0, 2]",
        &["mesh.generate[0].divisions", "≥ 1"],
    );
    case(
        &plate(),
        "divisions = [2, 2]",
        "divisions = [2]",
        &["mesh.generate[0].divisions", "expected 2 numbers"],
    );
}

#[test]
fn oversized_meshes_are_refused_before_allocating() {
    // 10⁹ hex8: refused by the memory estimate, in well under a second
    case(
        &cube(),
        "divisions = [1, 1, 1]",
        "divisions = [1000, 1000, 1000]",
        &["mesh.generate[0].divisions", "memory", "this machine has"],
    );
    // a ball of 1000 divisions: 3.4e9 hex8
    case(
        &cube(),
        "kind = \"box\"\nname = \"cube\"\nmin = [0.0, 0.0, 0.0]\nmax = [1.0, 1.0, 1.0]\ndivisions = [1, 1, 1]",
        "kind = \"ball\"\nname = \"cube\"\ncenter = [0.0, 0.0, 0.0]\nradius = 1.0\ndivisions = 1000",
        &["mesh.generate[0].divisions", "memory"],
    );
    case(
        &cube(),
        "kind = \"box\"\nname = \"cube\"\nmin = [0.0, 0.0, 0.0]\nmax = [1.0, 1.0, 1.0]\ndivisions = [1, 1, 1]",
        "kind = \"ball\"\nname = \"cube\"\ncenter = [0.0, 0.0, 0.0]\nradius = 1.0\ndivisions = 1001",
        &["mesh.generate[0]", "1 to 1000"],
    );
    // a 2D box of 10¹⁰ quads
    case(
        &plate(),
        "divisions = [2, 2]",
        "divisions = [100000, 100000]",
        &["mesh.generate[0].divisions", "memory"],
    );
}

#[test]
fn generator_shapes() {
    case(
        &plate(),
        "kind = \"box\"\nname = \"plate\"\nmin = [0.0, 0.0]\nmax = [1.0, 1.0]\ndivisions = [2, 2]",
        "kind = \"ring\"\nname = \"plate\"\ncenter = [0.0, 0.0]\nradius = 1.0\nthickness = 2.5\ndivisions = [8, 1]",
        &["mesh.generate[0].thickness", "twice the radius"],
    );
    case(
        &cube(),
        "kind = \"box\"",
        "kind = \"ring\"",
        &["mesh.generate[0].kind", "2D generator"],
    );
    case(
        &plate(),
        "kind = \"box\"",
        "kind = \"sphere\"",
        &[
            "mesh.generate[0].kind",
            "\"box\", \"ring\", \"disk\" or \"ball\"",
        ],
    );
    case(
        &plate(),
        "divisions = [2, 2]",
        "divisions = [2, 2]\nelement = \"hex8\"",
        &["mesh.generate[0].element", "\"quad4\" or \"tri3\""],
    );
}

#[test]
fn bodies_and_boundaries() {
    case(
        &plate(),
        "group = \"plate\"",
        "group = \"plate_ymin\"",
        &["body[0].group", "dimension 1"],
    );
    case(
        &plate(),
        "model = \"svk\"",
        "model = \"hooke\"",
        &["body[0].material.model", "\"svk\" or \"neo-hookean\""],
    );
    case(
        &plate(),
        "density = 1.0 }",
        "density = 1.0 }\nmass = \"diagonal\"",
        &["body[0].mass", "\"lumped\" or \"consistent\""],
    );
    case(
        &plate(),
        "density = 1.0 }",
        "density = 1.0 }\nvelocity = [1.0, 0.0, 0.0]",
        &["body[0].velocity", "expected 2 components"],
    );
    case(
        &plate(),
        "density = 1.0 }",
        "density = 1.0 }\nangular_velocity = [0.0, 0.0, 1.0]",
        &["body[0].angular_velocity", "a number"],
    );
    case(
        &plate(),
        "[[contact]]",
        "[[boundary]]\ngroup = \"plate_xmin\"\nfix = [\"w\"]\n[[contact]]",
        &["boundary[0].fix", "\"x\", \"y\""],
    );
    case(
        &plate(),
        "[[contact]]",
        "[[boundary]]\ngroup = \"left\"\nfix = [\"x\"]\n[[contact]]",
        &["boundary[0].group", "no group \"left\""],
    );
    case(
        &plate(),
        "[[contact]]",
        "[gravity]\nacceleration = [0.0, -9.81, 0.0]\n[[contact]]",
        &["gravity.acceleration", "expected 2 components"],
    );
    case(
        &plate(),
        "[[body]]",
        "[[body]]\nname = \"plate\"\ngroup = \"plate\"\nmaterial = { model = \"svk\", young = 1.0, poisson = 0.3, density = 1.0 }\n[[body]]",
        &["body[1].name", "duplicate"],
    );
}

#[test]
fn contact_keys() {
    let plane = "master_plane = { point = [0.0, -0.1], normal = [0.0, 1.0] }";
    case(
        &plate(),
        plane,
        &format!("{plane}\nmaster = \"plate_ymax\""),
        &["contact[0].master", "not both"],
    );
    case(&plate(), plane, "", &["contact[0].master", "missing"]);
    case(
        &plate(),
        plane,
        &format!("{plane}\nfriction = -0.1"),
        &["contact[0].friction", "≥ 0"],
    );
    case(
        &plate(),
        "slave = \"plate_ymin\"",
        "slave = \"plate\"",
        &["contact[0].slave", "surface group"],
    );
    case(
        &plate(),
        plane,
        &format!("{plane}\nenforcement = \"lagrange\""),
        &[
            "contact[0].enforcement",
            "\"augmented-lagrangian\" or \"penalty\"",
        ],
    );
    case(
        &plate(),
        "normal = [0.0, 1.0]",
        "normal = [0.0, 0.0]",
        &["contact[0].master_plane.normal", "zero vector"],
    );
    case(
        &plate(),
        plane,
        "master = \"plate_ymin\"\npasses = 1",
        &["contact[0].passes", "self-contact", "passes must be 2"],
    );
    case(
        &plate(),
        plane,
        &format!("{plane}\nmax_augmentations = 40"),
        &["contact[0].max_augmentations", "removed"],
    );
}

/// `square_tri.msh41b.msh` / `.msh22b.msh` with the header changed.
fn msh_case(source: &str, edit: impl Fn(&mut Vec<u8>), names: &[&str]) {
    let meshes = Path::new(env!("CARGO_MANIFEST_DIR")).join("meshes");
    let mut bytes = std::fs::read(meshes.join(source)).unwrap();
    edit(&mut bytes);
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("bad.msh"), &bytes).unwrap();
    let p = write(
        dir.path(),
        "case.toml",
        &plate()
            .replace(
                "[[mesh.generate]]\nkind = \"box\"\nname = \"plate\"\nmin = [0.0, 0.0]\nmax = [1.0, 1.0]\ndivisions = [2, 2]",
                "file = \"bad.msh\"",
            )
            .replace("slave = \"plate_ymin\"", "slave = \"bottom\""),
    );
    refused(
        &emcontact(&["check", p.to_str().unwrap()]),
        "case.toml",
        names,
    );
}

fn marker_at(bytes: &[u8], header: &[u8]) -> usize {
    let i = bytes
        .windows(header.len())
        .position(|w| w == header)
        .unwrap();
    i + header.len()
}

#[test]
fn binary_msh_byte_order_and_type_errors() {
    // the binary marker written big-endian while the data are little-endian
    for (file, header) in [
        ("square_tri.msh41b.msh", &b"4.1 1 8\n"[..]),
        ("square_tri.msh22b.msh", &b"2.2 1 8\n"[..]),
    ] {
        msh_case(
            file,
            |b| {
                let j = marker_at(b, header);
                b[j..j + 4].copy_from_slice(&1i32.to_be_bytes());
            },
            &["mesh.file", "bad.msh", "byte order"],
        );
        // a marker that is 1 in neither byte order
        msh_case(
            file,
            |b| {
                let j = marker_at(b, header);
                b[j..j + 4].copy_from_slice(&7i32.to_le_bytes());
            },
            &["mesh.file", "bad.msh", "byte order", "line 3"],
        );
    }
    // 4-byte size_t in a 4.1 file written with 8-byte ones: a type error
    msh_case(
        "square_tri.msh41b.msh",
        |b| {
            let j = marker_at(b, b"4.1 1 ");
            b[j] = b'4';
        },
        &["mesh.file", "bad.msh", "data size"],
    );
}

#[test]
fn output_folders_that_cannot_be_used() {
    let dir = tempfile::tempdir().unwrap();
    let p = write(dir.path(), "case.toml", &plate());
    // a regular file where the folder should be
    let blocker = write(dir.path(), "blocker", "x");
    let o = emcontact(&[
        "run",
        p.to_str().unwrap(),
        "--out",
        blocker.join("out").to_str().unwrap(),
    ]);
    refused(&o, "blocker", &["cannot create the output folder"]);
    // a read-only folder (root may write anyway: then only the message is not tested)
    let ro = dir.path().join("ro");
    std::fs::create_dir(&ro).unwrap();
    let mut perm = std::fs::metadata(&ro).unwrap().permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut perm, 0o555);
    std::fs::set_permissions(&ro, perm).unwrap();
    let o = emcontact(&[
        "run",
        p.to_str().unwrap(),
        "--out",
        ro.join("out").to_str().unwrap(),
        "-q",
    ]);
    if o.code != Some(0) {
        refused(&o, "ro", &["output folder"]);
        assert!(
            !o.stderr.contains("kept"),
            "claims no kept files: {}",
            o.stderr
        );
    }
    // /proc is never writable, not even for root
    let o = emcontact(&["run", p.to_str().unwrap(), "--out", "/proc/emcontact-out"]);
    refused(&o, "/proc/emcontact-out", &["output folder"]);
    assert!(!o.stderr.contains("kept"), "{}", o.stderr);
}
