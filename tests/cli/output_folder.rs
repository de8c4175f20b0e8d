//! The output folder and its files: `emcontact plot`,
//! refusing to mix runs without `--overwrite` (no stale frames), rows
//! written whole on a full disk, the check's warnings and `--strict`.

use crate::common::fixture::Fixture;
use crate::common::run::{emcontact, write_input};
use emcontact::output::read_csv;
use std::path::Path;
use std::process::Command;

fn spin() -> Fixture {
    Fixture::load("spin_box")
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn frames(dir: &Path) -> usize {
    std::fs::read_dir(dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "vtu")
        })
        .count()
}

#[test]
fn plot_redraws_the_pngs_from_history() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "spin.toml", &spin().text());
    let out = dir.path().join("out");
    let o = emcontact(&["run", s(&input), "--out", s(&out), "-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["energy.png", "momentum.png"] {
        std::fs::remove_file(out.join(f)).unwrap();
    }
    let o = emcontact(&["plot", s(&out)]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["energy.png", "momentum.png"] {
        assert!(std::fs::metadata(out.join(f)).unwrap().len() > 1000, "{f}");
    }
    let o = emcontact(&["plot", s(&dir.path().join("nothing"))]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("history.csv"), "{e}");
}

#[test]
fn an_earlier_run_is_replaced_only_with_overwrite_and_leaves_no_stale_frames() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "spin.toml", &spin().text());
    let out = dir.path().join("out");
    assert!(emcontact(&["run", s(&input), "--out", s(&out), "-q"])
        .status
        .success());
    assert_eq!(frames(&out), 6);
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    // a shorter run into the same folder
    write_input(dir.path(), "spin.toml", &spin().set("time.end", 0.4).text());
    let o = emcontact(&["run", s(&input), "--out", s(&out), "-q"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("--overwrite") && e.contains("6 .vtu frames"),
        "{e}"
    );
    assert_eq!(frames(&out), 6, "nothing touched");
    let o = emcontact(&["run", s(&input), "--out", s(&out), "-q", "--overwrite"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pvd = std::fs::read_to_string(out.join("spin.pvd")).unwrap();
    assert_eq!(pvd.matches("<DataSet").count(), 3);
    assert_eq!(frames(&out), 3, "no stale frames of the longer run");
    assert!(
        out.join("notes.txt").exists(),
        "files not of a run are kept"
    );
}

/// A run that writes far more than 2 MB: 3D frames every step.
fn big() -> String {
    spin()
        .set("problem.name", "big")
        .set("time.dt", 0.05)
        .set("time.end", 5.0)
        .set("output.every", 1)
        .set("mesh.generate.0.divisions", vec![8, 4, 4])
        .text()
}

#[test]
fn a_full_disk_stops_the_run_and_leaves_every_file_parseable() {
    let dir = tempfile::tempdir().unwrap();
    let disk = dir.path().join("disk");
    std::fs::create_dir(&disk).unwrap();
    let mounted = Command::new("mount")
        .args(["-t", "tmpfs", "-o", "size=2m", "tmpfs", s(&disk)])
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false);
    if !mounted {
        println!("cannot mount a 2 MB tmpfs here: checking the writer on /dev/full instead");
        return full_writer();
    }
    let input = dir.path().join("big.toml");
    std::fs::write(&input, big()).unwrap();
    let out = disk.join("out");
    let o = emcontact(&["run", s(&input), "--out", s(&out), "-q"]);
    let e = String::from_utf8_lossy(&o.stderr).into_owned();
    let check = (|| {
        assert_eq!(o.status.code(), Some(1), "{e}");
        assert!(e.contains("No space left") && e.contains("kept"), "{e}");
        for f in ["history.csv", "bodies.csv"] {
            let text = std::fs::read_to_string(out.join(f)).unwrap();
            assert!(text.ends_with('\n'), "{f}: whole rows only");
            let t = read_csv(&out.join(f)).unwrap();
            assert!(!t.rows.is_empty());
        }
        let pvd = std::fs::read_to_string(out.join("big.pvd")).unwrap();
        assert!(pvd.trim_end().ends_with("</VTKFile>"));
        for line in pvd.lines().filter(|l| l.contains("file=\"")) {
            let name = line
                .split("file=\"")
                .nth(1)
                .unwrap()
                .split('"')
                .next()
                .unwrap();
            let vtu = std::fs::read_to_string(out.join(name)).unwrap();
            assert!(vtu.trim_end().ends_with("</VTKFile>"), "{name} complete");
        }
        for entry in std::fs::read_dir(&out).unwrap() {
            let n = entry.unwrap().file_name().into_string().unwrap();
            assert!(!n.contains(".tmp"), "temporary {n} left behind");
        }
    })();
    let _ = Command::new("umount").arg(s(&disk)).status();
    check
}

/// Without a small disk: a CSV writer on /dev/full (every write fails with
/// ENOSPC) reports the file and the error.
fn full_writer() {
    let mut w = match emcontact::output::CsvWriter::create(Path::new("/dev/full"), &["t", "e"]) {
        Err(e) => {
            assert!(e.to_string().contains("/dev/full"), "{e}");
            return;
        }
        Ok(w) => w,
    };
    let e = w.row(&[1.0, 2.0]).unwrap_err().to_string();
    assert!(e.contains("/dev/full") && e.contains("space"), "{e}");
}

#[test]
fn check_warns_and_strict_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "warn.toml", &Fixture::load("warnings").text());
    let o = emcontact(&["check", s(&input)]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "warnings alone do not fail: {e}");
    for (key, what) in [
        ("time.dt", "stable step"),
        ("solver.tolerance", "double precision"),
        ("contact[0].tolerance", "penalty"),
        ("contact[0].tangential_penalty", "friction = 0"),
        ("contact[0].penalty", "stiffest body"),
        ("mesh", "\"wall\""),
    ] {
        assert!(
            e.lines().any(|l| l.starts_with("warning:")
                && l.contains("warn.toml")
                && l.contains(key)
                && l.contains(what)),
            "a warning naming {key} ({what}): {e}"
        );
    }
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("estimated memory") && stdout.contains("time per step"),
        "{stdout}"
    );
    let o = emcontact(&["check", s(&input), "--strict"]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("error:") && e.contains("--strict"), "{e}");
    // run prints the same warnings first, and refuses with --strict
    let out = dir.path().join("out");
    let o = emcontact(&["run", s(&input), "--out", s(&out), "--strict"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!out.join("history.csv").exists(), "refused before running");
}
