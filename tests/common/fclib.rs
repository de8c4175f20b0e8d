//! Helpers shared by the nonsmooth integration tests.

use std::path::PathBuf;

use emcontact::nonsmooth::global::NsnFunction;
use emcontact::nonsmooth::local::{project_cone, LocalError, LocalInfo, LocalParams, LocalSolver};
use faer::sparse::{SparseColMat, Triplet};
use nalgebra::{SMatrix, SVector};

/// The four FCLIB sample files (copied from /work/shared/fclib, Apache-2.0).
pub const FILES: [&str; 4] = [
    "local_problem_test.hdf5",
    "LMGC_100_PR_PerioBox-i00361-60-03000.hdf5",
    "Capsules-i125-1213.hdf5",
    "Box_Stacks-i0122-82-5.hdf5",
];

pub fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/fclib")
        .join(name)
}

/// A tiny local solver for the tests (independent of the local-solver module):
/// Alart–Curnier Newton on one contact, `J = B + A W`, Armijo line search on ½‖Φ‖²,
/// stopping on the natural map like the real local solvers.
pub struct TestLocal;

fn newton<const D: usize>(
    w: &SMatrix<f64, D, D>,
    q: &SVector<f64, D>,
    mu: f64,
    r: &mut SVector<f64, D>,
    params: &LocalParams,
) -> Result<LocalInfo, LocalError> {
    let t = w.trace() / D as f64;
    let rho = if t > 0.0 { 1.0 / t } else { 1.0 };
    let nat = |r: &SVector<f64, D>| {
        let u = w * r + q;
        let mut uh = u;
        let mut ut = u;
        ut[0] = 0.0;
        uh[0] += mu * ut.norm();
        (r - project_cone(&(r - uh), mu)).norm()
    };
    for it in 0..params.max_iter {
        let e = nat(r);
        if e <= params.tol {
            return Ok(LocalInfo {
                iterations: it,
                error: e,
            });
        }
        let u = w * *r + q;
        let (phi, a, b) = NsnFunction::AlartCurnier.eval(r, &u, mu, rho);
        let j = b + a * w;
        let Some(d) = solve_small(j, -phi) else {
            return Err(LocalError::Breakdown("singular"));
        };
        let psi0 = phi.norm_squared();
        let mut s = 1.0;
        for _ in 0..40 {
            let rt = *r + d * s;
            let ut = w * rt + q;
            let p = NsnFunction::AlartCurnier
                .eval(&rt, &ut, mu, rho)
                .0
                .norm_squared();
            if p <= (1.0 - 1e-4 * s) * psi0 {
                break;
            }
            s *= 0.5;
        }
        *r += d * s;
    }
    let e = nat(r);
    if e <= params.tol {
        Ok(LocalInfo {
            iterations: params.max_iter,
            error: e,
        })
    } else {
        Err(LocalError::NoConvergence {
            error: e,
            iterations: params.max_iter,
        })
    }
}

/// Gaussian elimination with partial pivoting on a small fixed-size system.
fn solve_small<const D: usize>(
    mut a: SMatrix<f64, D, D>,
    mut b: SVector<f64, D>,
) -> Option<SVector<f64, D>> {
    for k in 0..D {
        let p = (k..D).max_by(|&i, &j| a[(i, k)].abs().total_cmp(&a[(j, k)].abs()))?;
        if a[(p, k)].abs() < 1e-300 {
            return None;
        }
        a.swap_rows(k, p);
        b.swap_rows(k, p);
        for i in k + 1..D {
            let f = a[(i, k)] / a[(k, k)];
            for j in k..D {
                a[(i, j)] -= f * a[(k, j)];
            }
            b[i] -= f * b[k];
        }
    }
    let mut x = SVector::<f64, D>::zeros();
    for k in (0..D).rev() {
        let s: f64 = (k + 1..D).map(|j| a[(k, j)] * x[j]).sum();
        x[k] = (b[k] - s) / a[(k, k)];
    }
    x.iter().all(|v| v.is_finite()).then_some(x)
}

impl LocalSolver for TestLocal {
    fn name(&self) -> &'static str {
        "test-ac"
    }
    fn description(&self) -> &'static str {
        "test-only Alart-Curnier Newton"
    }
    fn solve3(
        &self,
        w: &SMatrix<f64, 3, 3>,
        q: &SVector<f64, 3>,
        mu: f64,
        r: &mut SVector<f64, 3>,
        params: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        newton(w, q, mu, r, params)
    }
    fn solve2(
        &self,
        w: &SMatrix<f64, 2, 2>,
        q: &SVector<f64, 2>,
        mu: f64,
        r: &mut SVector<f64, 2>,
        params: &LocalParams,
    ) -> Result<LocalInfo, LocalError> {
        newton(w, q, mu, r, params)
    }
}

/// Deterministic pseudo-random numbers in [-1, 1] (no dependency on rand's streams).
pub struct Lcg(pub u64);
impl Lcg {
    pub fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
}

/// A random SPD `W = BᵀB + 0.5 I` (dense, as sparse) of size `n`, coupling neighbours only
/// (`B` banded), and `q` with mixed signs.
pub fn random_problem(
    dim: usize,
    nc: usize,
    mu: f64,
    seed: u64,
) -> (SparseColMat<usize, f64>, Vec<f64>, Vec<f64>) {
    let n = dim * nc;
    let mut g = Lcg(seed);
    let band = 2 * dim;
    let mut b = vec![vec![0.0; n]; n];
    for i in 0..n {
        for j in i.saturating_sub(band)..(i + band + 1).min(n) {
            b[i][j] = g.next();
        }
    }
    let mut trip = Vec::new();
    for i in 0..n {
        for j in 0..n {
            let mut s: f64 = (0..n).map(|k| b[k][i] * b[k][j]).sum();
            if i == j {
                s += 0.5;
            }
            if s != 0.0 {
                trip.push(Triplet::new(i, j, s));
            }
        }
    }
    let w = SparseColMat::try_new_from_triplets(n, n, &trip).unwrap();
    let q: Vec<f64> = (0..n).map(|_| g.next()).collect();
    (w, q, vec![mu; nc])
}
