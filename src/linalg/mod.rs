//! Sparse patterns, parallel assembly into faer matrices, factorization reuse.
//!
//! Matrices are stored CSC with `D×D` node blocks: the pattern is built once from
//! the node lists of the elements (and, later, of contact couplings), the symbolic
//! LU analysis is computed once per pattern and reused for every numeric
//! factorization. Elements are coloured so that no two elements of one colour
//! share a node; each colour is then assembled in parallel without locks.

mod color;
mod lu;
mod ordering;
mod pattern;

pub use color::color_elements;
pub use lu::{LinearSolveError, LuInfo, LuOrdering, LuParams, SparseLu, COARSE_SUPERNODES};
pub use pattern::BlockPattern;
