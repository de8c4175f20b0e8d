//! Line plots with `plotters` (no system fonts: DejaVu Sans is bundled).
//!
//! The font is registered with plotters' `ab_glyph` text renderer as
//! `"sans-serif"` (the family plotters uses by default) on the first plot.
//! SVG is rendered into a string and written atomically; PNG is rendered into
//! plotters' RGB bitmap and encoded by plotters' own PNG encoder straight into
//! a temporary sibling file, which is then renamed over the target (so PNGs
//! are atomic too, and no extra image crate is needed).
use super::{atomic, format_error, write_atomic, OutputError};
use plotters::coord::ranged1d::{AsRangedCoord, ValueFormatter};
use plotters::coord::Shift;
use plotters::prelude::*;
use std::path::Path;
use std::sync::OnceLock;

/// One curve.
#[derive(Debug, Clone)]
pub struct Series {
    pub label: String,
    pub x: Vec<f64>,
    pub y: Vec<f64>,
}

/// Picture size in pixels (SVG user units).
const SIZE: (u32, u32) = (1024, 640);

/// DejaVu Sans (Bitstream Vera licence), bundled so plots need no system font.
static FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");

/// Registers the bundled font once per process; the error (a corrupt font)
/// is reported on every plot.
fn ensure_font() -> Result<(), String> {
    static REGISTERED: OnceLock<Result<(), String>> = OnceLock::new();
    REGISTERED
        .get_or_init(|| {
            plotters::style::register_font("sans-serif", FontStyle::Normal, FONT).map_err(|_| {
                "the bundled font DejaVuSans.ttf is not a valid TrueType font".to_string()
            })
        })
        .clone()
}

/// Line colours, in series order (repeating).
const COLOURS: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(23, 190, 207),
];

/// Plots the series to `path` (PNG or SVG by extension), written atomically.
/// `log_y` plots |y| on a log axis (for drifts spanning many decades).
///
/// Points with a non-finite coordinate are skipped, and with `log_y` also
/// points with `y == 0` (they have no place on a log axis). A series whose
/// `x` and `y` differ in length is an `OutputError::Format` naming the file
/// and the series. An empty plot (no drawable point) is still drawn, with unit
/// axes. The legend lists the series with a non-empty label.
pub fn plot_lines(
    path: &Path,
    title: &str,
    xlabel: &str,
    ylabel: &str,
    series: &[Series],
    log_y: bool,
) -> Result<(), OutputError> {
    for s in series {
        if s.x.len() != s.y.len() {
            return Err(format_error(
                path,
                format!(
                    "series '{}' has {} x values but {} y values",
                    s.label,
                    s.x.len(),
                    s.y.len()
                ),
            ));
        }
    }
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let svg = match ext.as_deref() {
        Some("svg") => true,
        Some("png") => false,
        _ => {
            return Err(format_error(
                path,
                "plot file name must end in .png or .svg",
            ))
        }
    };
    ensure_font().map_err(|m| format_error(path, m))?;

    let curves: Vec<Vec<(f64, f64)>> = series.iter().map(|s| drawable(s, log_y)).collect();
    let plot = Plot {
        title,
        xlabel,
        ylabel,
        series,
        curves: &curves,
        log_y,
    };
    if svg {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
            plot.draw(root).map_err(|m| format_error(path, m))?;
        }
        write_atomic(path, text.as_bytes())
    } else {
        atomic::write_with(path, |tmp| {
            let root = BitMapBackend::new(tmp, SIZE).into_drawing_area();
            plot.draw(root).map_err(|m| format_error(path, m))
        })
    }
}

/// The points of `s` that can be drawn: finite, and with `log_y` nonzero, as |y|.
fn drawable(s: &Series, log_y: bool) -> Vec<(f64, f64)> {
    s.x.iter()
        .zip(&s.y)
        .filter(|(x, y)| x.is_finite() && y.is_finite() && !(log_y && **y == 0.0))
        .map(|(&x, &y)| (x, if log_y { y.abs() } else { y }))
        .collect()
}

/// `[lo, hi]` of `v`, widened when degenerate (or `None` when empty).
fn bounds(v: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    v.fold(None, |acc, x| match acc {
        None => Some((x, x)),
        Some((lo, hi)) => Some((lo.min(x), hi.max(x))),
    })
}

/// A linear axis range with a 5 % margin; unit width around a single value.
fn linear_range(b: Option<(f64, f64)>) -> std::ops::Range<f64> {
    match b {
        None => 0.0..1.0,
        Some((lo, hi)) if hi > lo => {
            let m = 0.05 * (hi - lo);
            if m.is_finite() {
                (lo - m)..(hi + m)
            } else {
                // Data spanning nearly all of f64: no margin, halve to keep the width finite.
                (0.5 * lo)..(0.5 * hi)
            }
        }
        Some((v, _)) => {
            let w = if v == 0.0 { 1.0 } else { 0.5 * v.abs() };
            (v - w)..(v + w)
        }
    }
}

/// A log axis range: from below the smallest to above the largest value,
/// spanning at most 60 decades.
fn log_range(b: Option<(f64, f64)>) -> std::ops::Range<f64> {
    match b {
        None => 1e-16..1.0,
        Some((lo, hi)) => {
            // Widen by a factor 2 each way unless that leaves the positive
            // finite numbers (plotters' log axis never ends for 0 or inf).
            // At most 60 decades: plotters' tick loop runs for ~hi/lo steps
            // when that ratio overflows. Smaller values are clipped.
            let hi2 = if (hi * 2.0).is_finite() { hi * 2.0 } else { hi };
            let lo = lo.max(hi2 * 1e-60);
            let lo2 = if lo / 2.0 > 0.0 { lo / 2.0 } else { lo };
            if hi2 > lo2 {
                lo2..hi2
            } else {
                // A single value at an end of the range: one decade below it.
                (hi2 / 10.0)..hi2
            }
        }
    }
}

/// A tick label on a log axis: one significant digit (`2e-15`, where
/// plotters' default would print `2.0000000000000002e-15`).
fn log_tick_label(v: &f64) -> String {
    format!("{v:.0e}")
}

/// Tick labels for a linear axis over `range` with about ten ticks: just
/// enough digits that neighbouring ticks differ (plotters' default prints
/// `8.0` for every tick of an axis spanning 8 ± 1e-12).
#[derive(Debug, Clone, Copy)]
struct LinearTicks {
    /// Decimals in fixed notation, or `None` for scientific notation.
    fixed: Option<usize>,
    /// Significant digits in scientific notation.
    digits: usize,
}

impl LinearTicks {
    fn new(range: &std::ops::Range<f64>) -> LinearTicks {
        let step = (range.end - range.start) / 10.0;
        let big = range.start.abs().max(range.end.abs());
        // Decimal exponent of the tick step and of the largest value.
        let e_step = step.log10().floor();
        let e_big = if big > 0.0 {
            big.log10().floor()
        } else {
            e_step
        };
        let digits = ((e_big - e_step).max(0.0) as usize + 2).min(17);
        let fixed = (1e-3..1e6)
            .contains(&big)
            .then(|| (1.0 - e_step).max(0.0) as usize);
        LinearTicks { fixed, digits }
    }

    fn label(&self, v: f64) -> String {
        match self.fixed {
            Some(d) => format!("{v:.d$}"),
            None => format!("{v:.p$e}", p = self.digits - 1),
        }
    }

    /// Width in pixels of the label area these labels need (14 px font).
    fn width(&self, range: &std::ops::Range<f64>) -> u32 {
        let n = self
            .label(range.start)
            .len()
            .max(self.label(range.end).len());
        (n as u32 * 9 + 50).max(80)
    }
}

/// Everything needed to draw one figure on any backend.
struct Plot<'a> {
    title: &'a str,
    xlabel: &'a str,
    ylabel: &'a str,
    series: &'a [Series],
    curves: &'a [Vec<(f64, f64)>],
    log_y: bool,
}

impl Plot<'_> {
    fn draw<DB: DrawingBackend>(&self, root: DrawingArea<DB, Shift>) -> Result<(), String> {
        let all = || self.curves.iter().flatten();
        let x = linear_range(bounds(all().map(|p| p.0)));
        let yb = bounds(all().map(|p| p.1));
        if self.log_y {
            self.draw_in(root, x, log_range(yb).log_scale(), None)
        } else {
            let y = linear_range(yb);
            let ticks = LinearTicks::new(&y);
            let width = ticks.width(&y);
            self.draw_in(root, x, y, Some((ticks, width)))
        }
    }

    fn draw_in<DB, Y>(
        &self,
        root: DrawingArea<DB, Shift>,
        x: std::ops::Range<f64>,
        y: Y,
        linear_y: Option<(LinearTicks, u32)>,
    ) -> Result<(), String>
    where
        DB: DrawingBackend,
        Y: AsRangedCoord<Value = f64>,
        Y::CoordDescType: ValueFormatter<f64>,
    {
        let err = |e: &dyn std::fmt::Display| format!("plotting failed: {e}");
        root.fill(&WHITE).map_err(|e| err(&e))?;
        let mut chart = ChartBuilder::on(&root)
            .caption(self.title, ("sans-serif", 26))
            .margin(16)
            .x_label_area_size(50)
            .y_label_area_size(linear_y.map_or(90, |(_, w)| w))
            .build_cartesian_2d(x, y)
            .map_err(|e| err(&e))?;
        let mut mesh = chart.configure_mesh();
        mesh.x_desc(self.xlabel)
            .y_desc(self.ylabel)
            .axis_desc_style(("sans-serif", 18))
            .label_style(("sans-serif", 14));
        let linear_label = |v: &f64| linear_y.map_or_else(String::new, |(t, _)| t.label(*v));
        if self.log_y {
            mesh.y_label_formatter(&log_tick_label);
        } else {
            mesh.y_label_formatter(&linear_label);
        }
        mesh.draw().map_err(|e| err(&e))?;
        let mut labelled = false;
        for (i, (s, pts)) in self.series.iter().zip(self.curves).enumerate() {
            let colour = COLOURS[i % COLOURS.len()];
            let anno = chart
                .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
                .map_err(|e| err(&e))?;
            if !s.label.is_empty() {
                labelled = true;
                anno.label(s.label.as_str()).legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], colour.stroke_width(2))
                });
            }
        }
        if labelled {
            chart
                .configure_series_labels()
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 16))
                .position(SeriesLabelPosition::UpperRight)
                .draw()
                .map_err(|e| err(&e))?;
        }
        root.present().map_err(|e| err(&e))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Labels of ticks `lo + k·step`, k = 0..=10, over the axis `lo..hi`.
    fn labels(lo: f64, hi: f64) -> Vec<String> {
        let t = LinearTicks::new(&(lo..hi));
        (0..=10)
            .map(|k| t.label(lo + k as f64 * (hi - lo) / 10.0))
            .collect()
    }

    #[test]
    fn linear_tick_labels_tell_neighbouring_ticks_apart() {
        for (lo, hi) in [
            (8.0 - 1e-12, 8.0 + 1e-12),
            (-3e7, 3e7),
            (-3e-7, 3e-7),
            (0.0, 1.0),
            (1e5, 1e5 + 1.0),
        ] {
            let l = labels(lo, hi);
            for w in l.windows(2) {
                assert_ne!(w[0], w[1], "{lo}..{hi}: {l:?}");
            }
            // And not absurdly long.
            assert!(l.iter().all(|s| s.len() <= 20), "{l:?}");
        }
        assert_eq!(labels(0.0, 1.0)[3], "0.30");
        assert_eq!(labels(-3e7, 3e7)[10], "3.00e7");
        assert_eq!(log_tick_label(&1.0000000000000002e-14), "1e-14");
    }
}
