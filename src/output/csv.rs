//! CSV histories: a header line, then one row per step, flushed after every row
//! so nothing computed is lost when a run is interrupted.
use super::OutputError;
use std::path::Path;

/// Appends numeric rows under a fixed header.
#[derive(Debug)]
pub struct CsvWriter {
    columns: usize,
    file: std::io::BufWriter<std::fs::File>,
}

impl CsvWriter {
    /// Creates (truncates) `path` and writes the header.
    pub fn create(path: &Path, header: &[&str]) -> Result<CsvWriter, OutputError> {
        let _ = (path, header);
        todo!("output: csv create")
    }

    /// Writes one row (`row.len()` must equal the header's) and flushes it.
    /// Numbers are written with full precision (`{:e}` round-trip form).
    pub fn row(&mut self, row: &[f64]) -> Result<(), OutputError> {
        let _ = (row, self.columns, &mut self.file);
        todo!("output: csv row")
    }

    /// Like `row`, with a leading text field (e.g. a body name) after column `at`.
    pub fn row_with_text(&mut self, at: usize, text: &str, row: &[f64]) -> Result<(), OutputError> {
        let _ = (at, text, row);
        todo!("output: csv row with text")
    }
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
pub fn read_csv(path: &Path) -> Result<CsvTable, OutputError> {
    let _ = path;
    todo!("output: csv read")
}
