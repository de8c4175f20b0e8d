//! Real Newton matrices as fixtures (`tests/data/tangents/`): the coarse
//! friction blocks (8×8×4 + 4×4×4 hex8, 1,590 dofs, μ = 0.8) in their first
//! contact step with exact enforcement (the bodies' midpoint tangent and
//! mass; the contact enters through `W`) and with penalty enforcement (the
//! frictional penalty stiffness in the matrix as well: `max|A − Aᵀ|` is
//! 0.8 `max|A|` against 0.04), and the two rings of
//! `inputs/ring_impact.toml` in contact (2D, 2 dofs per node, t = 0.65).
//! Each is solved by the linear solver to its contract.
//!
//! `cargo test --release --test suite -- --ignored dump_real_tangents`
//! writes them again from the current code.

use super::matrices::{relative_residual, rhs, round_off_floor};
use emcontact::driver;
use emcontact::dynamics::{State, Stepper};
use emcontact::input;
use emcontact::linalg::{BlockPattern, LinearMethod, LinearParams, LinearSolver};
use std::path::{Path, PathBuf};

/// The residual every `Ok` solve of `LinearSolver` reaches (its `rtol`),
/// or a multiple of the round-off floor where that is above it.
const CONTRACT: f64 = 1e-12;
const FLOOR_FACTOR: f64 = 64.0;

const MAGIC: &[u8; 8] = b"EMCTAN01";

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tangents")
        .join(name)
}

/// Writes `pattern` and `values`: the magic, `dim`, the node count and the
/// node adjacency (CSC of the node graph, `u32`), a bitmap of the nonzero
/// values (a quarter of the stored entries are zeros: fixed dofs, contact
/// couplings without contact) and those values (`f64`), all little-endian.
fn write(name: &str, pattern: &BlockPattern, values: &[f64]) {
    let g = pattern.node_graph();
    let mut out = MAGIC.to_vec();
    let u32s = |out: &mut Vec<u8>, v: &[usize]| {
        for &x in v {
            out.extend_from_slice(&u32::try_from(x).unwrap().to_le_bytes());
        }
    };
    u32s(
        &mut out,
        &[pattern.dim(), pattern.n_nodes(), g.row_idx().len()],
    );
    u32s(&mut out, g.col_ptr());
    u32s(&mut out, g.row_idx());
    let mut bits = vec![0u8; values.len().div_ceil(8)];
    for (k, v) in values.iter().enumerate() {
        bits[k / 8] |= ((*v != 0.0) as u8) << (k % 8);
    }
    out.extend_from_slice(&bits);
    for v in values.iter().filter(|v| **v != 0.0) {
        out.extend_from_slice(&v.to_le_bytes());
    }
    std::fs::create_dir_all(data("")).unwrap();
    std::fs::write(data(name), out).unwrap();
}

/// Reads what [`write`] wrote.
fn read(name: &str) -> (BlockPattern, Vec<f64>) {
    let bytes = std::fs::read(data(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(&bytes[..8], MAGIC, "{name}: not a tangent fixture");
    let mut at = 8;
    let mut u32s = |k: usize| -> Vec<usize> {
        let v = bytes[at..at + 4 * k]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()) as usize)
            .collect();
        at += 4 * k;
        v
    };
    let head = u32s(3);
    let (dim, n_nodes, n_adj) = (head[0], head[1], head[2]);
    let col_ptr = u32s(n_nodes + 1);
    let row_idx = u32s(n_adj);
    let pairs = (0..n_nodes).flat_map(|b| {
        row_idx[col_ptr[b]..col_ptr[b + 1]]
            .iter()
            .map(move |&a| (a, b))
    });
    let pattern = BlockPattern::new(n_nodes, dim, std::iter::empty()).with_couplings(pairs);
    let nnz = pattern.nnz();
    let bits = &bytes[at..at + nnz.div_ceil(8)];
    let mut vals = bytes[at + nnz.div_ceil(8)..]
        .chunks_exact(8)
        .map(|c| f64::from_le_bytes(c.try_into().unwrap()));
    let values: Vec<f64> = (0..nnz)
        .map(|k| match bits[k / 8] >> (k % 8) & 1 {
            1 => vals.next().expect("a value per set bit"),
            _ => 0.0,
        })
        .collect();
    assert!(vals.next().is_none(), "{name}: values of another pattern");
    (pattern, values)
}

/// Steps `stepper` from `s` to `t_end` by `dt`, halving a step that fails.
fn advance<const D: usize>(stepper: &mut Stepper<D>, mut s: State, t_end: f64, dt: f64) -> State {
    while s.t < t_end - 1e-12 {
        let mut h = dt.min(t_end - s.t);
        loop {
            match stepper.step(&s, h) {
                Ok((next, _)) => {
                    s = next;
                    break;
                }
                Err(e) if h > dt / 64.0 => {
                    eprintln!("t = {}: {e}; dt = {}", s.t, h / 2.0);
                    h /= 2.0;
                }
                Err(e) => panic!("t = {}: {e}", s.t),
            }
        }
    }
    s
}

/// The model of an input file, with `edit` applied to its text.
fn model(file: &str, edit: impl Fn(String) -> String) -> emcontact::model::Model {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let text = edit(std::fs::read_to_string(&path).unwrap());
    input::parse(&path, &text).unwrap()
}

#[test]
#[ignore = "writes the fixtures; run with -- --ignored dump_real_tangents"]
fn dump_real_tangents() {
    let blocks = "validation/friction_blocks/stick_mu08.toml";
    for (name, enforcement, t_end) in [
        ("blocks_exact.bin", None, 0.3),
        ("blocks_penalty.bin", Some("penalty"), 0.25),
    ] {
        let m = model(blocks, |t| match enforcement {
            Some(e) => t.replace(
                "friction = 0.8\n",
                &format!("friction = 0.8\nenforcement = \"{e}\"\n"),
            ),
            None => t,
        });
        let (mut stepper, s0) = driver::setup::<3>(&m).unwrap();
        advance(&mut stepper, s0, t_end, m.time.dt);
        let (p, v) = stepper.lu.matrix();
        write(name, p, v);
    }
    let m = model("inputs/ring_impact.toml", |t| t);
    let (mut stepper, s0) = driver::setup::<2>(&m).unwrap();
    advance(&mut stepper, s0, 0.65, m.time.dt);
    let (p, v) = stepper.lu.matrix();
    write("ring.bin", p, v);
}

#[test]
fn real_tangents_solve_to_the_contract() {
    for name in ["blocks_exact.bin", "blocks_penalty.bin", "ring.bin"] {
        let (p, values) = read(name);
        let params = LinearParams {
            method: LinearMethod::Direct,
            ..Default::default()
        };
        let mut solver = LinearSolver::new(&p, params).unwrap();
        solver.factorize(&values).unwrap();
        // a load on every dof, and a known solution's load
        let known: Vec<f64> = (0..p.n()).map(|i| (i as f64 * 0.1).cos()).collect();
        let mut b_known = vec![0.0; p.n()];
        p.mul(&values, &known, &mut b_known);
        for b in [rhs(p.n()), b_known] {
            let mut x = b.clone();
            let info = solver.solve_in_place(&mut x).unwrap();
            let res = relative_residual(&p, &values, &x, &b);
            let floor = round_off_floor(&p, &values, &x, &b);
            let contract = CONTRACT.max(FLOOR_FACTOR * floor);
            assert!(
                res <= contract,
                "{name}: residual {res:e}, round-off floor {floor:e}"
            );
            assert!(info.residual <= contract, "{name}: claimed {info:?}");
        }
        // the midpoint tangents are unsymmetric, the penalty one most (its
        // frictional stiffness)
        let t = p.transpose_positions();
        let asym = values
            .iter()
            .enumerate()
            .map(|(k, v)| (v - values[t[k]]).abs())
            .fold(0.0, f64::max);
        let amax = values.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(asym > 1e-3 * amax, "{name}: a symmetric matrix");
    }
}
