//! Restarted GMRES (Saad & Schultz 1986, SIAM J. Sci. Stat. Comput. 7(3))
//! with right preconditioning, so that the residual it minimizes is that of
//! `A x = b` itself; Arnoldi by classical Gram–Schmidt with one
//! reorthogonalization (CGS2, Giraud et al. 2005, Numer. Math. 101).
//! It stops on the true residual `‖b − A x‖₂ ≤ rtol ‖b‖₂` recomputed from
//! `x` after each cycle, or after two cycles that reduce it by less than
//! 10 % (a stall: the round-off floor of `A` and `M`).

use crate::linalg::krylov::params::{KrylovError, KrylovInfo, KrylovParams, KrylovWork};
use crate::linalg::krylov::vector::{axpy, dot, norm, residual};

/// Restarted right-preconditioned GMRES from the initial guess in `x`.
pub fn gmres(
    a: &mut impl FnMut(&[f64], &mut [f64]),
    m: &mut impl FnMut(&mut [f64]),
    b: &[f64],
    x: &mut [f64],
    params: KrylovParams,
    work: &mut KrylovWork,
) -> Result<KrylovInfo, KrylovError> {
    let n = b.len();
    let bnorm = norm(b);
    if bnorm == 0.0 {
        x.iter_mut().for_each(|v| *v = 0.0);
        return Ok(KrylovInfo::default());
    }
    let target = params.rtol * bnorm;
    let kmax = params.restart.max(1);
    work.basis.resize(n * (kmax + 1), 0.0);
    work.h.resize((kmax + 1) * kmax, 0.0);
    let mut r = std::mem::take(&mut work.vecs);
    r.resize_with(2, Vec::new);
    r.iter_mut().for_each(|v| v.resize(n, 0.0));
    let (rv, rest) = r.split_at_mut(1);
    let (r0, w) = (&mut rv[0], &mut rest[0]);
    let mut iterations = 0;
    let mut rnorm = residual(a, b, x, r0);
    let mut best = rnorm;
    let mut stalls = 0;
    let result = loop {
        if rnorm <= target {
            break Ok(KrylovInfo {
                iterations,
                residual: rnorm / bnorm,
            });
        }
        if iterations >= params.max_iterations || stalls >= 2 {
            break Err(KrylovError {
                iterations,
                residual: rnorm / bnorm,
                target: params.rtol,
            });
        }
        let (g, k) = arnoldi_cycle(
            a,
            m,
            r0,
            rnorm,
            target,
            kmax,
            params.max_iterations - iterations,
            work,
            w,
        );
        iterations += k;
        // y = H⁻¹ g (upper triangular after the rotations)
        let h = &work.h;
        let mut y = g[..k].to_vec();
        for i in (0..k).rev() {
            for j in i + 1..k {
                y[i] -= h[j * (kmax + 1) + i] * y[j];
            }
            y[i] /= h[i * (kmax + 1) + i];
        }
        // x += M⁻¹ (V y)
        w.iter_mut().for_each(|v| *v = 0.0);
        for (j, &yj) in y.iter().enumerate() {
            axpy(yj, &work.basis[j * n..(j + 1) * n], w);
        }
        m(w);
        axpy(1.0, w, x);
        rnorm = residual(a, b, x, r0);
        if rnorm < 0.9 * best {
            best = rnorm;
            stalls = 0;
        } else {
            stalls += 1;
        }
    };
    work.vecs = r;
    result
}

/// One Arnoldi cycle from the residual `r0` (norm `beta`): fills the basis
/// and the rotated (upper triangular) Hessenberg matrix of `work`; returns
/// the rotated right-hand side and the cycle's length.
#[allow(clippy::too_many_arguments)]
fn arnoldi_cycle(
    a: &mut impl FnMut(&[f64], &mut [f64]),
    m: &mut impl FnMut(&mut [f64]),
    r0: &[f64],
    beta: f64,
    target: f64,
    kmax: usize,
    budget: usize,
    work: &mut KrylovWork,
    w: &mut [f64],
) -> (Vec<f64>, usize) {
    let n = r0.len();
    let ld = kmax + 1;
    let basis = &mut work.basis;
    let h = &mut work.h;
    for (v, &r) in basis[..n].iter_mut().zip(r0) {
        *v = r / beta;
    }
    let mut g = vec![0.0; kmax + 1];
    g[0] = beta;
    let (mut cs, mut sn) = (vec![0.0; kmax], vec![0.0; kmax]);
    let mut z = vec![0.0; n];
    let mut k = 0;
    while k < kmax && k < budget {
        z.copy_from_slice(&basis[k * n..(k + 1) * n]);
        m(&mut z);
        a(&z, w);
        let hk = &mut h[k * ld..(k + 1) * ld];
        hk.iter_mut().for_each(|v| *v = 0.0);
        // CGS2: two passes of classical Gram–Schmidt
        for _ in 0..2 {
            let coef: Vec<f64> = (0..=k)
                .map(|i| dot(&basis[i * n..(i + 1) * n], w))
                .collect();
            for (i, &c) in coef.iter().enumerate() {
                axpy(-c, &basis[i * n..(i + 1) * n], w);
                hk[i] += c;
            }
        }
        let wn = norm(w);
        hk[k + 1] = wn;
        if wn > 0.0 {
            for (v, &x) in basis[(k + 1) * n..(k + 2) * n].iter_mut().zip(w.iter()) {
                *v = x / wn;
            }
        }
        for i in 0..k {
            let t = cs[i] * hk[i] + sn[i] * hk[i + 1];
            hk[i + 1] = -sn[i] * hk[i] + cs[i] * hk[i + 1];
            hk[i] = t;
        }
        let rho = hk[k].hypot(hk[k + 1]);
        cs[k] = hk[k] / rho;
        sn[k] = hk[k + 1] / rho;
        hk[k] = rho;
        hk[k + 1] = 0.0;
        g[k + 1] = -sn[k] * g[k];
        g[k] *= cs[k];
        k += 1;
        if g[k].abs() <= 0.5 * target || wn == 0.0 {
            break;
        }
    }
    (g, k)
}
