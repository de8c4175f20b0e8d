//! The Params / Info of the supernodal LU's numeric factorization.

/// Options of [`crate::linalg::SupernodalLu::factorize`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LuParams {
    /// A pivot below `small_pivot · max|A|` is counted as small
    /// ([`LuInfo::small_pivots`]): solves on such factors may need
    /// refinement, so [`crate::linalg::LinearSolver`] does not take the
    /// unrefined trailing-block solves of `W` on them. Default `√ε`, the
    /// pivot size below which the elimination's growth may cost half the
    /// digits.
    pub small_pivot: f64,
    /// Dense kernels (updates and panel solves) of at least this many flops
    /// use the rayon threads, outside the subtrees factored in parallel.
    /// Default `2²²`: below that the threads' start-up costs more than it
    /// saves.
    pub par_min_flops: usize,
}

impl Default for LuParams {
    fn default() -> Self {
        LuParams {
            small_pivot: f64::EPSILON.sqrt(),
            par_min_flops: 1 << 22,
        }
    }
}

/// What a factorization found.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LuInfo {
    /// Pivots below `small_pivot · max|A|` ([`LuParams::small_pivot`]).
    pub small_pivots: usize,
    /// The smallest `|pivot| / max|A|` (`+∞` for an empty matrix).
    pub min_pivot: f64,
}

/// Pivot statistics of a range of supernodes, merged across ranges.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Pivots {
    /// Pivots below the threshold `small` (an absolute size).
    pub small: f64,
    pub count: usize,
    /// The smallest `|pivot|`.
    pub min: f64,
}

impl Pivots {
    pub fn new(small: f64) -> Pivots {
        Pivots {
            small,
            count: 0,
            min: f64::INFINITY,
        }
    }

    /// Counts the pivot `u`.
    pub fn add(&mut self, u: f64) {
        self.count += (u.abs() < self.small) as usize;
        self.min = self.min.min(u.abs());
    }

    /// These and `other`'s pivots.
    pub fn merged(self, other: Pivots) -> Pivots {
        Pivots {
            small: self.small,
            count: self.count + other.count,
            min: self.min.min(other.min),
        }
    }

    /// The info of these pivots for a matrix whose largest entry is `amax`.
    pub fn info(self, amax: f64) -> LuInfo {
        LuInfo {
            small_pivots: self.count,
            min_pivot: self.min / amax,
        }
    }
}
