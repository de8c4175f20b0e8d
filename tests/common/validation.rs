//! The validation cases' reference figures (`validation/<case>/reference.toml`,
//! `[[figure]]` tables of `name`, `value`, `tolerance`), checked in the suite
//! on the cases cheap enough to run here, with the figures computed as
//! `validation/history.py` computes them for `validation/run_all.sh`.

use crate::common::fixture::Fixture;
use crate::common::python::{python, repo};
use crate::common::run::{run, Run};
use emcontact::output::CsvTable;

/// A run of the case's input `validation/<case>/<name>.toml` as it stands;
/// its verdict must pass, as `validation/run_all.sh` asserts it (no node
/// through a surface, the ledgers the method promises closed).
pub fn run_case(case: &str, name: &str) -> Run {
    let r = run(&Fixture::file(&format!("validation/{case}/{name}.toml")).text());
    let b = &r.summary.balance;
    assert!(!b.failed(), "{case}/{name}: {}", b.report().join("\n"));
    r
}

fn col(t: &CsvTable, name: &str) -> Vec<f64> {
    t.column(name).unwrap_or_else(|| panic!("no column {name}"))
}

/// The figures every energy-consistent run states (history.py's `ledger`):
/// balances, penetration relative to the face size, update defect.
pub fn ledger(name: &str, r: &Run) -> Vec<(String, f64)> {
    let h = &r.history;
    let zero = vec![0.0; h.rows.len()];
    let d = h.column("dissipation").unwrap_or(zero.clone());
    let e: Vec<f64> = col(h, "total").iter().zip(&d).map(|(e, d)| e + d).collect();
    let e0 = e[0].abs();
    let run_balance = e.iter().map(|x| (x - e[0]).abs()).fold(0.0, f64::max) / e0;
    let step_balance = e
        .windows(2)
        .map(|w| (w[1] - w[0]).abs())
        .fold(0.0, f64::max)
        / e0;
    let depth = h
        .column("max_penetration_h")
        .map_or(0.0, |p| p.into_iter().fold(0.0, f64::max));
    let defect = h
        .column("update_defect")
        .map_or(0.0, |u| u.last().unwrap().abs() / col(h, "total")[0].abs());
    vec![
        (format!("{name}: max |E + D - E0| / E0"), run_balance),
        (format!("{name}: max per-step |dE + dD| / E0"), step_balance),
        (format!("{name}: max penetration / h"), depth),
        (format!("{name}: |update defect| / E0"), defect),
    ]
}

/// Linear and angular momentum drift as the code measures them (history.py's
/// `momenta`).
pub fn momenta(name: &str, r: &Run) -> Vec<(String, f64)> {
    let h = &r.history;
    let drift = |m: &str, scale: &str| {
        let v: Vec<[f64; 3]> = (0..h.rows.len())
            .map(|i| [0, 1, 2].map(|k| col(h, &format!("{m}{}", ["x", "y", "z"][k]))[i]))
            .collect();
        let norm = |a: [f64; 3]| (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt();
        let s = norm(v[0]).max(h.column(scale).map_or(0.0, |c| c[0]));
        let d = v
            .iter()
            .map(|x| norm([x[0] - v[0][0], x[1] - v[0][1], x[2] - v[0][2]]))
            .fold(0.0, f64::max);
        if s > 0.0 {
            d / s
        } else {
            d
        }
    };
    vec![
        (
            format!("{name}: linear momentum drift"),
            drift("l", "linear_scale"),
        ),
        (
            format!("{name}: angular momentum drift"),
            drift("j", "angular_scale"),
        ),
    ]
}

/// `D / K0`, the tumbling onset (first step end with |wx| of `body` ≥ 0.5,
/// 9.9 for never) and the peak |wx| (history.py's `dissipated`, `onset`,
/// `peak`).
pub fn friction(name: &str, r: &Run, body_index: usize, bodies: usize) -> Vec<(String, f64)> {
    let h = &r.history;
    let b = r.csv("bodies.csv");
    let (t, wx) = (col(&b, "t"), col(&b, "wx"));
    let rows: Vec<usize> = (body_index..t.len()).step_by(bodies).collect();
    let onset = rows
        .iter()
        .find(|&&i| wx[i].abs() >= 0.5)
        .map_or(9.9, |&i| t[i]);
    let peak = rows.iter().map(|&i| wx[i].abs()).fold(0.0, f64::max);
    vec![
        (
            format!("{name}: D / K0"),
            col(h, "dissipation").last().unwrap() / col(h, "kinetic")[0],
        ),
        (
            format!("{name}: tumbling onset t (|wx| of the cube >= 0.5)"),
            onset,
        ),
        (format!("{name}: peak |wx| of the cube"), peak),
    ]
}

/// Checks `measured` against the case's reference figures of the same name;
/// every measured figure must have one. Returns how many were checked.
pub fn check(case: &str, measured: &[(String, f64)]) -> usize {
    let reference = Fixture::file(&format!("validation/{case}/reference.toml"));
    let figures = reference
        .get("figure")
        .as_array()
        .expect("[[figure]] tables");
    let mut off = Vec::new();
    for (name, got) in measured {
        let f = figures
            .iter()
            .find(|f| f["name"].as_str() == Some(name))
            .unwrap_or_else(|| panic!("{case}: no reference figure {name:?}"));
        let value = f["value"]
            .as_float()
            .or(f["value"].as_integer().map(|v| v as f64))
            .unwrap();
        let tol = f["tolerance"]
            .as_float()
            .or(f["tolerance"].as_integer().map(|v| v as f64))
            .unwrap();
        let ok = (got - value).abs() <= tol;
        println!(
            "{} {case}: {name} = {got:.6e} (reference {value:e} ± {tol:e})",
            if ok { "ok " } else { "OFF" }
        );
        if !ok {
            off.push(name.clone());
        }
    }
    assert!(
        off.is_empty(),
        "{case}: figures off their reference: {off:?}"
    );
    measured.len()
}

/// The input that `validation/contact_scaling/make.py ARGS` writes (the
/// contact-scaling family: `N L` and its options).
pub fn contact_scaling(args: &[&str]) -> String {
    let made = python(&["argparse"])
        .arg(repo("validation/contact_scaling/make.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "make.py {}: {}",
        args.join(" "),
        String::from_utf8_lossy(&made.stderr)
    );
    String::from_utf8(made.stdout).unwrap()
}

/// The scaling family's first-contact model on the saddle-point path: an
/// `n × n` slave face, four layers, landing from a gap of 0.03 under
/// gravity in one step of 0.05 (`make.py n 4 --gap 0.03 --gravity 10
/// --end 0.05 --system saddle`), with `extra` options (e.g. `--vel`).
pub fn first_contact(n: usize, extra: &[&str]) -> String {
    first_contact_of(n, 4, extra)
}

/// [`first_contact`] with `layers` element layers in each body.
pub fn first_contact_of(n: usize, layers: usize, extra: &[&str]) -> String {
    let (n, layers) = (n.to_string(), layers.to_string());
    let mut args = vec![
        n.as_str(),
        layers.as_str(),
        "--gap",
        "0.03",
        "--gravity",
        "10",
        "--end",
        "0.05",
        "--system",
        "saddle",
    ];
    args.extend_from_slice(extra);
    contact_scaling(&args)
}

/// The one-step first contact `text` lands without a cut-back, with exact
/// energy and momentum ledgers, no penetration or intrusion beyond the
/// run's bounds, and the Coulomb law at every point of the run's step
/// (its contact set kept, `run::run_keeping_stepper`).
pub fn assert_first_contact_holds(label: &str, text: &str) {
    use crate::common::coulomb::assert_coulomb;
    use crate::common::history::{assert_exact_energy, assert_exact_penetration, assert_momenta};
    let (r, stepper, s1) = crate::common::run::run_keeping_stepper(text);
    let s = &r.summary;
    assert_eq!(s.cutbacks, 0, "{label}: the first contact was cut back");
    assert_eq!(s.steps, 1);
    assert!(
        r.col("active")[1] > 0.0,
        "{label}: the cube lands in the step"
    );
    assert_exact_energy(&r.history);
    assert_momenta(label, s);
    assert_exact_penetration(&r.history);
    assert!(
        s.balance.intrusions.is_empty(),
        "{:?}",
        s.balance.intrusions
    );
    assert_coulomb(&stepper.contacts, s1.t);
}
