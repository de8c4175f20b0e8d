//! Built-in structured mesh generators. Each returns a `Mesh` with the volume
//! group `<name>` and its boundary surface groups (element kinds follow `fe`).
use super::{Mesh, MeshError};
use crate::fe::ElementKind;

/// Box `[min, max]` with `divisions` per axis. 2D (`min.len() == 2`): quad4 or
/// tri3, surfaces `<name>_xmin/_xmax/_ymin/_ymax` (line2). 3D: hex8 or tet4,
/// surfaces `<name>_xmin … <name>_zmax` (quad4 or tri3).
pub fn box_mesh(
    name: &str,
    min: &[f64],
    max: &[f64],
    divisions: &[usize],
    element: ElementKind,
) -> Result<Mesh, MeshError> {
    let _ = (name, min, max, divisions, element);
    todo!("mesh: box generator")
}

/// 2D ring (annulus) of quad4: mid-surface `radius`, `thickness`,
/// `divisions = [around, through]`; surfaces `<name>_outer`, `<name>_inner`.
pub fn ring(
    name: &str,
    center: [f64; 2],
    radius: f64,
    thickness: f64,
    divisions: [usize; 2],
) -> Result<Mesh, MeshError> {
    let _ = (name, center, radius, thickness, divisions);
    todo!("mesh: ring generator")
}

/// 2D disk of quad4 (O-grid: a square core and a ring of quads), `divisions`
/// elements along a quarter of the circumference; surface `<name>_outer`.
pub fn disk(
    name: &str,
    center: [f64; 2],
    radius: f64,
    divisions: usize,
) -> Result<Mesh, MeshError> {
    let _ = (name, center, radius, divisions);
    todo!("mesh: disk generator")
}
