//! Bug: with augmented-Lagrangian enforcement the ring impact (μ = 0.5, two
//! passes) was cut back down to the smallest step at t = 1.27. Its one
//! Alart–Curnier step per Newton iteration cycled a point between open and in
//! contact; after a point's first switch within a step the subproblem is now
//! solved fully. The run completes with no cut-back allowed, and its answer
//! keeps the ledger of exact enforcement.

use super::ring_ledgers::assert_ring_keeps_its_ledgers;
use crate::common::fixture::Fixture;

#[test]
fn augmented_lagrangian_ring_impact_needs_no_cut_back() {
    assert_ring_keeps_its_ledgers(
        "ring, augmented Lagrangian",
        Fixture::file("validation/ring_impact/velocity_update.toml")
            .set("time.end", 1.5)
            .set("contact.0.enforcement", "augmented-lagrangian"),
    );
}
