//! Broad phase: candidate master faces for each slave node.
//! (interface fixed by the skeleton; the geometry owner fills the bodies).
