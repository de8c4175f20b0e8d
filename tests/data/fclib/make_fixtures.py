#!/usr/bin/env python3
"""Writes the generated FCLIB fixtures under tests/data/fclib/ (numpy + h5py
only; run once, the files are committed, the tests do not run Python to make
them):

usage: make_fixtures.py [OUT_DIR]   (default: the folder of this script)

triangular/: small global problems whose mass matrix M is stored the way some
published files store it (the triangle-stored-mass regression). 3D, FEM-like:
M = K + mass, H picks a few nodes' displacements:
  upper-triplet.hdf5   M as its upper triangle only, triplets (nz >= 0), 1 contact
                       (like the Siconos test file CubeH8)
  upper-csc.hdf5       M as its upper triangle only, CSC (nz = -1), 9 contacts
                       (like LMGC's GlobalFrictionContactProblem files)
  lower-triplet.hdf5   M as its lower triangle only, triplets, 4 contacts
  general-csc.hdf5     M neither symmetric nor triangular (all entries), 4 contacts
  full-triplet.hdf5    M symmetric, both triangles stored (the control), 4 contacts

The problem a file defines is M exactly as stored (as Siconos reads it and as the
independent checker tests/common/fclib_check.py reads it).

bad/truncated-triplet.hdf5: a local problem whose triplet arrays are shorter
than its nz (the reader must refuse it with a typed error naming /fclib_local/W)."""
import os
import sys
import h5py
import numpy as np


def spd_matrix(n, rng):
    """Stiffness of a chain of springs in 3D plus a lumped mass: SPD, banded."""
    k = np.zeros((n, n))
    for i in range(n - 3):
        s = 1.0 + rng.random()
        for a, b in ((i, i), (i + 3, i + 3)):
            k[a, b] += s
        k[i, i + 3] -= s
        k[i + 3, i] -= s
    return k + np.diag(0.5 + rng.random(n))


def contact_h(n, nc, rng):
    """H: contact c reads the displacement of node c (3 dofs) in a rotated frame."""
    h = np.zeros((n, 3 * nc))
    for c in range(nc):
        q, _ = np.linalg.qr(rng.standard_normal((3, 3)))
        node = (c * 5) % (n // 3)
        h[3 * node:3 * node + 3, 3 * c:3 * c + 3] = q
    return h


def write_sparse(g, name, a, storage):
    grp = g.create_group(name)
    m, n = a.shape
    if storage == "triplet":
        i, p = np.nonzero(a)  # rows, columns (CSparse triplets: i rows, p columns)
        x = a[i, p]
        nz = len(x)
    else:  # CSC
        cols = [np.nonzero(a[:, j])[0] for j in range(n)]
        p = np.concatenate([[0], np.cumsum([len(c) for c in cols])])
        i = np.concatenate(cols) if cols else np.zeros(0, int)
        x = np.concatenate([a[c, j] for j, c in enumerate(cols)])
        nz = -1
    for key, val in (("nzmax", len(x)), ("m", m), ("n", n), ("nz", nz)):
        grp.create_dataset(key, data=np.array([val], dtype=np.int32))
    grp.create_dataset("p", data=np.asarray(p, dtype=np.int32))
    grp.create_dataset("i", data=np.asarray(i, dtype=np.int32))
    grp.create_dataset("x", data=np.asarray(x, dtype=np.float64))


def write(path, m, h, f, w, mu, storage):
    with h5py.File(path, "w") as fh:
        g = fh.create_group("fclib_global")
        g.create_dataset("spacedim", data=np.array([3], dtype=np.int32))
        write_sparse(g, "M", m, storage)
        write_sparse(g, "H", h, storage)
        v = g.create_group("vectors")
        v.create_dataset("f", data=f)
        v.create_dataset("w", data=w)
        v.create_dataset("mu", data=mu)


def truncated_triplet(path):
    with h5py.File(path, "w") as f:
        g = f.create_group("fclib_local")
        g["spacedim"] = np.array([3], "i4")
        w = g.create_group("W")
        for k, v in dict(nzmax=[5], m=[3], n=[3], nz=[5], p=[0, 1], i=[0, 1]).items():
            w[k] = np.array(v, "i4")
        w["x"] = np.array([1.0, 2.0])
        v = g.create_group("vectors")
        v["q"] = np.zeros(3)
        v["mu"] = np.array([0.5])


def main(out):
    os.makedirs(f"{out}/triangular", exist_ok=True)
    os.makedirs(f"{out}/bad", exist_ok=True)
    truncated_triplet(f"{out}/bad/truncated-triplet.hdf5")
    rng = np.random.default_rng(15)
    cases = [
        ("upper-triplet", 24, 1, "upper", "triplet"),
        ("upper-csc", 60, 9, "upper", "csc"),
        ("lower-triplet", 30, 4, "lower", "triplet"),
        ("general-csc", 30, 4, "general", "csc"),
        ("full-triplet", 30, 4, "full", "triplet"),
    ]
    for name, n, nc, kind, storage in cases:
        k = spd_matrix(n, rng)
        if kind == "upper":
            m = np.triu(k)
        elif kind == "lower":
            m = np.tril(k)
        elif kind == "general":
            m = k + 0.2 * np.triu(k, 1) * rng.random((n, n))
        else:
            m = k
        h = contact_h(n, nc, rng)
        f = rng.standard_normal(n)
        # Normal parts of w push into contact so that some contacts are active.
        w = rng.standard_normal(3 * nc) * 0.5
        w[0::3] = -np.abs(w[0::3]) - 0.5
        mu = rng.uniform(0.2, 0.8, nc)
        write(f"{out}/triangular/{name}.hdf5", m, h, f, w, mu, storage)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__)))
