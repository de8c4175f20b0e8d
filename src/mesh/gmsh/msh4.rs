//! MSH 4.1 reader on top of crate `mshio` (ASCII and binary), plus our own scan
//! of `$PhysicalNames`, which `mshio` skips.
//!
//! Physical membership in 4.1 is per entity (`$Entities`: each point, curve,
//! surface and volume lists its physical tags); element blocks name their
//! entity. `mshio` keeps node tags only when they are sparse
//! (`NodeBlock::node_tags == None` otherwise): contiguous tags are rebuilt as
//! `min_node_tag + position in file order` only if our own scan of the tags
//! (`msh4_tags`) fails.
use super::super::MeshError;
use super::cursor::{parse_error, read_physical_names, Cursor, Endian, Header};
use super::msh4_tags::node_tags;
use super::raw::{RawElement, RawMesh};
use crate::fe::MAX_NODES;
use std::collections::HashMap;
use std::path::Path;

pub(super) fn read(bytes: &[u8], header: &Header, path: &Path) -> Result<RawMesh, MeshError> {
    let mut raw = RawMesh {
        physical_sets: vec![Vec::new()],
        ..RawMesh::default()
    };
    scan_physical_names(bytes, header, path, &mut raw.names)?;
    match header.binary {
        Some(Endian::Big) => {
            return Err(parse_error(
                path,
                Some(header.line + 1),
                "binary MSH 4.1 in big-endian byte order (the byte-order marker after the header reads 1 big-endian) is not supported: write the mesh as ASCII or on a little-endian machine".into(),
            ))
        }
        Some(Endian::Little) if header.data_size != 8 => {
            return Err(parse_error(
                path,
                Some(header.line),
                format!(
                    "binary MSH 4.1 with data size {} (the size of size_t): only 8, what Gmsh writes on 64-bit systems, is read",
                    header.data_size
                ),
            ))
        }
        _ => {}
    }

    // mshio has a few `unwrap`/`unimplemented!` paths on malformed input; a panic
    // there must not take the program down.
    let parsed = std::panic::catch_unwind(|| match mshio::parse_msh_bytes(bytes) {
        Ok(f) => Ok(f),
        Err(e) => Err(describe(&e, bytes, header)),
    });
    let msh = match parsed {
        Ok(Ok(f)) => f,
        Ok(Err((line, msg))) => return Err(parse_error(path, line, msg)),
        Err(_) => {
            return Err(parse_error(
                path,
                None,
                "malformed MSH 4.1 file (the mshio parser failed)".into(),
            ))
        }
    };
    let data = msh.data;

    // Entity (dim, tag) → index of its physical-tag set.
    let mut set_of: HashMap<(i32, i32), usize> = HashMap::new();
    if let Some(ent) = &data.entities {
        let mut add = |dim: i32, tag: i32, phys: &[i32]| {
            let p: Vec<i32> = phys.iter().map(|t| t.abs()).filter(|&t| t != 0).collect();
            if !p.is_empty() {
                raw.physical_sets.push(p);
                set_of.insert((dim, tag), raw.physical_sets.len() - 1);
            }
        };
        ent.points
            .iter()
            .for_each(|e| add(0, e.tag, &e.physical_tags));
        ent.curves
            .iter()
            .for_each(|e| add(1, e.tag, &e.physical_tags));
        ent.surfaces
            .iter()
            .for_each(|e| add(2, e.tag, &e.physical_tags));
        ent.volumes
            .iter()
            .for_each(|e| add(3, e.tag, &e.physical_tags));
    }

    let nodes = data
        .nodes
        .ok_or_else(|| parse_error(path, None, "no $Nodes section".into()))?;
    // Our own scan of the tags (file order) when it agrees with mshio's blocks.
    let n_total: usize = nodes.node_blocks.iter().map(|b| b.nodes.len()).sum();
    let scanned = node_tags(bytes, header).filter(|t| t.len() == n_total);
    let mut next = nodes.min_node_tag;
    let mut at = 0usize;
    for block in &nodes.node_blocks {
        let mut tags = vec![0u64; block.nodes.len()];
        match (&scanned, &block.node_tags) {
            (Some(s), _) => {
                tags.copy_from_slice(&s[at..at + block.nodes.len()]);
                at += block.nodes.len();
            }
            (None, Some(map)) => {
                for (&t, &i) in map {
                    if let Some(slot) = tags.get_mut(i) {
                        *slot = t;
                    }
                }
            }
            (None, None) => {
                for t in tags.iter_mut() {
                    *t = next;
                    next = next.wrapping_add(1);
                }
            }
        }
        for (n, t) in block.nodes.iter().zip(tags) {
            raw.node_tags.push(t);
            raw.coords.push([n.x, n.y, n.z]);
            raw.node_lines.push(None);
        }
    }

    let elements = data
        .elements
        .ok_or_else(|| parse_error(path, None, "no $Elements section".into()))?;
    for block in &elements.element_blocks {
        let set = set_of
            .get(&(block.entity_dim, block.entity_tag))
            .copied()
            .unwrap_or(0);
        let gmsh_type = block.element_type as i32;
        for el in &block.elements {
            let mut e = RawElement {
                tag: el.element_tag,
                gmsh_type,
                dim: block.entity_dim,
                nodes: [0; MAX_NODES],
                n_nodes: 0,
                physical_set: set,
                line: None,
            };
            if el.nodes.len() <= MAX_NODES {
                e.nodes[..el.nodes.len()].copy_from_slice(&el.nodes);
                e.n_nodes = el.nodes.len() as u8;
            }
            raw.elements.push(e);
        }
    }
    Ok(raw)
}

/// Reads `$PhysicalNames` wherever it is among the top-level sections.
fn scan_physical_names(
    bytes: &[u8],
    header: &Header,
    path: &Path,
    names: &mut HashMap<(i32, i32), String>,
) -> Result<(), MeshError> {
    let mut c = Cursor::new(bytes);
    let _ = c.take(header.end);
    while let Some((text, line)) = c.next_nonblank() {
        if text == "$PhysicalNames" {
            read_physical_names(&mut c, path, names)?;
        } else if let Some(name) = text.strip_prefix('$') {
            let end = format!("$End{name}");
            if !c.skip_past(&end) {
                return Err(parse_error(
                    path,
                    Some(line),
                    format!("section {text} has no {end}"),
                ));
            }
        } else {
            // Not at a section boundary: leave the diagnosis to mshio.
            return Ok(());
        }
    }
    Ok(())
}

/// Line (ASCII files) and message of a mshio error: the chain of contexts and
/// the innermost MSH error, without mshio's hex dump.
fn describe(
    e: &mshio::MshParserError<&[u8]>,
    bytes: &[u8],
    header: &Header,
) -> (Option<usize>, String) {
    let bt = e.filtered_backtrace();
    let mut parts: Vec<String> = bt
        .iter()
        .rev()
        .filter_map(|(_, k)| k.context().map(str::to_string))
        .collect();
    if let Some(k) = e.first_msh_error() {
        if k.context().is_none() {
            parts.push(k.to_string());
        }
    }
    if parts.is_empty() {
        parts.push("malformed MSH 4.1 file".into());
    }
    let at = e.backtrace.first().map(|(s, _)| *s);
    let offset = at.and_then(|s| {
        let (base, p) = (bytes.as_ptr() as usize, s.as_ptr() as usize);
        (p >= base && p <= base + bytes.len()).then(|| p - base)
    });
    let msg = parts.join(": ");
    match (offset, header.binary) {
        (Some(o), None) => (
            Some(1 + bytes[..o].iter().filter(|&&b| b == b'\n').count()),
            msg,
        ),
        (Some(o), Some(_)) => (
            None,
            format!(
                "binary data not readable at byte {o}: {msg} (a byte-order marker that does not match the data, a wrong data size, or a truncated file)"
            ),
        ),
        (None, _) => (None, msg),
    }
}
