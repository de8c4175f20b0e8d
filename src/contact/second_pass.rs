//! Which second-pass points carry a constraint under saddle-point
//! enforcement.
//!
//! Two passes of node-to-segment contact put each surface's nodes against
//! the other's faces, so that neither body's nodes enter the other. With
//! exact multipliers that over-constrains an interface where both surfaces
//! are flat and pressed: the first pass holds the slave nodes on the master
//! faces, the second the master nodes on the slave faces, and where every
//! node of the interface is in contact the two sets of rows are linearly
//! dependent (a uniform normal motion of both surfaces satisfies all, and
//! `P₁₂ P₂₁` — the interpolation of the slaves on the masters and back — is
//! row-stochastic, so `I − P₁₂ P₂₁` is singular); near it the rows are
//! ill-conditioned, and the more so the larger the contact area. The
//! multipliers are then not unique and a semismooth Newton wanders along
//! the redundant directions (measured on the sliding friction blocks,
//! μ = 0.2: its merit jumped by 10⁴ between inner iterations and the step
//! was cut back twice).
//!
//! The rule ([`shadow`], at the first saddle-point correction of a step
//! where a first-pass point is engaged):
//! a second-pass point is *shadowed* for the step when the first pass
//! already holds the slave face it lies on — every node of that face is a
//! first-pass point engaged with the master surface (pressed, in contact at
//! `t_n`, or within a quarter face size of it) — and it does not penetrate
//! that face beyond the tolerance. A shadowed point carries no multiplier
//! (its row of the saddle-point system is the open one, `r = 0`) but is
//! still evaluated: its penetration counts in the law's violation, so an
//! iterate where it penetrates is not converged, and once Newton is close
//! ([`lift`], with the faces' settle) it is enforced again for the rest of
//! the step. Where a master node pokes into the slave face (a convex corner
//! or a finer, curved master) it penetrates and is enforced. The roles only
//! go from shadowed to enforced within a step: a point that carries force
//! and is then shadowed again would drop its load and make the iteration
//! go back and forth (measured on the friction blocks, μ = 0.8: three such
//! points toggled every iteration until the step was rejected). At the
//! first correction of a first contact the bodies are still apart (the
//! scaling family lands from a gap of 0.03, more than a quarter of its face
//! size): the rule judges nothing there, and waits for the first
//! correction where the first pass is engaged. Judged once at that start
//! and never again, every second-pass point stayed enforced for the step:
//! on the 12² member a base node lying on a cube mesh line (733) and the
//! cube nodes held on the base faces around it measured the same gap, the
//! load went back and forth between them, the node flipped between open
//! and pressed at every Newton iteration and the active-set guard cut the
//! step back.
//!
//! Should the inner iteration still stall, [`drop_all`] shadows every
//! second-pass point for the rest of the step, as the condensed path does:
//! they carry no multiplier but are still evaluated, so that one the first
//! pass does not hold out (a master node poking through the slave surface
//! at a convex corner) keeps Newton from converging and is enforced again
//! by [`lift`]. Left out altogether, such a node went 1.2e-3 h through the
//! other ring of the ring impact unseen. A lifted point is not dropped
//! again: where the subproblem with it still stalls, the step fails (and is
//! cut back) rather than letting it through. Dropped again, it penetrated
//! again and was lifted again at every Newton iteration (the coarse friction
//! blocks landing in one step of 0.1: three base nodes 4.1e-4 h inside the
//! cube, the step stopped after 25 iterations).
//!
//! One constraint per location: a lifted point `b` (a master node inside a
//! slave face `F`) repeats the first-pass points that are nodes of `F` and
//! are held on a master face that has `b` as a node: both rows measure the
//! gap between the same two faces at the same place, and with friction
//! their redundancy makes the lifted row's compliance, seen through theirs,
//! negative (a sliding pressed point's friction moves the faces' normal
//! gap against its own pressure). The semismooth Newton step then gives
//! `b` a tensile force where it penetrates, the next step opens it, and
//! the inner iteration cycles between the two without ever changing the
//! first-pass rows, whose release is what the solution needs (measured on
//! the scaling family's first contact: 20², five base nodes 8.7e-6 h
//! inside the cube's faces, period two, 30 of 30 inner iterations at every
//! later Newton iteration; 8² sliding at 3, one base node, `r_N = −0.69`
//! opening it and `r = 0` closing it again; both steps cut back). So in a
//! step where the inner iteration stalled and [`drop_all`] left the second
//! pass out, each lifted point — lifted before the stall, or later by
//! [`lift`] — takes the place of the one first-pass point that repeats it
//! most: of those slaves of `F`, the one its normal force loads most
//! ([`release_repeat`]). That point is shadowed for the rest of the step:
//! still evaluated, its depth counted in the law's violation, and lifted
//! again, like any shadowed point, where it sinks beyond the tolerance; it
//! rests on the corner of the master face that `b` now holds. One point
//! per lifted one: shadowing all of `F`'s repeating slaves let the face
//! tilt about `b` and its other corners sink 3e-3 into the master (8²
//! sliding at 3: the law at 6e8 of its tolerance, too far for the settle
//! that would lift them, the step cut back). Only behind that stall: where
//! lifts were made to shadow first-pass points in every step, the
//! condensed path's validation runs took 4–5 more Newton iterations for
//! the same steps (the decision record).
//!
//! The condensed path keeps its lifts ungated and hands nothing over when
//! it lifts: only where the exact subproblem *with* lifted points stalls
//! (it is solved in full, so the step would fail) does each of them that
//! has not done so in the step take the place of the first-pass point it
//! repeats most ([`release_lifted`]), and the subproblem is solved again
//! without those (measured on the 18,546-dof friction blocks, μ = 0.8: at
//! t = 0.3 the subproblem with 21 lifted points stalled at 8e-4 and the
//! step was cut back; with the 21 repeats released it converges and the
//! run takes 6 steps, none cut back, where it took 11 with 2).

use super::set::ContactSet;
use super::slave::Role;
use super::surface::Master;

/// A first-pass point engaged within this fraction of its face size
/// (also where [`super::touch`] counts a pair as already in contact).
pub(super) const ENGAGED_GAP: f64 = 0.25;

/// Applies the shadow rule (module docs) to every second-pass point of the
/// pairs with multipliers that is not shadowed yet; returns whether any
/// first-pass point was engaged, i.e. whether the rule judged anything (at
/// a first contact's start, the bodies still apart, it did not, and is
/// applied again at the next correction).
pub fn shadow(set: &mut ContactSet) -> bool {
    let mut judged = false;
    for i in 1..set.pairs.len() {
        let (first, rest) = set.pairs.split_at_mut(i);
        let (p1, p2) = (&first[i - 1], &mut rest[0]);
        if p2.pass != 2 || p1.input != p2.input || !p2.has_multipliers() {
            continue;
        }
        let super::surface::Master::Faces(faces) = &p2.surface.master else {
            continue;
        };
        let engaged = |node: usize| -> bool {
            p1.surface.slave_index(node).is_some_and(|s| {
                let q = &p1.points[s];
                q.on_master()
                    && q.acts()
                    && (p1.engaged(s) || q.lin.g1 < ENGAGED_GAP * p1.surface.h)
            })
        };
        judged |= p1.surface.slaves.iter().any(|&a| engaged(a));
        let tol = p2.tol_abs;
        for (k, point) in p2.points.iter_mut().enumerate() {
            // a point on a first-pass node stays shadowed (set::begin_step)
            if point.role != Role::Enforced {
                continue;
            }
            let face = p2.narrow.held[k];
            let held = point.on_master()
                && point.lin.g1 >= -tol
                && face.is_some_and(|f| faces[f].nodes().iter().all(|&a| engaged(a)));
            point.role = if held { Role::Shadowed } else { Role::Enforced };
            if held {
                point.r = [0.0; 3];
            }
        }
    }
    judged
}

/// Enforces again, for the rest of the step, every shadowed point (of a
/// second pass, a self-contact point a stalled subproblem left out,
/// [`super::pair::Pair::droppable`], or a first-pass point a lifted one
/// took the place of, [`release_repeat`]) that penetrates its face beyond
/// the tolerance; returns how many.
///
/// Where a stalled saddle-point inner iteration left the second pass out
/// ([`drop_all`]), a second pass is judged only at an iterate where its
/// first pass holds the slave surface (no first-pass point deeper than
/// its tolerance, [`first_pass_holds`]): where the slave nodes are still inside the master,
/// the master nodes under them are inside the slave faces by as much, a
/// mirror of the first pass's own violation that its next iterate removes,
/// not a penetration of the master's own. Lifted there they constrain the
/// same motion as the first-pass points around them for the rest of the
/// step, and the inner iteration cycles on the redundant rows. Elsewhere
/// (the condensed path, a saddle step that kept its second pass) lifts are
/// not gated: gated there, the validation runs took 2–3 more Newton
/// iterations for the same steps (the decision record). Behind that gate a
/// lifted second-pass point takes the place of the first-pass point it
/// repeats most (module docs).
pub fn lift(set: &mut ContactSet) -> usize {
    let (mut lifted, mut released) = (0, 0);
    for i in 0..set.pairs.len() {
        let p = &set.pairs[i];
        let judged = p.surface.own
            || p.pass == 1
            || (p.pass == 2
                && (!set.gate_lifts || i == 0 || first_pass_holds(&set.pairs[i - 1], p.input)));
        if !judged {
            continue;
        }
        let tol = set.pairs[i].tol_abs;
        for k in 0..set.pairs[i].points.len() {
            let point = &mut set.pairs[i].points[k];
            if point.role == Role::Shadowed && point.on_master() && point.lin.g1 < -tol {
                point.role = Role::Lifted;
                lifted += 1;
                if set.gate_lifts && set.pairs[i].pass == 2 {
                    released += release_repeat(set, i, k);
                }
            }
        }
    }
    if released > 0 {
        log::debug!("contact: {released} first-pass point(s) repeating a lifted point shadowed");
    }
    lifted
}

/// Shadows, for the rest of the step, the first-pass point that repeats
/// the lifted second-pass point `k` of pair `i` most (module docs): of the
/// slaves of its face whose own held face has its node, the one its
/// normal force loads most (the largest shape-function weight at its
/// projection). Returns how many (0 or 1).
fn release_repeat(set: &mut ContactSet, i: usize, k: usize) -> usize {
    let (first, rest) = set.pairs.split_at_mut(i);
    let (Some(p1), p2) = (first.last_mut(), &rest[0]) else {
        return 0;
    };
    if p1.pass != 1 || p1.input != p2.input {
        return 0;
    }
    let Master::Faces(faces1) = &p1.surface.master else {
        return 0;
    };
    let (node, d, h) = (p2.surface.slaves[k], p2.surface.dim, &p2.points[k].lin.h[0]);
    let mut nodes = [0usize; super::geometry::MAX_NODES];
    let n = p2.element_nodes(k, &mut nodes);
    let mut best: Option<(f64, usize)> = None;
    for (a, &c) in nodes.iter().enumerate().take(n).skip(1) {
        let Some(s) = p1.surface.slave_index(c) else {
            continue;
        };
        let repeats = p1.narrow.held[s].is_some_and(|g| faces1[g].nodes().contains(&node));
        let q = &p1.points[s];
        if !(repeats && q.role == Role::Enforced && q.on_master()) {
            continue;
        }
        let w: f64 = (0..d).map(|j| h[a * d + j] * h[a * d + j]).sum();
        if best.is_none_or(|(bw, _)| w > bw) {
            best = Some((w, s));
        }
    }
    let Some((_, s)) = best else {
        return 0;
    };
    set.pairs[i].points[k].replaced = true;
    let p1 = &mut set.pairs[i - 1];
    p1.points[s].role = Role::Shadowed;
    p1.points[s].r = [0.0; 3];
    1
}

/// The condensed path's answer to a subproblem that stalled with lifted
/// points among its candidates (module docs): each lifted second-pass point
/// of `points` (pair, point) that has not done so yet in this step takes
/// the place of the first-pass point it repeats most ([`release_repeat`]).
/// Returns how many first-pass points were shadowed.
pub(crate) fn release_lifted(
    set: &mut ContactSet,
    points: impl Iterator<Item = (usize, usize)>,
) -> usize {
    let mut released = 0;
    for (i, k) in points {
        let point = &set.pairs[i].points[k];
        if set.pairs[i].pass == 2 && point.role == Role::Lifted && !point.replaced {
            released += release_repeat(set, i, k);
        }
    }
    released
}

/// Whether `first`, the first pass of the `[[contact]]` `input`, holds its
/// slave surface: none of its points penetrates its master beyond the
/// pair's tolerance (true where `first` is another contact's pair).
fn first_pass_holds(first: &super::pair::Pair, input: usize) -> bool {
    if first.pass != 1 || first.input != input {
        return true;
    }
    let tol = first.tol_abs;
    first
        .points
        .iter()
        .all(|q| !(q.on_master() && q.acts()) || q.lin.g1 >= -tol)
}

/// Shadows every second-pass point of the pairs with multipliers for the
/// rest of the step but the lifted ones (those that penetrate are lifted
/// again, and then kept), and lets each lifted one take the place of the
/// first-pass point it repeats most ([`release_repeat`]); returns how many
/// points acted before and no longer do.
pub fn drop_all(set: &mut ContactSet) -> usize {
    set.gate_lifts = true;
    let mut dropped = 0;
    for p in set
        .pairs
        .iter_mut()
        .filter(|p| p.pass == 2 && p.has_multipliers())
    {
        for point in &mut p.points {
            if point.role == Role::Enforced && point.on_master() {
                dropped += 1;
            }
            if point.role == Role::Enforced {
                point.role = Role::Shadowed;
                point.r = [0.0; 3];
            }
        }
    }
    // a lifted point that already took a first-pass point's place (at an
    // earlier stall of the step) does not take a second one
    let lifted: Vec<(usize, usize)> = (1..set.pairs.len())
        .flat_map(|i| (0..set.pairs[i].points.len()).map(move |k| (i, k)))
        .collect();
    dropped + release_lifted(set, lifted.into_iter())
}
