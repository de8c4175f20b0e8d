//! CSV histories: a header line, then one row per step, flushed after every row
//! so nothing computed is lost when a run is interrupted.
//!
//! Format: comma-separated, no quoting, `\n` line ends. Numbers are written
//! with `{:e}` — Rust's shortest scientific form that parses back to the same
//! `f64` bit for bit (`-0e0`, `1e-300`, `3.333333333333333e-1`; `NaN`, `inf`,
//! `-inf` for non-finite values). Header names and text cells must not contain
//! commas, quotes or line breaks.
use super::{format_error, io_error, OutputError};
use std::io::Write;
use std::path::{Path, PathBuf};

/// Appends numeric rows under a fixed header.
#[derive(Debug)]
pub struct CsvWriter {
    columns: usize,
    file: std::io::BufWriter<std::fs::File>,
    path: PathBuf,
}

impl CsvWriter {
    /// Creates (truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &[&str]) -> Result<CsvWriter, OutputError> {
        if header.is_empty() {
            return Err(format_error(path, "a CSV header needs at least one column"));
        }
        for h in header {
            check_cell(path, "header name", h)?;
        }
        let file = std::fs::File::create(path).map_err(|e| io_error(path, e))?;
        let mut w = CsvWriter {
            columns: header.len(),
            file: std::io::BufWriter::new(file),
            path: path.to_path_buf(),
        };
        let line = header.join(",");
        w.finish_line(|f| f.write_all(line.as_bytes()))?;
        Ok(w)
    }

    /// Number of columns (header fields).
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Writes one row (`row.len()` must equal the header's) and flushes it.
    /// Numbers are written with full precision (`{:e}` round-trip form).
    pub fn row(&mut self, row: &[f64]) -> Result<(), OutputError> {
        if row.len() != self.columns {
            return Err(format_error(
                &self.path,
                format!(
                    "row of {} values under a header of {} columns",
                    row.len(),
                    self.columns
                ),
            ));
        }
        self.finish_line(|f| write_numbers(f, row))
    }

    /// Like `row`, with a text field (e.g. a body name) as column `at`.
    ///
    /// Exact semantics: the line written is `row[..at]`, then `text`, then
    /// `row[at..]`, so `text` lands in header column `at` (0-based) and
    /// `row.len()` must be the header's column count minus one, with
    /// `at ≤ row.len()`. `read_csv` reads the text cell back as NaN.
    /// `text` must not contain a comma, quote or line break.
    pub fn row_with_text(&mut self, at: usize, text: &str, row: &[f64]) -> Result<(), OutputError> {
        if row.len() + 1 != self.columns {
            return Err(format_error(
                &self.path,
                format!(
                    "row of {} values plus a text field under a header of {} columns",
                    row.len(),
                    self.columns
                ),
            ));
        }
        if at > row.len() {
            return Err(format_error(
                &self.path,
                format!("text column {at} is past the last column {}", row.len()),
            ));
        }
        check_cell(&self.path, "text field", text)?;
        self.finish_line(|f| {
            write_numbers(f, &row[..at])?;
            if at > 0 {
                f.write_all(b",")?;
            }
            f.write_all(text.as_bytes())?;
            if at < row.len() {
                f.write_all(b",")?;
            }
            write_numbers(f, &row[at..])
        })
    }

    /// Writes one line's fields with `body`, then the line end, and flushes.
    fn finish_line(
        &mut self,
        body: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
    ) -> Result<(), OutputError> {
        body(&mut self.file)
            .and_then(|()| self.file.write_all(b"\n"))
            .and_then(|()| self.file.flush())
            .map_err(|e| io_error(&self.path, e))
    }
}

/// Writes `values` comma-separated in round-trip form (no allocation).
fn write_numbers(f: &mut impl Write, values: &[f64]) -> std::io::Result<()> {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            f.write_all(b",")?;
        }
        write!(f, "{v:e}")?;
    }
    Ok(())
}

/// Rejects text that would break the unquoted CSV format.
fn check_cell(path: &Path, what: &str, s: &str) -> Result<(), OutputError> {
    if s.contains([',', '"', '\n', '\r']) {
        return Err(format_error(
            path,
            format!("{what} {s:?} contains a comma, quote or line break"),
        ));
    }
    Ok(())
}

/// A CSV read back: header and numeric columns (non-numeric cells become NaN).
#[derive(Debug, Clone, Default)]
pub struct CsvTable {
    pub header: Vec<String>,
    pub rows: Vec<Vec<f64>>,
}

impl CsvTable {
    /// The column called `name`.
    pub fn column(&self, name: &str) -> Option<Vec<f64>> {
        let i = self.header.iter().position(|h| h == name)?;
        Some(self.rows.iter().map(|r| r[i]).collect())
    }
}

/// Reads a CSV written by `CsvWriter`.
///
/// Every row must have as many cells as the header (else `OutputError::Format`
/// naming the file and line), except a last line without its line end — the
/// trace of an interrupted write — which is skipped. Cells that do not parse
/// as `f64` (text fields, empty cells) become NaN. Blank lines are ignored.
pub fn read_csv(path: &Path) -> Result<CsvTable, OutputError> {
    let text = std::fs::read_to_string(path).map_err(|e| io_error(path, e))?;
    let complete = text.ends_with('\n');
    let mut lines = text.lines().enumerate();
    let header: Vec<String> = match lines.next() {
        Some((_, h)) if !h.trim().is_empty() => {
            h.split(',').map(|s| s.trim().to_string()).collect()
        }
        _ => return Err(format_error(path, "empty file: no CSV header")),
    };
    let n_lines = text.lines().count();
    let mut rows = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let row: Vec<f64> = line
            .split(',')
            .map(|c| c.trim().parse::<f64>().unwrap_or(f64::NAN))
            .collect();
        if row.len() != header.len() {
            if i + 1 == n_lines && !complete {
                log::warn!("{}: skipping an incomplete last line", path.display());
                continue;
            }
            return Err(format_error(
                path,
                format!(
                    "line {}: {} cells under a header of {}",
                    i + 1,
                    row.len(),
                    header.len()
                ),
            ));
        }
        rows.push(row);
    }
    Ok(CsvTable { header, rows })
}
