//! The unclamped projection agrees with the closest-point projection wherever
//! the latter is interior, for every face kind (it is used for the contact
//! tangent at points on shared edges).

use emcontact::contact::geometry::{project, project_unclamped, Location};
use emcontact::fe::ElementKind;
use rand::{Rng, SeedableRng};

#[test]
fn agrees_with_project_at_interior_points() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(3);
    let mut checked = 0;
    for kind in [ElementKind::Line2, ElementKind::Tri3, ElementKind::Quad4] {
        for _ in 0..2000 {
            let base: [[f64; 3]; 4] = match kind {
                ElementKind::Line2 => [[0.0, 0.0, 0.0], [1.0, 0.2, 0.0], [0.0; 3], [0.0; 3]],
                ElementKind::Tri3 => [[0.0, 0.0, 0.0], [1.0, 0.0, 0.1], [0.0, 1.0, -0.1], [0.0; 3]],
                _ => [
                    [0.0, 0.0, 0.0],
                    [1.0, 0.0, 0.1],
                    [1.1, 1.0, -0.1],
                    [0.0, 0.9, 0.05],
                ],
            };
            let n = kind.n_nodes();
            let mut xf = [[0.0; 3]; 4];
            for a in 0..n {
                for i in 0..3 {
                    xf[a][i] = base[a][i]
                        + if kind == ElementKind::Line2 && i == 2 {
                            0.0
                        } else {
                            rng.gen_range(-0.05..0.05)
                        };
                }
            }
            let mut xs = [
                rng.gen_range(-0.2..1.2),
                rng.gen_range(-0.2..1.2),
                rng.gen_range(-0.3..0.3),
            ];
            if kind == ElementKind::Line2 {
                xs[2] = 0.0;
            }
            let p = project(kind, &xf[..n], xs);
            if p.location != Location::Interior {
                continue;
            }
            let start = [p.xi[0] + 0.01, p.xi[1] - 0.01];
            let start = if kind == ElementKind::Line2 {
                [start[0], 0.0]
            } else {
                start
            };
            let u = project_unclamped(kind, &xf[..n], xs, start);
            for a in 0..2 {
                assert!(
                    (u.xi[a] - p.xi[a]).abs() < 1e-10,
                    "{kind:?}: xi {:?} vs {:?}",
                    u.xi,
                    p.xi
                );
            }
            assert!((u.distance - p.distance).abs() < 1e-12);
            checked += 1;
        }
    }
    assert!(checked > 1000, "{checked}");
}
