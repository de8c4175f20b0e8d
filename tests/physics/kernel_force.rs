//! Internal-force kernel: tangent against finite differences, the discrete energy
//! identity, momentum conservation, objectivity and failure reporting.

#![allow(clippy::needless_range_loop)]

use crate::common::fe::*;
use emcontact::fe::kernel::{internal_force, KernelError, StressEval};
use emcontact::fe::ElementKind;
use nalgebra::{Matrix3, Rotation3, Vector3};
use proptest::prelude::*;

fn numbers() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1.0..1.0f64, 90)
}

/// `max |K − K_fd| / max |K|` with central differences of step `h` on `x1`.
fn tangent_error(
    d: usize,
    kind: ElementKind,
    m: &emcontact::material::Material,
    c: &Config,
    eval: StressEval,
) -> Option<f64> {
    let ndof = kind.n_nodes() * d;
    let mut k = vec![0.0; ndof * ndof];
    force(d, kind, m, c, &c.x1, eval, Some(&mut k)).ok()?;
    let h = 1e-6;
    let mut err = 0.0f64;
    let kmax = k.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    for col in 0..ndof {
        let mut xp = c.x1.clone();
        let mut xm = c.x1.clone();
        xp[col / d][col % d] += h;
        xm[col / d][col % d] -= h;
        let fp = force(d, kind, m, c, &xp, eval, None).ok()?;
        let fm = force(d, kind, m, c, &xm, eval, None).ok()?;
        for row in 0..ndof {
            let fd = (fp[row] - fm[row]) / (2.0 * h);
            err = err.max((fd - k[row * ndof + col]).abs());
        }
    }
    Some(err / kmax)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// `∂f/∂x1` against central differences (h = 1e-6) for every body element,
    /// both stress evaluations, both materials, D = 2 and 3, random distorted
    /// configurations: max entry error below 1e-7 of the largest entry.
    #[test]
    fn tangent_matches_fd(r in numbers()) {
        for d in [2, 3] {
            for kind in kinds(d) {
                let c = config(kind, d, &r);
                for m in materials() {
                    for eval in EVALS {
                        let Some(e) = tangent_error(d, kind, &m, &c, eval) else {
                            return Err(TestCaseError::reject("inverted sample"));
                        };
                        prop_assert!(e < 1e-7, "{kind:?} D={d} {m:?} {eval:?}: rel. error {e:e}");
                    }
                }
            }
        }
    }

    /// Midpoint rule: `f·(x1 − x0) = Π(x1) − Π(x0)` to 1e-13 of `|Π0| + |Π1| + μV`;
    /// `Σ_a f_a = 0` and `Σ_a x_{n+½,a} × f_a = 0` to 1e-13 of `Σ_a |x_{n+½,a}||f_a|`.
    #[test]
    fn midpoint_energy_and_momenta(r in numbers(), small in 0i32..4) {
        for d in [2, 3] {
            for kind in kinds(d) {
                let mut c = config(kind, d, &r);
                // scale the step x1 − x0 by 1, 1e-3, 1e-6, 1e-9 (small steps cross the
                // discrete-gradient threshold at some quadrature points)
                let s = 10f64.powi(-3 * small);
                for a in 0..c.x1.len() {
                    for i in 0..3 {
                        c.x1[a][i] = c.x0[a][i] + s * (c.x1[a][i] - c.x0[a][i]);
                    }
                }
                for m in materials() {
                    let Ok(f) = force(d, kind, &m, &c, &c.x1, StressEval::Midpoint, None) else {
                        return Err(TestCaseError::reject("inverted sample"));
                    };
                    let e0 = energy(d, kind, &m, &c.xref, &c.x0);
                    let e1 = energy(d, kind, &m, &c.xref, &c.x1);
                    let mut work = 0.0;
                    let mut lin = Vector3::zeros();
                    let mut ang = Vector3::zeros();
                    let mut scale = 0.0;
                    let mut fsum = 0.0;
                    for a in 0..c.x1.len() {
                        let mut fa = Vector3::zeros();
                        let mut xm = Vector3::zeros();
                        for i in 0..d {
                            fa[i] = f[a * d + i];
                            work += fa[i] * (c.x1[a][i] - c.x0[a][i]);
                        }
                        for i in 0..3 {
                            xm[i] = 0.5 * (c.x0[a][i] + c.x1[a][i]);
                        }
                        lin += fa;
                        ang += xm.cross(&fa);
                        scale += xm.norm() * fa.norm();
                        fsum += fa.norm();
                    }
                    // W's round-off is ε·μ·tr C per point whatever its size (tr C − 3
                    // cancels), hence the μV floor for nearly unstrained samples
                    let vol = if d == 2 {
                        emcontact::fe::kernel::volume::<2>(kind, &c.xref).unwrap()
                    } else {
                        emcontact::fe::kernel::volume::<3>(kind, &c.xref).unwrap()
                    };
                    let ew = (e1 - e0 - work).abs() / (e0.abs() + e1.abs() + MU * vol);
                    prop_assert!(ew < 1e-13, "{kind:?} D={d} {m:?} s={s:e}: energy error {ew:e} (ΔΠ={}, work={work})", e1 - e0);
                    prop_assert!(lin.norm() < 1e-13 * fsum, "{kind:?} D={d} {m:?}: Σf = {lin}");
                    prop_assert!(ang.norm() < 1e-13 * scale, "{kind:?} D={d} {m:?}: Σx×f = {ang}");
                }
            }
        }
    }

    /// Objectivity: superposing a rigid motion `x ↦ Qx + t` on both configurations
    /// rotates the force, `f(Qx + t) = Q f(x)` (1e-13 relative); and a rigid motion
    /// of the reference gives zero force.
    #[test]
    fn frame_invariance(r in numbers(), angles in prop::array::uniform3(-3.0..3.0f64)) {
        for d in [2, 3] {
            let q: Matrix3<f64> = if d == 2 {
                *Rotation3::from_axis_angle(&Vector3::z_axis(), angles[0]).matrix()
            } else {
                *Rotation3::from_euler_angles(angles[0], angles[1], angles[2]).matrix()
            };
            let t = Vector3::new(0.3, -0.7, if d == 3 { 1.1 } else { 0.0 });
            let mv = |x: &[[f64; 3]]| -> Vec<[f64; 3]> {
                x.iter().map(|p| {
                    let v = q * Vector3::new(p[0], p[1], p[2]) + t;
                    [v[0], v[1], v[2]]
                }).collect()
            };
            for kind in kinds(d) {
                let c = config(kind, d, &r);
                let cq = Config { xref: c.xref.clone(), x0: mv(&c.x0), x1: mv(&c.x1) };
                let rigid = Config { xref: c.xref.clone(), x0: mv(&c.xref), x1: mv(&c.xref) };
                for m in materials() {
                    for eval in EVALS {
                        let Ok(f) = force(d, kind, &m, &c, &c.x1, eval, None) else {
                            return Err(TestCaseError::reject("inverted sample"));
                        };
                        let fq = force(d, kind, &m, &cq, &cq.x1, eval, None).unwrap();
                        let fmax = f.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                        for a in 0..kind.n_nodes() {
                            let mut fa = Vector3::zeros();
                            for i in 0..d { fa[i] = f[a * d + i]; }
                            let rot = q * fa;
                            for i in 0..d {
                                // relative to max|f|, with the round-off floor μ·1e-13
                                // of the rigid check below: an unstrained sample
                                // (max|f| ~ 1e-16) has no digits to compare
                                prop_assert!((rot[i] - fq[a * d + i]).abs() < 1e-13 * (fmax + MU),
                                    "{kind:?} D={d} {m:?} {eval:?}: |R f − f(Rx)| = {:e}, max|f| = {fmax:e}",
                                    (rot[i] - fq[a * d + i]).abs());
                            }
                        }
                        let f0 = force(d, kind, &m, &rigid, &rigid.x1, eval, None).unwrap();
                        let z = f0.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                        prop_assert!(z < 1e-14 * MU, "{kind:?} D={d} {m:?} {eval:?}: rigid force {z:e}");
                    }
                }
            }
        }
    }
}

/// At `x1 = x0` (ΔC = 0 at every point, below the discrete-gradient threshold) the
/// midpoint tangent still matches finite differences, and the midpoint force equals
/// the end-point force of the midpoint configuration.
#[test]
fn midpoint_tangent_at_zero_step() {
    let r = fixed_numbers(37, 101, 50.0);
    for d in [2, 3] {
        for kind in kinds(d) {
            let mut c = config(kind, d, &r);
            c.x1 = c.x0.clone();
            for m in materials() {
                let e = tangent_error(d, kind, &m, &c, StressEval::Midpoint).unwrap();
                assert!(e < 1e-7, "{kind:?} D={d} {m:?}: {e:e}");
                let fm = force(d, kind, &m, &c, &c.x1, StressEval::Midpoint, None).unwrap();
                let fe = force(d, kind, &m, &c, &c.x1, StressEval::EndPoint, None).unwrap();
                for (a, b) in fm.iter().zip(&fe) {
                    assert!((a - b).abs() < 1e-14 * (1.0 + b.abs()), "{a} vs {b}");
                }
            }
        }
    }
}

/// End-point tangent is symmetric (hyperelastic, conservative).
#[test]
fn endpoint_tangent_symmetric() {
    let r = fixed_numbers(53, 97, 48.5);
    for d in [2, 3] {
        for kind in kinds(d) {
            let c = config(kind, d, &r);
            let n = kind.n_nodes() * d;
            for m in materials() {
                let mut k = vec![0.0; n * n];
                force(d, kind, &m, &c, &c.x1, StressEval::EndPoint, Some(&mut k)).unwrap();
                let kmax = k.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                for i in 0..n {
                    for j in 0..n {
                        assert!((k[i * n + j] - k[j * n + i]).abs() < 1e-14 * kmax);
                    }
                }
            }
        }
    }
}

/// `f` is added to, not overwritten; `k` is overwritten.
#[test]
fn force_accumulates_tangent_overwrites() {
    let kind = ElementKind::Tet4;
    let m = materials()[1];
    let r = fixed_numbers(29, 83, 41.5);
    let c = config(kind, 3, &r);
    let eval = |f: &mut [f64], k: &mut [f64]| {
        let (xr, x0, x1) = (&c.xref, &c.x0, &c.x1);
        internal_force::<3>(kind, &m, xr, x0, x1, StressEval::Midpoint, f, Some(k)).unwrap();
    };
    let (mut f1, mut k1) = (vec![0.0; 12], vec![0.0; 144]);
    eval(&mut f1, &mut k1);
    let (mut f2, mut k2) = (vec![1.0; 12], vec![5.0; 144]);
    eval(&mut f2, &mut k2);
    for i in 0..12 {
        assert!((f2[i] - 1.0 - f1[i]).abs() < 1e-15);
    }
    assert_eq!(k1, k2);
}

/// Inverted current configurations and non-finite input give `Inverted`; an
/// inverted reference gives `BadReference`; outputs are untouched on error.
#[test]
fn failures_are_reported() {
    for d in [2, 3] {
        for kind in kinds(d) {
            let xref: Vec<[f64; 3]> = kind.reference_nodes().to_vec();
            // mirror x ↦ −x: det F = −1 everywhere
            let mirrored: Vec<[f64; 3]> = xref.iter().map(|p| [-p[0], p[1], p[2]]).collect();
            let mut nan = xref.clone();
            nan[1][0] = f64::NAN;
            // push one node through the opposite side: node 1 (ξ = 1 side) to ξ = −3
            let mut pushed = xref.clone();
            pushed[1][0] = -3.0;
            for m in materials() {
                for eval in EVALS {
                    for bad in [&mirrored, &nan, &pushed] {
                        let n = kind.n_nodes() * d;
                        let mut f = vec![0.5; n];
                        let mut k = vec![0.25; n * n];
                        let e =
                            force_into(d, kind, &m, &xref, &xref, bad, eval, &mut f, Some(&mut k))
                                .unwrap_err();
                        assert!(
                            f.iter().all(|&v| v == 0.5) && k.iter().all(|&v| v == 0.25),
                            "outputs modified on error"
                        );
                        assert!(
                            matches!(e, KernelError::Inverted { .. }),
                            "{kind:?} {eval:?}: {e:?}"
                        );
                    }
                    let badref = Config {
                        xref: mirrored.clone(),
                        x0: xref.clone(),
                        x1: xref.clone(),
                    };
                    let e = force(d, kind, &m, &badref, &xref, eval, None).unwrap_err();
                    assert!(
                        matches!(e, KernelError::BadReference { det_j } if det_j < 0.0),
                        "{e:?}"
                    );
                }
                // inverted previous configuration in the midpoint rule
                let c = Config {
                    xref: xref.clone(),
                    x0: mirrored.clone(),
                    x1: xref.clone(),
                };
                let e = force(d, kind, &m, &c, &xref, StressEval::Midpoint, None).unwrap_err();
                assert!(
                    matches!(e, KernelError::Inverted { det_f } if det_f < 0.0),
                    "{e:?}"
                );
            }
        }
    }
}

/// Plane strain = a unit-thickness extrusion with `z` held: the quad4 (D = 2) force,
/// tangent and energy equal the hex8 ones summed over each bottom/top node pair
/// (in-plane components), to 1e-13 relative, for both materials and both rules.
#[test]
fn plane_strain_matches_extruded_hex() {
    let r = fixed_numbers(71, 89, 44.5);
    let c2 = config(ElementKind::Quad4, 2, &r);
    let extrude = |x: &[[f64; 3]]| -> Vec<[f64; 3]> {
        let mut out = Vec::with_capacity(8);
        for z in [0.0, 1.0] {
            out.extend(x.iter().map(|p| [p[0], p[1], z]));
        }
        out
    };
    let c3 = Config {
        xref: extrude(&c2.xref),
        x0: extrude(&c2.x0),
        x1: extrude(&c2.x1),
    };
    for m in materials() {
        for eval in EVALS {
            let mut k2 = vec![0.0; 64];
            let mut k3 = vec![0.0; 576];
            let f2 = force(2, ElementKind::Quad4, &m, &c2, &c2.x1, eval, Some(&mut k2)).unwrap();
            let f3 = force(3, ElementKind::Hex8, &m, &c3, &c3.x1, eval, Some(&mut k3)).unwrap();
            let fmax = f2.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            let kmax = k2.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            for a in 0..4 {
                for i in 0..2 {
                    let s = f3[a * 3 + i] + f3[(a + 4) * 3 + i];
                    assert!((s - f2[a * 2 + i]).abs() < 1e-13 * fmax, "{m:?} {eval:?}");
                    for b in 0..4 {
                        for j in 0..2 {
                            let mut s = 0.0;
                            for (aa, bb) in [(a, b), (a, b + 4), (a + 4, b), (a + 4, b + 4)] {
                                s += k3[(aa * 3 + i) * 24 + bb * 3 + j];
                            }
                            let k = k2[(a * 2 + i) * 8 + b * 2 + j];
                            assert!((s - k).abs() < 1e-13 * kmax, "{m:?} {eval:?}: {s} vs {k}");
                        }
                    }
                }
            }
            let e2 = energy(2, ElementKind::Quad4, &m, &c2.xref, &c2.x1);
            let e3 = energy(3, ElementKind::Hex8, &m, &c3.xref, &c3.x1);
            assert!((e2 - e3).abs() < 1e-13 * e2.abs());
        }
    }
}
