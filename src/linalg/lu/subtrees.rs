//! Disjoint subtrees of the supernodal elimination tree that a
//! factorization may process in parallel (tree-level parallelism of the
//! left-looking LU, [`crate::linalg::SupernodalLu`]).
//!
//! A supernode's parent is the supernode of the first row below its
//! diagonal block; a supernode is updated only by its descendants. In the
//! postorder faer numbers supernodes in, a subtree is a contiguous range
//! `first..=root`, so two subtrees own disjoint ranges of the factor
//! arrays and can be factored at the same time. What is left (the
//! supernodes above them, and the trailing block) is factored after them.
//!
//! The partition depends on the structure only, not on the number of
//! threads: the factors are the same bit for bit however many threads run.

use std::collections::BinaryHeap;

/// Subtrees are split while the largest holds more than this share of the
/// work of all of them...
const MAX_SHARE: f64 = 1.0 / 8.0;
/// ... and its root (which then waits for the others) holds at most this
/// share of its subtree's work.
const MAX_ROOT_SHARE: f64 = 0.25;
/// At most this many subtrees.
const MAX_SUBTREES: usize = 64;

/// The subtrees as ranges `(first, root)` of supernodes, sorted; `work`
/// (flops per supernode), `parent` (`usize::MAX`: a root); supernodes from
/// `stop` on (the trailing block) are never in a subtree. Empty where the
/// numbering is not a postorder or the tree has no parallel work.
pub fn partition(work: &[f64], parent: &[usize], stop: usize) -> Vec<(usize, usize)> {
    let ns = work.len();
    let mut first: Vec<usize> = (0..ns).collect();
    let mut size = vec![1usize; ns];
    let mut total = work.to_vec();
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); ns];
    for s in 0..ns {
        let p = parent[s];
        if p == usize::MAX {
            continue;
        }
        if p <= s {
            return Vec::new();
        }
        first[p] = first[p].min(first[s]);
        size[p] += size[s];
        total[p] += total[s];
        children[p].push(s);
    }
    if (0..ns).any(|s| size[s] != s + 1 - first[s]) {
        return Vec::new();
    }
    // largest subtree first (work as ordered bits: work is non-negative)
    let key = |s: usize| (total[s].to_bits(), s);
    // the largest subtrees below `stop` (ancestors have larger numbers)
    let mut heap: BinaryHeap<(u64, usize)> = (0..stop.min(ns))
        .filter(|&s| parent[s] == usize::MAX || parent[s] >= stop)
        .map(key)
        .collect();
    let mut sum: f64 = heap.iter().map(|&(_, s)| total[s]).sum();
    while let Some(&(_, s)) = heap.peek() {
        // only into two or more children with work left
        let split = total[s] > MAX_SHARE * sum
            && work[s] <= MAX_ROOT_SHARE * total[s]
            && children[s].iter().filter(|&&c| total[c] > 0.0).count() >= 2
            && heap.len() + children[s].len() <= MAX_SUBTREES;
        if !split {
            break;
        }
        heap.pop();
        sum -= work[s];
        heap.extend(children[s].iter().map(|&c| key(c)));
    }
    let mut out: Vec<(usize, usize)> = heap
        .into_iter()
        .filter(|&(_, s)| total[s] > 0.0)
        .map(|(_, s)| (first[s], s))
        .collect();
    out.sort_unstable();
    if out.len() < 2 {
        return Vec::new();
    }
    out
}

/// At most this many levels.
const MAX_LEVELS: usize = 4;

/// Levels of subtrees factored in parallel, one level after another: the
/// first is [`partition`]; each next one partitions what the levels before
/// left (their supernodes count as done), so the separators above the
/// first subtrees (two bodies' top separators, say) are factored side by
/// side too. A subtree of a later level contains the earlier subtrees
/// below it, already factored. What no level takes is factored last, in
/// order.
pub fn levels(work: &[f64], parent: &[usize], stop: usize) -> Vec<Vec<(usize, usize)>> {
    let mut left = work.to_vec();
    let mut out = Vec::new();
    while out.len() < MAX_LEVELS {
        let level = partition(&left, parent, stop);
        if level.is_empty() {
            break;
        }
        for &(f, r) in &level {
            left[f..=r].iter_mut().for_each(|w| *w = 0.0);
        }
        out.push(level);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subtrees_are_disjoint_ranges_below_the_stop() {
        // a balanced binary tree of 15 supernodes in postorder, unit work
        // at the leaves and small work above
        let mut parent = vec![usize::MAX; 15];
        let mut work = vec![0.1; 15];
        // postorder: leaves 0,1 -> 2; 3,4 -> 5; 2,5 -> 6; same for 7..13; 6,13 -> 14
        for (c, p) in [
            (0, 2),
            (1, 2),
            (3, 5),
            (4, 5),
            (2, 6),
            (5, 6),
            (7, 9),
            (8, 9),
            (10, 12),
            (11, 12),
            (9, 13),
            (12, 13),
            (6, 14),
            (13, 14),
        ] {
            parent[c] = p;
        }
        for l in [0, 1, 3, 4, 7, 8, 10, 11] {
            work[l] = 1.0;
        }
        let parts = partition(&work, &parent, 15);
        assert!(parts.len() >= 4, "{parts:?}");
        for w in parts.windows(2) {
            assert!(w[0].1 < w[1].0, "disjoint: {parts:?}");
        }
        for &(f, r) in &parts {
            assert!(r < 14 && f <= r);
        }
        // nothing from the stop on: the root's children are both above it
        let parts = partition(&work, &parent, 6);
        assert!(parts.iter().all(|&(_, r)| r < 6), "{parts:?}");
        // not a postorder: no partition
        let mut bad = parent.clone();
        bad[0] = usize::MAX;
        bad[14] = 0;
        assert!(partition(&work, &bad, 15).is_empty());
    }
}
