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
            (lo - m)..(hi + m)
        }
        Some((v, _)) => {
            let w = if v == 0.0 { 1.0 } else { 0.5 * v.abs() };
            (v - w)..(v + w)
        }
    }
}

/// A log axis range: from below the smallest to above the largest value.
fn log_range(b: Option<(f64, f64)>) -> std::ops::Range<f64> {
    match b {
        None => 1e-16..1.0,
        Some((lo, hi)) => (lo / 2.0)..(hi * 2.0),
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
            self.draw_in(root, x, log_range(yb).log_scale())
        } else {
            self.draw_in(root, x, linear_range(yb))
        }
    }

    fn draw_in<DB, Y>(
        &self,
        root: DrawingArea<DB, Shift>,
        x: std::ops::Range<f64>,
        y: Y,
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
            .y_label_area_size(90)
            .build_cartesian_2d(x, y)
            .map_err(|e| err(&e))?;
        chart
            .configure_mesh()
            .x_desc(self.xlabel)
            .y_desc(self.ylabel)
            .axis_desc_style(("sans-serif", 18))
            .label_style(("sans-serif", 14))
            .draw()
            .map_err(|e| err(&e))?;
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
