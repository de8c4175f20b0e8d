//! The ordering the parallel program hands MUMPS on one rank
//! (`petsc::ordering`): the serial LU's METIS node ordering, each dof at its
//! position in it, a node's dofs kept together.

use emcontact::linalg::{node_ordering, LinearParams};
use emcontact_mpi::petsc::ordering::dof_positions;
use faer::sparse::SymbolicSparseColMat;

/// A path of `nodes` nodes with `bs` dofs each, every dof coupled to
/// every dof of its node and of the neighbouring nodes.
fn path(nodes: usize, bs: usize) -> (Vec<i32>, Vec<i32>) {
    let mut ia = vec![0];
    let mut ja = Vec::new();
    for i in 0..nodes * bs {
        let node = i / bs;
        for other in node.saturating_sub(1)..(node + 2).min(nodes) {
            ja.extend((0..bs).map(|a| (other * bs + a) as i32));
        }
        ia.push(ja.len() as i32);
    }
    (ia, ja)
}

#[test]
fn keeps_a_nodes_dofs_together_in_a_permutation() {
    let (ia, ja) = path(40, 3);
    let p = dof_positions(&ia, &ja, 3).unwrap();
    let mut sorted = p.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..120).collect::<Vec<_>>());
    for node in 0..40 {
        let first = p[node * 3];
        assert_eq!(first % 3, 0, "a node's block starts a block");
        assert_eq!(&p[node * 3..node * 3 + 3], &[first, first + 1, first + 2]);
    }
}

#[test]
fn gives_each_dof_its_position_in_the_serial_order() {
    // MUMPS reads PERM_IN old → new: the inverse of the serial `fwd`
    let (ia, ja) = path(600, 2);
    let p = dof_positions(&ia, &ja, 2).unwrap();
    let (col_ptr, row_idx) = {
        let (ia1, ja1) = path(600, 1);
        let c: Vec<usize> = ia1.iter().map(|&v| v as usize).collect();
        (c, ja1.iter().map(|&v| v as usize).collect::<Vec<_>>())
    };
    let g = SymbolicSparseColMat::new_checked(600, 600, col_ptr, None, row_idx);
    let (fwd, used) = node_ordering(g.as_ref(), LinearParams::default().ordering).unwrap();
    assert_eq!(
        used,
        emcontact::linalg::FillOrdering::Metis,
        "600 nodes: METIS"
    );
    assert!(fwd.iter().enumerate().any(|(new, &old)| new != old));
    for (new, &old) in fwd.iter().enumerate() {
        assert_eq!(p[old * 2], (new * 2) as i32, "node {old}");
        assert_eq!(p[old * 2 + 1], (new * 2 + 1) as i32, "node {old}");
    }
}
