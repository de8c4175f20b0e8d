//! The swept test of `ContactSet::tunnelling` on
//! prescribed motions: a small box (the slave, its bottom surface) moved
//! over, through and beside a base block (the master, its top surface) in 2D
//! (line2 faces) and 3D (quad4 and tri3 faces), and against a rigid plane.
//! The crossing fraction and the end depth are checked against the motion.

use crate::common::fixture::Fixture;
use emcontact::contact::{ContactSet, EvalOptions, Tunnel};
use emcontact::input;
use emcontact::model::Model;

/// A base `[-1, 1]^(d-1) × [-1, 0]` (up = last axis) and a slave box
/// `[lo, hi] × [-0.25, 0.25] × [0.5, 1]` above it; `plane`: the master is the
/// plane `up = 0` instead of the base's top.
pub fn boxes(dim: usize, element: &str, lo: f64, hi: f64, plane: bool) -> Fixture {
    let (f, top_min, top_max, origin, up) = if dim == 2 {
        (
            Fixture::load("box_on_box_2d"),
            vec![lo, 0.5],
            vec![hi, 1.0],
            "[0.0, 0.0]",
            "[0.0, 1.0]",
        )
    } else {
        (
            Fixture::load("box_on_box").set("mesh.generate.0.divisions", vec![4, 4, 1]),
            vec![lo, -0.25, 0.5],
            vec![hi, 0.25, 1.0],
            "[0.0, 0.0, 0.0]",
            "[0.0, 0.0, 1.0]",
        )
    };
    let f = f
        .set("time.dt", 1.0)
        .set("time.end", 1.0)
        .set("mesh.generate.0.element", element)
        .set("mesh.generate.1.element", element)
        .set("mesh.generate.1.min", top_min)
        .set("mesh.generate.1.max", top_max);
    if plane {
        f.remove("contact.0.master").set_toml(
            "contact.0.master_plane",
            &format!("{{ point = {origin}, normal = {up} }}"),
        )
    } else {
        f
    }
}

fn model(dim: usize, element: &str, lo: f64, hi: f64, plane: bool) -> Model {
    let text = boxes(dim, element, lo, hi, plane).text();
    input::parse(&std::env::temp_dir().join("tunnel.toml"), &text).unwrap()
}

/// Node positions with the nodes of `group` moved by `up` along the last axis.
fn moved(m: &Model, x: &[f64], group: &str, up: f64) -> Vec<f64> {
    let d = m.dim;
    let mut x = x.to_vec();
    for a in m.mesh.group_nodes(group).unwrap() {
        x[a * d + d - 1] += up;
    }
    x
}

/// What `ContactSet::tunnelling` finds when the slave box of `m` moves by
/// `up` along the up axis in one step.
fn fall(m: &Model, up: f64) -> Option<Tunnel> {
    let set = ContactSet::new(m, m.dim).unwrap();
    let x0 = positions(m);
    set.tunnelling(&x0, &moved(m, &x0, "top", up))
}

fn positions(m: &Model) -> Vec<f64> {
    m.mesh
        .nodes
        .iter()
        .flat_map(|p| p[..m.dim].to_vec())
        .collect()
}

const KINDS: [(usize, &str); 3] = [(2, "quad4"), (3, "hex8"), (3, "tet4")];

#[test]
fn a_slave_that_passes_through_the_master_is_found() {
    for (dim, element) in KINDS {
        let m = model(dim, element, -0.25, 0.25, false);
        let set = ContactSet::new(&m, dim).unwrap();
        let x0 = positions(&m);
        // the slave's bottom (at 0.5) ends 2.5 below the base's top: it
        // crosses at 0.5/3 of the step
        let t = set
            .tunnelling(&x0, &moved(&m, &x0, "top", -3.0))
            .unwrap_or_else(|| panic!("{element}: not found"));
        assert_eq!(t.pair, 0);
        assert_eq!(
            t.slave,
            format!("top_{}min", if dim == 2 { "y" } else { "z" })
        );
        assert!(t.master.contains("base_"), "{}", t.master);
        assert!(m.mesh.group_nodes(&t.slave).unwrap().contains(&t.node));
        assert!((t.at - 0.5 / 3.0).abs() < 1e-12, "{element}: at {}", t.at);
        assert!(
            (t.depth - 2.5).abs() < 1e-12,
            "{element}: depth {}",
            t.depth
        );
        let msg = t.to_string();
        assert!(
            msg.contains(&format!("slave node {}", t.node)) && msg.contains(&t.slave),
            "{msg}"
        );
    }
}

#[test]
fn a_slave_that_stops_in_front_or_within_the_drift_bound_is_not_tunnelling() {
    for (dim, element) in KINDS {
        let m = model(dim, element, -0.25, 0.25, false);
        assert_eq!(fall(&m, -0.4), None, "{element}");
        let set = ContactSet::new(&m, dim).unwrap();
        let x0 = positions(&m);
        // ends behind the face by less than the drift bound (half the
        // contact tolerance)
        let (h, bound) = (set.pairs()[0].surface().h, set.pairs()[0].tolerances().1);
        let x1 = moved(&m, &x0, "top", -0.5 - 0.5 * bound);
        assert_eq!(set.tunnelling(&x0, &x1), None, "{element}");
        // … and by more: found (the contact stage would have made it active)
        let x1 = moved(&m, &x0, "top", -0.5 - 1e-2 * h);
        let t = set.tunnelling(&x0, &x1).expect("found");
        assert!(
            (t.depth - 1e-2 * h).abs() < 1e-12,
            "{element}: depth {}",
            t.depth
        );
    }
}

#[test]
fn paths_beside_the_rim_or_along_it_are_not_tunnelling() {
    for (dim, element) in KINDS {
        // entirely beside the base (x in [1.25, 1.75])
        let m = model(dim, element, 1.25, 1.75, false);
        assert_eq!(fall(&m, -3.0), None, "{element}");
        // the box's left nodes at x = 1 slide down the base's side, exactly
        // past its rim: beside the surface, not through it
        let m = model(dim, element, 1.0, 1.5, false);
        assert_eq!(fall(&m, -3.0), None, "{element}");
        // half over the base: found
        let m = model(dim, element, 0.75, 1.25, false);
        assert!(fall(&m, -3.0).is_some(), "{element}");
    }
}

#[test]
fn the_test_follows_the_master_motion() {
    for (dim, element) in KINDS {
        let m = model(dim, element, -0.25, 0.25, false);
        let set = ContactSet::new(&m, dim).unwrap();
        let x0 = positions(&m);
        // both fall by 3: no relative motion, no crossing
        let x1 = moved(&m, &moved(&m, &x0, "top", -3.0), "base", -3.0);
        assert_eq!(set.tunnelling(&x0, &x1), None, "{element}");
        // head-on, 1 up and 1 down: the gap of 0.5 closes at a quarter of the step
        let x1 = moved(&m, &moved(&m, &x0, "top", -1.0), "base", 1.0);
        let t = set.tunnelling(&x0, &x1).expect("found");
        assert!((t.at - 0.25).abs() < 1e-12, "{element}: at {}", t.at);
        assert!(
            (t.depth - 1.5).abs() < 1e-12,
            "{element}: depth {}",
            t.depth
        );
    }
}

#[test]
fn a_warped_master_face_is_crossed_and_touched_correctly() {
    let m = model(3, "hex8", -0.25, 0.25, false);
    let set = ContactSet::new(&m, 3).unwrap();
    let h = set.pairs()[0].surface().h;
    let x0 = positions(&m);
    // warp the base's top at t_{n+1}: alternate its nodes by ±1e-3 h
    let mut x1 = x0.clone();
    for (i, a) in m
        .mesh
        .group_nodes("base_zmax")
        .unwrap()
        .into_iter()
        .enumerate()
    {
        x1[a * 3 + 2] += if i % 2 == 0 { 1e-3 * h } else { -1e-3 * h };
    }
    assert!(set.tunnelling(&x0, &moved(&m, &x1, "top", -3.0)).is_some());
    // the top's bottom ends on the warped surface (z = 0). The base's nodes
    // raised by 1e-3 h are then inside the top's flat bottom, deeper than
    // the drift bound (5e-11 h): the second pass (the base's nodes against
    // the top's bottom, enforced by default) finds one of them
    let x_end = moved(&m, &x1, "top", -0.5);
    let t = set.tunnelling(&x0, &x_end).expect("second pass");
    assert_eq!((t.pair, t.pass, t.slave.as_str()), (0, 2, "base_zmax"));
    assert!((t.depth - 1e-3 * h).abs() < 1e-12, "depth {}", t.depth);
    assert!(
        t.to_string().starts_with("contact[0] pass 2: slave node"),
        "{t}"
    );
    // a measuring second pass (passes = 1) is not tested, and the first
    // pass's slaves ending on the warped surface are not tunnelling
    let mut one_pass = m.clone();
    one_pass.contacts[0].passes = 1;
    let set = ContactSet::new(&one_pass, 3).unwrap();
    assert!(set.pairs()[1].pass() == 2 && !set.pairs()[1].enforced());
    assert_eq!(set.tunnelling(&x0, &x_end), None);
}

#[test]
fn points_in_contact_are_left_to_the_contact_stage() {
    let m = model(2, "quad4", -0.25, 0.25, false);
    let mut set = ContactSet::new(&m, 2).unwrap();
    let x0 = positions(&m);
    let x1 = moved(&m, &x0, "top", -3.0);
    // both passes: the base's nodes also pass through the top's bottom
    let mut memory = set.memory();
    for (_, points) in &mut memory {
        points.iter_mut().for_each(|p| p.in_contact = true);
    }
    set.restore_memory(&memory).unwrap();
    assert_eq!(set.tunnelling(&x0, &x1), None);
    // … and so are points the contact stage evaluated at the end of the
    // step (it found them a face and decided: active, or open beside the
    // rim, or left out of a degenerate exact subproblem); here a quarter
    // face size through, where the narrow phase projects every slave
    let mut set = ContactSet::new(&m, 2).unwrap();
    let h = set.pairs()[0].surface().h;
    let x1 = moved(&m, &x0, "top", -0.5 - 0.25 * h);
    assert!(set.tunnelling(&x0, &x1).is_some());
    let mut f = vec![0.0; x1.len()];
    let options = EvalOptions {
        hold_faces: false,
        geometric: true,
    };
    set.evaluate::<2>(&x0, &x1, 0.1, options, &mut f, None)
        .unwrap();
    assert_eq!(set.tunnelling(&x0, &x1), None);
}

#[test]
fn a_slave_behind_a_rigid_plane_at_the_end_of_the_step_is_found() {
    for (dim, element) in KINDS {
        let m = model(dim, element, -0.25, 0.25, true);
        let set = ContactSet::new(&m, dim).unwrap();
        let x0 = positions(&m);
        let t = set
            .tunnelling(&x0, &moved(&m, &x0, "top", -3.0))
            .expect("found");
        assert_eq!((t.face, t.master.as_str()), (None, "the rigid plane"));
        assert!((t.at - 0.5 / 3.0).abs() < 1e-12 && (t.depth - 2.5).abs() < 1e-12);
        assert_eq!(set.tunnelling(&x0, &moved(&m, &x0, "top", -0.4)), None);
        // the plane is unbounded: beside the base is still behind it
        let m = model(dim, element, 1.25, 1.75, true);
        assert!(fall(&m, -3.0).is_some());
    }
}
