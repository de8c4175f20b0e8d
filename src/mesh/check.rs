//! Element validity: positive Jacobians (at the corners of first-order
//! elements; at every node and quadrature point of second-order ones), and one
//! interpolation order per body group.
use super::geometry::{coords, cross, det3, dot, sub, tangents, HEX_REF, QUAD_REF, V3};
use super::{Group, Mesh, MeshError};
use crate::fe::ElementKind;

/// Relative size below which a corner Jacobian counts as degenerate:
/// `det / h^D < DEGENERATE`, `h` the largest node distance of the element.
const DEGENERATE: f64 = 1e-10;

/// Where the smallest Jacobian of an element is: at a node (local index) or
/// at a quadrature point.
#[derive(Debug, Clone, Copy, PartialEq)]
enum At {
    Node(usize),
    Interior,
}

/// Smallest Jacobian determinant of a second-order element, scaled by `h^D`:
/// at its nodes and at the quadrature points of both its rules (a misplaced
/// midside node folds the element inside while its corners stay positive).
fn min_curved_jacobian(kind: ElementKind, x: &[V3], h: f64) -> (f64, At) {
    let d = kind.ref_dim();
    let det = |xi: &[f64; 3]| {
        let t = tangents(kind, x, xi);
        if d == 2 {
            cross(t[0], t[1])[2]
        } else {
            det3(t[0], t[1], t[2])
        }
    };
    let mut best = (f64::INFINITY, At::Interior);
    for (a, xi) in kind.reference_nodes().iter().enumerate() {
        let v = det(xi) / h.powi(d as i32);
        if !(v >= best.0) {
            best = (v, At::Node(a));
        }
    }
    for q in kind.quadrature().iter().chain(kind.stiffness_quadrature()) {
        let v = det(&q.xi) / h.powi(d as i32);
        if !(v >= best.0) {
            best = (v, At::Interior);
        }
    }
    // the reference measure of the element scales `det J`: a unit simplex has
    // det J = 1 for an element of edge 1, a [-1,1]^d cell det J = 2^-d
    let scale = if kind.is_simplex() {
        1.0
    } else {
        2f64.powi(d as i32)
    };
    (best.0 * scale, best.1)
}

/// Smallest corner Jacobian determinant of a body element, scaled by `h^D`
/// (`h` = largest node-to-node distance) and the corner where it occurs.
/// tri3/tet4: the constant `(x1−x0)×(x2−x0)` / `det[x1−x0, x2−x0, x3−x0]`;
/// quad4: the cross product of the two edges at each corner; hex8: the triple
/// product of the three edges at each corner (edges taken in the +ξ, +η, +ζ
/// directions, so a positively oriented element has all of them positive).
fn min_corner_jacobian(kind: ElementKind, x: &[V3]) -> (f64, At) {
    let mut h2: f64 = 0.0;
    for a in x {
        for b in x {
            let d = sub(*a, *b);
            h2 = h2.max(dot(d, d));
        }
    }
    let h = h2.sqrt().max(f64::MIN_POSITIVE);
    let z = |v: V3| v[2];
    if kind.order() == 2 {
        return min_curved_jacobian(kind, x, h);
    }
    let (det, corner) = match kind {
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
        _ => (1.0, 0),
    };
    (det, At::Node(corner))
}

impl Mesh {
    /// Checks every element of every group of the model's dimension: the kind
    /// fits the dimension, the nodes exist, the Jacobian is positive (tri3/tet4:
    /// signed area/volume; quad4/hex8: the corner Jacobians, which for quad4
    /// bound the Jacobian everywhere; second-order kinds: at every node and
    /// quadrature point), and a body group does not mix first- and second-order
    /// elements (the midside nodes of one would hang on the edges of the other).
    /// A negative or degenerate (`|det| < 1e-10 h^D`) element is an error naming
    /// the mesh file, the group, the element's Gmsh tag, its node tags and where
    /// the Jacobian fails.
    pub fn check_elements(&self) -> Result<(), MeshError> {
        for g in self.groups.iter().filter(|g| g.dim == self.dim) {
            self.check_order(g)?;
            for (i, e) in g.elements.iter().enumerate() {
                let what = || {
                    format!(
                        "{}group \"{}\": {}",
                        self.file_prefix(),
                        g.name,
                        g.element_label(i)
                    )
                };
                if e.kind.ref_dim() != self.dim {
                    return Err(MeshError::Invalid(format!(
                        "{} is a {} in a {}D body group",
                        what(),
                        e.kind.name(),
                        self.dim
                    )));
                }
                if let Some(&a) = e.nodes().iter().find(|&&a| a >= self.nodes.len()) {
                    return Err(MeshError::Invalid(format!(
                        "{} references node #{a}, but the mesh has {} nodes",
                        what(),
                        self.nodes.len()
                    )));
                }
                let (x, n) = coords(e, &self.nodes);
                let (det, at) = min_corner_jacobian(e.kind, &x[..n]);
                let place = match at {
                    At::Node(k) => self.node_label(e.nodes()[k]),
                    At::Interior => "a quadrature point".to_string(),
                };
                let problem = if det.is_nan() || det.abs() < DEGENERATE {
                    "is degenerate (relative Jacobian"
                } else if det < 0.0 {
                    "is inverted (negative relative Jacobian"
                } else {
                    continue;
                };
                let hint = if e.kind.order() == 2 {
                    "; check that its midside nodes lie near the middle of their edges"
                } else {
                    ""
                };
                return Err(MeshError::Invalid(format!(
                    "{} ({}, nodes {}) {problem} {det:.3e} at {place}){hint}",
                    what(),
                    e.kind.name(),
                    self.node_list(e.nodes())
                )));
            }
        }
        Ok(())
    }

    /// A body group's elements all have the same interpolation order.
    fn check_order(&self, g: &Group) -> Result<(), MeshError> {
        let Some(first) = g.elements.first() else {
            return Ok(());
        };
        if let Some(i) = g
            .elements
            .iter()
            .position(|e| e.kind.order() != first.kind.order())
        {
            return Err(MeshError::Invalid(format!(
                "{}group \"{}\" mixes orders: {} is a {} but {} is a {}; a body must be \
                 meshed with one order (Gmsh: Mesh.ElementOrder), or the midside nodes \
                 of one element hang on the edges of its neighbour",
                self.file_prefix(),
                g.name,
                g.element_label(0),
                first.kind.name(),
                g.element_label(i),
                g.elements[i].kind.name()
            )));
        }
        Ok(())
    }
}
