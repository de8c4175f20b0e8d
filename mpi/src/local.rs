//! A rank's part of the discrete system: the serial build's
//! [`System`](emcontact::dynamics::System) of its own elements over its local
//! nodes (owned, then ghosts), so that the element kernels, the coloured
//! assembly and the mass are the serial code's, plus what turns local
//! contributions into global ones:
//!
//! * the lumped masses of the interface nodes summed over the ranks (a
//!   node's elements may sit on several ranks); the local `System` keeps its
//!   own elements' share, which is what its tangent and residual assembly
//!   add (PETSc sums the shares);
//! * the constrained dofs (fixed or prescribed) from the whole mesh's
//!   boundary groups (a support face need not lie on the rank of every
//!   node it constrains);
//! * the COO triplets of the local block pattern in PETSc's numbering, in
//!   the order of the pattern's values, so that a local assembly is handed
//!   to PETSc as it is ([`super::petsc::Matrix::set_values`]).

use super::partition::{body_elements, Layout};
use super::petsc::{GhostVec, Petsc, PetscError};
use emcontact::dynamics::system::SetupError;
use emcontact::dynamics::System;
use emcontact::mesh::{Element, Group, Mesh};
use emcontact::model::Model;

/// A rank's system and the maps between local and global.
pub struct LocalSystem<const D: usize> {
    pub sys: System<D>,
    /// Complete lumped mass of each local node (all ranks' elements).
    pub mass: Vec<f64>,
    /// COO row and column (PETSc dof numbering) of each stored entry of
    /// `sys.pattern`, in the order of its values.
    pub coo_rows: Vec<i32>,
    pub coo_cols: Vec<i32>,
    /// Entries zeroed by the fixed dofs (a fixed row or column), and the
    /// diagonals set to one (fixed dofs of owned nodes only: the ranks'
    /// shares are summed, so a ghost's diagonal stays zero).
    fixed_zero: Vec<usize>,
    fixed_one: Vec<usize>,
}

/// The model restricted to this rank's elements and local nodes: one group
/// per body with its local elements, no supports and no contact (supports
/// are imposed from the whole mesh, [`LocalSystem::new`]).
fn local_model(model: &Model, layout: &Layout) -> Model {
    let elements = body_elements(model);
    let mut local_of = vec![usize::MAX; model.mesh.nodes.len()];
    for (l, &a) in layout.nodes.iter().enumerate() {
        local_of[a] = l;
    }
    let mut groups: Vec<Group> = model
        .bodies
        .iter()
        .map(|b| Group {
            name: b.group.clone(),
            dim: model.dim,
            elements: Vec::new(),
            tags: Vec::new(),
        })
        .collect();
    for &e in &layout.elements {
        let ge = &elements[e];
        let nodes: Vec<usize> = ge.element.nodes().iter().map(|&a| local_of[a]).collect();
        groups[ge.body]
            .elements
            .push(Element::new(ge.element.kind, &nodes));
    }
    let mesh = Mesh {
        dim: model.mesh.dim,
        nodes: layout.nodes.iter().map(|&a| model.mesh.nodes[a]).collect(),
        groups,
        ..Mesh::default()
    };
    Model {
        name: model.name.clone(),
        dim: model.dim,
        time: model.time,
        solver: model.solver,
        output: model.output.clone(),
        mesh,
        bodies: model.bodies.clone(),
        boundaries: Vec::new(),
        gravity: model.gravity,
        contacts: Vec::new(),
        curves: Vec::new(),
        loads: Vec::new(),
        source: model.source.clone(),
        warnings: Vec::new(),
        petsc_options: model.petsc_options.clone(),
    }
}

impl<const D: usize> LocalSystem<D> {
    pub fn new(
        model: &Model,
        layout: &Layout,
        petsc: &Petsc,
    ) -> Result<LocalSystem<D>, LocalError> {
        let local = local_model(model, layout);
        let mut sys = System::<D>::new(&local)?;
        let n = layout.nodes.len();
        // the complete masses: shares summed at the owners, then sent to the ghosts
        let mut mass = sys.lumped.clone();
        let ghosts: Vec<i32> = layout.petsc[layout.owned..].to_vec();
        let mut scalar = GhostVec::new(petsc, 1, layout.owned, &ghosts)?;
        scalar.reverse_add(&mut mass)?;
        scalar.forward(&mut mass)?;
        // supports from the whole mesh
        let mut local_of = vec![usize::MAX; model.mesh.nodes.len()];
        for (l, &a) in layout.nodes.iter().enumerate() {
            local_of[a] = l;
        }
        for bc in &model.boundaries {
            for a in model.mesh.group_nodes(&bc.group).unwrap_or_default() {
                if local_of[a] == usize::MAX {
                    continue;
                }
                let constrained = bc.constrained();
                for i in (0..D).filter(|&i| constrained[i]) {
                    sys.fixed[local_of[a] * D + i] = true;
                }
            }
        }
        let dof = |l: usize| layout.petsc[l / D] * D as i32 + (l % D) as i32;
        let sym = sys.pattern.symbolic();
        let (col_ptr, row_idx) = (sym.col_ptr(), sym.row_idx());
        let nnz = row_idx.len();
        let mut coo_rows = Vec::with_capacity(nnz);
        let mut coo_cols = Vec::with_capacity(nnz);
        let mut fixed_zero = Vec::new();
        let mut fixed_one = Vec::new();
        for c in 0..n * D {
            for k in col_ptr[c]..col_ptr[c + 1] {
                let r = row_idx[k];
                coo_rows.push(dof(r));
                coo_cols.push(dof(c));
                if sys.fixed[r] || sys.fixed[c] {
                    fixed_zero.push(k);
                    if r == c && r / D < layout.owned {
                        fixed_one.push(k);
                    }
                }
            }
        }
        Ok(LocalSystem {
            sys,
            mass,
            coo_rows,
            coo_cols,
            fixed_zero,
            fixed_one,
        })
    }

    /// Imposes the fixed dofs on this rank's share of a Newton matrix.
    pub fn apply_fixed(&self, k: &mut [f64]) {
        for &p in &self.fixed_zero {
            k[p] = 0.0;
        }
        for &p in &self.fixed_one {
            k[p] = 1.0;
        }
    }
}

/// Why a rank's system could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    #[error("{0}")]
    Setup(#[from] SetupError),
    #[error("{0}")]
    Petsc(#[from] PetscError),
}
