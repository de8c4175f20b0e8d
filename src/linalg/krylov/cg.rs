//! Preconditioned conjugate gradients (Hestenes & Stiefel 1952, J. Res.
//! Nat. Bur. Standards 49(6)) for symmetric positive definite `A` and `M`,
//! restarted from the true residual where the recurrence loses positive
//! curvature, and stopped on the true residual recomputed from `x`.
//!
//! faer has a CG (`faer::matrix_free::conjugate_gradient`); this one is
//! kept because its stopping rule is the true residual (faer's is the
//! recurrence's, which drifts from it at the 1e-12 targets of the
//! contract) and because it shares the closures, Params / Info / Error and
//! scratch of [`mod@crate::linalg::krylov::gmres`].

use crate::linalg::krylov::params::{KrylovError, KrylovInfo, KrylovParams, KrylovWork};
use crate::linalg::krylov::vector::{axpy, dot, norm, residual};

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
