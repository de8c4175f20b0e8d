//! Element validity: positive corner Jacobians.
use super::geometry::{coords, cross, det3, dot, sub, HEX_REF, QUAD_REF, V3};
use super::{Mesh, MeshError};
use crate::fe::ElementKind;

/// Relative size below which a corner Jacobian counts as degenerate:
/// `det / h^D < DEGENERATE`, `h` the largest node distance of the element.
const DEGENERATE: f64 = 1e-10;

/// Smallest corner Jacobian determinant of a body element, scaled by `h^D`
/// (`h` = largest node-to-node distance) and the corner where it occurs.
/// tri3/tet4: the constant `(x1−x0)×(x2−x0)` / `det[x1−x0, x2−x0, x3−x0]`;
/// quad4: the cross product of the two edges at each corner; hex8: the triple
/// product of the three edges at each corner (edges taken in the +ξ, +η, +ζ
/// directions, so a positively oriented element has all of them positive).
fn min_corner_jacobian(kind: ElementKind, x: &[V3]) -> (f64, usize) {
    let mut h2: f64 = 0.0;
    for a in x {
        for b in x {
            let d = sub(*a, *b);
            h2 = h2.max(dot(d, d));
        }
    }
    let h = h2.sqrt().max(f64::MIN_POSITIVE);
    let z = |v: V3| v[2];
    match kind {
        ElementKind::Tri3 => (z(cross(sub(x[1], x[0]), sub(x[2], x[0]))) / (h * h), 0),
        ElementKind::Tet4 => (
            det3(sub(x[1], x[0]), sub(x[2], x[0]), sub(x[3], x[0])) / (h * h * h),
            0,
        ),
        ElementKind::Quad4 => {
            let mut best = (f64::INFINITY, 0);
            for (i, r) in QUAD_REF.iter().enumerate() {
                let nb = |axis: usize| {
                    let j = QUAD_REF
                        .iter()
                        .position(|s| s[axis] == -r[axis] && s[1 - axis] == r[1 - axis]);
                    let d = sub(x[j.unwrap_or(i)], x[i]);
                    [-r[axis] * d[0], -r[axis] * d[1], -r[axis] * d[2]]
                };
                let d = z(cross(nb(0), nb(1))) / (h * h);
                if d < best.0 {
                    best = (d, i);
                }
            }
            best
        }
        ElementKind::Hex8 => {
            let mut best = (f64::INFINITY, 0);
            for (i, r) in HEX_REF.iter().enumerate() {
                let nb = |axis: usize| {
                    let j = HEX_REF.iter().position(|s| {
                        (0..3).all(|k| {
                            if k == axis {
                                s[k] == -r[k]
                            } else {
                                s[k] == r[k]
                            }
                        })
                    });
                    let d = sub(x[j.unwrap_or(i)], x[i]);
                    [-r[axis] * d[0], -r[axis] * d[1], -r[axis] * d[2]]
                };
                let d = det3(nb(0), nb(1), nb(2)) / (h * h * h);
                if d < best.0 {
                    best = (d, i);
                }
            }
            best
        }
        ElementKind::Line2 => (1.0, 0),
    }
}

impl Mesh {
    /// Checks every element of every group of the model's dimension: positive
    /// Jacobian at every corner (tri3/tet4: signed area/volume; quad4/hex8: the
    /// corner Jacobians, which for quad4 bound the Jacobian everywhere). A
    /// negative or degenerate (`|det| < 1e-10 h^D`) element is an error naming
    /// the group, the element's index in it and the corner.
    pub fn check_elements(&self) -> Result<(), MeshError> {
        for g in self.groups.iter().filter(|g| g.dim == self.dim) {
            for (i, e) in g.elements.iter().enumerate() {
                if e.kind.ref_dim() != self.dim {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} is a {} in a {}D body group",
                        g.name,
                        e.kind.name(),
                        self.dim
                    )));
                }
                if let Some(&a) = e.nodes().iter().find(|&&a| a >= self.nodes.len()) {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} references node {a}, but the mesh has {} nodes",
                        g.name,
                        self.nodes.len()
                    )));
                }
                let (x, n) = coords(e, &self.nodes);
                let (det, corner) = min_corner_jacobian(e.kind, &x[..n]);
                if det.is_nan() || det.abs() < DEGENERATE {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} ({}, nodes {:?}) is degenerate \
                         (relative Jacobian {det:.3e} at corner {corner})",
                        g.name,
                        e.kind.name(),
                        e.nodes()
                    )));
                }
                if det < 0.0 {
                    return Err(MeshError::Invalid(format!(
                        "group \"{}\": element {i} ({}, nodes {:?}) is inverted \
                         (negative Jacobian {det:.3e} relative at corner {corner})",
                        g.name,
                        e.kind.name(),
                        e.nodes()
                    )));
                }
            }
        }
        Ok(())
    }
}
