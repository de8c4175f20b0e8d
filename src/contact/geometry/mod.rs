//! Closest-point projection onto a master face and the node-to-segment contact
//! operators `N_A`, `D^α_A` (Love & Laursen 2003, §3.2, eqs. 43–52; DESIGN §5).
//!
//! # Conventions
//!
//! * Coordinates are `[f64; 3]`; in 2D `z = 0` and master faces are 2-node
//!   segments ([`ElementKind::Line2`]) or 3-node parabolas
//!   ([`ElementKind::Line3`]); in 3D they are [`ElementKind::Tri3`], bilinear
//!   [`ElementKind::Quad4`], or the curved second-order [`ElementKind::Tri6`],
//!   [`ElementKind::Quad8`] and [`ElementKind::Quad9`] faces.
//! * Parametric coordinates: lines `ξ ∈ [-1, 1]`; triangles `(ξ, η)` in the
//!   unit triangle (tri3 `N = [1−ξ−η, ξ, η]`); quads `[-1, 1]²`; Gmsh node
//!   order, corners first (the functions are in `shape.rs`).
//! * Orientation: a 2D face's outward normal is `(τ_y, −τ_x)` with
//!   `τ = x_{,ξ}` (`x1 − x0` for a line2); a 3D face's is along
//!   `x_{,ξ} × x_{,η}` (`(x1 − x0) × (x2 − x0)` for a tri3). "Outward" = out of
//!   the master body, toward the slaves.
//! * Gap `g = ν·s ≥ 0` separated, `g < 0` penetrated (the Love–Laursen seed
//!   uses the opposite sign; DESIGN §3 is the intended reading).
//! * Operator node order: the slave node first (index 0), then the master
//!   face's nodes in face order (indices 1..=n).
//!
//! ```
//! use emcontact::contact::geometry::{project, Kinematics, Location};
//! use emcontact::fe::ElementKind;
//! // Segment along +x: outward normal (t_y, −t_x) = (0, −1) … so a slave below it is outside.
//! let master = [[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]];
//! let xs = [0.5, -0.25, 0.0];
//! let p = project(ElementKind::Line2, &master, xs);
//! assert_eq!(p.location, Location::Interior);
//! let k = Kinematics::new(ElementKind::Line2, &master, xs, &p, None).unwrap();
//! assert!((k.gap - 0.25).abs() < 1e-15);
//! assert!((k.normal[1] + 1.0).abs() < 1e-15);
//! ```

mod curved;
mod kinematics;
mod project;
pub mod real;
mod shape;
pub(crate) mod vec3;

pub use kinematics::{Kinematics, MAX_NODES};
pub use project::{face_normal, project, project_unclamped};
pub use shape::MAX_FACE_NODES;

use crate::fe::ElementKind;

/// Where on the master face the closest point lies.
///
/// Edge `k` joins face corner `k` to corner `(k + 1) mod n_c` (triangles: 0–1,
/// 1–2, 2–0; quads: 0–1, 1–2, 2–3, 3–0; on a second-order face through its
/// midside node `n_c + k`). A line has no edges: its ends are `Vertex(0)` and
/// `Vertex(1)`. Vertices are corners only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Location {
    /// Strictly inside the face: `s ⟂ τ_α` (to round-off).
    Interior,
    /// On edge `k`, not at a vertex.
    Edge(u8),
    /// At vertex (face node) `k`.
    Vertex(u8),
}

impl Location {
    /// 0 interior, 1 edge, 2 vertex (used to break distance ties).
    pub fn rank(self) -> u8 {
        match self {
            Location::Interior => 0,
            Location::Edge(_) => 1,
            Location::Vertex(_) => 2,
        }
    }
}

/// The closest point of a master face to a slave point (see [`project()`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Projection {
    /// Face kind projected onto.
    pub kind: ElementKind,
    /// `ξ̄` (lines use `xi[0]` only; the unused entry is 0).
    pub xi: [f64; 2],
    /// Interior, edge or vertex.
    pub location: Location,
    /// The closest point `x_m(ξ̄)`.
    pub point: [f64; 3],
    /// `|x_s − x_m(ξ̄)|`.
    pub distance: f64,
}

/// Numerical failures of the contact kinematics.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
pub enum GeometryError {
    /// The face has (numerically) zero length or area: no normal, singular metric.
    #[error("degenerate {kind:?} master face (metric determinant {det:e})")]
    DegenerateFace { kind: ElementKind, det: f64 },
    /// `A_αβ = m_αβ − g ν·x_{m,αβ}` is singular: the slave sits at a focal point
    /// of a curved (warped quad or second-order) face, where `ξ̄` does not
    /// depend smoothly on the positions.
    #[error("singular curvature-corrected metric A (det {det:e}) at gap {gap:e}")]
    SingularMetric { gap: f64, det: f64 },
}

/// Panics unless `kind` is a master-face kind of `master.len()` nodes (caller bug).
#[track_caller]
fn check_face<T>(kind: ElementKind, master: &[[T; 3]]) {
    assert!(
        kind.ref_dim() <= 2 && kind.ref_dim() >= 1,
        "{} is not a master-face kind",
        kind.name()
    );
    assert_eq!(
        master.len(),
        kind.n_nodes(),
        "node count of a {} face",
        kind.name()
    );
}
