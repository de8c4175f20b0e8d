//! The few collective operations the parallel run needs, over the world
//! communicator of the `mpi` crate (rsmpi).
//!
//! Every reduction here is *ordered*: each rank's partial values are
//! gathered to every rank and summed in rank order, so all ranks hold the
//! same bits and a run's figures are the same on every repetition with the
//! same number of ranks (MPI's own reductions may associate differently
//! from one call to the next). A decision taken from a reduced value (a
//! Newton test, a cut-back) is therefore the same on every rank.

use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// MPI's counts and displacements of a variable gather of `counts[r]`
/// entries from rank `r`, rank after rank.
fn counts_and_displacements(counts: &[usize]) -> (Vec<mpi::Count>, Vec<mpi::Count>) {
    let c: Vec<mpi::Count> = counts.iter().map(|&n| n as mpi::Count).collect();
    let d = c
        .iter()
        .scan(0, |acc, &n| {
            let start = *acc;
            *acc += n;
            Some(start)
        })
        .collect();
    (c, d)
}

/// This process's place in the world.
pub struct World {
    comm: SimpleCommunicator,
    pub rank: usize,
    pub size: usize,
}

impl World {
    /// The world communicator (MPI initialized by [`super::Mpi::init`]).
    pub fn new() -> World {
        let comm = SimpleCommunicator::world();
        let rank = comm.rank() as usize;
        let size = comm.size() as usize;
        World { comm, rank, size }
    }

    /// Whether this is rank 0, which writes the histories and prints.
    pub fn is_root(&self) -> bool {
        self.rank == 0
    }

    /// Element-wise sums of `partial` over the ranks, added in rank order.
    pub fn sum(&self, partial: &[f64]) -> Vec<f64> {
        let all = self.gather(partial);
        let k = partial.len();
        let mut out = vec![0.0; k];
        for r in 0..self.size {
            for i in 0..k {
                out[i] += all[r * k + i];
            }
        }
        out
    }

    /// The sum of one value over the ranks, in rank order.
    pub fn sum1(&self, v: f64) -> f64 {
        self.sum(&[v])[0]
    }

    /// Element-wise maxima over the ranks.
    pub fn max(&self, partial: &[f64]) -> Vec<f64> {
        let all = self.gather(partial);
        let k = partial.len();
        let mut out = vec![f64::NEG_INFINITY; k];
        for r in 0..self.size {
            for i in 0..k {
                out[i] = out[i].max(all[r * k + i]);
            }
        }
        out
    }

    /// Every rank's `partial`, rank after rank.
    pub fn gather(&self, partial: &[f64]) -> Vec<f64> {
        let mut all = vec![0.0; partial.len() * self.size];
        self.comm.all_gather_into(partial, &mut all[..]);
        all
    }

    /// Every rank's `local` (of `counts[r]` entries on rank `r`), rank
    /// after rank, on every rank.
    pub fn all_gather_var(&self, local: &[f64], counts: &[usize]) -> Vec<f64> {
        let (c, d) = counts_and_displacements(counts);
        let mut all = vec![0.0; counts.iter().sum()];
        let mut part = mpi::datatype::PartitionMut::new(&mut all[..], c, &d[..]);
        self.comm.all_gather_varcount_into(local, &mut part);
        all
    }

    /// Every rank's `partial` (integers), rank after rank.
    pub fn gather_u64(&self, partial: &[u64]) -> Vec<u64> {
        let mut all = vec![0u64; partial.len() * self.size];
        self.comm.all_gather_into(partial, &mut all[..]);
        all
    }

    /// The lowest rank whose `flag` is set, if any (the same answer on every rank).
    pub fn first_set(&self, flag: bool) -> Option<usize> {
        self.gather_u64(&[flag as u64]).iter().position(|&f| f != 0)
    }

    /// Rank `root`'s bytes on every rank (`bytes` is read on `root` only).
    pub fn broadcast_bytes(&self, root: usize, bytes: &[u8]) -> Vec<u8> {
        let p = self.comm.process_at_rank(root as i32);
        let mut len = [bytes.len() as u64];
        p.broadcast_into(&mut len[..]);
        let mut buf = if self.rank == root {
            bytes.to_vec()
        } else {
            vec![0u8; len[0] as usize]
        };
        p.broadcast_into(&mut buf[..]);
        buf
    }

    /// Rank `root`'s integers on every rank.
    pub fn broadcast_i32(&self, root: usize, values: &[i32]) -> Vec<i32> {
        let p = self.comm.process_at_rank(root as i32);
        let mut len = [values.len() as u64];
        p.broadcast_into(&mut len[..]);
        let mut buf = if self.rank == root {
            values.to_vec()
        } else {
            vec![0i32; len[0] as usize]
        };
        p.broadcast_into(&mut buf[..]);
        buf
    }

    /// Rank `root`'s text on every rank.
    pub fn broadcast_text(&self, root: usize, text: &str) -> String {
        String::from_utf8_lossy(&self.broadcast_bytes(root, text.as_bytes())).into_owned()
    }

    /// Rank 0 gets every rank's `local` (of `counts[r]` entries on rank
    /// `r`), rank after rank; the other ranks get `None`.
    pub fn gather_to_root(&self, local: &[f64], counts: &[usize]) -> Option<Vec<f64>> {
        let root = self.comm.process_at_rank(0);
        if !self.is_root() {
            root.gather_varcount_into(local);
            return None;
        }
        let (c, d) = counts_and_displacements(counts);
        let mut all = vec![0.0; counts.iter().sum()];
        let mut part = mpi::datatype::PartitionMut::new(&mut all[..], c, &d[..]);
        root.gather_varcount_into_root(local, &mut part);
        Some(all)
    }

    /// Waits for every rank.
    pub fn barrier(&self) {
        self.comm.barrier();
    }
}
