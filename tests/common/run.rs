//! Running a model in a test: through the library (`run`, `try_run`, the
//! histories it writes) or through the binary (`emcontact`), each in its own
//! temporary folder.

use emcontact::driver::{self, RunError, RunOptions, RunSummary};
use emcontact::dynamics::{State, Stepper};
use emcontact::input;
use emcontact::model::Model;
use emcontact::output::{read_csv, CsvTable};
use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `text` parsed as `dir/model.toml`, its output in `dir/out`.
pub fn model(dir: &Path, text: &str) -> Model {
    let mut m = input::parse(&dir.join("model.toml"), text).expect("valid input");
    m.output.dir = dir.join("out");
    m
}

/// No VTK frames, no plots: the histories only.
pub fn quiet() -> RunOptions {
    RunOptions {
        vtk: false,
        plots: false,
        ..RunOptions::default()
    }
}

/// A completed run: its summary, `history.csv`, and the folder it wrote
/// (removed when the `Run` is dropped).
pub struct Run {
    pub summary: RunSummary,
    pub history: CsvTable,
    pub model: Model,
    pub dir: tempfile::TempDir,
}

impl Run {
    pub fn out(&self) -> &Path {
        &self.model.output.dir
    }

    /// Another CSV file of the run (`bodies.csv`, `contacts.csv`, …).
    pub fn csv(&self, name: &str) -> CsvTable {
        read_csv(&self.out().join(name)).unwrap()
    }

    /// A column of `history.csv`.
    pub fn col(&self, name: &str) -> Vec<f64> {
        self.history
            .column(name)
            .unwrap_or_else(|| panic!("no column {name} in history.csv"))
    }
}

/// Runs `text` to its end (no VTK, no plots); panics if the run fails.
pub fn run(text: &str) -> Run {
    run_with(text, &quiet())
}

pub fn run_with(text: &str, opts: &RunOptions) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), text);
    let summary = driver::run(&model, opts).expect("run completes");
    let history = read_csv(&model.output.dir.join("history.csv")).unwrap();
    Run {
        summary,
        history,
        model,
        dir,
    }
}

/// [`run`] on a 3-D `text`, keeping the stepper and the last state
/// (`driver::run_keeping`), so that a test can examine the contact set of
/// the run's last step (its points' tractions and slip rates) instead of
/// taking that step a second time through the library.
pub fn run_keeping_stepper(text: &str) -> (Run, Stepper<3>, State) {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), text);
    let (summary, stepper, state) =
        driver::run_keeping::<3>(&model, &quiet()).expect("run completes");
    let history = read_csv(&model.output.dir.join("history.csv")).unwrap();
    let r = Run {
        summary,
        history,
        model,
        dir,
    };
    (r, stepper, state)
}

/// Runs `text` and returns what the run returned, with the model and the
/// folder (whose `out` holds what the run wrote before it stopped).
pub fn try_run(text: &str) -> (Result<RunSummary, RunError>, Model, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let model = model(dir.path(), text);
    (driver::run(&model, &quiet()), model, dir)
}

/// The binary.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_emcontact"))
}

/// Runs the binary with `args` to its end.
pub fn emcontact<S: AsRef<OsStr>>(args: &[S]) -> Output {
    bin().args(args).output().expect("run emcontact")
}

/// What the binary printed, stdout then stderr.
pub fn printed(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Writes `text` to `dir/name` and returns the path.
pub fn write_input(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `emcontact check` on `text`: exit 2 with a message holding every one of
/// `names`; returns the message.
pub fn check_refuses(text: &str, names: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let p = write_input(dir.path(), "model.toml", text);
    let o = emcontact(&["check", p.to_str().unwrap()]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    for n in names {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
    err
}

/// How the binary ended: exit code and what it printed on stderr.
pub struct Outcome {
    pub code: Option<i32>,
    pub stderr: String,
}

/// Runs the binary with a 60 s guard (against hangs and runaway memory, not
/// a speed test): a run that goes on longer fails the test.
pub fn emcontact_guarded(args: &[&str]) -> Outcome {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child = bin()
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("{args:?} ran past 60 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    Outcome {
        code: o.status.code(),
        stderr: String::from_utf8_lossy(&o.stderr).into_owned(),
    }
}

/// Exit 2 with one error message naming `file` and each of `names`; no panic.
pub fn assert_refused(o: &Outcome, file: &str, names: &[&str]) {
    assert_eq!(o.code, Some(2), "exit code 2: {}", o.stderr);
    assert!(o.stderr.contains(file), "names {file}: {}", o.stderr);
    for n in names {
        assert!(o.stderr.contains(n), "names {n:?}: {}", o.stderr);
    }
    assert!(!o.stderr.contains("panicked"), "{}", o.stderr);
    assert_eq!(
        o.stderr.lines().filter(|l| l.starts_with("error")).count(),
        1,
        "one error: {}",
        o.stderr
    );
}

/// `emcontact check` on `base` with its first `from` replaced by `to`, as
/// `case.toml`: refused, naming the file and each of `names`. Returns the
/// message.
pub fn check_edit(base: &str, from: &str, to: &str, names: &[&str]) -> String {
    assert!(base.contains(from), "test bug: {from:?} not in the input");
    let dir = tempfile::tempdir().unwrap();
    let p = write_input(dir.path(), "case.toml", &base.replacen(from, to, 1));
    let o = emcontact_guarded(&["check", p.to_str().unwrap()]);
    assert_refused(&o, "case.toml", names);
    o.stderr
}

/// `emcontact run INPUT --out OUT EXTRA…` to its end.
pub fn run_bin(input: &Path, out: &Path, extra: &[&str]) -> Output {
    bin()
        .arg("run")
        .arg(input)
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .expect("run emcontact")
}

/// `emcontact run INPUT --restart OUT EXTRA…` to its end.
pub fn restart_bin(input: &Path, out: &Path, extra: &[&str]) -> Output {
    bin()
        .arg("run")
        .arg(input)
        .arg("--restart")
        .arg(out)
        .args(extra)
        .output()
        .expect("run emcontact")
}

/// A run of the binary on a text written as `input.toml` in its own
/// temporary folder, its output in `out` there (removed when dropped).
pub struct BinRun {
    pub output: Output,
    pub dir: tempfile::TempDir,
}

impl BinRun {
    pub fn input(&self) -> PathBuf {
        self.dir.path().join("input.toml")
    }

    pub fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    pub fn code(&self) -> Option<i32> {
        self.output.status.code()
    }

    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.output.stdout).into_owned()
    }

    pub fn stderr(&self) -> String {
        stderr(&self.output)
    }

    /// Exit 0, or the test fails showing `label` and what the run printed on
    /// stderr.
    pub fn assert_ok(&self, label: &str) -> &Self {
        assert_eq!(self.code(), Some(0), "{label}: {}", self.stderr());
        self
    }

    /// The run's `history.csv`.
    pub fn history(&self) -> CsvTable {
        read_csv(&self.out().join("history.csv")).unwrap()
    }
}

/// `emcontact run input.toml --out out EXTRA…` on `text`, to its end.
pub fn run_text(text: &str, extra: &[&str]) -> BinRun {
    let dir = tempfile::tempdir().unwrap();
    let input = write_input(dir.path(), "input.toml", text);
    let output = run_bin(&input, &dir.path().join("out"), extra);
    BinRun { output, dir }
}
