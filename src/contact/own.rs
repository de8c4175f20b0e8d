//! Self-contact: which faces of its own surface a node may touch.
//!
//! A self-contact pair (`slave` and `master` the same surface group) puts
//! every node of the surface against the faces of that same surface. The
//! node-to-segment law, its kinematics, Table 1 and the velocity update are
//! those of any pair (Love & Laursen 2003, §3.2–3.6): the force of a point
//! acts on its slave node and, equal and opposite, on the nodes of its face,
//! all of one body, so `Σ_A N_A = 0`, `Σ_A D^α_A = 0` and their moments keep
//! linear and angular momentum exact, and the energy ledger is that of any
//! contact. What differs is the search, which must not find a node's own
//! side of the surface:
//!
//! 1. **Its own faces.** A face holding the node is never its master face
//!    (the node is on it: gap 0 at every configuration).
//! 2. **Faces turned the same way.** A face whose outward normal `n_f` does
//!    not oppose the node's outward normal `n_a` (the average of the unit
//!    normals of the faces around it), `n_a · n_f ≥ 0`, is not a master face
//!    for it either. Two parts of a surface that meet face each other
//!    (`n_a · n_f < 0`); a face turned the same way as the node is its own
//!    side: on a convex patch the plane of a neighbour's neighbour passes
//!    above the node by about `h²/(2R)` (a false penetration of every node
//!    at every step), and on a flat or concave one it is beside the node.
//!
//! Both rules are evaluated on the configuration the search looks at (the
//! iterate `x_{n+1}` in the narrow phase, `x_n` in the broad phase and the
//! tunnelling test), from the face corners' orientation.
//!
//! Each node is a slave point once and each face a master face of every
//! node but its own: the pair is both passes of a two-pass contact at once,
//! which is why a self-contact has no `passes = 1`.
//!
//! Limits (README, "Known limits"): the rule assumes the surface's
//! curvature radius is larger than a few face sizes where it is convex (on a
//! sharper convex fold the normals of faces two or three away already
//! oppose the node's, and the node, behind their planes, would read as
//! penetrated); and a surface that holds both sides of a wall thinner than
//! two face sizes finds the other side behind each node at t = 0 (the
//! initial-overlap check refuses it, naming the pair): make the
//! self-contact surface one side of the wall.

use super::geometry::vec3::dot;
use super::surface::{face_normal_raw, Master, Surface};
use crate::mesh::Element;

/// Whether `face` is `node`'s own side (module docs): it holds the node, or
/// its outward normal `face_normal` does not oppose the node's `node_normal`
/// (neither need be unit).
#[inline]
pub fn own_side(face: &Element, node: usize, node_normal: [f64; 3], face_normal: [f64; 3]) -> bool {
    face.nodes().contains(&node) || dot(node_normal, face_normal) >= 0.0
}

/// Unit outward normals of `faces` at the positions `x` (from the corners,
/// [`face_normal_raw`]) into `face_normal`, and at each node of a face the
/// sum of the unit normals of its faces into `node_normal` (indexed by mesh
/// node; other nodes are left as they are).
pub fn normals(
    faces: &[Element],
    x: &[[f64; 3]],
    face_normal: &mut Vec<[f64; 3]>,
    node_normal: &mut [[f64; 3]],
) {
    let mut xs = [[0.0; 3]; super::geometry::MAX_FACE_NODES];
    face_normal.clear();
    for e in faces {
        for &a in e.nodes() {
            node_normal[a] = [0.0; 3];
        }
    }
    for e in faces {
        let n = e.nodes().len();
        for (k, &a) in e.nodes().iter().enumerate() {
            xs[k] = x[a];
        }
        let f = face_normal_raw(e.kind, &xs[..n]);
        let l = dot(f, f).sqrt().max(f64::MIN_POSITIVE);
        let u = f.map(|c| c / l);
        for &a in e.nodes() {
            for i in 0..3 {
                node_normal[a][i] += u[i];
            }
        }
        face_normal.push(u);
    }
}

/// Whether self-contact point `k` of surface `s` repeats another point's
/// constraint: its face (`held[k]`) holds a node `b` of lower index whose
/// point's face holds `k`'s node. Where the surface closes onto itself both
/// sides' nodes are slave points on the other side's faces, as in a
/// two-pass contact, and such a pair constrains the same closing twice
/// (near-matching meshes make the subproblem's rows nearly dependent); the
/// lower node's point keeps it. These are the points a stalled exact
/// subproblem leaves out for the rest of the step, as it leaves out a
/// two-pass contact's second pass.
pub fn repeats(s: &Surface, held: &[Option<usize>], k: usize) -> bool {
    let (Master::Faces(faces), Some(f)) = (&s.master, held[k]) else {
        return false;
    };
    let a = s.slaves[k];
    faces[f].nodes().iter().any(|&b| {
        b < a
            && s.slave_index(b)
                .and_then(|j| held[j])
                .is_some_and(|g| faces[g].nodes().contains(&a))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fe::ElementKind;

    /// A circle of `n` line2 faces, counter-clockwise: the outer surface of
    /// a disk (outward normals away from the centre) when `outer`, else the
    /// inner surface of a ring (the same circle, normals toward the centre).
    fn circle(n: usize, outer: bool) -> (Vec<Element>, Vec<[f64; 3]>) {
        let x = (0..n)
            .map(|k| {
                let a = 2.0 * std::f64::consts::PI * k as f64 / n as f64;
                [a.cos(), a.sin(), 0.0]
            })
            .collect();
        let faces = (0..n)
            .map(|k| {
                let (a, b) = (k, (k + 1) % n);
                let nodes = if outer { [a, b] } else { [b, a] };
                Element::new(ElementKind::Line2, &nodes)
            })
            .collect();
        (faces, x)
    }

    #[test]
    fn on_a_convex_circle_only_the_far_side_is_a_candidate() {
        let (faces, x) = circle(32, true);
        let (mut fnorm, mut nnorm) = (Vec::new(), vec![[0.0; 3]; 32]);
        normals(&faces, &x, &mut fnorm, &mut nnorm);
        // node 0 at angle 0: faces within a quarter turn are its own side
        let own: Vec<bool> = (0..32)
            .map(|f| own_side(&faces[f], 0, nnorm[0], fnorm[f]))
            .collect();
        assert!(own[0] && own[31], "its own faces");
        assert!(own[1] && own[30] && own[7], "faces turned its way");
        assert!(!own[16] && !own[15], "the opposite side faces it");
    }

    #[test]
    fn on_the_inner_surface_of_a_ring_the_opposite_side_faces_the_node() {
        let (faces, x) = circle(32, false);
        let (mut fnorm, mut nnorm) = (Vec::new(), vec![[0.0; 3]; 32]);
        normals(&faces, &x, &mut fnorm, &mut nnorm);
        assert!(own_side(&faces[0], 0, nnorm[0], fnorm[0]));
        assert!(own_side(&faces[2], 0, nnorm[0], fnorm[2]));
        assert!(!own_side(&faces[16], 0, nnorm[0], fnorm[16]));
    }
}
