//! Broad phase: candidate master faces for each slave node, by uniform-grid
//! spatial hashing of the master faces' bounding boxes (DESIGN §5: "for slave
//! node s find the closest point ξ̄ on the master surface").
//!
//! # Method
//!
//! Every master face's axis-aligned bounding box, enlarged by `margin` on all
//! sides, is inserted into every cell of a uniform grid that it overlaps; the
//! grid is not stored densely but hashed into a table of about twice as many
//! buckets as insertions (compressed-row storage: `starts`, `entries`). The
//! cell edge is the mean face size (largest box extent) plus `2·margin`, so a
//! box overlaps at most 2 cells per axis when faces are of similar size; a face
//! spanning more than [`LARGE_FACE_CELLS`] cells is kept in a short list that is
//! tested on every query instead. A query hashes the point's cell and keeps the
//! faces whose enlarged box contains the point: every face within distance
//! `margin` of the point is returned (the enlarged box contains the
//! `margin`-neighbourhood of the face). Build and rebuild cost O(faces), a query
//! O(faces in its bucket); after the first build and the first queries nothing
//! allocates (vectors are cleared and refilled, not dropped).
//!
//! [`SpatialHash::closest_face`] then runs the narrow phase
//! ([`crate::contact::geometry::project()`]) on each candidate.

use crate::contact::geometry::{project, Projection};
use crate::mesh::Element;

/// A face whose enlarged box overlaps more grid cells than this is not hashed
/// but tested on every query.
pub const LARGE_FACE_CELLS: i64 = 64;

/// Uniform-grid spatial hash over master-face bounding boxes (see module docs).
#[derive(Debug, Clone, Default)]
pub struct SpatialHash {
    margin: f64,
    cell: f64,
    inv_cell: f64,
    mask: u64,
    /// Enlarged bounding box `[min, max]` of every face.
    boxes: Vec<[[f64; 3]; 2]>,
    /// Bucket `b` holds `entries[starts[b]..starts[b + 1]]`.
    starts: Vec<u32>,
    entries: Vec<u32>,
    /// Faces spanning more than [`LARGE_FACE_CELLS`] cells.
    large: Vec<u32>,
}

/// Integer cell coordinates of a point.
#[inline]
fn cell_of(p: [f64; 3], inv: f64) -> [i64; 3] {
    [
        (p[0] * inv).floor() as i64,
        (p[1] * inv).floor() as i64,
        (p[2] * inv).floor() as i64,
    ]
}

#[inline]
fn hash(c: [i64; 3], mask: u64) -> usize {
    let mut h = (c[0] as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (c[1] as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ (c[2] as u64).wrapping_mul(0x1656_67B1_9E37_79F9);
    h ^= h >> 29;
    (h & mask) as usize
}

impl SpatialHash {
    /// An empty hash; faces within `margin` of a query point are candidates.
    /// Panics if `margin` is negative or not finite (caller bug).
    #[track_caller]
    pub fn new(margin: f64) -> SpatialHash {
        assert!(margin >= 0.0 && margin.is_finite(), "margin {margin}");
        SpatialHash {
            margin,
            ..SpatialHash::default()
        }
    }

    /// The search margin.
    pub fn margin(&self) -> f64 {
        self.margin
    }

    /// The grid cell edge chosen by the last [`SpatialHash::rebuild`].
    pub fn cell_size(&self) -> f64 {
        self.cell
    }

    /// Number of faces hashed.
    pub fn n_faces(&self) -> usize {
        self.boxes.len()
    }

    /// (Re)build from the current node positions `x` and the master `faces`
    /// (line2, tri3, quad4 or second-order faces indexing `x`; the box of a
    /// curved face is enlarged by its bulge). Reuses all allocations of
    /// the previous build. Panics if a face indexes outside `x` (caller bug).
    #[track_caller]
    pub fn rebuild(&mut self, x: &[[f64; 3]], faces: &[Element]) {
        assert!(faces.len() < u32::MAX as usize, "too many faces");
        let m = self.margin;
        self.boxes.clear();
        let mut size_sum = 0.0;
        for f in faces {
            let mut b = [[f64::INFINITY; 3], [f64::NEG_INFINITY; 3]];
            for &n in f.nodes() {
                for d in 0..3 {
                    b[0][d] = b[0][d].min(x[n][d]);
                    b[1][d] = b[1][d].max(x[n][d]);
                }
            }
            size_sum += (0..3).map(|d| b[1][d] - b[0][d]).fold(0.0, f64::max);
            let pad = m + bulge(f, x);
            for d in 0..3 {
                b[0][d] -= pad;
                b[1][d] += pad;
            }
            self.boxes.push(b);
        }
        let mean = if faces.is_empty() {
            0.0
        } else {
            size_sum / faces.len() as f64
        };
        self.cell = mean + 2.0 * m;
        if !(self.cell > 0.0 && self.cell.is_finite()) {
            self.cell = 1.0;
        }
        self.inv_cell = 1.0 / self.cell;

        // Pass 1: number of insertions, to size the table.
        self.large.clear();
        let mut total = 0usize;
        for (i, b) in self.boxes.iter().enumerate() {
            let n = self.cells_spanned(b);
            if n > LARGE_FACE_CELLS {
                self.large.push(i as u32);
            } else {
                total += n as usize;
            }
        }
        let table = (2 * total).max(16).next_power_of_two();
        self.mask = table as u64 - 1;
        self.starts.clear();
        self.starts.resize(table + 1, 0);

        // Pass 2: count per bucket; prefix sums; pass 3: fill (counting sort).
        let (inv, mask) = (self.inv_cell, self.mask);
        for b in &self.boxes {
            if self.cells_spanned(b) <= LARGE_FACE_CELLS {
                for_cells(b, inv, |c| self.starts[hash(c, mask) + 1] += 1);
            }
        }
        for i in 0..table {
            self.starts[i + 1] += self.starts[i];
        }
        self.entries.clear();
        self.entries.resize(total, 0);
        // Use starts[b] as the fill cursor, then shift back.
        for (i, b) in self.boxes.iter().enumerate() {
            if self.cells_spanned(b) <= LARGE_FACE_CELLS {
                for_cells(b, inv, |c| {
                    let h = hash(c, mask);
                    self.entries[self.starts[h] as usize] = i as u32;
                    self.starts[h] += 1;
                });
            }
        }
        for i in (1..=table).rev() {
            self.starts[i] = self.starts[i - 1];
        }
        self.starts[0] = 0;
    }

    fn cells_spanned(&self, b: &[[f64; 3]; 2]) -> i64 {
        let (lo, hi) = (cell_of(b[0], self.inv_cell), cell_of(b[1], self.inv_cell));
        (0..3).fold(1i64, |n, d| {
            n.saturating_mul((hi[d] - lo[d] + 1).clamp(1, i64::MAX / 4))
        })
    }

    /// Distance from `point` to face `f`'s bounding box (not enlarged).
    fn box_distance(&self, f: usize, point: [f64; 3]) -> f64 {
        let b = &self.boxes[f];
        let mut d2 = 0.0;
        for d in 0..3 {
            let e = (b[0][d] + self.margin - point[d])
                .max(point[d] - (b[1][d] - self.margin))
                .max(0.0);
            d2 += e * e;
        }
        d2.sqrt()
    }

    /// Faces whose margin-enlarged bounding box contains `point` (so every face
    /// within distance `margin` of it), sorted by index, into `out` (cleared
    /// first; does not allocate once `out` has grown to the largest answer).
    pub fn candidates(&self, point: [f64; 3], out: &mut Vec<usize>) {
        out.clear();
        if self.boxes.is_empty() {
            return;
        }
        let inside = |b: &[[f64; 3]; 2]| (0..3).all(|d| point[d] >= b[0][d] && point[d] <= b[1][d]);
        let h = hash(cell_of(point, self.inv_cell), self.mask);
        let (s, e) = (self.starts[h] as usize, self.starts[h + 1] as usize);
        for &f in &self.entries[s..e] {
            if inside(&self.boxes[f as usize]) {
                out.push(f as usize);
            }
        }
        for &f in &self.large {
            if inside(&self.boxes[f as usize]) {
                out.push(f as usize);
            }
        }
        // A face occupies a bucket twice only if two of its cells collide.
        out.sort_unstable();
        out.dedup();
    }

    /// Narrow phase over the candidates of `point`: the face with the smallest
    /// distance and its projection, or `None` when no face lies within the
    /// margin. Ties (distances within `1e-12·(d + cell)`) go to the interior
    /// projection before an edge before a vertex, then to the lower face index,
    /// so the answer does not depend on the hashing order. Faces whose bounding
    /// box is farther than the best distance so far are not projected. `scratch`
    /// holds the candidate list (no allocation after warm-up). `x`, `faces` must be those
    /// of the last [`SpatialHash::rebuild`] (or moved by less than the margin's
    /// slack the caller allows).
    pub fn closest_face(
        &self,
        x: &[[f64; 3]],
        faces: &[Element],
        point: [f64; 3],
        scratch: &mut Vec<usize>,
    ) -> Option<(usize, Projection)> {
        self.closest_face_except(x, faces, point, scratch, |_| false)
    }

    /// [`SpatialHash::closest_face`] among the faces for which `skip` does
    /// not hold (a self-contact node's own side, [`crate::contact::own`]).
    pub fn closest_face_except(
        &self,
        x: &[[f64; 3]],
        faces: &[Element],
        point: [f64; 3],
        scratch: &mut Vec<usize>,
        skip: impl Fn(usize) -> bool,
    ) -> Option<(usize, Projection)> {
        self.candidates(point, scratch);
        scratch.retain(|&f| !skip(f));
        // Project the face with the nearest box first, so that the box bound
        // below rejects most of the others.
        if let Some(first) = (0..scratch.len()).min_by(|&i, &j| {
            let (a, b) = (
                self.box_distance(scratch[i], point),
                self.box_distance(scratch[j], point),
            );
            a.total_cmp(&b)
        }) {
            scratch.swap(0, first);
        }
        let mut best: Option<(usize, Projection)> = None;
        for &f in scratch.iter() {
            if let Some((_, bp)) = &best {
                // The distance to the face's own box bounds its distance below.
                if self.box_distance(f, point) > bp.distance * (1.0 + 1e-12) + 1e-12 * self.cell {
                    continue;
                }
            }
            let face = &faces[f];
            let kind = face.kind;
            let mut nodes = [[0.0; 3]; crate::contact::geometry::MAX_FACE_NODES];
            for (k, &n) in face.nodes().iter().enumerate() {
                nodes[k] = x[n];
            }
            let p = project(kind, &nodes[..kind.n_nodes()], point);
            if p.distance > self.margin {
                continue;
            }
            best = match best {
                None => Some((f, p)),
                Some((bf, bp)) => {
                    let tol = 1e-12 * (bp.distance + self.cell);
                    let better = p.distance < bp.distance - tol
                        || (p.distance <= bp.distance + tol
                            && (p.location.rank(), f) < (bp.location.rank(), bf));
                    Some(if better { (f, p) } else { (bf, bp) })
                }
            };
        }
        best
    }
}

/// How far a second-order face may reach beyond the box of its nodes: twice
/// the largest distance of a midside (or centre) node from the point of the
/// corners' own face at the same parameters. A parabola lies in the hull of
/// its Bézier points, the middle one at the midside node moved once more by
/// that distance, so once is enough for an edge; twice covers the centre of
/// a quad. Zero for first-order faces.
fn bulge(f: &Element, x: &[[f64; 3]]) -> f64 {
    let kind = f.kind;
    if kind.order() == 1 {
        return 0.0;
    }
    let nodes = f.nodes();
    let nc = kind.n_corners();
    let mut worst: f64 = 0.0;
    for (k, &a) in nodes.iter().enumerate().skip(nc) {
        // edge node k − nc between corners (k − nc) and (k − nc + 1) mod nc;
        // quad9's centre is the mean of the corners
        let c: [f64; 3] = if k - nc < nc {
            let (i, j) = (nodes[k - nc], nodes[(k - nc + 1) % nc]);
            std::array::from_fn(|d| 0.5 * (x[i][d] + x[j][d]))
        } else {
            std::array::from_fn(|d| nodes[..nc].iter().map(|&i| x[i][d]).sum::<f64>() / nc as f64)
        };
        let dev: [f64; 3] = std::array::from_fn(|d| x[a][d] - c[d]);
        worst = worst.max((dev[0] * dev[0] + dev[1] * dev[1] + dev[2] * dev[2]).sqrt());
    }
    2.0 * worst
}

/// Calls `visit` for every grid cell overlapped by box `b`.
#[inline]
fn for_cells(b: &[[f64; 3]; 2], inv: f64, mut visit: impl FnMut([i64; 3])) {
    let (lo, hi) = (cell_of(b[0], inv), cell_of(b[1], inv));
    for i in lo[0]..=hi[0] {
        for j in lo[1]..=hi[1] {
            for k in lo[2]..=hi[2] {
                visit([i, j, k]);
            }
        }
    }
}
