//! One VTK frame of a state: displacement, velocity, contact and reaction
//! point data, stress, strain energy density and body cell data.

use crate::contact::ContactSet;
use crate::dynamics::{State, System};
use crate::fe::kernel;
use crate::output::{self, Field, Frame, OutputError};
use rayon::prelude::*;
use std::path::Path;

/// Writes one VTK frame: reference coordinates, `displacement` and `velocity`
/// point data, `stress` (Cauchy, 9 components), `strain_energy_density` and
/// `body` cell data; with fixed dofs the `reaction` point data (the support
/// force of the step that ended in `state`, zero on free dofs; `reaction`
/// has the dof layout of the state); with contact the contact point data.
pub fn write_frame<const D: usize>(
    sys: &System<D>,
    contacts: &ContactSet,
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
            let mut xr = [[0.0; 3]; 8];
            let mut xc = [[0.0; 3]; 8];
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
    let points = &sys.xref;
    // contact fields on slave nodes (NaN gap where a node is no slave or has no
    // master face near; state 0 open, 1 stick, 2 slip)
    let mut gap = vec![f64::NAN; n];
    let mut pressure = vec![0.0; n];
    let mut traction = vec![0.0; n * 3];
    let mut slip_rate = vec![0.0; n];
    let mut cstate = vec![0.0; n];
    for pt in contacts.points() {
        let (a, ev) = (pt.node, pt.eval);
        gap[a] = if ev.g1.is_finite() { ev.g1 } else { f64::NAN };
        if ev.active() {
            pressure[a] = ev.p;
            traction[a * 3..a * 3 + 3].copy_from_slice(&ev.traction);
            slip_rate[a] = ev.slip_rate;
            cstate[a] = if ev.slip() { 2.0 } else { 1.0 };
        }
    }
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
    ];
    if sys.fixed.iter().any(|&f| f) {
        point_data.push(Field {
            name: "reaction",
            components: 3,
            values: &react,
        });
    }
    if !contacts.is_empty() {
        point_data.extend([
            Field {
                name: "contact_gap",
                components: 1,
                values: &gap,
            },
            Field {
                name: "contact_pressure",
                components: 1,
                values: &pressure,
            },
            Field {
                name: "contact_traction",
                components: 3,
                values: &traction,
            },
            Field {
                name: "contact_slip_rate",
                components: 1,
                values: &slip_rate,
            },
            Field {
                name: "contact_state",
                components: 1,
                values: &cstate,
            },
        ]);
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
