//! A byte cursor over a Gmsh file that knows its line number, the `$MeshFormat`
//! header, the section walker and the `$PhysicalNames` section (always ASCII,
//! also in binary files).
use super::super::MeshError;
use std::collections::HashMap;
use std::path::Path;

/// A parse error naming the file and (when known) the 1-based line.
pub(super) fn parse_error(path: &Path, line: Option<usize>, message: String) -> MeshError {
    MeshError::Parse {
        file: path.to_path_buf(),
        line,
        message,
    }
}

/// Byte order of a binary file, from the integer 1 written after the header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endian {
    Little,
    Big,
}

/// The `$MeshFormat` section.
#[derive(Debug, Clone)]
pub(super) struct Header {
    /// Version as written ("2.2", "4.1", …).
    pub version: String,
    /// `None` for ASCII files.
    pub binary: Option<Endian>,
    /// Size of `size_t` (data-size field).
    pub data_size: usize,
    /// Line of the version line.
    pub line: usize,
    /// Byte offset just after `$EndMeshFormat` and its line break.
    pub end: usize,
}

/// A position in the file with its line number (1-based).
#[derive(Debug, Clone)]
pub(super) struct Cursor<'a> {
    pub bytes: &'a [u8],
    pub pos: usize,
    pub line: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(bytes: &'a [u8]) -> Self {
        Cursor {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    /// Next line without its line break (and a trailing `\r`), or `None` at EOF.
    pub fn next_line(&mut self) -> Option<(&'a [u8], usize)> {
        if self.pos >= self.bytes.len() {
            return None;
        }
        let rest = &self.bytes[self.pos..];
        let (text, advance) = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => (&rest[..i], i + 1),
            None => (rest, rest.len()),
        };
        let line = self.line;
        self.pos += advance;
        self.line += 1;
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        Some((text, line))
    }

    /// Next non-blank line, trimmed.
    pub fn next_nonblank(&mut self) -> Option<(&'a str, usize)> {
        loop {
            let (text, line) = self.next_line()?;
            let s = String::from_utf8_lossy(text);
            if !s.trim().is_empty() {
                // Non-UTF-8 lines read as a replacement string that no keyword matches.
                return Some((
                    std::str::from_utf8(text)
                        .map(str::trim)
                        .unwrap_or("\u{fffd}"),
                    line,
                ));
            }
        }
    }

    /// The next `n` raw bytes (binary data), counting the line breaks in them.
    pub fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.pos.checked_add(n)?;
        let chunk = self.bytes.get(self.pos..end)?;
        self.line += chunk.iter().filter(|&&b| b == b'\n').count();
        self.pos = end;
        Some(chunk)
    }

    /// Bytes left.
    pub fn remaining(&self) -> usize {
        self.bytes.len().saturating_sub(self.pos)
    }

    /// Skips to just after the line `end_tag` (searching bytes, so it also
    /// passes binary data). Returns false if there is no such line.
    pub fn skip_past(&mut self, end_tag: &str) -> bool {
        let tag = end_tag.as_bytes();
        let mut from = self.pos;
        while let Some(i) = find(&self.bytes[from..], tag) {
            let at = from + i;
            let line_start = at == 0 || self.bytes[at - 1] == b'\n';
            let after = at + tag.len();
            let line_end = after >= self.bytes.len()
                || matches!(self.bytes[after], b'\n' | b'\r' | b' ' | b'\t');
            if line_start && line_end {
                let _ = self.take(at - self.pos);
                let _ = self.next_line();
                return true;
            }
            from = at + 1;
        }
        false
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() || hay.len() < needle.len() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Reads `$MeshFormat … $EndMeshFormat`, including the binary endianness marker.
pub(super) fn read_header(bytes: &[u8], path: &Path) -> Result<Header, MeshError> {
    let mut c = Cursor::new(bytes);
    let err = |line, m: &str| parse_error(path, Some(line), m.to_string());
    let (first, l0) = c
        .next_nonblank()
        .ok_or_else(|| parse_error(path, None, "empty file (no $MeshFormat)".into()))?;
    if first != "$MeshFormat" {
        return Err(err(
            l0,
            "not a Gmsh file: the first line is not $MeshFormat",
        ));
    }
    let (vline, line) = c
        .next_nonblank()
        .ok_or_else(|| err(l0, "truncated $MeshFormat section"))?;
    let fields: Vec<&str> = vline.split_whitespace().collect();
    if fields.len() != 3 {
        return Err(err(
            line,
            "expected `version file-type data-size` in $MeshFormat",
        ));
    }
    let version = fields[0].to_string();
    let file_type: u8 = fields[1]
        .parse()
        .map_err(|_| err(line, "bad file type in $MeshFormat (expected 0 or 1)"))?;
    let data_size: usize = fields[2]
        .parse()
        .map_err(|_| err(line, "bad data size in $MeshFormat"))?;
    if data_size != 4 && data_size != 8 {
        return Err(err(
            line,
            &format!("unsupported data size {data_size} (expected 4 or 8)"),
        ));
    }
    let binary = match file_type {
        0 => None,
        1 => {
            let one = c
                .take(4)
                .ok_or_else(|| err(line + 1, "truncated binary endianness marker"))?;
            let one = [one[0], one[1], one[2], one[3]];
            if i32::from_le_bytes(one) == 1 {
                Some(Endian::Little)
            } else if i32::from_be_bytes(one) == 1 {
                Some(Endian::Big)
            } else {
                return Err(err(
                    line + 1,
                    &format!(
                        "bad byte-order marker: the 4 bytes after the header line are {:02x} {:02x} {:02x} {:02x}, expected the integer 1 in little- or big-endian byte order",
                        one[0], one[1], one[2], one[3]
                    ),
                ));
            }
        }
        _ => return Err(err(line, "bad file type in $MeshFormat (expected 0 or 1)")),
    };
    match c.next_nonblank() {
        Some(("$EndMeshFormat", _)) => {}
        Some((_, l)) => return Err(err(l, "expected $EndMeshFormat")),
        None => return Err(err(line, "missing $EndMeshFormat")),
    }
    Ok(Header {
        version,
        binary,
        data_size,
        line,
        end: c.pos,
    })
}

/// `(dimension, physical tag) → name` from `$PhysicalNames` (lines
/// `dim tag "name"`). `c` is positioned after the `$PhysicalNames` line.
pub(super) fn read_physical_names(
    c: &mut Cursor,
    path: &Path,
    names: &mut HashMap<(i32, i32), String>,
) -> Result<(), MeshError> {
    let (count, line) = c
        .next_nonblank()
        .ok_or_else(|| parse_error(path, Some(c.line), "truncated $PhysicalNames".into()))?;
    let n: usize = count.parse().map_err(|_| {
        parse_error(
            path,
            Some(line),
            format!("bad number of physical names `{count}`"),
        )
    })?;
    for _ in 0..n {
        let (text, line) = c
            .next_nonblank()
            .ok_or_else(|| parse_error(path, Some(c.line), "truncated $PhysicalNames".into()))?;
        let bad = || {
            parse_error(
                path,
                Some(line),
                format!("expected `dim tag \"name\"`, found `{text}`"),
            )
        };
        let mut it = text.splitn(3, char::is_whitespace);
        let dim: i32 = it.next().and_then(|s| s.parse().ok()).ok_or_else(bad)?;
        let tag: i32 = it
            .next()
            .and_then(|s| s.trim().parse().ok())
            .ok_or_else(bad)?;
        let rest = it.next().ok_or_else(bad)?.trim();
        let name = rest
            .strip_prefix('"')
            .and_then(|s| s.strip_suffix('"'))
            .ok_or_else(bad)?;
        names.insert((dim, tag), name.to_string());
    }
    match c.next_nonblank() {
        Some(("$EndPhysicalNames", _)) => Ok(()),
        Some((_, l)) => Err(parse_error(
            path,
            Some(l),
            "expected $EndPhysicalNames".into(),
        )),
        None => Err(parse_error(
            path,
            Some(c.line),
            "missing $EndPhysicalNames".into(),
        )),
    }
}

/// Parses one whitespace-separated field of an ASCII line.
pub(super) fn field<T: std::str::FromStr>(
    it: &mut std::str::SplitWhitespace,
    what: &str,
    path: &Path,
    line: usize,
) -> Result<T, MeshError> {
    let s = it
        .next()
        .ok_or_else(|| parse_error(path, Some(line), format!("missing {what}")))?;
    s.parse()
        .map_err(|_| parse_error(path, Some(line), format!("bad {what} `{s}`")))
}
