//! Penetration of any boundary node of any body, checked after every step:
//! a node inside another body (or inside its own body, away from its own
//! elements: a body folding through itself) or behind a rigid master,
//! deeper than the tolerance. Contact pairs only see their own slaves (and,
//! measured, their masters' nodes); this check sees every node, so that a
//! run whose bodies pass through each other where no contact was declared
//! cannot end with a clean verdict.
//!
//! # Method
//!
//! For each body, its elements at the end-of-step positions go into a
//! spatial hash of their bounding boxes; a boundary node inside an element's
//! box (not one of its own elements) is tested against the element's exact
//! shape (`geometry.rs`, this check's own code, not the contact module's): a
//! hex8 by its inverse trilinear map, so that its faces are the bilinear
//! quads contact projects onto (a split into tetrahedra would put a node
//! resting on a warped face, outside the bilinear face where contact holds
//! it, inside one of them, and report its gap as a depth); a quad4, tri3 or
//! tet4 by its triangles. A node inside is as deep as its distance to the
//! body's boundary surface (its closest boundary face, bilinear for quad4
//! faces); inside its own body, where the faces around the node are left
//! out of that distance, at most as deep as it is inside the element it is
//! in (how far the body overlaps itself there). Quadratic elements are not
//! checked. Rigid masters (planes,
//! spheres, cylinders) give the depth `−g` of their signed gap.
//!
//! # Tolerance
//!
//! A node deeper than [`TOLERANCE`]`· h` (the initial-overlap threshold,
//! `h` the mean boundary face size of the body it is in, or the pair's face
//! size for a rigid master) counts. The slaves of an enforced pair are held
//! to the pair's own bound where it is larger (its tolerance or drift
//! bound, `contact.tolerance · h` and at least half of it, as
//! [`crate::contact::pair::Pair::tolerances`] gives them: what exact enforcement
//! allows); those of a penalty pair are left to `max_penetration` (the
//! penalty law admits a penetration by design). A slave inside its master
//! body deeper than that is still what its pair enforces, and not counted,
//! where it is within the bound on the extension of the face the pair holds
//! it on and within the narrow phase's slack of that face (see
//! `Intruders::held_out`): at an edge where the master surface bends into
//! a valley that extension lies under the next face.

mod geometry;

use crate::contact::search::SpatialHash;
use crate::contact::surface::Master;
use crate::contact::ContactSet;
use crate::mesh::{Element, Mesh};
use crate::model::{Enforcement, Model};
use serde::{Deserialize, Serialize};

/// Depth beyond which a node counts, relative to the face size `h`.
pub const TOLERANCE: f64 = 1e-8;

/// How far beyond the face it holds a slave may be and still be taken as
/// held on that face's extension (relative to the pair's face size): the
/// narrow phase's slack (`FACE_SLACK` in `contact/narrow.rs`).
const FACE_SLACK: f64 = 0.1;

/// What a run found: nodes of `body` in `into` (the worst step, the first
/// time).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Intrusion {
    /// The body whose boundary nodes went in.
    pub body: String,
    /// What they went into: a body (its boundary surface) or a rigid
    /// master (`"the rigid plane of contact[0]"`).
    pub into: Target,
    /// Nodes in at the worst step, the deepest node (0-based mesh index,
    /// the VTK point id) and its depth, when it was first seen.
    pub count: usize,
    pub node: usize,
    pub depth: f64,
    pub t: f64,
    pub tolerance: f64,
}

/// What nodes went into.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Target {
    Body(String),
    Rigid(String),
}

impl Intrusion {
    /// "inside body \"b\"" or "behind the rigid plane of `contact[k]`".
    pub fn behind(&self) -> String {
        match &self.into {
            Target::Body(b) if *b == self.body => {
                "inside their own body (through its boundary surface: the body passes through itself)"
                    .to_string()
            }
            Target::Body(b) => format!("inside body \"{b}\" (through its boundary surface)"),
            Target::Rigid(r) => format!("behind {r}"),
        }
    }
}

impl std::fmt::Display for Intrusion {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} boundary node(s) of body \"{}\" {} deeper than {:.3e}, first at t = {}; the deepest is node {} at {:.4e}",
            self.count,
            self.body,
            self.behind(),
            self.tolerance,
            self.t,
            self.node,
            self.depth
        )
    }
}

/// One body: elements, boundary faces, boundary nodes, face size, and the
/// hashes of its elements and faces (rebuilt at each check).
struct BodyGeometry {
    name: String,
    elements: Vec<Element>,
    faces: Vec<Element>,
    nodes: Vec<usize>,
    /// The elements of each node of the body (`node_elements[a]`, empty
    /// for nodes of other bodies).
    node_elements: std::collections::HashMap<usize, Vec<usize>>,
    h: f64,
    element_hash: SpatialHash,
    face_hash: SpatialHash,
}

/// The checker of a run (set up once; scratch kept between steps).
pub struct Intruders {
    bodies: Vec<BodyGeometry>,
    /// Body of each node (`usize::MAX`: none).
    node_body: Vec<usize>,
    /// Per node and target (a body index, or bodies + contact index for a
    /// rigid master): the pair's own bound where the node is an enforced
    /// slave of a pair against the target, `None` where the check leaves it
    /// to the pair (penalty).
    slave_bound: std::collections::HashMap<(usize, usize), Option<f64>>,
    /// Per node and target body: the enforced pair (index in the contact
    /// set) and the slave index the node has in it.
    slave_of: std::collections::HashMap<(usize, usize), (usize, usize)>,
    scratch: Vec<usize>,
    /// Findings so far.
    pub found: Vec<Intrusion>,
}

fn boundary_faces(mesh: &Mesh, group: &str) -> Vec<Element> {
    let Some(g) = mesh.group(group) else {
        return Vec::new();
    };
    let mut m = Mesh {
        dim: mesh.dim,
        nodes: Vec::new(),
        groups: vec![g.clone()],
        ..Mesh::default()
    };
    match m.add_boundary_group(group, "\u{0}boundary") {
        Ok(_) => m.groups.pop().map(|g| g.elements).unwrap_or_default(),
        Err(_) => Vec::new(),
    }
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}

/// How deep node `a` (inside `body`) is: its distance to the body's
/// boundary surface, leaving out the faces around `a` itself (a node of the
/// same body is on its own faces and those of its elements' neighbours).
fn depth(body: &BodyGeometry, x3: &[[f64; 3]], a: usize, scratch: &mut Vec<usize>) -> f64 {
    let star: Vec<usize> = body
        .node_elements
        .get(&a)
        .map(|els| {
            els.iter()
                .flat_map(|&e| body.elements[e].nodes().iter().copied())
                .collect()
        })
        .unwrap_or_default();
    let p = x3[a];
    let distance = |f: &Element| {
        let mut xs = [[0.0; 3]; 4];
        for (k, &n) in f.nodes().iter().enumerate().take(4) {
            xs[k] = x3[n];
        }
        geometry::distance(f.kind, &xs, p)
    };
    let usable = |f: &Element| !f.nodes().iter().any(|n| star.contains(n));
    body.face_hash.candidates(p, scratch);
    let near = scratch
        .iter()
        .map(|&f| &body.faces[f])
        .filter(|f| usable(f))
        .map(distance)
        .fold(f64::INFINITY, f64::min);
    if near <= body.face_hash.margin() {
        return near;
    }
    // deeper than the hash's margin: every face
    body.faces
        .iter()
        .filter(|f| usable(f))
        .map(distance)
        .fold(near, f64::min)
}

impl Intruders {
    /// The checker of `model` (after `initial_overlap` adjustment: `mesh`
    /// is the run's) with its contact pairs `contacts`.
    pub fn new(model: &Model, mesh: &Mesh, contacts: &ContactSet) -> Intruders {
        let mut node_body = vec![usize::MAX; mesh.nodes.len()];
        let bodies: Vec<BodyGeometry> = model
            .bodies
            .iter()
            .enumerate()
            .map(|(b, body)| {
                let elements = mesh
                    .group(&body.group)
                    .map(|g| g.elements.clone())
                    .unwrap_or_default();
                for e in &elements {
                    e.nodes().iter().for_each(|&a| node_body[a] = b);
                }
                let faces = boundary_faces(mesh, &body.group);
                let mut nodes: Vec<usize> = faces.iter().flat_map(|f| f.nodes().to_vec()).collect();
                nodes.sort_unstable();
                nodes.dedup();
                let size: f64 = faces
                    .iter()
                    .map(|f| {
                        let x = f.nodes().iter().map(|&a| mesh.nodes[a]).collect::<Vec<_>>();
                        let d = sub(x[x.len() - 1], x[0]);
                        (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt()
                    })
                    .sum();
                let h = size / faces.len().max(1) as f64;
                let mut node_elements: std::collections::HashMap<usize, Vec<usize>> =
                    Default::default();
                for (k, e) in elements.iter().enumerate() {
                    for &a in e.nodes() {
                        node_elements.entry(a).or_default().push(k);
                    }
                }
                BodyGeometry {
                    name: body.name.clone(),
                    elements,
                    faces,
                    nodes,
                    node_elements,
                    element_hash: SpatialHash::new(TOLERANCE * h),
                    face_hash: SpatialHash::new(2.0 * h),
                    h,
                }
            })
            .collect();
        // the slaves of each enforced pair, against the master's body or rigid master
        let mut slave_bound = std::collections::HashMap::new();
        let mut slave_of = std::collections::HashMap::new();
        let n_bodies = bodies.len();
        for (i, p) in contacts
            .pairs()
            .iter()
            .enumerate()
            .filter(|(_, p)| p.enforced())
        {
            let target = match &p.surface().master {
                Master::Faces(f) => f.first().map(|e| node_body[e.nodes()[0]]),
                _ => Some(n_bodies + p.input()),
            };
            let Some(target) = target.filter(|&t| t != usize::MAX) else {
                continue;
            };
            let (tol_abs, drift_bound) = p.tolerances();
            let bound =
                (p.spec().enforcement != Enforcement::Penalty).then(|| tol_abs.max(drift_bound));
            for (k, &a) in p.surface().slaves.iter().enumerate() {
                slave_bound.insert((a, target), bound);
                slave_of.insert((a, target), (i, k));
            }
        }
        Intruders {
            bodies,
            node_body,
            slave_bound,
            slave_of,
            scratch: Vec::new(),
            found: Vec::new(),
        }
    }

    /// The tolerance of node `a` against `target` (`None`: not checked).
    fn tolerance(&self, a: usize, target: usize, default: f64) -> Option<f64> {
        match self.slave_bound.get(&(a, target)) {
            Some(None) => None,
            Some(Some(b)) => Some(b.max(default)),
            None => Some(default),
        }
    }

    /// Checks the positions `x` (dimension `d`) at time `t` against every
    /// body and every rigid master of `contacts` (placed at the end of the
    /// step just taken); records and returns the new findings' lines.
    pub fn check(&mut self, x: &[f64], d: usize, t: f64, contacts: &ContactSet) -> Vec<String> {
        let x3: Vec<[f64; 3]> = (0..x.len() / d)
            .map(|a| {
                let mut p = [0.0; 3];
                p[..d].copy_from_slice(&x[a * d..a * d + d]);
                p
            })
            .collect();
        let mut lines = Vec::new();
        let n_bodies = self.bodies.len();
        for b in 0..n_bodies {
            let hits = self.into_body(b, &x3, contacts);
            for (a_body, hit) in hits {
                lines.extend(self.record(
                    a_body,
                    Target::Body(self.bodies[b].name.clone()),
                    hit,
                    t,
                ));
            }
        }
        for p in contacts.pairs().iter().filter(|p| p.pass() == 1) {
            let gap = |y: [f64; 3]| -> Option<f64> {
                match &p.surface().master {
                    Master::Plane { point, normal, .. } => {
                        Some((0..3).map(|i| (y[i] - point[i]) * normal[i]).sum())
                    }
                    Master::Rigid(r) => Some(r.gap(y).0),
                    Master::Faces(_) => None,
                }
            };
            if gap([0.0; 3]).is_none() {
                continue;
            }
            let name = match &p.surface().master {
                Master::Rigid(r) => {
                    format!("the rigid {} of contact[{}]", r.spec.kind(), p.input())
                }
                _ => format!("the rigid plane of contact[{}]", p.input()),
            };
            let default = TOLERANCE * p.surface().h;
            let target = n_bodies + p.input();
            let mut per_body: Vec<Hit> = vec![Hit::default(); n_bodies];
            for (b, body) in self.bodies.iter().enumerate() {
                for &a in &body.nodes {
                    let Some(tol) = self.tolerance(a, target, default) else {
                        continue;
                    };
                    let depth = -gap(x3[a]).unwrap_or(0.0);
                    if depth > tol {
                        per_body[b].add(a, depth, tol);
                    }
                }
            }
            for (b, hit) in per_body.into_iter().enumerate() {
                lines.extend(self.record(b, Target::Rigid(name.clone()), hit, t));
            }
        }
        lines
    }

    /// Boundary nodes of every body inside body `b`, per body.
    fn into_body(&mut self, b: usize, x3: &[[f64; 3]], contacts: &ContactSet) -> Vec<(usize, Hit)> {
        if self.bodies[b].elements.is_empty() {
            return Vec::new();
        }
        let mut lo = [f64::INFINITY; 3];
        let mut hi = [f64::NEG_INFINITY; 3];
        for &a in self.bodies[b].elements.iter().flat_map(|e| e.nodes()) {
            for i in 0..3 {
                lo[i] = lo[i].min(x3[a][i]);
                hi[i] = hi[i].max(x3[a][i]);
            }
        }
        let default = TOLERANCE * self.bodies[b].h;
        {
            let body = &mut self.bodies[b];
            body.element_hash.rebuild(x3, &body.elements);
            body.face_hash.rebuild(x3, &body.faces);
        }
        let body = &self.bodies[b];
        let mut out: Vec<(usize, Hit)> = Vec::new();
        let mut candidates = std::mem::take(&mut self.scratch);
        for (a_body, other) in self.bodies.iter().enumerate() {
            let mut hit = Hit::default();
            for &a in &other.nodes {
                let p = x3[a];
                if (0..3).any(|i| p[i] < lo[i] - default || p[i] > hi[i] + default) {
                    continue;
                }
                let Some(tol) = self.tolerance(a, b, default) else {
                    continue;
                };
                body.element_hash.candidates(p, &mut candidates);
                let within = candidates.iter().find_map(|&e| {
                    let el = &body.elements[e];
                    let mut xs = [[0.0; 3]; 8];
                    for (k, &n) in el.nodes().iter().enumerate().take(8) {
                        xs[k] = x3[n];
                    }
                    (!el.nodes().contains(&a) && geometry::inside(el.kind, &xs, p))
                        .then(|| geometry::depth_in(el.kind, &xs, p))
                });
                let Some(within) = within else {
                    continue;
                };
                let mut depth = depth(body, x3, a, &mut candidates);
                if a_body == b {
                    // through its own body: the faces around the node are
                    // left out of the boundary distance, so the element it
                    // is in bounds how deep the body overlaps itself there
                    depth = depth.min(within);
                }
                if depth > tol && !self.held_out(a, b, tol, x3, contacts) {
                    hit.add(a, depth, tol);
                }
            }
            if hit.count > 0 {
                out.push((a_body, hit));
            }
        }
        self.scratch = candidates;
        out
    }

    /// Records a step's hits of `body` into `into`; the warning line when
    /// it is new or worse than before.
    fn record(&mut self, body: usize, into: Target, hit: Hit, t: f64) -> Option<String> {
        if hit.count == 0 {
            return None;
        }
        let name = self.bodies[body].name.clone();
        match self
            .found
            .iter_mut()
            .find(|f| f.body == name && f.into == into)
        {
            Some(f) => {
                let worse = hit.count > f.count;
                if hit.count > f.count {
                    f.count = hit.count;
                }
                if hit.depth > f.depth {
                    (f.depth, f.node) = (hit.depth, hit.node);
                }
                worse.then(|| format!("t = {t}: {f}"))
            }
            None => {
                let f = Intrusion {
                    body: name,
                    into,
                    count: hit.count,
                    node: hit.node,
                    depth: hit.depth,
                    t,
                    tolerance: hit.tolerance,
                };
                let line = format!("t = {t}: {f}");
                self.found.push(f);
                Some(line)
            }
        }
    }

    /// Whether node `a`, inside body `b`, is where its contact pair against
    /// `b` holds it: on the extension of the face it holds, within the
    /// pair's bound, and within `FACE_SLACK·h` of that face. Node-to-segment
    /// contact enforces the gap on the held face, and at an edge where the
    /// surface bends the slave may stay on its face's extension (the
    /// narrow phase's slack and settle rules, which keep it from
    /// alternating between the two faces): in a valley that extension lies
    /// under the next face, by the slave's distance beyond the edge times
    /// the bend (on the friction blocks up to 4.9e-5 h). Such a node is
    /// what the contact law allows, not a crossing. The gap is this check's
    /// own measure of the face the contact holds.
    fn held_out(
        &self,
        a: usize,
        b: usize,
        bound: f64,
        x3: &[[f64; 3]],
        contacts: &ContactSet,
    ) -> bool {
        let Some(&(i, k)) = self.slave_of.get(&(a, b)) else {
            return false;
        };
        let pair = &contacts.pairs()[i];
        let (Master::Faces(faces), Some(f)) = (&pair.surface().master, pair.narrow().held[k])
        else {
            return false;
        };
        let mut xs = [[0.0; 3]; 4];
        for (j, &n) in faces[f].nodes().iter().enumerate().take(4) {
            xs[j] = x3[n];
        }
        let (gap, distance) = geometry::extended_gap(faces[f].kind, &xs, x3[a]);
        gap >= -bound && distance <= FACE_SLACK * pair.surface().h
    }

    /// The body of node `a` (`None`: no body).
    pub fn body_of(&self, a: usize) -> Option<usize> {
        (self.node_body[a] != usize::MAX).then_some(self.node_body[a])
    }
}

/// The nodes of one body found in one target at one step.
#[derive(Debug, Clone, Copy, Default)]
struct Hit {
    count: usize,
    node: usize,
    depth: f64,
    tolerance: f64,
}

impl Hit {
    fn add(&mut self, a: usize, depth: f64, tol: f64) {
        self.count += 1;
        if depth > self.depth {
            (self.node, self.depth, self.tolerance) = (a, depth, tol);
        }
    }
}
