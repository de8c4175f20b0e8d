//! The node tags of a MSH 4.1 `$Nodes` section, in file order.
//!
//! `mshio` drops the node tags when they are contiguous (`min..=max`), which
//! loses their order; a file whose contiguous tags are not in file order would
//! then be misread. This scan reads just the tags (ASCII or binary) so the
//! reader never has to guess. Layout (Gmsh reference manual, MSH 4.1):
//! `numEntityBlocks numNodes minNodeTag maxNodeTag` (size_t), then per block
//! `entityDim entityTag parametric` (int) `numNodesInBlock` (size_t), the tags
//! (size_t) and the coordinates (3 doubles each; `parametric` is rejected by
//! `mshio` already).
use super::cursor::{Cursor, Endian, Header};

/// Tags in file order, or `None` if the section is not where or what we expect
/// (the caller then falls back to `mshio`'s rule).
pub(super) fn node_tags(bytes: &[u8], header: &Header) -> Option<Vec<u64>> {
    let mut c = Cursor::new(bytes);
    let _ = c.take(header.end)?;
    loop {
        let (text, _) = c.next_nonblank()?;
        if text == "$Nodes" {
            break;
        }
        let name = text.strip_prefix('$')?;
        if !c.skip_past(&format!("$End{name}")) {
            return None;
        }
    }
    match header.binary {
        None => ascii(&c.bytes[c.pos..]),
        Some(e) => binary(&mut c, e, header.data_size),
    }
}

fn ascii(rest: &[u8]) -> Option<Vec<u64>> {
    let text = std::str::from_utf8(rest.get(..rest.iter().position(|&b| b == b'$')?)?).ok()?;
    let mut it = text.split_ascii_whitespace();
    let int = |it: &mut std::str::SplitAsciiWhitespace| -> Option<u64> { it.next()?.parse().ok() };
    let blocks = int(&mut it)?;
    let total = int(&mut it)?;
    let (_min, _max) = (int(&mut it)?, int(&mut it)?);
    let mut tags = Vec::with_capacity(total.min(text.len() as u64) as usize);
    for _ in 0..blocks {
        let (_dim, _tag) = (it.next()?, it.next()?);
        let (parametric, n) = (int(&mut it)?, int(&mut it)?);
        if parametric != 0 || n > text.len() as u64 {
            return None;
        }
        for _ in 0..n {
            tags.push(int(&mut it)?);
        }
        for _ in 0..3 * n {
            it.next()?;
        }
    }
    (tags.len() as u64 == total).then_some(tags)
}

fn binary(c: &mut Cursor, e: Endian, size: usize) -> Option<Vec<u64>> {
    let size_t = |c: &mut Cursor| -> Option<u64> {
        let b = c.take(size)?;
        let mut a = [0u8; 8];
        match (e, size) {
            (Endian::Little, 8) => a.copy_from_slice(b),
            (Endian::Big, 8) => {
                a.copy_from_slice(b);
                a.reverse();
            }
            (Endian::Little, 4) => a[..4].copy_from_slice(b),
            (Endian::Big, 4) => {
                a[..4].copy_from_slice(b);
                a[..4].reverse();
            }
            _ => return None,
        }
        Some(u64::from_le_bytes(a))
    };
    let blocks = size_t(c)?;
    let total = size_t(c)?;
    let (_min, _max) = (size_t(c)?, size_t(c)?);
    let mut tags = Vec::with_capacity(total.min(c.remaining() as u64) as usize);
    for _ in 0..blocks {
        let ints = c.take(12)?;
        let parametric = match e {
            Endian::Little => i32::from_le_bytes([ints[8], ints[9], ints[10], ints[11]]),
            Endian::Big => i32::from_be_bytes([ints[8], ints[9], ints[10], ints[11]]),
        };
        let n = size_t(c)?;
        if parametric != 0 || n > c.remaining() as u64 {
            return None;
        }
        for _ in 0..n {
            tags.push(size_t(c)?);
        }
        c.take((n as usize).checked_mul(24)?)?;
    }
    (tags.len() as u64 == total).then_some(tags)
}
