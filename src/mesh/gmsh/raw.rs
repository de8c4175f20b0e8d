//! The file-level content of a Gmsh mesh (tags as written) and its assembly into
//! a [`Mesh`] with 0-based node indices and named groups.
use super::super::{Element, Group, Mesh, MeshError};
use super::cursor::parse_error;
use crate::fe::{ElementKind, MAX_NODES};
use std::collections::HashMap;
use std::path::Path;

/// One element as written: Gmsh tag and type, node tags (kinds of at most
/// [`MAX_NODES`] nodes; empty for larger types), the entity dimension and the
/// set of physical tags it belongs to (index into [`RawMesh::physical_sets`]).
#[derive(Debug, Clone)]
pub(super) struct RawElement {
    pub tag: u64,
    pub gmsh_type: i32,
    /// Dimension of the entity/element (−1 when unknown).
    pub dim: i32,
    pub nodes: [u64; MAX_NODES],
    pub n_nodes: u8,
    pub physical_set: usize,
    /// Line in the file (ASCII files).
    pub line: Option<usize>,
}

/// Everything the readers extract from a file.
#[derive(Debug, Default)]
pub(super) struct RawMesh {
    /// Node tags and coordinates in file order.
    pub node_tags: Vec<u64>,
    pub coords: Vec<[f64; 3]>,
    /// Line of each node (ASCII files) for error messages.
    pub node_lines: Vec<Option<usize>>,
    pub elements: Vec<RawElement>,
    /// Lists of physical tags; `physical_sets[0]` is the empty set.
    pub physical_sets: Vec<Vec<i32>>,
    /// `(dim, physical tag) → name` from `$PhysicalNames`.
    pub names: HashMap<(i32, i32), String>,
}

/// Number of nodes and dimension of a Gmsh element type (Gmsh reference
/// manual, "MSH file format", element types 1–31, 92, 93), `None` if unknown.
pub(super) fn gmsh_type_info(t: i32) -> Option<(usize, i32)> {
    const TABLE: [(usize, i32); 31] = [
        (2, 1),
        (3, 2),
        (4, 2),
        (4, 3),
        (8, 3),
        (6, 3),
        (5, 3),
        (3, 1),
        (6, 2),
        (9, 2),
        (10, 3),
        (27, 3),
        (18, 3),
        (14, 3),
        (1, 0),
        (8, 2),
        (20, 3),
        (15, 3),
        (13, 3),
        (9, 2),
        (10, 2),
        (12, 2),
        (15, 2),
        (15, 2),
        (21, 2),
        (4, 1),
        (5, 1),
        (6, 1),
        (20, 3),
        (35, 3),
        (56, 3),
    ];
    match t {
        1..=31 => Some(TABLE[(t - 1) as usize]),
        92 => Some((64, 3)),
        93 => Some((125, 3)),
        _ => None,
    }
}

/// Name of a Gmsh element type for messages.
pub(super) fn type_name(t: i32) -> String {
    match ElementKind::from_gmsh_type(t) {
        Some(k) => k.name().to_string(),
        None => match t {
            6 => "prism6".into(),
            7 => "pyramid5".into(),
            13 => "prism18".into(),
            14 => "pyramid14".into(),
            15 => "point".into(),
            18 => "prism15".into(),
            19 => "pyramid13".into(),
            _ => format!("gmsh type {t}"),
        },
    }
}

/// The element kinds the reader accepts, for messages.
fn supported() -> String {
    let names: Vec<&str> = ElementKind::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// Turns node tags into 0-based indices (file order), builds one group per
/// physical group of dimension ≥ 1 and checks the 2D flatness.
pub(super) fn assemble(raw: RawMesh, path: &Path, dim: usize) -> Result<Mesh, MeshError> {
    // Node tag → index.
    let index = TagIndex::new(&raw.node_tags).map_err(|i| {
        let line = raw.node_lines.get(i).copied().flatten();
        parse_error(
            path,
            line,
            format!("node tag {} appears twice", raw.node_tags[i]),
        )
    })?;
    let mut nodes = raw.coords;
    for (i, x) in nodes.iter().enumerate() {
        if x.iter().any(|v| !v.is_finite()) {
            let line = raw.node_lines.get(i).copied().flatten();
            return Err(parse_error(
                path,
                line,
                format!("node {} has a non-finite coordinate", raw.node_tags[i]),
            ));
        }
    }
    if dim == 2 {
        flatten_z(&mut nodes, &raw.node_tags, path)?;
    }

    // Group keys (dim, physical tag) in sorted order: bodies first, then by tag.
    let mut keys: Vec<(i32, i32)> = Vec::new();
    for e in &raw.elements {
        if e.dim <= 0 && e.gmsh_type == 15 {
            continue;
        }
        for &p in &raw.physical_sets[e.physical_set] {
            keys.push((e.dim, p));
        }
    }
    keys.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    keys.dedup();
    let names = group_names(&keys, &raw.names, path)?;
    let slot: HashMap<(i32, i32), usize> = keys.iter().enumerate().map(|(i, &k)| (k, i)).collect();
    let mut groups: Vec<Group> = keys
        .iter()
        .zip(names)
        .map(|(&(d, _), name)| Group {
            name,
            dim: d.max(0) as usize,
            elements: Vec::new(),
            tags: Vec::new(),
        })
        .collect();

    for e in &raw.elements {
        let set = &raw.physical_sets[e.physical_set];
        if set.is_empty() || e.gmsh_type == 15 {
            continue;
        }
        for &p in set {
            let g = &mut groups[slot[&(e.dim, p)]];
            let kind = ElementKind::from_gmsh_type(e.gmsh_type).ok_or_else(|| {
                parse_error(
                    path,
                    e.line,
                    format!(
                        "element {} of unsupported type {} (Gmsh type {}) in physical group \"{}\" \
                         (supported: {})",
                        e.tag,
                        type_name(e.gmsh_type),
                        e.gmsh_type,
                        g.name,
                        supported()
                    ),
                )
            })?;
            if kind.ref_dim() as i32 != e.dim || e.n_nodes as usize != kind.n_nodes() {
                return Err(parse_error(
                    path,
                    e.line,
                    format!(
                        "element {} ({}) sits in an entity of dimension {} (group \"{}\")",
                        e.tag,
                        kind.name(),
                        e.dim,
                        g.name
                    ),
                ));
            }
            if kind.ref_dim() > dim {
                return Err(parse_error(
                    path,
                    e.line,
                    format!(
                        "physical group \"{}\" has {} elements but the model is {dim}D",
                        g.name,
                        kind.name()
                    ),
                ));
            }
            let mut conn = [0usize; MAX_NODES];
            for (c, &t) in conn.iter_mut().zip(&e.nodes[..kind.n_nodes()]) {
                *c = index.get(t).ok_or_else(|| {
                    parse_error(
                        path,
                        e.line,
                        format!(
                            "element {} ({}) of group \"{}\" references unknown node {t} (not in $Nodes)",
                            e.tag,
                            kind.name(),
                            g.name
                        ),
                    )
                })?;
            }
            g.elements.push(Element::new(kind, &conn[..kind.n_nodes()]));
            g.tags.push(e.tag);
        }
    }
    Ok(Mesh {
        dim,
        nodes,
        groups,
        file: Some(path.to_path_buf()),
        node_tags: raw.node_tags,
    })
}

/// In 2D every z must equal the first one to round-off (relative to the x-y
/// extent); z is then set to 0.
fn flatten_z(nodes: &mut [[f64; 3]], tags: &[u64], path: &Path) -> Result<(), MeshError> {
    let Some(first) = nodes.first() else {
        return Ok(());
    };
    let z0 = first[2];
    let (mut lo, mut hi) = ([f64::INFINITY; 2], [f64::NEG_INFINITY; 2]);
    for x in nodes.iter() {
        for k in 0..2 {
            lo[k] = lo[k].min(x[k]);
            hi[k] = hi[k].max(x[k]);
        }
    }
    let extent = (hi[0] - lo[0])
        .max(hi[1] - lo[1])
        .max(z0.abs())
        .max(f64::MIN_POSITIVE);
    for (x, t) in nodes.iter_mut().zip(tags) {
        if (x[2] - z0).abs() > 1e-9 * extent {
            return Err(MeshError::Invalid(format!(
                "{}: 2D model but node {t} has z = {} (first node z = {z0})",
                path.display(),
                x[2]
            )));
        }
        x[2] = 0.0;
    }
    Ok(())
}

/// Names from `$PhysicalNames`, else `physical_<tag>` (with the dimension added
/// when the same unnamed tag occurs in two dimensions). Duplicate names are an
/// error.
fn group_names(
    keys: &[(i32, i32)],
    names: &HashMap<(i32, i32), String>,
    path: &Path,
) -> Result<Vec<String>, MeshError> {
    let out: Vec<String> = keys
        .iter()
        .map(|&(d, t)| match names.get(&(d, t)) {
            Some(n) => n.clone(),
            None if keys.iter().filter(|k| k.1 == t).count() > 1 => format!("physical_{d}d_{t}"),
            None => format!("physical_{t}"),
        })
        .collect();
    for (i, n) in out.iter().enumerate() {
        if let Some(j) = out[..i].iter().position(|m| m == n) {
            return Err(parse_error(
                path,
                None,
                format!(
                    "physical group name \"{n}\" is used twice (dimension {} tag {} and dimension {} tag {})",
                    keys[j].0, keys[j].1, keys[i].0, keys[i].1
                ),
            ));
        }
    }
    Ok(out)
}

/// Signed area (shoelace) of the corner polygon of a 2D element in the x-y plane.
fn signed_area(e: &Element, nodes: &[[f64; 3]]) -> f64 {
    let v = &e.nodes()[..e.kind.n_corners()];
    let mut a = 0.0;
    for (k, &i) in v.iter().enumerate() {
        let j = v[(k + 1) % v.len()];
        a += nodes[i][0] * nodes[j][1] - nodes[j][0] * nodes[i][1];
    }
    0.5 * a
}

/// Renumbers every 2D body group whose elements are all clockwise (Gmsh meshes
/// a plane surface with normal −z that way) to counter-clockwise with
/// [`ElementKind::reversal`] (tri3 `[0, 2, 1]`, quad4 `[0, 3, 2, 1]`, and the
/// midside nodes with them). Groups with any counter-clockwise element are
/// left alone.
pub(super) fn orient_plane_bodies(mesh: &mut Mesh) {
    let nodes = &mesh.nodes;
    for g in mesh.groups.iter_mut().filter(|g| g.dim == 2) {
        let all_cw = !g.elements.is_empty()
            && g.elements
                .iter()
                .all(|e| e.kind.ref_dim() == 2 && signed_area(e, nodes) < 0.0);
        if all_cw {
            for e in &mut g.elements {
                let Some(p) = e.kind.reversal() else { continue };
                let old = *e;
                for (v, &k) in e.nodes_mut().iter_mut().zip(p) {
                    *v = old.nodes()[k];
                }
            }
        }
    }
}

/// Node tag → 0-based index: a table when the tags are dense (the usual
/// case), a hash map otherwise.
enum TagIndex {
    Dense { min: u64, slot: Vec<usize> },
    Sparse(HashMap<u64, usize>),
}

impl TagIndex {
    /// Fails with the position of the first repeated tag.
    fn new(tags: &[u64]) -> Result<TagIndex, usize> {
        let (min, max) = tags
            .iter()
            .fold((u64::MAX, 0), |(lo, hi), &t| (lo.min(t), hi.max(t)));
        if !tags.is_empty() && max - min < 4 * tags.len() as u64 + 16 {
            let mut slot = vec![usize::MAX; (max - min + 1) as usize];
            for (i, &t) in tags.iter().enumerate() {
                let s = &mut slot[(t - min) as usize];
                if *s != usize::MAX {
                    return Err(i);
                }
                *s = i;
            }
            Ok(TagIndex::Dense { min, slot })
        } else {
            let mut map = HashMap::with_capacity(tags.len());
            for (i, &t) in tags.iter().enumerate() {
                if map.insert(t, i).is_some() {
                    return Err(i);
                }
            }
            Ok(TagIndex::Sparse(map))
        }
    }

    fn get(&self, t: u64) -> Option<usize> {
        match self {
            TagIndex::Dense { min, slot } => t
                .checked_sub(*min)
                .and_then(|k| slot.get(usize::try_from(k).ok()?))
                .copied()
                .filter(|&i| i != usize::MAX),
            TagIndex::Sparse(map) => map.get(&t).copied(),
        }
    }
}
