#!/usr/bin/env python3
"""Independent penetration check of the sphere-on-plate runs, from the VTK
output alone (VTK's XML reader, numpy and scipy; nothing of the contact
code): in every frame the boundary faces of each body (tet10: the curved
tri6 faces; tet4: triangles), each boundary node of one body projected onto
the other body's faces (the closest point on the quadratic face by
constrained minimisation), and the node's depth where it is behind the face
it is over (the closest point interior, the node on the inner side of the
face's normal at that point). Reports the deepest node relative to the mean
boundary edge length h.

Usage: penetration.py RUN.pvd   prints `frames=N worst_h=D node=A t=T`.
"""
import os
import sys
import xml.etree.ElementTree as ET

import numpy as np
import vtk
from scipy.optimize import minimize
from scipy.spatial import cKDTree
from vtk.util.numpy_support import vtk_to_numpy

# VTK tetra faces, outward for a positively oriented cell; the quadratic
# tetra's midside nodes: 4 (0,1), 5 (1,2), 6 (0,2), 7 (0,3), 8 (1,3), 9 (2,3)
FACES = [(0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)]
MID = {(0, 1): 4, (1, 2): 5, (0, 2): 6, (0, 3): 7, (1, 3): 8, (2, 3): 9}


def frames(pvd):
    root = ET.parse(pvd).getroot()
    base = os.path.dirname(os.path.abspath(pvd))
    return [(float(d.get("timestep")), os.path.join(base, d.get("file"))) for d in root.iter("DataSet")]


def read(path):
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(path)
    r.Update()
    g = r.GetOutput()
    x = vtk_to_numpy(g.GetPoints().GetData()).astype(float)
    x = x + vtk_to_numpy(g.GetPointData().GetArray("displacement")).astype(float)
    body = vtk_to_numpy(g.GetCellData().GetArray("body")).astype(int)
    cells = [[g.GetCell(c).GetPointId(k) for k in range(g.GetCell(c).GetNumberOfPoints())]
             for c in range(g.GetNumberOfCells())]
    return x, cells, body


def boundary(cells, body):
    """Per body, its boundary faces (corners, then midside nodes if any)."""
    seen = {}
    for c, b in zip(cells, body):
        for f in FACES:
            corners = tuple(c[i] for i in f)
            mids = tuple(c[MID[tuple(sorted((f[i], f[(i + 1) % 3])))]] for i in range(3)) if len(c) == 10 else ()
            key = tuple(sorted(corners))
            seen[key] = None if key in seen else (b, corners + mids)
    out = {}
    for v in seen.values():
        if v is not None:
            out.setdefault(v[0], []).append(v[1])
    return out


def shape(f, u, v):
    w = 1 - u - v
    if len(f) == 3:
        return np.array([w, u, v])
    return np.array([w * (2 * w - 1), u * (2 * u - 1), v * (2 * v - 1), 4 * w * u, 4 * u * v, 4 * v * w])


def depth(x, f, p):
    """(distance, depth) of p against face f: depth > 0 where p is behind
    the face's interior."""
    q = x[list(f)]
    pos = lambda z: shape(f, *z) @ q
    cons = ({"type": "ineq", "fun": lambda z: z[0]}, {"type": "ineq", "fun": lambda z: z[1]},
            {"type": "ineq", "fun": lambda z: 1 - z[0] - z[1]})
    best = None
    for s in ((1 / 3, 1 / 3), (0.1, 0.1), (0.8, 0.1), (0.1, 0.8)):
        o = minimize(lambda z: np.sum((pos(z) - p) ** 2), s, constraints=cons, method="SLSQP",
                     options={"ftol": 1e-24, "maxiter": 200})
        if best is None or o.fun < best.fun:
            best = o
    z = np.clip(best.x, 0, 1)
    c = pos(z)
    e = 1e-7
    n = np.cross(pos(z + [e, 0]) - pos(z - [e, 0]), pos(z + [0, e]) - pos(z - [0, e]))
    n /= np.linalg.norm(n)
    d = np.linalg.norm(p - c)
    interior = z[0] > 1e-9 and z[1] > 1e-9 and z[0] + z[1] < 1 - 1e-9
    return d, (d if interior and np.dot(p - c, n) < 0 else 0.0)


def frame_worst(x, cells, body):
    faces = boundary(cells, body)
    h = np.mean([np.linalg.norm(x[f[0]] - x[f[1]]) for fs in faces.values() for f in fs])
    worst = (0.0, -1)
    for b, fs in faces.items():
        own = sorted({a for f in fs for a in f})
        nodes = np.array(sorted({a for bb, gs in faces.items() if bb != b for f in gs for a in f}))
        # only nodes within a face size of this surface can be inside it
        close = cKDTree(x[own]).query(x[nodes])[0] < h
        centres = np.array([x[list(f)].mean(0) for f in fs])
        for a in nodes[close]:
            near = np.nonzero(np.linalg.norm(centres - x[a], axis=1) < h)[0]
            if len(near) == 0:
                continue
            d = [depth(x, fs[k], x[a]) for k in near]
            dist, dep = min(d)
            if dep > worst[0]:
                worst = (dep, a)
    return worst[0] / h, worst[1]


def worst(pvd):
    """(deepest node / h over the frames, node, t)."""
    out = (0.0, -1, 0.0)
    for t, path in frames(pvd):
        d, a = frame_worst(*read(path))
        if d > out[0]:
            out = (d, a, t)
    return out


if __name__ == "__main__":
    fs = frames(sys.argv[1])
    d, a, t = worst(sys.argv[1])
    print(f"frames={len(fs)} worst_h={d:.3e} node={a} t={t:g}")
