//! Contact multipliers as sparse unknowns: pseudo-nodes anchored to a
//! surface node (`LinearSolver::set_pattern`'s `anchored`) are ordered
//! right after their anchor, fall into its supernode, and the saddle-point
//! system `[K −H; C 0]`, whose multiplier diagonal blocks are exactly zero,
//! is solved to the solver's residual contract, with and without the
//! contact nodes ordered last.

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
