//! Bug: in the frictionless ring impact (`validation/ring_impact`, exact
//! enforcement, two passes) ring 2's outer node 575 slid over ring 1's
//! outer vertex 298 and went 1.0e-3 (1.2e-3 h) through ring 1's wall at
//! t = 1.49–1.50, while `max_penetration_h` said 6.7e-11 and the run's own
//! contact saw nothing. At those steps the contact subproblem with both
//! passes stalled and was solved again without the second pass, whose
//! points were then left out of the step altogether: not enforced, not
//! evaluated, not counted in Newton's convergence test. The corner node is
//! held by no first-pass constraint (ring 1's nodes are on either side of
//! it), so it went through.
//!
//! The measure here is independent of the contact code: each step's ring 2
//! boundary nodes against ring 1's walls as polygons (inside the outer
//! polygon and outside the inner one), the depth the distance to the
//! nearest wall segment, against the pair's own tolerance.

use crate::common::fixture::Fixture;
use crate::common::run::model;
use emcontact::driver;
use emcontact::mesh::Mesh;

type P = [f64; 2];

/// The segments of `group` (line2) at positions `x`.
fn segments(mesh: &Mesh, group: &str, x: &[f64]) -> Vec<(P, P)> {
    let at = |a: usize| [x[2 * a], x[2 * a + 1]];
    mesh.group(group)
        .unwrap_or_else(|| panic!("no group {group}"))
        .elements
        .iter()
        .map(|e| (at(e.nodes()[0]), at(e.nodes()[1])))
        .collect()
}

/// Whether `p` is inside the closed polygon of `segs` (crossing count).
fn inside(segs: &[(P, P)], p: P) -> bool {
    segs.iter()
        .filter(|(a, b)| {
            (a[1] > p[1]) != (b[1] > p[1])
                && p[0] < a[0] + (p[1] - a[1]) / (b[1] - a[1]) * (b[0] - a[0])
        })
        .count()
        % 2
        == 1
}

fn distance(segs: &[(P, P)], p: P) -> f64 {
    segs.iter()
        .map(|(a, b)| {
            let t = [b[0] - a[0], b[1] - a[1]];
            let s = (((p[0] - a[0]) * t[0] + (p[1] - a[1]) * t[1]) / (t[0] * t[0] + t[1] * t[1]))
                .clamp(0.0, 1.0);
            let q = [a[0] + s * t[0] - p[0], a[1] + s * t[1] - p[1]];
            (q[0] * q[0] + q[1] * q[1]).sqrt()
        })
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn no_node_of_ring2_goes_through_ring1_when_the_second_pass_stalls() {
    let dir = tempfile::tempdir().unwrap();
    let text = Fixture::file("validation/ring_impact/frictionless.toml")
        .set("time.end", 1.51)
        .text();
    let m = model(dir.path(), &text);
    let (mut stepper, mut s) = driver::setup::<2>(&m).unwrap();
    let pair = &stepper.contacts.pairs()[1];
    assert_eq!(pair.pass(), 2, "the second pass keeps ring 2's nodes out");
    let (tol, _) = pair.tolerances();
    let h = pair.surface().h;
    let ring2: Vec<usize> = ["ring2_outer", "ring2_inner"]
        .iter()
        .flat_map(|g| m.mesh.group_nodes(g).unwrap())
        .collect();
    let mut deepest = (0.0f64, 0usize, 0.0f64);
    while s.t < 1.505 {
        let (s1, _) = stepper.step(&s, m.time.dt).expect("the step converges");
        s = s1;
        let outer = segments(&m.mesh, "ring1_outer", &s.x);
        let inner = segments(&m.mesh, "ring1_inner", &s.x);
        for &a in &ring2 {
            let p = [s.x[2 * a], s.x[2 * a + 1]];
            if inside(&outer, p) && !inside(&inner, p) {
                let depth = distance(&outer, p).min(distance(&inner, p));
                if depth > deepest.0 {
                    deepest = (depth, a, s.t);
                }
            }
        }
    }
    // before the fix: node 575 at 1.0e-3 = 1.2e-3 h, t = 1.50
    assert!(
        deepest.0 <= tol,
        "node {} of ring 2 {:.3e} = {:.2e} h inside ring 1 at t = {} (tolerance {:.1e} h)",
        deepest.1,
        deepest.0,
        deepest.0 / h,
        deepest.2,
        tol / h
    );
}
