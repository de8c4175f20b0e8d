//! The exact contact tangent (dual-number linearization of the point force,
//! `contact::point::linearize`) against the central difference of the same
//! force (`linearize_fd`, the old tangent), for every case: 2D segments, 3D
//! quad4 and tri3 faces, the rigid plane; interior, edge and vertex
//! projections; fixed multipliers (the geometric stiffness) and the penalty
//! law in its normal, stick and slip branches. Both the force Jacobian
//! `∂f/∂x_{n+1}` and the velocity Jacobian `B = ∂u/∂x_{n+1}` must agree to
//! 1e-7 relative.

use crate::common::fixture::Fixture;
use emcontact::contact::law::Constraint;
use emcontact::contact::point::{linearize, linearize_fd, ForceLaw, Linear, PointSetup, MAX_DOFS};
use emcontact::contact::ContactSet;
use emcontact::input;
use std::path::Path;

/// Two boxes: a slave block above a master block (3D: `element` hex8 or
/// tet4 faces quad4 / tri3; 2D: quad4, faces line2), neo-Hookean, μ = 0.4,
/// the slave's bottom against the master's top and against the plane
/// through the master's lowest corner.
fn boxes(dim: usize, element: &str) -> String {
    let (f, base, top, plane) = if dim == 3 {
        (
            Fixture::load("box_on_box"),
            ([0.0, 0.0, 0.0], [2.0, 2.0, 1.0], vec![2, 2, 1]),
            ([0.5, 0.5, 1.0], [1.5, 1.5, 2.0]),
            "{ point = [0.0, 0.0, 0.0], normal = [0.0, 0.0, 1.0] }",
        )
    } else {
        (
            Fixture::load("box_on_box_2d"),
            ([0.0, 0.0, 0.0], [2.0, 1.0, 0.0], vec![2, 1]),
            ([0.5, 1.0, 0.0], [1.5, 2.0, 0.0]),
            "{ point = [0.0, 0.0], normal = [0.0, 1.0] }",
        )
    };
    let element = if dim == 3 { element } else { "quad4" };
    let mut f = f
        .set("time.dt", 0.1)
        .set("time.end", 0.1)
        .set("contact.0.friction", 0.4)
        .merge(&format!(
            "[[contact]]\nslave = {:?}\nfriction = 0.4\nmaster_plane = {plane}",
            if dim == 3 { "top_zmin" } else { "top_ymin" }
        ));
    for (g, (min, max)) in [(base.0, base.1), (top.0, top.1)].into_iter().enumerate() {
        f = f
            .set(&format!("mesh.generate.{g}.min"), min[..dim].to_vec())
            .set(&format!("mesh.generate.{g}.max"), max[..dim].to_vec())
            .set(&format!("mesh.generate.{g}.divisions"), base.2.clone())
            .set(&format!("mesh.generate.{g}.element"), element)
            .set(&format!("body.{g}.material.model"), "neo-hookean");
    }
    f.text()
}

fn rel_diff(a: &[[f64; MAX_DOFS]], b: &[[f64; MAX_DOFS]]) -> f64 {
    let (mut d, mut s) = (0.0f64, 0.0f64);
    for (ra, rb) in a.iter().zip(b) {
        for (x, y) in ra.iter().zip(rb) {
            d = d.max((x - y).abs());
            s = s.max(x.abs());
        }
    }
    d / s.max(1e-300)
}

/// Moves the slave body rigidly by `shift` between `t_n` and `t_{n+1}` from
/// a start `offset`, then compares the two tangents of slave node `k` of
/// pair `pair` for each law; returns the worst relative difference.
fn compare<const D: usize>(
    text: &str,
    pair: usize,
    pick: impl Fn(&[f64; 3]) -> bool,
    offset: [f64; 3],
    shift: [f64; 3],
    laws: &[(ForceLaw, Constraint)],
) -> f64 {
    let model = input::parse(Path::new("t.toml"), text).expect("valid input");
    let mut set = ContactSet::new(&model, D).expect("pairs");
    let n_nodes = model.mesh.nodes.len();
    let top: Vec<bool> = {
        let g = model.mesh.group("top").unwrap();
        let mut on = vec![false; n_nodes];
        g.elements
            .iter()
            .flat_map(|e| e.nodes())
            .for_each(|&a| on[a] = true);
        on
    };
    let mut x0 = vec![0.0; n_nodes * D];
    let mut x1 = vec![0.0; n_nodes * D];
    for a in 0..n_nodes {
        for i in 0..D {
            let p = model.mesh.nodes[a][i];
            x0[a * D + i] = p + if top[a] { offset[i] } else { 0.0 };
            // the master deforms a little too, so that its nodes move
            x1[a * D + i] = x0[a * D + i]
                + if top[a] {
                    shift[i]
                } else {
                    1e-3 * (p * (i as f64 + 1.3)).sin()
                };
        }
    }
    // the first pass of the `pair`-th [[contact]]
    let i = set
        .pairs()
        .iter()
        .position(|p| p.input() == pair && p.pass() == 1)
        .expect("the pair");
    let p = set.pair_mut(i);
    p.detect(&x1);
    let k = p
        .surface()
        .slaves
        .iter()
        .position(|&a| pick(&model.mesh.nodes[a]))
        .expect("a slave node at the picked place");
    let face = p.narrow().held[k];
    let mut nodes = [0usize; 5];
    let n = p.surface().element_nodes(k, face, &mut nodes);
    let gather = |x: &[f64]| -> Vec<[f64; 3]> {
        (0..n)
            .map(|a| {
                let mut q = [0.0; 3];
                q[..D].copy_from_slice(&x[nodes[a] * D..nodes[a] * D + D]);
                q
            })
            .collect()
    };
    let (l0, l1) = (gather(&x0), gather(&x1));
    let mut worst = 0.0f64;
    for &(law, constraint) in laws {
        let setup = PointSetup {
            surface: p.surface(),
            narrow: p.narrow(),
            face,
            constraint,
            dt: 0.1,
        };
        let (mut exact, mut fd) = (Linear::default(), Linear::default());
        linearize::<D>(&setup, &l0, &l1, law, &mut exact).expect("kinematics");
        linearize_fd::<D>(&setup, &l0, &l1, law, &mut fd).expect("kinematics");
        let dk = rel_diff(&exact.k, &fd.k);
        let db = rel_diff(&exact.b, &fd.b);
        assert!(
            exact.k.iter().flatten().any(|v| *v != 0.0),
            "a zero tangent compares trivially ({law:?}, g1 {}, u {:?}, r {:?})",
            exact.g1,
            exact.u,
            exact.r
        );
        assert!(
            dk <= 1e-7 && db <= 1e-7,
            "{law:?} {constraint:?}: ∂f/∂x differs by {dk:.2e}, ∂u/∂x by {db:.2e} (face {face:?})"
        );
        worst = worst.max(dk).max(db);
    }
    worst
}

/// The laws checked at each place: fixed multipliers (normal only, and with
/// a tangential force), and the penalty law pressing hard enough for stick
/// (μ large) and for slip (μ small), on the gap and on the rate.
fn laws() -> Vec<(ForceLaw, Constraint)> {
    let pen = |mu| ForceLaw::Penalty {
        rho_n: 50.0,
        rho_t: 40.0,
        mu,
    };
    vec![
        (ForceLaw::Given([2.0, 0.0, 0.0]), Constraint::Gap),
        (ForceLaw::Given([2.0, 0.3, -0.5]), Constraint::Rate),
        (pen(0.0), Constraint::Gap),
        (pen(100.0), Constraint::Rate),
        (pen(0.05), Constraint::Rate),
        (pen(0.05), Constraint::Guarded { bound: 1e-3 }),
    ]
}

/// Fixed multipliers only: beyond the rim of the master surface a pressed
/// slave is beside it (open), so the penalty law is inactive there, while
/// the geometry (ν = ±s/|s| at edges and vertices) is what is checked.
fn given_laws() -> Vec<(ForceLaw, Constraint)> {
    laws()
        .into_iter()
        .filter(|(l, _)| matches!(l, ForceLaw::Given(_)))
        .collect()
}

const STEP: [f64; 3] = [0.031, -0.017, -0.012];
const STEP_2D: [f64; 3] = [0.031, -0.012, 0.0];

/// The slave node at `(x, y)` in the plane of the contact.
fn at(x: f64, y: f64) -> impl Fn(&[f64; 3]) -> bool + Copy {
    move |p: &[f64; 3]| (p[0] - x).abs() < 1e-9 && (p[1] - y).abs() < 1e-9
}

/// Compares the tangents of `boxes(3, element)` at each case: the slave
/// node at `(x, y)`, the slave block's start offset, the laws.
fn compare_3d(element: &str, cases: &[((f64, f64), [f64; 3], Vec<(ForceLaw, Constraint)>)]) {
    let text = boxes(3, element);
    for ((x, y), offset, laws) in cases {
        compare::<3>(&text, 0, at(*x, *y), *offset, STEP, laws);
    }
}

#[test]
fn quad4_faces_interior_edge_and_vertex() {
    compare_3d(
        "hex8",
        &[
            // interior: a slave node over the middle of a base face, penetrating
            ((1.0, 1.0), [0.13, 0.07, 0.003], laws()),
            // edge: the block moved beyond the base's x = 2 rim, a node above it
            ((1.5, 1.0), [0.7, 0.07, 0.02], given_laws()),
            // vertex: beyond the corner (2, 2)
            ((1.5, 1.5), [0.7, 0.8, 0.02], given_laws()),
        ],
    );
}

#[test]
fn tri3_faces() {
    compare_3d(
        "tet4",
        &[
            ((1.0, 1.0), [0.13, 0.21, 0.003], laws()),
            ((1.5, 1.5), [0.7, 0.8, 0.02], given_laws()),
        ],
    );
}

#[test]
fn line2_segments_interior_and_vertex() {
    let text = boxes(2, "quad4");
    let at = |x: f64| move |p: &[f64; 3]| (p[0] - x).abs() < 1e-9;
    compare::<2>(&text, 0, at(1.0), [0.13, 0.003, 0.0], STEP_2D, &laws());
    compare::<2>(&text, 0, at(1.5), [0.7, 0.02, 0.0], STEP_2D, &given_laws());
}

#[test]
fn rigid_plane_in_2d_and_3d() {
    // the plane's operators are constant: only the penalty law has a tangent
    let penalty: Vec<_> = laws()
        .into_iter()
        .filter(|(l, _)| matches!(l, ForceLaw::Penalty { .. }))
        .collect();
    compare::<3>(
        &boxes(3, "hex8"),
        1,
        at(1.0, 1.0),
        [0.0, 0.0, -1.003],
        STEP,
        &penalty,
    );
    let at2 = |p: &[f64; 3]| (p[0] - 1.0).abs() < 1e-9;
    compare::<2>(
        &boxes(2, "quad4"),
        1,
        at2,
        [0.0, -1.003, 0.0],
        STEP_2D,
        &penalty,
    );
}
