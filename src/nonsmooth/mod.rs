//! Discrete frictional-contact problems `u = W r + q`, `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K`
//! and their solvers (DESIGN §8). Per contact, local vectors are ordered
//! `[normal, tangent1, tangent2]`; `r_N ≥ 0` is the normal reaction, `u_N ≥ 0`
//! the normal relative velocity (separating).
//!
//! * [`problem`] — the reduced (FCLIB "local") and general (FCLIB "global") problems,
//!   condensation `W = Hᵀ M⁻¹ H`;
//! * [`local`] — one-contact solvers;
//! * [`global`] — NSGS, semismooth Newton, hybrid, global Newton, and the registry;
//! * [`error`] — the FCLIB error `‖F_nat(r)‖/‖q‖` and Dumont's criterion;
//! * [`fclib`] — FCLIB HDF5 input/output;
//! * [`profile`] — Dolan–Moré performance profiles;
//! * [`cli`] — the `fc` subcommands.

pub mod cli;
pub mod error;
pub mod fclib;
pub mod global;
pub mod local;
pub mod problem;
pub mod profile;
