//! `emcontact`: implicit energy-momentum conserving elastodynamics with frictional
//! contact (Love & Laursen 2003), and a library of discrete frictional-contact solvers.
//!
//! Sign conventions used throughout (see `docs/conventions.md` and DESIGN §3):
//! gap `g ≥ 0` separated, `g < 0` penetrated; contact pressure `p_N ≥ 0`;
//! per-contact local vectors ordered `[normal, tangent1, tangent2]`.

// Module docs link private items on purpose: they are the map of the code for
// its engineers, who read `cargo doc --document-private-items`, where they resolve.
#![allow(rustdoc::private_intra_doc_links)]

pub mod cli;
pub mod contact;
pub mod curve;
pub mod driver;
pub mod dynamics;
pub mod fe;
pub mod input;
pub mod jump;
pub mod linalg;
pub mod material;
pub mod mesh;
pub mod model;
pub mod nonsmooth;
pub mod output;
