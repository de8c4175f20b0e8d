//! Checkpoint and restart: a run killed (`kill -9` after a checkpoint) at
//! three different steps, or interrupted (SIGINT), and restarted with
//! `--restart` writes `history.csv`, the other histories and the last
//! `.vtu` identical byte for byte to the uninterrupted run; SIGINT abandons
//! the step in progress (where it lands, as a rule: the steps are the run's
//! time), writes the checkpoint of the last one completed and the plots,
//! says how to continue and exits 130. The steps are what the checkpoint says after the kill; where
//! a loaded machine lets a run pass its target (or end) before the kill
//! lands, the next run aims at the next step not yet covered. Short
//! versions of the ring impact (μ = 0.5) and the friction blocks (μ = 0.2).

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
        std::thread::sleep(Duration::from_millis(1));
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

/// How many runs an interruption may take to land at a step not yet
/// covered: a loaded machine may run a child past its target before the
/// poll sees it, or to its end; every attempt is restarted and compared.
const ATTEMPTS: usize = 8;

/// How an interruption ended a run: killed (`kill -9`) or interrupted
/// (SIGINT: exit 130, the checkpoint written, the plots, a message).
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    Kill,
    Interrupt,
}

/// Runs `input` into `out`, stops it by `how` once its checkpoint reaches
/// `step`; returns the checkpoint's step after the stop (the step the
/// restart continues from), or `None` where the run ended first.
fn stop_at(input: &Path, out: &Path, step: usize, how: Stop) -> Option<usize> {
    let _ = std::fs::remove_dir_all(out);
    let mut child = spawn(input, out);
    if wait_for_checkpoint(&mut child, out, step).is_none() {
        child.wait().unwrap();
        return None;
    }
    match how {
        // directly, not through `kill(1)`: the child runs on meanwhile
        Stop::Kill => child.kill().unwrap(),
        Stop::Interrupt => signal(&child, "-INT"),
    }
    let o = child.wait_with_output().unwrap();
    if o.status.success() {
        // it finished its last step before the signal landed
        return None;
    }
    if how == Stop::Interrupt {
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(130), "SIGINT exits 130: {stderr}");
        assert!(
            stderr.contains("interrupted") && stderr.contains("--restart"),
            "says where it stopped and how to continue: {stderr}"
        );
        assert!(out.join("energy.png").exists() && out.join("momentum.png").exists());
    }
    let at = Checkpoint::read(out).unwrap().control.steps;
    assert!(
        at >= step,
        "the checkpoint at step {at}, before the target {step}"
    );
    Some(at)
}

/// Reference run, then for each of `kills` runs killed with `kill -9` once
/// their checkpoint reached that step (or the next step no kill landed at
/// yet, where a kill landed at a covered step), and one interrupted by
/// SIGINT at `sigint`; each restarted and compared to the reference byte
/// for byte. The kills land at three different steps.
fn kill_and_restart(text: &str, name: &str, kills: [usize; 3], sigint: usize) {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), &format!("{name}.toml"), text);
    let reference = dir.path().join("reference");
    let o = run_bin(&input, &reference, &["-q"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let want = results(&reference, name);
    let total = Checkpoint::read(&reference).unwrap().control.steps;
    assert!(kills.iter().all(|&k| k < total) && sigint < total);

    let mut killed_at = std::collections::BTreeSet::new();
    let mut runs = 0;
    let out = dir.path().join("interrupted");
    let restarted = |at: usize, what: &str| {
        restart(&input, &out);
        assert_same(
            &want,
            &results(&out, name),
            &format!("{name}, {what} at step {at}"),
        );
    };
    for &k in &kills {
        let landed = (0..ATTEMPTS).find_map(|_| {
            let target = (k..total).find(|s| !killed_at.contains(s))?;
            runs += 1;
            let at = stop_at(&input, &out, target, Stop::Kill)?;
            restarted(at, "kill -9");
            killed_at.insert(at).then_some(at)
        });
        assert!(
            landed.is_some(),
            "{name}: no kill from step {k} on landed at a step other than {killed_at:?} in {ATTEMPTS} runs"
        );
    }
    let interrupted = (0..ATTEMPTS)
        .find_map(|_| {
            runs += 1;
            stop_at(&input, &out, sigint, Stop::Interrupt)
        })
        .unwrap_or_else(|| panic!("{name}: every run ended before SIGINT landed"));
    restarted(interrupted, "SIGINT");
    println!(
        "{name}: {total} steps; killed at steps {killed_at:?}, interrupted at step {interrupted}, \
         {runs} runs, each restarted: all identical"
    );
    assert_eq!(killed_at.len(), 3, "three different steps: {killed_at:?}");
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
