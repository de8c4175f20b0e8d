//! Shared helpers for the fe kernel tests: random distorted element configurations.

use emcontact::fe::kernel::{internal_force, KernelError, StressEval};
use emcontact::fe::{ElementKind, QuadPoint, MAX_NODES};
use emcontact::material::{Material, NeoHookean, Svk};
use nalgebra::{Matrix3, Vector3};

pub const LAMBDA: f64 = 1.7;
pub const MU: f64 = 0.9;

pub fn materials() -> [Material; 2] {
    [
        Material::Svk(Svk {
            lambda: LAMBDA,
            mu: MU,
        }),
        Material::NeoHookean(NeoHookean {
            lambda: LAMBDA,
            mu: MU,
        }),
    ]
}

pub const EVALS: [StressEval; 2] = [StressEval::Midpoint, StressEval::EndPoint];

/// Body element kinds of dimension `d`.
pub fn kinds(d: usize) -> [ElementKind; 2] {
    if d == 2 {
        [ElementKind::Tri3, ElementKind::Quad4]
    } else {
        [ElementKind::Tet4, ElementKind::Hex8]
    }
}

/// 90 fixed numbers in [−1, 1] for `config`: `(i·a mod p) / half − 1`,
/// i = 0…89.
pub fn fixed_numbers(a: usize, p: usize, half: f64) -> Vec<f64> {
    (0..90).map(|i| ((i * a % p) as f64 / half) - 1.0).collect()
}

/// Reads numbers in [-1, 1] one after another.
pub struct Draw<'a> {
    r: &'a [f64],
    i: usize,
}

impl<'a> Draw<'a> {
    pub fn new(r: &'a [f64]) -> Self {
        Draw { r, i: 0 }
    }
    pub fn next(&mut self) -> f64 {
        let v = self.r[self.i % self.r.len()];
        self.i += 1;
        v
    }
    /// A 3×3 matrix `I + s·P` (only the in-plane block in 2D).
    pub fn near_identity(&mut self, d: usize, s: f64) -> Matrix3<f64> {
        let mut m = Matrix3::identity();
        for i in 0..d {
            for j in 0..d {
                m[(i, j)] += s * self.next();
            }
        }
        m
    }
}

/// Node positions `x_a = A X_a + t + s·δ_a` (z = 0 in 2D).
pub fn deform(
    d: usize,
    x: &[[f64; 3]],
    a: &Matrix3<f64>,
    s: f64,
    draw: &mut Draw,
) -> Vec<[f64; 3]> {
    let t: Vec<f64> = (0..3).map(|_| draw.next()).collect();
    x.iter()
        .map(|p| {
            let v = a * Vector3::new(p[0], p[1], p[2]);
            let mut out = [0.0; 3];
            for i in 0..d {
                out[i] = v[i] + t[i] + s * draw.next();
            }
            out
        })
        .collect()
}

/// A distorted reference element and two deformed configurations of it.
pub struct Config {
    pub xref: Vec<[f64; 3]>,
    pub x0: Vec<[f64; 3]>,
    pub x1: Vec<[f64; 3]>,
}

/// Random configuration: reference = the reference element under `I + 0.15P` plus
/// nodal noise 0.08; `x0`, `x1` = reference under `I + 0.2P` plus noise 0.04.
pub fn config(kind: ElementKind, d: usize, r: &[f64]) -> Config {
    let mut dr = Draw::new(r);
    let a = dr.near_identity(d, 0.15);
    let xref = deform(d, kind.reference_nodes(), &a, 0.08, &mut dr);
    let f0 = dr.near_identity(d, 0.2);
    let x0 = deform(d, &xref, &f0, 0.04, &mut dr);
    let f1 = dr.near_identity(d, 0.2);
    let x1 = deform(d, &xref, &f1, 0.04, &mut dr);
    Config { xref, x0, x1 }
}

/// Internal force and (with `k`) tangent into `f` and `k`, dispatched on the
/// runtime dimension.
#[allow(clippy::too_many_arguments)]
pub fn force_into(
    d: usize,
    kind: ElementKind,
    m: &Material,
    xref: &[[f64; 3]],
    x0: &[[f64; 3]],
    x1: &[[f64; 3]],
    eval: StressEval,
    f: &mut [f64],
    k: Option<&mut [f64]>,
) -> Result<(), KernelError> {
    if d == 2 {
        internal_force::<2>(kind, m, xref, x0, x1, eval, f, k)
    } else {
        internal_force::<3>(kind, m, xref, x0, x1, eval, f, k)
    }
}

/// Internal force (fresh vector) — dispatches on the runtime dimension.
pub fn force(
    d: usize,
    kind: ElementKind,
    m: &Material,
    c: &Config,
    x1: &[[f64; 3]],
    eval: StressEval,
    k: Option<&mut [f64]>,
) -> Result<Vec<f64>, KernelError> {
    let mut f = vec![0.0; kind.n_nodes() * d];
    force_into(d, kind, m, &c.xref, &c.x0, x1, eval, &mut f, k)?;
    Ok(f)
}

pub fn energy(d: usize, kind: ElementKind, m: &Material, xref: &[[f64; 3]], x: &[[f64; 3]]) -> f64 {
    if d == 2 {
        emcontact::fe::kernel::strain_energy::<2>(kind, m, xref, x).unwrap()
    } else {
        emcontact::fe::kernel::strain_energy::<3>(kind, m, xref, x).unwrap()
    }
}

/// Shape values and reference gradients of `kind` at `xi`.
pub fn shape_at(kind: ElementKind, xi: [f64; 3]) -> ([f64; MAX_NODES], [[f64; 3]; MAX_NODES]) {
    let mut n = [0.0; MAX_NODES];
    let mut dn = [[0.0; 3]; MAX_NODES];
    kind.shape(&xi, &mut n, &mut dn);
    (n, dn)
}

/// Every point of `rule`, a quadrature rule of `kind`, has a positive
/// weight and lies strictly inside the element: the shape values of its
/// first-order kind are all positive there.
pub fn assert_rule_inside(kind: ElementKind, rule: &[QuadPoint]) {
    for q in rule {
        assert!(q.weight > 0.0, "{kind:?}: weight {}", q.weight);
        let (n, _) = shape_at(kind.linear(), q.xi);
        assert!(
            n[..kind.n_corners()].iter().all(|&v| v > 0.0),
            "{kind:?}: {:?} outside",
            q.xi
        );
    }
}
