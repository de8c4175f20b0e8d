//! Greedy element colouring: elements of one colour share no node.

/// Colours the elements given by their node lists (`nodes_of(e)`), returning
/// the element indices of each colour. Greedy, first-fit, in element order;
/// structured hex meshes get 8 colours, unstructured ones a few more.
pub fn color_elements<'a, F>(n_elements: usize, n_nodes: usize, nodes_of: F) -> Vec<Vec<usize>>
where
    F: Fn(usize) -> &'a [usize],
{
    // node_colors[n] = bit set of colours already touching node n (u64: up to 64 colours,
    // then fall back to a slower path that scans the colour lists).
    let mut node_colors = vec![0u64; n_nodes];
    let mut colors: Vec<Vec<usize>> = Vec::new();
    let mut overflow: Vec<usize> = Vec::new();
    for e in 0..n_elements {
        let used = nodes_of(e)
            .iter()
            .fold(0u64, |acc, &n| acc | node_colors[n]);
        let c = (!used).trailing_zeros() as usize;
        if c >= 64 {
            overflow.push(e);
            continue;
        }
        if c == colors.len() {
            colors.push(Vec::new());
        }
        colors[c].push(e);
        for &n in nodes_of(e) {
            node_colors[n] |= 1 << c;
        }
    }
    // Pathological meshes (a node shared by more than 64 elements): one colour each.
    colors.extend(overflow.into_iter().map(|e| vec![e]));
    colors
}

/// Whether `colors` is a colouring of `n_elements` elements on `n_nodes`
/// nodes whose elements of one colour share no node: every element in
/// exactly one colour, every node below `n_nodes`. Parallel assembly by
/// colour writes through shared pointers on this property
/// (`dynamics::system`), so it is checked, not assumed.
pub fn share_no_node<'a, F>(
    colors: &[Vec<usize>],
    n_elements: usize,
    n_nodes: usize,
    nodes_of: F,
) -> bool
where
    F: Fn(usize) -> &'a [usize],
{
    let mut stamp = vec![usize::MAX; n_nodes];
    let mut seen = vec![false; n_elements];
    for (c, color) in colors.iter().enumerate() {
        for &e in color {
            if e >= n_elements || std::mem::replace(&mut seen[e], true) {
                return false;
            }
            for &n in nodes_of(e) {
                if n >= n_nodes || std::mem::replace(&mut stamp[n], c) == c {
                    return false;
                }
            }
        }
    }
    seen.iter().all(|&s| s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_share_no_node() {
        // a strip of 2-node "elements" sharing nodes, plus a star around node 0
        let mut elems: Vec<[usize; 2]> = (0..50).map(|i| [i, i + 1]).collect();
        elems.extend((1..70).map(|i| [0, i]));
        let colors = color_elements(elems.len(), 71, |e| &elems[e][..]);
        let mut seen = vec![false; elems.len()];
        for c in &colors {
            let mut touched = std::collections::HashSet::new();
            for &e in c {
                assert!(!seen[e]);
                seen[e] = true;
                for &n in &elems[e] {
                    assert!(touched.insert(n), "node {n} twice in one colour");
                }
            }
        }
        assert!(seen.iter().all(|&s| s), "every element coloured");
        assert!(share_no_node(&colors, elems.len(), 71, |e| &elems[e][..]));
        // a colour holding two elements with a common node is refused, and so
        // is an element left out or coloured twice
        // (elements 0 = [0, 1] and 1 = [1, 2] share node 1)
        let mut bad = colors.clone();
        let of = |e: usize| bad.iter().position(|c| c.contains(&e)).unwrap();
        let (c0, c1) = (of(0), of(1));
        bad[c1].retain(|&e| e != 1);
        bad[c0].push(1);
        assert!(!share_no_node(&bad, elems.len(), 71, |e| &elems[e][..]));
        let mut twice = colors.clone();
        twice.push(vec![0]);
        assert!(!share_no_node(&twice, elems.len(), 71, |e| &elems[e][..]));
        let mut missing = colors.clone();
        missing[0].pop();
        assert!(!share_no_node(&missing, elems.len(), 71, |e| &elems[e][..]));
    }
}
