//! Krylov solvers with a preconditioner, stopped on the true residual.
//!
//! * [`gmres`]: restarted GMRES (Saad & Schultz 1986, SIAM J. Sci. Stat.
//!   Comput. 7(3)) with right preconditioning, so that the residual it
//!   minimizes is that of `A x = b` itself; Arnoldi by classical
//!   Gram–Schmidt with one reorthogonalization (CGS2, Giraud et al. 2005);
//! * [`bicgstab`]: BiCGStab (van der Vorst 1992, SIAM J. Sci. Stat. Comput.
//!   13(2)), right preconditioned;
//! * [`cg`]: preconditioned conjugate gradients (Hestenes & Stiefel 1952) for
//!   symmetric positive definite `A` and `M`.
//!
//! The operator is `a(x, y)`: `y = A x`; the preconditioner `m(v)`: `v ← M⁻¹ v`
//! in place. Convergence is decided by `‖b − A x‖₂ ≤ rtol ‖b‖₂` recomputed
//! from `x` (not by the recurrence's estimate), so a returned `Ok` is right
//! by an independent residual.

use rayon::prelude::*;

/// Stopping rule and sizes of a Krylov solve.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct KrylovParams {
    /// Target relative residual `‖b − A x‖ / ‖b‖` (default 1e-12).
    pub rtol: f64,
    /// Iterations (operator applications) before giving up (default 500).
    pub max_iterations: usize,
    /// GMRES restart length (default 60).
    pub restart: usize,
}

impl Default for KrylovParams {
    fn default() -> Self {
        KrylovParams {
            rtol: 1e-12,
            max_iterations: 500,
            restart: 60,
        }
    }
}

/// What a converged solve did.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct KrylovInfo {
    /// Krylov iterations (one operator and one preconditioner application each;
    /// two of each for BiCGStab).
    pub iterations: usize,
    /// The true relative residual `‖b − A x‖ / ‖b‖` at return.
    pub residual: f64,
}

/// The solve missed its target.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error("Krylov solve stopped after {iterations} iterations at relative residual {residual:e} (target {target:e})")]
pub struct KrylovError {
    pub iterations: usize,
    pub residual: f64,
    pub target: f64,
}

const PAR_LEN: usize = 1 << 16;

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
fn residual(a: &mut impl FnMut(&[f64], &mut [f64]), b: &[f64], x: &[f64], r: &mut [f64]) -> f64 {
    a(x, r);
    r.iter_mut().zip(b).for_each(|(v, bi)| *v = bi - *v);
    norm(r)
}

/// Scratch of the Krylov solvers, kept between solves.
#[derive(Debug, Default)]
pub struct KrylovWork {
    basis: Vec<f64>,
    vecs: Vec<Vec<f64>>,
    h: Vec<f64>,
}

impl KrylovWork {
    fn vectors(&mut self, n: usize, count: usize) -> &mut [Vec<f64>] {
        if self.vecs.len() < count {
            self.vecs.resize_with(count, Vec::new);
        }
        for v in &mut self.vecs[..count] {
            v.resize(n, 0.0);
        }
        &mut self.vecs[..count]
    }
}

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

/// Right-preconditioned BiCGStab from the initial guess in `x`.
pub fn bicgstab(
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
    let v = work.vectors(n, 7);
    let [r, rh, p, vv, s, t, y] = v else {
        unreachable!()
    };
    let mut rnorm = residual(a, b, x, r);
    let mut iterations = 0;
    'restart: while rnorm > target && iterations < params.max_iterations {
        rh.copy_from_slice(r);
        p.iter_mut().for_each(|e| *e = 0.0);
        vv.iter_mut().for_each(|e| *e = 0.0);
        let (mut rho, mut alpha, mut omega) = (1.0, 1.0, 1.0);
        while iterations < params.max_iterations {
            iterations += 1;
            let rho1 = dot(rh, r);
            if rho1 == 0.0 || omega == 0.0 {
                rnorm = residual(a, b, x, r);
                continue 'restart;
            }
            let beta = (rho1 / rho) * (alpha / omega);
            rho = rho1;
            for i in 0..n {
                p[i] = r[i] + beta * (p[i] - omega * vv[i]);
            }
            y.copy_from_slice(p);
            m(y);
            a(y, vv);
            alpha = rho / dot(rh, vv);
            axpy(alpha, y, x);
            s.copy_from_slice(r);
            axpy(-alpha, vv, s);
            if norm(s) <= 0.5 * target {
                break;
            }
            y.copy_from_slice(s);
            m(y);
            a(y, t);
            omega = dot(t, s) / dot(t, t);
            axpy(omega, y, x);
            r.copy_from_slice(s);
            axpy(-omega, t, r);
            if norm(r) <= 0.5 * target {
                break;
            }
        }
        rnorm = residual(a, b, x, r);
    }
    if rnorm <= target {
        Ok(KrylovInfo {
            iterations,
            residual: rnorm / bnorm,
        })
    } else {
        Err(KrylovError {
            iterations,
            residual: rnorm / bnorm,
            target: params.rtol,
        })
    }
}

/// Preconditioned conjugate gradients from the initial guess in `x`
/// (`A`, `M` symmetric positive definite).
pub fn cg(
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
    let v = work.vectors(n, 4);
    let [r, z, p, q] = v else { unreachable!() };
    let mut rnorm = residual(a, b, x, r);
    let mut iterations = 0;
    'restart: while rnorm > target && iterations < params.max_iterations {
        z.copy_from_slice(r);
        m(z);
        p.copy_from_slice(z);
        let mut rz = dot(r, z);
        while iterations < params.max_iterations {
            iterations += 1;
            a(p, q);
            let pq = dot(p, q);
            if pq <= 0.0 {
                rnorm = residual(a, b, x, r);
                continue 'restart;
            }
            let alpha = rz / pq;
            axpy(alpha, p, x);
            axpy(-alpha, q, r);
            if norm(r) <= 0.5 * target {
                break;
            }
            z.copy_from_slice(r);
            m(z);
            let rz1 = dot(r, z);
            let beta = rz1 / rz;
            rz = rz1;
            for i in 0..n {
                p[i] = z[i] + beta * p[i];
            }
        }
        rnorm = residual(a, b, x, r);
    }
    if rnorm <= target {
        Ok(KrylovInfo {
            iterations,
            residual: rnorm / bnorm,
        })
    } else {
        Err(KrylovError {
            iterations,
            residual: rnorm / bnorm,
            target: params.rtol,
        })
    }
}
