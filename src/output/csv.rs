//! CSV histories: a header line, then one row per step, each row written
//! whole or not at all, so nothing computed is lost when a run is
//! interrupted and no reader ever sees half a row.
//!
//! A row is formatted into a buffer and handed to the file in one write; if
//! that write fails (a full disk), the file is cut back to its length before
//! the row and the error returned, so the file stays a valid CSV.
//!
//! Format: comma-separated, no quoting, `\n` line ends. Numbers are written
//! with `{:e}` — Rust's shortest scientific form that parses back to the same
//! `f64` bit for bit (`-0e0`, `1e-300`, `3.333333333333333e-1`; `NaN`, `inf`,
//! `-inf` for non-finite values). Header names and text cells must not contain
//! commas, quotes or line breaks.
use super::{format_error, io_error, OutputError};
use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// Appends numeric rows under a fixed header.
#[derive(Debug)]
pub struct CsvWriter {
    columns: usize,
    /// Header columns written as integers (counts), by header index.
    integers: Vec<bool>,
    file: std::fs::File,
    path: PathBuf,
    /// The row being written.
    line: Vec<u8>,
    /// Bytes in the file (all complete lines).
    len: u64,
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
            integers: vec![false; header.len()],
            file,
            path: path.to_path_buf(),
            line: Vec::with_capacity(512),
            len: 0,
        };
        let line = header.join(",");
        w.finish_line(|f| f.write_all(line.as_bytes()))?;
        Ok(w)
    }

    /// Reopens `path` to append after its first `len` bytes (cutting off
    /// anything after them), checking that they end a line and that the
    /// header is `header`. For restarts: `len` is [`CsvWriter::len`] as it was.
    pub fn resume(path: &Path, header: &[&str], len: u64) -> Result<CsvWriter, OutputError> {
        let text = std::fs::read(path).map_err(|e| io_error(path, e))?;
        let want = header.join(",");
        if (text.len() as u64) < len
            || len < want.len() as u64 + 1
            || text[len as usize - 1] != b'\n'
            || !text.starts_with(want.as_bytes())
            || text[want.len()] != b'\n'
        {
            return Err(format_error(
                path,
                format!(
                    "does not hold the {len} bytes of history the checkpoint was written after"
                ),
            ));
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(|e| io_error(path, e))?;
        file.set_len(len).map_err(|e| io_error(path, e))?;
        file.seek(SeekFrom::Start(len))
            .map_err(|e| io_error(path, e))?;
        Ok(CsvWriter {
            columns: header.len(),
            integers: vec![false; header.len()],
            file,
            path: path.to_path_buf(),
            line: Vec::with_capacity(512),
            len,
        })
    }

    /// Writes the columns named `names` as integers (counts: `3`, not
    /// `3e0`); a value there that is not a whole number is written as a
    /// number all the same. Names not in the header are ignored.
    pub fn with_integers(mut self, header: &[&str], names: &[&str]) -> CsvWriter {
        for (i, h) in header.iter().enumerate() {
            if names.contains(h) {
                self.integers[i] = true;
            }
        }
        self
    }

    /// Number of columns (header fields).
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Bytes written so far (header and complete rows).
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Whether nothing (not even the header) is written.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes one row (`row.len()` must equal the header's), whole or not at all.
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
        let ints = std::mem::take(&mut self.integers);
        let mut line = std::mem::take(&mut self.line);
        let result = self.finish_line_in(&mut line, |f| write_numbers(f, row, &ints));
        (self.line, self.integers) = (line, ints);
        result
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
        let ints = std::mem::take(&mut self.integers);
        let mut line = std::mem::take(&mut self.line);
        let result = self.finish_line_in(&mut line, |f| {
            write_numbers(f, &row[..at], &ints[..at])?;
            if at > 0 {
                f.write_all(b",")?;
            }
            f.write_all(text.as_bytes())?;
            if at < row.len() {
                f.write_all(b",")?;
            }
            write_numbers(f, &row[at..], &ints[at + 1..])
        });
        (self.line, self.integers) = (line, ints);
        result
    }

    /// Formats one line with `body` plus the line end, then writes it in one
    /// call; on failure cuts the file back to the last complete line.
    fn finish_line(
        &mut self,
        body: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
    ) -> Result<(), OutputError> {
        let mut line = std::mem::take(&mut self.line);
        let result = self.finish_line_in(&mut line, body);
        self.line = line;
        result
    }

    /// [`CsvWriter::finish_line`] with the line buffer taken out of `self`.
    fn finish_line_in(
        &mut self,
        line: &mut Vec<u8>,
        body: impl FnOnce(&mut Vec<u8>) -> std::io::Result<()>,
    ) -> Result<(), OutputError> {
        line.clear();
        body(line).map_err(|e| io_error(&self.path, e))?;
        line.push(b'\n');
        match self.file.write_all(line) {
            Ok(()) => {
                self.len += line.len() as u64;
                Ok(())
            }
            Err(e) => {
                // Cut off whatever part of the row reached the file (cutting
                // frees space, so this works on a full disk too).
                let _ = self.file.set_len(self.len);
                let _ = self.file.seek(SeekFrom::Start(self.len));
                Err(io_error(&self.path, e))
            }
        }
    }
}

/// Writes `values` comma-separated in round-trip form, those flagged in
/// `integers` that are whole numbers as integers (no allocation).
fn write_numbers(f: &mut impl Write, values: &[f64], integers: &[bool]) -> std::io::Result<()> {
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            f.write_all(b",")?;
        }
        let whole = v.fract() == 0.0 && v.abs() < 9.0e15;
        if integers.get(i).copied().unwrap_or(false) && whole {
            write!(f, "{}", *v as i64)?;
        } else {
            write!(f, "{v:e}")?;
        }
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
