//! Whether to order the volatile (contact) nodes last: the trailing block
//! they form serves the restricted solves of `W = B K⁻¹ H` (each a fraction
//! of a full solve) and the chord iterations that refactor the block alone
//! (`docs/decisions/trailing-block-for-w.md`).

use crate::linalg::error::LinearSolveError;
use crate::linalg::lu::symbolic::{SymbolicError, SymbolicFactor};
use crate::linalg::ordering::constraints::OrderConstraints;
use crate::linalg::ordering::nodes::FillOrdering;
use crate::linalg::pattern::BlockPattern;

/// Largest trailing block (volatile nodes, and the pseudo-nodes anchored
/// to them, × dofs per node) for which the constrained analysis is tried: a
/// dense block of 6,000 columns alone is 1.4e11 LU flops, 13× a full
/// factorization of the 18,546-dof friction blocks. A guard, not tuned.
pub const MAX_TRAILING_DOFS: usize = 6000;

/// Supernode relaxation of the analysis with the volatile nodes last:
/// faer's default (`(4, 1.0), (16, 0.8), (48, 0.1), (usize::MAX, 0.05)`:
/// a merge of a child into its parent supernode is allowed while the
/// explicit zeros stay within that share of the merged supernode) without
/// its last entry, so that no merge above 256 columns adds zeros: faer's
/// default merged the last interior separator into the contact block and
/// tripled the block's flops, a full factorization unchanged
/// (`docs/decisions/trailing-block-for-w.md`). Merges that add no zeros
/// faer makes whatever the table
/// (`the_trailing_block_is_the_volatile_columns_alone`).
const SPLIT_RELAX: &[(usize, f64)] = &[(4, 1.0), (16, 0.8), (48, 0.1), (256, 0.05)];

/// The trailing block is kept when it is at most this share of a full
/// factorization...
const MAX_TRAILING_SHARE: f64 = 0.5;
/// ... and ordering it last costs at most this factor of the work of the
/// unconstrained ordering.
const MAX_FILL_COST: f64 = 1.5;

/// The symbolic analysis of `pattern` with the `volatile` nodes last when
/// that pays (the bounds above), otherwise without that constraint; the
/// `anchored` pseudo-nodes follow their anchors in both.
///
/// `volatile` is sorted. `plain_flops` remembers the LU flops of the last unconstrained analysis:
/// a constrained one within [`MAX_FILL_COST`] of it is kept without
/// ordering the new pattern unconstrained again (contact couplings change
/// that work little, and the second ordering was half of the symbolic time
/// of a contact run).
pub fn analyse(
    pattern: &BlockPattern,
    ordering: FillOrdering,
    volatile: &[usize],
    anchored: &[(usize, usize)],
    plain_flops: &mut Option<f64>,
) -> Result<SymbolicFactor, LinearSolveError> {
    let err = |e: SymbolicError| LinearSolveError::Symbolic(e.to_string());
    let d = pattern.dim();
    let plain = |plain_flops: &mut Option<f64>| -> Result<SymbolicFactor, LinearSolveError> {
        let c = OrderConstraints {
            last: &[],
            anchored,
        };
        let f = SymbolicFactor::with_constraints(pattern, ordering, None, c).map_err(err)?;
        *plain_flops = Some(f.size().lu_flops);
        Ok(f)
    };
    // the trailing block holds the volatile nodes and the pseudo-nodes
    // anchored to them
    let trailing_nodes = volatile.len()
        + anchored
            .iter()
            .filter(|(_, a)| volatile.binary_search(a).is_ok())
            .count();
    if volatile.is_empty() || trailing_nodes * d > MAX_TRAILING_DOFS {
        return plain(plain_flops);
    }
    let c = OrderConstraints {
        last: volatile,
        anchored,
    };
    let split =
        SymbolicFactor::with_constraints(pattern, ordering, Some(SPLIT_RELAX), c).map_err(err)?;
    let fs = split.size().lu_flops;
    let small = split.trailing_flops() <= MAX_TRAILING_SHARE * fs;
    let keep_by = |fp: f64| small && fs <= MAX_FILL_COST * fp;
    let (keep, fp, other) = match *plain_flops {
        Some(fp) if keep_by(fp) => (true, fp, None),
        _ => {
            let other = plain(plain_flops)?;
            let fp = other.size().lu_flops;
            (keep_by(fp), fp, Some(other))
        }
    };
    let sn = split.supernodal();
    let sc = split.split().unwrap_or(0);
    log::debug!(
        "linear solver: {} volatile nodes last: {:.3e} flops ({:.3e} unconstrained), trailing block {:.3e} ({} columns, {} supernodes): {}",
        volatile.len(),
        fs,
        fp,
        split.trailing_flops(),
        split.n() - sn.supernode_begin()[sc],
        sn.n_supernodes() - sc,
        if keep { "kept" } else { "not used" }
    );
    match (keep, other) {
        (false, Some(other)) => Ok(other),
        _ => Ok(split),
    }
}
