//! Results: VTK XML unstructured grids (`.vtu`) with a ParaView collection
//! (`.pvd`), CSV histories, PNG/SVG plots. Every file is written atomically
//! (to a temporary name in the same directory, then renamed), so an interrupted
//! run never leaves a half-written file behind.
//!
//! Files: `atomic` (temporary sibling + rename), `vtk` (`.vtu` through vtkio,
//! `.pvd` collection), `csv` (histories, bit-exact round trip), `plot`
//! (PNG/SVG line plots, bundled font), `history` (energy and momentum plots of
//! a run's `history.csv`). `validation/check_vtk.py` checks a `.pvd` and its
//! frames with VTK's own XML reader.

use crate::mesh::Element;
use std::path::{Path, PathBuf};

mod atomic;
mod csv;
mod history;
mod plot;
mod vtk;

pub use csv::{read_csv, CsvTable, CsvWriter};
pub use history::plot_history;
pub use plot::{plot_lines, Series};
pub use vtk::{render_vtu, write_vtu, Pvd};

/// Output failures, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum OutputError {
    #[error("{file}: {source}")]
    Io {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{file}: {message}")]
    Format { file: PathBuf, message: String },
}

/// Writes `bytes` to `path` atomically (temporary file in the same directory,
/// fsync-free rename).
///
/// The temporary file is `.<name>.tmp-<pid>-<n>` beside `path` (`n` counts
/// calls in this process, so concurrent writers never share a name); it is
/// removed again if anything fails. Readers see either the old or the new
/// content, never a prefix. Errors name `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    atomic::write_with(path, |tmp| {
        std::fs::write(tmp, bytes).map_err(|e| io_error(path, e))
    })
}

/// An `OutputError::Io` naming `file`.
pub(crate) fn io_error(file: &Path, source: std::io::Error) -> OutputError {
    OutputError::Io {
        file: file.to_path_buf(),
        source,
    }
}

/// An `OutputError::Format` naming `file`.
pub(crate) fn format_error(file: &Path, message: impl Into<String>) -> OutputError {
    OutputError::Format {
        file: file.to_path_buf(),
        message: message.into(),
    }
}

/// A named field on points or cells: `values.len() == count · components`,
/// entity-major. 1 component is written as VTK scalars, 3 as vectors, 9 as a
/// 3×3 tensor in row-major order (VTK's convention), any other count as a
/// generic multi-component array.
#[derive(Debug, Clone, Copy)]
pub struct Field<'a> {
    pub name: &'a str,
    pub components: usize,
    pub values: &'a [f64],
}

/// One VTK frame: points (always 3 coordinates), cells and their fields.
#[derive(Debug, Clone, Copy)]
pub struct Frame<'a> {
    pub points: &'a [[f64; 3]],
    pub cells: &'a [Element],
    pub point_data: &'a [Field<'a>],
    pub cell_data: &'a [Field<'a>],
}
