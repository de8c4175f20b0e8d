//! One VTK frame of a state: displacement, velocity, nodal stress, contact
//! and reaction point data, stress, strain energy density and body cell data.

use crate::contact::ContactSet;
use crate::dynamics::{State, System};
use crate::fe::{kernel, MAX_NODES};
use crate::output::{self, Field, Frame, OutputError};
use rayon::prelude::*;
use std::path::Path;

/// Width of a node's entry in [`nodal_stress_sums`]: the 9 components of
/// the weighted stress sum (row-major), then the weight.
pub const NODAL_SUM_WIDTH: usize = 10;

/// The parts of the nodal stress that add over elements: per node
/// ([`NODAL_SUM_WIDTH`] entries each) the sum over its elements of each
/// element's stress at that node ([`kernel::nodal_stress`]) times the
/// element's reference volume, and the sum of those volumes. Sums over
/// disjoint sets of elements add, so a parallel run sums its ranks' shares
/// at shared nodes before [`nodal_stress_average`]. NaN sums where an
/// element of the node is inverted.
pub fn nodal_stress_sums<const D: usize>(sys: &System<D>, x: &[f64]) -> Vec<f64> {
    let n = sys.n_nodes;
    // node → (element, local index), grouped by node
    let mut start = vec![0usize; n + 1];
    for be in &sys.elements {
        be.element.nodes().iter().for_each(|&a| start[a + 1] += 1);
    }
    for a in 0..n {
        start[a + 1] += start[a];
    }
    let mut fill = start.clone();
    let mut adj = vec![(0u32, 0u8); start[n]];
    for (e, be) in sys.elements.iter().enumerate() {
        for (k, &a) in be.element.nodes().iter().enumerate() {
            adj[fill[a]] = (e as u32, k as u8);
            fill[a] += 1;
        }
    }
    let gather = |e: usize| {
        let nodes = sys.elements[e].element.nodes();
        let mut xr = [[0.0; 3]; MAX_NODES];
        let mut xc = [[0.0; 3]; MAX_NODES];
        for (k, &a) in nodes.iter().enumerate() {
            xr[k] = sys.xref[a];
            xc[k][..D].copy_from_slice(&x[a * D..a * D + D]);
        }
        (xr, xc, nodes.len())
    };
    let volume: Vec<f64> = (0..sys.elements.len())
        .into_par_iter()
        .map(|e| {
            let (xr, _, k) = gather(e);
            kernel::volume::<D>(sys.elements[e].element.kind, &xr[..k]).unwrap_or(f64::NAN)
        })
        .collect();
    let mut sums = vec![0.0; n * NODAL_SUM_WIDTH];
    sums.par_chunks_mut(NODAL_SUM_WIDTH)
        .enumerate()
        .for_each(|(a, out)| {
            for &(e, k) in &adj[start[a]..start[a + 1]] {
                let (e, k) = (e as usize, k as usize);
                let be = &sys.elements[e];
                let (xr, xc, m) = gather(e);
                let s = kernel::nodal_stress::<D>(
                    be.element.kind,
                    &sys.materials[be.body],
                    &xr[..m],
                    &xc[..m],
                    k,
                )
                .map_or([f64::NAN; 9], |s| {
                    std::array::from_fn(|c| s[(c / 3, c % 3)])
                });
                for c in 0..9 {
                    out[c] += volume[e] * s[c];
                }
                out[9] += volume[e];
            }
        });
    sums
}

/// Nodal Cauchy stress (9 components per node, row-major) and its von Mises
/// stress from complete [`nodal_stress_sums`]: at every node the average of
/// its elements' stresses there, weighted by their reference volumes. NaN
/// at nodes of no element (and where an element of the node is inverted).
pub fn nodal_stress_average(sums: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let per_node: Vec<([f64; 9], f64)> = sums
        .par_chunks(NODAL_SUM_WIDTH)
        .map(|s| {
            let weight = s[9];
            let avg: [f64; 9] = std::array::from_fn(|c| {
                if weight > 0.0 {
                    s[c] / weight
                } else {
                    f64::NAN
                }
            });
            let vm = kernel::von_mises(&nalgebra::Matrix3::from_row_slice(&avg));
            (avg, vm)
        })
        .collect();
    (
        per_node.iter().flat_map(|p| p.0).collect(),
        per_node.iter().map(|p| p.1).collect(),
    )
}

/// Writes one VTK frame of the whole mesh: reference coordinates, the
/// [`POINT_FIELDS`] (`displacement`, `velocity`, nodal Cauchy `stress`, 9
/// components, and `von_mises`) and the [`CELL_FIELDS`] (`stress`, Cauchy,
/// 9 components, `strain_energy_density`, `body`); with fixed dofs the
/// [`REACTION_FIELD`] (the support force of the step that ended in `state`,
/// zero on free dofs; `reaction` has the dof layout of the state); with
/// contact the contact point data ([`CONTACT_FIELDS`]).
pub fn write_frame<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
    state: &State,
    reaction: Option<&[f64]>,
    path: &Path,
) -> Result<(), OutputError> {
    let sums = nodal_stress_sums(sys, &state.x);
    write_piece(sys, contacts, Some, state, reaction, &sums, path)
}

/// The point data of every frame (by name, with their components), in the
/// order they are written: displacement, velocity, nodal Cauchy stress and
/// its von Mises stress.
pub const POINT_FIELDS: [(&str, usize); 4] = [
    ("displacement", 3),
    ("velocity", 3),
    ("stress", 9),
    ("von_mises", 1),
];

/// The point data of a frame with fixed dofs: the support force.
pub const REACTION_FIELD: (&str, usize) = ("reaction", 3);

/// The cell data of every frame: Cauchy stress averaged over the element's
/// current volume, strain energy density, body index.
pub const CELL_FIELDS: [(&str, usize); 3] =
    [("stress", 9), ("strain_energy_density", 1), ("body", 1)];

/// The contact point data of a frame (by name, with their components): on
/// slave nodes the gap (NaN where a node is no slave or has no master face
/// near), and where a point is active its pressure, traction, slip rate and
/// state (0 open, 1 stick, 2 slip).
pub const CONTACT_FIELDS: [(&str, usize); 5] = [
    ("contact_gap", 1),
    ("contact_pressure", 1),
    ("contact_traction", 3),
    ("contact_slip_rate", 1),
    ("contact_state", 1),
];

/// [`write_frame`] of a part of the mesh: `sys` over the piece's nodes,
/// `local(a)` the piece's node of the contact set's (mesh) node `a` (`None`
/// where the piece does not hold it), so that each piece carries the
/// contact data of its own nodes; `stress_sums` the piece's nodes'
/// [`nodal_stress_sums`] over every element of the mesh (those of other
/// pieces' elements added at shared nodes), so that the nodal stress of a
/// piece's node is the whole mesh's.
pub fn write_piece<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
    local: impl Fn(usize) -> Option<usize>,
    state: &State,
    reaction: Option<&[f64]>,
    stress_sums: &[f64],
    path: &Path,
) -> Result<(), OutputError> {
    let n = sys.n_nodes;
    let mut disp = vec![0.0; n * 3];
    let mut vel = vec![0.0; n * 3];
    let mut react = vec![0.0; n * 3];
    for a in 0..n {
        for i in 0..D {
            disp[a * 3 + i] = state.x[a * D + i] - sys.xref[a][i];
            vel[a * 3 + i] = state.v[a * D + i];
            react[a * 3 + i] = reaction.map_or(0.0, |r| r[a * D + i]);
        }
    }
    let cells: Vec<_> = sys.elements.iter().map(|e| e.element).collect();
    let per_cell: Vec<([f64; 9], f64)> = sys
        .elements
        .par_iter()
        .map(|be| {
            let nodes = be.element.nodes();
            let mut xr = [[0.0; 3]; MAX_NODES];
            let mut xc = [[0.0; 3]; MAX_NODES];
            for (k, &a) in nodes.iter().enumerate() {
                xr[k] = sys.xref[a];
                xc[k][..D].copy_from_slice(&state.x[a * D..a * D + D]);
            }
            let k = nodes.len();
            match kernel::cell_stress::<D>(
                be.element.kind,
                &sys.materials[be.body],
                &xr[..k],
                &xc[..k],
            ) {
                Ok((s, w)) => {
                    let mut out = [0.0; 9];
                    for i in 0..3 {
                        for j in 0..3 {
                            out[i * 3 + j] = s[(i, j)];
                        }
                    }
                    (out, w)
                }
                Err(_) => ([f64::NAN; 9], f64::NAN),
            }
        })
        .collect();
    let stress: Vec<f64> = per_cell.iter().flat_map(|c| c.0).collect();
    let energy: Vec<f64> = per_cell.iter().map(|c| c.1).collect();
    let body: Vec<f64> = sys.elements.iter().map(|e| e.body as f64).collect();
    let (node_stress, von_mises) = nodal_stress_average(stress_sums);
    let points = &sys.xref;
    let [gap, pressure, traction, slip_rate, cstate] = contact_fields(contacts, n, local);
    let mut point_data = named(&POINT_FIELDS, [&disp, &vel, &node_stress, &von_mises]);
    if sys.fixed.iter().any(|&f| f) {
        point_data.extend(named(&[REACTION_FIELD], [&react]));
    }
    if !contacts.is_empty() {
        let values = [&gap, &pressure, &traction, &slip_rate, &cstate];
        point_data.extend(named(&CONTACT_FIELDS, values));
    }
    output::write_vtu(
        path,
        &Frame {
            points,
            cells: &cells,
            point_data: &point_data,
            cell_data: &named(&CELL_FIELDS, [&stress, &energy, &body]),
        },
    )
}

/// The fields `names` (with their components) of `values`, in that order.
fn named<'a, const N: usize>(
    names: &'a [(&'static str, usize); N],
    values: [&'a Vec<f64>; N],
) -> Vec<Field<'a>> {
    names
        .iter()
        .zip(values)
        .map(|(&(name, components), values)| Field {
            name,
            components,
            values,
        })
        .collect()
}

/// The [`CONTACT_FIELDS`] at the `n` nodes of a frame, `local(a)` the
/// frame's node of mesh node `a`.
fn contact_fields(
    contacts: &ContactSet,
    n: usize,
    local: impl Fn(usize) -> Option<usize>,
) -> [Vec<f64>; 5] {
    let mut gap = vec![f64::NAN; n];
    let mut pressure = vec![0.0; n];
    let mut traction = vec![0.0; n * 3];
    let mut slip_rate = vec![0.0; n];
    let mut cstate = vec![0.0; n];
    for pt in contacts.points() {
        let Some(a) = local(pt.node) else {
            continue;
        };
        let ev = pt.eval;
        gap[a] = if ev.g1.is_finite() { ev.g1 } else { f64::NAN };
        if ev.active() {
            pressure[a] = ev.p;
            traction[a * 3..a * 3 + 3].copy_from_slice(&ev.traction);
            slip_rate[a] = ev.slip_rate;
            cstate[a] = if ev.slip() { 2.0 } else { 1.0 };
        }
    }
    [gap, pressure, traction, slip_rate, cstate]
}
