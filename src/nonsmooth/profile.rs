//! Dolan–Moré performance profiles (Dolan & Moré 2002; Acary, Brémond & Dubois 2017,
//! eqs. 16–17): for problems `p` and solvers `s` with cost `t_ps` (time; failures
//! count as `+∞`), the ratio `τ_ps = t_ps / min_s t_ps` and the profile
//! `ρ_s(τ) = |{p : τ_ps ≤ τ}| / |P|`. `ρ_s(1)` is the fraction of problems on which
//! `s` is the fastest.

use std::path::Path;

use plotters::prelude::*;

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

static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

fn register_font() -> Result<(), String> {
    plotters::style::register_font("sans-serif", FontStyle::Normal, FONT)
        .map_err(|_| "invalid bundled font".to_string())
}

/// Writes the profile as a PNG (log₂ τ on the x axis, ρ_s(τ) on the y axis).
pub fn plot_png(
    path: &Path,
    runs: &[Run],
    problems: &[String],
    solvers: &[String],
) -> Result<(), String> {
    register_font()?;
    let rs = ratios(runs, problems, solvers);
    let finite_max = rs
        .iter()
        .flatten()
        .filter(|r| r.is_finite())
        .fold(1.0f64, |m, &r| m.max(r));
    let x_max = finite_max.log2().max(1.0) * 1.05;
    let root = BitMapBackend::new(path, (900, 600)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut chart = ChartBuilder::on(&root)
        .caption("Performance profile (time)", ("sans-serif", 24))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(0.0..x_max, 0.0..1.05)
        .map_err(|e| e.to_string())?;
    chart
        .configure_mesh()
        .x_desc("log2(tau)")
        .y_desc("rho_s(tau)")
        .label_style(("sans-serif", 16))
        .draw()
        .map_err(|e| e.to_string())?;
    for (k, (s, r)) in solvers.iter().zip(&rs).enumerate() {
        let color = Palette99::pick(k).to_rgba();
        let mut xs: Vec<f64> = r
            .iter()
            .filter(|x| x.is_finite())
            .map(|x| x.log2())
            .collect();
        xs.sort_by(|a, b| a.total_cmp(b));
        // Step function: value ρ just after each breakpoint.
        let mut pts = vec![(0.0, profile_at(r, 1.0))];
        for &x in &xs {
            pts.push((x, pts.last().map_or(0.0, |p| p.1)));
            pts.push((x, profile_at(r, x.exp2() * (1.0 + 1e-12))));
        }
        pts.push((x_max, pts.last().map_or(0.0, |p| p.1)));
        chart
            .draw_series(LineSeries::new(pts, color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
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
