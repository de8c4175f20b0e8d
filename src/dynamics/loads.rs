//! External loads of `[[load]]`: a follower pressure, a traction of fixed
//! direction, a total force, each times its curve.
//!
//! The energy-momentum step evaluates them where its residual lives
//! (DESIGN §4.1): at `t_{n+½}`, and the pressure on the midpoint
//! configuration `x_{n+½} = (x_n + x_{n+1})/2`; Newmark at `t_{n+1}` and
//! `x_{n+1}`. Whatever force the residual uses defines the external work
//! `f_ext·Δx` of the step (`docs/ledgers.md`), so no load needs a potential.
//!
//! # Follower pressure
//!
//! A pressure `p` (positive into the body) on a face with outward
//! orientation (`crate::mesh` conventions) gives the nodal forces
//!
//! ```text
//! f_A = −p ∫ N_A (x_{,ξ} × x_{,η}) dξ dη        (3D faces)
//! f_A = −p ∫ N_A (x_{,ξ} × e_z) dξ              (2D edges, unit thickness)
//! ```
//!
//! on the current configuration, integrated exactly (one point on line2 and
//! tri3, 2×2 Gauss on quad4: the integrands are polynomials of those
//! degrees). Its derivative is the load stiffness of Simo, Taylor & Wriggers
//! (1991, "A note on finite-element implementation of pressure boundary
//! loading", Commun. Appl. Numer. Methods 7, eqs. 9–12; Bonet & Wood 2008,
//! *Nonlinear Continuum Mechanics for Finite Element Analysis*, §8.4.2):
//! with `a = x_{,ξ}`, `b = x_{,η}`,
//!
//! ```text
//! ∂f_A/∂x_B = −p ∫ N_A (N_{B,η} [a]_× − N_{B,ξ} [b]_×) dξ dη
//! ```
//!
//! (`[a]_× v = a × v`), unsymmetric for an open surface; the Newton matrix
//! is solved by LU anyway. In the midpoint configuration the derivative with
//! respect to `x_{n+1}` is half of it.

use super::system::System;
use crate::contact::surface::face_weights;
use crate::curve::{self, Curve};
use crate::fe::ElementKind;
use crate::linalg::BlockPattern;
use crate::mesh::Element;
use crate::model::{LoadKind, Model};

/// One load, resolved on the mesh.
#[derive(Debug, Clone)]
enum Item {
    /// Nodal forces proportional to the curve: traction, total force.
    Nodal {
        nodes: Vec<usize>,
        forces: Vec<[f64; 3]>,
    },
    /// A follower pressure on faces.
    Pressure { p: f64, faces: Vec<Element> },
}

/// The loads of a model.
#[derive(Debug, Clone, Default)]
pub struct Loads {
    items: Vec<(Item, Option<Curve>)>,
}

/// Gauss points `(ξ, η, weight)` integrating a face's pressure exactly.
fn gauss(kind: ElementKind) -> &'static [(f64, f64, f64)] {
    const G: f64 = 0.577_350_269_189_625_8;
    match kind {
        ElementKind::Line2 => &[(0.0, 0.0, 2.0)],
        ElementKind::Tri3 => &[(1.0 / 3.0, 1.0 / 3.0, 0.5)],
        _ => &[(-G, -G, 1.0), (G, -G, 1.0), (G, G, 1.0), (-G, G, 1.0)],
    }
}

/// Shape functions and their `ξ`, `η` derivatives of a face at `(ξ, η)`.
fn shape(kind: ElementKind, xi: f64, eta: f64) -> ([f64; 4], [f64; 4], [f64; 4]) {
    match kind {
        ElementKind::Line2 => (
            [0.5 * (1.0 - xi), 0.5 * (1.0 + xi), 0.0, 0.0],
            [-0.5, 0.5, 0.0, 0.0],
            [0.0; 4],
        ),
        ElementKind::Tri3 => (
            [1.0 - xi - eta, xi, eta, 0.0],
            [-1.0, 1.0, 0.0, 0.0],
            [-1.0, 0.0, 1.0, 0.0],
        ),
        _ => (
            [
                0.25 * (1.0 - xi) * (1.0 - eta),
                0.25 * (1.0 + xi) * (1.0 - eta),
                0.25 * (1.0 + xi) * (1.0 + eta),
                0.25 * (1.0 - xi) * (1.0 + eta),
            ],
            [
                -0.25 * (1.0 - eta),
                0.25 * (1.0 - eta),
                0.25 * (1.0 + eta),
                -0.25 * (1.0 + eta),
            ],
            [
                -0.25 * (1.0 - xi),
                -0.25 * (1.0 + xi),
                0.25 * (1.0 + xi),
                0.25 * (1.0 - xi),
            ],
        ),
    }
}

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

/// `[a]_×`: the matrix of `v ↦ a × v`.
fn skew(a: [f64; 3]) -> [[f64; 3]; 3] {
    [[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]]
}

/// The pressure forces `f` (per node, `4 × 3`) of one face at positions `x`
/// and, with `k`, `∂f_A/∂x_B` (`[A][B][i][j]`) for a unit pressure.
#[allow(clippy::type_complexity)]
fn face_pressure(
    kind: ElementKind,
    x: &[[f64; 3]],
    f: &mut [[f64; 3]; 4],
    mut k: Option<&mut [[[[f64; 3]; 3]; 4]; 4]>,
) {
    let n = x.len();
    *f = [[0.0; 3]; 4];
    if let Some(k) = k.as_deref_mut() {
        *k = [[[[0.0; 3]; 3]; 4]; 4];
    }
    let ez = [0.0, 0.0, 1.0];
    for &(xi, eta, w) in gauss(kind) {
        let (nn, dxi, deta) = shape(kind, xi, eta);
        let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
        for c in 0..n {
            for i in 0..3 {
                a[i] += dxi[c] * x[c][i];
                b[i] += deta[c] * x[c][i];
            }
        }
        let two_d = kind == ElementKind::Line2;
        let normal = if two_d { cross(a, ez) } else { cross(a, b) };
        for (fa, &na) in f.iter_mut().zip(&nn).take(n) {
            for i in 0..3 {
                fa[i] -= w * na * normal[i];
            }
        }
        let Some(k) = k.as_deref_mut() else {
            continue;
        };
        // d(a × b) = N_B,ξ dx × b + a × N_B,η dx; 2D: d(a × e_z) = N_B,ξ dx × e_z
        let (sa, sb, sz) = (skew(a), skew(b), skew(ez));
        for (ka, &na) in k.iter_mut().zip(&nn).take(n) {
            for (kab, (&dx, &dy)) in ka.iter_mut().zip(dxi.iter().zip(&deta)).take(n) {
                for i in 0..3 {
                    for j in 0..3 {
                        let d = if two_d {
                            -dx * sz[i][j]
                        } else {
                            dy * sa[i][j] - dx * sb[i][j]
                        };
                        kab[i][j] -= w * na * d;
                    }
                }
            }
        }
    }
}

impl Loads {
    /// The loads of `model` on `sys`.
    pub fn new<const D: usize>(model: &Model, sys: &System<D>) -> Loads {
        Loads::on::<D>(model, &sys.xref, &sys.lumped)
    }

    /// The loads of `model` on the mesh nodes' reference positions `xref`
    /// and lumped masses `lumped` (a total force on a volume group is
    /// spread by mass).
    pub fn on<const D: usize>(model: &Model, xref: &[[f64; 3]], lumped: &[f64]) -> Loads {
        let mesh = &model.mesh;
        let items = model
            .loads
            .iter()
            .map(|l| {
                let group = mesh.group(&l.group).expect("input checked the group");
                let curve = l.curve.map(|c| model.curves[c].clone());
                let item = match l.kind {
                    LoadKind::Pressure(p) => Item::Pressure {
                        p,
                        faces: group.elements.clone(),
                    },
                    LoadKind::Traction(t) => {
                        let (nodes, w) = area_weights(group.elements.iter(), xref);
                        Item::Nodal {
                            forces: w.iter().map(|&wa| t.map(|ti| ti * wa)).collect(),
                            nodes,
                        }
                    }
                    LoadKind::Force(total) => {
                        let (nodes, mut w) = if group.dim + 1 == D {
                            area_weights(group.elements.iter(), xref)
                        } else {
                            let nodes = mesh.group_nodes(&l.group).unwrap_or_default();
                            let w = nodes.iter().map(|&a| lumped[a]).collect();
                            (nodes, w)
                        };
                        let sum: f64 = w.iter().sum();
                        if sum > 0.0 {
                            w.iter_mut().for_each(|v| *v /= sum);
                        } else {
                            let even = 1.0 / w.len().max(1) as f64;
                            w.iter_mut().for_each(|v| *v = even);
                        }
                        Item::Nodal {
                            forces: w.iter().map(|&wa| total.map(|fi| fi * wa)).collect(),
                            nodes,
                        }
                    }
                };
                (item, curve)
            })
            .collect();
        Loads { items }
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The share of these loads that one process of a distributed run
    /// adds, renumbered to its local nodes: the nodal forces at the nodes
    /// `node` maps (the ones it owns), the pressure faces `face` maps (each
    /// face on one process, with its nodes renumbered). The processes'
    /// shares sum to the whole loads.
    pub fn share(
        &self,
        node: impl Fn(usize) -> Option<usize>,
        mut face: impl FnMut(&Element) -> Option<Element>,
    ) -> Loads {
        let items = self
            .items
            .iter()
            .map(|(item, c)| {
                let item = match item {
                    Item::Nodal { nodes, forces } => {
                        let (nodes, forces) = nodes
                            .iter()
                            .zip(forces)
                            .filter_map(|(&a, f)| node(a).map(|l| (l, *f)))
                            .unzip();
                        Item::Nodal { nodes, forces }
                    }
                    Item::Pressure { p, faces } => Item::Pressure {
                        p: *p,
                        faces: faces.iter().filter_map(&mut face).collect(),
                    },
                };
                (item, c.clone())
            })
            .collect();
        Loads { items }
    }

    /// Adds the loads at time `t` to `f` (nodal vector of dimension `D`),
    /// the pressures on the positions `x` (the midpoint configuration of
    /// the step, or its end); with `k`, adds `−s ∂f/∂x` to the matrix values
    /// on `pattern`, `s = ∂x/∂x_{n+1}` (½ at the midpoint). Entries missing
    /// from the pattern are skipped (a face's nodes are coupled by its
    /// element). No allocation.
    pub fn add<const D: usize>(
        &self,
        t: f64,
        x: &[f64],
        f: &mut [f64],
        mut k: Option<(&BlockPattern, &mut [f64], f64)>,
    ) {
        let mut fe = [[0.0; 3]; 4];
        let mut ke = [[[[0.0; 3]; 3]; 4]; 4];
        let mut xe = [[0.0; 3]; 4];
        for (item, c) in &self.items {
            let factor = curve::value(c.as_ref(), t);
            match item {
                Item::Nodal { nodes, forces } => {
                    for (&a, fa) in nodes.iter().zip(forces) {
                        for i in 0..D {
                            f[a * D + i] += factor * fa[i];
                        }
                    }
                }
                Item::Pressure { p, faces } => {
                    let p = factor * p;
                    for e in faces {
                        let nodes = e.nodes();
                        let n = nodes.len();
                        for (xa, &a) in xe.iter_mut().zip(nodes) {
                            *xa = [0.0; 3];
                            xa[..D].copy_from_slice(&x[a * D..a * D + D]);
                        }
                        let with_k = k.is_some();
                        face_pressure(e.kind, &xe[..n], &mut fe, with_k.then_some(&mut ke));
                        for (fa, &a) in fe.iter().zip(nodes) {
                            for i in 0..D {
                                f[a * D + i] += p * fa[i];
                            }
                        }
                        let Some((pattern, kv, s)) = k.as_mut() else {
                            continue;
                        };
                        for (ka, &a) in ke.iter().zip(nodes) {
                            for (kab, &b) in ka.iter().zip(nodes) {
                                let Some(off) = pattern.block_offset(a, b) else {
                                    continue;
                                };
                                for i in 0..D {
                                    for j in 0..D {
                                        kv[pattern.position(off, i, b, j)] -= *s * p * kab[i][j];
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The nodes of `faces` and their tributary reference areas `∫ N_A dA`.
fn area_weights<'a>(
    faces: impl Iterator<Item = &'a Element>,
    xref: &[[f64; 3]],
) -> (Vec<usize>, Vec<f64>) {
    let mut area = std::collections::BTreeMap::new();
    let (mut w, mut xs) = ([0.0; 4], [[0.0; 3]; 4]);
    for e in faces {
        let n = e.nodes().len();
        for (k, &a) in e.nodes().iter().enumerate() {
            xs[k] = xref[a];
        }
        face_weights(e.kind, &xs[..n], &mut w);
        for (k, &a) in e.nodes().iter().enumerate() {
            *area.entry(a).or_insert(0.0) += w[k];
        }
    }
    area.into_iter().unzip()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The load stiffness of a face is the derivative of its pressure
    /// forces (central differences, 2D edge, tri3 and a warped quad4), and
    /// the forces sum to `−p ∫ n da`.
    #[test]
    fn pressure_stiffness_is_the_derivative_of_the_forces() {
        let faces: [(ElementKind, Vec<[f64; 3]>); 3] = [
            (ElementKind::Line2, vec![[0.1, 0.2, 0.0], [1.3, 0.5, 0.0]]),
            (
                ElementKind::Tri3,
                vec![[0.0, 0.0, 0.1], [1.0, 0.2, 0.0], [0.3, 0.9, 0.2]],
            ),
            (
                ElementKind::Quad4,
                vec![
                    [0.0, 0.0, 0.0],
                    [1.1, 0.1, 0.2],
                    [1.0, 1.2, -0.1],
                    [-0.1, 0.9, 0.3],
                ],
            ),
        ];
        for (kind, x) in faces {
            let n = x.len();
            let (mut f, mut k) = ([[0.0; 3]; 4], [[[[0.0; 3]; 3]; 4]; 4]);
            face_pressure(kind, &x, &mut f, Some(&mut k));
            let dims = if kind == ElementKind::Line2 { 2 } else { 3 };
            let step = 1e-6;
            for b in 0..n {
                for j in 0..dims {
                    let (mut xp, mut xm) = (x.clone(), x.clone());
                    xp[b][j] += step;
                    xm[b][j] -= step;
                    let (mut fp, mut fm) = ([[0.0; 3]; 4], [[0.0; 3]; 4]);
                    face_pressure(kind, &xp, &mut fp, None);
                    face_pressure(kind, &xm, &mut fm, None);
                    for a in 0..n {
                        for i in 0..dims {
                            let fd = (fp[a][i] - fm[a][i]) / (2.0 * step);
                            assert!(
                                (fd - k[a][b][i][j]).abs() <= 1e-8,
                                "{kind:?}: ∂f_{a}{i}/∂x_{b}{j} = {} against {fd}",
                                k[a][b][i][j]
                            );
                        }
                    }
                }
            }
            // the resultant: −p times the area vector
            let total: [f64; 3] = [0, 1, 2].map(|i| f[..n].iter().map(|fa| fa[i]).sum());
            let area = match kind {
                ElementKind::Line2 => {
                    let t = [x[1][0] - x[0][0], x[1][1] - x[0][1], 0.0];
                    [t[1], -t[0], 0.0]
                }
                ElementKind::Tri3 => cross(
                    [0, 1, 2].map(|i| x[1][i] - x[0][i]),
                    [0, 1, 2].map(|i| x[2][i] - x[0][i]),
                )
                .map(|v| 0.5 * v),
                _ => cross(
                    [0, 1, 2].map(|i| x[2][i] - x[0][i]),
                    [0, 1, 2].map(|i| x[3][i] - x[1][i]),
                )
                .map(|v| 0.5 * v),
            };
            for i in 0..3 {
                assert!(
                    (total[i] + area[i]).abs() <= 1e-14,
                    "{kind:?}: {total:?} {area:?}"
                );
            }
        }
    }
}
