//! Line plots with `plotters` (no system fonts: DejaVu Sans is bundled).
use super::OutputError;
use std::path::Path;

/// One curve.
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// Plots the series to `path` (PNG or SVG by extension), written atomically.
/// `log_y` plots |y| on a log axis (for drifts spanning many decades).
pub fn plot_lines(
    path: &Path,
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
    log_y: bool,
) -> Result<(), OutputError> {
    let _ = (path, title, xlabel, ylabel, series, log_y);
    todo!("output: plot")
}

/// Energy and momentum plots from a history CSV (filled in by the output owner).
pub fn plot_history(history_csv: &Path, out_dir: &Path) -> Result<(), OutputError> {
    let _ = (history_csv, out_dir);
    todo!("output: plot history")
}
