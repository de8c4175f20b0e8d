//! How far the matrix has moved from the one its factors are of: the rank
//! of the large part of `A − A_f` bounds the GMRES iterations the old
//! factors need (a preconditioner exact for `A_f` leaves `A M⁻¹ = I + E M⁻¹`,
//! whose Krylov space closes after `rank E + 1` steps), so a matrix whose
//! contact rows switched at many points is factored at once instead of
//! spending the work model's limit of iterations on a failing attempt
//! (`docs/decisions/reuse-work-model.md`).

use crate::linalg::pattern::BlockPattern;

/// Per-row and per-column sums of squares: change, old values, new values.
#[derive(Debug, Clone, Default)]
pub struct ChangeScratch {
    rows: Vec<[f64; 3]>,
    cols: Vec<[f64; 3]>,
}

/// Rows and columns of `new − old` (on `pattern`) whose change exceeds
/// `tau` times the larger of their old and new norms: `min` of the two
/// bounds the rank of the large part of the change.
pub fn changed_lines(
    pattern: &BlockPattern,
    old: &[f64],
    new: &[f64],
    tau: f64,
    s: &mut ChangeScratch,
) -> (usize, usize) {
    let n = pattern.n();
    s.rows.clear();
    s.rows.resize(n, [0.0; 3]);
    s.cols.clear();
    s.cols.resize(n, [0.0; 3]);
    let a = pattern.symbolic();
    let (cp, ri) = (a.col_ptr(), a.row_idx());
    for c in 0..n {
        let mut col = [0.0; 3];
        for k in cp[c]..cp[c + 1] {
            let (o, v) = (old[k], new[k]);
            let e = [(v - o) * (v - o), o * o, v * v];
            let r = &mut s.rows[ri[k]];
            for i in 0..3 {
                r[i] += e[i];
                col[i] += e[i];
            }
        }
        s.cols[c] = col;
    }
    let count = |l: &[[f64; 3]]| {
        l.iter()
            .filter(|e| e[0] > 0.0 && e[0] > tau * tau * e[1].max(e[2]))
            .count()
    };
    (count(&s.rows), count(&s.cols))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::linalg::test_matrices::{grid_pattern, values};

    #[test]
    fn changed_lines_count_rows_and_columns_above_the_fraction() {
        let p = grid_pattern(3);
        let old = values(&p, 6.0, 0.3);
        let (cp, ri) = (p.symbolic().col_ptr(), p.symbolic().row_idx());
        // rows 0..5 doubled: five rows, and every column touching them
        // changed by a part of its norm
        let mut new = old.clone();
        for c in 0..p.n() {
            for k in cp[c]..cp[c + 1] {
                if ri[k] < 5 {
                    new[k] *= 2.0;
                }
            }
        }
        let mut s = ChangeScratch::default();
        let (rows, cols) = changed_lines(&p, &old, &new, 0.1, &mut s);
        assert_eq!(rows, 5);
        assert!(cols >= 5, "{cols}");
        // a change of 1 % everywhere counts nowhere at 10 %, everywhere at 0.5 %
        let new: Vec<f64> = old.iter().map(|v| v * 1.01).collect();
        assert_eq!(changed_lines(&p, &old, &new, 0.1, &mut s), (0, 0));
        assert_eq!(changed_lines(&p, &old, &new, 0.005, &mut s), (p.n(), p.n()));
    }
}
