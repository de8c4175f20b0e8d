//! Running the binary under `mpirun`, and the serial reference in-process.

use emcontact::driver::{self, RunOptions};
use emcontact::output::{read_csv, CsvTable};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// A run that takes longer has hung (the models here take seconds).
const TIMEOUT: Duration = Duration::from_secs(300);

/// `emcontact ARGS` on `ranks` processes (`mpirun --oversubscribe`; CI runs
/// as root, which Open MPI refuses without `--allow-run-as-root`). Fails
/// the test on a hang.
pub fn mpirun(ranks: usize, args: &[&str]) -> Output {
    let mut child = Command::new("mpirun")
        .args(["--allow-run-as-root", "--oversubscribe", "-n"])
        .arg(ranks.to_string())
        .arg(env!("CARGO_BIN_EXE_emcontact-mpi"))
        .args(args)
        .env("RAYON_NUM_THREADS", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("mpirun (Open MPI, installed by .ci/setup --mpi) starts");
    let started = Instant::now();
    loop {
        if child.try_wait().expect("waiting for mpirun").is_some() {
            return child.wait_with_output().expect("mpirun's output");
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            panic!(
                "mpirun -n {ranks} emcontact {args:?} did not finish in {TIMEOUT:?}: a rank hangs"
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `input` on `ranks` ranks into `out`; panics unless it exits 0.
pub fn run_ranks(ranks: usize, input: &Path, out: &Path) -> CsvTable {
    run_ranks_with(ranks, input, out, &["-q"]);
    history(out)
}

/// As [`run_ranks`], with the closing summary: its standard output.
pub fn run_ranks_summary(ranks: usize, input: &Path, out: &Path) -> (CsvTable, String) {
    let o = run_ranks_with(ranks, input, out, &[]);
    (
        history(out),
        String::from_utf8_lossy(&o.stdout).into_owned(),
    )
}

fn run_ranks_with(ranks: usize, input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "run",
        input.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--overwrite",
    ];
    args.extend_from_slice(extra);
    let o = mpirun(ranks, &args);
    assert!(
        o.status.success(),
        "{ranks} ranks: {}\n{}",
        o.status,
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// The serial driver of the library on `input`, into `out`.
pub fn run_serial(input: &Path, out: &Path) -> CsvTable {
    run_serial_with(input, out, false);
    history(out)
}

/// The serial driver of the library on `input`, into `out`, with or
/// without its VTK frames.
pub fn run_serial_with(input: &Path, out: &Path, vtk: bool) {
    let mut model = emcontact::input::load(input).expect("a valid input");
    model.output.dir = out.to_path_buf();
    let opts = RunOptions {
        vtk,
        plots: false,
        overwrite: true,
        ..RunOptions::default()
    };
    driver::run(&model, &opts).expect("the serial run completes");
}

pub fn history(out: &Path) -> CsvTable {
    read_csv(&out.join("history.csv")).expect("history.csv")
}

/// Writes `text` as `name` in `dir`.
pub fn input(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Every step of `b` equals `a`: the same times and Newton iterations, and
/// energies, momenta and the ledgers' columns within `tol` relative to
/// their scales: the energy and the external work to `max(K + Π)`; the
/// momenta to the largest `linear_scale` / `angular_scale` of the run; the
/// impulses, sums of external forces that cancel where a support carries a
/// weight, to the largest of that and the step's `impulse_size` /
/// `angular_impulse_size` (the scale of their round-off, as in the run's
/// own balance), and those sizes to their largest value.
pub fn assert_same_run(a: &CsvTable, b: &CsvTable, tol: f64, what: &str) {
    assert_eq!(a.rows.len(), b.rows.len(), "{what}: steps");
    let col = |t: &CsvTable, c: &str| t.column(c).unwrap();
    assert_eq!(col(a, "t"), col(b, "t"), "{what}: step times");
    assert_eq!(
        col(a, "newton_iterations"),
        col(b, "newton_iterations"),
        "{what}: Newton iterations"
    );
    let largest = |c: &str| col(a, c).into_iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let energy_scale = col(a, "kinetic")
        .iter()
        .zip(col(a, "strain"))
        .map(|(k, s)| k + s)
        .fold(0.0f64, f64::max);
    let mut checks: Vec<(&str, f64)> = ["kinetic", "strain", "gravity", "total", "external_work"]
        .iter()
        .map(|&c| (c, energy_scale))
        .collect();
    // the size of the motion over the run (a body starting at rest has none at t = 0)
    let l = largest("linear_scale");
    let j = largest("angular_scale");
    checks.extend(["lx", "ly", "lz"].iter().map(|&c| (c, l)));
    checks.extend(["jx", "jy", "jz"].iter().map(|&c| (c, j)));
    let (i, k) = (largest("impulse_size"), largest("angular_impulse_size"));
    checks.extend(
        ["impulse_x", "impulse_y", "impulse_z"]
            .iter()
            .map(|&c| (c, l.max(i))),
    );
    checks.extend(
        [
            "angular_impulse_x",
            "angular_impulse_y",
            "angular_impulse_z",
        ]
        .iter()
        .map(|&c| (c, j.max(k))),
    );
    checks.push(("impulse_size", i));
    checks.push(("angular_impulse_size", k));
    let mut worst = (0.0f64, "");
    for (c, scale) in checks {
        for (step, (x, y)) in col(a, c).iter().zip(col(b, c)).enumerate() {
            assert!(
                (x - y).abs() <= tol * scale,
                "{what}: {c} at step {step}: {x:e} against {y:e} (scale {scale:e})"
            );
            if scale > 0.0 && (x - y).abs() / scale > worst.0 {
                worst = ((x - y).abs() / scale, c);
            }
        }
    }
    // the figure the docs quote (`--nocapture`)
    eprintln!(
        "{what}: {} steps, Newton iterations equal, largest difference {:.1e} of its scale ({})",
        a.rows.len(),
        worst.0,
        worst.1
    );
}

/// A spinning, translating hex8 bar in free flight at about 20× the
/// explicit step (validation/free_flight): `[solver]` and `[output]` lines
/// as given, `divisions` of the 4 × 1 × 0.5 box, `model` the material.
pub fn bar(end: f64, solver: &str, output: &str, divisions: &str, model: &str) -> String {
    format!(
        r#"[problem]
name = "flight"
dimension = 3
[time]
dt = 0.25
end = {end}
[solver]
{solver}
[output]
{output}
[mesh]
[[mesh.generate]]
kind = "box"
name = "bar"
min = [0.0, 0.0, 0.0]
max = [4.0, 1.0, 0.5]
divisions = {divisions}
element = "hex8"
[[body]]
name = "bar"
group = "bar"
material = {{ model = "{model}", young = 1000.0, poisson = 0.3, density = 1.0 }}
velocity = [1.0, 0.0, 0.5]
angular_velocity = [0.5, 1.0, 2.0]
"#
    )
}

/// The run of `full` into `dir/a`; the run of `short` (the same model to an
/// earlier end, with a checkpoint on the way) into `dir/b` continued by
/// `--restart` with `full`; both on 2 ranks. Panics (naming `what`) unless
/// every run exits 0.
pub fn full_and_restarted(dir: &Path, full: &str, short: &str, what: &str) -> (PathBuf, PathBuf) {
    let full = input(dir, "full.toml", full);
    let short = input(dir, "short.toml", short);
    let (a, b) = (dir.join("a"), dir.join("b"));
    let run = |input: &Path, flag: &str, out: &Path| {
        let o = mpirun(
            2,
            &[
                "run",
                input.to_str().unwrap(),
                flag,
                out.to_str().unwrap(),
                "-q",
            ],
        );
        assert!(
            o.status.success(),
            "{what}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    };
    run(&full, "--out", &a);
    run(&short, "--out", &b);
    run(&full, "--restart", &b);
    (a, b)
}

/// Asserts that each of `files` is the same, byte for byte, in `a` and `b`.
pub fn assert_same_files(a: &Path, b: &Path, files: &[&str]) {
    for f in files {
        assert_eq!(
            std::fs::read(a.join(f)).unwrap(),
            std::fs::read(b.join(f)).unwrap(),
            "{f} differs after the restart"
        );
    }
}
