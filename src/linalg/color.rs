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
    }
}
