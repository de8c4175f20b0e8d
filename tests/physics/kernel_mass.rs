//! Mass, volume, cell stress and characteristic length kernels.

#![allow(clippy::needless_range_loop)]

use crate::common::fe::*;
use emcontact::fe::kernel::{cell_stress, characteristic_length, mass, strain_energy, volume};
use emcontact::fe::ElementKind;
use nalgebra::{DMatrix, Matrix3, Rotation3, Vector3};
use proptest::prelude::*;

fn numbers() -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-1.0..1.0f64, 90)
}

fn vol(d: usize, kind: ElementKind, x: &[[f64; 3]]) -> f64 {
    if d == 2 {
        volume::<2>(kind, x).unwrap()
    } else {
        volume::<3>(kind, x).unwrap()
    }
}

fn mass_matrix(d: usize, kind: ElementKind, rho: f64, x: &[[f64; 3]], lumped: bool) -> Vec<f64> {
    let n = kind.n_nodes();
    let mut m = vec![0.0; n * n];
    if d == 2 {
        mass::<2>(kind, rho, x, lumped, &mut m).unwrap();
    } else {
        mass::<3>(kind, rho, x, lumped, &mut m).unwrap();
    }
    m
}

/// 3-point Gauss–Legendre on [-1, 1] (exact to degree 5), for independent checks.
const G3: [(f64, f64); 3] = [
    (-0.774_596_669_241_483_4, 5.0 / 9.0),
    (0.0, 8.0 / 9.0),
    (0.774_596_669_241_483_4, 5.0 / 9.0),
];

/// `∫ ρ N_a N_b dV` and `∫ dV` by 3-point Gauss per direction (quad4/hex8) — exact
/// for the volume of both and for the quad4 mass.
fn reference_mass(d: usize, kind: ElementKind, rho: f64, x: &[[f64; 3]]) -> (Vec<f64>, f64) {
    let n = kind.n_nodes();
    let mut m = vec![0.0; n * n];
    let mut v = 0.0;
    let zs: &[(f64, f64)] = if d == 3 { &G3 } else { &[(0.0, 1.0)] };
    for &(a, wa) in &G3 {
        for &(b, wb) in &G3 {
            for &(c, wc) in zs {
                let mut nv = [0.0; 8];
                let mut dn = [[0.0; 3]; 8];
                kind.shape(&[a, b, c], &mut nv, &mut dn);
                let mut j = Matrix3::<f64>::identity();
                for i in 0..d {
                    for k in 0..d {
                        j[(i, k)] = (0..n).map(|p| x[p][i] * dn[p][k]).sum();
                    }
                }
                let w = wa * wb * wc * j.determinant();
                v += w;
                for p in 0..n {
                    for q in 0..n {
                        m[p * n + q] += rho * w * nv[p] * nv[q];
                    }
                }
            }
        }
    }
    (m, v)
}

proptest! {
    /// Total mass `ρV` for consistent and lumped mass; lumped = row sums of the
    /// consistent matrix; consistent mass symmetric positive definite (smallest
    /// eigenvalue > 0); all to 1e-14 relative.
    #[test]
    fn mass_properties(r in numbers(), rho in 0.1..10.0f64) {
        for d in [2, 3] {
            for kind in kinds(d) {
                let c = config(kind, d, &r);
                let n = kind.n_nodes();
                let v = vol(d, kind, &c.xref);
                let mc = mass_matrix(d, kind, rho, &c.xref, false);
                let ml = mass_matrix(d, kind, rho, &c.xref, true);
                let tc: f64 = mc.iter().sum();
                let tl: f64 = ml.iter().sum();
                prop_assert!((tc - rho * v).abs() < 1e-14 * rho * v);
                prop_assert!((tl - rho * v).abs() < 1e-14 * rho * v);
                for a in 0..n {
                    let row: f64 = mc[a * n..(a + 1) * n].iter().sum();
                    prop_assert!((ml[a * n + a] - row).abs() < 1e-15 * rho * v);
                    prop_assert!(ml[a * n + a] > 0.0);
                    for b in 0..n {
                        if a != b { prop_assert_eq!(ml[a * n + b], 0.0); }
                        prop_assert!((mc[a * n + b] - mc[b * n + a]).abs() < 1e-16 * rho * v);
                    }
                }
                let eig = DMatrix::from_row_slice(n, n, &mc).symmetric_eigenvalues();
                prop_assert!(eig.min() > 0.0, "{kind:?}: {eig}");
            }
        }
    }

    /// Volume: `det A / d!` for affine simplices; equal to an independent 3-point
    /// Gauss integration of `det J` for distorted quad4/hex8 (1e-14), hence exact.
    /// The quad4 consistent mass also equals the 3-point result (exactness claim).
    #[test]
    fn volume_exact(r in numbers()) {
        for d in [2, 3] {
            for kind in kinds(d) {
                let c = config(kind, d, &r);
                let v = vol(d, kind, &c.xref);
                match kind {
                    ElementKind::Tri3 | ElementKind::Tet4 => {
                        let mut a = Matrix3::identity();
                        for k in 0..d {
                            for i in 0..d {
                                a[(i, k)] = c.xref[k + 1][i] - c.xref[0][i];
                            }
                        }
                        let exact = a.determinant() / if d == 2 { 2.0 } else { 6.0 };
                        prop_assert!((v - exact).abs() < 1e-14 * exact, "{kind:?}");
                        // affine simplex: M = ρV/((d+1)(d+2)) (1 + δ_ab)
                        let m = mass_matrix(d, kind, 2.0, &c.xref, false);
                        let n = kind.n_nodes();
                        let f = 2.0 * exact / ((d + 1) * (d + 2)) as f64;
                        for a in 0..n {
                            for b in 0..n {
                                let want = f * if a == b { 2.0 } else { 1.0 };
                                prop_assert!((m[a * n + b] - want).abs() < 1e-14 * f);
                            }
                        }
                    }
                    _ => {
                        let (mref, vref) = reference_mass(d, kind, 2.0, &c.xref);
                        prop_assert!((v - vref).abs() < 1e-14 * vref, "{kind:?}: {v} vs {vref}");
                        if kind == ElementKind::Quad4 {
                            let m = mass_matrix(d, kind, 2.0, &c.xref, false);
                            for (a, b) in m.iter().zip(&mref) {
                                prop_assert!((a - b).abs() < 1e-14 * vref);
                            }
                        }
                    }
                }
            }
        }
    }

    /// Homogeneous deformation `x = F X`: the cell stress is `F S(FᵀF) Fᵀ / det F`
    /// and the energy density `W(FᵀF)` (1e-13 relative, energy floor μ); in plane strain `σ_zz = S_zz/J ≠ 0`.
    #[test]
    fn cell_stress_homogeneous(r in numbers()) {
        for d in [2, 3] {
            for kind in kinds(d) {
                let c = config(kind, d, &r);
                let mut dr = Draw::new(&r[40..]);
                let f = dr.near_identity(d, 0.2);
                let x: Vec<[f64; 3]> = c.xref.iter().map(|p| {
                    let v = f * Vector3::new(p[0], p[1], p[2]);
                    [v[0], v[1], v[2]]
                }).collect();
                for m in materials() {
                    let (sig, w) = if d == 2 {
                        cell_stress::<2>(kind, &m, &c.xref, &x).unwrap()
                    } else {
                        cell_stress::<3>(kind, &m, &c.xref, &x).unwrap()
                    };
                    let cc = f.transpose() * f;
                    let want = f * m.stress(&cc) * f.transpose() / f.determinant();
                    prop_assert!((sig - want).norm() < 1e-13 * want.norm().max(MU), "{kind:?} {m:?}: {sig} vs {want}");
                    // W's own round-off is ε·μ·tr C (tr C − 3 cancels), hence the μ floor.
                    prop_assert!((w - m.energy(&cc)).abs() < 1e-13 * m.energy(&cc).abs().max(MU));
                    let e = if d == 2 { strain_energy::<2>(kind, &m, &c.xref, &x) } else { strain_energy::<3>(kind, &m, &c.xref, &x) }.unwrap();
                    prop_assert!((e - w * vol(d, kind, &c.xref)).abs() < 1e-13 * e.abs().max(MU));
                    if d == 2 && (f - Matrix3::identity()).norm() > 1e-3 {
                        prop_assert!(sig[(2, 2)].abs() > 0.0);
                        prop_assert!(sig[(0, 2)] == 0.0 && sig[(1, 2)] == 0.0);
                    }
                }
            }
        }
    }
}

fn rotate(x: &[[f64; 3]], q: &Matrix3<f64>, scale: [f64; 3]) -> Vec<[f64; 3]> {
    x.iter()
        .map(|p| {
            let v = q * Vector3::new(p[0] * scale[0], p[1] * scale[1], p[2] * scale[2]);
            [v[0], v[1], v[2]]
        })
        .collect()
}

/// Characteristic length: smallest altitude of simplices, smallest distance
/// between opposite faces of boxes/rectangles and parallelograms; 0 if degenerate.
#[test]
fn characteristic_lengths() {
    let q3 = *Rotation3::from_euler_angles(0.3, -0.4, 1.2).matrix();
    let q2 = *Rotation3::from_axis_angle(&Vector3::z_axis(), 0.7).matrix();
    // hex8 box 2a×2b×2c (reference nodes at ±1), rotated: min(2a, 2b, 2c)
    let hex = rotate(ElementKind::Hex8.reference_nodes(), &q3, [1.5, 0.4, 0.9]);
    let h = characteristic_length::<3>(ElementKind::Hex8, &hex);
    assert!((h - 0.8).abs() < 1e-14, "{h}");
    let quad = rotate(ElementKind::Quad4.reference_nodes(), &q2, [0.25, 1.0, 0.0]);
    let h = characteristic_length::<2>(ElementKind::Quad4, &quad);
    assert!((h - 0.5).abs() < 1e-14, "{h}");
    // parallelogram (0,0),(2,0),(3,1),(1,1): heights 1 and 2/√2 → 1
    let para = [
        [0.0, 0.0, 0.0],
        [2.0, 0.0, 0.0],
        [3.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    let h = characteristic_length::<2>(ElementKind::Quad4, &para);
    assert!((h - 1.0).abs() < 1e-14, "{h}");
    // unit right tet: smallest altitude from the origin to x+y+z=1 is 1/√3
    let tet = rotate(ElementKind::Tet4.reference_nodes(), &q3, [1.0, 1.0, 1.0]);
    let h = characteristic_length::<3>(ElementKind::Tet4, &tet);
    assert!((h - 1.0 / 3f64.sqrt()).abs() < 1e-14, "{h}");
    // right triangle: altitude onto the hypotenuse 1/√2
    let tri = rotate(ElementKind::Tri3.reference_nodes(), &q2, [1.0, 1.0, 0.0]);
    let h = characteristic_length::<2>(ElementKind::Tri3, &tri);
    assert!((h - 1.0 / 2f64.sqrt()).abs() < 1e-14, "{h}");
    // regular tetrahedron with edge 1: altitude √(2/3)
    let s = 1.0 / 2f64.sqrt();
    let reg = [[s, 0.0, 0.0], [0.0, s, 0.0], [0.0, 0.0, s], [s, s, s]];
    let h = characteristic_length::<3>(ElementKind::Tet4, &reg).max(characteristic_length::<3>(
        ElementKind::Tet4,
        &[reg[0], reg[2], reg[1], reg[3]],
    ));
    assert!((h - (2.0f64 / 3.0).sqrt()).abs() < 1e-14, "{h}");
    // degenerate (flat) tet
    let flat = [
        [0.0, 0.0, 0.0],
        [1.0, 0.0, 0.0],
        [0.0, 1.0, 0.0],
        [1.0, 1.0, 0.0],
    ];
    assert_eq!(characteristic_length::<3>(ElementKind::Tet4, &flat), 0.0);
}
