//! Second-order meshes from first-order ones: every element gains the nodes
//! of its second-order kind (edge midpoints; face and cell centres for
//! quad9 / hex27), shared between the elements and faces that meet there.
use super::{Element, Mesh};
use crate::fe::{ElementKind, MAX_NODES};
use std::collections::HashMap;

impl Mesh {
    /// Turns every first-order element of every group into its second-order
    /// kind: line2 → line3, tri3 → tri6, tet4 → tet10, quad4 → quad8 and
    /// hex8 → hex20 (`serendipity`) or quad9 and hex27. A new node sits where
    /// the first-order element maps its reference coordinates (straight
    /// edges, flat faces), and is created once for all the elements and faces
    /// that share it (keyed by the corners it lies between), so bodies and
    /// their surface groups stay conforming. Second-order elements are left
    /// as they are. Returns the number of nodes added.
    pub fn to_second_order(&mut self, serendipity: bool) -> usize {
        let before = self.nodes.len();
        let mut made: HashMap<[usize; 8], usize> = HashMap::new();
        for g in 0..self.groups.len() {
            for i in 0..self.groups[g].elements.len() {
                let e = self.groups[g].elements[i];
                let Some(kind) = second_order(e.kind, serendipity) else {
                    continue;
                };
                let corners = e.nodes().to_vec();
                let mut nodes = [0usize; MAX_NODES];
                nodes[..corners.len()].copy_from_slice(&corners);
                let mut n = [0.0; MAX_NODES];
                let mut dn = [[0.0; 3]; MAX_NODES];
                for (k, xi) in kind
                    .reference_nodes()
                    .iter()
                    .enumerate()
                    .skip(corners.len())
                {
                    e.kind.shape(xi, &mut n, &mut dn);
                    let mut key = [usize::MAX; 8];
                    let mut x = [0.0; 3];
                    let mut m = 0;
                    for (c, &a) in corners.iter().enumerate() {
                        if n[c].abs() > 1e-12 {
                            key[m] = a;
                            m += 1;
                            for (xj, pj) in x.iter_mut().zip(self.nodes[a]) {
                                *xj += n[c] * pj;
                            }
                        }
                    }
                    key.sort_unstable();
                    nodes[k] = *made.entry(key).or_insert_with(|| {
                        self.nodes.push(x);
                        self.nodes.len() - 1
                    });
                }
                self.groups[g].elements[i] = Element::new(kind, &nodes[..kind.n_nodes()]);
            }
        }
        self.nodes.len() - before
    }
}

/// The second-order kind of a first-order one.
fn second_order(kind: ElementKind, serendipity: bool) -> Option<ElementKind> {
    Some(match kind {
        ElementKind::Line2 => ElementKind::Line3,
        ElementKind::Tri3 => ElementKind::Tri6,
        ElementKind::Tet4 => ElementKind::Tet10,
        ElementKind::Quad4 if serendipity => ElementKind::Quad8,
        ElementKind::Quad4 => ElementKind::Quad9,
        ElementKind::Hex8 if serendipity => ElementKind::Hex20,
        ElementKind::Hex8 => ElementKind::Hex27,
        _ => return None,
    })
}
