//! A census of the second pass's pseudo-nodes at a correction (debug and
//! trace logs): how many are shadowed, lifted, loaded and acting on a face,
//! the figures that decide whether their pseudo-nodes are worth leaving out
//! of the augmented pattern (docs/decisions/anchored-pseudo-nodes.md).

use crate::contact::set::ContactSet;
use crate::contact::slave::Role;

/// Logs how many second-pass points carry a pseudo-node, how many of
/// them are shadowed, lifted, and in contact (`r ≠ 0`) at this correction.
pub(super) fn log_second_pass(points: &[(usize, usize)], set: &ContactSet) {
    let (mut total, mut shadowed, mut lifted, mut loaded, mut acting) = (0, 0, 0, 0, 0);
    for &(p, k) in points {
        if set.pairs[p].pass != 2 {
            continue;
        }
        let q = &set.pairs[p].points[k];
        total += 1;
        shadowed += usize::from(q.role == Role::Shadowed);
        lifted += usize::from(q.role == Role::Lifted);
        loaded += usize::from(q.r != [0.0; 3]);
        acting += usize::from(q.acts() && q.on_master());
    }
    log::debug!("contact (saddle): second-pass pseudo-nodes {total}: shadowed {shadowed}, lifted {lifted}, r ≠ 0 {loaded}, acting on a face {acting}");
    if log::log_enabled!(log::Level::Trace) {
        // the points examples/saddle_fill.rs keeps in its (c3) pattern
        let on_face = points.iter().filter(|&&(p, k)| {
            let q = &set.pairs[p].points[k];
            set.pairs[p].pass == 2 && q.acts() && q.on_master()
        });
        let list: Vec<usize> = on_face.map(|&(_, k)| k).collect();
        log::trace!("contact (saddle): second-pass points acting on a face: {list:?}");
    }
}
