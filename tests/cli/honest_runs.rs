//! Runs that could look right and not be: a body passing through itself or
//! behind a rigid surface, a rigid plane whose normal points away, a restart
//! of a changed model, a sliver of a last step; and counts written as
//! integers.

use crate::common::fixture::Fixture;
use crate::common::run::{restart_bin, run_text, write_input};

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
    let r = run_text(FOLDING_RING, &[]);
    let (stdout, stderr) = (r.stdout(), r.stderr());
    // the run completes, and its failed verdict is its exit status
    assert_eq!(
        r.code(),
        Some(emcontact::driver::balance::VERDICT_EXIT as i32),
        "{stderr}"
    );
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

/// The 2D block (`block_2d`) lifted 0.1 above a plane whose normal points
/// down, away from it, and thrown at it.
fn flipped() -> Fixture {
    Fixture::load("block_2d")
        .set("problem.name", "flipped")
        .set("mesh.generate.0.min", vec![0.0, 0.1])
        .set("mesh.generate.0.max", vec![1.0, 0.6])
        .set("body.0.velocity", vec![0.0, -1.0])
        .merge(
            r#"[[contact]]
slave = "b_ymin"
master_plane = { point = [0.0, 0.0], normal = [0.0, -1.0] }"#,
        )
}

#[test]
fn a_plane_whose_normal_points_away_is_refused_with_how_to_flip_it() {
    for adjust in [false, true] {
        let f = if adjust {
            flipped().set("contact.0.initial_overlap", "adjust")
        } else {
            flipped()
        };
        let r = run_text(&f.text(), &[]);
        let stderr = r.stderr();
        assert_eq!(r.code(), Some(2), "adjust {adjust}: {stderr}");
        assert!(stderr.contains("input.toml"), "{stderr}");
        assert!(stderr.contains("contact[0]"), "{stderr}");
        assert!(stderr.contains("normal points away"), "{stderr}");
        assert!(stderr.contains("flip it: normal = [0, 1]"), "{stderr}");
        assert!(
            !stderr.contains("initial_overlap = \\\"adjust\\\" to move"),
            "{stderr}"
        );
        assert!(!r.out().join("history.csv").exists(), "nothing was run");
    }
}

/// The 2D block (`block_2d`) sliding on a base, with friction, a checkpoint
/// every step: the restart tests' model.
fn restarted() -> Fixture {
    Fixture::load("block_2d")
        .set("problem.name", "restart")
        .set("time.end", 0.03)
        .set("output.checkpoint_every", 1)
        .set("body.0.velocity", vec![0.5, -0.1])
        .merge(
            r#"[[contact]]
slave = "b_ymin"
master_plane = { point = [0.0, 0.0], normal = [0.0, 1.0] }
friction = 0.3"#,
        )
}

#[test]
fn restart_refuses_a_changed_model_naming_the_key() {
    let cases: [(&str, toml::Value, &str); 4] = [
        ("contact.0.friction", 0.4.into(), "contact[0].friction"),
        ("body.0.material.young", 1100.0.into(), "body[0].material"),
        ("time.dt", 0.005.into(), "time.dt"),
        ("mesh.generate.0.divisions", vec![4, 3].into(), "mesh"),
    ];
    for (path, value, key) in cases {
        let r = run_text(&restarted().text(), &["-q"]);
        r.assert_ok(key);
        let changed = restarted().set(path, value).set("time.end", 0.05);
        let input = write_input(r.dir.path(), "changed.toml", &changed.text());
        let o = restart_bin(&input, &r.out(), &["-q"]);
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{key}: {stderr}");
        assert!(
            stderr.contains(&format!("`{key}` differs")),
            "{key}: {stderr}"
        );
    }
    // only time.end changed: it continues
    let r = run_text(&restarted().text(), &["-q"]);
    assert_eq!(r.code(), Some(0));
    let longer = restarted().set("time.end", 0.05);
    let input = write_input(r.dir.path(), "longer.toml", &longer.text());
    let o = restart_bin(&input, &r.out(), &["-q"]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// `k · every · dt` a few 1e-21 short of `end` (here 10 · 1e-6 against
/// 1e-5) took a last step of 1.7e-21 and wrote a second frame for it: the
/// `plate` (a 2D unit square, 2×2) moving at unit speed, a frame every 10
/// steps of 1e-6, to `end`.
fn sliver(end: f64) -> Fixture {
    Fixture::load("plate")
        .set("problem.name", "sliver")
        .set("time.dt", 1e-6)
        .set("time.end", end)
        .set("output.every", 10)
        .set("body.0.velocity", vec![1.0, 0.0])
}

#[test]
fn no_sliver_of_a_last_step_and_no_duplicate_frame() {
    for end in ["1e-5", "4e-5", "1.1e-4"] {
        let r = run_text(&sliver(end.parse().unwrap()).text(), &["-q"]);
        r.assert_ok(end);
        let out = r.out();
        let h = r.history();
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
    let r = run_text(&restarted().text(), &["-q"]);
    assert_eq!(r.code(), Some(0));
    let out = r.out();
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
