//! The block-Jacobi preconditioner of the iterative path: node blocks, and
//! coupled blocks where a pseudo-node (a contact point's multipliers) is
//! anchored to a node.

use crate::linalg::operator::Operator;
use rayon::prelude::*;

/// Most unknowns of one coupled block (an anchor and its pseudo-nodes):
/// 16 nodes of 3 dofs. A slave node anchors one point per contact pass.
pub const MAX_GROUP_DOFS: usize = 48;

/// Block Jacobi, `M = blockdiag(A_GG)` over a partition of the nodes into
/// groups, each group's diagonal block inverted (Gauss–Jordan with partial
/// pivoting). A node is a group of its own (`D×D`, node-block Jacobi)
/// unless it anchors pseudo-nodes: then the anchor and its pseudo-nodes
/// are one group, whose block
///
/// ```text
/// ⎡ K_aa   −H_a  ⎤
/// ⎣ (A B)_a  B_r + A (C+γ) ⎦
/// ```
///
/// on the saddle path is regular where the pseudo-node's own block
/// (possibly zero: a sticking point) is not. It is the coupled block
/// smoother of Vanka (1986, J. Comput. Phys. 65, the pressure of a cell
/// relaxed with the velocities it couples to) used as a one-level
/// preconditioner; Benzi, Golub & Liesen (2005, Acta Numerica 14, §11)
/// review it among the preconditioners of saddle-point systems.
#[derive(Debug, Default)]
pub struct BlockJacobi {
    dim: usize,
    /// Per node, the inverse of its `D×D` block (zero for grouped nodes).
    inv: Vec<f64>,
    /// Per node, whether it belongs to a coupled group.
    grouped: Vec<bool>,
    /// Per coupled group, its first member in `members` and the first entry
    /// of its inverse in `ginv` (one more entry closes the last).
    groups: Vec<(usize, usize)>,
    /// The nodes of the coupled groups, anchor first.
    members: Vec<usize>,
    /// The inverses of the coupled groups' blocks, row-major.
    ginv: Vec<f64>,
}

/// A diagonal block (of a node, or of a coupled group led by this node) is
/// singular, or a group is larger than [`MAX_GROUP_DOFS`].
#[derive(Debug, Clone, Copy, thiserror::Error)]
#[error("singular diagonal block at node {0}")]
pub struct SingularBlock(pub usize);

impl BlockJacobi {
    /// Node-block Jacobi: inverts the diagonal blocks of `a`.
    pub fn new(a: &Operator) -> Result<BlockJacobi, SingularBlock> {
        BlockJacobi::coupled(a, &[])
    }

    /// Block Jacobi with each pseudo-node of `anchored` (`(pseudo-node,
    /// anchor)` pairs, as given to
    /// [`crate::linalg::LinearSolver::set_pattern`]) in one block with its
    /// anchor and the anchor's other pseudo-nodes; node blocks elsewhere.
    pub fn coupled(
        a: &Operator,
        anchored: &[(usize, usize)],
    ) -> Result<BlockJacobi, SingularBlock> {
        let mut jac = BlockJacobi::ungrouped(a);
        let (d, nn) = (jac.dim, jac.grouped.len());
        jac.group(anchored, nn);
        jac.invert_nodes(a)?;
        let mut m = vec![0.0; 2 * MAX_GROUP_DOFS * MAX_GROUP_DOFS];
        for g in 0..jac.groups.len() {
            let (s, e) = jac.span(g);
            let nodes = &jac.members[s..e];
            let k = nodes.len() * d;
            block(a, nodes, &mut m);
            invert(&mut m, k).ok_or(SingularBlock(nodes[0]))?;
            let off = jac.groups[g].1;
            for i in 0..k {
                jac.ginv[off + i * k..off + (i + 1) * k]
                    .copy_from_slice(&m[i * 2 * k + k..(i + 1) * 2 * k]);
            }
        }
        if jac.members.len() > jac.groups.len() {
            log::debug!(
                "block Jacobi: {} coupled blocks (anchor and multipliers), {} node blocks",
                jac.groups.len(),
                nn - jac.members.len()
            );
        }
        Ok(jac)
    }

    /// Node-block Jacobi on the nodes outside `skip` (sorted); `apply`
    /// leaves the entries of `skip` as they are ([`super::schur`]).
    pub(crate) fn skipping(a: &Operator, skip: &[usize]) -> Result<BlockJacobi, SingularBlock> {
        let mut jac = BlockJacobi::ungrouped(a);
        skip.iter().for_each(|&n| jac.grouped[n] = true);
        jac.invert_nodes(a)?;
        Ok(jac)
    }

    /// Every node in no group, nothing inverted yet.
    fn ungrouped(a: &Operator) -> BlockJacobi {
        let (d, nn) = (a.pattern.dim(), a.pattern.n_nodes());
        BlockJacobi {
            dim: d,
            inv: vec![0.0; nn * d * d],
            grouped: vec![false; nn],
            ..Default::default()
        }
    }

    /// Inverts the `D×D` blocks of the nodes in no group.
    fn invert_nodes(&mut self, a: &Operator) -> Result<(), SingularBlock> {
        let d = self.dim;
        let mut m = [0.0; 18];
        for (node, blk) in self.inv.chunks_mut(d * d).enumerate() {
            if self.grouped[node] {
                continue;
            }
            block(a, &[node], &mut m);
            invert(&mut m, d).ok_or(SingularBlock(node))?;
            for i in 0..d {
                blk[i * d..(i + 1) * d].copy_from_slice(&m[i * 2 * d + d..(i + 1) * 2 * d]);
            }
        }
        Ok(())
    }

    /// The inverse of node `n`'s block (row-major; zero for grouped nodes).
    pub(crate) fn node_inverse(&self, n: usize) -> &[f64] {
        &self.inv[n * self.dim * self.dim..(n + 1) * self.dim * self.dim]
    }

    /// Partitions the nodes: each anchor of `anchored` with its pseudo-nodes
    /// (in the order given) as a coupled group.
    fn group(&mut self, anchored: &[(usize, usize)], nn: usize) {
        let d = self.dim;
        let mut order: Vec<(usize, usize)> = anchored.iter().map(|&(p, a)| (a, p)).collect();
        order.sort_by_key(|&(a, _)| a);
        let mut i = 0;
        while i < order.len() {
            let a = order[i].0;
            let start = self.members.len();
            self.groups.push((start, self.ginv.len()));
            self.members.push(a);
            while i < order.len() && order[i].0 == a {
                self.members.push(order[i].1);
                i += 1;
            }
            let k = (self.members.len() - start) * d;
            self.ginv.resize(self.ginv.len() + k * k, 0.0);
        }
        for &n in &self.members {
            debug_assert!(n < nn, "a pseudo-node or anchor outside the pattern");
            self.grouped[n] = true;
        }
    }

    /// The members of group `g`: `members[s..e]`.
    fn span(&self, g: usize) -> (usize, usize) {
        let s = self.groups[g].0;
        let e = self.groups.get(g + 1).map_or(self.members.len(), |x| x.0);
        (s, e)
    }

    /// Coupled blocks (anchors with their pseudo-nodes).
    pub fn coupled_blocks(&self) -> usize {
        self.groups.len()
    }

    /// `v ← M⁻¹ v`.
    pub fn apply(&self, v: &mut [f64]) {
        let d = self.dim;
        v.par_chunks_mut(d * 1024)
            .zip(self.inv.par_chunks(d * d * 1024))
            .zip(self.grouped.par_chunks(1024))
            .for_each(|((vc, ic), gc)| {
                for ((x, b), &g) in vc.chunks_mut(d).zip(ic.chunks(d * d)).zip(gc) {
                    if g {
                        continue;
                    }
                    let mut y = [0.0; 3];
                    for i in 0..d {
                        y[i] = (0..d).map(|j| b[i * d + j] * x[j]).sum();
                    }
                    x.copy_from_slice(&y[..d]);
                }
            });
        let mut x = [0.0; MAX_GROUP_DOFS];
        for g in 0..self.groups.len() {
            let (s, e) = self.span(g);
            let nodes = &self.members[s..e];
            let k = nodes.len() * d;
            for (t, &n) in nodes.iter().enumerate() {
                x[t * d..(t + 1) * d].copy_from_slice(&v[n * d..(n + 1) * d]);
            }
            let inv = &self.ginv[self.groups[g].1..self.groups[g].1 + k * k];
            for (t, &n) in nodes.iter().enumerate() {
                for i in 0..d {
                    let row = &inv[(t * d + i) * k..(t * d + i + 1) * k];
                    v[n * d + i] = row.iter().zip(&x[..k]).map(|(a, b)| a * b).sum();
                }
            }
        }
    }
}

/// `[A_GG | I]` of the nodes `nodes` into `m` (row-major, `k × 2k` with
/// `k = |nodes| D`); entries outside the pattern are zero.
fn block(a: &Operator, nodes: &[usize], m: &mut [f64]) {
    let p = &a.pattern;
    let d = p.dim();
    let k = nodes.len() * d;
    m[..2 * k * k].iter_mut().for_each(|v| *v = 0.0);
    for (s, &na) in nodes.iter().enumerate() {
        for (t, &nb) in nodes.iter().enumerate() {
            let Some(off) = p.block_offset(na, nb) else {
                continue;
            };
            for i in 0..d {
                for j in 0..d {
                    m[(s * d + i) * 2 * k + t * d + j] = a.values[p.position(off, i, nb, j)];
                }
            }
        }
    }
    for i in 0..k {
        m[i * 2 * k + k + i] = 1.0;
    }
}

/// Gauss–Jordan with partial pivoting on `[B | I]` (`k × 2k`, row-major):
/// the right half becomes `B⁻¹`. `None` if a pivot vanishes or `k` exceeds
/// [`MAX_GROUP_DOFS`].
pub(crate) fn invert(m: &mut [f64], k: usize) -> Option<()> {
    if k > MAX_GROUP_DOFS {
        return None;
    }
    let w = 2 * k;
    for c in 0..k {
        let p = (c..k).max_by(|&i, &j| m[i * w + c].abs().total_cmp(&m[j * w + c].abs()))?;
        let piv = m[p * w + c];
        if piv == 0.0 || !piv.is_finite() {
            return None;
        }
        if p != c {
            for j in 0..w {
                m.swap(c * w + j, p * w + j);
            }
        }
        for j in 0..w {
            m[c * w + j] /= piv;
        }
        for i in 0..k {
            if i != c {
                let f = m[i * w + c];
                if f != 0.0 {
                    for j in 0..w {
                        m[i * w + j] -= f * m[c * w + j];
                    }
                }
            }
        }
    }
    Some(())
}
