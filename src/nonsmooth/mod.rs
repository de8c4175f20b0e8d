//! Discrete frictional-contact problems `u = W r + q`, `K* ∋ u + μ‖u_T‖e_N ⊥ r ∈ K`
//! and their solvers (DESIGN §8). Per contact, local vectors are ordered
//! `[normal, tangent1, tangent2]`; `r_N ≥ 0` is the normal reaction, `u_N ≥ 0`
//! the normal relative velocity (separating).

pub mod local;
