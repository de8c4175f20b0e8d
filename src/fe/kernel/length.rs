//! Characteristic element length for the explicit stable time step `Δt ≤ h/c`.

use super::super::ElementKind;
use super::volume;

/// Characteristic length for the explicit stable time step `h / c`
/// (smallest altitude / shortest distance between opposite faces).
///
/// `h = k V / A_max`, with `V` the element volume (area in 2D), `A_max` the largest
/// face measure (edge length in 2D; quad faces by their vector area
/// `½|(x2−x0)×(x3−x1)|`) and `k = D` for simplices, `1` for quad4/hex8. For a
/// simplex this is exactly its smallest altitude; for a parallelogram or
/// parallelepiped exactly the smallest distance between opposite faces; for
/// distorted quads/hexes a consistent estimate of it. (Cf. Belytschko, Liu & Moran,
/// *Nonlinear FE for Continua and Structures*, §6.3.) Returns 0 for a degenerate
/// or inverted reference element.
///
/// A second-order element takes the length of its corners' first-order element
/// times [`second_order_factor`]: its largest eigenfrequency (lumped mass) is
/// 2.5–4× that of the first-order element on the same corners.
#[track_caller]
pub fn characteristic_length<const D: usize>(kind: ElementKind, xref: &[[f64; 3]]) -> f64 {
    let Ok(v) = volume::<D>(kind, xref) else {
        return 0.0;
    };
    let mut amax: f64 = 0.0;
    for (fkind, nodes) in kind.faces() {
        let p = |i: usize| xref[nodes[i]];
        let a = match fkind.linear() {
            ElementKind::Line2 => norm(sub(p(1), p(0))),
            ElementKind::Tri3 => 0.5 * norm(cross(sub(p(1), p(0)), sub(p(2), p(0)))),
            ElementKind::Quad4 => 0.5 * norm(cross(sub(p(2), p(0)), sub(p(3), p(1)))),
            _ => unreachable!("faces are lines, triangles or quadrilaterals"),
        };
        amax = amax.max(a);
    }
    let k = if kind.is_simplex() { D as f64 } else { 1.0 };
    if amax > 0.0 {
        k * v / amax * second_order_factor(kind)
    } else {
        0.0
    }
}

/// `ω_max(first order) / ω_max(kind)` of the unit element (unit square or cube,
/// unit right simplex; ν = 0, lumped mass: HRZ for second order, row sums for
/// first order), rounded down: so that `h/c` keeps the relation to the
/// element's own stable step `2/ω_max` that the first-order kinds have (on
/// these unit elements, for ν ≤ 0.3, `h/c` is 0.9–1.4× `2/ω_max` for every
/// kind; exactly 1 for quad4 and hex8 at ν = 0). The test of the stable step
/// recomputes the eigenfrequencies from the kernels. 1 for first-order kinds.
pub fn second_order_factor(kind: ElementKind) -> f64 {
    match kind {
        ElementKind::Tri6 => 0.41,
        ElementKind::Quad8 | ElementKind::Hex20 => 0.25,
        ElementKind::Quad9 => 0.37,
        ElementKind::Tet10 => 0.39,
        ElementKind::Hex27 => 0.34,
        _ => 1.0,
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn norm(a: [f64; 3]) -> f64 {
    (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]).sqrt()
}
