//! Which points carry multipliers in the coming step, and the nodes each
//! point's multipliers are coupled to.

use crate::contact::set::ContactSet;

/// `(pair, point, nodes)`: a point that may touch in the coming step and
/// the nodes its multipliers are coupled to (slave first).
pub type Reach = Vec<(usize, usize, Vec<usize>)>;

impl ContactSet {
    /// The points whose multipliers the saddle path carries in the coming
    /// step, from `x`, `v` at `t_n`: every point of an enforced pair with
    /// multipliers that may reach a master face (the broad phase's swept
    /// test, [`crate::contact::broad::swept_pairs`]) with the nodes of those
    /// faces, and every slave of a plane pair within a few face sizes of
    /// the plane over the step.
    pub fn reach(&self, x: &[f64], v: &[f64], dt: f64) -> Reach {
        let mut out = Vec::new();
        for (p, pair) in self.pairs.iter().enumerate() {
            if !pair.has_multipliers() {
                continue;
            }
            let s = &pair.surface;
            let mut lists: Vec<Vec<usize>> = vec![Vec::new(); s.slaves.len()];
            crate::contact::broad::reach(s, x, v, dt, |k, nodes| {
                let l = &mut lists[k];
                if l.is_empty() {
                    l.push(s.slaves[k]);
                }
                for &a in nodes {
                    if !l.contains(&a) {
                        l.push(a);
                    }
                }
            });
            for (k, l) in lists.into_iter().enumerate() {
                if !l.is_empty() {
                    out.push((p, k, l));
                }
            }
        }
        out
    }
}
