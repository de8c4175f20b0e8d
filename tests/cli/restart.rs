//! Checkpoint and restart (issue 14, item 2): a run killed (`kill -9` after
//! a checkpoint) or interrupted (SIGINT) at three different steps and
//! restarted with `--restart` writes `history.csv`, the other histories and
//! the last `.vtu` identical byte for byte to the uninterrupted run; SIGINT
//! finishes the step, writes the checkpoint and the plots, says how to
//! continue and exits 130. Short versions of the ring impact (μ = 0.5) and
//! the friction blocks (μ = 0.2).

use emcontact::driver::Checkpoint;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const RING: &str = r#"
[problem]
name = "ring"
dimension = 2
[time]
dt = 0.01
end = 0.9
[output]
every = 5
checkpoint_every = 1
[mesh]
[[mesh.generate]]
kind = "ring"
name = "ring1"
center = [0.0, 0.0]
radius = 10.0
thickness = 0.3
divisions = [78, 3]
[[mesh.generate]]
kind = "ring"
name = "ring2"
center = [10.0, -20.0]
radius = 10.0
thickness = 0.3
divisions = [78, 3]
[[body]]
name = "ring1"
group = "ring1"
material = { model = "neo-hookean", young = 1000.0, poisson = 0.16666666666666666, density = 0.1 }
mass = "consistent"
velocity = [0.0, -4.0]
[[body]]
name = "ring2"
group = "ring2"
material = { model = "neo-hookean", young = 1000.0, poisson = 0.16666666666666666, density = 0.1 }
mass = "consistent"
[[contact]]
slave = "ring1_outer"
master = "ring2_outer"
friction = 0.5
"#;

const BLOCKS: &str = r#"
[problem]
name = "blocks"
dimension = 3
[time]
dt = 0.05
end = 0.6
[output]
every = 2
checkpoint_every = 1
[mesh]
[[mesh.generate]]
kind = "box"
name = "base"
min = [0.0, 0.0, 0.0]
max = [2.0, 2.0, 1.0]
divisions = [4, 4, 2]
[[mesh.generate]]
kind = "box"
name = "cube"
min = [0.5, 0.0, 1.25]
max = [1.5, 1.0, 2.25]
divisions = [2, 2, 2]
[[body]]
name = "base"
group = "base"
material = { model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }
[[body]]
name = "cube"
group = "cube"
material = { model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }
velocity = [0.0, 1.5, -1.0]
[[boundary]]
group = "base_zmin"
fix = ["x", "y", "z"]
[[contact]]
slave = "cube_zmin"
master = "base_zmax"
friction = 0.2
"#;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
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
    let o = bin()
        .args(["run", "-q"])
        .arg(input)
        .arg("--restart")
        .arg(out)
        .output()
        .unwrap();
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
    let input = dir.path().join(format!("{name}.toml"));
    std::fs::write(&input, text).unwrap();
    let reference = dir.path().join("reference");
    let o = bin()
        .args(["run", "-q"])
        .arg(&input)
        .arg("--out")
        .arg(&reference)
        .output()
        .unwrap();
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
    kill_and_restart(RING, "ring", [20, 62, 75], 68);
}

#[test]
fn friction_blocks_restart_bit_for_bit() {
    // first contact in the step to t = 0.25
    kill_and_restart(BLOCKS, "blocks", [2, 6, 8], 7);
}

#[test]
fn a_restart_without_checkpoint_or_of_another_model_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("ring.toml");
    std::fs::write(&input, RING).unwrap();
    let o = bin()
        .arg("run")
        .arg(&input)
        .arg("--restart")
        .arg(dir.path().join("nowhere"))
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(
        e.contains("checkpoint.bin") && e.contains("no checkpoint"),
        "{e}"
    );
    // a checkpoint of the blocks offered to the ring
    let blocks = dir.path().join("blocks.toml");
    std::fs::write(&blocks, BLOCKS.replace("end = 0.6", "end = 0.1")).unwrap();
    let out = dir.path().join("b");
    let o = bin()
        .args(["run", "-q"])
        .arg(&blocks)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success());
    let o = bin()
        .arg("run")
        .arg(&input)
        .arg("--restart")
        .arg(&out)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("another model"), "{e}");
    // a damaged checkpoint
    std::fs::write(out.join("checkpoint.bin"), b"EMCCHK\0\x01garbage").unwrap();
    let o = bin()
        .arg("run")
        .arg(&blocks)
        .arg("--restart")
        .arg(&out)
        .output()
        .unwrap();
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("corrupt checkpoint"), "{e}");
}
