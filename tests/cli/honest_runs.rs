//! Runs that could look right and not be: a body passing through itself or
//! behind a rigid surface, a rigid plane whose normal points away, a restart
//! of a changed model, a sliver of a last step; and counts written as
//! integers.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn emcontact(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
        .args(args)
        .output()
        .unwrap()
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("emc_honest_{name}_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(dir: &Path, text: &str, extra: &[&str]) -> (Output, PathBuf) {
    let input = dir.join("input.toml");
    std::fs::write(&input, text).unwrap();
    let out = dir.join("out");
    let mut args = vec![
        "run",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    (emcontact(&args), out)
}

/// A ring squeezed flat between two rigid plates, without self-contact:
/// its walls pass through each other and its inner nodes (on no contact
/// surface) go behind both plates.
const FOLDING_RING: &str = r#"
[problem]
name = "fold"
dimension = 2
[time]
dt = 0.01
end = 1.0
[mesh]
[[mesh.generate]]
kind = "ring"
name = "ring"
center = [0.0, 0.0]
radius = 1.0
thickness = 0.1
divisions = [60, 2]
[[body]]
name = "ring"
group = "ring"
material = { model = "neo-hookean", young = 1.0e3, poisson = 0.3, density = 0.01 }
[[contact]]
slave = "ring_outer"
master_plane = { point = [0.0, -1.05], normal = [0.0, 1.0], velocity = [0.0, 1.0] }
[[contact]]
slave = "ring_outer"
master_plane = { point = [0.0, 1.05], normal = [0.0, -1.0], velocity = [0.0, -1.0] }
"#;

#[test]
fn a_ring_folding_through_itself_is_not_ok() {
    let (o, _) = run(&scratch("fold"), FOLDING_RING, &[]);
    let stdout = String::from_utf8_lossy(&o.stdout);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    let verdict = stdout.lines().last().unwrap();
    assert!(verdict.starts_with("verdict: NOT OK"), "{stdout}");
    // naming the body, the surface it went through, the count, the deepest node
    let own = stdout
        .lines()
        .find(|l| l.starts_with("penetration:") && l.contains("inside their own body"))
        .unwrap_or_else(|| panic!("no self-penetration line in {stdout}"));
    assert!(own.contains("body \"ring\""), "{own}");
    assert!(own.contains("boundary surface"), "{own}");
    assert!(own.contains("the deepest is node"), "{own}");
    let count: usize = own
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no count in {own}"));
    assert!(count > 0);
    // the inner nodes are on no contact surface, and go behind the plates
    for k in 0..2 {
        let plate = format!("behind the rigid plane of contact[{k}]");
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with("penetration:") && l.contains(&plate)),
            "{plate} not reported in {stdout}"
        );
    }
    // and a warning at the step it happened
    assert!(stderr.contains("penetration: t = "), "{stderr}");
}

/// A block above a plane whose normal points down, away from it.
const FLIPPED: &str = r#"
[problem]
name = "flipped"
dimension = 2
[time]
dt = 0.01
end = 0.05
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.1]
max = [1.0, 0.6]
divisions = [4, 2]
[[body]]
name = "b"
group = "b"
material = { model = "neo-hookean", young = 1000.0, poisson = 0.3, density = 1.0 }
velocity = [0.0, -1.0]
[[contact]]
slave = "b_ymin"
master_plane = { point = [0.0, 0.0], normal = [0.0, -1.0] }
"#;

#[test]
fn a_plane_whose_normal_points_away_is_refused_with_how_to_flip_it() {
    for adjust in [false, true] {
        let text = if adjust {
            FLIPPED.replace(
                "normal = [0.0, -1.0] }",
                "normal = [0.0, -1.0] }\ninitial_overlap = \"adjust\"",
            )
        } else {
            FLIPPED.to_string()
        };
        let (o, out) = run(&scratch(&format!("flipped{adjust}")), &text, &[]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "adjust {adjust}: {stderr}");
        assert!(stderr.contains("input.toml"), "{stderr}");
        assert!(stderr.contains("contact[0]"), "{stderr}");
        assert!(stderr.contains("normal points away"), "{stderr}");
        assert!(stderr.contains("flip it: normal = [0, 1]"), "{stderr}");
        assert!(
            !stderr.contains("initial_overlap = \\\"adjust\\\" to move"),
            "{stderr}"
        );
        assert!(!out.join("history.csv").exists(), "nothing was run");
    }
}

/// A block on a base, with friction: the restart tests' model.
const RESTART: &str = r#"
[problem]
name = "restart"
dimension = 2
[time]
dt = 0.01
end = 0.03
[output]
checkpoint_every = 1
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
velocity = [0.5, -0.1]
[[contact]]
slave = "b_ymin"
master_plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
friction = 0.3
"#;

#[test]
fn restart_refuses_a_changed_model_naming_the_key() {
    let cases = [
        ("friction = 0.3", "friction = 0.4", "contact[0].friction"),
        ("young = 1000.0", "young = 1100.0", "body[0].material"),
        ("dt = 0.01", "dt = 0.005", "time.dt"),
        ("divisions = [4, 2]", "divisions = [4, 3]", "mesh"),
    ];
    for (from, to, key) in cases {
        let dir = scratch(&format!("restart_{}", key.replace(['[', ']', '.'], "_")));
        let (o, out) = run(&dir, RESTART, &["-q"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let changed = RESTART
            .replace(from, to)
            .replace("end = 0.03", "end = 0.05");
        let input = dir.join("changed.toml");
        std::fs::write(&input, changed).unwrap();
        let o = emcontact(&[
            "run",
            input.to_str().unwrap(),
            "--restart",
            out.to_str().unwrap(),
            "-q",
        ]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{key}: {stderr}");
        assert!(
            stderr.contains(&format!("`{key}` differs")),
            "{key}: {stderr}"
        );
    }
    // only time.end changed: it continues
    let dir = scratch("restart_end");
    let (o, out) = run(&dir, RESTART, &["-q"]);
    assert_eq!(o.status.code(), Some(0));
    let input = dir.join("longer.toml");
    std::fs::write(&input, RESTART.replace("end = 0.03", "end = 0.05")).unwrap();
    let o = emcontact(&[
        "run",
        input.to_str().unwrap(),
        "--restart",
        out.to_str().unwrap(),
        "-q",
    ]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `k · every · dt` a few 1e-21 short of `end` (here 10 · 1e-6 against
/// 1e-5) took a last step of 1.7e-21 and wrote a second frame for it.
const SLIVER: &str = r#"
[problem]
name = "sliver"
dimension = 2
[time]
dt = 1e-6
end = 1e-5
[output]
every = 10
[mesh]
[[mesh.generate]]
kind = "box"
name = "b"
min = [0.0, 0.0]
max = [1.0, 1.0]
divisions = [2, 2]
[[body]]
name = "b"
group = "b"
material = { model = "svk", young = 1000.0, poisson = 0.3, density = 1.0 }
velocity = [1.0, 0.0]
"#;

#[test]
fn no_sliver_of_a_last_step_and_no_duplicate_frame() {
    for end in ["1e-5", "4e-5", "1.1e-4"] {
        let text = SLIVER.replace("end = 1e-5", &format!("end = {end}"));
        let (o, out) = run(&scratch(&format!("sliver{end}")), &text, &["-q"]);
        assert_eq!(
            o.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&o.stderr)
        );
        let h = emcontact::output::read_csv(&out.join("history.csv")).unwrap();
        let dt = h.column("dt").unwrap();
        let t = h.column("t").unwrap();
        assert!(
            dt[1..].iter().all(|&d| d >= 1e-6 * 1e-6),
            "end {end}: a step of {:e}",
            dt[1..].iter().fold(f64::INFINITY, |m, &d| m.min(d))
        );
        assert_eq!(*t.last().unwrap(), end.parse::<f64>().unwrap());
        let pvd = std::fs::read_to_string(out.join("sliver.pvd")).unwrap();
        let times: Vec<&str> = pvd
            .split("timestep=\"")
            .skip(1)
            .map(|s| s.split('"').next().unwrap())
            .collect();
        let mut unique = times.clone();
        unique.dedup();
        assert_eq!(times, unique, "end {end}: a duplicate frame");
        // frames at the output times and the end only: 0, 1e-5, 2e-5, ...
        let frames: Vec<f64> = times.iter().map(|s| s.parse().unwrap()).collect();
        for w in frames.windows(2) {
            assert!(w[1] - w[0] > 0.5e-5, "end {end}: frames {frames:?}");
        }
    }
}

#[test]
fn counts_are_written_as_integers() {
    let (o, out) = run(&scratch("integers"), RESTART, &["-q"]);
    assert_eq!(o.status.code(), Some(0));
    for (file, cols) in [
        (
            "history.csv",
            &[
                "newton_iterations",
                "active",
                "stick",
                "slip",
                "contact_restarts",
                "linear_iterations",
                "factorizations",
                "chord_iterations",
            ][..],
        ),
        ("contacts.csv", &["active", "stick", "slip"][..]),
    ] {
        let text = std::fs::read_to_string(out.join(file)).unwrap();
        let mut lines = text.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        for line in lines {
            let cells: Vec<&str> = line.split(',').collect();
            for c in cols {
                let i = header.iter().position(|h| h == c).unwrap();
                assert!(
                    cells[i].parse::<u64>().is_ok(),
                    "{file} {c}: {:?} is not an integer",
                    cells[i]
                );
            }
        }
    }
}
