//! The memory of contact, estimated before a run (`emcontact check` and the
//! preflight of `run`): the slave points that may touch, the path
//! `[solver] contact_system` takes for them
//! ([`crate::contact::enforce::Method`]), and the bytes that path adds to
//! the bodies' run ([`crate::input::budget::run_bytes_with`]).
//!
//! **Which points may touch.** The run knows at each step's broad phase
//! ([`ContactSet::reach`], from `x` and `v`). Before the run, every slave
//! of a pair with multipliers that lies over its master (its closest point
//! on the master surface within a face size of its normal) is moved onto
//! that closest point (a closing motion), and the run's broad phase is run
//! on that motion: the points it reaches, each with the master nodes it
//! may reach, and the contact couplings of the bodies' pattern, as at the
//! first-contact step. Against a plane every slave is moved onto it;
//! against another rigid surface the run's own test at the start counts
//! (slaves within a few face sizes of it). The upper bound is every slave
//! of those pairs.
//!
//! **Condensed path** ([`crate::contact::enforce::condensed`]), `m = D·P`
//! unknowns for `P` points: 150 bytes per entry of the dense `m × m`
//! problem, calibrated on measurement because part of it is not ours to
//! count. Counted from the code: `W` dense (8 bytes), its triplet list (24,
//! alive while the library solves), the library's problem (`W` by columns
//! and by rows, 16 each, its `D × D` blocks by rows, 9) and the Newton
//! Jacobian (8 dense up to 4,000 unknowns, a sparse LU of a dense pattern
//! above): 81. On top, where a two-pass subproblem stalls (both scaling
//! models measured did at first contact) the retry without the second
//! pass builds its own triplets, copies and Jacobian while the first
//! problem is alive (about 0.65 of its entries again), and faer's
//! conversions take temporaries. Measured 24² (m = 2,343, dense Jacobian):
//! 162 bytes per entry; 32² (m = 4,185, sparse): 133
//! (docs/decisions/contact-memory.md). Plus the block of right-hand sides
//! that builds `W` (`8 n · min(256, 2²⁵/n, m)` for `n` dofs) and the
//! factors' growth by the contact couplings.
//!
//! **On the iterative linear path** (`[solver] linear`, no factors) the
//! condensed path's dense problem counts as above, the saddle path's
//! augmented matrix (values and indices, twice) with the Krylov basis and
//! the coupled block-Jacobi inverses of its multiplier rows; `auto` takes
//! the saddle path there (the condensed `W` is one Krylov solve per
//! contact unknown: docs/decisions/iterative-contact.md).
//!
//! **Saddle path** ([`crate::contact::enforce::saddle`]): the augmented
//! pattern built as the run builds it (the bodies' pattern with the
//! contact couplings, one pseudo-node per point coupled to the nodes it
//! may reach and anchored after its slave) and the symbolic analysis the
//! linear solver runs on it ([`SymbolicFactor::with_constraints`]): the
//! stored entries of its LU, exact for that pattern. Counted on top of
//! the bodies' run: those factors less the bodies' own (the same analysis
//! of the bodies' pattern), and the augmented matrix's values and indices
//! held twice (the saddle system's assembly and the solver's copy).

use crate::contact::enforce::saddle::{anchors, augmented_pattern, Reach};
use crate::contact::enforce::Method;
use crate::contact::search::SpatialHash;
use crate::contact::surface::{face_normal_raw, Master, Surface};
use crate::contact::ContactSet;
use crate::dynamics::policy::NewtonPolicy;
use crate::linalg::ordering::OrderConstraints;
use crate::linalg::{
    BlockPattern, FactorSize, FillOrdering, LinearMethod, LinearParams, LinearPlan, SymbolicFactor,
};
use crate::mesh::Element;
use crate::model::{ContactSystem, Model};

/// What contact adds to a run's memory.
#[derive(Debug, Clone, PartialEq)]
pub struct ContactBudget {
    /// Slave points that may touch (the closing motion, module docs).
    pub points: usize,
    /// Slave nodes of the pairs with multipliers (an upper bound of `points`).
    pub slaves: usize,
    /// The path the run takes for `points` points.
    pub method: Method,
    /// Unknowns of the condensed problem (`D·points`).
    pub unknowns: usize,
    /// Bytes of the augmented LU factors (saddle path) or of the bodies'
    /// LU with the contact couplings (condensed path).
    pub factor_bytes: f64,
    /// LU flops of one factorization of those factors (0 on the iterative
    /// path), and of the bodies' own LU without contact.
    pub factor_flops: f64,
    pub bodies_flops: f64,
    /// Bytes contact adds to the bodies' run.
    pub bytes: f64,
}

/// Bytes per entry of the condensed path's dense problem (module docs:
/// 81 counted, the rest measured; 150 is within 10 % of both measurements).
const BYTES_PER_ENTRY: f64 = 150.0;

/// Bytes of the condensed path's dense problem of `m` unknowns on a model
/// of `n` dofs (module docs).
pub fn condensed_bytes(m: usize, n: usize) -> f64 {
    let mf = m as f64;
    let block = 256.min((1usize << 25) / n.max(1)).max(1).min(m);
    BYTES_PER_ENTRY * mf * mf + 8.0 * (n * block) as f64
}

/// The contact budget of `model` (`None`: no pair carries multipliers)
/// on the linear plan `plan`: its factors ordered by the plan's ordering
/// on the direct path; on the iterative path no factors, and `auto` takes
/// the saddle path ([`crate::dynamics::Stepper`]'s choice).
pub fn contact_budget(model: &Model, plan: &LinearPlan) -> Result<Option<ContactBudget>, String> {
    let ordering = plan.ordering;
    let iterative = plan.method == LinearMethod::Iterative;
    let d = model.dim;
    let set = ContactSet::new(model, d).map_err(|e| e.to_string())?;
    if !set.has_multipliers() {
        return Ok(None);
    }
    let x = model.mesh.positions(d);
    let v = closing_motion(&set, &x, d);
    let (couplings, _) = set.couplings(&x, &v, 1.0);
    let reach = set.reach(&x, &v, 1.0);
    let slaves = set
        .pairs()
        .iter()
        .filter(|p| p.has_multipliers())
        .map(|p| p.surface().slaves.len())
        .sum();
    let points = reach.len();
    let method = match model.solver.contact_system {
        ContactSystem::Condensed => Method::Condensed,
        ContactSystem::Saddle => Method::Saddle,
        ContactSystem::Auto if iterative => Method::Saddle,
        ContactSystem::Auto if points >= NewtonPolicy::default().saddle_min_points => {
            Method::Saddle
        }
        ContactSystem::Auto => Method::Condensed,
    };
    let mut lists: Vec<&[usize]> = Vec::new();
    for body in &model.bodies {
        let group = model.mesh.group(&body.group).ok_or("a body's group")?;
        lists.extend(group.elements.iter().map(|e| e.nodes()));
    }
    let free = BlockPattern::new(model.mesh.nodes.len(), d, lists.iter().copied());
    lists.extend(couplings.iter().map(|l| l.as_slice()));
    let coupled = BlockPattern::new(model.mesh.nodes.len(), d, lists.iter().copied());
    drop(lists);
    let unknowns = d * points;
    if iterative {
        let bytes = match method {
            Method::Condensed => condensed_bytes(unknowns, coupled.n()),
            Method::Saddle => saddle_iterative_bytes(&coupled, &reach),
        };
        return Ok(Some(ContactBudget {
            points,
            slaves,
            method,
            unknowns,
            factor_bytes: 0.0,
            factor_flops: 0.0,
            bodies_flops: 0.0,
            bytes,
        }));
    }
    let own = lu_size(&free, ordering, &[])?;
    let (factors, bytes) = match method {
        Method::Condensed => {
            let f = lu_size(&coupled, ordering, &[])?;
            let grown = (f.lu_bytes() - own.lu_bytes()).max(0.0);
            (f, condensed_bytes(unknowns, coupled.n()) + grown)
        }
        Method::Saddle => {
            let (f, nnz) = saddle_factors(&coupled, &reach, ordering)?;
            let grown = (f.lu_bytes() - own.lu_bytes()).max(0.0);
            // the augmented values and indices, in the saddle system and the solver
            (f, grown + 2.0 * 16.0 * nnz as f64)
        }
    };
    let factor_bytes = factors.lu_bytes();
    Ok(Some(ContactBudget {
        points,
        slaves,
        method,
        unknowns,
        factor_bytes,
        factor_flops: factors.lu_flops,
        bodies_flops: own.lu_flops,
        bytes,
    }))
}

/// The size (bytes, flops) of the LU factors of `pattern` with the
/// pseudo-nodes `anchored` (the solver's symbolic analysis).
fn lu_size(
    pattern: &BlockPattern,
    ordering: FillOrdering,
    anchored: &[(usize, usize)],
) -> Result<FactorSize, String> {
    let c = OrderConstraints {
        last: &[],
        anchored,
    };
    let f =
        SymbolicFactor::with_constraints(pattern, ordering, None, c).map_err(|e| e.to_string())?;
    Ok(f.size())
}

/// The augmented LU's size and the augmented pattern's entries: one
/// pseudo-node per point of `reach` on the bodies' pattern with the contact
/// couplings, as the saddle path builds it ([`augmented_pattern`]).
fn saddle_factors(
    coupled: &BlockPattern,
    reach: &Reach,
    ordering: FillOrdering,
) -> Result<(FactorSize, usize), String> {
    let lists: Vec<&[usize]> = reach.iter().map(|(_, _, l)| l.as_slice()).collect();
    let aug = augmented_pattern(coupled, &lists);
    let anchored = anchors(coupled.n_nodes(), &lists);
    Ok((lu_size(&aug, ordering, &anchored)?, aug.nnz()))
}

/// Bytes the saddle path adds on the iterative path: the augmented
/// matrix's values and indices held twice (the saddle system's assembly
/// and the solver's copy), and per multiplier row the Krylov basis (a
/// restart's length plus the solver's vectors) and the coupled block
/// Jacobi's inverse (its anchor's rows and its own, squared).
fn saddle_iterative_bytes(coupled: &BlockPattern, reach: &Reach) -> f64 {
    let lists: Vec<&[usize]> = reach.iter().map(|(_, _, l)| l.as_slice()).collect();
    let aug = augmented_pattern(coupled, &lists);
    let d = coupled.dim();
    let rows = (d * lists.len()) as f64;
    let krylov = (LinearParams::default().restart + 6) as f64;
    2.0 * 16.0 * aug.nnz() as f64 + 8.0 * rows * (krylov + 4.0 * d as f64)
}

/// The closing motion (module docs): per dof, the displacement that takes
/// each slave lying over its master onto its closest point there; zero
/// elsewhere.
fn closing_motion(set: &ContactSet, x: &[f64], d: usize) -> Vec<f64> {
    let mut v = vec![0.0; x.len()];
    let x3: Vec<[f64; 3]> = x
        .chunks(d)
        .map(|c| {
            let mut p = [0.0; 3];
            p[..d].copy_from_slice(c);
            p
        })
        .collect();
    let mut scratch = Vec::new();
    for pair in set.pairs().iter().filter(|p| p.has_multipliers()) {
        let s = pair.surface();
        let faces = match &s.master {
            Master::Faces(faces) => faces,
            Master::Plane { point, normal, .. } => {
                // onto the plane along its normal
                for &a in &s.slaves {
                    let gap: f64 = (0..d).map(|i| (x3[a][i] - point[i]) * normal[i]).sum();
                    for i in 0..d {
                        v[a * d + i] = -gap.max(0.0) * normal[i];
                    }
                }
                continue;
            }
            Master::Rigid(_) => continue,
        };
        // search radii growing by 4× up to the surfaces' extent: most slaves
        // find their face in the first
        let extent = extent(
            &x3,
            s.slaves
                .iter()
                .copied()
                .chain(faces.iter().flat_map(|f| f.nodes().iter().copied())),
        );
        let mut left: Vec<usize> = (0..s.slaves.len()).collect();
        let mut margin = 2.0 * s.h;
        while !left.is_empty() {
            let mut hash = SpatialHash::new(margin);
            hash.rebuild(&x3, faces);
            left.retain(|&k| {
                let a = s.slaves[k];
                match landing(s, faces, &x3, a, &hash, &mut scratch) {
                    None => true,
                    Some(None) => false,
                    Some(Some(p)) => {
                        for i in 0..d {
                            v[a * d + i] = p[i] - x3[a][i];
                        }
                        false
                    }
                }
            });
            if margin > extent {
                break;
            }
            margin *= 4.0;
        }
    }
    v
}

/// Where slave node `a` lands on the master `faces` (module docs): `None`
/// when no face lies within the hash's margin, `Some(None)` when its
/// closest point is more than a face size beside its normal, else
/// `Some(Some(closest point))`.
fn landing(
    s: &Surface,
    faces: &[Element],
    x3: &[[f64; 3]],
    a: usize,
    hash: &SpatialHash,
    scratch: &mut Vec<usize>,
) -> Option<Option<[f64; 3]>> {
    let own = |f: usize| faces[f].nodes().contains(&a);
    let (f, p) = hash.closest_face_except(x3, faces, x3[a], scratch, own)?;
    let corners: Vec<[f64; 3]> = faces[f].nodes().iter().map(|&b| x3[b]).collect();
    let nr = face_normal_raw(faces[f].kind, &corners);
    let len = nr.iter().map(|c| c * c).sum::<f64>().sqrt();
    let gap: Vec<f64> = (0..3).map(|i| x3[a][i] - p.point[i]).collect();
    let along: f64 = (0..3).map(|i| gap[i] * nr[i] / len).sum();
    let lateral = (0..3)
        .map(|i| (gap[i] - along * nr[i] / len).powi(2))
        .sum::<f64>()
        .sqrt();
    Some((lateral <= s.h).then_some(p.point))
}

/// The largest side of the box of the nodes `nodes`.
fn extent(x: &[[f64; 3]], nodes: impl Iterator<Item = usize>) -> f64 {
    let (mut lo, mut hi) = ([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]);
    for a in nodes {
        for i in 0..3 {
            lo[i] = lo[i].min(x[a][i]);
            hi[i] = hi[i].max(x[a][i]);
        }
    }
    (0..3).map(|i| hi[i] - lo[i]).fold(0.0, f64::max)
}
