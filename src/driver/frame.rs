//! One VTK frame of a state: displacement, velocity, nodal stress, contact
//! and reaction point data, stress, strain energy density and body cell data.

use crate::contact::ContactSet;
use crate::dynamics::{State, System};
use crate::fe::{kernel, MAX_NODES};
use crate::output::{self, Field, Frame, OutputError};
use rayon::prelude::*;
use std::path::Path;

/// Nodal Cauchy stress (9 components per node, row-major) and its von Mises
/// stress: at every node the average of the stress of each of its elements
/// at that node ([`kernel::nodal_stress`]), weighted by the elements'
/// reference volumes. NaN at nodes of no body (and where an element of the
/// node is inverted).
fn nodal_stress<const D: usize>(sys: &System<D>, x: &[f64]) -> (Vec<f64>, Vec<f64>) {
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
    let per_node: Vec<([f64; 9], f64)> = (0..n)
        .into_par_iter()
        .map(|a| {
            let (mut sum, mut weight) = ([0.0; 9], 0.0);
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
                    sum[c] += volume[e] * s[c];
                }
                weight += volume[e];
            }
            let avg = sum.map(|v| if weight > 0.0 { v / weight } else { f64::NAN });
            let vm = kernel::von_mises(&nalgebra::Matrix3::from_row_slice(&avg));
            (avg, vm)
        })
        .collect();
    (
        per_node.iter().flat_map(|p| p.0).collect(),
        per_node.iter().map(|p| p.1).collect(),
    )
}

/// Writes one VTK frame of the whole mesh: reference coordinates,
/// `displacement`, `velocity`, `stress` (nodal Cauchy, 9 components) and
/// `von_mises` point data, `stress` (Cauchy, 9 components),
/// `strain_energy_density` and `body` cell data; with fixed dofs the
/// `reaction` point data (the support force of the step that ended in
/// `state`, zero on free dofs; `reaction` has the dof layout of the state);
/// with contact the contact point data ([`CONTACT_FIELDS`]).
pub fn write_frame<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
    state: &State,
    reaction: Option<&[f64]>,
    path: &Path,
) -> Result<(), OutputError> {
    write_piece(sys, contacts, Some, state, reaction, path)
}

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
/// contact data of its own nodes.
pub fn write_piece<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
    local: impl Fn(usize) -> Option<usize>,
    state: &State,
    reaction: Option<&[f64]>,
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
    let (node_stress, von_mises) = nodal_stress(sys, &state.x);
    let points = &sys.xref;
    let [gap, pressure, traction, slip_rate, cstate] = contact_fields(contacts, n, local);
    let mut point_data = vec![
        Field {
            name: "displacement",
            components: 3,
            values: &disp,
        },
        Field {
            name: "velocity",
            components: 3,
            values: &vel,
        },
        Field {
            name: "stress",
            components: 9,
            values: &node_stress,
        },
        Field {
            name: "von_mises",
            components: 1,
            values: &von_mises,
        },
    ];
    if sys.fixed.iter().any(|&f| f) {
        point_data.push(Field {
            name: "reaction",
            components: 3,
            values: &react,
        });
    }
    if !contacts.is_empty() {
        let values = [&gap, &pressure, &traction, &slip_rate, &cstate];
        point_data.extend(CONTACT_FIELDS.iter().zip(values).map(
            |(&(name, components), values)| Field {
                name,
                components,
                values,
            },
        ));
    }
    output::write_vtu(
        path,
        &Frame {
            points,
            cells: &cells,
            point_data: &point_data,
            cell_data: &[
                Field {
                    name: "stress",
                    components: 9,
                    values: &stress,
                },
                Field {
                    name: "strain_energy_density",
                    components: 1,
                    values: &energy,
                },
                Field {
                    name: "body",
                    components: 1,
                    values: &body,
                },
            ],
        },
    )
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
