//! The linear algebra of the implicit stepper, in layers (each uses only
//! those above it):
//!
//! * [`pattern`]: the block CSC pattern of a nodal system, and [`color`]:
//!   the element colouring that assembles into it in parallel without locks;
//! * [`ordering`]: fill-reducing orderings of the node graph (METIS nested
//!   dissection, AMD) and the constraints the contact solver puts on them;
//! * [`lu`]: the supernodal LU of a matrix with a symmetric pattern
//!   (symbolic analysis, numeric factorization on parallel subtrees, the
//!   trailing block, solves), faer's LU as its fallback, and [`ldlt`] for
//!   symmetric matrices;
//! * [`operator`] and [`krylov`]: the matrix as an operator, GMRES and CG
//!   stopped on the true residual, the block-Jacobi preconditioner;
//! * [`solver`]: the policy, [`LinearSolver`]: direct or iterative, when to
//!   reuse old factors, when to order the contact nodes last, chord
//!   iterations, and the residual every solve is checked against.
//!
//! Matrices are stored CSC with `D×D` node blocks: the pattern is built
//! once from the node lists of the elements and contact couplings, the
//! symbolic analysis is computed once per pattern and reused for every
//! numeric factorization.

pub mod color;
pub mod error;
pub mod krylov;
pub mod ldlt;
pub mod lu;
pub mod operator;
pub mod ordering;
pub mod pattern;
pub mod solver;

pub use color::{color_elements, share_no_node};
pub use error::LinearSolveError;
pub use krylov::{
    cg, gmres, BlockJacobi, KrylovError, KrylovInfo, KrylovParams, KrylovWork, LocalSchur,
};
pub use ldlt::SparseLdlt;
pub use lu::error::LuError;
pub use lu::estimate::estimate;
pub use lu::fallback::SparseLu;
pub use lu::params::{LuInfo, LuParams};
pub use lu::symbolic::{FactorSize, SymbolicError, SymbolicFactor};
pub use lu::SupernodalLu;
pub use operator::Operator;
pub use ordering::{
    nested_dissection, node_ordering, FillOrdering, MetisError, OrderConstraints, OrderingError,
    METIS_MIN_NODES,
};
pub use pattern::BlockPattern;
pub use solver::info::{LinearStats, SolveInfo};
pub use solver::params::{LinearMethod, LinearParams};
pub use solver::plan::{
    available_memory, memory_limit, memory_limit_setting, plan, plan_with_memory, LinearPlan,
    MEMORY_LIMIT_VAR,
};
pub use solver::LinearSolver;

#[cfg(test)]
mod test_matrices;
