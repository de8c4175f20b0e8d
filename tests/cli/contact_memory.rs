//! `check` and `run` count the memory of contact (the points that may
//! touch, the path `[solver] contact_system` takes, its bytes) and refuse,
//! exit 2 naming the file and the key, a contact model whose estimate
//! exceeds the memory available (`EMCONTACT_MEMORY_LIMIT` caps it here).

use crate::common::run::{bin, printed, write_input};
use crate::common::validation::contact_scaling;
use std::process::Output;

/// The contact-scaling family at N = 16, one element layer, one step of
/// 0.05 (`validation/contact_scaling/make.py 16 1 --gap 0.03`): a cube of
/// 16 × 16 faces over a base of twice their size, two passes.
fn blocks(system: &str) -> String {
    contact_scaling(&[
        "16", "1", "--gap", "0.03", "--end", "0.05", "--system", system,
    ])
}

/// `emcontact ARGS` on `text` (as `model.toml`) with the memory capped at
/// `limit` (none: the machine's).
fn emcontact(args: &[&str], text: &str, limit: Option<&str>) -> (Output, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let p = write_input(dir.path(), "model.toml", text);
    let mut cmd = bin();
    cmd.args(args).arg(&p);
    if args[0] == "run" {
        cmd.arg("--out").arg(dir.path().join("out"));
    }
    cmd.env_remove("EMCONTACT_MEMORY_LIMIT");
    if let Some(l) = limit {
        cmd.env("EMCONTACT_MEMORY_LIMIT", l);
    }
    (cmd.output().expect("run emcontact"), dir)
}

/// The bytes of a size printed as `12.3 MB`.
fn bytes(printed: &str, after: &str) -> f64 {
    let rest = &printed[printed
        .find(after)
        .unwrap_or_else(|| panic!("{after:?} in {printed}"))
        + after.len()..];
    let mut words = rest.split_whitespace();
    let v: f64 = words.next().unwrap().parse().unwrap();
    let unit = words.next().unwrap().trim_end_matches([',', ':']);
    v * match unit {
        "kB" => 1e3,
        "MB" => 1e6,
        "GB" => 1e9,
        u => panic!("unit {u}"),
    }
}

#[test]
fn check_counts_the_points_that_may_touch_and_the_path() {
    let (o, _d) = emcontact(&["check"], &blocks("auto"), None);
    let out = printed(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    // first pass: all 17² cube nodes lie over the base; second pass: the
    // base nodes under the cube or within a face size h = 1/16 of it,
    // x ∈ {0.5, …, 1.5} × y ∈ {0, …, 1} at spacing 1/8: 9², of 17² + 17²
    assert!(
        out.contains("370 slave points may touch (of 578 slave nodes)"),
        "{out}"
    );
    // 370 points are below auto's 400: the condensed path, m = 3·370
    assert!(
        out.contains("path condensed: a dense problem of 1110 unknowns"),
        "{out}"
    );
    let contact = bytes(&out, "contact memory");
    assert!(contact >= 150.0 * 1110.0 * 1110.0, "{out}");
    // the run's total holds contact's share
    assert!(bytes(&out, "estimated memory") >= contact, "{out}");
    let figure = out
        .split("contact memory ")
        .nth(1)
        .unwrap()
        .split(':')
        .next()
        .unwrap();
    assert!(out.contains(&format!(", contact {figure} of it")), "{out}");

    let (o, _d) = emcontact(&["check"], &blocks("saddle"), None);
    let out = printed(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("370 slave points may touch"), "{out}");
    assert!(out.contains("path saddle: augmented LU"), "{out}");
    // the sparse path needs a fraction of the dense problem
    assert!(bytes(&out, "contact memory") < 0.5 * contact, "{out}");
}

#[test]
fn a_contact_model_that_does_not_fit_is_refused_and_one_that_fits_runs() {
    // the condensed estimate (about 200 MB) does not fit in 60 MB
    for cmd in ["check", "run"] {
        let (o, d) = emcontact(&[cmd], &blocks("auto"), Some("60MB"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        for name in [
            "model.toml",
            "solver.contact_system",
            "370 slave points may touch, path condensed",
            "60.0 MB available",
            "contact_system = \"saddle\"",
        ] {
            assert!(err.contains(name), "{cmd}: {name:?} in {err}");
        }
        assert_eq!(
            err.lines().filter(|l| l.starts_with("error")).count(),
            1,
            "{err}"
        );
        assert!(!err.contains("panicked"), "{err}");
        assert!(
            !d.path().join("out/history.csv").exists(),
            "{cmd} wrote no history"
        );
    }
    // the saddle path, as the message says, fits in the same 60 MB
    let (o, _d) = emcontact(&["check"], &blocks("saddle"), Some("60MB"));
    let out = printed(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(bytes(&out, "estimated memory") <= 60e6, "{out}");
    // and the run at that limit completes its first-contact step
    let (o, d) = emcontact(&["run", "--quiet"], &blocks("saddle"), Some("60MB"));
    assert_eq!(o.status.code(), Some(0), "{}", printed(&o));
    assert!(d.path().join("out/history.csv").exists());
}

#[test]
fn a_memory_limit_that_is_not_a_size_is_refused_by_name() {
    for cmd in ["check", "run"] {
        let (o, d) = emcontact(&[cmd], &blocks("saddle"), Some("16 gigs"));
        let err = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{cmd}: {err}");
        for name in ["EMCONTACT_MEMORY_LIMIT", "\"16 gigs\"", "16GB"] {
            assert!(err.contains(name), "{cmd}: {name:?} in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
        assert!(!d.path().join("out/history.csv").exists(), "{cmd} ran");
    }
}

/// A number as `check` prints it: `6.64e-1`, `2,700`.
fn number(word: &str) -> f64 {
    word.replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("a number: {word:?}"))
}

/// The free step's seconds and the contact step's range from `check`'s
/// `rough time per step X s` and `contact step ≈ LOW–HIGH s` lines.
fn step_times(out: &str) -> (f64, [f64; 2]) {
    let after = |key: &str| {
        out.split(key)
            .nth(1)
            .unwrap_or_else(|| panic!("{key:?} in {out}"))
            .trim_start()
            .split(' ')
            .next()
            .unwrap()
            .to_string()
    };
    let free = number(&after("rough time per step"));
    let range = after("contact step ≈");
    let (low, high) = range
        .split_once('–')
        .unwrap_or_else(|| panic!("a range: {range}"));
    (free, [number(low), number(high)])
}

#[test]
fn check_prints_a_contact_step_time_above_the_free_step() {
    // the condensed path (auto: 370 points) builds W, one solve per contact
    // unknown, and the saddle path factors the augmented system about 25
    // times a step: either costs several free steps
    for (system, lu) in [("auto", "coupled LU"), ("saddle", "augmented LU")] {
        let (o, _d) = emcontact(&["check"], &blocks(system), None);
        let out = printed(&o);
        assert_eq!(o.status.code(), Some(0), "{out}");
        let (free, [low, high]) = step_times(&out);
        assert!(free > 0.0 && high > low, "{system}: {out}");
        assert!(low >= 5.0 * free, "{system}: {out}");
        for words in [lu, "a rough range", "cut back costs about 2×"] {
            assert!(out.contains(words), "{system}: {words:?} in {out}");
        }
    }
    // the same bodies without the contact pair: no contact-step line
    let text = blocks("saddle");
    let free = &text[..text.find("[[contact]]").expect("a contact table")];
    let (o, _d) = emcontact(&["check"], free, None);
    let out = printed(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("rough time per step"), "{out}");
    assert!(!out.contains("contact step"), "{out}");
}
