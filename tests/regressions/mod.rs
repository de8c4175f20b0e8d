//! One test file per bug, named after the bug: each reproduces what went wrong and fails
//! if it comes back.

mod augmented_lagrangian_cycles_open_closed;
mod disk_tunnels_through_block;
mod dropped_second_pass_lets_node_through_ring;
mod fclib_triangle_stored_mass;
mod golf_ball_guarded_point_accepted_beyond_its_bound;
mod lifted_point_cycles_a_sliding_first_contact;
mod lifted_second_pass_cycles_with_first_pass;
mod open_persistent_point_sinks_below_its_drift_bound;
mod ring_ledgers;
mod role_changes_counted_as_cycling;
mod saddle_ring_keeps_a_separating_force;
mod second_pass_point_flips_at_a_first_contact;
mod tet10_sphere_settled_inside_a_dented_face;
