//! Problem files of either supported format, told apart by their content: FCLIB HDF5
//! ([`super::fclib`]) when the file carries the HDF5 signature, Siconos' text format
//! ([`super::siconos_dat`]) otherwise.

use std::io::Read;
use std::path::Path;

use super::fclib::{self, FclibError, FclibProblem, ProblemInfo};
use super::siconos_dat::{self, DatError};

/// Why a problem file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error(transparent)]
    Fclib(#[from] FclibError),
    #[error(transparent)]
    Dat(#[from] DatError),
}

/// The formats a problem file can be in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    FclibHdf5,
    SiconosText,
}

/// The HDF5 format signature; the superblock sits at byte 0, 512, 1024, 2048, …
const HDF5_SIGNATURE: &[u8; 8] = b"\x89HDF\r\n\x1a\n";

/// The format of the file at `path` (text unless it carries the HDF5 signature at one
/// of the offsets HDF5 allows). A file that cannot be opened is reported by the reader.
pub fn format_of(path: &Path) -> Format {
    let Ok(mut f) = std::fs::File::open(path) else {
        return Format::SiconosText;
    };
    let mut head = vec![0u8; 4096 + 8];
    let mut len = 0;
    while len < head.len() {
        match f.read(&mut head[len..]) {
            Ok(0) | Err(_) => break,
            Ok(k) => len += k,
        }
    }
    let at = |o: usize| o + 8 <= len && &head[o..o + 8] == HDF5_SIGNATURE;
    if [0, 512, 1024, 2048, 4096].into_iter().any(at) {
        Format::FclibHdf5
    } else {
        Format::SiconosText
    }
}

/// Reads a problem from an FCLIB HDF5 file or a Siconos text file (`.dat`), and the
/// `info/` strings when the file has them.
pub fn read_problem(
    path: impl AsRef<Path>,
) -> Result<(FclibProblem, Option<ProblemInfo>), ReadError> {
    let path = path.as_ref();
    match format_of(path) {
        Format::FclibHdf5 => Ok(fclib::read_problem(path)?),
        Format::SiconosText => Ok((siconos_dat::read_dat(path)?, None)),
    }
}
