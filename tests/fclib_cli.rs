//! The `fc` subcommands through `cli::run`: exit codes, files written (read back and,
//! when /work/shared/tools/fc_check.py exists, checked independently).

#[path = "nonsmooth_global_common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::data;
use emcontact::nonsmooth::cli::{run, FcCommand};
use emcontact::nonsmooth::error::fclib_error;
use emcontact::nonsmooth::fclib::{read_problem, read_solution, FclibProblem};
use emcontact::nonsmooth::problem::csc_mul_add;

fn solve(
    problem: PathBuf,
    solver: Option<&str>,
    max_iter: Option<usize>,
    output: Option<&Path>,
) -> i32 {
    run(FcCommand::Solve {
        problem,
        solver: solver.map(String::from),
        tol: 1e-8,
        max_iter,
        output: output.map(Path::to_path_buf),
    })
}

/// Independent checker (optional: CI may lack /work/shared). `None` when unavailable.
fn fc_check(problem: &Path, solution: &Path) -> Option<bool> {
    let script = Path::new("/work/shared/tools/fc_check.py");
    if !script.exists() {
        eprintln!(
            "note: {} not found; independent check skipped",
            script.display()
        );
        return None;
    }
    let o = Command::new("python3")
        .arg(script)
        .arg(problem)
        .arg(solution)
        .arg("1e-8")
        .output()
        .ok()?;
    eprintln!("fc_check: {}", String::from_utf8_lossy(&o.stdout).trim());
    Some(o.status.success())
}

/// Error of the written `/solution/r`, recomputed from the written problem copy.
fn written_error(out: &Path) -> f64 {
    let (p, _) = read_problem(out).unwrap();
    let sol = read_solution(out).unwrap().expect("/solution written");
    let r = sol.r.unwrap();
    let lp = match p {
        FclibProblem::Local(l) => l,
        FclibProblem::Global(g) => {
            assert_eq!(
                sol.v.as_ref().map(Vec::len),
                Some(g.n_dofs()),
                "/solution/v for global problems"
            );
            g.condense().unwrap().reduced
        }
    };
    let mut u = lp.q.clone();
    csc_mul_add(&lp.w, &r, &mut u);
    assert_eq!(sol.u.unwrap().len(), u.len());
    fclib_error(&lp, &r, &u)
}

#[test]
fn solvers_lists_every_registered_name() {
    assert_eq!(run(FcCommand::Solvers), 0);
}

/// Default solver on a local file and NSN-AC-LS on the global file: exit 0, complete
/// FCLIB output whose solution meets the tolerance.
#[test]
fn solve_writes_a_checkable_solution() {
    let dir = tempfile::tempdir().unwrap();
    for (f, solver) in [
        ("Capsules-i125-1213.hdf5", None),
        ("Box_Stacks-i0122-82-5.hdf5", Some("nsn-ac-ls")),
    ] {
        let out = dir.path().join(format!("sol-{f}"));
        assert_eq!(solve(data(f), solver, None, Some(&out)), 0, "{f}");
        let e = written_error(&out);
        assert!(e <= 1e-8, "{f}: written solution has error {e:e}");
        if let Some(ok) = fc_check(&data(f), &out) {
            assert!(ok, "{f}: fc_check.py rejects the solution");
        }
        // The output is a complete FCLIB file (problem included).
        assert!(
            fc_check(&out, &out).unwrap_or(true),
            "{f}: output not self-contained"
        );
    }
}

/// Not reaching the tolerance: exit 1, last iterate still written.
#[test]
fn no_convergence_exits_1_and_writes_the_last_iterate() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("last.hdf5");
    assert_eq!(
        solve(
            data("Capsules-i125-1213.hdf5"),
            Some("nsgs-pg"),
            Some(2),
            Some(&out)
        ),
        1
    );
    let e = written_error(&out);
    assert!(e > 1e-8 && e.is_finite(), "{e:e}");
    if let Some(ok) = fc_check(&data("Capsules-i125-1213.hdf5"), &out) {
        assert!(!ok, "fc_check.py must reject a 2-sweep iterate");
    }
}

/// Bad input: exit 2.
#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(solve(dir.path().join("missing.hdf5"), None, None, None), 2);
    assert_eq!(
        solve(
            data("Capsules-i125-1213.hdf5"),
            Some("no-such-solver"),
            None,
            None
        ),
        2
    );
    let text = dir.path().join("not-fclib.hdf5");
    std::fs::write(&text, b"plain text").unwrap();
    assert_eq!(solve(text, None, None, None), 2);
    let other = dir.path().join("other.hdf5");
    hdf5::File::create(&other)
        .unwrap()
        .create_group("x")
        .unwrap();
    assert_eq!(solve(other.clone(), None, None, None), 2);
    // A global-only solver on a local problem is bad input too.
    assert_eq!(
        solve(
            data("Capsules-i125-1213.hdf5"),
            Some("global-nsn-ac"),
            None,
            None
        ),
        2
    );
    let bench = |files: Vec<PathBuf>, solvers: &[&str]| {
        run(FcCommand::Bench {
            files,
            solvers: solvers.iter().map(|s| s.to_string()).collect(),
            tol: 1e-8,
            timeout: 5.0,
            output: dir.path().join("b"),
        })
    };
    assert_eq!(
        bench(vec![data("Capsules-i125-1213.hdf5")], &["nsn-ac", "bogus"]),
        2
    );
    assert_eq!(bench(vec![other], &["nsn-ac"]), 2);
}

/// `bench` writes one CSV row per (problem, solver) and a PNG performance profile.
#[test]
fn bench_writes_csv_and_profile() {
    let dir = tempfile::tempdir().unwrap();
    let files = vec![
        data("Box_Stacks-i0122-82-5.hdf5"),
        data("Capsules-i125-1213.hdf5"),
    ];
    let code = run(FcCommand::Bench {
        files,
        solvers: vec![
            "nsn-ac-ls".into(),
            "nsn-nm-ls".into(),
            "global-nsn-ac".into(),
        ],
        tol: 1e-8,
        timeout: 5.0,
        output: dir.path().to_path_buf(),
    });
    assert_eq!(code, 0);
    let csv = std::fs::read_to_string(dir.path().join("bench.csv")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "problem,solver,converged,error,iterations,seconds"
    );
    assert_eq!(lines.len(), 1 + 2 * 3);
    for l in &lines[1..] {
        let cols: Vec<&str> = l.split(',').collect();
        assert_eq!(cols.len(), 6, "{l}");
        let converged: bool = cols[2].parse().unwrap();
        let err: f64 = cols[3].parse().unwrap();
        let secs: f64 = cols[5].parse().unwrap();
        assert!(secs >= 0.0 && secs < 10.0, "{l}");
        if converged {
            assert!(err <= 1e-8, "{l}");
        }
    }
    // Measured: both line-search Newtons solve Box_Stacks; global Newton too.
    assert!(csv.contains("Box_Stacks-i0122-82-5.hdf5,nsn-ac-ls,true"));
    assert!(csv.contains("Box_Stacks-i0122-82-5.hdf5,global-nsn-ac,true"));
    assert!(csv.contains("Capsules-i125-1213.hdf5,global-nsn-ac,false"));
    let png = std::fs::read(dir.path().join("profile.png")).unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
    assert!(png.len() > 5000);
}
