//! Dolan–Moré performance profiles (Dolan & Moré 2002; Acary, Brémond & Dubois 2017,
//! eqs. 16–17): for problems `p` and solvers `s` with cost `t_ps` (time; failures
//! count as `+∞`), the ratio `τ_ps = t_ps / min_s t_ps` and the profile
//! `ρ_s(τ) = |{p : τ_ps ≤ τ}| / |P|`. `ρ_s(1)` is the fraction of problems on which
//! `s` is the fastest.

use std::path::Path;

use crate::output::{plot_lines, Series};

/// One run of a benchmark: problem, solver and its cost (`None` when it failed).
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub problem: String,
    pub solver: String,
    pub cost: Option<f64>,
}

/// Performance ratios `τ_ps` per solver (in the order of `solvers`), one entry per
/// problem (in the order of `problems`); `f64::INFINITY` for failures and for
/// problems no solver solved.
pub fn ratios(runs: &[Run], problems: &[String], solvers: &[String]) -> Vec<Vec<f64>> {
    let cost = |p: &str, s: &str| {
        runs.iter()
            .find(|r| r.problem == p && r.solver == s)
            .and_then(|r| r.cost)
            .filter(|c| c.is_finite())
    };
    let best: Vec<Option<f64>> = problems
        .iter()
        .map(|p| {
            solvers
                .iter()
                .filter_map(|s| cost(p, s))
                .fold(None, |m: Option<f64>, c| Some(m.map_or(c, |m| m.min(c))))
        })
        .collect();
    solvers
        .iter()
        .map(|s| {
            problems
                .iter()
                .zip(&best)
                .map(|(p, b)| match (cost(p, s), b) {
                    // Guard zero times (below timer resolution).
                    (Some(c), Some(b)) => c.max(1e-12) / b.max(1e-12),
                    _ => f64::INFINITY,
                })
                .collect()
        })
        .collect()
}

/// `ρ_s(τ)` for one solver's ratios.
pub fn profile_at(ratios: &[f64], tau: f64) -> f64 {
    if ratios.is_empty() {
        return 0.0;
    }
    ratios.iter().filter(|&&r| r <= tau).count() as f64 / ratios.len() as f64
}

/// Writes the profile (PNG or SVG by extension) with the FE outputs' plotting module
/// ([`crate::output::plot_lines`]): `log₂ τ` on the x axis, `ρ_s(τ)` on the y axis, one
/// step curve per solver.
pub fn plot(
    path: &Path,
    runs: &[Run],
    problems: &[String],
    solvers: &[String],
) -> Result<(), String> {
    let rs = ratios(runs, problems, solvers);
    let finite_max = rs
        .iter()
        .flatten()
        .filter(|r| r.is_finite())
        .fold(1.0f64, |m, &r| m.max(r));
    let x_max = finite_max.log2().max(1.0) * 1.05;
    let series: Vec<Series> = solvers
        .iter()
        .zip(&rs)
        .map(|(s, r)| {
            let mut xs: Vec<f64> = r
                .iter()
                .filter(|x| x.is_finite())
                .map(|x| x.log2())
                .collect();
            xs.sort_by(|a, b| a.total_cmp(b));
            // Step function: the value just after each breakpoint.
            let mut pts = vec![(0.0, profile_at(r, 1.0))];
            for &x in &xs {
                pts.push((x, pts.last().map_or(0.0, |p| p.1)));
                pts.push((x, profile_at(r, x.exp2() * (1.0 + 1e-12))));
            }
            pts.push((x_max, pts.last().map_or(0.0, |p| p.1)));
            Series {
                label: s.clone(),
                x: pts.iter().map(|p| p.0).collect(),
                y: pts.iter().map(|p| p.1).collect(),
            }
        })
        .collect();
    plot_lines(
        path,
        "Performance profile (time)",
        "log2(tau)",
        "rho_s(tau)",
        &series,
        false,
    )
    .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_and_profile_follow_dolan_more() {
        let p = vec!["a".to_string(), "b".to_string()];
        let s = vec!["x".to_string(), "y".to_string()];
        let runs = vec![
            Run {
                problem: "a".into(),
                solver: "x".into(),
                cost: Some(1.0),
            },
            Run {
                problem: "a".into(),
                solver: "y".into(),
                cost: Some(4.0),
            },
            Run {
                problem: "b".into(),
                solver: "x".into(),
                cost: None,
            },
            Run {
                problem: "b".into(),
                solver: "y".into(),
                cost: Some(2.0),
            },
        ];
        let r = ratios(&runs, &p, &s);
        assert_eq!(r[0], vec![1.0, f64::INFINITY]);
        assert_eq!(r[1], vec![4.0, 1.0]);
        assert_eq!(profile_at(&r[0], 1.0), 0.5);
        assert_eq!(profile_at(&r[0], 1e9), 0.5);
        assert_eq!(profile_at(&r[1], 1.0), 0.5);
        assert_eq!(profile_at(&r[1], 4.0), 1.0);
    }
}
