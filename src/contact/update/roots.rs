//! The velocity update of Love & Laursen 2003, §3.3–3.5 (eqs. 72–78, 86–87;
//! DESIGN §6): after the step converges, impulse magnitudes `κ^l` solve the
//! coupled quadratics
//!
//! ```text
//! F_l(κ) = κ_l Σ_k A_lk κ_k + b_l κ_l + c_l = 0      (eq. 75)
//! ```
//!
//! with `A_lk = ½ (w j G^l)·M⁻¹(w j G^k)`, `b_l = (w j G^l)·(2Δx/Δt − v_n)`,
//! `c_l = Δt w j (p_N v_N + t_T·v_T + D^l)`. Then `M v^c = Σ κ^l w j G^l` and the
//! total energy changes by exactly `−Δt Σ w j D^l + Σ_l F_l(κ)`: the second sum is
//! the *energy defect*, zero when every equation is solved. Momentum does not
//! depend on `κ` at all (the identities of DESIGN §5).
//!
//! Solution: nonlinear Gauss–Seidel over the points, each point taking a root
//! of its own quadratic with the others fixed. The points couple only through
//! shared nodes (lumped mass) or weakly through `M⁻¹` (consistent mass).
//!
//! # Which root
//!
//! The step applied `Δt w j G` at the midpoint; the update adds `κ w j G`
//! with the same magnitudes at `n+1`. Love & Laursen take "the non-negative
//! root" (the update pushes along the contact force; DESIGN §6) and refer to
//! Laursen & Love 2002 for the selection. Taken literally it is wrong at
//! sliding points. With `c_l < 0` and `b_l < 0` (the velocity along `G`
//! opposes the friction that `G` carries) the non-negative root is
//! `≥ |b_l|/A_ll`: it reflects the whole velocity component along `G`,
//! however small `c_l` is, while `c_l = 0` gives `κ = 0`. On the friction
//! blocks this gave impulses of 1–3 `Δt` to points whose `c` was 1e-8 of the
//! step's contact work, and the sign of that round-off decided the cube's
//! motion. Grazing new contacts on the ring got up to 72 `Δt`. The energy
//! balance held either way; the motion did not. The rule here:
//!
//! * `c_l < 0`, `b_l ≥ 0`: the non-negative root, which is the small one
//!   (`≈ −c_l/b_l`).
//! * `c_l < 0`, `b_l < 0`, a **new contact** (Table 1: the gap was closed at
//!   the end of the step, which takes the approach's energy): the
//!   non-negative root, the bounce, if it is at most `κ_bounce = Δt`. A mass
//!   stopped dead at a rigid wall has `b = 0` and the root `κ = Δt`: an
//!   elastic bounce returns the step's own impulse once more. A larger root
//!   would be a kick beyond an elastic bounce, made by the friction in `G`.
//! * otherwise, `c_l < 0`, `b_l < 0`: the negative root `≈ −c_l/b_l`, the
//!   least modification, when it is at least `κ_min = −Δt/2`. It withdraws
//!   part of the step's impulse, and the point's net impulse
//!   `(Δt + κ) w j G` still pushes and stays in the friction cone. In
//!   persistent contact `c` is a residue of the constraint tolerance, and
//!   this `κ` goes to zero with it. Where that root is below `κ_min`, the
//!   non-negative root is taken.
//! * `c_l > 0` (the step created energy at that point), `b_l < 0`: the
//!   smaller positive root.
//! * `c_l > 0`, `b_l > 0`: both roots are negative. This happens where the
//!   step let a pressure do positive work. An augmented-Lagrangian point
//!   converges with `Δt|v_N| ≤ tol`, not 0, and an unloading one ends slightly
//!   separating. A point whose drifted gap is pushed back out
//!   ([`crate::contact::law::Constraint::Guarded`]) separates by design. The root of
//!   least magnitude is taken if it is at least `κ_min`.
//!
//! # Points without a root
//!
//! A point with `c_l > 0` and `b_l² < 4 A_ll c_l` has no real root. The
//! velocity along its `G` is too small to carry the energy away: typically the
//! last step of a contact, separating within the tolerance while still
//! pressed. Its `κ_l` is 0, and the energy `c_l` is taken back at the points
//! that have room for it. Their equations become `F_k = −s_k` with
//! `Σ s_k = Σ c_unsolved`, shared in proportion to each point's room (the most
//! it can take back at an admissible `κ`). The total energy is then exact. The
//! local balance moves by `s_k` between points of the same step, and the
//! debug log reports the amount. Whatever finds no room is the *defect*
//! (DESIGN §6: recorded, never hidden).

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
    /// The last Gauss–Seidel pass met its tolerance within `max_sweeps`.
    pub settled: bool,
}

/// Where a point's impulse magnitude may lie (module docs, "Which root").
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RootBounds {
    /// `κ_min ≤ 0` (`−Δt/2`): the most negative root taken; the net impulse
    /// `(Δt + κ) w j G` still pushes.
    pub min: f64,
    /// `κ_bounce ≥ 0` (`Δt`): the largest bounce a new contact gets.
    pub bounce: f64,
}

/// Root of `α κ² + β κ + c = 0` by the rule in the module docs, or `None`.
fn admissible_root(
    alpha: f64,
    beta: f64,
    c: f64,
    new_contact: bool,
    bounds: RootBounds,
    near: Option<f64>,
) -> Option<f64> {
    if c == 0.0 {
        // κ = 0 is a root, always admissible and the minimal modification.
        return Some(0.0);
    }
    if alpha <= 0.0 {
        // linear: β κ + c = 0
        let k = -c / beta;
        return (beta != 0.0 && k.is_finite() && k >= bounds.min.min(0.0)).then_some(k);
    }
    let disc = beta * beta - 4.0 * alpha * c;
    if disc < 0.0 {
        return None;
    }
    let sq = disc.sqrt();
    if c < 0.0 {
        // roots of opposite sign, both written cancellation-free
        let (positive, negative) = if beta >= 0.0 {
            (-2.0 * c / (beta + sq), (-beta - sq) / (2.0 * alpha))
        } else {
            ((-beta + sq) / (2.0 * alpha), 2.0 * c / (-beta + sq))
        };
        if let Some(k0) = near {
            // continuation (see gauss_seidel): the admissible root nearest k0
            let take_negative =
                negative >= bounds.min && (negative - k0).abs() < (positive - k0).abs();
            return Some(if take_negative { negative } else { positive });
        }
        if beta >= 0.0 || new_contact && positive <= bounds.bounce {
            return Some(positive);
        }
        Some(if negative >= bounds.min {
            negative
        } else {
            positive
        })
    } else if beta < 0.0 {
        // both roots positive: the smaller
        Some(2.0 * c / (-beta + sq))
    } else {
        // both roots negative: the one of least magnitude, if admissible
        let k = -2.0 * c / (beta + sq);
        (k >= bounds.min).then_some(k)
    }
}

/// Rounds of [`solve_impulses`]' redistribution: each moves what the
/// unsolvable points left over to the points that can take it.
const MAX_ROUNDS: usize = 6;

/// Gauss–Seidel sweeps by the root rule before each point keeps the root
/// nearest its current `κ` (see `gauss_seidel`).
const STICKY_AFTER: usize = 50;

/// Solves eq. 75 for all points by the rules of the module docs;
/// `new_contact[l]`: point `l` closed its gap in this step (Table 1, new).
pub fn solve_impulses(
    a: &SparseRows,
    b: &[f64],
    c: &[f64],
    new_contact: &[bool],
    bounds: RootBounds,
    max_sweeps: usize,
) -> Impulses {
    let eq = Quadratics {
        a,
        b,
        new_contact,
        bounds,
    };
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
    let (mut sweeps, mut settled) = (0, false);
    for _round in 0..MAX_ROUNDS {
        let (s, ok) = gauss_seidel(&eq, &target, max_sweeps, &mut kappa, &mut solvable);
        (sweeps, settled) = (sweeps + s, ok);
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
                let vertex = if alpha > 0.0 {
                    -beta / (2.0 * alpha)
                } else {
                    bounds.min
                };
                let k = vertex.max(bounds.min);
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
        settled,
    }
}

/// What the passes of [`solve_impulses`] share: eq. 75 without its `c`.
struct Quadratics<'a> {
    a: &'a SparseRows,
    b: &'a [f64],
    new_contact: &'a [bool],
    bounds: RootBounds,
}

/// Nonlinear Gauss–Seidel on `κ_l (A κ)_l + b_l κ_l + c_l = 0`, from the
/// current `kappa`; a point without an admissible root is marked unsolvable
/// and keeps `κ_l = 0`. Returns the number of sweeps and whether they met
/// the tolerance.
fn gauss_seidel(
    eq: &Quadratics,
    c: &[f64],
    max_sweeps: usize,
    kappa: &mut [f64],
    solvable: &mut [bool],
) -> (usize, bool) {
    let Quadratics {
        a,
        b,
        new_contact,
        bounds,
    } = *eq;
    let mut sweeps = 0;
    for sweep in 1..=max_sweeps {
        sweeps = sweep;
        let mut change = 0.0f64;
        let mut size = 0.0f64;
        // The rule of the module docs jumps between the two roots where c < 0
        // and β crosses 0 (or a new contact's bounce crosses κ_bounce); coupled
        // points whose β moves across such a point with their neighbours'
        // κ can cycle. Past STICKY_AFTER sweeps each point keeps the root
        // nearest its current κ, continuous in β, and the sweeps contract.
        let sticky = sweep > STICKY_AFTER;
        for l in 0..b.len() {
            if !solvable[l] {
                continue;
            }
            let beta = b[l] + a.off_diag_dot(l, kappa);
            let near = sticky.then_some(kappa[l]);
            match admissible_root(a.diag(l), beta, c[l], new_contact[l], bounds, near) {
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
            return (sweeps, true);
        }
    }
    (sweeps, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Points that are not new contacts, with `κ ≥ min`.
    fn solve(a: &SparseRows, b: &[f64], c: &[f64], min: f64, sweeps: usize) -> Impulses {
        let bounds = RootBounds { min, bounce: 0.0 };
        solve_impulses(a, b, c, &vec![false; b.len()], bounds, sweeps)
    }

    #[test]
    fn coupled_points_that_would_cycle_between_roots_settle() {
        // Point 1's β = b_1 + A_10 κ_0 changes sign with κ_0, and the rule
        // alternates between its roots (+0.668 and −0.579), which moves point
        // 0's β in turn: a 2-cycle of the plain rule (found by a search).
        let a01 = -0.9878815177940786;
        let a = SparseRows {
            rows: vec![
                vec![(0, 1.3420367971675686), (1, a01)],
                vec![(0, a01), (1, 1.1391360195322253)],
            ],
        };
        let (b, c) = (
            [0.7400203103532796, 0.1399986677527605],
            [-0.20784102597537166, -0.5096732627545747],
        );
        let r = solve(&a, &b, &c, -1.0, 1000);
        assert!(r.settled, "{} sweeps", r.sweeps);
        assert!(r.unsolved.is_empty());
        for l in 0..2 {
            let f = r.kappa[l] * a.dot(l, &r.kappa) + b[l] * r.kappa[l] + c[l];
            assert!(f.abs() < 1e-14, "F_{l} = {f:e}, κ = {:?}", r.kappa);
        }
        assert!(r.defect.abs() < 1e-14);
    }

    #[test]
    fn a_new_contact_bounces_up_to_an_elastic_bounce() {
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        let bounds = RootBounds {
            min: -0.05,
            bounce: 0.1,
        };
        // stopped dead (b = 0) with c = −A Δt²: the elastic bounce κ = Δt
        let r = solve_impulses(&a, &[0.0], &[-0.01], &[true], bounds, 10);
        assert!((r.kappa[0] - 0.1).abs() < 1e-15, "κ = {}", r.kappa[0]);
        // still approaching (b < 0): the non-negative root, below the bound
        let r = solve_impulses(&a, &[-0.05], &[-0.004], &[true], bounds, 10);
        let k = r.kappa[0];
        assert!(
            k > 0.05 && k <= 0.1 && (k * k - 0.05 * k - 0.004).abs() < 1e-16,
            "κ = {k}"
        );
        // the same point in persistent contact: the small negative root
        let r = solve_impulses(&a, &[-0.05], &[-0.004], &[false], bounds, 10);
        assert!(
            r.kappa[0] < 0.0 && r.kappa[0] >= -0.05,
            "κ = {}",
            r.kappa[0]
        );
        // a sliding new contact whose non-negative root is a kick of 30 Δt
        // (b from the friction in G): the small root instead
        let r = solve_impulses(&a, &[-3.0], &[-1e-3], &[true], bounds, 10);
        let k = r.kappa[0];
        assert!(k < 0.0 && (k + 1e-3 / 3.0).abs() < 1e-6, "κ = {k}");
        assert!((k * k - 3.0 * k - 1e-3).abs() < 1e-16);
    }

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
                let r = solve(&a, &b, &c, 0.0, 500);
                assert!(r.unsolved.is_empty(), "c ≤ 0 always has a root");
                assert!(r.settled, "{} sweeps", r.sweeps);
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
            let r = solve(&a, &[-3.0], &[c], -0.05, 10);
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
        let r = solve(&a, &[-3.0], &[1e-6], -0.05, 10);
        assert!(r.kappa[0] > 0.0 && r.kappa[0] < 1e-6);
        // the small root beyond κ_min: only the reflection is left
        let r = solve(&a, &[-3.0], &[-1.0], -0.05, 10);
        let k = r.kappa[0];
        assert!((k - (3.0 + 13f64.sqrt()) / 2.0).abs() < 1e-12, "κ = {k}");
    }

    #[test]
    fn positive_c_without_root_is_reported_as_defect() {
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        // κ² + κ + 0.5: no real root
        let r = solve(&a, &[1.0], &[0.5], -1.0, 10);
        assert_eq!(r.unsolved, vec![0]);
        assert_eq!(r.kappa, vec![0.0]);
        assert!((r.defect - 0.5).abs() < 1e-15);
        // c > 0 but b < 0: the smaller positive root restores it exactly
        let r = solve(&a, &[-3.0], &[1.0], 0.0, 10);
        assert!(r.unsolved.is_empty());
        assert!((r.kappa[0] - (3.0 - 5f64.sqrt()) / 2.0).abs() < 1e-14);
    }

    #[test]
    fn energy_a_point_cannot_take_back_is_taken_back_where_there_is_room() {
        // point 0: κ² + 0.1κ + 0.5 has no real root; point 1 (uncoupled) is a
        // sliding point, κ² − 3κ − 1e-3, with room for 2.25 + 1e-3.
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)], vec![(1, 1.0)]],
        };
        let (b, c) = ([0.1, -3.0], [0.5, -1e-3]);
        let r = solve(&a, &b, &c, -0.05, 100);
        assert_eq!(r.unsolved, vec![0]);
        assert_eq!(r.kappa[0], 0.0);
        assert!(r.defect.abs() <= 1e-15, "defect {:e}", r.defect);
        assert!((r.redistributed - 0.5).abs() <= 1e-15);
        // point 1 took back its own energy and point 0's: F_1 = −0.5
        let f1 = r.kappa[1] * r.kappa[1] - 3.0 * r.kappa[1] - 1e-3;
        assert!((f1 + 0.5).abs() <= 1e-14, "F_1 = {f1}");
        // and with the small root of its shifted equation, not the reflection
        assert!(r.kappa[1] > 0.0 && r.kappa[1] < 0.2, "κ_1 = {}", r.kappa[1]);
        // coupled through a shared node: Σ F_l = 0 all the same
        let a = SparseRows {
            rows: vec![vec![(0, 1.0), (1, 0.3)], vec![(0, 0.3), (1, 1.0)]],
        };
        let r = solve(&a, &b, &c, -0.05, 100);
        let f: f64 = (0..2)
            .map(|l| r.kappa[l] * a.dot(l, &r.kappa) + b[l] * r.kappa[l] + c[l])
            .sum();
        assert!(f.abs() <= 1e-14 && r.defect.abs() <= 1e-14, "Σ F = {f:e}");
        // no room anywhere (point 1 can take back at most 2.25 + 1e-3): the
        // rest is reported as defect
        let r = solve(
            &SparseRows {
                rows: vec![vec![(0, 1.0)], vec![(1, 1.0)]],
            },
            &b,
            &[5.0, -1e-3],
            -0.05,
            100,
        );
        assert!(
            r.defect > 5.0 - 2.252 && r.defect < 5.0,
            "defect {}",
            r.defect
        );
    }

    #[test]
    fn energy_created_by_a_separating_pressure_is_taken_back_by_a_negative_impulse() {
        // κ² + 3κ + c = 0, c > 0, b > 0: both roots negative.
        let a = SparseRows {
            rows: vec![vec![(0, 1.0)]],
        };
        let c = 1e-3;
        // the root of least magnitude (≈ −c/3) is above κ_min: F = 0
        let r = solve(&a, &[3.0], &[c], -1e-3, 10);
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
        let r = solve(&a, &[3.0], &[c], -1e-4, 10);
        assert_eq!(r.unsolved, vec![0]);
        assert_eq!(r.kappa, vec![0.0]);
        assert_eq!(r.defect, c);
        // coupled: two points sharing a node, one with both roots negative
        let a = SparseRows {
            rows: vec![vec![(0, 1.0), (1, 0.5)], vec![(0, 0.5), (1, 1.0)]],
        };
        let (b, c) = ([3.0, 2.0], [1e-4, -0.5]);
        let r = solve(&a, &b, &c, -1e-3, 100);
        assert!(r.unsolved.is_empty());
        assert!(r.kappa[0] < 0.0 && r.kappa[1] > 0.0, "κ = {:?}", r.kappa);
        for l in 0..2 {
            let f = r.kappa[l] * a.dot(l, &r.kappa) + b[l] * r.kappa[l] + c[l];
            assert!(f.abs() < 1e-15, "F_{l} = {f:e}");
        }
    }
}
