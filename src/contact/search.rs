//! Broad phase: candidate master faces for each slave node (placeholder, filled next).
