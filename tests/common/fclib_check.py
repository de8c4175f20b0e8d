#!/usr/bin/env python3
"""Independent check of a frictional-contact solution (numpy + h5py only; written
without looking at the Rust solvers).

usage: fclib_check.py PROBLEM.hdf5 SOLUTION.hdf5 [TOL]

Reads the problem exactly as the file stores it (local W, q, mu; or global M, H, f,
w, mu, with M as stored: a triangle stays a triangle, as Siconos reads it), forms
the reduced problem densely (W = H^T M^-1 H, q = H^T M^-1 f + w by numpy's LU
solve), takes r from /solution/r and prints the FCLIB error
||F_nat(r)|| / ||q||, F_nat(r) = r - P_K(r - (u + mu ||u_T|| e_N)), u = W r + q
(Acary, Bremond & Huber 2018). Exit 0 when the error is <= TOL (default 1e-8),
1 above it, 2 when the files cannot be read."""
import sys

import h5py
import numpy as np


def dense(g):
    m, n, nz = int(g["m"][0]), int(g["n"][0]), int(g["nz"][0])
    p, i, x = g["p"][()], g["i"][()], g["x"][()]
    a = np.zeros((m, n))
    if nz >= 0:  # triplets: i rows, p columns (CSparse)
        np.add.at(a, (i[:nz], p[:nz]), x[:nz])
    elif nz == -1:  # CSC
        for j in range(n):
            for k in range(p[j], p[j + 1]):
                a[i[k], j] += x[k]
    else:  # CSR
        for r in range(m):
            for k in range(p[r], p[r + 1]):
                a[r, i[k]] += x[k]
    return a


def reduced(path):
    with h5py.File(path, "r") as h:
        if "fclib_local" in h:
            g = h["fclib_local"]
            return (int(g["spacedim"][0]), dense(g["W"]), g["vectors/q"][()],
                    g["vectors/mu"][()])
        g = h["fclib_global"]
        m, hm = dense(g["M"]), dense(g["H"])
        f, w, mu = g["vectors/f"][()], g["vectors/w"][()], g["vectors/mu"][()]
        minv_h = np.linalg.solve(m, hm)
        minv_f = np.linalg.solve(m, f)
        return int(g["spacedim"][0]), hm.T @ minv_h, hm.T @ minv_f + w, mu


def project_cone(z, mu):
    zn, zt = z[0], z[1:]
    nt = np.linalg.norm(zt)
    if nt <= mu * zn:
        return z.copy()
    if mu * nt <= -zn:
        return np.zeros_like(z)
    a = (zn + mu * nt) / (1.0 + mu * mu)
    return np.concatenate([[a], mu * a * zt / nt])


def error(d, w, q, mu, r):
    u = w @ r + q
    total = 0.0
    for c in range(len(mu)):
        k = slice(d * c, d * c + d)
        uh = u[k].copy()
        uh[0] += mu[c] * np.linalg.norm(u[k][1:])
        total += np.sum((r[k] - project_cone(r[k] - uh, mu[c])) ** 2)
    nq = np.linalg.norm(q)
    return np.sqrt(total) / (nq if nq >= np.finfo(float).eps else 1.0)


def main():
    tol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-8
    try:
        d, w, q, mu = reduced(sys.argv[1])
        with h5py.File(sys.argv[2], "r") as s:
            r = s["solution/r"][()]
    except Exception as e:  # noqa: BLE001 - any unreadable input is exit 2
        print(f"cannot read: {e}")
        sys.exit(2)
    if r.shape != q.shape or not np.all(np.isfinite(r)):
        print("bad /solution/r")
        sys.exit(1)
    e = error(d, w, q, mu, r)
    print(f"contacts={len(mu)} error={e:.6e}")
    sys.exit(0 if e <= tol else 1)


if __name__ == "__main__":
    main()
