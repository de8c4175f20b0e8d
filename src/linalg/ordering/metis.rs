//! Nested-dissection ordering of a graph by METIS (`METIS_NodeND`, the
//! multilevel nested dissection of Karypis & Kumar 1998, SIAM J. Sci.
//! Comput. 20(1)), through `metis-sys`, which compiles its vendored copy of
//! METIS 5 (no system package).
//!
//! A permutation is returned as `fwd[new] = old` (faer's convention; METIS
//! calls it `perm`).

use faer::sparse::SymbolicSparseColMatRef;
use metis_sys::idx_t;
use std::sync::Mutex;

/// METIS keeps the state of its random numbers in a static array
/// (`GKlib/random.c`: `static uint64_t mt[NN]`, seeded at the start of each
/// call), so two calls at once race on it: the test suite's concurrent
/// analyses got orderings that depended on how the threads interleaved
/// (the full LU of a 12³-node grid 1.001–1.026e9 flops instead of
/// 1.014e9). One call at a time.
static METIS_CALL: Mutex<()> = Mutex::new(());

/// Why METIS could not order a graph.
#[derive(Debug, Clone, thiserror::Error)]
pub enum MetisError {
    #[error("graph too large for METIS' 32-bit indices ({0} entries)")]
    TooLarge(usize),
    #[error("METIS_NodeND returned status {0}")]
    Status(i32),
}

/// The nested-dissection ordering of the symmetric graph `g` (a square
/// pattern; the diagonal, if stored, is ignored).
pub fn nested_dissection(g: SymbolicSparseColMatRef<'_, usize>) -> Result<Vec<usize>, MetisError> {
    let n = g.ncols();
    assert_eq!(g.nrows(), n, "a graph's pattern is square");
    if n <= 1 {
        return Ok((0..n).collect());
    }
    let too_large = || MetisError::TooLarge(g.row_idx().len());
    let idx = |v: usize| idx_t::try_from(v).map_err(|_| too_large());
    // CSR of the graph without self-loops (the pattern is symmetric, so the
    // columns of the CSC pattern are the rows)
    let mut xadj: Vec<idx_t> = Vec::with_capacity(n + 1);
    let mut adjncy: Vec<idx_t> = Vec::with_capacity(g.row_idx().len());
    xadj.push(0);
    for j in 0..n {
        for i in g.row_idx_of_col(j) {
            if i != j {
                adjncy.push(idx(i)?);
            }
        }
        xadj.push(idx(adjncy.len())?);
    }
    let mut nvtxs = idx(n)?;
    let mut options = [0 as idx_t; metis_sys::METIS_NOPTIONS as usize];
    let mut perm = vec![0 as idx_t; n];
    let mut iperm = vec![0 as idx_t; n];
    // What METIS reads and writes: xadj[0..=n], adjncy[0..xadj[n]] with
    // entries in [0, n), perm and iperm [0..n), options[0..NOPTIONS]; it
    // keeps no pointer after returning. Checked here, not assumed:
    assert!(xadj.len() == n + 1 && adjncy.len() == xadj[n] as usize);
    assert!(adjncy.iter().all(|&v| v >= 0 && (v as usize) < n));
    assert!(perm.len() == n && iperm.len() == n);
    // a panic elsewhere while holding the lock leaves METIS' state as it was
    let _one_call = METIS_CALL.lock().unwrap_or_else(|e| e.into_inner());
    // SAFETY: the arrays have the lengths and index ranges asserted above,
    // all are distinct live allocations, the null vwgt means unit weights,
    // and METIS' static state is used by this call alone (`METIS_CALL`).
    let status = unsafe {
        metis_sys::METIS_SetDefaultOptions(options.as_mut_ptr());
        options[metis_sys::moptions_et_METIS_OPTION_NUMBERING as usize] = 0;
        metis_sys::METIS_NodeND(
            &mut nvtxs,
            xadj.as_mut_ptr(),
            adjncy.as_mut_ptr(),
            std::ptr::null_mut(),
            options.as_mut_ptr(),
            perm.as_mut_ptr(),
            iperm.as_mut_ptr(),
        )
    };
    if status != metis_sys::rstatus_et_METIS_OK {
        return Err(MetisError::Status(status));
    }
    let fwd: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
    // a permutation, or METIS broke its contract
    let mut seen = vec![false; n];
    for &p in &fwd {
        assert!(p < n && !seen[p], "METIS_NodeND returned no permutation");
        seen[p] = true;
    }
    Ok(fwd)
}

#[cfg(test)]
mod tests {
    use super::*;
    use faer::sparse::SymbolicSparseColMat;

    #[test]
    fn orders_a_grid_graph_as_a_permutation() {
        let g = grid(15);
        let n = 15 * 15;
        let fwd = nested_dissection(g.as_ref()).unwrap();
        let mut sorted = fwd.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..n).collect::<Vec<_>>());
    }

    #[test]
    fn orders_alike_when_called_from_many_threads_at_once() {
        let g = grid(60);
        let alone = nested_dissection(g.as_ref()).unwrap();
        std::thread::scope(|s| {
            let runs: Vec<_> = (0..4)
                .map(|_| {
                    s.spawn(|| {
                        (0..5)
                            .map(|_| nested_dissection(g.as_ref()).unwrap())
                            .collect::<Vec<_>>()
                    })
                })
                .collect();
            for run in runs {
                for fwd in run.join().unwrap() {
                    assert!(fwd == alone, "an ordering depends on the other calls");
                }
            }
        });
    }

    /// The `m × m` 5-point grid graph, diagonal included.
    fn grid(m: usize) -> SymbolicSparseColMat<usize> {
        let n = m * m;
        let mut col_ptr = vec![0];
        let mut row_idx = Vec::new();
        for j in 0..n {
            let (x, y) = (j % m, j / m);
            let mut nb = vec![j];
            if x > 0 {
                nb.push(j - 1);
            }
            if x + 1 < m {
                nb.push(j + 1);
            }
            if y > 0 {
                nb.push(j - m);
            }
            if y + 1 < m {
                nb.push(j + m);
            }
            nb.sort_unstable();
            row_idx.extend(nb);
            col_ptr.push(row_idx.len());
        }
        SymbolicSparseColMat::new_checked(n, n, col_ptr, None, row_idx)
    }
}
