//! Approximate minimum degree ordering of a graph (Amestoy, Davis & Duff
//! 1996, SIAM J. Matrix Anal. Appl. 17(4); faer's implementation).
//!
//! A permutation is returned as `fwd[new] = old` (faer's convention).

use faer::dyn_stack::{MemBuffer, MemStack};
use faer::sparse::linalg::amd;
use faer::sparse::{FaerError, SymbolicSparseColMatRef};

/// The AMD ordering of the symmetric graph `g` (a square pattern, diagonal
/// stored or not).
pub fn minimum_degree(g: SymbolicSparseColMatRef<'_, usize>) -> Result<Vec<usize>, FaerError> {
    let nn = g.ncols();
    let mut fwd = vec![0usize; nn];
    let mut inv = vec![0usize; nn];
    let mut mem = MemBuffer::try_new(amd::order_scratch::<usize>(nn, g.row_idx().len()))
        .map_err(|_| FaerError::OutOfMemory)?;
    amd::order(
        &mut fwd,
        &mut inv,
        g,
        amd::Control::default(),
        MemStack::new(&mut mem),
    )?;
    Ok(fwd)
}
