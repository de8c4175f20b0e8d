#!/usr/bin/env python3
"""Graded hex8 mesh of a quarter block for the Hertz indentation case.

The block is [0, L] x [0, L] x [-L, 0] (the sphere touches the top face z = 0
at the origin; x = 0 and y = 0 are symmetry planes). Along each axis the
elements are uniform of size h0 over [0, fine], then grow by `ratio` per
element until L. Writes Gmsh MSH 2.2 ASCII with the physical groups
`block` (volume), `top` (z = 0), `bottom` (z = -L), `xsym` (x = 0),
`ysym` (y = 0).

Usage: make_mesh.py OUT.msh H0 [FINE] [L] [RATIO]
"""
import sys


def axis(h0, fine, length, ratio):
    """Node coordinates 0 = c_0 < c_1 < ... = length."""
    c = [0.0]
    while c[-1] < fine - 1e-12:
        c.append(c[-1] + h0)
    h = h0
    while c[-1] < length - 1e-12:
        h *= ratio
        c.append(c[-1] + h)
    # stretch the graded part so that the last node is exactly at length
    k = next(i for i, v in enumerate(c) if v >= fine - 1e-12)
    s = (length - c[k]) / (c[-1] - c[k])
    return c[: k + 1] + [c[k] + s * (v - c[k]) for v in c[k + 1 :]]


def main():
    out = sys.argv[1]
    h0 = float(sys.argv[2])
    fine = float(sys.argv[3]) if len(sys.argv) > 3 else 0.1
    length = float(sys.argv[4]) if len(sys.argv) > 4 else 4.0
    ratio = float(sys.argv[5]) if len(sys.argv) > 5 else 1.3
    xs = axis(h0, fine, length, ratio)
    zs = [-v for v in axis(h0, fine, length, ratio)][::-1]  # -L ... 0
    n = len(xs)
    nz = len(zs)
    node = lambda i, j, k: 1 + i + n * (j + n * k)
    lines = ["$MeshFormat", "2.2 0 8", "$EndMeshFormat", "$PhysicalNames", "5",
             '3 1 "block"', '2 2 "top"', '2 3 "bottom"', '2 4 "xsym"', '2 5 "ysym"',
             "$EndPhysicalNames", "$Nodes", str(n * n * nz)]
    for k in range(nz):
        for j in range(n):
            for i in range(n):
                lines.append(f"{node(i, j, k)} {xs[i]!r} {xs[j]!r} {zs[k]!r}")
    lines.append("$EndNodes")
    els = []
    for k in range(nz - 1):
        for j in range(n - 1):
            for i in range(n - 1):
                v = [node(i, j, k), node(i + 1, j, k), node(i + 1, j + 1, k), node(i, j + 1, k),
                     node(i, j, k + 1), node(i + 1, j, k + 1), node(i + 1, j + 1, k + 1), node(i, j + 1, k + 1)]
                els.append((5, 1, v))
    for j in range(n - 1):
        for i in range(n - 1):
            els.append((3, 2, [node(i, j, nz - 1), node(i + 1, j, nz - 1), node(i + 1, j + 1, nz - 1), node(i, j + 1, nz - 1)]))
            els.append((3, 3, [node(i, j, 0), node(i, j + 1, 0), node(i + 1, j + 1, 0), node(i + 1, j, 0)]))
    for k in range(nz - 1):
        for j in range(n - 1):
            els.append((3, 4, [node(0, j, k), node(0, j, k + 1), node(0, j + 1, k + 1), node(0, j + 1, k)]))
        for i in range(n - 1):
            els.append((3, 5, [node(i, 0, k), node(i + 1, 0, k), node(i + 1, 0, k + 1), node(i, 0, k + 1)]))
    lines += ["$Elements", str(len(els))]
    for e, (t, phys, v) in enumerate(els, 1):
        lines.append(f"{e} {t} 2 {phys} {phys} " + " ".join(map(str, v)))
    lines.append("$EndElements")
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{out}: {n} x {n} x {nz} nodes, {len(els)} elements, h0 = {h0}, L = {length}")


if __name__ == "__main__":
    main()
