//! Contact across ranks, the gathered design (docs/parallel.md, "Contact
//! across ranks"): every rank holds the whole [`ContactSet`] and runs the
//! serial contact code on mesh-sized vectors whose contact-surface entries
//! are all-gathered from their owners, so every rank evaluates every point
//! alike (the same bits) and takes the same decisions.
//!
//! * positions and velocities of the surface nodes: all-gathered into
//!   mesh-sized vectors ([`MeshGather`]) at the step's start and at every
//!   evaluation;
//! * the contact force: evaluated whole on every rank, each rank adding it
//!   to its local nodes (owned and ghosts: the force is complete);
//! * the contact tangent: evaluated on a mesh-numbered pattern of the
//!   contact couplings alone ([`ContactBlocks`]), each rank handing PETSc
//!   the entries of the rows it owns (extra COO triplets after its element
//!   share, rebuilt when the couplings grow, as the serial build redoes its
//!   symbolic analysis);
//! * the condensed subproblem: `W = B K⁻¹ H` and `K⁻¹ R` through the
//!   distributed KSP ([`RankSolves`], the linear algebra behind
//!   [`NewtonSolves`]), the right-hand sides mesh-sized columns whose owned
//!   entries each rank hands over, the solutions all-gathered back on the
//!   dofs the subproblem reads; the subproblem itself is solved on every
//!   rank alike.

use super::comm::World;
use super::linear::{Linear, LinearError};
use super::partition::Layout;
use emcontact::contact::enforce::NewtonSolves;
use emcontact::contact::surface::Master;
use emcontact::contact::ContactSet;
use emcontact::linalg::{BlockPattern, LinearSolveError};
use emcontact::model::Model;

/// Mesh-sized vectors from the ranks' owned entries: who owns each mesh
/// node, and where it sits among a rank's local nodes.
pub struct MeshGather {
    /// Owning rank of each mesh node (`u32::MAX`: a node of no body, which
    /// no rank holds).
    owner: Vec<u32>,
    /// Local index of each mesh node on this rank (`usize::MAX`: not local).
    local_of: Vec<usize>,
    rank: usize,
    ranks: usize,
    dim: usize,
}

impl MeshGather {
    pub fn new(layout: &Layout, mesh_nodes: usize, dim: usize) -> MeshGather {
        let mut owner = vec![u32::MAX; mesh_nodes];
        let mut p = 0;
        for (r, &count) in layout.owned_counts.iter().enumerate() {
            for &a in &layout.petsc_to_mesh[p..p + count] {
                owner[a] = r as u32;
            }
            p += count;
        }
        let mut local_of = vec![usize::MAX; mesh_nodes];
        for (l, &a) in layout.nodes.iter().enumerate() {
            local_of[a] = l;
        }
        MeshGather {
            owner,
            local_of,
            rank: layout.rank,
            ranks: layout.ranks,
            dim,
        }
    }

    /// Local index of mesh node `a` on this rank, if it is local.
    pub fn local(&self, a: usize) -> Option<usize> {
        let l = self.local_of[a];
        (l != usize::MAX).then_some(l)
    }

    /// `out[d] = v[d]` for every mesh dof `d` of `dofs` (sorted), each taken
    /// from its owner's `local` vector (its local numbering) and
    /// all-gathered; dofs of nodes no rank holds are left as they are.
    pub fn gather(&self, world: &World, dofs: &[usize], local: &[f64], out: &mut [f64]) {
        let n = out.len();
        self.gather_columns(world, dofs, (local, local.len()), (out, n), 1);
    }

    /// [`MeshGather::gather`] for `ncols` columns at once (one message
    /// round): column `c` of `local` at `c · local_len`, of `out` at `c · n`.
    pub fn gather_columns(
        &self,
        world: &World,
        dofs: &[usize],
        (local, local_len): (&[f64], usize),
        (out, n): (&mut [f64], usize),
        ncols: usize,
    ) {
        let d = self.dim;
        let held = |&&dof: &&usize| self.owner[dof / d] != u32::MAX;
        let owner = |dof: usize| self.owner[dof / d] as usize;
        let mut counts = vec![0usize; self.ranks];
        for &dof in dofs.iter().filter(held) {
            counts[owner(dof)] += ncols;
        }
        let mut mine = Vec::with_capacity(counts[self.rank]);
        for c in 0..ncols {
            for &dof in dofs
                .iter()
                .filter(held)
                .filter(|&&dof| owner(dof) == self.rank)
            {
                mine.push(local[c * local_len + self.local_of[dof / d] * d + dof % d]);
            }
        }
        let all = world.all_gather_var(&mine, &counts);
        let mut k = 0;
        for r in 0..self.ranks {
            for c in 0..ncols {
                for &dof in dofs.iter().filter(held).filter(|&&dof| owner(dof) == r) {
                    out[c * n + dof] = all[k];
                    k += 1;
                }
            }
        }
    }

    /// `local[l] = mesh[node of l]` on the local dofs of the nodes of `dofs`.
    pub fn scatter(&self, dofs: &[usize], mesh: &[f64], local: &mut [f64]) {
        let d = self.dim;
        for &dof in dofs {
            if let Some(l) = self.local(dof / d) {
                local[l * d + dof % d] = mesh[dof];
            }
        }
    }
}

/// The dofs of every node of the contact surfaces (slaves and deformable
/// masters of every pair), sorted.
pub fn surface_dofs(set: &ContactSet, dim: usize) -> Vec<usize> {
    let mut nodes: Vec<usize> = Vec::new();
    for p in set.pairs() {
        let s = p.surface();
        nodes.extend_from_slice(&s.slaves);
        if let Master::Faces(faces) = &s.master {
            for f in faces {
                nodes.extend_from_slice(f.nodes());
            }
        }
    }
    nodes.sort_unstable();
    nodes.dedup();
    nodes
        .iter()
        .flat_map(|&a| (0..dim).map(move |i| a * dim + i))
        .collect()
}

/// The constrained dofs of the whole mesh (fixed or prescribed, and every
/// dof of a node of no body), as the serial `System` has them.
pub fn mesh_fixed(model: &Model, gather: &MeshGather, dim: usize) -> Vec<bool> {
    let n = model.mesh.nodes.len();
    let mut fixed = vec![false; n * dim];
    for a in 0..n {
        if gather.owner[a] == u32::MAX {
            fixed[a * dim..a * dim + dim]
                .iter_mut()
                .for_each(|f| *f = true);
        }
    }
    for bc in &model.boundaries {
        let constrained = bc.constrained();
        for a in model.mesh.group_nodes(&bc.group).unwrap_or_default() {
            for i in (0..dim).filter(|&i| constrained[i]) {
                fixed[a * dim + i] = true;
            }
        }
    }
    fixed
}

/// The contact tangent's blocks: a mesh-numbered pattern of the contact
/// couplings alone, its values, and which of them this rank hands PETSc.
pub struct ContactBlocks {
    /// The coupled node lists (the broad phase's, as `System::set_couplings`).
    pub couplings: Vec<Vec<usize>>,
    pub pattern: BlockPattern,
    /// Values on `pattern` (`−∂f_c/∂x₁`, filled by `ContactSet::evaluate`).
    pub values: Vec<f64>,
    /// Positions in `values` of the entries of this rank's owned rows, in
    /// the order of the extra COO triplets, and their PETSc row and column.
    pub owned: Vec<usize>,
    pub rows: Vec<i32>,
    pub cols: Vec<i32>,
    /// Entries of `owned` in a constrained row or column (zero).
    pub fixed: Vec<usize>,
}

impl ContactBlocks {
    /// No couplings yet.
    pub fn empty(mesh_nodes: usize, dim: usize) -> ContactBlocks {
        ContactBlocks {
            couplings: Vec::new(),
            pattern: BlockPattern::new(mesh_nodes, dim, std::iter::empty::<&[usize]>()),
            values: Vec::new(),
            owned: Vec::new(),
            rows: Vec::new(),
            cols: Vec::new(),
            fixed: Vec::new(),
        }
    }

    /// Whether the pattern already couples every list of `lists` (the
    /// serial `System::set_couplings` test).
    pub fn covers(&self, lists: &[Vec<usize>]) -> bool {
        lists.iter().all(|l| {
            l.iter()
                .all(|&a| l.iter().all(|&b| self.pattern.block_offset(a, b).is_some()))
        })
    }

    /// The pattern of `couplings` and this rank's triplets of it.
    pub fn new(
        couplings: Vec<Vec<usize>>,
        gather: &MeshGather,
        layout: &Layout,
        fixed: &[bool],
        dim: usize,
    ) -> ContactBlocks {
        let n = gather.owner.len();
        let pattern = BlockPattern::new(n, dim, couplings.iter().map(|l| &l[..]));
        let mut coupled = vec![false; n];
        couplings.iter().flatten().for_each(|&a| coupled[a] = true);
        let mut petsc_of = vec![-1i32; n];
        for (p, &a) in layout.petsc_to_mesh.iter().enumerate() {
            petsc_of[a] = p as i32;
        }
        let sym = pattern.symbolic();
        let (col_ptr, row_idx) = (sym.col_ptr(), sym.row_idx());
        let (mut owned, mut rows, mut cols, mut fixed_at) = (vec![], vec![], vec![], vec![]);
        let dof = |d: usize| petsc_of[d / dim] * dim as i32 + (d % dim) as i32;
        for c in 0..n * dim {
            if !coupled[c / dim] || petsc_of[c / dim] < 0 {
                continue;
            }
            for k in col_ptr[c]..col_ptr[c + 1] {
                let r = row_idx[k];
                let a = r / dim;
                if !coupled[a] || gather.owner[a] as usize != layout.rank {
                    continue;
                }
                if fixed[r] || fixed[c] {
                    fixed_at.push(owned.len());
                }
                owned.push(k);
                rows.push(dof(r));
                cols.push(dof(c));
            }
        }
        let nnz = pattern.nnz();
        ContactBlocks {
            couplings,
            pattern,
            values: vec![0.0; nnz],
            owned,
            rows,
            cols,
            fixed: fixed_at,
        }
    }

    /// This rank's extra COO values (the owned rows' entries, constrained
    /// ones zero) into `out`.
    pub fn owned_values(&self, out: &mut [f64]) {
        for (o, &k) in out.iter_mut().zip(&self.owned) {
            *o = self.values[k];
        }
        for &i in &self.fixed {
            out[i] = 0.0;
        }
    }
}

/// The condensed path's solves with the distributed Newton matrix (whose
/// values the caller has set): each mesh-sized column's owned entries
/// handed to the KSP, the solution all-gathered back.
pub struct RankSolves<'a, 'p> {
    pub linear: &'a mut Linear<'p>,
    pub gather: &'a MeshGather,
    pub world: &'a World,
    /// This rank's owned nodes (mesh numbering).
    pub owned: &'a [usize],
    /// Every dof of the mesh (the full solves' gather).
    pub all: &'a [usize],
    pub dim: usize,
    /// Krylov iterations of the solves.
    pub iterations: usize,
}

impl RankSolves<'_, '_> {
    /// Solves the `ncols` mesh-sized columns of `rhs` in place; the
    /// solutions are gathered on `dofs`.
    fn columns(
        &mut self,
        rhs: &mut [f64],
        ncols: usize,
        dofs: &[usize],
    ) -> Result<(), LinearSolveError> {
        let d = self.dim;
        let n = rhs.len() / ncols.max(1);
        let m = self.owned.len() * d;
        let mut b = vec![0.0; m * ncols];
        for c in 0..ncols {
            for (l, &a) in self.owned.iter().enumerate() {
                for i in 0..d {
                    b[c * m + l * d + i] = rhs[c * n + a * d + i];
                }
            }
        }
        let mut x = vec![0.0; m * ncols];
        self.iterations += self
            .linear
            .solve_block(&mut b, &mut x, ncols)
            .map_err(|e: LinearError| LinearSolveError::Numeric(e.to_string()))?;
        // the owned entries in local numbering are the first ones
        self.gather
            .gather_columns(self.world, dofs, (&x, m), (rhs, n), ncols);
        Ok(())
    }
}

impl NewtonSolves for RankSolves<'_, '_> {
    fn solve(&mut self, rhs: &mut [f64], ncols: usize) -> Result<(), LinearSolveError> {
        let all = self.all;
        self.columns(rhs, ncols, all)
    }

    fn solve_restricted(
        &mut self,
        rhs: &mut [f64],
        ncols: usize,
        dofs: &[usize],
    ) -> Result<(), LinearSolveError> {
        self.columns(rhs, ncols, dofs)
    }
}
