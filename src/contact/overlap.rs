//! Initial overlap: nodes of a contact surface that lie inside the other body
//! at t = 0, found before the first step (`emcontact check` and `run`), and
//! `initial_overlap = "adjust"`, which moves them onto the other surface.
//!
//! A contact stage that starts with a node inside the other body enforces
//! the gap at once: the first step pushes the node out and adds the strain
//! energy of that push to the model (62 % of the energy of a disk placed
//! into a block). Abaqus ("adjust") and FEBio move such nodes onto the master
//! surface before the analysis, strain-free; so does `adjust` here.
//!
//! # What counts as inside
//!
//! A node is inside the other body when the contact stage would see it
//! penetrated at the first step: its closest face of the other surface (the
//! narrow phase's choice, [`Narrow::detect`]) gives it a gap
//! `g < −OVERLAP_TOL · h` ([`super::point::end_kinematics`], the gap the
//! contact stage enforces), and its closest point is not beside the rim of
//! that surface ([`beside_rim`]: a node behind the plane of the surface but
//! beyond its edge is beside the body, not in it). Against a rigid plane:
//! `g = (x − p)·ν < −OVERLAP_TOL · h`. `h` is the pair's face size
//! ([`Surface::h`]); `OVERLAP_TOL = 1e-8` leaves surfaces that touch at
//! t = 0 (gaps at round-off, ~1e-16 h) alone. Only nodes within the
//! bounding box of the other body (the volume groups that hold its surface's
//! nodes) are candidates: a node behind an open surface but beyond its body
//! is not in it. The narrow phase looks for faces within `2h`; a node in
//! the box but farther than that from every face (deeply inside) is
//! compared with every face.
//!
//! Both surfaces of a pair between two deformable bodies are checked: the
//! slave nodes against the master surface, and the master nodes against the
//! slave surface (a master node sinks into the slave body unseen by a
//! one-pass contact stage).
//!
//! # Adjust
//!
//! Each overlapping node moves to `x − g ν`, its closest point on the other
//! surface (gap 0 there). The slave nodes move first; master nodes still
//! inside the slave body after that move onto the slave surface. The search
//! is repeated (a node in a concave corner may need a second move) until no
//! node is inside, at most [`MAX_ROUNDS`] times. The positions replace the
//! mesh's: the reference configuration moves, so the model starts without
//! initial strain.

use super::broad::node_x;
use super::geometry::vec3::{axpy, dot, norm, sub};
use super::geometry::{GeometryError, MAX_NODES};
use super::law::Constraint;
use super::narrow::{beside_rim, Narrow};
use super::point::{end_kinematics, PointSetup};
use super::search::SpatialHash;
use super::surface::{ContactSetupError, Master, Surface};
use crate::mesh::{Mesh, MeshError};
use crate::model::{ContactSpec, InitialOverlap, MasterSpec, Model};
use std::fmt::Write;
use std::path::PathBuf;

/// A node deeper than `OVERLAP_TOL · h` inside the other body overlaps.
pub const OVERLAP_TOL: f64 = 1e-8;
/// Rounds of search and move of `adjust`.
pub const MAX_ROUNDS: usize = 4;

/// One node inside the other body.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Inside {
    /// Mesh node (0-based, the VTK point id).
    pub node: usize,
    pub position: [f64; 3],
    /// `−g > 0`.
    pub depth: f64,
    /// Its closest point on the other surface, `x − g ν`.
    pub target: [f64; 3],
}

/// The nodes of one surface of pair `pair` that are inside the other body.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlap {
    pub pair: usize,
    /// The surface whose nodes are inside, and the other one (`"name"`, or
    /// "the rigid plane").
    pub surface: String,
    pub other: String,
    pub dim: usize,
    /// The pair's face size.
    pub h: f64,
    /// Left after `adjust` (else the pair has `initial_overlap = "error"`).
    pub adjusted: bool,
    pub nodes: Vec<Inside>,
}

impl Overlap {
    /// The deepest node.
    pub fn deepest(&self) -> &Inside {
        self.nodes
            .iter()
            .max_by(|a, b| a.depth.total_cmp(&b.depth))
            .expect("an overlap has nodes")
    }
}

impl std::fmt::Display for Overlap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = self.deepest();
        write!(
            f,
            "contact[{}]: {} node(s) of surface \"{}\" start {} {} (deeper than {OVERLAP_TOL:e}·h, h = {}); the deepest is node {} at {}, {} deep ({:.3} h)",
            self.pair,
            self.nodes.len(),
            self.surface,
            if self.other.starts_with('"') { "inside the body of" } else { "behind" },
            self.other,
            num(self.h),
            d.node,
            point(d.position, self.dim),
            num(d.depth),
            d.depth / self.h
        )?;
        if self.adjusted {
            write!(f, "; they are left after initial_overlap = \"adjust\" moved them {MAX_ROUNDS} times: move the bodies apart")
        } else {
            write!(f, "; move the bodies apart, or set contact[{}].initial_overlap = \"adjust\" to move them onto the other surface", self.pair)
        }
    }
}

/// Six significant digits (exponent form outside [1e-4, 1e6)).
fn num(v: f64) -> String {
    let r: f64 = format!("{v:.5e}").parse().unwrap_or(v);
    if r == 0.0 || (1e-4..1e6).contains(&r.abs()) {
        r.to_string()
    } else {
        format!("{r:e}")
    }
}

fn point(p: [f64; 3], dim: usize) -> String {
    let c: Vec<String> = p[..dim].iter().map(|&v| num(v)).collect();
    format!("({})", c.join(", "))
}

/// What `adjust` moved on one surface of a pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Moved {
    pub pair: usize,
    pub surface: String,
    pub other: String,
    /// Nodes moved, the largest distance moved and its node.
    pub count: usize,
    pub max: f64,
    pub node: usize,
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "contact[{}]: initial_overlap = \"adjust\" moved {} node(s) of surface \"{}\" onto {} (strain-free: the reference mesh changes), at most {} (node {})",
            self.pair,
            self.count,
            self.surface,
            self.other,
            num(self.max),
            self.node
        )
    }
}

/// Why a model cannot start.
#[derive(Debug, thiserror::Error)]
pub enum OverlapError {
    /// Nodes inside the other body (each overlap on its own line).
    #[error("{}", inside_message(file, overlaps))]
    Inside {
        file: PathBuf,
        overlaps: Vec<Overlap>,
    },
    #[error("{}: contact: {source}", file.display())]
    Setup {
        file: PathBuf,
        #[source]
        source: ContactSetupError,
    },
    #[error("{}: contact[{pair}]: {source}", file.display())]
    Geometry {
        file: PathBuf,
        pair: usize,
        #[source]
        source: GeometryError,
    },
    /// Every slave node of a pair starts behind its rigid plane: the
    /// plane's normal points away from the slaves.
    #[error("{}: contact[{pair}]: all {count} nodes of surface \"{slave}\" start behind the rigid plane through {point} with normal {normal} (the deepest {depth}): the normal points away from the body, not toward it; flip it: normal = {flipped}", file.display())]
    FlippedPlane {
        file: PathBuf,
        pair: usize,
        slave: String,
        count: usize,
        depth: String,
        point: String,
        normal: String,
        flipped: String,
    },
    #[error("{}: contact: initial_overlap = \"adjust\" made an element unusable ({source}); move the bodies apart", file.display())]
    Mesh {
        file: PathBuf,
        #[source]
        source: MeshError,
    },
}

fn inside_message(file: &std::path::Path, overlaps: &[Overlap]) -> String {
    let mut s = String::new();
    for (i, o) in overlaps.iter().enumerate() {
        let sep = if i > 0 { "\n" } else { "" };
        let _ = write!(s, "{sep}{}: {o}", file.display());
    }
    s
}

/// The model's mesh positions after `adjust`, and what moved.
#[derive(Debug, Clone, Default)]
pub struct Resolved {
    /// The moved node positions (`None`: nothing moved).
    pub nodes: Option<Vec<[f64; 3]>>,
    pub moved: Vec<Moved>,
}

/// The directions a pair is checked in: its slave nodes against its master,
/// and for a deformable master its nodes against the slave surface.
fn directions(spec: &ContactSpec) -> Vec<ContactSpec> {
    let mut out = vec![spec.clone()];
    if spec.is_self() {
        return out;
    }
    if let MasterSpec::Surface(m) = &spec.master {
        out.push(ContactSpec {
            slave: m.clone(),
            master: MasterSpec::Surface(spec.slave.clone()),
            ..spec.clone()
        });
    }
    out
}

/// The bounding box of the volume groups that hold a node of `nodes`.
fn body_box(mesh: &Mesh, dim: usize, nodes: &[bool]) -> Option<[[f64; 3]; 2]> {
    let mut b = [[f64::INFINITY; 3], [f64::NEG_INFINITY; 3]];
    let mut any = false;
    for g in mesh.groups.iter().filter(|g| g.dim == dim) {
        if !g.elements.iter().flat_map(|e| e.nodes()).any(|&a| nodes[a]) {
            continue;
        }
        any = true;
        for &a in g.elements.iter().flat_map(|e| e.nodes()) {
            for i in 0..3 {
                b[0][i] = b[0][i].min(mesh.nodes[a][i]);
                b[1][i] = b[1][i].max(mesh.nodes[a][i]);
            }
        }
    }
    any.then_some(b)
}

/// The slave nodes of `s` inside the other body (module docs) at the mesh's
/// positions; `body` bounds the other body (for the deep search).
fn inside(
    s: &Surface,
    mesh: &Mesh,
    body: Option<[[f64; 3]; 2]>,
) -> Result<Vec<Inside>, GeometryError> {
    let (d, x3) = (s.dim, &mesh.nodes);
    let tol = OVERLAP_TOL * s.h;
    let mut out = Vec::new();
    let faces = match &s.master {
        Master::Plane { point, normal, .. } => {
            for &a in &s.slaves {
                let g = dot(sub(x3[a], *point), *normal);
                if g < -tol {
                    let target = axpy(x3[a], -g, *normal);
                    out.push(Inside {
                        node: a,
                        position: x3[a],
                        depth: -g,
                        target,
                    });
                }
            }
            return Ok(out);
        }
        Master::Rigid(r) => {
            for &a in &s.slaves {
                let (g, nu) = r.gap(x3[a]);
                if g < -tol {
                    out.push(Inside {
                        node: a,
                        position: x3[a],
                        depth: -g,
                        target: axpy(x3[a], -g, nu),
                    });
                }
            }
            return Ok(out);
        }
        Master::Faces(faces) => faces,
    };
    let flat: Vec<f64> = x3.iter().flat_map(|p| p[..d].iter().copied()).collect();
    let mut narrow = Narrow::new(s, x3.len());
    narrow.detect(s, &flat, false);
    let mut deep: Option<SpatialHash> = None;
    let mut scratch = Vec::new();
    for (k, &a) in s.slaves.iter().enumerate() {
        // a node outside the other body's box is not in it (this also keeps
        // a node behind an open surface but beyond its body out)
        if let Some(b) = &body {
            if !(0..d).all(|i| x3[a][i] >= b[0][i] - tol && x3[a][i] <= b[1][i] + tol) {
                continue;
            }
        }
        let face = match (narrow.held[k], &body) {
            (Some(f), _) => f,
            (None, None) => continue,
            (None, Some(b)) => {
                let hash = deep.get_or_insert_with(|| {
                    let mut h = SpatialHash::new(norm(sub(b[1], b[0])) + 2.0 * s.h);
                    h.rebuild(x3, faces);
                    h
                });
                match hash.closest_face(x3, faces, x3[a], &mut scratch) {
                    Some((f, _)) => f,
                    None => continue,
                }
            }
        };
        let e = &faces[face];
        let mut xe = [[0.0; 3]; MAX_NODES];
        xe[0] = node_x(&flat, a, d);
        for (i, &b) in e.nodes().iter().enumerate() {
            xe[1 + i] = node_x(&flat, b, d);
        }
        let setup = PointSetup {
            surface: s,
            narrow: &narrow,
            face: Some(face),
            constraint: Constraint::Gap,
            dt: 1.0,
        };
        let kin = end_kinematics(&setup, &xe[..1 + e.nodes().len()])?;
        if kin.gap < -tol && !beside_rim(s, e, kin.location) {
            let target = axpy(x3[a], -kin.gap, kin.normal);
            out.push(Inside {
                node: a,
                position: x3[a],
                depth: -kin.gap,
                target,
            });
        }
    }
    Ok(out)
}

/// Both directions of pair `i` at the mesh's positions.
fn pair_overlaps(model: &Model, mesh: &Mesh, i: usize) -> Result<Vec<Overlap>, OverlapError> {
    let file = || model.source.clone();
    let mut out = Vec::new();
    for dir in directions(&model.contacts[i]) {
        let s = Surface::new(&dir, mesh, model.dim).map_err(|source| OverlapError::Setup {
            file: file(),
            source,
        })?;
        let (other, body) = match &dir.master {
            MasterSpec::Plane { .. } => ("the rigid plane".to_string(), None),
            MasterSpec::Rigid(r) => (format!("the rigid {}", r.kind()), None),
            // a self-contact node is inside its own body by definition: only
            // the faces the narrow phase lets it see can hold it (super::own)
            MasterSpec::Surface(m) if dir.is_self() => (format!("\"{m}\" (itself)"), None),
            MasterSpec::Surface(m) => {
                let mut on = vec![false; mesh.nodes.len()];
                if let Master::Faces(faces) = &s.master {
                    faces
                        .iter()
                        .flat_map(|e| e.nodes())
                        .for_each(|&a| on[a] = true);
                }
                (format!("\"{m}\""), body_box(mesh, model.dim, &on))
            }
        };
        let nodes = inside(&s, mesh, body).map_err(|source| OverlapError::Geometry {
            file: file(),
            pair: i,
            source,
        })?;
        if !nodes.is_empty() {
            out.push(Overlap {
                pair: i,
                surface: dir.slave.clone(),
                other,
                dim: model.dim,
                h: s.h,
                adjusted: false,
                nodes,
            });
        }
    }
    Ok(out)
}

/// Every node of every pair's surfaces inside the other body at the model's
/// positions, whatever the pair's `initial_overlap`.
pub fn find(model: &Model) -> Result<Vec<Overlap>, OverlapError> {
    let mut out = Vec::new();
    for i in 0..model.contacts.len() {
        out.extend(pair_overlaps(model, &model.mesh, i)?);
    }
    Ok(out)
}

/// A rigid plane with every slave node behind it: its normal points away
/// (whatever `initial_overlap` says: moving every node onto the plane is
/// no adjustment, and the body would fall through).
fn flipped_plane(model: &Model) -> Result<(), OverlapError> {
    let brackets = |v: [f64; 3]| {
        let c: Vec<String> = v[..model.dim].iter().map(|&x| num(x)).collect();
        format!("[{}]", c.join(", "))
    };
    for (i, spec) in model.contacts.iter().enumerate() {
        let (point, normal) = match &spec.master {
            MasterSpec::Plane { point, normal } => (*point, *normal),
            MasterSpec::Rigid(r) => match r.shape {
                crate::model::RigidShape::Plane { point, normal } => (point, normal),
                _ => continue,
            },
            MasterSpec::Surface(_) => continue,
        };
        let s =
            Surface::new(spec, &model.mesh, model.dim).map_err(|source| OverlapError::Setup {
                file: model.source.clone(),
                source,
            })?;
        let tol = OVERLAP_TOL * s.h;
        let gaps: Vec<f64> = s
            .slaves
            .iter()
            .map(|&a| dot(sub(model.mesh.nodes[a], point), normal))
            .collect();
        if !gaps.is_empty() && gaps.iter().all(|&g| g < -tol) {
            let deepest = gaps.iter().fold(0.0f64, |m, &g| m.max(-g));
            return Err(OverlapError::FlippedPlane {
                file: model.source.clone(),
                pair: i,
                slave: spec.slave.clone(),
                count: gaps.len(),
                depth: num(deepest),
                point: brackets(point),
                normal: brackets(normal),
                flipped: brackets(normal.map(|v| if v == 0.0 { 0.0 } else { -v })),
            });
        }
    }
    Ok(())
}

/// Moves the nodes of the `adjust` pairs onto the other surfaces (module
/// docs), then refuses the model if a node of any pair is still inside the
/// other body. A rigid plane behind every node of its slave surface is
/// refused first, as a plane whose normal points away.
pub fn resolve(model: &Model) -> Result<Resolved, OverlapError> {
    flipped_plane(model)?;
    let mut mesh: Option<Mesh> = None;
    let mut moved: Vec<Moved> = Vec::new();
    for (i, spec) in model.contacts.iter().enumerate() {
        if spec.initial_overlap != InitialOverlap::Adjust {
            continue;
        }
        for round in 0..=MAX_ROUNDS {
            let cur = mesh.as_ref().unwrap_or(&model.mesh);
            let found = pair_overlaps(model, cur, i)?;
            // the slave side first; the master side once the slaves are out
            let Some(o) = found.into_iter().next() else {
                break;
            };
            if round == MAX_ROUNDS {
                break;
            }
            let m = mesh.get_or_insert_with(|| model.mesh.clone());
            for n in &o.nodes {
                m.nodes[n.node] = n.target;
            }
            if !moved.iter().any(|r| r.pair == i && r.surface == o.surface) {
                moved.push(Moved {
                    pair: i,
                    surface: o.surface.clone(),
                    other: o.other.clone(),
                    count: 0,
                    max: 0.0,
                    node: 0,
                });
            }
        }
    }
    // what moved, measured from the input's positions
    if let Some(m) = &mesh {
        for r in &mut moved {
            let nodes = model.mesh.group_nodes(&r.surface).unwrap_or_default();
            for a in nodes {
                let dist = norm(sub(m.nodes[a], model.mesh.nodes[a]));
                if dist > 0.0 {
                    r.count += 1;
                    if dist > r.max {
                        (r.max, r.node) = (dist, a);
                    }
                }
            }
        }
        m.check_elements().map_err(|source| OverlapError::Mesh {
            file: model.source.clone(),
            source,
        })?;
    }
    // every pair at the final positions (one pair's move may affect another)
    let mut left = Vec::new();
    for (i, spec) in model.contacts.iter().enumerate() {
        for o in pair_overlaps(model, mesh.as_ref().unwrap_or(&model.mesh), i)? {
            let adjusted = spec.initial_overlap == InitialOverlap::Adjust;
            left.push(Overlap { adjusted, ..o });
        }
    }
    if !left.is_empty() {
        return Err(OverlapError::Inside {
            file: model.source.clone(),
            overlaps: left,
        });
    }
    Ok(Resolved {
        nodes: mesh.map(|m| m.nodes),
        moved,
    })
}
