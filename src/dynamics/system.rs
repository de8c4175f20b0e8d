//! The discrete system of one model: dofs, mass, and parallel assembly of the
//! internal force and its tangent into the block CSC pattern.
//!
//! Dof layout: node `A`, component `i` → `A·D + i`, for every node of the mesh.
//! Nodes that belong to no body carry no mass and are held fixed.

use crate::fe::kernel::{self, KernelError, StressEval};
use crate::fe::MAX_NODES;
use crate::linalg::{color_elements, share_no_node, BlockPattern};
use crate::material::Material;
use crate::mesh::Element;
use crate::model::{MassKind, Model};
use rayon::prelude::*;

/// Largest element: 27 nodes × 3 components.
const MAX_DOF: usize = 3 * MAX_NODES;

/// One thread's element arrays, sized for the largest element and reused from
/// element to element: the assembly neither allocates nor clears them per
/// element (the gathers and the kernel overwrite the `n` nodes and `(n·D)²`
/// tangent values an element uses; only its `n·D` forces are zeroed), so a
/// hex8 does not pay for the size of a hex27 (whose tangent alone is 52 kB).
struct ElementScratch {
    xr: [[f64; 3]; MAX_NODES],
    xa: [[f64; 3]; MAX_NODES],
    xb: [[f64; 3]; MAX_NODES],
    fe: [f64; MAX_DOF],
    ke: Vec<f64>,
}

thread_local! {
    static SCRATCH: std::cell::RefCell<ElementScratch> = std::cell::RefCell::new(ElementScratch {
        xr: [[0.0; 3]; MAX_NODES],
        xa: [[0.0; 3]; MAX_NODES],
        xb: [[0.0; 3]; MAX_NODES],
        fe: [0.0; MAX_DOF],
        ke: vec![0.0; MAX_DOF * MAX_DOF],
    });
}

/// One element of a body.
#[derive(Debug, Clone, Copy)]
pub struct BodyElement {
    pub element: Element,
    pub body: usize,
}

/// A raw pointer that may be shared across the threads of one colour: elements
/// of a colour touch disjoint nodes, hence disjoint entries. What makes the
/// writes through it sound is checked, not assumed: the colouring at
/// [`System::new`] (`share_no_node`), the lengths of `f` and `k` and every
/// entry's column in [`System::assemble`].
#[derive(Clone, Copy)]
struct Shared(*mut f64);
unsafe impl Send for Shared {}
unsafe impl Sync for Shared {}

impl Shared {
    /// # Safety
    /// No other thread may access index `k` concurrently.
    #[inline]
    unsafe fn add(self, k: usize, v: f64) {
        *self.0.add(k) += v;
    }
}

/// Mass, pattern and element data of a model in dimension `D`.
pub struct System<const D: usize> {
    pub n_nodes: usize,
    pub xref: Vec<[f64; 3]>,
    pub elements: Vec<BodyElement>,
    pub materials: Vec<Material>,
    pub pattern: BlockPattern,
    colors: Vec<Vec<usize>>,
    /// Per element: start of its `n²` node-pair block offsets in `pair_off`.
    pair_start: Vec<usize>,
    pair_off: Vec<u32>,
    /// Nodal masses, per node: the row sums `m_A = ∫ ρ N_A dV` of the element
    /// matrices [`kernel::mass`] returns (for a lumped body its diagonal: row
    /// sums on first-order elements, HRZ on second-order ones).
    pub lumped: Vec<f64>,
    /// Consistent mass values on `pattern` (`D×D` identity blocks), when used.
    pub consistent: Option<Vec<f64>>,
    /// Constrained dofs: fixed, prescribed, or of a node of no body.
    pub fixed: Vec<bool>,
    /// Positions of entries in fixed rows or columns, and of fixed diagonals.
    fixed_entries: Vec<usize>,
    fixed_diagonals: Vec<usize>,
    /// Body of each node (`usize::MAX`: none).
    pub node_body: Vec<usize>,
    /// Extra node couplings in the pattern (contact), sorted lists.
    couplings: Vec<Vec<usize>>,
    /// Per body: density and whether its mass is consistent (to rebuild the mass on a new pattern).
    body_mass: Vec<(f64, bool)>,
}

/// Why the system could not be set up.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    #[error("body '{body}': element {index} of group '{group}': {source}")]
    Element {
        body: String,
        group: String,
        index: usize,
        #[source]
        source: KernelError,
    },
    #[error("body '{body}': group '{group}' has {kind} elements, expected {dim}D volume elements")]
    WrongKind {
        body: String,
        group: String,
        kind: &'static str,
        dim: usize,
    },
    #[error("no body has any element")]
    Empty,
}

#[inline]
fn gather<const D: usize>(x: &[f64], nodes: &[usize], out: &mut [[f64; 3]; MAX_NODES]) {
    for (k, &a) in nodes.iter().enumerate() {
        let mut p = [0.0; 3];
        p[..D].copy_from_slice(&x[a * D..a * D + D]);
        out[k] = p;
    }
}

impl<const D: usize> System<D> {
    /// Builds dofs, pattern, colours and mass for `model` (all bodies).
    pub fn new(model: &Model) -> Result<System<D>, SetupError> {
        let mesh = &model.mesh;
        let n_nodes = mesh.nodes.len();
        let mut elements = Vec::new();
        let mut materials = Vec::new();
        for (b, body) in model.bodies.iter().enumerate() {
            materials.push(body.material);
            let group = mesh
                .group(&body.group)
                .expect("input checked the group exists");
            for e in &group.elements {
                if e.kind.ref_dim() != D {
                    return Err(SetupError::WrongKind {
                        body: body.name.clone(),
                        group: body.group.clone(),
                        kind: e.kind.name(),
                        dim: D,
                    });
                }
                elements.push(BodyElement {
                    element: *e,
                    body: b,
                });
            }
        }
        if elements.is_empty() {
            return Err(SetupError::Empty);
        }
        let pattern = BlockPattern::new(n_nodes, D, elements.iter().map(|e| e.element.nodes()));
        let colors = color_elements(elements.len(), n_nodes, |e| elements[e].element.nodes());
        // parallel assembly writes through shared pointers on this (`Shared`)
        assert!(
            share_no_node(&colors, elements.len(), n_nodes, |e| elements[e]
                .element
                .nodes()),
            "element colouring: two elements of one colour share a node"
        );
        let mut pair_start = Vec::with_capacity(elements.len() + 1);
        let mut pair_off = Vec::new();
        for e in &elements {
            pair_start.push(pair_off.len());
            for &a in e.element.nodes() {
                for &b in e.element.nodes() {
                    pair_off.push(
                        pattern
                            .block_offset(a, b)
                            .expect("element nodes are coupled") as u32,
                    );
                }
            }
        }
        pair_start.push(pair_off.len());

        let mut node_body = vec![usize::MAX; n_nodes];
        for e in &elements {
            for &a in e.element.nodes() {
                node_body[a] = e.body;
            }
        }

        let mut sys = System {
            n_nodes,
            xref: mesh.nodes.clone(),
            elements,
            materials,
            pattern,
            colors,
            pair_start,
            pair_off,
            lumped: vec![0.0; n_nodes],
            consistent: None,
            fixed: vec![false; n_nodes * D],
            fixed_entries: Vec::new(),
            fixed_diagonals: Vec::new(),
            node_body,
            couplings: Vec::new(),
            body_mass: model
                .bodies
                .iter()
                .map(|b| (b.density, b.mass == MassKind::Consistent))
                .collect(),
        };
        sys.build_mass(model)?;
        // Nodes of no body: no mass, held fixed.
        for a in 0..n_nodes {
            if sys.node_body[a] == usize::MAX {
                for i in 0..D {
                    sys.fixed[a * D + i] = true;
                }
            }
        }
        // fixed and prescribed components alike: Newton does not move them
        // (a prescribed one is set before Newton, `super::prescribed`)
        for bc in &model.boundaries {
            let constrained = bc.constrained();
            for a in mesh
                .group_nodes(&bc.group)
                .expect("input checked the group exists")
            {
                for i in 0..D {
                    if constrained[i] {
                        sys.fixed[a * D + i] = true;
                    }
                }
            }
        }
        sys.index_fixed();
        Ok(sys)
    }

    /// The extra node couplings the pattern holds (set by [`System::set_couplings`]).
    pub fn couplings(&self) -> &[Vec<usize>] {
        &self.couplings
    }

    /// Rebuilds the pattern so that it also couples the nodes of each list in
    /// `couplings` (contact pairs). Returns `false` (and does nothing) when the
    /// pattern already holds every coupling; the caller then keeps its symbolic
    /// factorization.
    pub fn set_couplings(&mut self, couplings: Vec<Vec<usize>>) -> bool {
        let covered = couplings.iter().all(|l| {
            l.iter()
                .all(|&a| l.iter().all(|&b| self.pattern.block_offset(a, b).is_some()))
        });
        if covered {
            return false;
        }
        self.couplings = couplings;
        let lists = self
            .elements
            .iter()
            .map(|e| e.element.nodes())
            .chain(self.couplings.iter().map(|l| &l[..]));
        self.pattern = BlockPattern::new(self.n_nodes, D, lists);
        self.pair_off.clear();
        for e in &self.elements {
            for &a in e.element.nodes() {
                for &b in e.element.nodes() {
                    self.pair_off.push(
                        self.pattern
                            .block_offset(a, b)
                            .expect("element nodes are coupled") as u32,
                    );
                }
            }
        }
        if self.consistent.is_some() {
            self.consistent = Some(self.consistent_mass_values());
        }
        self.index_fixed();
        true
    }

    /// Consistent mass values on the current pattern.
    fn consistent_mass_values(&self) -> Vec<f64> {
        let mut c = vec![0.0; self.pattern.nnz()];
        let mut me = [0.0; MAX_NODES * MAX_NODES];
        let mut xe = [[0.0; 3]; MAX_NODES];
        for (idx, be) in self.elements.iter().enumerate() {
            let (density, consistent) = self.body_mass[be.body];
            let nodes = be.element.nodes();
            let n = nodes.len();
            for (k, &a) in nodes.iter().enumerate() {
                xe[k] = self.xref[a];
            }
            kernel::mass::<D>(
                be.element.kind,
                density,
                &xe[..n],
                !consistent,
                &mut me[..n * n],
            )
            .expect("the mass was computed on this element before");
            let start = self.pair_start[idx];
            for a in 0..n {
                for b in 0..n {
                    let off = self.pair_off[start + a * n + b] as usize;
                    for i in 0..D {
                        c[self.pattern.position(off, i, nodes[b], i)] += me[a * n + b];
                    }
                }
            }
        }
        c
    }

    fn build_mass(&mut self, model: &Model) -> Result<(), SetupError> {
        let any_consistent = self.body_mass.iter().any(|b| b.1);
        let mut cons = any_consistent.then(|| vec![0.0; self.pattern.nnz()]);
        let mut me = [0.0; MAX_NODES * MAX_NODES];
        let mut xe = [[0.0; 3]; MAX_NODES];
        for (idx, be) in self.elements.iter().enumerate() {
            let body = &model.bodies[be.body];
            let nodes = be.element.nodes();
            let n = nodes.len();
            for (k, &a) in nodes.iter().enumerate() {
                xe[k] = self.xref[a];
            }
            let lumped = body.mass == MassKind::Lumped;
            kernel::mass::<D>(
                be.element.kind,
                body.density,
                &xe[..n],
                lumped,
                &mut me[..n * n],
            )
            .map_err(|source| SetupError::Element {
                body: body.name.clone(),
                group: body.group.clone(),
                index: idx,
                source,
            })?;
            for a in 0..n {
                let row_sum: f64 = me[a * n..a * n + n].iter().sum();
                self.lumped[nodes[a]] += row_sum;
            }
            if let Some(c) = cons.as_mut() {
                let start = self.pair_start[idx];
                for a in 0..n {
                    for b in 0..n {
                        let off = self.pair_off[start + a * n + b] as usize;
                        for i in 0..D {
                            c[self.pattern.position(off, i, nodes[b], i)] += me[a * n + b];
                        }
                    }
                }
            }
        }
        self.consistent = cons;
        Ok(())
    }

    fn index_fixed(&mut self) {
        let cp = self.pattern.symbolic().col_ptr().to_vec();
        let ri = self.pattern.symbolic().row_idx();
        self.fixed_entries.clear();
        for c in 0..self.pattern.n() {
            for k in cp[c]..cp[c + 1] {
                if self.fixed[c] || self.fixed[ri[k]] {
                    self.fixed_entries.push(k);
                }
            }
        }
        self.fixed_diagonals = (0..self.pattern.n())
            .filter(|&r| self.fixed[r])
            .map(|r| self.pattern.diagonal_position(r))
            .collect();
    }

    /// Number of dofs.
    pub fn n_dofs(&self) -> usize {
        self.n_nodes * D
    }

    /// Internal force `f` (overwritten) and, when given, its tangent `∂f/∂x1`
    /// (values on `pattern`, overwritten), assembled in parallel by colour.
    pub fn assemble(
        &self,
        x0: &[f64],
        x1: &[f64],
        eval: StressEval,
        f: &mut [f64],
        mut k: Option<&mut [f64]>,
    ) -> Result<(), KernelError> {
        // the writes through `Shared` below stay inside f and k
        assert_eq!(f.len(), self.n_dofs(), "internal force of another size");
        f.iter_mut().for_each(|v| *v = 0.0);
        if let Some(k) = k.as_deref_mut() {
            assert_eq!(k.len(), self.pattern.nnz(), "values of another pattern");
            k.iter_mut().for_each(|v| *v = 0.0);
        }
        let col_ptr = self.pattern.symbolic().col_ptr();
        let fp = Shared(f.as_mut_ptr());
        let kp = k.map(|k| Shared(k.as_mut_ptr()));
        for color in &self.colors {
            color.par_iter().try_for_each(|&e| {
                let be = &self.elements[e];
                let nodes = be.element.nodes();
                let n = nodes.len();
                let nd = n * D;
                SCRATCH.with_borrow_mut(|s| {
                    let ElementScratch { xr, xa, xb, fe, ke } = s;
                    for (i, &a) in nodes.iter().enumerate() {
                        xr[i] = self.xref[a];
                    }
                    gather::<D>(x0, nodes, xa);
                    gather::<D>(x1, nodes, xb);
                    fe[..nd].fill(0.0);
                    kernel::internal_force::<D>(
                        be.element.kind,
                        &self.materials[be.body],
                        &xr[..n],
                        &xa[..n],
                        &xb[..n],
                        eval,
                        &mut fe[..nd],
                        kp.map(|_| &mut ke[..nd * nd]),
                    )?;
                    // SAFETY: the colouring was checked at `System::new`: no other
                    // element of this colour, hence no other thread, has a node of
                    // this element. Its writes go to f's entries of its own nodes
                    // (`na < n_nodes`, checked there; f's length asserted above)
                    // and to k's entries in the columns of its own nodes (each
                    // block asserted inside its column below; k's length asserted
                    // above; the columns of distinct dofs are disjoint ranges of a
                    // CSC pattern, whose `col_ptr` faer checks to be monotone).
                    unsafe {
                        for (a, &na) in nodes.iter().enumerate() {
                            for i in 0..D {
                                fp.add(na * D + i, fe[a * D + i]);
                            }
                        }
                        if let Some(kp) = kp {
                            let start = self.pair_start[e];
                            for b in 0..n {
                                for a in 0..n {
                                    let off = self.pair_off[start + a * n + b] as usize;
                                    for j in 0..D {
                                        let col = nodes[b] * D + j;
                                        let base = self.pattern.position(off, 0, nodes[b], j);
                                        assert!(
                                            base + D <= col_ptr[col + 1],
                                            "block outside its column"
                                        );
                                        for i in 0..D {
                                            kp.add(base + i, ke[(a * D + i) * nd + b * D + j]);
                                        }
                                    }
                                }
                            }
                        }
                    }
                    Ok(())
                })
            })?;
        }
        Ok(())
    }

    /// Total strain energy `Σ_e ∫ W dV` in configuration `x`. The element
    /// energies are computed in parallel and summed in element order, so the
    /// result does not depend on how the threads split the work (a restarted
    /// run must write the same `history.csv` bit for bit).
    pub fn strain_energy(&self, x: &[f64]) -> Result<f64, KernelError> {
        let energies: Vec<f64> = self
            .elements
            .par_iter()
            .map(|be| {
                let nodes = be.element.nodes();
                let n = nodes.len();
                let mut xr = [[0.0; 3]; MAX_NODES];
                let mut xa = [[0.0; 3]; MAX_NODES];
                for (i, &a) in nodes.iter().enumerate() {
                    xr[i] = self.xref[a];
                }
                gather::<D>(x, nodes, &mut xa);
                kernel::strain_energy::<D>(
                    be.element.kind,
                    &self.materials[be.body],
                    &xr[..n],
                    &xa[..n],
                )
            })
            .collect::<Result<_, _>>()?;
        Ok(energies.iter().sum())
    }

    /// Strain energy of each body in configuration `x` (`out.len()` = bodies).
    pub fn strain_energy_by_body(&self, x: &[f64], out: &mut [f64]) -> Result<(), KernelError> {
        out.iter_mut().for_each(|e| *e = 0.0);
        let mut xr = [[0.0; 3]; MAX_NODES];
        let mut xa = [[0.0; 3]; MAX_NODES];
        for be in &self.elements {
            let nodes = be.element.nodes();
            let n = nodes.len();
            for (i, &a) in nodes.iter().enumerate() {
                xr[i] = self.xref[a];
            }
            gather::<D>(x, nodes, &mut xa);
            out[be.body] += kernel::strain_energy::<D>(
                be.element.kind,
                &self.materials[be.body],
                &xr[..n],
                &xa[..n],
            )?;
        }
        Ok(())
    }

    /// `out = M v`.
    pub fn mass_times(&self, v: &[f64], out: &mut [f64]) {
        match &self.consistent {
            Some(c) => self.pattern.mul(c, v, out),
            None => {
                for a in 0..self.n_nodes {
                    for i in 0..D {
                        out[a * D + i] = self.lumped[a] * v[a * D + i];
                    }
                }
            }
        }
    }

    /// Adds `c·M` to matrix values `k` on `pattern`.
    pub fn add_mass(&self, c: f64, k: &mut [f64]) {
        match &self.consistent {
            Some(m) => k.iter_mut().zip(m).for_each(|(kv, mv)| *kv += c * mv),
            None => {
                for a in 0..self.n_nodes {
                    for i in 0..D {
                        k[self.pattern.diagonal_position(a * D + i)] += c * self.lumped[a];
                    }
                }
            }
        }
    }

    /// Imposes the fixed dofs on a Newton matrix: zero rows and columns, unit diagonal.
    pub fn apply_fixed(&self, k: &mut [f64]) {
        for &p in &self.fixed_entries {
            k[p] = 0.0;
        }
        for &p in &self.fixed_diagonals {
            k[p] = 1.0;
        }
    }

    /// Zeroes the fixed entries of a nodal vector.
    pub fn zero_fixed(&self, r: &mut [f64]) {
        r.iter_mut()
            .zip(&self.fixed)
            .filter(|(_, &f)| f)
            .for_each(|(v, _)| *v = 0.0);
    }

    /// External (gravity) force `f_A = m_A g` (the nodal masses `lumped`: the
    /// consistent load `∫ ρ N_A g dV` of a consistent-mass body, the lumped
    /// masses of a lumped one; the gravity potential uses the same masses).
    pub fn gravity_force(&self, g: &[f64; 3], out: &mut [f64]) {
        for a in 0..self.n_nodes {
            for i in 0..D {
                out[a * D + i] = self.lumped[a] * g[i];
            }
        }
    }
}
