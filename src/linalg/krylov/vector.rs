//! The vector kernels of the Krylov solvers: dot products, norms, `axpy`
//! (parallel above [`PAR_LEN`] entries) and the true residual.

use rayon::prelude::*;

pub(crate) const PAR_LEN: usize = 1 << 16;

pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    if a.len() >= PAR_LEN {
        a.par_chunks(PAR_LEN / 4)
            .zip(b.par_chunks(PAR_LEN / 4))
            .map(|(x, y)| x.iter().zip(y).map(|(u, v)| u * v).sum::<f64>())
            .sum()
    } else {
        a.iter().zip(b).map(|(u, v)| u * v).sum()
    }
}

pub(crate) fn norm(a: &[f64]) -> f64 {
    dot(a, a).sqrt()
}

/// `y += alpha x`.
pub(crate) fn axpy(alpha: f64, x: &[f64], y: &mut [f64]) {
    if y.len() >= PAR_LEN {
        y.par_chunks_mut(PAR_LEN / 4)
            .zip(x.par_chunks(PAR_LEN / 4))
            .for_each(|(yc, xc)| yc.iter_mut().zip(xc).for_each(|(v, u)| *v += alpha * u));
    } else {
        y.iter_mut().zip(x).for_each(|(v, u)| *v += alpha * u);
    }
}

/// `r = b − A x`; returns `‖r‖`.
pub(super) fn residual(
    a: &mut impl FnMut(&[f64], &mut [f64]),
    b: &[f64],
    x: &[f64],
    r: &mut [f64],
) -> f64 {
    a(x, r);
    r.iter_mut().zip(b).for_each(|(v, bi)| *v = bi - *v);
    norm(r)
}
