//! Krylov solvers with a preconditioner, stopped on the true residual:
//! [`fn@gmres`] for any nonsingular `A`, [`fn@cg`] for symmetric positive
//! definite `A` and `M`; and the node-block Jacobi preconditioner of the
//! iterative path ([`jacobi`]).
//!
//! The operator is `a(x, y)`: `y = A x`; the preconditioner `m(v)`: `v ← M⁻¹ v`
//! in place. Convergence is decided by `‖b − A x‖₂ ≤ rtol ‖b‖₂` recomputed
//! from `x` (not by the recurrence's estimate), so a returned `Ok` is right
//! by an independent residual.

pub(crate) mod cg;
pub(crate) mod gmres;
pub(crate) mod jacobi;
pub(crate) mod params;
pub(crate) mod schur;
pub(crate) mod vector;

pub use cg::cg;
pub use gmres::gmres;
pub use jacobi::BlockJacobi;
pub use params::{KrylovError, KrylovInfo, KrylovParams, KrylovWork};
pub use schur::LocalSchur;
