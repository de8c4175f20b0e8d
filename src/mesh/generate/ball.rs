//! 3D ball of hex8 (cubed-sphere O-grid), e.g. the golf ball of Love & Laursen
//! (2003) §4.3.
use super::round::disk_layers;
use super::{group, invalid, lerp};
use crate::fe::ElementKind;
use crate::mesh::{Element, Mesh, MeshError};

/// 3D ball of hex8: a cube core of half-width `0.4·radius` with `divisions³`
/// hexes, and a shell joining each node on the cube's surface by a straight
/// line to its point on the sphere in the equiangular cubed-sphere map (cube
/// coordinates `u ∈ [−1, 1]` sent to directions `tan(π u / 4)`, so the
/// `divisions` surface elements along a cube edge subtend equal angles; Ronchi,
/// Iacono & Paolucci, J. Comput. Phys. 124 (1996) 93–114), split
/// into `max(1, ⌊(2·divisions + 2)/5⌋)` layers. `divisions`
/// elements span a quarter great circle. Surface `<name>_outer` (quad4,
/// outward). The volume converges to `4/3 π r³` at second order in
/// `1/divisions` (bilinear faces on the sphere).
pub fn ball(
    name: &str,
    center: [f64; 3],
    radius: f64,
    divisions: usize,
) -> Result<Mesh, MeshError> {
    if !center.iter().all(|c| c.is_finite()) {
        return Err(invalid(format!(
            "ball \"{name}\": the centre {center:?} is not finite"
        )));
    }
    if !(radius.is_finite() && radius > 0.0) {
        return Err(invalid(format!(
            "ball \"{name}\": radius {radius} must be positive"
        )));
    }
    if divisions == 0 || divisions > 1000 {
        return Err(invalid(format!(
            "ball \"{name}\": divisions = {divisions} (need 1 to 1000)"
        )));
    }
    let n = divisions;
    let m = disk_layers(n);
    let a = 0.4 * radius;
    let core = |p: [usize; 3]| p[0] + (n + 1) * (p[1] + (n + 1) * p[2]);
    let mut nodes = Vec::new();
    for k in 0..=n {
        for j in 0..=n {
            for i in 0..=n {
                nodes.push([
                    center[0] + lerp(-a, a, i, n),
                    center[1] + lerp(-a, a, j, n),
                    center[2] + lerp(-a, a, k, n),
                ]);
            }
        }
    }
    let mut body = Vec::with_capacity(n * n * n + 6 * n * n * m);
    for k in 0..n {
        for j in 0..n {
            for i in 0..n {
                let v = |di: usize, dj: usize, dk: usize| core([i + di, j + dj, k + dk]);
                body.push(Element::new(
                    ElementKind::Hex8,
                    &[
                        v(0, 0, 0),
                        v(1, 0, 0),
                        v(1, 1, 0),
                        v(0, 1, 0),
                        v(0, 0, 1),
                        v(1, 0, 1),
                        v(1, 1, 1),
                        v(0, 1, 1),
                    ],
                ));
            }
        }
    }
    // Shell node columns: core surface node → index of its layer-1 node
    // (layers l = 1..=m follow consecutively).
    let mut column = vec![usize::MAX; (n + 1) * (n + 1) * (n + 1)];
    for k in 0..=n {
        for j in 0..=n {
            for i in 0..=n {
                if [i, j, k].iter().all(|&c| c != 0 && c != n) {
                    continue;
                }
                let s = nodes[core([i, j, k])];
                // Equiangular map: cube coordinate u ∈ [−1, 1] → tan(π u / 4).
                let d =
                    [i, j, k].map(|c| (0.25 * std::f64::consts::PI * lerp(-1.0, 1.0, c, n)).tan());
                let r = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
                let c = [0, 1, 2].map(|q| center[q] + radius * d[q] / r);
                column[core([i, j, k])] = nodes.len();
                for l in 1..=m {
                    let f = l as f64 / m as f64;
                    nodes.push(if l == m {
                        c
                    } else {
                        [0, 1, 2].map(|q| s[q] + f * (c[q] - s[q]))
                    });
                }
            }
        }
    }
    let layer = |p: usize, l: usize| if l == 0 { p } else { column[p] + l - 1 };
    let mut outer = Vec::with_capacity(6 * n * n);
    for axis in 0..3 {
        // (b, c) cyclic after `axis`, so e_b × e_c = +e_axis.
        let (b, c) = ((axis + 1) % 3, (axis + 2) % 3);
        for (max_side, at) in [(false, 0), (true, n)] {
            for v in 0..n {
                for u in 0..n {
                    let p = |du: usize, dv: usize| {
                        let mut q = [0usize; 3];
                        q[axis] = at;
                        q[b] = u + du;
                        q[c] = v + dv;
                        core(q)
                    };
                    // Face quad with outward normal (x1−x0)×(x3−x0).
                    let f = if max_side {
                        [p(0, 0), p(1, 0), p(1, 1), p(0, 1)]
                    } else {
                        [p(0, 0), p(0, 1), p(1, 1), p(1, 0)]
                    };
                    for l in 0..m {
                        let lo = f.map(|x| layer(x, l));
                        let hi = f.map(|x| layer(x, l + 1));
                        body.push(Element::new(
                            ElementKind::Hex8,
                            &[lo[0], lo[1], lo[2], lo[3], hi[0], hi[1], hi[2], hi[3]],
                        ));
                    }
                    outer.push(Element::new(ElementKind::Quad4, &f.map(|x| layer(x, m))));
                }
            }
        }
    }
    Ok(Mesh {
        dim: 3,
        nodes,
        groups: vec![
            group(name.to_string(), 3, body),
            group(format!("{name}_outer"), 2, outer),
        ],
        ..Mesh::default()
    })
}
