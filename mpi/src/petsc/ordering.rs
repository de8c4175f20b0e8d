//! The serial build's fill-reducing ordering as a PETSc matrix ordering
//! ([`NODE_ORDERING`]), for MUMPS on one rank.
//!
//! MUMPS orders the matrix itself unless it is given an order
//! (`ICNTL(7) = 1`, `PERM_IN`). Debian's MUMPS has PORD but neither METIS
//! nor Scotch in its sequential analysis, and PORD's order costs 1.34× the
//! elimination work of the serial build's METIS nested dissection on the
//! 58k-dof free flight (docs/parallel.md). PETSc 3.18 gives MUMPS the PC's
//! ordering (`PCFactorSetMatOrderingType`) as `PERM_IN` when the matrix is
//! centralized, that is on one rank; on several ranks MUMPS analyses the
//! distributed matrix itself and ignores it.
//!
//! The ordering is computed here from the matrix handed over: its pattern
//! (`A + Aᵀ`) compressed to the node graph (a node is a block of the
//! matrix's block size, the dimension), ordered by
//! [`emcontact::linalg::node_ordering`] with the serial LU's default
//! ([`emcontact::linalg::LinearParams`]: METIS nested dissection from 500
//! nodes, postordered), each node's dofs kept together.
//!
//! PETSc's own factorizations read an ordering as `new → old` (row `k` of
//! the factor is row `perm[k]` of the matrix), but PETSc 3.18 copies it
//! unchanged into MUMPS's `PERM_IN`, which MUMPS reads as `old → new` (the
//! position of variable `i` in the pivot order; MUMPS 5.5 users' guide,
//! `PERM_IN`). This ordering is for MUMPS: it returns `old → new`.

use super::sys;
use emcontact::linalg::{node_ordering, LinearParams};
use faer::sparse::SymbolicSparseColMat;
use std::ffi::CString;

/// The name the ordering is registered under (`-pc_factor_mat_ordering_type`).
pub const NODE_ORDERING: &str = "emcontact_nodes";

/// Registers [`NODE_ORDERING`] with PETSc (once per process; again is harmless).
pub fn register() -> Result<(), super::PetscError> {
    let name = CString::new(NODE_ORDERING).expect("no NUL");
    // SAFETY: PETSc copies the name; the function lives for the whole run.
    super::petsc!(MatOrderingRegister(name.as_ptr(), Some(node_ordering_of)))
}

/// PETSc's error code for a failure in a library PETSc called.
const PETSC_ERR_LIB: sys::PetscErrorCode = 76;

/// The `MatOrderingRegister` callback: both permutations `old → new` (see
/// the module's comment), as sequential index sets.
unsafe extern "C" fn node_ordering_of(
    mat: sys::Mat,
    _kind: sys::MatOrderingType,
    row: *mut sys::IS,
    col: *mut sys::IS,
) -> sys::PetscErrorCode {
    // a panic must not unwind into C
    let result = std::panic::catch_unwind(|| {
        // SAFETY: PETSc hands an assembled matrix and two IS pointers to fill.
        unsafe { order(mat, row, col) }
    });
    let message = match result {
        Ok(Ok(())) => return 0,
        Ok(Err(e)) => e,
        Err(_) => "a panic while ordering the matrix".to_string(),
    };
    *super::LAST_ERROR.lock().unwrap_or_else(|e| e.into_inner()) =
        Some(format!("{message} (in {NODE_ORDERING})"));
    PETSC_ERR_LIB
}

/// Orders `mat` and sets `row` and `col` to the permutation.
unsafe fn order(mat: sys::Mat, row: *mut sys::IS, col: *mut sys::IS) -> Result<(), String> {
    let text = |e: super::PetscError| e.to_string();
    let mut bs: sys::PetscInt = 1;
    super::petsc!(MatGetBlockSize(mat, &mut bs)).map_err(text)?;
    // the pattern of A + Aᵀ (symmetric: 1), rows from 0, one row per dof
    // (not compressed: 0)
    let (shift, symmetric, compressed) = (0, 1, 0);
    let mut n: sys::PetscInt = 0;
    let mut ia: *const sys::PetscInt = std::ptr::null();
    let mut ja: *const sys::PetscInt = std::ptr::null();
    let mut done: sys::PetscBool = 0;
    super::petsc!(MatGetRowIJ(
        mat, shift, symmetric, compressed, &mut n, &mut ia, &mut ja, &mut done
    ))
    .map_err(text)?;
    if done == 0 {
        return Err("the matrix gives no row structure".into());
    }
    let positions = {
        let rows = n as usize;
        // SAFETY: ia has rows + 1 entries, ja ia[rows], both PETSc's until
        // restored below.
        let ia = unsafe { std::slice::from_raw_parts(ia, rows + 1) };
        let ja = unsafe { std::slice::from_raw_parts(ja, ia[rows] as usize) };
        let whole_nodes = bs > 0 && rows % bs as usize == 0;
        dof_positions(ia, ja, if whole_nodes { bs as usize } else { 1 })
    };
    super::petsc!(MatRestoreRowIJ(
        mat, shift, symmetric, compressed, &mut n, &mut ia, &mut ja, &mut done
    ))
    .map_err(text)?;
    let positions = positions?;
    // SAFETY: the matrix's communicator, an array PETSc copies, two outputs.
    let comm = unsafe { sys::PetscObjectComm(mat as sys::PetscObject) };
    for is in [row, col] {
        super::petsc!(ISCreateGeneral(
            comm,
            positions.len() as sys::PetscInt,
            positions.as_ptr(),
            sys::PetscCopyMode::PETSC_COPY_VALUES,
            is
        ))
        .map_err(text)?;
    }
    Ok(())
}

/// The position of each dof in the elimination order (`old → new`) of the
/// node graph of the scalar pattern `ia`, `ja` (CSR, symmetric) with `bs`
/// dofs per node.
pub fn dof_positions(ia: &[i32], ja: &[i32], bs: usize) -> Result<Vec<i32>, String> {
    let n = ia.len() - 1;
    let nodes = n / bs;
    // node graph: a node's neighbours are the nodes of its dofs' columns
    let mut col_ptr = Vec::with_capacity(nodes + 1);
    let mut row_idx = Vec::with_capacity(ja.len() / (bs * bs).max(1) + nodes);
    let mut mark = vec![usize::MAX; nodes];
    col_ptr.push(0);
    for node in 0..nodes {
        let start = row_idx.len();
        mark[node] = node;
        row_idx.push(node);
        for &j in &ja[ia[node * bs] as usize..ia[(node + 1) * bs] as usize] {
            let other = j as usize / bs;
            if mark[other] != node {
                mark[other] = node;
                row_idx.push(other);
            }
        }
        row_idx[start..].sort_unstable();
        col_ptr.push(row_idx.len());
    }
    let g = SymbolicSparseColMat::new_checked(nodes, nodes, col_ptr, None, row_idx);
    let (fwd, _) =
        node_ordering(g.as_ref(), LinearParams::default().ordering).map_err(|e| e.to_string())?;
    let mut positions = vec![0i32; n];
    for (new, &old) in fwd.iter().enumerate() {
        for a in 0..bs {
            positions[old * bs + a] = (new * bs + a) as i32;
        }
    }
    Ok(positions)
}
