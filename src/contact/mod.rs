//! Node-to-segment frictional contact (Love & Laursen 2003; DESIGN §5–§7).
//!
//! Sign conventions: gap `g ≥ 0` separated, `g < 0` penetrated; the normal `ν`
//! is the master surface's outward unit normal (pointing toward the slave side);
//! contact pressure `p_N ≥ 0`; `v_N < 0` while approaching.

pub mod geometry;
pub mod law;
pub mod pair;
pub mod search;
pub mod update;
