//! One contact point's Alart–Curnier function `Φ(r, u + B y)` and its
//! generalized Jacobians at an inner iterate of the saddle-point path
//! (Alart & Curnier 1991; the library's [`NsnFunction::AlartCurnier`]).

use crate::contact::geometry::MAX_NODES;
use crate::contact::law::violation;
use crate::contact::set::ContactSet;
use crate::nonsmooth::global::NsnFunction;
use nalgebra::{SMatrix, SVector};

/// One point's Alart–Curnier function and Jacobians at an inner iterate.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct PointJac {
    pub(super) phi: [f64; 3],
    /// `∂Φ/∂u` and `∂Φ/∂r` (the latter with the compliance and the
    /// proximal term).
    pub(super) a: [[f64; 3]; 3],
    pub(super) b: [[f64; 3]; 3],
    /// `Φ = r` (an open point): the step sets `r = 0` exactly.
    pub(super) open: bool,
}

/// An inner iterate: the multipliers and the correction `y = δx`.
#[derive(Clone, Copy)]
pub(super) struct Iterate<'a> {
    pub(super) r: &'a [[f64; 3]],
    pub(super) y: &'a [f64],
}

/// Every point's Alart–Curnier function (and, into `jac`, its Jacobians)
/// at the iterate `at`; returns the merit `Σ ‖Φ‖²` and the largest law
/// violation relative to the pair's tolerance.
pub(super) fn evaluate<const D: usize>(
    set: &ContactSet,
    points: &[(usize, usize)],
    rho: &[f64],
    prox: f64,
    at: Iterate,
    dt: f64,
    mut jac: Option<&mut [PointJac]>,
) -> (f64, f64) {
    let (r, y) = (at.r, at.y);
    let (mut merit, mut worst) = (0.0, 0.0f64);
    let mut nodes = [0usize; MAX_NODES];
    for (j, &(p, k)) in points.iter().enumerate() {
        let pair = &set.pairs[p];
        let point = &pair.points[k];
        if !point.on_master() || !point.acts() {
            if let Some(jac) = jac.as_deref_mut() {
                jac[j] = PointJac {
                    phi: r[j],
                    b: identity(),
                    open: true,
                    ..Default::default()
                };
            }
            let norm2 = r[j].iter().map(|v| v * v).sum::<f64>();
            merit += norm2;
            if point.acts() {
                worst = worst.max(dt * norm2.sqrt() / rho[j] / pair.tol_abs);
            }
            continue;
        }
        let n = pair.element_nodes(k, &mut nodes);
        let lin = &point.lin;
        let mut u = lin.u;
        for (c, uc) in u.iter_mut().enumerate().take(D) {
            for a in 0..n {
                for i in 0..D {
                    *uc += lin.b[c][a * D + i] * y[nodes[a] * D + i];
                }
            }
        }
        let comp = pair.tangential_compliance(k, dt);
        for i in 1..D {
            u[i] += comp * r[j][i];
        }
        let mu = pair.spec.friction;
        let rc = SVector::<f64, D>::from_fn(|i, _| r[j][i]);
        let uc = SVector::<f64, D>::from_fn(|i, _| u[i]);
        let (phi, am, bm): (SVector<f64, D>, SMatrix<f64, D, D>, SMatrix<f64, D, D>) =
            NsnFunction::AlartCurnier.eval::<D>(&rc, &uc, mu, rho[j]);
        merit += phi.norm_squared();
        let open = (0..D).all(|i| bm[(i, i)] == 1.0 && am[(i, i)] == 0.0);
        // the law's violation and, where the function's open branch says
        // `r = 0`, the multiplier left as a length (`Δt ‖r‖/ρ`, the motion
        // it would make): a tensile normal or a tangential multiplier on a
        // separating point works on the bodies outside the frictional
        // ledger, and the violation, classifying `r` alone, calls it open
        let left = if open { dt * rc.norm() / rho[j] } else { 0.0 };
        worst = worst.max(violation(r[j], u, mu, D - 1, dt).max(left) / pair.tol_abs);
        let Some(jac) = jac.as_deref_mut() else {
            continue;
        };
        let gamma = prox / rho[j];
        let mut pj = PointJac::default();
        for i in 0..D {
            pj.phi[i] = phi[i];
            for c in 0..D {
                pj.a[i][c] = am[(i, c)];
                let extra = if c > 0 { comp + gamma } else { gamma };
                pj.b[i][c] = bm[(i, c)] + am[(i, c)] * extra;
            }
        }
        pj.open = open;
        jac[j] = pj;
    }
    (merit, worst)
}

fn identity() -> [[f64; 3]; 3] {
    [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
}
