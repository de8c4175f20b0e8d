//! Narrow phase: the master face each slave node is evaluated against.
//!
//! The end-of-step configuration decides: the gap `g_{n+1}` that a new
//! contact enforces must be measured on the face the slave is over at
//! `t_{n+1}`; the midpoint rates and operators use the same face, extended
//! beyond its edges if the slave is not over it yet (DESIGN §5).
//!
//! Node-to-segment contact is nonsmooth where the closest face changes: at a
//! concave edge the normal jumps from one face to the other and Newton would
//! cycle between them. So once Newton is close to a solution (`hold`), each
//! slave holds its face while that face is within `FACE_SLACK·h` of the
//! closest one (before that, every iterate takes the closest face: the first
//! iterates of a step move the slaves by up to the step's slide); once Newton
//! is close to a solution,
//! [`Narrow::settle`] moves a slave whose held face is farther than its
//! closest by more than the tolerance, and Newton goes on from there (at most
//! `MAX_FACE_SWITCHES` times per slave and step, so that a slave in a concave
//! corner cannot ping-pong).
//!
//! A slave near a master vertex can have no consistent face: evaluated
//! against face A, the solution puts it beyond `FACE_SLACK·h` over face B,
//! and against B back over A. Settle and the slack rule then cycle: on the
//! 18,546-dof friction blocks' first contact (μ = 0.8) two corner slaves of
//! the cube went A → B → A → B in three Newton iterations per round, and
//! the second round repeated the first to four digits until the switch
//! limit ended it. So a slave that the slack rule moves from the face
//! settle put it on back to the face settle took it from is not settled
//! onto the first again ([`Narrow::settle`]'s "the face it left"): Newton
//! converges with it there, within `FACE_SLACK·h` of the other, as the
//! switch limit would have left it a round later. A slave the slack rule
//! moves on to a third face still settles.
//!
//! Except where the slave is *behind* the face it left: over its interior
//! (the closest point is an interior one) and on the inner side of it by
//! more than the tolerance. Then the held face's extension passes below the
//! surface there (a concave kink: a node pressed into a soft curved face
//! dents it, and the faces meeting in the dent fold towards each other), and
//! a step converged on the extension leaves the slave inside the face it is
//! over, where the next step finds it and must push it out: on the two-pass
//! tet10 sphere (μ = 0.3, Δt = 0.01) a plate node settled from face A to B,
//! slid back over A on B's extension and converged 7.9e-4 (about 1e-2 h)
//! inside A, unseen; every later step pushed it out with positive work that
//! the velocity update could not take back, at any cut-back. Such a slave is
//! settled back onto the second-order face it is inside (within the switch
//! limit). On first-order faces the rule stands as measured: with the
//! exception there the μ = 0.2 friction blocks' step at t = 0.4 re-settled a
//! slave onto its first face and Newton stalled at 1.2 times the law's
//! tolerance (`docs/decisions/face-hold-and-settle.md`).

use super::broad::node_x;
use super::geometry::vec3::{dot, sub};
use super::geometry::{project, Location, MAX_FACE_NODES};
use super::own::{self, own_side};
use super::search::SpatialHash;
use super::surface::{Master, Surface};
use crate::mesh::Element;

/// A slave keeps its face while it is within `FACE_SLACK·h` of the closest.
const FACE_SLACK: f64 = 0.1;
const MAX_FACE_SWITCHES: u8 = 2;

/// Face choice state of one pair.
#[derive(Debug, Clone)]
pub struct Narrow {
    /// Broad phase over the master faces (margin 2h) and its scratch.
    hash: SpatialHash,
    x3: Vec<[f64; 3]>,
    candidates: Vec<usize>,
    /// Averaged outward node normals of the master at `x_{n+1}` (they fix
    /// the sign of `ν` at edges and vertices, and with the unit face normals
    /// a self-contact node's own side, [`super::own`]).
    node_normal: Vec<[f64; 3]>,
    face_normal: Vec<[f64; 3]>,
    /// The face each slave is evaluated against (`None`: no face within 2h).
    pub held: Vec<Option<usize>>,
    /// The closest face at the last detection.
    closest: Vec<Option<usize>>,
    /// How much farther the held face is than the closest (a length).
    excess: Vec<f64>,
    switches: Vec<u8>,
    /// The face a slave held before its last switch in this step.
    before: Vec<Option<usize>>,
    /// How deep the slave is behind its closest face at the last detection,
    /// where that face is second order and the slave is over its interior (0
    /// elsewhere; module docs).
    behind: Vec<f64>,
}

impl Narrow {
    pub fn new(s: &Surface, n_nodes: usize) -> Narrow {
        let n = s.slaves.len();
        Narrow {
            hash: SpatialHash::new(2.0 * s.h),
            x3: Vec::new(),
            candidates: Vec::new(),
            node_normal: vec![[0.0; 3]; n_nodes],
            face_normal: Vec::new(),
            held: vec![None; n],
            closest: vec![None; n],
            excess: vec![0.0; n],
            switches: vec![0; n],
            before: vec![None; n],
            behind: vec![0.0; n],
        }
    }

    /// Forgets the faces held in the last step.
    pub fn begin_step(&mut self) {
        self.held.iter_mut().for_each(|f| *f = None);
        self.excess.iter_mut().for_each(|e| *e = 0.0);
        self.switches.iter_mut().for_each(|k| *k = 0);
        self.before.iter_mut().for_each(|f| *f = None);
    }

    /// Chooses each slave's face at the configuration `x1`, holding the
    /// faces already chosen if `hold` (module docs).
    pub fn detect(&mut self, s: &Surface, x1: &[f64], hold: bool) {
        let Master::Faces(faces) = &s.master else {
            return;
        };
        let d = s.dim;
        self.x3.clear();
        self.x3.extend((0..x1.len() / d).map(|a| node_x(x1, a, d)));
        own::normals(
            faces,
            &self.x3,
            &mut self.face_normal,
            &mut self.node_normal,
        );
        self.hash.rebuild(&self.x3, faces);
        for (k, &sl) in s.slaves.iter().enumerate() {
            let (nn, fnorm) = (self.node_normal[sl], &self.face_normal);
            let skip = |f: usize| s.own && own_side(&faces[f], sl, nn, fnorm[f]);
            let best = self.hash.closest_face_except(
                &self.x3,
                faces,
                self.x3[sl],
                &mut self.candidates,
                skip,
            );
            self.closest[k] = best.map(|(b, _)| b);
            self.behind[k] = match best {
                Some((b, p)) if p.location == Location::Interior && faces[b].kind.order() == 2 => {
                    if dot(sub(self.x3[sl], p.point), fnorm[b]) < 0.0 {
                        p.distance
                    } else {
                        0.0
                    }
                }
                _ => 0.0,
            };
            let face = match (best, self.held[k]) {
                (None, _) => None,
                (Some((b, _)), _) if !hold => Some(b),
                (Some((b, _)), None) => Some(b),
                (Some((b, _)), Some(f)) if b == f => Some(f),
                (Some((b, pb)), Some(f)) => {
                    let e = &faces[f];
                    let mut xf = [[0.0; 3]; MAX_FACE_NODES];
                    for (i, &a) in e.nodes().iter().enumerate() {
                        xf[i] = self.x3[a];
                    }
                    let pf = project(e.kind, &xf[..e.nodes().len()], self.x3[sl]);
                    self.excess[k] = pf.distance - pb.distance;
                    if self.excess[k] <= FACE_SLACK * s.h {
                        Some(f)
                    } else {
                        // back where settle took it from: not settled
                        // onto f again
                        if self.switches[k] > 0 && self.before[k] == Some(b) {
                            self.before[k] = Some(f);
                        }
                        log::trace!("slave {k}: face {f} -> {b} (excess {:.3e})", self.excess[k]);
                        Some(b)
                    }
                }
            };
            if face.is_none() || face == self.closest[k] {
                self.excess[k] = 0.0;
            }
            self.held[k] = face;
        }
    }

    /// Once Newton is close to a solution: each slave for which `matters`
    /// holds and whose held face is farther than its closest face by more
    /// than `tol` moves to the closest, unless that is the face it left and
    /// the slave is not behind it by more than `tol` (module docs): a slave
    /// near a vertex with no consistent face would go back and forth.
    /// Returns how many moved (Newton goes on if any did).
    pub fn settle(&mut self, tol: f64, matters: impl Fn(usize) -> bool) -> usize {
        let mut moved = 0;
        for k in 0..self.held.len() {
            let back = self.closest[k].is_some()
                && self.closest[k] == self.before[k]
                && self.behind[k] <= tol;
            if self.excess[k] > tol && !back && self.switches[k] < MAX_FACE_SWITCHES && matters(k) {
                log::trace!(
                    "slave {k}: to face {:?} (excess {:.3e})",
                    self.closest[k],
                    self.excess[k]
                );
                self.before[k] = self.held[k];
                self.held[k] = self.closest[k];
                self.excess[k] = 0.0;
                self.switches[k] += 1;
                moved += 1;
            }
        }
        moved
    }

    /// The averaged outward normal at an edge or vertex location of face `e`
    /// (it fixes the sign of `ν = ±s/|s|` there), `None` in the interior.
    pub fn hint(&self, e: &Element, loc: Location) -> Option<[f64; 3]> {
        let nodes = e.nodes();
        match loc {
            Location::Interior => None,
            Location::Vertex(k) => Some(self.node_normal[nodes[k as usize]]),
            Location::Edge(k) => {
                let a = self.node_normal[nodes[k as usize]];
                let b = self.node_normal[nodes[(k as usize + 1) % e.kind.n_corners()]];
                Some([a[0] + b[0], a[1] + b[1], a[2] + b[2]])
            }
        }
    }
}

/// Whether a slave whose closest point on face `e` is clamped to `loc` lies
/// beside the master surface rather than over it: `loc` is on the rim of the
/// surface (an edge of one face only, or a vertex on such an edge). A slave
/// there that is behind the surface's plane (`g < 0`) has slid off its end
/// (or comes from the side); taking `g = −|s|` as a penetration would pull it
/// back to the rim, at depths of up to a face width. Such a slave is open.
pub fn beside_rim(s: &Surface, e: &Element, loc: Location) -> bool {
    let nodes = e.nodes();
    match loc {
        Location::Interior => false,
        Location::Vertex(k) => s.rim_nodes[nodes[k as usize]],
        Location::Edge(k) => {
            let (a, b) = (
                nodes[k as usize],
                nodes[(k as usize + 1) % e.kind.n_corners()],
            );
            s.rim_edges.contains(&(a.min(b), a.max(b)))
        }
    }
}

/// Marks in `out` the nodes of `slaves` that lie within `tol` of a node of
/// `others` at `x` (dimension `d`). In a two-pass contact the second pass
/// shadows such a node for the step (evaluated, without a multiplier,
/// enforced again where it penetrates): a node on a node of the first pass's
/// slaves is held apart by that node's constraint, and repeating it in the
/// other surface's frame only makes the subproblem singular (two equal rows
/// of `W`); left out altogether, it went unseen into the other body once the
/// surfaces slid apart (friction blocks, μ = 0.4: a base node 1.3e-3 h
/// inside the cube after it slid 0.15 in one step). `cells` is scratch (a grid of cell size ≥ `tol`).
pub fn on_nodes(
    slaves: &[usize],
    others: &[usize],
    x: &[f64],
    d: usize,
    tol: f64,
    cells: &mut std::collections::HashMap<[i64; 3], Vec<usize>>,
    out: &mut [bool],
) {
    let cell = |p: [f64; 3]| p.map(|c| (c / tol).floor() as i64);
    cells.clear();
    for &b in others {
        cells.entry(cell(node_x(x, b, d))).or_default().push(b);
    }
    for (k, &a) in slaves.iter().enumerate() {
        let p = node_x(x, a, d);
        let c = cell(p);
        out[k] = (0..27).any(|n| {
            let o = [n % 3 - 1, n / 3 % 3 - 1, n / 9 - 1];
            let key = [c[0] + o[0], c[1] + o[1], c[2] + o[2]];
            cells.get(&key).is_some_and(|bs| {
                bs.iter().any(|&b| {
                    let q = node_x(x, b, d);
                    (0..3).map(|i| (p[i] - q[i]).powi(2)).sum::<f64>() <= tol * tol
                })
            })
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fe::ElementKind;
    use std::collections::HashSet;

    /// A flat 2D master of three unit segments, A over x ∈ [0, 1], B over
    /// [1, 2] and C over [2, 3] (normals +y), and one slave node (node 4).
    fn three_faces() -> Surface {
        Surface {
            dim: 2,
            slaves: vec![4],
            weights: vec![1.0],
            master: Master::Faces(vec![
                Element::new(ElementKind::Line2, &[1, 0]),
                Element::new(ElementKind::Line2, &[2, 1]),
                Element::new(ElementKind::Line2, &[3, 2]),
            ]),
            h: 1.0,
            rim_edges: HashSet::new(),
            rim_nodes: vec![true, false, false, true, false],
            own: false,
        }
    }

    fn at(slave: [f64; 2]) -> Vec<f64> {
        vec![0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 3.0, 0.0, slave[0], slave[1]]
    }

    #[test]
    fn a_slave_the_slack_rule_moved_off_its_settled_face_is_not_settled_back() {
        let (a, b) = (Some(0), Some(1));
        let s = three_faces();
        let mut narrow = Narrow::new(&s, 5);
        narrow.detect(&s, &at([0.9, 0.05]), false);
        assert_eq!(narrow.held[0], a);
        // over B by 0.05, within the slack of A: held, then settled onto B
        narrow.detect(&s, &at([1.05, 0.05]), true);
        assert_eq!(narrow.held[0], a, "held within the slack");
        assert_eq!(narrow.settle(1e-3, |_| true), 1, "settled onto B");
        assert_eq!(narrow.held[0], b);
        // Newton takes it 0.2 back over A, beyond the slack: off B
        narrow.detect(&s, &at([0.8, 0.05]), true);
        assert_eq!(narrow.held[0], a, "the slack rule moves it");
        // and then over B again: it stays on A (within the slack), and
        // settle does not put it back onto B, the face it was moved off
        narrow.detect(&s, &at([1.05, 0.05]), true);
        assert_eq!(narrow.held[0], a);
        assert_eq!(narrow.settle(1e-3, |_| true), 0, "settled back onto B");
        assert_eq!(narrow.held[0], a);
    }

    #[test]
    fn a_slave_never_settled_still_settles_after_a_slack_switch() {
        let s = three_faces();
        let mut narrow = Narrow::new(&s, 5);
        narrow.detect(&s, &at([0.5, 0.05]), false);
        narrow.detect(&s, &at([1.3, 0.05]), true);
        assert_eq!(narrow.held[0], Some(1), "the slack rule moves it to B");
        narrow.detect(&s, &at([0.95, 0.05]), true);
        assert_eq!(narrow.held[0], Some(1), "held on B within the slack");
        assert_eq!(narrow.settle(1e-3, |_| true), 1, "settled onto A");
        assert_eq!(narrow.held[0], Some(0));
    }

    #[test]
    fn a_slave_the_slack_rule_moved_on_to_a_third_face_still_settles() {
        let s = three_faces();
        let mut narrow = Narrow::new(&s, 5);
        narrow.detect(&s, &at([0.9, 0.05]), false);
        narrow.detect(&s, &at([1.05, 0.05]), true);
        assert_eq!(narrow.settle(1e-3, |_| true), 1, "settled onto B");
        // on over C, beyond the slack of B: off B to C, not back to A
        narrow.detect(&s, &at([2.2, 0.05]), true);
        assert_eq!(narrow.held[0], Some(2));
        // back over B within the slack of C: settle may take it to B
        narrow.detect(&s, &at([1.95, 0.05]), true);
        assert_eq!(narrow.held[0], Some(2));
        assert_eq!(narrow.settle(1e-3, |_| true), 1, "settled onto B");
        assert_eq!(narrow.held[0], Some(1));
    }

    /// A valley of straight line3 faces (midside nodes 5, 6): A over x ∈
    /// [0, 1] falling from (0, 0.2) to (1, 0), B over [1, 2] rising to
    /// (2, 0.2) (normals up), and one slave (node 4); `kind` Line2 leaves
    /// the midside nodes out.
    fn valley(kind: ElementKind) -> (Surface, impl Fn([f64; 2]) -> Vec<f64>) {
        let mut s = three_faces();
        let (a, b): (&[usize], &[usize]) = match kind {
            ElementKind::Line3 => (&[1, 0, 5], &[2, 1, 6]),
            _ => (&[1, 0], &[2, 1]),
        };
        s.master = Master::Faces(vec![Element::new(kind, a), Element::new(kind, b)]);
        let at = |p: [f64; 2]| {
            let mut x = vec![0.0, 0.2, 1.0, 0.0, 2.0, 0.2, 3.0, 0.0, p[0], p[1]];
            x.extend_from_slice(&[0.5, 0.1, 1.5, 0.1]);
            x
        };
        (s, at)
    }

    #[test]
    fn a_slave_behind_the_curved_face_it_was_settled_off_is_settled_back() {
        let (s, at) = valley(ElementKind::Line3);
        let mut narrow = Narrow::new(&s, 7);
        narrow.detect(&s, &at([0.95, 0.02]), false);
        assert_eq!(narrow.held[0], Some(0), "over A, outside it");
        // over B and 0.005 inside it: held on A within the slack, settled onto B
        narrow.detect(&s, &at([1.05, 0.005]), true);
        assert_eq!(narrow.settle(1e-3, |_| true), 1);
        assert_eq!(narrow.held[0], Some(1));
        // back over A on B's extension, which passes below A here: 0.005
        // inside A. Held on B within the slack; settle takes it back to A,
        // the face it left, because it is inside A
        narrow.detect(&s, &at([0.95, 0.005]), true);
        assert_eq!(narrow.held[0], Some(1), "held within the slack");
        assert_eq!(narrow.settle(1e-3, |_| true), 1, "settled back onto A");
        assert_eq!(narrow.held[0], Some(0));
        // outside A there, it would have stayed on B (the no-settle-back rule)
        let mut narrow = Narrow::new(&s, 7);
        narrow.detect(&s, &at([0.95, 0.02]), false);
        narrow.detect(&s, &at([1.05, 0.005]), true);
        narrow.settle(1e-3, |_| true);
        narrow.detect(&s, &at([0.95, 0.012]), true);
        assert_eq!(narrow.settle(1e-3, |_| true), 0, "outside A: stays on B");
        assert_eq!(narrow.held[0], Some(1));
    }

    #[test]
    fn on_first_order_faces_the_no_settle_back_rule_stands() {
        let (s, at) = valley(ElementKind::Line2);
        let mut narrow = Narrow::new(&s, 7);
        narrow.detect(&s, &at([0.95, 0.02]), false);
        narrow.detect(&s, &at([1.05, 0.005]), true);
        assert_eq!(narrow.settle(1e-3, |_| true), 1);
        narrow.detect(&s, &at([0.95, 0.005]), true);
        assert_eq!(narrow.settle(1e-3, |_| true), 0, "not settled back onto A");
        assert_eq!(narrow.held[0], Some(1));
    }
}
