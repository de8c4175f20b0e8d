//! The output folder: created and checked writable before anything is
//! computed; the files of an earlier run are replaced only with
//! `--overwrite` (stale `_NNNNN.vtu` frames would otherwise join ParaView's
//! file series).

use std::path::{Path, PathBuf};

/// Why the output folder cannot be used (bad input: exit code 2).
#[derive(Debug, thiserror::Error)]
pub enum OutputDirError {
    #[error("{dir}: cannot create the output folder: {source}")]
    Create {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{dir}: the output folder is not writable: {source}")]
    NotWritable {
        dir: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{dir}: holds the results of an earlier run ({what}); run with --overwrite to replace them, or write elsewhere with --out DIR")]
    Occupied { dir: PathBuf, what: String },
    #[error("{file}: cannot remove the earlier run's file: {source}")]
    Remove {
        file: PathBuf,
        #[source]
        source: std::io::Error,
    },
}

/// Whether `name` is a file a run writes (so `--overwrite` may remove it).
fn is_run_file(name: &str) -> bool {
    const FIXED: [&str; 7] = [
        "history.csv",
        "bodies.csv",
        "reactions.csv",
        "contacts.csv",
        "energy.png",
        "momentum.png",
        super::checkpoint::CHECKPOINT_FILE,
    ];
    FIXED.contains(&name) || name.ends_with(".pvd") || is_frame(name)
}

/// `<name>_NNNNN.vtu` (five or more digits); also the parallel build's
/// `<name>_NNNNN.pvtu` and its pieces `<name>_NNNNN_RRRRR.vtu`.
fn is_frame(name: &str) -> bool {
    let Some(stem) = name
        .strip_suffix(".vtu")
        .or_else(|| name.strip_suffix(".pvtu"))
    else {
        return false;
    };
    match stem.rfind('_') {
        Some(i) => {
            let digits = &stem[i + 1..];
            digits.len() >= 5 && digits.bytes().all(|b| b.is_ascii_digit())
        }
        None => false,
    }
}

/// Creates `dir` if needed, checks that it is writable, and deals with an
/// earlier run's files: an error without `overwrite`, removed with it.
pub fn prepare(dir: &Path, overwrite: bool) -> Result<(), OutputDirError> {
    std::fs::create_dir_all(dir).map_err(|source| OutputDirError::Create {
        dir: dir.to_path_buf(),
        source,
    })?;
    let probe = dir.join(format!(".emcontact-write-test-{}", std::process::id()));
    std::fs::write(&probe, b"")
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|source| OutputDirError::NotWritable {
            dir: dir.to_path_buf(),
            source,
        })?;
    let old: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|source| OutputDirError::NotWritable {
            dir: dir.to_path_buf(),
            source,
        })?
        .filter_map(|e| e.ok())
        .filter(|e| is_run_file(&e.file_name().to_string_lossy()))
        .map(|e| e.path())
        .collect();
    if old.is_empty() {
        return Ok(());
    }
    if !overwrite {
        let frames = old
            .iter()
            .filter(|p| is_frame(&p.file_name().unwrap_or_default().to_string_lossy()))
            .count();
        let mut names: Vec<String> = old
            .iter()
            .map(|p| {
                p.file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned()
            })
            .filter(|n| !is_frame(n))
            .collect();
        names.sort();
        if frames > 0 {
            names.push(format!("{frames} .vtu frames"));
        }
        return Err(OutputDirError::Occupied {
            dir: dir.to_path_buf(),
            what: names.join(", "),
        });
    }
    for file in old {
        std::fs::remove_file(&file).map_err(|source| OutputDirError::Remove { file, source })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_recognized_by_their_number() {
        assert!(is_frame("ring_00012.vtu"));
        assert!(is_frame("a_b_123456.vtu"));
        assert!(!is_frame("ring_0012.vtu"));
        assert!(!is_frame("mesh.vtu"));
        assert!(!is_frame("ring_00012.vtk"));
        assert!(is_run_file("history.csv") && is_run_file("x.pvd"));
        assert!(!is_run_file("notes.txt") && !is_run_file("input.toml"));
    }
}
