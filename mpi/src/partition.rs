//! Splitting the model over the ranks: the body elements partitioned by
//! METIS on rank 0 (`METIS_PartMeshDual`, the multilevel k-way partition of
//! the element dual graph, Karypis & Kumar 1998, SIAM J. Sci. Comput. 20(1)),
//! the partition broadcast, and from it on every rank alike:
//!
//! * each element belongs to one rank, which assembles it (its force,
//!   tangent, mass, strain energy and stress are computed once);
//! * each node is *owned* by the lowest rank among those of its elements:
//!   that rank holds its rows of the matrix and its entries of every
//!   distributed vector (PETSc numbers the nodes rank after rank, each
//!   rank's owned nodes in mesh order);
//! * a rank's *local* nodes are the nodes of its elements: its owned nodes
//!   (first, in mesh order) and one layer of *ghosts* owned by neighbours
//!   (then, in mesh order), whose values it receives after every update.
//!
//! Nodes of no body are in no element and so on no rank: they carry no
//! mass and are fixed (as in the serial build), and leave no trace in the
//! parallel run's files.

use super::comm::World;
use emcontact::mesh::Element;
use emcontact::model::Model;

/// One body element in the serial build's order (bodies in input order,
/// each body's group in mesh order): the order of `dynamics::System`.
#[derive(Debug, Clone, Copy)]
pub struct GlobalElement {
    pub element: Element,
    pub body: usize,
}

/// The body elements of `model`, in the serial build's order.
pub fn body_elements(model: &Model) -> Vec<GlobalElement> {
    let mut out = Vec::new();
    for (b, body) in model.bodies.iter().enumerate() {
        if let Some(g) = model.mesh.group(&body.group) {
            out.extend(
                g.elements
                    .iter()
                    .map(|&element| GlobalElement { element, body: b }),
            );
        }
    }
    out
}

/// Why the model cannot be split over the ranks (input errors: exit 2).
#[derive(Debug, Clone, thiserror::Error)]
pub enum PartitionError {
    #[error("{ranks} ranks for a model of {elements} elements: every rank needs at least one element; run on at most {elements} ranks")]
    TooManyRanks { ranks: usize, elements: usize },
    #[error("METIS left rank {rank} without elements ({elements} elements on {ranks} ranks); run on fewer ranks")]
    EmptyRank {
        rank: usize,
        ranks: usize,
        elements: usize,
    },
    #[error("METIS_PartMeshDual returned status {0}")]
    Metis(i32),
    #[error("the mesh is too large for METIS' 32-bit indices")]
    TooLarge,
}

/// This rank's share of the model (see the module docs).
#[derive(Debug, Clone)]
pub struct Layout {
    pub rank: usize,
    pub ranks: usize,
    /// Mesh node of each local node: the owned ones, then the ghosts.
    pub nodes: Vec<usize>,
    /// How many of `nodes` this rank owns.
    pub owned: usize,
    /// PETSc's (global) index of each local node.
    pub petsc: Vec<i32>,
    /// This rank's elements (indices into [`body_elements`]).
    pub elements: Vec<usize>,
    /// Owned nodes of every rank.
    pub owned_counts: Vec<usize>,
    /// Mesh node of each PETSc index (the owned nodes of rank 0, of rank 1, …).
    pub petsc_to_mesh: Vec<usize>,
}

impl Layout {
    pub fn ghosts(&self) -> usize {
        self.nodes.len() - self.owned
    }
}

/// The element partition: METIS on rank 0, broadcast to all.
fn element_parts(
    world: &World,
    model: &Model,
    elements: &[GlobalElement],
) -> Result<Vec<i32>, PartitionError> {
    let ranks = world.size;
    if ranks == 1 {
        return Ok(vec![0; elements.len()]);
    }
    // the same error on every rank: each holds the whole model
    if ranks > elements.len() {
        return Err(PartitionError::TooManyRanks {
            ranks,
            elements: elements.len(),
        });
    }
    let mut status = 0;
    let parts = if world.is_root() {
        match metis_dual(model, elements, ranks) {
            Ok(p) => p,
            Err(e) => {
                status = match e {
                    PartitionError::Metis(s) => s,
                    _ => -1,
                };
                Vec::new()
            }
        }
    } else {
        Vec::new()
    };
    let status = world.broadcast_i32(0, &[status])[0];
    if status != 0 {
        return Err(if status == -1 {
            PartitionError::TooLarge
        } else {
            PartitionError::Metis(status)
        });
    }
    Ok(world.broadcast_i32(0, &parts))
}

/// `METIS_PartMeshDual` of the body elements into `parts` parts (two
/// elements are neighbours when they share a face: 4 nodes of a hex8, 3 of
/// a tet4, 2 of a 2D element).
fn metis_dual(
    model: &Model,
    elements: &[GlobalElement],
    parts: usize,
) -> Result<Vec<i32>, PartitionError> {
    use metis_sys::idx_t;
    let idx = |v: usize| idx_t::try_from(v).map_err(|_| PartitionError::TooLarge);
    let mut eptr: Vec<idx_t> = Vec::with_capacity(elements.len() + 1);
    let mut eind: Vec<idx_t> = Vec::new();
    eptr.push(0);
    for e in elements {
        for &a in e.element.nodes() {
            eind.push(idx(a)?);
        }
        eptr.push(idx(eind.len())?);
    }
    let mut ne = idx(elements.len())?;
    let mut nn = idx(model.mesh.nodes.len())?;
    let per_element = elements.first().map_or(0, |e| e.element.nodes().len());
    let mut ncommon: idx_t = match (model.dim, per_element) {
        (2, _) => 2,
        (_, 4) => 3,
        _ => 4,
    };
    let mut nparts = idx(parts)?;
    let mut objval: idx_t = 0;
    let mut options = [0 as idx_t; metis_sys::METIS_NOPTIONS as usize];
    let mut epart = vec![0 as idx_t; elements.len()];
    let mut npart = vec![0 as idx_t; model.mesh.nodes.len()];
    assert!(eptr.len() == elements.len() + 1 && eind.len() == eptr[elements.len()] as usize);
    assert!(eind.iter().all(|&v| v >= 0 && v < nn));
    // SAFETY: eptr[0..=ne] indexes eind, whose entries are node indices in
    // [0, nn) (asserted above); epart has ne and npart nn entries; null
    // weights mean unit weights; METIS keeps no pointer after returning.
    // This runs on rank 0 before any other METIS call of the process.
    let status = unsafe {
        metis_sys::METIS_SetDefaultOptions(options.as_mut_ptr());
        options[metis_sys::moptions_et_METIS_OPTION_NUMBERING as usize] = 0;
        metis_sys::METIS_PartMeshDual(
            &mut ne,
            &mut nn,
            eptr.as_mut_ptr(),
            eind.as_mut_ptr(),
            std::ptr::null_mut(),
            std::ptr::null_mut(),
            &mut ncommon,
            &mut nparts,
            std::ptr::null_mut(),
            options.as_mut_ptr(),
            &mut objval,
            epart.as_mut_ptr(),
            npart.as_mut_ptr(),
        )
    };
    if status != metis_sys::rstatus_et_METIS_OK {
        return Err(PartitionError::Metis(status));
    }
    Ok(epart.iter().map(|&p| p as i32).collect())
}

/// This rank's [`Layout`] of `model`.
pub fn partition(world: &World, model: &Model) -> Result<Layout, PartitionError> {
    let elements = body_elements(model);
    let parts = element_parts(world, model, &elements)?;
    let ranks = world.size;
    let n = model.mesh.nodes.len();
    // owner: the lowest rank among a node's elements (usize::MAX: no body)
    let mut owner = vec![usize::MAX; n];
    let mut per_rank = vec![0usize; ranks];
    for (e, &p) in elements.iter().zip(&parts) {
        per_rank[p as usize] += 1;
        for &a in e.element.nodes() {
            owner[a] = owner[a].min(p as usize);
        }
    }
    if let Some(rank) = per_rank.iter().position(|&c| c == 0) {
        return Err(PartitionError::EmptyRank {
            rank,
            ranks,
            elements: elements.len(),
        });
    }
    let mut owned_counts = vec![0usize; ranks];
    for &o in owner.iter().filter(|&&o| o != usize::MAX) {
        owned_counts[o] += 1;
    }
    let mut next: Vec<usize> = owned_counts
        .iter()
        .scan(0, |acc, &c| {
            let start = *acc;
            *acc += c;
            Some(start)
        })
        .collect();
    let mut petsc_of = vec![-1i32; n];
    let mut petsc_to_mesh = vec![0usize; owned_counts.iter().sum()];
    for a in 0..n {
        if owner[a] != usize::MAX {
            petsc_of[a] = next[owner[a]] as i32;
            petsc_to_mesh[next[owner[a]]] = a;
            next[owner[a]] += 1;
        }
    }
    let rank = world.rank;
    let mine: Vec<usize> = (0..elements.len())
        .filter(|&e| parts[e] as usize == rank)
        .collect();
    let mut local = vec![false; n];
    for &e in &mine {
        for &a in elements[e].element.nodes() {
            local[a] = true;
        }
    }
    let mut nodes: Vec<usize> = (0..n).filter(|&a| owner[a] == rank).collect();
    let owned = nodes.len();
    nodes.extend((0..n).filter(|&a| local[a] && owner[a] != rank));
    let petsc = nodes.iter().map(|&a| petsc_of[a]).collect();
    Ok(Layout {
        rank,
        ranks,
        nodes,
        owned,
        petsc,
        elements: mine,
        owned_counts,
        petsc_to_mesh,
    })
}
