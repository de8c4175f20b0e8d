//! Checkpoint and restart: a run killed (`kill -9` after
//! a checkpoint) or interrupted (SIGINT) at three different steps and
//! restarted with `--restart` writes `history.csv`, the other histories and
//! the last `.vtu` identical byte for byte to the uninterrupted run; SIGINT
//! finishes the step, writes the checkpoint and the plots, says how to
//! continue and exits 130. Short versions of the ring impact (μ = 0.5) and
//! the friction blocks (μ = 0.2).

use crate::common::fixture::Fixture;
use crate::common::run::{bin, restart_bin, run_bin, write_input};
use emcontact::driver::Checkpoint;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The ring impact (μ = 0.5) to t = 0.9: contact from step 59 on.
fn ring() -> String {
    Fixture::file("validation/ring_impact/velocity_update.toml")
        .set("problem.name", "ring")
        .set("time.end", 0.9)
        .set("output.checkpoint_every", 1)
        .text()
}

/// The coarse friction blocks (μ = 0.2) at Δt = 0.05: first contact in the
/// step to t = 0.25.
fn blocks() -> Fixture {
    Fixture::load("blocks_coarse")
        .set("time.dt", 0.05)
        .set("output.every", 2)
        .set("output.checkpoint_every", 1)
}

fn spawn(input: &Path, out: &Path) -> Child {
    bin()
        .args(["run", "-q"])
        .arg(input)
        .arg("--out")
        .arg(out)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the checkpoint in `out` is at `step` or later (or the child
/// has ended); returns the checkpoint's step.
fn wait_for_checkpoint(child: &mut Child, out: &Path, step: usize) -> Option<usize> {
    let started = Instant::now();
    loop {
        if let Ok(cp) = Checkpoint::read(out) {
            if cp.control.steps >= step {
                return Some(cp.control.steps);
            }
        }
        if child.try_wait().unwrap().is_some() || started.elapsed() > Duration::from_secs(300) {
            return None;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn signal(child: &Child, sig: &str) {
    let ok = Command::new("kill")
        .args([sig, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(ok.success());
}

/// The files a restart must reproduce byte for byte.
fn results(dir: &Path, name: &str) -> Vec<(String, Vec<u8>)> {
    let mut frames: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "vtu"))
        .collect();
    frames.sort();
    let last = frames.last().expect("frames written").clone();
    let mut files: Vec<PathBuf> = ["history.csv", "bodies.csv", "reactions.csv", "contacts.csv"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.exists())
        .collect();
    files.push(dir.join(format!("{name}.pvd")));
    files.push(last);
    files
        .into_iter()
        .map(|p| {
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect()
}

fn restart(input: &Path, out: &Path) {
    let o = restart_bin(input, out, &["-q"]);
    assert!(
        o.status.success(),
        "restart failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn assert_same(a: &[(String, Vec<u8>)], b: &[(String, Vec<u8>)], what: &str) {
    assert_eq!(
        a.iter().map(|f| &f.0).collect::<Vec<_>>(),
        b.iter().map(|f| &f.0).collect::<Vec<_>>(),
        "{what}: the same files"
    );
    for (fa, fb) in a.iter().zip(b) {
        assert!(
            fa.1 == fb.1,
            "{what}: {} differs from the uninterrupted run's",
            fa.0
        );
    }
}

/// Reference run, then for each of `kills` a run killed with `kill -9` once
/// its checkpoint reached that step, and one interrupted by SIGINT at
/// `sigint`; each restarted and compared.
fn kill_and_restart(text: &str, name: &str, kills: [usize; 3], sigint: usize) {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{name}.toml"), text);
    let reference = dir.path().join("reference");
    let o = run_bin(&input, &reference, &["-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = results(&reference, name);
    let total = Checkpoint::read(&reference).unwrap().control.steps;
    assert!(kills.iter().all(|&k| k < total) && sigint < total);

    let mut stopped_at = Vec::new();
    for (i, &k) in kills.iter().enumerate() {
        let out = dir.path().join(format!("kill{i}"));
        let mut child = spawn(&input, &out);
        let at = wait_for_checkpoint(&mut child, &out, k)
            .unwrap_or_else(|| panic!("{name}: the run ended before step {k}; make it longer"));
        signal(&child, "-KILL");
        let status = child.wait().unwrap();
        assert!(!status.success(), "{name}: killed at step ≥ {at}");
        stopped_at.push(Checkpoint::read(&out).unwrap().control.steps);
        restart(&input, &out);
        assert_same(
            &want,
            &results(&out, name),
            &format!("{name}, kill -9 after step {k}"),
        );
    }
    let out = dir.path().join("sigint");
    let mut child = spawn(&input, &out);
    wait_for_checkpoint(&mut child, &out, sigint).expect("still running");
    signal(&child, "-INT");
    let o = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "SIGINT exits 130: {stderr}");
    assert!(
        stderr.contains("interrupted") && stderr.contains("--restart"),
        "says where it stopped and how to continue: {stderr}"
    );
    assert!(out.join("energy.png").exists() && out.join("momentum.png").exists());
    let cp = Checkpoint::read(&out).unwrap();
    assert!(cp.control.steps >= sigint);
    stopped_at.push(cp.control.steps);
    restart(&input, &out);
    assert_same(
        &want,
        &results(&out, name),
        &format!("{name}, SIGINT after step {sigint}"),
    );
    println!("{name}: {total} steps; stopped at steps {stopped_at:?} and restarted, all identical");
    stopped_at.sort_unstable();
    stopped_at.dedup();
    assert!(
        stopped_at.len() >= 3,
        "three different steps: {stopped_at:?}"
    );
}

#[test]
fn ring_impact_restarts_bit_for_bit() {
    // contact from step 59 on
    kill_and_restart(&ring(), "ring", [20, 62, 75], 68);
}

#[test]
fn friction_blocks_restart_bit_for_bit() {
    // first contact in the step to t = 0.25
    kill_and_restart(&blocks().text(), "blocks", [2, 6, 8], 7);
}

#[test]
fn a_restart_without_checkpoint_or_of_another_model_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "ring.toml", &ring());
    let o = restart_bin(&input, &dir.path().join("nowhere"), &[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("checkpoint.bin") && e.contains("no checkpoint"),
        "{e}"
    );
    // a checkpoint of the blocks offered to the ring
    let blocks = write_input(
        dir.path(),
        "blocks.toml",
        &blocks().set("time.end", 0.1).text(),
    );
    let out = dir.path().join("b");
    let o = run_bin(&blocks, &out, &["-q"]);
    assert!(o.status.success());
    let o = restart_bin(&input, &out, &[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("another model"), "{e}");
    // a damaged checkpoint
    std::fs::write(out.join("checkpoint.bin"), b"EMCCHK\0\x01garbage").unwrap();
    let o = restart_bin(&blocks, &out, &[]);
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("corrupt checkpoint"), "{e}");
}
