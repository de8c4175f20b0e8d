//! Which points carry multipliers in the coming step, and the nodes each
//! point's multipliers are coupled to: its predicted face and that face's
//! neighbours, not every face it may reach. A pseudo-node is factored in
//! its slave's supernode, whose width is the slave's couplings: coupled to
//! every face within reach over the step (a face size of padding around the
//! swept path, about 9–12 faces), the augmented LU cost 4.3× the bodies'
//! at the 24² scaling model (docs/decisions/saddle-point-contact.md). A
//! point whose face at an iterate lies outside its patch extends it
//! ([`ContactSet::uncovered`]); the pattern is then analysed again.

use crate::contact::broad::{node_x, swept_pairs};
use crate::contact::geometry::{project, MAX_FACE_NODES};
use crate::contact::set::ContactSet;
use crate::contact::surface::{Master, Surface};
use crate::mesh::Element;

/// `(pair, point, nodes)`: a point that may touch in the coming step and
/// the nodes its multipliers are coupled to (slave first).
pub type Reach = Vec<(usize, usize, Vec<usize>)>;

impl ContactSet {
    /// The points whose multipliers the saddle path carries in the coming
    /// step, from `x`, `v` at `t_n`: every point of an enforced pair with
    /// multipliers that may reach a master face (the broad phase's swept
    /// test, [`crate::contact::broad::swept_pairs`]), coupled to the nodes of
    /// its predicted face (the closest at `x + Δt·v` among those) and of that
    /// face's neighbours; and every slave of a plane pair within a few face
    /// sizes of the plane over the step.
    pub fn reach(&self, x: &[f64], v: &[f64], dt: f64) -> Reach {
        let mut out = Vec::new();
        let mut x_hat = vec![0.0; x.len()];
        for i in 0..x.len() {
            x_hat[i] = x[i] + dt * v[i];
        }
        for (p, pair) in self.pairs.iter().enumerate() {
            if !pair.has_multipliers() {
                continue;
            }
            let s = &pair.surface;
            let Master::Faces(faces) = &s.master else {
                crate::contact::broad::reach(s, x, v, dt, |k, _| {
                    out.push((p, k, vec![s.slaves[k]]))
                });
                continue;
            };
            let mut candidates: Vec<Vec<usize>> = vec![Vec::new(); s.slaves.len()];
            swept_pairs(s, x, v, dt, s.h, |k, f| candidates[k].push(f));
            for (k, c) in candidates.iter().enumerate() {
                let Some(f) = closest(s, faces, &x_hat, s.slaves[k], c) else {
                    continue;
                };
                let mut nodes = vec![s.slaves[k]];
                patch(s.dim, faces, f, c.iter().copied(), &mut nodes);
                out.push((p, k, nodes));
            }
        }
        out
    }

    /// The points of `layout` whose face at the current iterate lies
    /// outside their coupled nodes, each with its slave and the nodes to add
    /// (of its face and that face's neighbours); empty when the layout
    /// covers the iterate.
    pub fn uncovered(&self, layout: &Reach) -> Reach {
        let mut out = Vec::new();
        for (p, k, nodes) in layout {
            let pair = &self.pairs[*p];
            let (Master::Faces(faces), Some(f)) = (&pair.surface.master, pair.narrow.held[*k])
            else {
                continue;
            };
            if faces[f].nodes().iter().all(|a| nodes.contains(a)) {
                continue;
            }
            let mut add = Vec::new();
            patch(pair.surface.dim, faces, f, 0..faces.len(), &mut add);
            add.retain(|a| !nodes.contains(a));
            add.insert(0, nodes[0]);
            out.push((*p, *k, add));
        }
        out
    }
}

/// The face among `candidates` closest to slave node `a` at `x`.
fn closest(
    s: &Surface,
    faces: &[Element],
    x: &[f64],
    a: usize,
    candidates: &[usize],
) -> Option<usize> {
    let xs = node_x(x, a, s.dim);
    let mut xf = [[0.0; 3]; MAX_FACE_NODES];
    let mut best = None;
    for &f in candidates {
        let e = &faces[f];
        for (i, &b) in e.nodes().iter().enumerate() {
            xf[i] = node_x(x, b, s.dim);
        }
        let d = project(e.kind, &xf[..e.nodes().len()], xs).distance;
        if best.is_none_or(|(_, db)| d < db) {
            best = Some((f, d));
        }
    }
    best.map(|(f, _)| f)
}

/// Adds to `nodes` (without repeats) the nodes of face `f` and of every
/// face of `among` that shares an edge with it (a node in 2D).
fn patch(
    dim: usize,
    faces: &[Element],
    f: usize,
    among: impl Iterator<Item = usize>,
    nodes: &mut Vec<usize>,
) {
    let own = faces[f].nodes();
    let mut push = |e: &Element| {
        for &a in e.nodes() {
            if !nodes.contains(&a) {
                nodes.push(a);
            }
        }
    };
    push(&faces[f]);
    for g in among {
        let shared = faces[g].nodes().iter().filter(|a| own.contains(a)).count();
        if g != f && shared + 1 >= dim {
            push(&faces[g]);
        }
    }
}

/// The stiffness pattern's contact couplings of a layout: each slave with
/// each node its multipliers are coupled to (one pair per list, so that the
/// nodes of a patch are not coupled with each other: a face's own nodes are
/// coupled by its element).
pub fn slave_couplings(reach: &Reach) -> impl Iterator<Item = Vec<usize>> + '_ {
    reach
        .iter()
        .flat_map(|(_, _, l)| l[1..].iter().map(move |&a| vec![l[0], a]))
}
