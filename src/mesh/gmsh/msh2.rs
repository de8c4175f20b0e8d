//! MSH 2.2 reader, ASCII and binary (Gmsh reference manual, "Legacy formats:
//! MSH file format version 2").
//!
//! ASCII: `$Nodes` has `n` lines `tag x y z`; `$Elements` has `n` lines
//! `tag type ntags tag… node…` (first tag physical, second elementary).
//! Binary: after the header line the integer 1 gives the byte order; nodes are
//! `n × (int tag, 3 double)`; elements come in blocks, each a header
//! `(int type, int count, int ntags)` followed by `count × (int tag, ntags int,
//! nodes int)`, until the announced number of elements is read.
use super::super::MeshError;
use super::cursor::{field, parse_error, read_physical_names, Cursor, Endian, Header};
use super::raw::{gmsh_type_info, type_name, RawElement, RawMesh};
use crate::fe::{ElementKind, MAX_NODES};
use std::collections::HashMap;
use std::path::Path;

pub(super) fn read(bytes: &[u8], header: &Header, path: &Path) -> Result<RawMesh, MeshError> {
    if header.binary.is_some() && header.data_size != 8 {
        return Err(parse_error(
            path,
            Some(header.line),
            format!(
                "binary MSH 2.2 with data size {} (only 8-byte doubles)",
                header.data_size
            ),
        ));
    }
    let mut c = Cursor::new(bytes);
    let _ = c.take(header.end);
    let mut raw = RawMesh {
        physical_sets: vec![Vec::new()],
        ..RawMesh::default()
    };
    let mut set_of: HashMap<i32, usize> = HashMap::new();
    let (mut seen_nodes, mut seen_elements) = (false, false);
    while let Some((text, line)) = c.next_nonblank() {
        match text {
            "$PhysicalNames" => read_physical_names(&mut c, path, &mut raw.names)?,
            "$Nodes" => {
                if seen_nodes {
                    return Err(parse_error(
                        path,
                        Some(line),
                        "second $Nodes section".into(),
                    ));
                }
                seen_nodes = true;
                match header.binary {
                    None => nodes_ascii(&mut c, path, &mut raw)?,
                    Some(e) => nodes_binary(&mut c, e, path, &mut raw)?,
                }
                expect_end(&mut c, "$EndNodes", path)?;
            }
            "$Elements" => {
                if seen_elements {
                    return Err(parse_error(
                        path,
                        Some(line),
                        "second $Elements section".into(),
                    ));
                }
                seen_elements = true;
                match header.binary {
                    None => elements_ascii(&mut c, path, &mut raw, &mut set_of)?,
                    Some(e) => elements_binary(&mut c, e, path, &mut raw, &mut set_of)?,
                }
                expect_end(&mut c, "$EndElements", path)?;
            }
            s if s.starts_with('$') && !s.starts_with("$End") => {
                let end = format!("$End{}", &s[1..]);
                if !c.skip_past(&end) {
                    return Err(parse_error(
                        path,
                        Some(line),
                        format!("section {s} has no {end}"),
                    ));
                }
            }
            s => {
                return Err(parse_error(
                    path,
                    Some(line),
                    format!("expected a section start, found `{s}`"),
                ))
            }
        }
    }
    if !seen_nodes {
        return Err(parse_error(path, None, "no $Nodes section".into()));
    }
    if !seen_elements {
        return Err(parse_error(path, None, "no $Elements section".into()));
    }
    Ok(raw)
}

fn expect_end(c: &mut Cursor, tag: &str, path: &Path) -> Result<(), MeshError> {
    match c.next_nonblank() {
        Some((t, _)) if t == tag => Ok(()),
        Some((t, l)) => Err(parse_error(
            path,
            Some(l),
            format!("expected {tag}, found `{}`", short(t)),
        )),
        None => Err(parse_error(
            path,
            Some(c.line),
            format!("missing {tag} (file truncated)"),
        )),
    }
}

fn short(s: &str) -> String {
    s.chars().take(40).collect()
}

fn count_line(c: &mut Cursor, what: &str, path: &Path) -> Result<usize, MeshError> {
    let (text, line) = c.next_nonblank().ok_or_else(|| {
        parse_error(
            path,
            Some(c.line),
            format!("missing number of {what} (file truncated)"),
        )
    })?;
    text.parse().map_err(|_| {
        parse_error(
            path,
            Some(line),
            format!("bad number of {what} `{}`", short(text)),
        )
    })
}

fn nodes_ascii(c: &mut Cursor, path: &Path, raw: &mut RawMesh) -> Result<(), MeshError> {
    let n = count_line(c, "nodes", path)?;
    let cap = n.min(c.remaining() / 8);
    raw.node_tags.reserve(cap);
    raw.coords.reserve(cap);
    for _ in 0..n {
        let (text, line) = c
            .next_nonblank()
            .ok_or_else(|| parse_error(path, Some(c.line), "file truncated in $Nodes".into()))?;
        if c.remaining() == 0 && !c.bytes.ends_with(b"\n") {
            return Err(parse_error(
                path,
                Some(line),
                "file truncated in $Nodes (incomplete last line)".into(),
            ));
        }
        if text.starts_with('$') {
            return Err(parse_error(
                path,
                Some(line),
                format!("{n} nodes announced, found fewer"),
            ));
        }
        let mut it = text.split_whitespace();
        let tag: u64 = field(&mut it, "node tag", path, line)?;
        let x: f64 = field(&mut it, "x coordinate", path, line)?;
        let y: f64 = field(&mut it, "y coordinate", path, line)?;
        let z: f64 = field(&mut it, "z coordinate", path, line)?;
        raw.node_tags.push(tag);
        raw.coords.push([x, y, z]);
        raw.node_lines.push(Some(line));
    }
    Ok(())
}

/// The set index of physical tag `p` (0 = none).
fn set_for(p: i32, raw: &mut RawMesh, set_of: &mut HashMap<i32, usize>) -> usize {
    if p == 0 {
        return 0;
    }
    *set_of.entry(p).or_insert_with(|| {
        raw.physical_sets.push(vec![p]);
        raw.physical_sets.len() - 1
    })
}

fn elements_ascii(
    c: &mut Cursor,
    path: &Path,
    raw: &mut RawMesh,
    set_of: &mut HashMap<i32, usize>,
) -> Result<(), MeshError> {
    let n = count_line(c, "elements", path)?;
    raw.elements.reserve(n.min(c.remaining() / 8));
    for _ in 0..n {
        let (text, line) = c
            .next_nonblank()
            .ok_or_else(|| parse_error(path, Some(c.line), "file truncated in $Elements".into()))?;
        if c.remaining() == 0 && !c.bytes.ends_with(b"\n") {
            return Err(parse_error(
                path,
                Some(line),
                "file truncated in $Elements (incomplete last line)".into(),
            ));
        }
        if text.starts_with('$') {
            return Err(parse_error(
                path,
                Some(line),
                format!("{n} elements announced, found fewer"),
            ));
        }
        let mut it = text.split_whitespace();
        let tag: u64 = field(&mut it, "element tag", path, line)?;
        let gmsh_type: i32 = field(&mut it, "element type", path, line)?;
        let ntags: usize = field(&mut it, "number of tags", path, line)?;
        let mut physical = 0i32;
        for k in 0..ntags {
            let t: i32 = field(&mut it, "element tag list entry", path, line)?;
            if k == 0 {
                physical = t;
            }
        }
        let info = gmsh_type_info(gmsh_type);
        let mut e = RawElement {
            tag,
            gmsh_type,
            dim: info.map_or(-1, |i| i.1),
            nodes: [0; MAX_NODES],
            n_nodes: 0,
            physical_set: set_for(physical, raw, set_of),
            line: Some(line),
        };
        let mut k = 0usize;
        for s in it {
            let t: u64 = s.parse().map_err(|_| {
                parse_error(path, Some(line), format!("bad node tag `{}`", short(s)))
            })?;
            if k < MAX_NODES {
                e.nodes[k] = t;
            }
            k += 1;
        }
        if let Some((nn, _)) = info {
            if k != nn {
                return Err(parse_error(
                    path,
                    Some(line),
                    format!(
                        "element {tag} ({}, Gmsh type {gmsh_type}) needs {nn} nodes, found {k}{}",
                        type_name(gmsh_type),
                        if k < nn
                            && ElementKind::from_gmsh_type(gmsh_type)
                                .is_some_and(|t| t.order() == 2)
                        {
                            ": an incomplete second-order element (a midside node is missing)"
                        } else {
                            ""
                        }
                    ),
                ));
            }
        }
        e.n_nodes = if k <= MAX_NODES { k as u8 } else { 0 };
        raw.elements.push(e);
    }
    Ok(())
}

fn int(b: &[u8], e: Endian) -> i32 {
    let a = [b[0], b[1], b[2], b[3]];
    match e {
        Endian::Little => i32::from_le_bytes(a),
        Endian::Big => i32::from_be_bytes(a),
    }
}

fn double(b: &[u8], e: Endian) -> f64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[..8]);
    match e {
        Endian::Little => f64::from_le_bytes(a),
        Endian::Big => f64::from_be_bytes(a),
    }
}

fn nodes_binary(
    c: &mut Cursor,
    en: Endian,
    path: &Path,
    raw: &mut RawMesh,
) -> Result<(), MeshError> {
    let n = count_line(c, "nodes", path)?;
    let line = c.line;
    let data = n
        .checked_mul(28)
        .and_then(|len| c.take(len))
        .ok_or_else(|| {
            parse_error(
                path,
                Some(line),
                format!("file truncated in the {n} binary nodes"),
            )
        })?;
    raw.node_tags.reserve(n);
    raw.coords.reserve(n);
    for rec in data.chunks_exact(28) {
        let tag = int(rec, en);
        if tag <= 0 {
            return Err(parse_error(
                path,
                Some(line),
                format!("bad node tag {tag} in binary $Nodes"),
            ));
        }
        raw.node_tags.push(tag as u64);
        raw.coords.push([
            double(&rec[4..], en),
            double(&rec[12..], en),
            double(&rec[20..], en),
        ]);
        raw.node_lines.push(None);
    }
    Ok(())
}

fn elements_binary(
    c: &mut Cursor,
    en: Endian,
    path: &Path,
    raw: &mut RawMesh,
    set_of: &mut HashMap<i32, usize>,
) -> Result<(), MeshError> {
    let n = count_line(c, "elements", path)?;
    let start_line = c.line;
    let trunc = || {
        parse_error(
            path,
            Some(start_line),
            "file truncated in binary $Elements".into(),
        )
    };
    let mut read = 0usize;
    while read < n {
        let h = c.take(12).ok_or_else(trunc)?;
        let (gmsh_type, count, ntags) = (
            int(h, en),
            int(h[4..].as_ref(), en),
            int(h[8..].as_ref(), en),
        );
        let Some((nn, dim)) = gmsh_type_info(gmsh_type) else {
            let swapped = gmsh_type.swap_bytes();
            let why = if gmsh_type_info(swapped).is_some() {
                format!(
                    "; it reads as type {swapped} in the other byte order: the byte-order marker after the header ({} endian) does not match the data",
                    if en == Endian::Little { "little" } else { "big" }
                )
            } else {
                String::new()
            };
            return Err(parse_error(
                path,
                Some(start_line),
                format!("unknown element type {gmsh_type} in binary $Elements{why}"),
            ));
        };
        if count <= 0 || ntags < 0 || count as usize > n - read {
            return Err(parse_error(
                path,
                Some(start_line),
                format!("bad binary element block header (type {gmsh_type}, {count} elements, {ntags} tags)"),
            ));
        }
        let rec = 1 + ntags as usize + nn;
        let data = (count as usize)
            .checked_mul(rec * 4)
            .and_then(|len| c.take(len))
            .ok_or_else(trunc)?;
        for r in data.chunks_exact(rec * 4) {
            let tag = int(r, en);
            let physical = if ntags > 0 { int(&r[4..], en) } else { 0 };
            let mut e = RawElement {
                tag: tag.max(0) as u64,
                gmsh_type,
                dim,
                nodes: [0; MAX_NODES],
                n_nodes: if nn <= MAX_NODES { nn as u8 } else { 0 },
                physical_set: set_for(physical, raw, set_of),
                line: None,
            };
            if nn <= MAX_NODES {
                let off = 4 * (1 + ntags as usize);
                for k in 0..nn {
                    let t = int(&r[off + 4 * k..], en);
                    // A non-positive tag can match no node: the assembly reports it.
                    e.nodes[k] = if t > 0 { t as u64 } else { 0 };
                }
            }
            raw.elements.push(e);
        }
        read += count as usize;
    }
    Ok(())
}
