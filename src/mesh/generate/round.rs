//! Round 2D bodies: the ring (annulus) of Love & Laursen (2003) §4.1 and an
//! O-grid disk.
use super::{group, invalid, lerp, polar};
use crate::fe::ElementKind;
use crate::mesh::{Element, Mesh, MeshError};
use std::f64::consts::PI;

fn check_center(name: &str, center: [f64; 2]) -> Result<(), MeshError> {
    if center.iter().all(|c| c.is_finite()) {
        Ok(())
    } else {
        Err(invalid(format!(
            "\"{name}\": the centre {center:?} is not finite"
        )))
    }
}

/// 2D ring (annulus) of quad4: mid-surface `radius`, `thickness`,
/// `divisions = [around, through]`; surfaces `<name>_outer` (counter-clockwise)
/// and `<name>_inner` (clockwise, so its outward normal points to the centre).
/// Nodes lie on `through + 1` circles, `around` per circle starting at angle 0;
/// node `(i, j)` (angle `i`, circle `j` from the inside) has index
/// `j · around + i`. The mesh area is that of the two polygons,
/// [`ring_mesh_area`](super::ring_mesh_area).
pub fn ring(
    name: &str,
    center: [f64; 2],
    radius: f64,
    thickness: f64,
    divisions: [usize; 2],
) -> Result<Mesh, MeshError> {
    check_center(name, center)?;
    let [na, nt] = divisions;
    if !(radius.is_finite() && radius > 0.0) {
        return Err(invalid(format!(
            "ring \"{name}\": radius {radius} must be positive"
        )));
    }
    if !(thickness.is_finite() && thickness > 0.0 && thickness < 2.0 * radius) {
        return Err(invalid(format!(
            "ring \"{name}\": thickness {thickness} must be positive and below twice the radius {radius}"
        )));
    }
    if na < 3 {
        return Err(invalid(format!(
            "ring \"{name}\": divisions around = {na} (need at least 3)"
        )));
    }
    if nt == 0 {
        return Err(invalid(format!(
            "ring \"{name}\": divisions through the thickness is 0"
        )));
    }
    if na.checked_mul(nt + 1).map_or(true, |t| t > 1 << 32) {
        return Err(invalid(format!(
            "ring \"{name}\": too many divisions {divisions:?}"
        )));
    }
    let (ri, ro) = (radius - 0.5 * thickness, radius + 0.5 * thickness);
    let id = |i: usize, j: usize| j * na + i % na;
    let mut nodes = Vec::with_capacity(na * (nt + 1));
    for j in 0..=nt {
        let r = lerp(ri, ro, j, nt);
        for i in 0..na {
            nodes.push(polar(center, r, 2.0 * PI * i as f64 / na as f64));
        }
    }
    let mut body = Vec::with_capacity(na * nt);
    for j in 0..nt {
        for i in 0..na {
            // Radially out, then counter-clockwise: positive orientation.
            body.push(Element::new(
                ElementKind::Quad4,
                &[id(i, j), id(i, j + 1), id(i + 1, j + 1), id(i + 1, j)],
            ));
        }
    }
    let line = |a, b| Element::new(ElementKind::Line2, &[a, b]);
    let outer = (0..na).map(|i| line(id(i, nt), id(i + 1, nt))).collect();
    let inner = (0..na).map(|i| line(id(i + 1, 0), id(i, 0))).collect();
    Ok(Mesh {
        dim: 2,
        nodes,
        groups: vec![
            group(name.to_string(), 2, body),
            group(format!("{name}_outer"), 1, outer),
            group(format!("{name}_inner"), 1, inner),
        ],
        ..Mesh::default()
    })
}

/// Radial layers of the disk's outer ring for `n` divisions per quarter.
pub(super) fn disk_layers(n: usize) -> usize {
    ((2 * n + 2) / 5).max(1)
}

/// 2D disk of quad4 (O-grid: a square core and a ring of quads), `divisions`
/// elements along a quarter of the circumference; surface `<name>_outer`
/// (counter-clockwise).
///
/// The core is the square of half-width `radius/2` with `divisions ×
/// divisions` quads; its `4·divisions` perimeter nodes are joined by straight
/// lines to `4·divisions` equally spaced points on the circle (the first at
/// −45°), split into `max(1, ⌊(2·divisions + 2)/5⌋)` layers, which makes the
/// ring's elements about as long radially as the core's. The mesh area is that
/// of the inscribed polygon, [`disk_mesh_area`](super::disk_mesh_area).
pub fn disk(
    name: &str,
    center: [f64; 2],
    radius: f64,
    divisions: usize,
) -> Result<Mesh, MeshError> {
    check_center(name, center)?;
    if !(radius.is_finite() && radius > 0.0) {
        return Err(invalid(format!(
            "disk \"{name}\": radius {radius} must be positive"
        )));
    }
    if divisions == 0 {
        return Err(invalid(format!("disk \"{name}\": divisions is 0")));
    }
    if divisions > 50_000 {
        return Err(invalid(format!(
            "disk \"{name}\": divisions = {divisions} is too many"
        )));
    }
    let n = divisions;
    let m = disk_layers(n);
    let a = 0.5 * radius;
    let core = |i: usize, j: usize| i + (n + 1) * j;
    let mut nodes = Vec::with_capacity((n + 1) * (n + 1) + 4 * n * m);
    for j in 0..=n {
        for i in 0..=n {
            nodes.push([
                center[0] + lerp(-a, a, i, n),
                center[1] + lerp(-a, a, j, n),
                0.0,
            ]);
        }
    }
    // Perimeter node k of the core, counter-clockwise from the corner (a, −a).
    let perimeter = |k: usize| {
        let (side, t) = ((k / n) % 4, k % n);
        match side {
            0 => core(n, t),
            1 => core(n - t, n),
            2 => core(0, n - t),
            _ => core(t, 0),
        }
    };
    let base = (n + 1) * (n + 1);
    let ring_id = |k: usize, l: usize| {
        let k = k % (4 * n);
        if l == 0 {
            perimeter(k)
        } else {
            base + (l - 1) * 4 * n + k
        }
    };
    for l in 1..=m {
        for k in 0..4 * n {
            let s = nodes[perimeter(k)];
            let c = polar(center, radius, -0.25 * PI + 0.5 * PI * k as f64 / n as f64);
            let f = l as f64 / m as f64;
            nodes.push(if l == m {
                c
            } else {
                [s[0] + f * (c[0] - s[0]), s[1] + f * (c[1] - s[1]), 0.0]
            });
        }
    }
    let mut body = Vec::with_capacity(n * n + 4 * n * m);
    for j in 0..n {
        for i in 0..n {
            body.push(Element::new(
                ElementKind::Quad4,
                &[
                    core(i, j),
                    core(i + 1, j),
                    core(i + 1, j + 1),
                    core(i, j + 1),
                ],
            ));
        }
    }
    for l in 0..m {
        for k in 0..4 * n {
            body.push(Element::new(
                ElementKind::Quad4,
                &[
                    ring_id(k, l),
                    ring_id(k, l + 1),
                    ring_id(k + 1, l + 1),
                    ring_id(k + 1, l),
                ],
            ));
        }
    }
    let outer = (0..4 * n)
        .map(|k| Element::new(ElementKind::Line2, &[ring_id(k, m), ring_id(k + 1, m)]))
        .collect();
    Ok(Mesh {
        dim: 2,
        nodes,
        groups: vec![
            group(name.to_string(), 2, body),
            group(format!("{name}_outer"), 1, outer),
        ],
        ..Mesh::default()
    })
}
