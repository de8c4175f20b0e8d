//! The velocity update of Love & Laursen 2003, §3.3–3.5 (eqs. 72–78, 86–87;
//! DESIGN §6): after the step converges, impulse magnitudes `κ^l ≥ 0` solve the
//! coupled quadratics
//!
//! ```text
//! F_l(κ) = κ_l Σ_k A_lk κ_k + b_l κ_l + c_l = 0      (eq. 75)
//! ```
//!
//! with `A_lk = ½ (w j G^l)·M⁻¹(w j G^k)`, `b_l = (w j G^l)·(2Δx/Δt − v_n)`,
//! `c_l = Δt w j (p_N v_N + t_T·v_T + D^l)`. Then `M v^c = Σ κ^l w j G^l` and the
//! total energy changes by exactly `−Δt Σ w j D^l + Σ_l F_l(κ)`: the second sum is
//! the *energy defect*, zero when every equation is solved.
//!
//! Solution: nonlinear Gauss–Seidel over the points, each point taking the root
//! of its own quadratic with the others fixed: the admissible root of least
//! magnitude, so that `κ → 0` as `c → 0`. With `c_l ≤ 0` and `b_l ≥ 0` that is
//! the unique non-negative one (the impulse pushes along the contact force);
//! with `c_l > 0` (the step created energy at that point) and `b_l < 0` the
//! smaller positive root. With `c_l < 0` and `b_l < 0` (a sliding point: its
//! velocity along `G` opposes the friction that `G` carries) the non-negative
//! root is `≥ |b_l|/A_ll`, a reflection of the whole velocity component along
//! `G` whatever the size of `c_l`; the small negative root `≈ −c_l/b_l` is
//! taken instead while it is admissible (below). Taking the large root there
//! gave the sliding friction blocks impulses of 1–3 Δt at points whose `c` was
//! 1e-8 of the step's contact work: the balance held, the motion did not. The points couple only through shared nodes (lumped mass)
//! or weakly through `M⁻¹` (consistent mass), so the sweeps contract fast.
//!
//! **Energy created by a pressure that separates.** With `c_l > 0` and
//! `b_l > 0` both roots are negative. That happens where the step let a
//! pressure do positive work: an augmented-Lagrangian point converges with
//! `Δt|v_N| ≤ tol`, not 0, and an unloading one approaches its multiplier from
//! above and ends slightly separating; a point whose drifted gap is pushed
//! back out ([`crate::contact::law::guarded_law`]) separates by design. The
//! root of least magnitude is taken when it is at least `κ_min = −Δt/2`: it
//! withdraws part of the point's impulse (the step applied `Δt w j G` at the
//! midpoint, the update adds `κ w j G` with the same magnitudes at `n+1`), so
//! the point's net impulse still pushes and stays in the friction cone, and
//! the work it did is taken back exactly. (DESIGN §6 reads "take the
//! non-negative root": that is the rule for `c ≤ 0`; it has no root for
//! `c > 0 < b`.) Energy that would need more than that, or with no real root,
//! is not taken back: `κ_l = 0` and the point's `F_l` is reported as the
//! *defect* (DESIGN §6: never hidden). Momentum is unaffected by the sign of
//! `κ` (the identities of DESIGN §5).

/// A symmetric matrix stored as sparse rows `(column, value)`, diagonal included.
#[derive(Debug, Clone, Default)]
pub struct SparseRows {
    pub rows: Vec<Vec<(usize, f64)>>,
}

impl SparseRows {
    fn diag(&self, l: usize) -> f64 {
        self.rows[l]
            .iter()
            .find(|(k, _)| *k == l)
            .map(|e| e.1)
            .unwrap_or(0.0)
    }

    fn off_diag_dot(&self, l: usize, x: &[f64]) -> f64 {
        self.rows[l]
            .iter()
            .filter(|(k, _)| *k != l)
            .map(|(k, v)| v * x[*k])
            .sum()
    }

    fn dot(&self, l: usize, x: &[f64]) -> f64 {
        self.rows[l].iter().map(|(k, v)| v * x[*k]).sum()
    }
}

/// Outcome of the impulse solve.
#[derive(Debug, Clone, PartialEq)]
pub struct Impulses {
    pub kappa: Vec<f64>,
    /// Points whose equation has no admissible root (`κ = 0` there).
    pub unsolved: Vec<usize>,
    /// `Σ_l F_l(κ)`: energy the update could not restore (positive: gained).
    pub defect: f64,
    /// Energy the unsolvable points left over that other points took back
    /// (module docs, "Points without a root"): `Σ_l s_l`.
    pub redistributed: f64,
    pub sweeps: usize,
}

/// Root of `α κ² + β κ + c = 0` by the rule in the module docs, or `None`.
/// `kappa_min ≤ 0`: the most negative root that is admissible.
fn admissible_root(alpha: f64, beta: f64, c: f64, kappa_min: f64) -> Option<f64> {
    if c == 0.0 {
        // κ = 0 is a root, always admissible and the minimal modification.
        return Some(0.0);
    }
    if alpha <= 0.0 {
        // linear: β κ + c = 0
        let k = -c / beta;
        return (beta != 0.0 && k.is_finite() && k >= kappa_min.min(0.0)).then_some(k);
    }
    let disc = beta * beta - 4.0 * alpha * c;
    if disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    if c < 0.0 {
        // Roots of opposite sign. With β ≥ 0 the positive one is the small
        // one, ≈ −c/β. With β < 0 (the velocity along G opposes the contact
        // force: a sliding point, whose G carries the friction) the positive
        // root is ≥ |β|/α: it reflects the whole velocity component along G,
        // an impulse as large as the step's own however small c is. The
        // negative root ≈ −c/β is then the least modification; it is taken
        // while admissible (κ ≥ κ_min), so that κ → 0 as c → 0 from either side.
        let positive = if beta >= 0.0 {
            -2.0 * c / (beta + sq)
        } else {
            (-beta + sq) / (2.0 * alpha)
        };
        if beta < 0.0 {
            let negative = 2.0 * c / (-beta + sq);
            if negative >= kappa_min {
                return Some(negative);
            }
        }
        Some(positive)
    } else if beta < 0.0 {
        // both roots positive: the smaller
        Some(2.0 * c / (-beta + sq))
    } else {
        // both roots negative: the one of least magnitude, if admissible
        let k = -2.0 * c / (beta + sq);
        (k >= kappa_min).then_some(k)
    }
}

/// Rounds of [`solve_impulses`]' redistribution: each moves what the
/// unsolvable points left over to the points that can take it.
const MAX_ROUNDS: usize = 6;

/// Solves eq. 75 for all points (module docs); `kappa_min ≤ 0` is the most
/// negative admissible impulse magnitude (`−Δt/2` in the stepper).
pub fn solve_impulses(
    a: &SparseRows,
    b: &[f64],
    c: &[f64],
    kappa_min: f64,
    max_sweeps: usize,
) -> Impulses {
    let n = b.len();
    let mut kappa = vec![0.0; n];
    let mut solvable = vec![true; n];
    // c_l + s_l: the energy point l takes back, its own plus its share s_l of
    // what the unsolvable points left over
    let mut target = c.to_vec();
    let total = |kappa: &[f64]| -> f64 {
        (0..n)
            .map(|l| kappa[l] * a.dot(l, kappa) + b[l] * kappa[l] + c[l])
            .sum()
    };
    let scale: f64 = c.iter().map(|v| v.abs()).sum();
    let mut sweeps = 0;
    for _round in 0..MAX_ROUNDS {
        sweeps += gauss_seidel(a, b, &target, kappa_min, max_sweeps, &mut kappa, &mut solvable);
        let left = total(&kappa);
        if solvable.iter().all(|s| *s) || left.abs() <= 1e-15 * scale {
            break;
        }
        // What each solvable point can still take back, with the others fixed:
        // max over admissible κ of −(A κ² + β κ), less its current target.
        let cap: Vec<f64> = (0..n)
            .map(|l| {
                if !solvable[l] {
                    return 0.0;
                }
                let (alpha, beta) = (a.diag(l), b[l] + a.off_diag_dot(l, &kappa));
                let vertex = if alpha > 0.0 { -beta / (2.0 * alpha) } else { kappa_min };
                let k = vertex.max(kappa_min);
                (-(alpha * k * k + beta * k) - target[l]).max(0.0)
            })
            .collect();
        let room: f64 = cap.iter().sum();
        if left <= 0.0 || room <= 0.0 {
            break;
        }
        // at most half of each point's room, so that its root stays real
        let moved = left.min(0.5 * room);
        for l in 0..n {
            target[l] += moved * cap[l] / room;
        }
    }
    let defect = total(&kappa);
    let unsolved = (0..n).filter(|&l| !solvable[l]).collect();
    let redistributed = (0..n).map(|l| target[l] - c[l]).sum();
    Impulses {
        kappa,
        unsolved,
        defect,
        redistributed,
        sweeps,
    }
}

/// Nonlinear Gauss–Seidel on `κ_l (A κ)_l + b_l κ_l + c_l = 0`, from the
/// current `kappa`; a point without an admissible root is marked unsolvable
/// and keeps `κ_l = 0`. Returns the number of sweeps.
fn gauss_seidel(
    a: &SparseRows,
    b: &[f64],
    c: &[f64],
    kappa_min: f64,
    max_sweeps: usize,
    kappa: &mut [f64],
    solvable: &mut [bool],
) -> usize {
    let mut sweeps = 0;
    for sweep in 1..=max_sweeps {
        sweeps = sweep;
        let mut change = 0.0f64;
        let mut size = 0.0f64;
        for l in 0..b.len() {
            if !solvable[l] {
                continue;
            }
            let beta = b[l] + a.off_diag_dot(l, kappa);
            match admissible_root(a.diag(l), beta, c[l], kappa_min) {
                Some(k) => {
                    change = change.max((k - kappa[l]).abs());
                    size = size.max(k.abs());
                    kappa[l] = k;
                }
                None => {
                    solvable[l] = false;
                    change = change.max(kappa[l].abs());
                    kappa[l] = 0.0;
                }
            }
        }
        if change <= 1e-15 * size || size == 0.0 && change == 0.0 {
            break;
        }
    }
    sweeps
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A from random "G" vectors on a few shared nodes with lumped masses.
    fn random_problem(rng: &mut rand::rngs::StdRng, n: usize) -> (SparseRows, Vec<f64>, Vec<f64>) {
        let nodes = n + 3;
        let m: Vec<f64> = (0..nodes).map(|_| rng.gen_range(0.5..2.0)).collect();
        // each point acts on 3 consecutive nodes, 2 components
        let g: Vec<Vec<(usize, [f64; 2])>> = (0..n)
            .map(|l| {
                (0..3)
                    .map(|k| (l + k, [rng.gen_range(-1.0..1.0), rng.gen_range(-1.0..1.0)]))
                    .collect()
            })
            .collect();
        let mut rows = vec![Vec::new(); n];
        for l in 0..n {
            for k in 0..n {
                let mut s = 0.0;
                for (a, ga) in &g[l] {
                    for (bn, gb) in &g[k] {
                        if a == bn {
                            s += 0.5 * (ga[0] * gb[0] + ga[1] * gb[1]) / m[*a];
                        }
                    }
                }
                if s != 0.0 {
                    rows[l].push((k, s));
                }
            }
        }
        let b = (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect();
        let c = (0..n).map(|_| -rng.gen_range(0.0..0.5)).collect();
        (SparseRows { rows }, b, c)
    }

    #[test]
    fn solves_coupled_quadratics_with_non_negative_roots() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for n in [1, 2, 5, 20, 60] {
            for _ in 0..50 {
                let (a, b, c) = random_problem(&mut rng, n);
                let r = solve_impulses(&a, &b, &c, 0.0, 500);
                assert!(r.unsolved.is_empty(), "c ≤ 0 always has a root");
                for l in 0..n {
                    assert!(r.kappa[l] >= 0.0);
                    let f = r.kappa[l] * a.dot(l, &r.kappa) + b[l] * r.kappa[l] + c[l];
                    let scale = c[l].abs() + (b[l] * r.kappa[l]).abs() + 1e-300;
                    assert!(
                        f.abs() <= 1e-12 * scale.max(1e-3),
                        "F_{l} = {f:e} (n = {n}, sweeps {})",
                        r.sweeps
                    );
                }
                assert!(r.defect.abs() < 1e-12, "defect {:e}", r.defect);
            }
        }
    }

    #[test]
    fn a_sliding_point_with_tiny_c_gets_a_tiny_impulse() {
        // κ² − 3κ + c = 0 with c → 0⁻ (b < 0: velocity along G opposes it):
        // the roots are ≈ −c/3 (negative, tiny) and ≈ 3 (the reflection).
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        for c in [-1e-12, -1e-6, -1e-3] {
            let r = solve_impulses(&a, &[-3.0], &[c], -0.05, 10);
            assert!(r.unsolved.is_empty());
            let k = r.kappa[0];
            assert!(
                k < 0.0 && (k - c / 3.0).abs() <= 1e-3 * c.abs(),
                "c = {c}: κ = {k}"
            );
            assert!(
                (k * k - 3.0 * k + c).abs() <= 1e-15,
                "F = {:e}",
                k * k - 3.0 * k + c
            );
        }
        // continuity across c = 0: c > 0 gives the small positive root
        let r = solve_impulses(&a, &[-3.0], &[1e-6], -0.05, 10);
        assert!(r.kappa[0] > 0.0 && r.kappa[0] < 1e-6);
        // the small root beyond κ_min: only the reflection is left
        let r = solve_impulses(&a, &[-3.0], &[-1.0], -0.05, 10);
        let k = r.kappa[0];
        assert!((k - (3.0 + 13f64.sqrt()) / 2.0).abs() < 1e-12, "κ = {k}");
    }

    #[test]
    fn positive_c_without_root_is_reported_as_defect() {
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        // κ² + κ + 0.5: no real root
        let r = solve_impulses(&a, &[1.0], &[0.5], -1.0, 10);
        assert_eq!(r.unsolved, vec![0]);
        assert_eq!(r.kappa, vec![0.0]);
        assert!((r.defect - 0.5).abs() < 1e-15);
        // c > 0 but b < 0: the smaller positive root restores it exactly
        let r = solve_impulses(&a, &[-3.0], &[1.0], 0.0, 10);
        assert!(r.unsolved.is_empty());
        assert!((r.kappa[0] - (3.0 - 5f64.sqrt()) / 2.0).abs() < 1e-14);
    }

    #[test]
    fn energy_created_by_a_separating_pressure_is_taken_back_by_a_negative_impulse() {
        // κ² + 3κ + c = 0, c > 0, b > 0: both roots negative.
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        let c = 1e-3;
        // the root of least magnitude (≈ −c/3) is above κ_min: F = 0
        let r = solve_impulses(&a, &[3.0], &[c], -1e-3, 10);
        assert!(r.unsolved.is_empty());
        let k = r.kappa[0];
        assert!(k < 0.0 && k > -1e-3, "κ = {k}");
        assert!(
            (k * k + 3.0 * k + c).abs() < 1e-18,
            "F = {:e}",
            k * k + 3.0 * k + c
        );
        assert!(r.defect.abs() < 1e-18);
        // below κ_min: κ = 0 and the energy is reported, not taken back
        let r = solve_impulses(&a, &[3.0], &[c], -1e-4, 10);
        assert_eq!(r.unsolved, vec![0]);
        assert_eq!(r.kappa, vec![0.0]);
        assert_eq!(r.defect, c);
        // coupled: two points sharing a node, one with both roots negative
        let a = SparseRows {
            rows: vec![vec![(0, 1.0), (1, 0.5)], vec![(0, 0.5), (1, 1.0)]],
        };
        let (b, c) = ([3.0, 2.0], [1e-4, -0.5]);
        let r = solve_impulses(&a, &b, &c, -1e-3, 100);
        assert!(r.unsolved.is_empty());
        assert!(r.kappa[0] < 0.0 && r.kappa[1] > 0.0, "κ = {:?}", r.kappa);
        for l in 0..2 {
            let f = r.kappa[l] * a.dot(l, &r.kappa) + b[l] * r.kappa[l] + c[l];
            assert!(f.abs() < 1e-15, "F_{l} = {f:e}");
        }
    }
}
