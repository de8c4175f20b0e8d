//! Atomic replacement of a file: write a sibling temporary file, then rename it
//! over the target (a rename within one directory is atomic on POSIX file
//! systems), so an interrupted run never leaves a half-written file.
use super::{io_error, OutputError};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Counts temporary names handed out by this process.
static COUNTER: AtomicU64 = AtomicU64::new(0);

/// A fresh temporary path beside `path`: `.<name>.tmp-<pid>-<n>`, with the
/// target's extension appended again (`….png`) so tools that pick a format by
/// extension (the PNG encoder) still recognise it.
pub(crate) fn temp_sibling(path: &Path) -> PathBuf {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let mut tmp = format!(".{name}.tmp-{}-{n}", std::process::id());
    if let Some(ext) = path.extension() {
        tmp.push('.');
        tmp.push_str(&ext.to_string_lossy());
    }
    path.with_file_name(tmp)
}

/// Runs `write` on a fresh temporary sibling of `path`, then renames it over
/// `path`. On any failure the temporary file is removed and the error returned.
pub(crate) fn write_with(
    path: &Path,
    write: impl FnOnce(&Path) -> Result<(), OutputError>,
) -> Result<(), OutputError> {
    if path.file_name().is_none() {
        return Err(super::format_error(path, "not a file name"));
    }
    let tmp = temp_sibling(path);
    let result =
        write(&tmp).and_then(|()| std::fs::rename(&tmp, path).map_err(|e| io_error(path, e)));
    if result.is_err() {
        // Best effort: the temporary may not exist if creating it failed.
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
