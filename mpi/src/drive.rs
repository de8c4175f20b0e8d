//! A rank's share of what drives a model from outside: the loads and the
//! prescribed motion of the serial build (`dynamics::drive`), renumbered to
//! the rank's local nodes so that the distributed stepper calls the serial
//! code on its local vectors.
//!
//! * A nodal load (traction, total force) is added by the owner of each of
//!   its nodes; a pressure face by one rank holding an element that has
//!   all the face's nodes (the lowest such rank), whose matrix share then
//!   has every block of the face's load stiffness, as the serial pattern
//!   has it through the same element. The ranks' load vectors are summed
//!   into the owners and sent to the ghosts like the element forces, so a
//!   rank's complete load vector is the serial one up to the association
//!   of the sums.
//! * A prescribed dof is set by every rank holding its node (owned or
//!   ghost): its position and velocity are functions of the reference
//!   position and the time, the same bits on every rank.
//!
//! The load weights are the serial build's: tributary areas from the whole
//! mesh (every rank holds it), a total force on a volume group spread by
//! the nodes' lumped masses (gathered once from their owners).

use super::comm::World;
use super::local::LocalSystem;
use super::partition::{body_elements, Layout};
use emcontact::dynamics::drive::Drive;
use emcontact::dynamics::loads::Loads;
use emcontact::dynamics::prescribed::Prescribed;
use emcontact::mesh::Element;
use emcontact::model::{LoadKind, Model};
use std::collections::HashSet;

/// The drive of `model` on this rank's local nodes; `gravity` is `m_A g`
/// at its local dofs. Errs (an input error) where a pressure face lies on
/// no rank's element.
pub fn share<const D: usize>(
    world: &World,
    model: &Model,
    layout: &Layout,
    local: &LocalSystem<D>,
    gravity: Vec<f64>,
) -> Result<Drive, String> {
    if model.loads.is_empty() && !model.boundaries.iter().any(|b| b.moves()) {
        return Ok(Drive::from_parts(
            Loads::default(),
            Prescribed::default(),
            gravity,
        ));
    }
    let mut local_of = vec![usize::MAX; model.mesh.nodes.len()];
    for (l, &a) in layout.nodes.iter().enumerate() {
        local_of[a] = l;
    }
    let lumped = if by_mass::<D>(model) {
        let mut m = vec![0.0; model.mesh.nodes.len()];
        for a in 0..layout.owned {
            m[layout.nodes[a]] = local.mass[a];
        }
        world.sum(&m)
    } else {
        Vec::new()
    };
    let whole = Loads::on::<D>(model, &model.mesh.nodes, &lumped);
    let mine = pressure_faces(world, model, layout, &local_of)?;
    let owned = layout.owned;
    let loads = whole.share(
        |a| Some(local_of[a]).filter(|&l| l < owned),
        |face| {
            mine.contains(face.nodes()).then(|| {
                let nodes: Vec<usize> = face.nodes().iter().map(|&a| local_of[a]).collect();
                Element::new(face.kind, &nodes)
            })
        },
    );
    let prescribed = Prescribed::new(model, &model.mesh.nodes, D).share(|dof| {
        let l = local_of[dof / D];
        (l != usize::MAX).then_some(l * D + dof % D)
    });
    Ok(Drive::from_parts(loads, prescribed, gravity))
}

/// Whether a total force is spread over a volume group by lumped mass
/// (`dynamics::loads`).
fn by_mass<const D: usize>(model: &Model) -> bool {
    model.loads.iter().any(|l| {
        matches!(l.kind, LoadKind::Force(_))
            && model.mesh.group(&l.group).is_some_and(|g| g.dim + 1 != D)
    })
}

/// The pressure faces this rank adds (by their mesh nodes): each face goes
/// to the lowest rank with an element holding all its nodes.
fn pressure_faces(
    world: &World,
    model: &Model,
    layout: &Layout,
    local_of: &[usize],
) -> Result<HashSet<Vec<usize>>, String> {
    let faces: Vec<(&str, &Element)> = model
        .loads
        .iter()
        .filter(|l| matches!(l.kind, LoadKind::Pressure(_)))
        .filter_map(|l| model.mesh.group(&l.group))
        .flat_map(|g| g.elements.iter().map(move |e| (g.name.as_str(), e)))
        .collect();
    if faces.is_empty() {
        return Ok(HashSet::new());
    }
    // this rank's elements through each of its local nodes
    let elements = body_elements(model);
    let mut through: Vec<Vec<usize>> = vec![Vec::new(); layout.nodes.len()];
    for &e in &layout.elements {
        for &a in elements[e].element.nodes() {
            through[local_of[a]].push(e);
        }
    }
    let holds = |face: &Element| {
        let first = local_of[face.nodes()[0]];
        first != usize::MAX
            && through[first].iter().any(|&e| {
                let nodes = elements[e].element.nodes();
                face.nodes().iter().all(|a| nodes.contains(a))
            })
    };
    // the lowest candidate rank of each face: the largest of −rank
    let bid: Vec<f64> = faces
        .iter()
        .map(|(_, f)| {
            if holds(f) {
                -(layout.rank as f64)
            } else {
                f64::NEG_INFINITY
            }
        })
        .collect();
    let taken = world.max(&bid);
    let mut mine = HashSet::new();
    for ((group, face), t) in faces.iter().zip(taken) {
        if t == f64::NEG_INFINITY {
            return Err(format!(
                "{}: load group \"{group}\": the face of nodes {:?} is not a face of a body element; the parallel build applies a pressure through the element it bounds",
                model.source.display(),
                face.nodes()
            ));
        }
        if -t == layout.rank as f64 {
            mine.insert(face.nodes().to_vec());
        }
    }
    Ok(mine)
}
