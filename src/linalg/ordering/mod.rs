//! Fill-reducing orderings of the node graph of a [`crate::linalg::BlockPattern`]:
//! nested dissection ([`metis`]) or approximate minimum degree ([`amd`]) by
//! size ([`nodes`]), postordered ([`postorder`]), and the constraints the
//! contact solver puts on them ([`constraints`]).
//!
//! A permutation is stored as `fwd[new] = old` with its inverse (faer's
//! convention); a node's `D` dofs stay together.

pub(crate) mod amd;
pub(crate) mod constraints;
pub(crate) mod metis;
pub(crate) mod nodes;
pub(crate) mod postorder;

pub use constraints::OrderConstraints;
pub use metis::{nested_dissection, MetisError};
pub use nodes::{node_ordering, FillOrdering, OrderingError, METIS_MIN_NODES};
