//! Plots of a run's `history.csv`: energies and the drift of the momenta.
use super::{format_error, io_error, plot_lines, read_csv, CsvTable, OutputError, Series};
use std::path::Path;

/// Reads a run's history CSV (columns `t,dt,kinetic,strain,gravity,total,
/// external_work,lx,ly,lz,jx,jy,jz,newton_iterations,residual`, possibly more)
/// and writes into `out_dir` (created if missing):
///
/// * `energy.png`: kinetic and strain energy, the gravity potential relative
///   to its value at the first row (so that its arbitrary zero does not
///   flatten the other curves), the cumulative frictional work
///   `dissipation`, and the balance `kinetic + strain + (gravity − gravity₀)
///   + dissipation − external_work`, which the method keeps constant;
/// * `momentum.png`: the momentum ledgers, `L_i − L_i(t₀) − I_i` and the
///   same for `J` (`I` the external impulse columns), over the run's
///   momentum scale (the largest of |L|, `linear_scale` and
///   `impulse_size`); for a history without impulse columns, each
///   momentum component's change from the first row relative to the first
///   row's norm of the same vector,
///   `|L_i(t) − L_i(t_0)| / ‖L(t_0)‖` and `|J_i(t) − J_i(t_0)| / ‖J(t_0)‖`,
///   on a log axis so round-off-level drift (1e-16…1e-10) is visible. Where the
///   initial norm is zero the absolute change is drawn and the legend says so.
///   Exactly zero changes have no place on a log axis and are left out.
///
/// Absent columns are skipped (and count as 0 in the balance); a missing `t`
/// column, or a file without rows, is an `OutputError::Format` naming the CSV.
pub fn plot_history(history_csv: &Path, out_dir: &Path) -> Result<(), OutputError> {
    let table = read_csv(history_csv)?;
    let t = table
        .column("t")
        .ok_or_else(|| format_error(history_csv, "no column 't'"))?;
    if t.is_empty() {
        return Err(format_error(history_csv, "no rows to plot"));
    }
    std::fs::create_dir_all(out_dir).map_err(|e| io_error(out_dir, e))?;
    plot_lines(
        &out_dir.join("energy.png"),
        "Energy",
        "t",
        "energy",
        &energy_series(&table, &t),
        false,
    )?;

    if table.column("impulse_x").is_some() {
        let mut ledgers = ledger_series(&table, &t, "L", ["lx", "ly", "lz"], LINEAR);
        ledgers.extend(ledger_series(&table, &t, "J", ["jx", "jy", "jz"], ANGULAR));
        return plot_lines(
            &out_dir.join("momentum.png"),
            "Momentum ledger: change minus external impulse",
            "t",
            "|L − L₀ − I| / momentum scale",
            &ledgers,
            true,
        );
    }
    let mut drifts = drift_series(&table, &t, "L", ["lx", "ly", "lz"]);
    drifts.extend(drift_series(&table, &t, "J", ["jx", "jy", "jz"]));
    plot_lines(
        &out_dir.join("momentum.png"),
        "Momentum drift from the initial value",
        "t",
        "|change| / initial norm",
        &drifts,
        true,
    )
}

/// The impulse columns and the scale columns of the linear and angular
/// momentum ledgers.
const LINEAR: ([&str; 3], [&str; 2]) = (
    ["impulse_x", "impulse_y", "impulse_z"],
    ["linear_scale", "impulse_size"],
);
const ANGULAR: ([&str; 3], [&str; 2]) = (
    [
        "angular_impulse_x",
        "angular_impulse_y",
        "angular_impulse_z",
    ],
    ["angular_scale", "angular_impulse_size"],
);

/// The ledger `L_i − L_i(t₀) − I_i` of each present component over the
/// run's momentum scale `max_n max(|L_n|, Σ|Mv|_n, impulse size_n)`.
fn ledger_series(
    table: &CsvTable,
    t: &[f64],
    name: &str,
    cols: [&str; 3],
    (impulse, scales): ([&str; 3], [&str; 2]),
) -> Vec<Series> {
    let present: Vec<(&str, Vec<f64>, Vec<f64>)> = cols
        .iter()
        .zip(impulse)
        .filter_map(|(c, i)| Some((*c, table.column(c)?, table.column(i)?)))
        .collect();
    let mut scale = 0.0f64;
    for r in 0..t.len() {
        let norm = present
            .iter()
            .map(|(_, v, _)| v[r] * v[r])
            .sum::<f64>()
            .sqrt();
        scale = scale.max(norm);
    }
    for c in scales {
        if let Some(v) = table.column(c) {
            scale = v
                .iter()
                .filter(|x| x.is_finite())
                .fold(scale, |m, &x| m.max(x.abs()));
        }
    }
    let scale = if scale > 0.0 { scale } else { 1.0 };
    present
        .into_iter()
        .map(|(c, v, imp)| {
            let (v0, i0) = (v[0], imp[0]);
            Series {
                label: format!("{name}{} − {name}{}₀ − impulse", &c[1..], &c[1..]),
                x: t.to_vec(),
                y: v.iter()
                    .zip(&imp)
                    .map(|(&x, &i)| (x - v0 - (i - i0)) / scale)
                    .collect(),
            }
        })
        .collect()
}

/// The curves of `energy.png` (see [`plot_history`]).
fn energy_series(table: &CsvTable, t: &[f64]) -> Vec<Series> {
    let zeros = vec![0.0; t.len()];
    let col = |c: &str| table.column(c);
    let mut out = Vec::new();
    let mut add = |label: &str, y: Vec<f64>| {
        out.push(Series {
            label: label.to_string(),
            x: t.to_vec(),
            y,
        })
    };
    let kinetic = col("kinetic");
    let strain = col("strain");
    let gravity = col("gravity").map(|g| {
        let g0 = g[0];
        g.iter().map(|v| v - g0).collect::<Vec<f64>>()
    });
    let dissipation = col("dissipation");
    let work = col("external_work");
    if let Some(k) = &kinetic {
        add("kinetic", k.clone());
    }
    if let Some(s) = &strain {
        add("strain", s.clone());
    }
    if let Some(g) = gravity.as_ref().filter(|g| g.iter().any(|&v| v != 0.0)) {
        add("gravity − gravity(0)", g.clone());
    }
    if let Some(d) = dissipation.as_ref().filter(|d| d.iter().any(|&v| v != 0.0)) {
        add("dissipation", d.clone());
    }
    if let Some(w) = work.as_ref().filter(|w| w.iter().any(|&v| v != 0.0)) {
        add("external work", w.clone());
    }
    if kinetic.is_some() || strain.is_some() {
        let get = |v: &Option<Vec<f64>>, i: usize| v.as_ref().unwrap_or(&zeros)[i];
        let balance = (0..t.len())
            .map(|i| {
                get(&kinetic, i) + get(&strain, i) + get(&gravity, i) + get(&dissipation, i)
                    - get(&work, i)
            })
            .collect();
        add(
            "balance: kinetic + strain + gravity + dissipation − work",
            balance,
        );
    }
    out
}

/// Relative change of each present component of the vector `name` (columns
/// `cols`) from its first value, over the first row's norm of the vector.
fn drift_series(table: &CsvTable, t: &[f64], name: &str, cols: [&str; 3]) -> Vec<Series> {
    let present: Vec<(&str, Vec<f64>)> = cols
        .iter()
        .filter_map(|c| Some((*c, table.column(c)?)))
        .collect();
    let norm0 = present.iter().map(|(_, v)| v[0] * v[0]).sum::<f64>().sqrt();
    let (scale, note) = if norm0 > 0.0 && norm0.is_finite() {
        (1.0 / norm0, "")
    } else {
        (1.0, " (absolute)")
    };
    present
        .into_iter()
        .map(|(c, v)| {
            let v0 = v[0];
            // A component that never changes has no point on the log axis: say so.
            let constant = if v.iter().all(|&x| x == v0) {
                " = 0"
            } else {
                ""
            };
            Series {
                label: format!("Δ{name}{}{constant}{note}", &c[1..]),
                x: t.to_vec(),
                y: v.iter().map(|&x| (x - v0) * scale).collect(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drift_is_relative_to_the_initial_norm() {
        let table = CsvTable {
            header: ["t", "lx", "ly", "jz"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows: vec![
                vec![0.0, 3.0, 4.0, 0.0],
                vec![1.0, 3.0 + 5e-10, 4.0 - 1e-9, 2.0],
            ],
        };
        let t = table.column("t").unwrap();
        let l = drift_series(&table, &t, "L", ["lx", "ly", "lz"]);
        assert_eq!(l.len(), 2, "lz is absent and skipped");
        assert_eq!((l[0].label.as_str(), l[1].label.as_str()), ("ΔLx", "ΔLy"));
        assert_eq!(l[0].y[0], 0.0);
        // |L0| = 5: (5e-10 / 5, −1e-9 / 5) up to the round-off of the subtraction.
        assert!((l[0].y[1] - 1e-10).abs() < 1e-15, "{}", l[0].y[1]);
        assert!((l[1].y[1] + 2e-10).abs() < 1e-15, "{}", l[1].y[1]);
        // J starts at zero: absolute change, labelled as such.
        let j = drift_series(&table, &t, "J", ["jx", "jy", "jz"]);
        assert_eq!(j.len(), 1);
        assert_eq!(j[0].label, "ΔJz (absolute)");
        assert_eq!(j[0].y, vec![0.0, 2.0]);
    }
}
