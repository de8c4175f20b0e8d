//! Sparse patterns, parallel assembly into faer matrices, factorization reuse.
