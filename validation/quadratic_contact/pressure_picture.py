#!/usr/bin/env python3
"""docs/sphere_pressure_tet10_tet4.png: the contact pressure on the sphere
where it presses the plate, tet10 against tet4 at about the same node
count, at the output time where the tet10 run's pressures sum highest,
read from the runs' VTK frames (VTK's reader, matplotlib off screen). The
first pass carries the contact (the sphere's nodes against the plate's
faces; the plate's nodes, the second pass, are mostly held by it), so the
field is the `contact_pressure` of the sphere's nodes within 0.03 of its
lowest point, in the plate's plane at their deformed positions. Left and
middle: on one colour scale; right: against the distance from the
pressure centroid.
Usage: pressure_picture.py   (after run_all.sh quadratic_contact)"""
import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.tri as mtri  # noqa: E402
import numpy as np  # noqa: E402
import vtk  # noqa: E402
from vtk.util.numpy_support import vtk_to_numpy  # noqa: E402

import penetration  # noqa: E402

HERE = pathlib.Path(__file__).parent
OUT = HERE.parent.parent / "docs" / "sphere_pressure_tet10_tet4.png"


def contact_patch(path):
    """Deformed (x, y) of the sphere's nodes near its lowest point, their pressure."""
    r = vtk.vtkXMLUnstructuredGridReader()
    r.SetFileName(str(path))
    r.Update()
    g = r.GetOutput()
    x0 = vtk_to_numpy(g.GetPoints().GetData()).astype(float)
    x = x0 + vtk_to_numpy(g.GetPointData().GetArray("displacement")).astype(float)
    p = vtk_to_numpy(g.GetPointData().GetArray("contact_pressure")).astype(float)
    body = vtk_to_numpy(g.GetCellData().GetArray("body")).astype(int)
    # the sphere is the body above z = 0
    nodes = {}
    for c in range(g.GetNumberOfCells()):
        cell = g.GetCell(c)
        nodes.setdefault(body[c], set()).update(cell.GetPointId(k) for k in range(cell.GetNumberOfPoints()))
    ball = np.array(sorted(nodes[max(nodes, key=lambda b: x0[list(nodes[b]), 2].mean())]))
    low = ball[x[ball, 2] < x[ball, 2].min() + 0.03]
    return x[low, :2], p[low]


def largest_load(pvd):
    best = None
    for t, path in penetration.frames(pvd):
        xy, p = contact_patch(path)
        if best is None or p.sum() > best[0]:
            best = (p.sum(), t)
    return best[1]


def resultant(run, t):
    """|normal resultant| and pressed area of the sphere-on-plate pair at t."""
    with open(run / "contacts.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["pair"] == "ball_outer:plate_top"]
    r = min(rows, key=lambda r: abs(float(r["t"]) - t))
    fn = np.array([float(r[k]) for k in ("fnx", "fny", "fnz")])
    return np.linalg.norm(fn), float(r["area"]), int(r["active"])


def main():
    runs = {k: HERE / "out" / f"sphere_{k}" / f"sphere_{k}.pvd" for k in ("tet10", "tet4")}
    t = largest_load(runs["tet10"])
    data = {}
    for k, pvd in runs.items():
        path = min(penetration.frames(pvd), key=lambda f: abs(f[0] - t))[1]
        data[k] = contact_patch(path)
    vmax = max(p.max() for _, p in data.values())
    fig, ax = plt.subplots(1, 3, figsize=(16, 5), gridspec_kw={"width_ratios": [1, 1, 1.2]})
    for i, (k, (xy, p)) in enumerate(data.items()):
        c = (xy * p[:, None]).sum(0) / p.sum()
        fn, area, active = resultant(runs[k].parent, t)
        on = p > 0
        ax[i].scatter(xy[~on, 0], xy[~on, 1], s=12, facecolors="none", edgecolors="0.6", linewidths=0.6)
        m = ax[i].scatter(xy[on, 0], xy[on, 1], c=p[on], s=90, cmap="viridis", vmin=0, vmax=vmax, edgecolors="k")
        ax[i].set_xlim(c[0] - 0.2, c[0] + 0.2)
        ax[i].set_ylim(c[1] - 0.2, c[1] + 0.2)
        ax[i].set_aspect("equal")
        ax[i].set_title(f"{k}, t = {t:g}: normal force {fn:.2f},\npressed area {area:.3f} ({active} points)", fontsize=10)
        ax[i].set_xlabel("x (deformed)")
        ax[i].set_ylabel("y (deformed)")
        r = np.linalg.norm(xy - c, axis=1)
        ax[2].plot(r[on], p[on], "o" if k == "tet10" else "x", ms=6, label=f"{k} (max {p.max():.3g})")
    fig.colorbar(m, ax=ax[:2], label="contact pressure (sphere nodes; open: grey circles)", shrink=0.8)
    ax[2].set_xlabel("distance from the pressure centroid")
    ax[2].set_ylabel("contact pressure")
    ax[2].set_xlim(0, 0.2)
    ax[2].set_ylim(0, None)
    ax[2].legend()
    ax[2].set_title("pressure against distance", fontsize=10)
    fig.savefig(OUT, dpi=100, bbox_inches="tight")
    print(f"wrote {OUT} (t = {t:g})")


if __name__ == "__main__":
    main()
