//! Contact multipliers as sparse unknowns: pseudo-nodes anchored to a
//! surface node (`LinearSolver::set_pattern`'s `anchored`) are ordered
//! right after their anchor, fall into its supernode, and the saddle-point
//! system `[K −H; C 0]`, whose multiplier diagonal blocks are exactly zero,
//! is solved to the solver's residual contract, with and without the
//! contact nodes ordered last, and on the iterative path with the coupled
//! block-Jacobi preconditioner.

use super::matrices::{
    hex8_cells, multipliers, quad4_cells, relative_residual, rhs, round_off_floor, stiffness,
    Multiplier,
};
use emcontact::linalg::{
    BlockPattern, FillOrdering, LinearMethod, LinearParams, LinearSolver, LuParams,
    OrderConstraints, SupernodalLu, SymbolicFactor,
};

/// The residual every `Ok` solve of `LinearSolver` reaches (its `rtol`).
const CONTRACT: f64 = 1e-12;

/// A saddle-point model: its pattern, values, anchored pairs and surface nodes.
pub struct Saddle {
    pub pattern: BlockPattern,
    pub values: Vec<f64>,
    pub anchored: Vec<(usize, usize)>,
    pub surface: Vec<usize>,
}

fn build(dim: usize, n_nodes: usize, cells: &[Vec<usize>], mult: &[Multiplier]) -> Saddle {
    let mut lists = cells.to_vec();
    for m in mult {
        lists.extend(m.to.iter().map(|&q| vec![m.node, q]));
    }
    let total = n_nodes + mult.len();
    let pattern = BlockPattern::new(total, dim, lists.iter().map(|l| &l[..]));
    let mut values = vec![0.0; pattern.nnz()];
    stiffness(&pattern, cells, 0.1, &mut values);
    multipliers(&pattern, mult, &mut values);
    let mut surface: Vec<usize> = mult.iter().flat_map(|m| m.to.iter().copied()).collect();
    surface.sort_unstable();
    surface.dedup();
    Saddle {
        pattern,
        values,
        anchored: mult.iter().map(|m| (m.node, m.to[0])).collect(),
        surface,
    }
}

/// A 4³-cell hex8 grid (3 dofs per node) with a multiplier at each interior
/// node of the top face, coupled to it and its four neighbours in the
/// face, and a second multiplier on the centre node, coupled to it and its
/// four diagonal neighbours (two pseudo-nodes on one anchor).
pub fn grid_3d() -> Saddle {
    let m = 4;
    let id = |i: usize, j: usize| (m * (m + 1) + j) * (m + 1) + i;
    let n_nodes = (m + 1).pow(3);
    let mut mult = Vec::new();
    for j in 1..m {
        for i in 1..m {
            mult.push(Multiplier {
                node: n_nodes + mult.len(),
                to: vec![
                    id(i, j),
                    id(i - 1, j),
                    id(i + 1, j),
                    id(i, j - 1),
                    id(i, j + 1),
                ],
                w: vec![1.0, -0.25, -0.25, -0.25, -0.25],
            });
        }
    }
    mult.push(Multiplier {
        node: n_nodes + mult.len(),
        to: vec![id(2, 2), id(1, 1), id(3, 1), id(1, 3), id(3, 3)],
        w: vec![1.0, -0.2, -0.3, -0.2, -0.3],
    });
    build(3, n_nodes, &hex8_cells(m), &mult)
}

/// A 6²-cell quad4 grid (2 dofs per node) with a multiplier at each
/// interior node of the top edge, coupled to it and its two neighbours.
pub fn grid_2d() -> Saddle {
    let m = 6;
    let id = |i: usize| m * (m + 1) + i;
    let n_nodes = (m + 1).pow(2);
    let mult: Vec<Multiplier> = (1..m)
        .map(|i| Multiplier {
            node: n_nodes + i - 1,
            to: vec![id(i), id(i - 1), id(i + 1)],
            w: vec![1.0, -0.3, -0.2],
        })
        .collect();
    build(2, n_nodes, &quad4_cells(m), &mult)
}

/// Every pseudo-node's dofs come right after its anchor's (after the
/// pseudo-nodes anchored there before it) and in the anchor's supernode.
fn assert_anchored(sym: &SymbolicFactor, s: &Saddle) {
    let d = s.pattern.dim();
    let (_, inv) = sym.perm();
    let sup = sym.sup_of_col();
    let mut before = std::collections::HashMap::new();
    for &(p, a) in &s.anchored {
        let k: &mut usize = before.entry(a).or_default();
        *k += 1;
        assert_eq!(
            inv[p * d],
            inv[a * d] + *k * d,
            "pseudo-node {p} is not right after its anchor {a}"
        );
        for i in 0..d {
            assert_eq!(
                inv[p * d + i],
                inv[p * d] + i,
                "a node's dofs stay together"
            );
            assert_eq!(
                sup[inv[p * d + i]],
                sup[inv[a * d]],
                "pseudo-node {p} is not in its anchor's supernode"
            );
        }
    }
}

#[test]
fn anchored_pseudo_nodes_fall_into_their_anchors_supernode() {
    for s in [grid_3d(), grid_2d()] {
        for ordering in [FillOrdering::Amd, FillOrdering::Metis] {
            for last in [&[][..], &s.surface[..]] {
                let c = OrderConstraints {
                    last,
                    anchored: &s.anchored,
                };
                let sym = SymbolicFactor::with_constraints(&s.pattern, ordering, None, c).unwrap();
                assert_anchored(&sym, &s);
                // the supernodal LU pivots the zero diagonal inside the
                // supernode: the factors alone (no refinement) solve it to
                // the round-off of the solution
                let mut lu = SupernodalLu::new(&sym, &s.pattern);
                lu.factorize(&sym, &s.values, LuParams::default()).unwrap();
                let b = rhs(s.pattern.n());
                let mut x = b.clone();
                let (mut w1, mut w2) = (Vec::new(), Vec::new());
                lu.solve_in_place(&sym, &mut x, 1, &mut w1, &mut w2);
                let res = relative_residual(&s.pattern, &s.values, &x, &b);
                let floor = round_off_floor(&s.pattern, &s.values, &x, &b);
                assert!(
                    res <= 4.0 * floor,
                    "dim {}, {ordering:?}, {} nodes last: factors' residual {res:e}, round-off floor {floor:e}",
                    s.pattern.dim(),
                    last.len()
                );
            }
        }
    }
}

#[test]
fn saddle_point_systems_solve_to_the_contract_with_and_without_the_contact_nodes_last() {
    for s in [grid_3d(), grid_2d()] {
        for volatile in [&[][..], &s.surface[..]] {
            // nested dissection: the solver keeps the contact nodes last
            // (on these small grids AMD's constrained ordering costs more
            // than the solver's fill bound allows)
            let params = LinearParams {
                method: LinearMethod::Direct,
                ordering: FillOrdering::Metis,
                ..Default::default()
            };
            let mut solver = LinearSolver::new(&s.pattern, params).unwrap();
            solver
                .set_pattern(&s.pattern, volatile, &s.anchored)
                .unwrap();
            if !volatile.is_empty() {
                let (_, trailing) = solver.factor_flops().unwrap();
                assert!(trailing > 0.0, "the contact nodes are ordered last");
            }
            solver.factorize(&s.values).unwrap();
            let b = rhs(s.pattern.n());
            let mut x = b.clone();
            let info = solver.solve_in_place(&mut x).unwrap();
            let res = relative_residual(&s.pattern, &s.values, &x, &b);
            let what = format!("dim {}, {} volatile", s.pattern.dim(), volatile.len());
            let floor = round_off_floor(&s.pattern, &s.values, &x, &b);
            assert!(
                floor < CONTRACT,
                "{what}: the contract is reachable ({floor:e})"
            );
            assert!(res <= CONTRACT, "{what}: residual {res:e}");
            assert!(
                info.residual <= CONTRACT,
                "{what}: claimed {:e}",
                info.residual
            );
        }
    }
}

/// The saddle model's values with `gamma` added on the diagonal of every
/// multiplier row (the saddle path's proximal term).
fn proximal(s: &Saddle, gamma: f64) -> Vec<f64> {
    let mut v = s.values.clone();
    let d = s.pattern.dim();
    for &(q, _) in &s.anchored {
        for i in 0..d {
            v[s.pattern.diagonal_position(q * d + i)] += gamma;
        }
    }
    v
}

/// The coupled block Jacobi of the iterative path
/// (`BlockJacobi::coupled`): each anchor with its pseudo-nodes is one
/// block, inverted exactly. Applied to `y = blockdiag(A_GG) x` it gives
/// back `x` (the groups: the centre node of `grid_3d` anchors two
/// pseudo-nodes). Node-block Jacobi alone meets the multipliers' zero
/// diagonal blocks, and so does the coupled block of an anchor with two
/// such pseudo-nodes (`grid_3d`'s centre): a proximal term makes it regular.
#[test]
fn coupled_block_jacobi_inverts_each_anchor_with_its_multipliers() {
    use emcontact::linalg::{BlockJacobi, Operator};
    for s in [grid_3d(), grid_2d()] {
        let p = &s.pattern;
        let d = p.dim();
        let mut op = Operator::new(p);
        op.values.copy_from_slice(&s.values);
        assert!(
            BlockJacobi::new(&op).is_err(),
            "the multipliers' own blocks are singular"
        );
        assert_eq!(BlockJacobi::coupled(&op, &s.anchored).is_err(), d == 3);
        let values = proximal(&s, 1e-3);
        op.values.copy_from_slice(&values);
        let m = BlockJacobi::coupled(&op, &s.anchored).unwrap();
        let anchors: std::collections::BTreeSet<usize> = s.anchored.iter().map(|a| a.1).collect();
        assert_eq!(m.coupled_blocks(), anchors.len());
        // the group of every node: its anchor's (or its own)
        let mut group: Vec<usize> = (0..p.n_nodes()).collect();
        for &(q, a) in &s.anchored {
            group[q] = a;
        }
        let x: Vec<f64> = (0..p.n())
            .map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0)
            .collect();
        let mut y = vec![0.0; p.n()];
        for a in 0..p.n_nodes() {
            for b in (0..p.n_nodes()).filter(|&b| group[b] == group[a]) {
                let Some(off) = p.block_offset(a, b) else {
                    continue;
                };
                for i in 0..d {
                    for j in 0..d {
                        y[a * d + i] += values[p.position(off, i, b, j)] * x[b * d + j];
                    }
                }
            }
        }
        m.apply(&mut y);
        for (i, (got, want)) in y.iter().zip(&x).enumerate() {
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "dim {d}, dof {i}: {got} against {want}"
            );
        }
    }
}

/// The block-triangular preconditioner with local Schur complements
/// (`LocalSchur`) inverts `M = [D 0; K_pu S]` exactly, `D` the bodies'
/// node blocks and `S_p = K_pp − Σ_a K_pa K_aa⁻¹ K_ap` over the nodes `a`
/// point `p` couples to, with the multipliers' zero diagonal blocks and
/// two points on one anchor (`grid_3d`'s centre).
#[test]
fn local_schur_preconditioner_inverts_its_block_triangle() {
    use emcontact::linalg::{LocalSchur, Operator};
    use nalgebra::{DMatrix, DVector};
    for s in [grid_3d(), grid_2d()] {
        let p = &s.pattern;
        let d = p.dim();
        let pseudo: Vec<usize> = s.anchored.iter().map(|a| a.0).collect();
        let blk = |a: usize, b: usize| {
            let mut m = DMatrix::<f64>::zeros(d, d);
            if let Some(off) = p.block_offset(a, b) {
                for i in 0..d {
                    for j in 0..d {
                        m[(i, j)] = s.values[p.position(off, i, b, j)];
                    }
                }
            }
            m
        };
        let seg = |v: &[f64], a: usize| DVector::from_column_slice(&v[a * d..(a + 1) * d]);
        let x: Vec<f64> = (0..p.n())
            .map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0)
            .collect();
        let mut y = vec![0.0; p.n()];
        for a in (0..p.n_nodes()).filter(|a| !pseudo.contains(a)) {
            let ya = blk(a, a) * seg(&x, a);
            y[a * d..(a + 1) * d].copy_from_slice(ya.as_slice());
        }
        for &q in &pseudo {
            let mut yq = blk(q, q) * seg(&x, q);
            for a in (0..p.n_nodes()).filter(|a| !pseudo.contains(a)) {
                if p.block_offset(q, a).is_none() {
                    continue;
                }
                let kinv = blk(a, a).try_inverse().unwrap();
                yq += blk(q, a) * (seg(&x, a) - kinv * blk(a, q) * seg(&x, q));
            }
            y[q * d..(q + 1) * d].copy_from_slice(yq.as_slice());
        }
        let mut op = Operator::new(p);
        op.values.copy_from_slice(&s.values);
        LocalSchur::new(&op, &s.anchored).unwrap().apply(&mut y);
        for (i, (got, want)) in y.iter().zip(&x).enumerate() {
            assert!(
                (got - want).abs() <= 1e-9 * want.abs().max(1.0),
                "dim {d}, dof {i}: {got} against {want}"
            );
        }
    }
}

/// On the iterative path the saddle-point systems (zero multiplier
/// diagonal blocks) solve to the contract, preconditioned by the coupled
/// block Jacobi of the anchors `set_pattern` was given.
#[test]
fn saddle_point_systems_solve_to_the_contract_on_the_iterative_path() {
    for s in [grid_3d(), grid_2d()] {
        let params = LinearParams {
            method: LinearMethod::Iterative,
            ..Default::default()
        };
        let mut solver = LinearSolver::new(&s.pattern, params).unwrap();
        solver.set_pattern(&s.pattern, &[], &s.anchored).unwrap();
        solver.update(&s.values).unwrap();
        let b = rhs(s.pattern.n());
        let mut x = b.clone();
        let info = solver.solve_in_place(&mut x).unwrap();
        let res = relative_residual(&s.pattern, &s.values, &x, &b);
        let what = format!("dim {}", s.pattern.dim());
        assert!(res <= CONTRACT, "{what}: residual {res:e}");
        assert!(
            info.residual <= CONTRACT,
            "{what}: claimed {:e}",
            info.residual
        );
        assert!(info.iterations > 0, "{what}: GMRES ran");
    }
}
