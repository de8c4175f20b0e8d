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
import pathlib
import sys

import numpy as np
import vtk
from scipy.optimize import minimize
from scipy.spatial import cKDTree
from vtk.util.numpy_support import vtk_to_numpy

sys.path.insert(0, str(pathlib.Path(__file__).parent.parent / "self_contact"))
from no_crossing import frames  # noqa: E402  (the .pvd's frames, one reader)

# VTK tetra faces, outward for a positively oriented cell; the quadratic
# tetra's midside nodes: 4 (0,1), 5 (1,2), 6 (0,2), 7 (0,3), 8 (1,3), 9 (2,3)
FACES = [(0, 2, 1), (0, 1, 3), (1, 2, 3), (0, 3, 2)]
MID = {(0, 1): 4, (1, 2): 5, (0, 2): 6, (0, 3): 7, (1, 3): 8, (2, 3): 9}


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
    the face's interior. The closest point: constrained minimisation from
    the centre, then, where it is interior, Gauss-Newton on the stationarity
    to round-off (the depths measured are ~1e-11 of the face size)."""
    q = x[list(f)]
    pos = lambda z: shape(f, *z) @ q
    cons = ({"type": "ineq", "fun": lambda z: z[0]}, {"type": "ineq", "fun": lambda z: z[1]},
            {"type": "ineq", "fun": lambda z: 1 - z[0] - z[1]})
    o = minimize(lambda z: np.sum((pos(z) - p) ** 2), (1 / 3, 1 / 3), constraints=cons, method="SLSQP",
                 options={"ftol": 1e-24, "maxiter": 200})
    z = np.clip(o.x, 0, 1)
    e = 1e-4  # central differences are exact for quadratic shape functions
    jac = lambda z: np.stack([(pos(z + [e, 0]) - pos(z - [e, 0])) / (2 * e),
                              (pos(z + [0, e]) - pos(z - [0, e])) / (2 * e)], 1)
    interior = z[0] > 1e-9 and z[1] > 1e-9 and z[0] + z[1] < 1 - 1e-9
    if interior:
        for _ in range(20):
            step = np.linalg.lstsq(jac(z), p - pos(z), rcond=None)[0]
            z = z + step
            if np.abs(step).max() < 1e-16:
                break
        interior = z[0] > 0 and z[1] > 0 and z[0] + z[1] < 1
    c = pos(z)
    j = jac(z)
    n = np.cross(j[:, 0], j[:, 1])
    n /= np.linalg.norm(n)
    d = np.linalg.norm(p - c)
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
