//! Sparse patterns, parallel assembly into faer matrices, factorization reuse.
//!
//! Matrices are stored CSC with `D×D` node blocks: the pattern is built once from
//! the node lists of the elements (and, later, of contact couplings), the symbolic
//! LU analysis is computed once per pattern and reused for every numeric
//! factorization. Elements are coloured so that no two elements of one colour
//! share a node; each colour is then assembled in parallel without locks.

mod color;
mod error;
mod krylov;
mod ldlt;
mod lu;
mod metis;
mod operator;
mod ordering;
mod pattern;
mod plan;
mod solver;
mod solver_types;
mod subtrees;
mod supernodal_lu;
mod supernodal_part;
mod symbolic;

pub use color::{color_elements, share_no_node};
pub use error::LinearSolveError;
pub use krylov::{bicgstab, cg, gmres, KrylovError, KrylovInfo, KrylovParams, KrylovWork};
pub use ldlt::SparseLdlt;
pub use lu::{LuInfo, LuOrdering, LuParams, SparseLu, COARSE_SUPERNODES};
pub use metis::{nested_dissection, MetisError};
pub use operator::{BlockJacobi, Operator};
pub use pattern::BlockPattern;
pub use plan::{available_memory, plan, plan_with_memory, LinearMethod, LinearPlan};
pub use solver::LinearSolver;
pub use solver_types::{Factorization, LinearParams, LinearStats, SolveInfo};
pub use supernodal_lu::{SupernodalLu, ZeroPivot};
pub use symbolic::{
    estimate, node_ordering, FactorSize, FillOrdering, SymbolicError, SymbolicFactor,
    METIS_MIN_NODES,
};

#[cfg(test)]
mod solver_tests;
#[cfg(test)]
mod test_matrices;
