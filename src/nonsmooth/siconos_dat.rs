//! Siconos' text problem files (`.dat`), as written by Siconos numerics'
//! `frictionContact_printInFile` and `globalFrictionContact_printInFile` and read by
//! its `frictionContact_newFromFile` (Acary et al., Siconos numerics; the public
//! benchmark data of Acary, Brémond & Huber 2018 is largely in this format).
//!
//! Layout (whitespace-separated tokens; line breaks matter only inside sparse
//! CSparse matrices):
//!
//! * reduced problem `u = W r + q` (`FrictionContactProblem`, 2D or 3D):
//!   `d  n_c  ⟨matrix W⟩  q[d·n_c]  μ[n_c]`;
//! * general problem `M v = H r + f`, `u = Hᵀ v + w` (`GlobalFrictionContactProblem`):
//!   `d  n_c  ⟨matrix M⟩  ⟨matrix H⟩  f[n]  w[d·n_c]  μ[n_c]` (Siconos calls `f` "q"
//!   and `w` "b"; its FCLIB writer copies them unchanged, so the sign convention is
//!   FCLIB's).
//!
//! A matrix is `storage  size0  size1` then, by storage:
//! * `0` dense: `size0 size1` again, then the `size0·size1` entries in column-major order;
//! * `1` sparse block (Siconos `SparseBlockStructuredMatrix`): `nbblocks`, then (when
//!   non-zero) `blocknumber0 blocknumber1`, the cumulative row ends of the row blocks,
//!   the cumulative column ends of the column blocks, `filled1 filled2`, the block-row
//!   pointers (`filled1 = blocknumber0 + 1` of them), the block-column indices
//!   (`filled2 = nbblocks`), then per block its number and its entries in column-major
//!   order;
//! * `2` sparse (CSparse): an origin code, then CSparse's printout (a version line, a
//!   `m-by-n, nzmax: … nnz: …` line, then per column `col j : locations a to b` and one
//!   `i : x` line per entry, or `triplet:` / `csr:` variants). These printouts carry
//!   six significant digits only (`%g`), as Siconos writes them.
//!
//! Anything after the last friction coefficient is ignored, as Siconos ignores it
//! (the Rover files of its test data end with one more number).
//!
//! The problem read is exactly the one in the file: every number is parsed with
//! correct rounding (as C's `strtod`), so a `.dat` file and its FCLIB conversion by
//! Siconos give the same `W`, `q` and `μ` bit for bit. Every failure is a [`DatError`]
//! naming the file, the line and what was expected; a bad file never panics.

use std::path::{Path, PathBuf};

use faer::sparse::{SparseColMat, Triplet};

use super::fclib::FclibProblem;
use super::problem::{GlobalProblem, LocalProblem, ProblemError};

/// Why a Siconos text file could not be read.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DatError {
    #[error("{file}: {msg}")]
    Io { file: PathBuf, msg: String },
    #[error("{file}:{line}: {msg}")]
    Syntax {
        file: PathBuf,
        line: usize,
        msg: String,
    },
    #[error("{file}: {source}")]
    Problem { file: PathBuf, source: ProblemError },
}

impl DatError {
    /// The 1-based line the error is about, for syntax errors.
    pub fn line(&self) -> Option<usize> {
        match self {
            DatError::Syntax { line, .. } => Some(*line),
            _ => None,
        }
    }
}

/// Storage codes of Siconos' `NumericsMatrix` (`NM_types`).
const DENSE: i64 = 0;
const SPARSE_BLOCK: i64 = 1;
const SPARSE: i64 = 2;

/// Reads a Siconos text problem file: a reduced (`FrictionContactProblem`) or a
/// general (`GlobalFrictionContactProblem`) problem, told apart by the number of
/// matrices the file holds.
pub fn read_dat(path: impl AsRef<Path>) -> Result<FclibProblem, DatError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| DatError::Io {
        file: path.into(),
        msg: e.to_string(),
    })?;
    let text = String::from_utf8_lossy(&bytes);
    parse(&text, path)
}

/// Parses the text of a Siconos problem file; `path` names it in errors.
pub fn parse(text: &str, path: &Path) -> Result<FclibProblem, DatError> {
    let mut s = Scanner::new(text, path);
    let (dim_line, dim) = s.int("the space dimension (2 or 3)")?;
    if dim != 2 && dim != 3 {
        return Err(s.error_at(dim_line, format!("space dimension {dim}: expected 2 or 3")));
    }
    let dim = dim as usize;
    let (nc_line, nc) = s.int("the number of contacts")?;
    let nc = s.size(nc_line, nc, "number of contacts", 1)?;
    let n = dim * nc;
    let first = s.matrix("the matrix (W, or M of a global problem)")?;
    // A global problem's second matrix H follows M; a local problem's q follows W.
    // Global: the first matrix is not n × n, or more than q and μ are left and the
    // next three tokens are integers (a matrix header; q's entries are reals).
    let global = first.nrows != n
        || first.ncols != n
        || (s.remaining_tokens() > n + nc && s.next_are_integers(3));
    let prob = |source| DatError::Problem {
        file: path.into(),
        source,
    };
    if !global {
        let w = first.into_csc(&s)?;
        let q = s.reals(n, "q (d · number of contacts entries)")?;
        let mu = s.reals(nc, "μ (one per contact)")?;
        let p = LocalProblem::new(dim, w, q, mu).map_err(prob)?;
        return Ok(FclibProblem::Local(p));
    }
    let m_line = first.line;
    let nd = first.nrows;
    if first.ncols != nd {
        return Err(s.error_at(
            m_line,
            format!(
                "W is {}×{}, expected {n}×{n} (dimension {dim} × {nc} contacts); \
                 as the mass matrix M of a global problem it must be square",
                first.nrows, first.ncols
            ),
        ));
    }
    let m = first.into_csc(&s)?;
    let h = s.matrix("the matrix H of a global problem")?;
    if h.nrows != nd || h.ncols != n {
        return Err(s.error_at(
            h.line,
            format!(
                "H is {}×{}, expected {nd}×{n} (M's size × dimension {dim} · {nc} contacts)",
                h.nrows, h.ncols
            ),
        ));
    }
    let h = h.into_csc(&s)?;
    let f = s.reals(nd, "f (\"q\" in Siconos, one per degree of freedom)")?;
    let w = s.reals(n, "w (\"b\" in Siconos, d · number of contacts entries)")?;
    let mu = s.reals(nc, "μ (one per contact)")?;
    let p = GlobalProblem::new(dim, m, h, f, w, mu).map_err(prob)?;
    Ok(FclibProblem::Global(p))
}

/// A matrix as read: its triplets in file order.
struct RawMatrix {
    line: usize,
    nrows: usize,
    ncols: usize,
    entries: Vec<Triplet<usize, usize, f64>>,
}

impl RawMatrix {
    fn into_csc(self, s: &Scanner) -> Result<SparseColMat<usize, f64>, DatError> {
        SparseColMat::try_new_from_triplets(self.nrows, self.ncols, &self.entries)
            .map_err(|e| s.error_at(self.line, format!("matrix construction failed: {e:?}")))
    }
}

/// Tokens with their line numbers.
struct Scanner<'a> {
    text: &'a str,
    pos: usize,
    line: usize,
    path: &'a Path,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a str, path: &'a Path) -> Self {
        Scanner {
            text,
            pos: 0,
            line: 1,
            path,
        }
    }

    fn error_at(&self, line: usize, msg: String) -> DatError {
        DatError::Syntax {
            file: self.path.into(),
            line,
            msg,
        }
    }

    /// Skips whitespace, counting lines.
    fn skip_space(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() && b[self.pos].is_ascii_whitespace() {
            if b[self.pos] == b'\n' {
                self.line += 1;
            }
            self.pos += 1;
        }
    }

    /// The next token and its line, or an "unexpected end of file" error.
    fn token(&mut self, what: &str) -> Result<(usize, &'a str), DatError> {
        self.skip_space();
        let b = self.text.as_bytes();
        let start = self.pos;
        while self.pos < b.len() && !b[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error_at(
                self.line,
                format!("unexpected end of file: expected {what}"),
            ));
        }
        Ok((self.line, &self.text[start..self.pos]))
    }

    fn int(&mut self, what: &str) -> Result<(usize, i64), DatError> {
        let (line, t) = self.token(what)?;
        t.parse::<i64>()
            .map(|v| (line, v))
            .map_err(|_| self.error_at(line, format!("\"{t}\": expected {what}, an integer")))
    }

    /// A non-negative count, at most what the rest of the file can hold when each
    /// item needs `bytes_each` bytes (so a corrupt count cannot allocate gigabytes).
    fn size(&self, line: usize, v: i64, what: &str, bytes_each: usize) -> Result<usize, DatError> {
        let room = (self.text.len() - self.pos) / bytes_each.max(1) + 1;
        match usize::try_from(v) {
            Ok(v) if v <= room.max(16) => Ok(v),
            Ok(_) => Err(self.error_at(
                line,
                format!("{what} {v} is larger than the rest of the file can hold"),
            )),
            Err(_) => Err(self.error_at(line, format!("{what} {v}: expected a count ≥ 0"))),
        }
    }

    fn count(&mut self, what: &str, bytes_each: usize) -> Result<(usize, usize), DatError> {
        let (line, v) = self.int(what)?;
        Ok((line, self.size(line, v, what, bytes_each)?))
    }

    fn real(&mut self, what: &str) -> Result<f64, DatError> {
        let (line, t) = self.token(what)?;
        match t.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            Ok(_) => {
                Err(self.error_at(line, format!("\"{t}\" in {what}: expected a finite number")))
            }
            Err(_) => Err(self.error_at(line, format!("\"{t}\" in {what}: expected a number"))),
        }
    }

    fn reals(&mut self, n: usize, what: &str) -> Result<Vec<f64>, DatError> {
        (0..n).map(|_| self.real(what)).collect()
    }

    fn next_are_integers(&self, k: usize) -> bool {
        let mut it = self.text[self.pos..].split_ascii_whitespace();
        (0..k).all(|_| it.next().is_some_and(|t| t.parse::<i64>().is_ok()))
    }

    fn remaining_tokens(&self) -> usize {
        self.text[self.pos..].split_ascii_whitespace().count()
    }

    /// The rest of the current line (after the last token read).
    fn rest_of_line(&mut self) {
        let b = self.text.as_bytes();
        while self.pos < b.len() && b[self.pos] != b'\n' {
            self.pos += 1;
        }
        if self.pos < b.len() {
            self.pos += 1;
            self.line += 1;
        }
    }

    /// The next whole line and its number.
    fn next_line(&mut self, what: &str) -> Result<(usize, &'a str), DatError> {
        if self.pos >= self.text.len() {
            return Err(self.error_at(
                self.line,
                format!("unexpected end of file: expected {what}"),
            ));
        }
        let line = self.line;
        let start = self.pos;
        self.rest_of_line();
        Ok((line, self.text[start..self.pos].trim_end()))
    }

    /// A matrix: `storage size0 size1` then its data (module docs).
    fn matrix(&mut self, what: &str) -> Result<RawMatrix, DatError> {
        let (line, storage) = self.int(&format!("the storage code of {what} (0, 1 or 2)"))?;
        let (_, nrows) = self.count("the number of rows", 1)?;
        let (_, ncols) = self.count("the number of columns", 1)?;
        let mut m = RawMatrix {
            line,
            nrows,
            ncols,
            entries: Vec::new(),
        };
        match storage {
            DENSE => self.dense(&mut m)?,
            SPARSE_BLOCK => self.sparse_block(&mut m)?,
            SPARSE => self.csparse(&mut m)?,
            s => {
                return Err(self.error_at(
                    line,
                    format!(
                        "storage code {s} of {what}: expected 0 (dense), 1 (sparse block) \
                         or 2 (sparse)"
                    ),
                ))
            }
        }
        Ok(m)
    }

    fn dense(&mut self, m: &mut RawMatrix) -> Result<(), DatError> {
        let (l0, r) = self.count("the number of rows (repeated)", 1)?;
        let (_, c) = self.count("the number of columns (repeated)", 1)?;
        if (r, c) != (m.nrows, m.ncols) {
            return Err(self.error_at(
                l0,
                format!(
                    "dense size {r}×{c} differs from the size {}×{} given above",
                    m.nrows, m.ncols
                ),
            ));
        }
        if r * c > 2 * (self.text.len() - self.pos) {
            return Err(self.error_at(
                l0,
                format!("{r}×{c} entries do not fit in the rest of the file"),
            ));
        }
        m.entries.reserve(r * c);
        for j in 0..c {
            for i in 0..r {
                let x = self.real("the dense matrix entries (column-major)")?;
                m.entries.push(Triplet::new(i, j, x));
            }
        }
        Ok(())
    }

    /// Cumulative block ends, strictly increasing, the last equal to `total`.
    fn block_ends(&mut self, n: usize, total: usize, what: &str) -> Result<Vec<usize>, DatError> {
        let mut ends = Vec::with_capacity(n);
        let mut line = self.line;
        for k in 0..n {
            let (l, v) = self.count(what, 1)?;
            line = l;
            let prev = ends.last().copied().unwrap_or(0);
            if v <= prev {
                return Err(self.error_at(
                    l,
                    format!(
                        "{what}: entry {k} is {v}, expected more than {prev} (cumulative ends)"
                    ),
                ));
            }
            ends.push(v);
        }
        if ends.last().copied().unwrap_or(0) != total {
            return Err(self.error_at(
                line,
                format!("{what}: the last end must be the matrix size {total}"),
            ));
        }
        Ok(ends)
    }

    fn sparse_block(&mut self, m: &mut RawMatrix) -> Result<(), DatError> {
        let (nb_line, nbblocks) = self.count("the number of blocks", 2)?;
        if nbblocks == 0 {
            return Ok(());
        }
        let (_, nbr) = self.count("the number of block rows", 2)?;
        let (_, nbc) = self.count("the number of block columns", 2)?;
        let rows = self.block_ends(nbr, m.nrows, "row block ends")?;
        let cols = self.block_ends(nbc, m.ncols, "column block ends")?;
        let (f1_line, filled1) = self.count("filled1 (block rows + 1)", 2)?;
        let (_, filled2) = self.count("filled2 (number of blocks)", 2)?;
        if filled1 != nbr + 1 || filled2 != nbblocks {
            return Err(self.error_at(
                f1_line,
                format!(
                    "filled1 = {filled1}, filled2 = {filled2}: expected {} (block rows + 1) and \
                     {nbblocks} (the number of blocks, line {nb_line})",
                    nbr + 1
                ),
            ));
        }
        let mut row_ptr = Vec::with_capacity(filled1);
        for k in 0..filled1 {
            let (l, v) = self.count("the block-row pointers", 2)?;
            let prev = row_ptr.last().copied().unwrap_or(0);
            if (k == 0 && v != 0) || v < prev || v > nbblocks {
                return Err(self.error_at(
                    l,
                    format!(
                        "block-row pointer {k} is {v}: expected non-decreasing from 0 to {nbblocks}"
                    ),
                ));
            }
            row_ptr.push(v);
        }
        if row_ptr[nbr] != nbblocks {
            return Err(self.error_at(
                self.line,
                format!(
                    "the last block-row pointer is {}, expected {nbblocks}",
                    row_ptr[nbr]
                ),
            ));
        }
        let mut col_idx = Vec::with_capacity(filled2);
        for _ in 0..filled2 {
            let (l, v) = self.count("the block-column indices", 2)?;
            if v >= nbc {
                return Err(self.error_at(
                    l,
                    format!("block-column index {v}: expected less than {nbc} block columns"),
                ));
            }
            col_idx.push(v);
        }
        for br in 0..nbr {
            let r0 = if br == 0 { 0 } else { rows[br - 1] };
            for (b, &bc) in col_idx
                .iter()
                .enumerate()
                .take(row_ptr[br + 1])
                .skip(row_ptr[br])
            {
                let c0 = if bc == 0 { 0 } else { cols[bc - 1] };
                let (nr, ncl) = (rows[br] - r0, cols[bc] - c0);
                let (l, id) = self.int("a block number")?;
                if id != b as i64 {
                    return Err(self.error_at(l, format!("block number {id}: expected {b}")));
                }
                if nr * ncl > 2 * (self.text.len() - self.pos) {
                    return Err(
                        self.error_at(l, format!("block {b} does not fit in the rest of the file"))
                    );
                }
                for j in 0..ncl {
                    for i in 0..nr {
                        let x = self.real("the block entries (column-major)")?;
                        m.entries.push(Triplet::new(r0 + i, c0 + j, x));
                    }
                }
            }
        }
        Ok(())
    }

    /// CSparse's printout (module docs).
    fn csparse(&mut self, m: &mut RawMatrix) -> Result<(), DatError> {
        self.int("the sparse origin code")?;
        self.rest_of_line();
        self.next_line("the CSparse version line")?;
        let (hl, header) = self.next_line("the CSparse size line (m-by-n, nzmax: …)")?;
        let kind = if header.starts_with("triplet:") {
            "triplet"
        } else if header.starts_with("csr:") {
            "csr"
        } else {
            "csc"
        };
        let bad = |s: &Self| {
            s.error_at(
                hl,
                format!("\"{header}\": expected \"[triplet: |csr: ]M-by-N, nzmax: K nnz: L…\""),
            )
        };
        let words: Vec<&str> = header.split_whitespace().collect();
        let dims = words
            .iter()
            .find(|w| w.contains("-by-"))
            .ok_or_else(|| bad(self))?;
        let (r, c) = dims
            .trim_end_matches(',')
            .split_once("-by-")
            .ok_or_else(|| bad(self))?;
        let (r, c) = match (r.parse::<usize>(), c.parse::<usize>()) {
            (Ok(r), Ok(c)) => (r, c),
            _ => return Err(bad(self)),
        };
        if (r, c) != (m.nrows, m.ncols) {
            return Err(self.error_at(
                hl,
                format!(
                    "CSparse size {r}×{c} differs from the size {}×{} given above",
                    m.nrows, m.ncols
                ),
            ));
        }
        let nnz = words
            .iter()
            .position(|w| *w == "nnz:")
            .and_then(|k| words.get(k + 1))
            .and_then(|w| w.trim_end_matches(',').parse::<i64>().ok())
            .ok_or_else(|| bad(self))?;
        let nnz = self.size(hl, nnz, "nnz", 4)?;
        if kind == "triplet" {
            for _ in 0..nnz {
                let (l, line) = self.next_line("a triplet line \"i j : x\"")?;
                let (i, j, x) = parse_entry(line, true)
                    .ok_or_else(|| self.error_at(l, format!("\"{line}\": expected \"i j : x\"")))?;
                self.push_checked(m, l, i, j, x)?;
            }
            return Ok(());
        }
        let outer = if kind == "csr" { r } else { c };
        for k in 0..outer {
            let (l, line) = self.next_line("a \"col j : locations a to b\" line")?;
            let w: Vec<&str> = line.split_whitespace().collect();
            let range = match w.as_slice() {
                [_, j, ":", "locations", a, "to", b] if j.parse::<usize>().ok() == Some(k) => {
                    a.parse::<i64>().ok().zip(b.parse::<i64>().ok())
                }
                _ => None,
            };
            let (a, b) = range.ok_or_else(|| {
                self.error_at(
                    l,
                    format!(
                        "\"{line}\": expected \"{} {k} : locations A to B\"",
                        if kind == "csr" { "row" } else { "col" }
                    ),
                )
            })?;
            let len = usize::try_from(b - a + 1).unwrap_or(0);
            let len = self.size(l, len as i64, "entries of this column", 4)?;
            for _ in 0..len {
                let (l, line) = self.next_line("an entry line \"i : x\"")?;
                let (i, _, x) = parse_entry(line, false)
                    .ok_or_else(|| self.error_at(l, format!("\"{line}\": expected \"i : x\"")))?;
                let (row, col) = if kind == "csr" { (k, i) } else { (i, k) };
                self.push_checked(m, l, row, col, x)?;
            }
        }
        Ok(())
    }

    fn push_checked(
        &self,
        m: &mut RawMatrix,
        line: usize,
        i: usize,
        j: usize,
        x: f64,
    ) -> Result<(), DatError> {
        if i >= m.nrows || j >= m.ncols || !x.is_finite() {
            return Err(self.error_at(
                line,
                format!(
                    "entry ({i}, {j}) = {x}: expected indices below {}×{} and a finite value",
                    m.nrows, m.ncols
                ),
            ));
        }
        m.entries.push(Triplet::new(i, j, x));
        Ok(())
    }
}

/// `"i j : x"` (with `two_indices`) or `"i : x"`.
fn parse_entry(line: &str, two_indices: bool) -> Option<(usize, usize, f64)> {
    let w: Vec<&str> = line.split_whitespace().collect();
    match (two_indices, w.as_slice()) {
        (true, [i, j, ":", x]) => Some((i.parse().ok()?, j.parse().ok()?, x.parse().ok()?)),
        (false, [i, ":", x]) => Some((i.parse().ok()?, 0, x.parse().ok()?)),
        _ => None,
    }
}
