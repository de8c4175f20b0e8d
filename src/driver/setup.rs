//! Setting a run up: the system, the integrator, the contact pairs, and the
//! state at t = 0.

use super::RunError;
use crate::contact::{overlap, ContactSet};
use crate::dynamics::drive::Drive;
use crate::dynamics::{State, Stepper, System};
use crate::model::Model;

/// Initial positions and velocities: `v = v_b + ω_b × (X − X_c,b)` per body.
fn initial_motion<const D: usize>(sys: &System<D>, model: &Model) -> (Vec<f64>, Vec<f64>) {
    let n = sys.n_nodes;
    let mut x = vec![0.0; n * D];
    for a in 0..n {
        x[a * D..a * D + D].copy_from_slice(&sys.xref[a][..D]);
    }
    let mut v = vec![0.0; n * D];
    for (b, body) in model.bodies.iter().enumerate() {
        let (mut m, mut c) = (0.0, [0.0; 3]);
        for a in (0..n).filter(|&a| sys.node_body[a] == b) {
            m += sys.lumped[a];
            for i in 0..3 {
                c[i] += sys.lumped[a] * sys.xref[a][i];
            }
        }
        c.iter_mut().for_each(|ci| *ci /= m);
        let w = body.angular_velocity;
        for a in (0..n).filter(|&a| sys.node_body[a] == b) {
            let r = [
                sys.xref[a][0] - c[0],
                sys.xref[a][1] - c[1],
                sys.xref[a][2] - c[2],
            ];
            let wxr = [
                w[1] * r[2] - w[2] * r[1],
                w[2] * r[0] - w[0] * r[2],
                w[0] * r[1] - w[1] * r[0],
            ];
            for i in 0..D {
                v[a * D + i] = body.velocity[i] + wxr[i];
            }
        }
    }
    (x, v)
}

/// The stepper of `model` (system, integrator, contact pairs) and its state at
/// t = 0.
/// Nodes that start inside the other body of a contact pair refuse the
/// model, or with `initial_overlap = "adjust"` move onto the other surface
/// first (the reference mesh changes; see [`overlap`]).
pub fn setup<const D: usize>(model: &Model) -> Result<(Stepper<D>, State), RunError> {
    let resolved = overlap::resolve(model)?;
    let adjusted;
    let model = match resolved.nodes {
        None => model,
        Some(nodes) => {
            resolved.moved.iter().for_each(|m| log::info!("{m}"));
            let mut m = model.clone();
            m.mesh.nodes = nodes;
            adjusted = m;
            &adjusted
        }
    };
    let sys = System::<D>::new(model)?;
    let (mut x0, v0) = initial_motion(&sys, model);
    let drive = Drive::new(model, &sys);
    // prescribed positions hold from t = 0 on
    drive.prescribed.set_positions(0.0, &mut x0);
    let mut stepper = Stepper::new(sys, model.time.integrator, model.solver, model.gravity)?;
    stepper.contacts = ContactSet::new(model, D)?;
    stepper.dump_contact = model.output.contact_problems.clone();
    stepper.drive = drive;
    let mut state = stepper
        .initial_state(x0, v0)
        .map_err(|source| RunError::StepFailed {
            t: 0.0,
            dt: 0.0,
            cutbacks: 0,
            source,
        })?;
    stepper
        .drive
        .prescribed
        .set_velocities(0.0, &mut state.v, true);
    Ok((stepper, state))
}
