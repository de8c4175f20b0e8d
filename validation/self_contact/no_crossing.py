#!/usr/bin/env python3
"""Independent check that no node of a body crossed the body's own surface,
from a run's VTK output alone (VTK's XML reader and numpy; nothing of the
contact code: not its groups, faces, normals or gaps).

For every frame of the .pvd: the deformed positions are the reference points
plus `displacement`; the boundary is every cell edge (2D) or face (3D) used
by one cell only, oriented with its cell on the left (2D) or outward (3D)
as the cell's node order gives it. A node that went through another part of
its own surface lies in material twice: the generalized winding number of
the deformed boundary (Σ angle / 2π in 2D, Σ solid angle / 4π in 3D), which
counts how many layers of material cover a point, is 2 there and 1 in a
body that does not overlap itself. Each boundary node is moved a distance
EPS·h into its own material (h the mean boundary edge length, the inward
direction the average of its boundary facets' inward normals) and its
winding number taken there: above 1.5 means the node is deeper than EPS·h
inside another part of its body.

A quadrilateral boundary face of a hexahedron is the bilinear surface
through its four nodes, not the two triangles the winding number is summed
over: where the four nodes are not coplanar the two differ by a thin lens
(as thick as the face's warp, the distance of its fourth node from the
plane of the other three). The winding numbers about the two surfaces
differ only inside such a lens, by one: so for a point over a warped face
the side of the bilinear surface (its closest point and normal, by Newton)
and the side of the two triangles (along the same normal line) are both
taken, and where they differ the count is corrected by one, the bilinear
face deciding. Without this a node held exactly on a warped face of a
folded tube read as inside it (the triangulation lies up to warp/4 off the
face). The smallest distance between a boundary
node and a boundary facet that does not hold it is reported as well (how
close the surface came to itself: ~0 where it folded into contact).

Usage: no_crossing.py RUN.pvd [--eps 1e-6]
Prints one line per frame with a crossing and a summary line
`frames=N crossed=K min_distance_h=D worst_winding=W`; exits 1 if a node
crossed in any frame.
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
# VTK's XML reader alone (vtkmodules, VTK >= 9): `import vtk` loads every
# module, about 1 s of CPU where these take 0.4 s
from vtkmodules.util.numpy_support import vtk_to_numpy
from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

# VTK cell type -> boundary facets in the cell's node order, oriented with
# the cell on the left (2D edges of a counter-clockwise cell) or outward (3D
# faces of a positively oriented cell)
FACETS = {
    5: [(0, 1), (1, 2), (2, 0)],  # triangle
    9: [(0, 1), (1, 2), (2, 3), (3, 0)],  # quad
    10: [(0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)],  # tetra
    12: [(0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7)],  # hexahedron
}


def frames(pvd):
    root = ET.parse(pvd).getroot()
    base = os.path.dirname(os.path.abspath(pvd))
    return [(float(d.get("timestep")), os.path.join(base, d.get("file"))) for d in root.iter("DataSet")]


def read(path):
    r = vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    x = vtk_to_numpy(g.GetPoints().GetData()).astype(float)
    u = vtk_to_numpy(g.GetPointData().GetArray("displacement")).astype(float)
    cells = [(g.GetCellType(c), [g.GetCell(c).GetPointId(k) for k in range(g.GetCell(c).GetNumberOfPoints())])
             for c in range(g.GetNumberOfCells())]
    return x + u, cells


def boundary(cells):
    """Facets used by one cell only, in their cell's orientation."""
    seen = {}
    for kind, nodes in cells:
        if kind not in FACETS:
            raise SystemExit(f"cell type {kind} not supported by this check")
        for f in FACETS[kind]:
            facet = tuple(nodes[i] for i in f)
            key = tuple(sorted(facet))
            seen[key] = None if key in seen else facet
    return [f for f in seen.values() if f is not None]


def triangles(facets):
    out = []
    for f in facets:
        out.append(f[:3])
        if len(f) == 4:
            out.append((f[0], f[2], f[3]))
    return np.array(out)


def winding_2d(p, a, b):
    """Winding numbers of the points p (m, 2) about the edges a -> b (n, 2)."""
    da = a[None, :, :] - p[:, None, :]
    db = b[None, :, :] - p[:, None, :]
    cross = da[..., 0] * db[..., 1] - da[..., 1] * db[..., 0]
    dot = (da * db).sum(-1)
    return np.arctan2(cross, dot).sum(1) / (2 * np.pi)


def winding_3d(p, t0, t1, t2, chunk=256):
    """Generalized winding numbers of the points p (m, 3) about the
    triangles (Van Oosterom & Strackee's solid angle)."""
    out = np.empty(len(p))
    for s in range(0, len(p), chunk):
        q = p[s:s + chunk, None, :]
        a, b, c = t0[None] - q, t1[None] - q, t2[None] - q
        la, lb, lc = (np.linalg.norm(v, axis=-1) for v in (a, b, c))
        det = (a * np.cross(b, c)).sum(-1)
        den = la * lb * lc + (a * b).sum(-1) * lc + (a * c).sum(-1) * lb + (b * c).sum(-1) * la
        out[s:s + chunk] = 2 * np.arctan2(det, den).sum(1) / (4 * np.pi)
    return out


def seg_distance(p, a, b):
    ab = b - a
    t = np.clip(((p[:, None, :] - a[None]) * ab[None]).sum(-1) / np.maximum((ab * ab).sum(-1), 1e-300)[None], 0, 1)
    c = a[None] + t[..., None] * ab[None]
    return np.linalg.norm(p[:, None, :] - c, axis=-1)


def tri_distance(p, a, b, c):
    """Distance of points to triangles, approximated from below by the
    distance to the triangles' planes within them, else to their edges."""
    n = np.cross(b - a, c - a)
    area2 = np.linalg.norm(n, axis=-1)
    nu = n / np.maximum(area2, 1e-300)[:, None]
    out = np.full((len(p), len(a)), np.inf)
    for s in range(0, len(p), 256):
        q = p[s:s + 256, None, :]
        d = ((q - a[None]) * nu[None]).sum(-1)
        proj = q - d[..., None] * nu[None]
        # barycentric test
        inside = np.ones(d.shape, bool)
        for u, v in ((a, b), (b, c), (c, a)):
            inside &= (np.cross(v - u, proj - u[None]) * nu[None]).sum(-1) >= 0
        e = np.minimum(np.minimum(seg_distance(q[:, 0], a, b), seg_distance(q[:, 0], b, c)),
                       seg_distance(q[:, 0], c, a))
        out[s:s + 256] = np.where(inside, np.abs(d), e)
    return out


def bilinear(q, xi, eta):
    """Position and tangents of the bilinear face through q (4, 3) at (xi, eta)."""
    n = np.array([(1 - xi) * (1 - eta), (1 + xi) * (1 - eta), (1 + xi) * (1 + eta), (1 - xi) * (1 + eta)]) / 4
    dxi = np.array([-(1 - eta), 1 - eta, 1 + eta, -(1 + eta)]) / 4
    deta = np.array([-(1 - xi), -(1 + xi), 1 + xi, 1 - xi]) / 4
    return n @ q, dxi @ q, deta @ q


def lens_side(p, q):
    """+1 where p is inside the bilinear face q (4, 3) but outside its two
    triangles (q0 q1 q2, q0 q2 q3), -1 for the reverse, 0 elsewhere (p not
    over the face, or on the same side of both)."""
    z = np.zeros(2)
    for _ in range(30):  # Gauss-Newton on |x(z) - p|^2
        x, a, b = bilinear(q, *z)
        r = x - p
        j = np.stack([a, b], 1)
        step = np.linalg.lstsq(j, -r, rcond=None)[0]
        z = z + step
        if np.abs(step).max() < 1e-15:
            break
    if np.abs(z).max() > 1:
        return 0
    x, a, b = bilinear(q, *z)
    n = np.cross(a, b)
    n /= np.linalg.norm(n)
    d_face = np.dot(p - x, n)
    for t in ((q[0], q[1], q[2]), (q[0], q[2], q[3])):
        m = np.cross(t[1] - t[0], t[2] - t[0])
        den = np.dot(n, m)
        if den == 0:
            continue
        s = np.dot(t[0] - p, m) / den  # p + s n on the triangle's plane
        hit = p + s * n
        inside = all(np.dot(np.cross(t[(k + 1) % 3] - t[k], hit - t[k]), m) >= 0 for k in range(3))
        if inside:
            d_tri = -s
            if d_face < 0 <= d_tri:
                return 1
            if d_tri < 0 <= d_face:
                return -1
            return 0
    return 0


def bilinear_correction(p, facets, x):
    """What to add to the winding numbers of the points p about the
    triangulated boundary to have them about its bilinear faces (module
    docs): only points within a warp of a warped face can differ."""
    out = np.zeros(len(p))
    for f in facets:
        if len(f) != 4:
            continue
        q = x[list(f)]
        m = np.cross(q[1] - q[0], q[2] - q[0])
        warp = abs(np.dot(q[3] - q[0], m)) / max(np.linalg.norm(m), 1e-300)
        if warp == 0:
            continue
        lo, hi = q.min(0) - warp, q.max(0) + warp
        near = np.nonzero(np.all((p >= lo) & (p <= hi), axis=1))[0]
        for i in near:
            out[i] += lens_side(p[i], q)
    return out


def check(x, cells, eps):
    facets = boundary(cells)
    dim = 2 if len(facets[0]) == 2 else 3
    nodes = sorted({a for f in facets for a in f})
    index = {a: i for i, a in enumerate(nodes)}
    inward = np.zeros((len(nodes), 3))
    if dim == 2:
        e = np.array(facets)
        a, b = x[e[:, 0], :2], x[e[:, 1], :2]
        h = np.linalg.norm(b - a, axis=1).mean()
        t = b - a
        n_in = np.stack([-t[:, 1], t[:, 0]], 1)  # the cell is on the left
        n_in /= np.linalg.norm(n_in, axis=1)[:, None]
        for k, f in enumerate(facets):
            for v in f:
                inward[index[v], :2] += n_in[k]
    else:
        tri = triangles(facets)
        t0, t1, t2 = x[tri[:, 0]], x[tri[:, 1]], x[tri[:, 2]]
        n_out = np.cross(t1 - t0, t2 - t0)
        h = np.sqrt(np.linalg.norm(n_out, axis=1).mean())
        for k, f in enumerate(tri):
            u = n_out[k] / max(np.linalg.norm(n_out[k]), 1e-300)
            for v in f:
                inward[index[v]] -= u
    inward /= np.maximum(np.linalg.norm(inward, axis=1), 1e-300)[:, None]
    p = x[nodes] + eps * h * inward
    fl = facets if dim == 2 else [tuple(f) for f in tri]
    if dim == 2:
        w = winding_2d(p[:, :2], a, b)
        dist = seg_distance(x[nodes, :2], a, b)
    else:
        w = winding_3d(p, t0, t1, t2) + bilinear_correction(p, facets, x)
        dist = tri_distance(x[nodes], t0, t1, t2)
    # the distance to facets beyond the node's neighbourhood (facets that
    # share a node with one of the facets holding it)
    of = {}
    for k, f in enumerate(fl):
        for v in f:
            of.setdefault(v, []).append(k)
    for i, v in enumerate(nodes):
        ring = {u for k in of[v] for u in fl[k]}
        dist[i, [k for u in ring for k in of[u]]] = np.inf
    crossed = [(nodes[i], w[i]) for i in np.nonzero(w > 1.5)[0]]
    return crossed, float(dist.min() / h), float(w.max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pvd")
    ap.add_argument("--eps", type=float, default=1e-6)
    args = ap.parse_args()
    total, worst, closest = 0, 1.0, np.inf
    fs = frames(args.pvd)
    for t, path in fs:
        x, cells = read(path)
        crossed, dmin, w = check(x, cells, args.eps)
        worst, closest = max(worst, w), min(closest, dmin)
        if crossed:
            total += 1
            print(f"t = {t:.6g}: {len(crossed)} node(s) inside their own body, e.g. node {crossed[0][0]} "
                  f"(winding {crossed[0][1]:.3f})")
    print(f"frames={len(fs)} crossed={total} min_distance_h={closest:.3e} worst_winding={worst:.6f}")
    sys.exit(1 if total else 0)


if __name__ == "__main__":
    main()
