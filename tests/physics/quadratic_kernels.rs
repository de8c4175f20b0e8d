//! Second-order element kernels: the energy-momentum identities and the
//! consistent tangent on distorted curved elements, the mass (consistent and
//! HRZ-lumped), the patch test on the committed Gmsh meshes, and the stable
//! step estimate against the elements' own eigenfrequencies.

use crate::common::fe::{energy, force_into};
use emcontact::fe::kernel::{self, StressEval};
use emcontact::fe::ElementKind;
use emcontact::material::{Material, NeoHookean, Svk};
use nalgebra::{DMatrix, Matrix3, Vector3};
use std::path::Path;

const KINDS_2D: [ElementKind; 3] = [ElementKind::Tri6, ElementKind::Quad8, ElementKind::Quad9];
const KINDS_3D: [ElementKind; 3] = [ElementKind::Tet10, ElementKind::Hex20, ElementKind::Hex27];

fn materials(lambda: f64, mu: f64) -> [Material; 2] {
    [
        Material::Svk(Svk { lambda, mu }),
        Material::NeoHookean(NeoHookean { lambda, mu }),
    ]
}

/// A repeatable number in [−1, 1] (a fixed linear congruential sequence).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
    }
    fn matrix(&mut self, d: usize, s: f64) -> Matrix3<f64> {
        let mut m = Matrix3::identity();
        for i in 0..d {
            for j in 0..d {
                m[(i, j)] += s * self.next();
            }
        }
        m
    }
}

/// `A x_a + t + s δ_a` for every node (z = 0 in 2D).
fn map(d: usize, x: &[[f64; 3]], a: &Matrix3<f64>, s: f64, r: &mut Lcg) -> Vec<[f64; 3]> {
    let t: [f64; 3] = std::array::from_fn(|_| r.next());
    x.iter()
        .map(|p| {
            let v = a * Vector3::new(p[0], p[1], p[2]);
            std::array::from_fn(|i| {
                if i < d {
                    v[i] + t[i] + s * r.next()
                } else {
                    0.0
                }
            })
        })
        .collect()
}

/// The internal force at `x = [xr, x0, x1]` (and with `k` the tangent).
fn force(
    d: usize,
    kind: ElementKind,
    m: &Material,
    [xr, x0, x1]: [&[[f64; 3]]; 3],
    eval: StressEval,
    k: Option<&mut [f64]>,
) -> Vec<f64> {
    let mut f = vec![0.0; kind.n_nodes() * d];
    force_into(d, kind, m, xr, x0, x1, eval, &mut f, k).unwrap();
    f
}

/// A curved, distorted reference element (midside nodes moved off their
/// edges) and two deformed configurations of it.
fn configuration(d: usize, kind: ElementKind, r: &mut Lcg) -> [Vec<[f64; 3]>; 3] {
    let a = r.matrix(d, 0.15);
    let xr = map(d, kind.reference_nodes(), &a, 0.05, r);
    let f0 = r.matrix(d, 0.2);
    let f1 = r.matrix(d, 0.2);
    let x0 = map(d, &xr, &f0, 0.03, r);
    let x1 = map(d, &xr, &f1, 0.03, r);
    [xr, x0, x1]
}

/// Energy-momentum identities of the midpoint force on every second-order
/// kind, both materials: `f·(x1 − x0) = Π(x1) − Π(x0)`, `Σ_a f_a = 0`,
/// `Σ_a x_{n+½,a} × f_a = 0`, to round-off (Simo & Tarnow 1992, Gonzalez
/// 2000: the identities hold at every quadrature point, so on any rule).
#[test]
fn energy_momentum_identities() {
    let mut r = Lcg(7);
    for (d, kinds) in [(2, KINDS_2D), (3, KINDS_3D)] {
        for kind in kinds {
            for m in materials(1.7, 0.9) {
                for _ in 0..4 {
                    let [xr, x0, x1] = configuration(d, kind, &mut r);
                    let f = force(d, kind, &m, [&xr, &x0, &x1], StressEval::Midpoint, None);
                    let work: f64 = (0..kind.n_nodes())
                        .map(|a| {
                            (0..d)
                                .map(|i| f[a * d + i] * (x1[a][i] - x0[a][i]))
                                .sum::<f64>()
                        })
                        .sum();
                    let de = energy(d, kind, &m, &xr, &x1) - energy(d, kind, &m, &xr, &x0);
                    let scale: f64 = f.iter().map(|v| v.abs()).sum::<f64>();
                    assert!(
                        (work - de).abs() <= 1e-13 * scale,
                        "{kind:?} {m:?}: work {work} vs ΔΠ {de}"
                    );
                    let mut lin = [0.0; 3];
                    let mut ang = Vector3::zeros();
                    for a in 0..kind.n_nodes() {
                        let mut fa = Vector3::zeros();
                        for i in 0..d {
                            lin[i] += f[a * d + i];
                            fa[i] = f[a * d + i];
                        }
                        let xm = Vector3::from_fn(|i, _| 0.5 * (x0[a][i] + x1[a][i]));
                        ang += xm.cross(&fa);
                    }
                    assert!(
                        lin.iter().all(|v| v.abs() < 1e-13 * scale),
                        "{kind:?}: Σf = {lin:?}"
                    );
                    assert!(ang.norm() < 1e-13 * scale * 3.0, "{kind:?}: Σx×f = {ang:?}");
                }
            }
        }
    }
}

/// The tangent is the derivative of the force (central differences,
/// h = 1e-6) for both stress evaluations and both materials.
#[test]
fn tangent_matches_differences() {
    let mut r = Lcg(11);
    for (d, kinds) in [(2, KINDS_2D), (3, KINDS_3D)] {
        for kind in kinds {
            let n = kind.n_nodes() * d;
            for m in materials(1.7, 0.9) {
                for eval in [StressEval::Midpoint, StressEval::EndPoint] {
                    let [xr, x0, x1] = configuration(d, kind, &mut r);
                    let mut k = vec![0.0; n * n];
                    force(d, kind, &m, [&xr, &x0, &x1], eval, Some(&mut k));
                    let h = 1e-6;
                    let mut worst: f64 = 0.0;
                    let kmax = k.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                    for b in 0..kind.n_nodes() {
                        for j in 0..d {
                            let (mut xp, mut xm) = (x1.clone(), x1.clone());
                            xp[b][j] += h;
                            xm[b][j] -= h;
                            let fp = force(d, kind, &m, [&xr, &x0, &xp], eval, None);
                            let fm = force(d, kind, &m, [&xr, &x0, &xm], eval, None);
                            for row in 0..n {
                                let fd = (fp[row] - fm[row]) / (2.0 * h);
                                worst = worst.max((fd - k[row * n + b * d + j]).abs());
                            }
                        }
                    }
                    assert!(
                        worst < 1e-6 * kmax,
                        "{kind:?} {eval:?}: tangent error {worst:e} of {kmax:e}"
                    );
                }
            }
        }
    }
}

fn mass(d: usize, kind: ElementKind, xr: &[[f64; 3]], lumped: bool) -> Vec<f64> {
    let n = kind.n_nodes();
    let mut m = vec![0.0; n * n];
    if d == 2 {
        kernel::mass::<2>(kind, 2.0, xr, lumped, &mut m).unwrap();
    } else {
        kernel::mass::<3>(kind, 2.0, xr, lumped, &mut m).unwrap();
    }
    m
}

/// Consistent and lumped mass both total `ρV`; the consistent row sums are
/// zero (tri6) or negative (quad8, tet10, hex20) at the corners, which is why
/// the lumped mass is HRZ, positive at every node; on undistorted quad9 and
/// hex27 HRZ equals the row sums.
#[test]
fn mass_totals_and_hrz_lumping() {
    let mut r = Lcg(3);
    for (d, kinds) in [(2, KINDS_2D), (3, KINDS_3D)] {
        for kind in kinds {
            let n = kind.n_nodes();
            // undistorted element: row sums at the corners
            let xr = kind.reference_nodes();
            let m = mass(d, kind, xr, false);
            let v = if d == 2 {
                kernel::volume::<2>(kind, xr).unwrap()
            } else {
                kernel::volume::<3>(kind, xr).unwrap()
            };
            let row = |a: usize| m[a * n..(a + 1) * n].iter().sum::<f64>();
            let corner = row(0) / (2.0 * v);
            let expected = match kind {
                ElementKind::Tri6 => 0.0,
                ElementKind::Quad8 => -1.0 / 12.0,
                ElementKind::Tet10 => -1.0 / 20.0,
                ElementKind::Hex20 => -1.0 / 8.0,
                ElementKind::Quad9 => 1.0 / 36.0,
                _ => 1.0 / 216.0,
            };
            assert!(
                (corner - expected).abs() < 1e-14,
                "{kind:?}: corner row sum {corner} of ρV"
            );
            let l = mass(d, kind, xr, true);
            if matches!(kind, ElementKind::Quad9 | ElementKind::Hex27) {
                for a in 0..n {
                    assert!(
                        (l[a * n + a] - row(a)).abs() < 1e-14,
                        "{kind:?}: HRZ ≠ row sum at {a}"
                    );
                }
            }
            // distorted curved elements: totals, positivity, diagonal
            for _ in 0..4 {
                let a = r.matrix(d, 0.15);
                let xr = map(d, kind.reference_nodes(), &a, 0.05, &mut r);
                let v = if d == 2 {
                    kernel::volume::<2>(kind, &xr).unwrap()
                } else {
                    kernel::volume::<3>(kind, &xr).unwrap()
                };
                let m = mass(d, kind, &xr, false);
                let l = mass(d, kind, &xr, true);
                let total: f64 = m.iter().sum();
                assert!(
                    (total - 2.0 * v).abs() < 1e-13 * v,
                    "{kind:?}: consistent total"
                );
                let lt: f64 = l.iter().sum();
                assert!((lt - 2.0 * v).abs() < 1e-13 * v, "{kind:?}: lumped total");
                for a in 0..n {
                    for b in 0..n {
                        if a == b {
                            assert!(
                                l[a * n + a] > 0.0,
                                "{kind:?}: lumped mass {} at node {a}",
                                l[a * n + a]
                            );
                        } else {
                            assert_eq!(l[a * n + b], 0.0);
                        }
                    }
                }
            }
        }
    }
}

/// Mesh file of the repository.
fn mesh_file(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("meshes")
        .join(name)
}

/// The patch test on the committed Gmsh meshes (curved rings in 2D,
/// unstructured tet10 and structured hex blocks in 3D): under an affine
/// motion `x = F X + t` every interior node's internal force vanishes (to
/// 1e-12 of the force scale), the stress at every node of every element is
/// the exact constant `σ = F S(FᵀF) Fᵀ / det F` (to 1e-10), both for the end-point and
/// the energy-momentum midpoint force (two affine configurations), both
/// materials.
#[test]
fn patch_test_on_gmsh_meshes() {
    for (file, d, body, surfaces) in [
        ("ring_tri6.msh41.msh", 2, "ring", &["outer", "inner"][..]),
        ("ring_quad8.msh22.msh", 2, "ring", &["outer", "inner"][..]),
        ("ring_quad9.msh41b.msh", 2, "ring", &["outer", "inner"][..]),
        (
            "block_tet10.msh22b.msh",
            3,
            "block",
            &["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"][..],
        ),
        (
            "block_hex20.msh41.msh",
            3,
            "block",
            &["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"][..],
        ),
        (
            "block_hex27.msh22.msh",
            3,
            "block",
            &["xmin", "xmax", "ymin", "ymax", "zmin", "zmax"][..],
        ),
    ] {
        let mesh = emcontact::mesh::read(&mesh_file(file), d).unwrap();
        let mut boundary = vec![false; mesh.nodes.len()];
        for s in surfaces {
            for a in mesh.group_nodes(s).unwrap() {
                boundary[a] = true;
            }
        }
        let g = mesh.group(body).unwrap();
        let mut r = Lcg(5);
        let fa = r.matrix(d, 0.2);
        let fb = r.matrix(d, 0.2);
        let affine = |f: &Matrix3<f64>, t: [f64; 3]| -> Vec<[f64; 3]> {
            mesh.nodes
                .iter()
                .map(|p| {
                    let v = f * Vector3::new(p[0], p[1], p[2]);
                    std::array::from_fn(|i| if i < d { v[i] + t[i] } else { 0.0 })
                })
                .collect()
        };
        let x0 = affine(&fa, [0.1, -0.2, 0.3]);
        let x1 = affine(&fb, [0.4, 0.1, -0.3]);
        for m in materials(1.7, 0.9) {
            for eval in [StressEval::EndPoint, StressEval::Midpoint] {
                let mut f = vec![0.0; mesh.nodes.len() * d];
                for e in &g.elements {
                    let pick = |x: &[[f64; 3]]| -> Vec<[f64; 3]> {
                        e.nodes().iter().map(|&a| x[a]).collect()
                    };
                    let (xr, e0, e1) = (pick(&mesh.nodes), pick(&x0), pick(&x1));
                    let fe = force(d, e.kind, &m, [&xr, &e0, &e1], eval, None);
                    for (k, &a) in e.nodes().iter().enumerate() {
                        for i in 0..d {
                            f[a * d + i] += fe[k * d + i];
                        }
                    }
                    if eval == StressEval::EndPoint {
                        let c = fb.transpose() * fb;
                        let exact = fb * m.stress(&c) * fb.transpose() / fb.determinant();
                        for k in 0..e.kind.n_nodes() {
                            let s = if d == 2 {
                                kernel::nodal_stress::<2>(e.kind, &m, &xr, &e1, k)
                            } else {
                                kernel::nodal_stress::<3>(e.kind, &m, &xr, &e1, k)
                            }
                            .unwrap();
                            // at the corners of the distorted curved ring
                            // elements J⁻¹ has a condition number of ~1e3:
                            // round-off, amplified that much
                            assert!(
                                (s - exact).norm() < 1e-10 * exact.norm(),
                                "{file}: nodal stress at local node {k}: {:e} of {:e}",
                                (s - exact).norm(),
                                exact.norm()
                            );
                        }
                    }
                }
                let scale = f.iter().fold(0.0f64, |a, v| a.max(v.abs()));
                let interior = boundary.iter().filter(|b| !**b).count();
                assert!(interior > 0, "{file}: no interior node");
                let worst = (0..mesh.nodes.len())
                    .filter(|&a| !boundary[a])
                    .flat_map(|a| (0..d).map(move |i| a * d + i))
                    .fold(0.0f64, |w, k| w.max(f[k].abs()));
                println!("{file} {eval:?}: worst interior force {worst:.2e} of {scale:.2e} ({interior} interior nodes)");
                assert!(
                    worst < 1e-12 * scale,
                    "{file} {eval:?}: interior force {worst:e} of {scale:e}"
                );
            }
        }
    }
}

/// The largest eigenfrequency `ω_max` of `M⁻¹K` of one element at rest
/// (lumped mass, the end-point tangent), in 2D or 3D.
fn omega_max(d: usize, kind: ElementKind, m: &Material, xr: &[[f64; 3]]) -> f64 {
    let n = kind.n_nodes() * d;
    let mut k = vec![0.0; n * n];
    force(d, kind, m, [xr, xr, xr], StressEval::EndPoint, Some(&mut k));
    let lm = mass(d, kind, xr, true);
    let nn = kind.n_nodes();
    let s = DMatrix::from_fn(n, n, |i, j| {
        let (mi, mj) = (
            lm[(i / d) * nn + i / d] / 2.0,
            lm[(j / d) * nn + j / d] / 2.0,
        );
        0.5 * (k[i * n + j] + k[j * n + i]) / (mi * mj).sqrt()
    });
    s.symmetric_eigenvalues().max().sqrt()
}

/// The stable step estimate `h/c` of `check` against each element's own
/// stable step `2/ω_max` (unit element, density 1): for every kind, first and
/// second order, at ν = 0 and 0.3, `h/c` is within 0.9–1.45× of it, so a
/// second-order mesh is not credited with the first-order step of its corners
/// (that would overstate its stable step 2.5–4×).
#[test]
fn stable_step_estimate_follows_the_eigenfrequencies() {
    for kind in ElementKind::ALL.into_iter().filter(|k| k.ref_dim() >= 2) {
        let d = kind.ref_dim();
        let xr: Vec<[f64; 3]> = kind
            .reference_nodes()
            .iter()
            .map(|p| {
                if kind.is_simplex() {
                    *p
                } else {
                    p.map(|v| 0.5 * (v + 1.0))
                }
            })
            .collect();
        for nu in [0.0, 0.3] {
            let (lambda, mu) = emcontact::material::lame(1.0, nu);
            let m = Material::Svk(Svk { lambda, mu });
            let c = m.p_wave_modulus().sqrt();
            let h = if d == 2 {
                kernel::characteristic_length::<2>(kind, &xr)
            } else {
                kernel::characteristic_length::<3>(kind, &xr)
            };
            let ratio = (h / c) / (2.0 / omega_max(d, kind, &m, &xr));
            println!("{kind:?} ν = {nu}: h/c = {ratio:.3} × 2/ω_max");
            assert!(
                (0.9..=1.45).contains(&ratio),
                "{kind:?} ν = {nu}: h/c is {ratio:.3} × 2/ω_max"
            );
        }
    }
    assert_eq!(kernel::second_order_factor(ElementKind::Hex8), 1.0);
}
