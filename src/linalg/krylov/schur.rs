//! The block-triangular preconditioner with local Schur complements of the
//! iterative path's saddle-point systems.

use crate::linalg::krylov::jacobi::{invert, BlockJacobi, SingularBlock};
use crate::linalg::operator::Operator;

/// Block lower-triangular preconditioner of `[K  K_up; K_pu  K_pp]` (the
/// pseudo-nodes `p` of `anchored`, a contact point's multipliers each):
///
/// ```text
/// M = ⎡ D      0 ⎤     D   = blockdiag(K_aa), node blocks of the bodies
///     ⎣ K_pu   S ⎦     S_p = K_pp − Σ_a K_pa K_aa⁻¹ K_ap
/// ```
///
/// `S` is the block diagonal of the Schur complement `K_pp − K_pu D⁻¹ K_up`
/// of the node-block approximation `D` of `K` (the points' couplings
/// through shared nodes dropped), each block summed over the nodes its
/// point couples to (its slave node and the master nodes it may reach):
/// the `D×D` analogue of the condensed path's `W̃_ll` from `K`'s diagonal
/// blocks. With `D = K` and the whole Schur complement, right-preconditioned
/// GMRES would converge in two iterations (Murphy, Golub & Wathen 2000,
/// SIAM J. Sci. Comput. 21(6); Benzi, Golub & Liesen 2005, Acta Numerica
/// 14, §10.1.2).
#[derive(Debug, Default)]
pub struct LocalSchur {
    /// Node blocks of the bodies' nodes (the pseudo-nodes' skipped).
    nodes: BlockJacobi,
    dim: usize,
    /// The pseudo-nodes, and per pseudo-node its first entry of `nbr`
    /// (one more entry closes the last).
    pseudo: Vec<usize>,
    start: Vec<usize>,
    /// The nodes each pseudo-node couples to, and `K_pa` (row-major) for each.
    nbr: Vec<usize>,
    kpa: Vec<f64>,
    /// Per pseudo-node, `S_p⁻¹` (row-major).
    sinv: Vec<f64>,
}

impl LocalSchur {
    /// The preconditioner of `a` with the pseudo-nodes of `anchored`
    /// (`(pseudo-node, anchor)` pairs).
    pub fn new(a: &Operator, anchored: &[(usize, usize)]) -> Result<LocalSchur, SingularBlock> {
        let p = &a.pattern;
        let d = p.dim();
        let mut pseudo: Vec<usize> = anchored.iter().map(|x| x.0).collect();
        pseudo.sort_unstable();
        let nodes = BlockJacobi::skipping(a, &pseudo)?;
        let mut s = LocalSchur {
            nodes,
            dim: d,
            start: Vec::with_capacity(pseudo.len() + 1),
            ..Default::default()
        };
        let (cp, ri) = (p.node_graph().col_ptr(), p.node_graph().row_idx());
        let mut m = [0.0; 18];
        for &q in &pseudo {
            s.start.push(s.nbr.len());
            let mut sq = [0.0; 9];
            let off = p
                .block_offset(q, q)
                .expect("every node is coupled to itself");
            for i in 0..d {
                for j in 0..d {
                    sq[i * d + j] = a.values[p.position(off, i, q, j)];
                }
            }
            for &n in &ri[cp[q]..cp[q + 1]] {
                if n == q || pseudo.binary_search(&n).is_ok() {
                    continue;
                }
                let (Some(pa), Some(ap)) = (p.block_offset(q, n), p.block_offset(n, q)) else {
                    continue;
                };
                let mut kpa = [0.0; 9];
                let mut kap = [0.0; 9];
                for i in 0..d {
                    for j in 0..d {
                        kpa[i * d + j] = a.values[p.position(pa, i, n, j)];
                        kap[i * d + j] = a.values[p.position(ap, i, q, j)];
                    }
                }
                // S_q −= K_qn (K_nn⁻¹ K_nq)
                let inv = s.nodes.node_inverse(n);
                let mut t = [0.0; 9];
                for i in 0..d {
                    for j in 0..d {
                        t[i * d + j] = (0..d).map(|k| inv[i * d + k] * kap[k * d + j]).sum();
                    }
                }
                for i in 0..d {
                    for j in 0..d {
                        sq[i * d + j] -= (0..d).map(|k| kpa[i * d + k] * t[k * d + j]).sum::<f64>();
                    }
                }
                s.nbr.push(n);
                s.kpa.extend_from_slice(&kpa[..d * d]);
            }
            for i in 0..d {
                for j in 0..d {
                    m[i * 2 * d + j] = sq[i * d + j];
                    m[i * 2 * d + d + j] = if i == j { 1.0 } else { 0.0 };
                }
            }
            invert(&mut m, d).ok_or(SingularBlock(q))?;
            for i in 0..d {
                s.sinv.extend_from_slice(&m[i * 2 * d + d..(i + 1) * 2 * d]);
            }
        }
        s.start.push(s.nbr.len());
        s.pseudo = pseudo;
        Ok(s)
    }

    /// `v ← M⁻¹ v`: the node blocks, then each point's Schur block on its
    /// rows less their coupling to the nodes' result.
    pub fn apply(&self, v: &mut [f64]) {
        let d = self.dim;
        self.nodes.apply(v);
        for (k, &q) in self.pseudo.iter().enumerate() {
            let mut t = [0.0; 3];
            t[..d].copy_from_slice(&v[q * d..(q + 1) * d]);
            for e in self.start[k]..self.start[k + 1] {
                let n = self.nbr[e];
                let b = &self.kpa[e * d * d..(e + 1) * d * d];
                for i in 0..d {
                    t[i] -= (0..d).map(|j| b[i * d + j] * v[n * d + j]).sum::<f64>();
                }
            }
            let s = &self.sinv[k * d * d..(k + 1) * d * d];
            for i in 0..d {
                v[q * d + i] = (0..d).map(|j| s[i * d + j] * t[j]).sum();
            }
        }
    }
}

/// The preconditioner of the iterative path: block Jacobi (node blocks,
/// and coupled blocks of anchors with their pseudo-nodes), or the block
/// triangular one with local Schur complements.
#[derive(Debug)]
pub enum IterativePrecond {
    Blocks(BlockJacobi),
    Schur(LocalSchur),
}

impl IterativePrecond {
    /// `v ← M⁻¹ v`.
    pub fn apply(&self, v: &mut [f64]) {
        match self {
            IterativePrecond::Blocks(b) => b.apply(v),
            IterativePrecond::Schur(s) => s.apply(v),
        }
    }
}
