#!/usr/bin/env python3
"""Meshes of the quadratic-contact cases (Gmsh Python API, Mesh.ElementOrder = 2).

  blocks_<kind>.msh   2D: base [-1,1]x[-0.5,0] (8x2 transfinite) and top
                      [-0.3,0.3]x[0.02,0.42] (3x2) in tri6, quad8 or quad9,
                      groups base, top, base_ymax, top_ymin (line3).
  blocks_<kind>_linear.msh  the same nodes as first-order elements split
                      once more (tri3 / quad4 on the 16x4 and 6x4 grids):
                      the "linear refined" companion of the consistency check.
  sphere_plate_<kind>.msh   3D: a sphere (radius 0.5, centre (0, 0, 0.52))
                      above a plate [-1,1]x[-1,1]x[-0.2,0], tet10 or tet4
                      (size chosen for about the same node count), groups
                      ball, plate, ball_outer, plate_top.

Written as MSH 4.1 binary. Run from the repository root:
    python3 validation/quadratic_contact/make_meshes.py
"""
import os
import sys

import gmsh

HERE = os.path.dirname(os.path.abspath(__file__))


def rect(x0, y0, x1, y1, nx, ny, quads):
    p = [gmsh.model.geo.addPoint(*c, 0) for c in [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]]
    lines = [gmsh.model.geo.addLine(p[i], p[(i + 1) % 4]) for i in range(4)]
    loop = gmsh.model.geo.addCurveLoop(lines)
    s = gmsh.model.geo.addPlaneSurface([loop])
    for l, n in zip(lines, [nx, ny, nx, ny]):
        gmsh.model.geo.mesh.setTransfiniteCurve(l, n + 1)
    gmsh.model.geo.mesh.setTransfiniteSurface(s)
    if quads:
        gmsh.model.geo.mesh.setRecombine(2, s)
    return s, lines


def blocks(kind, refine):
    gmsh.clear()
    gmsh.model.add("blocks")
    quads = kind != "tri6"
    f = 2 if refine else 1
    base, bl = rect(-1.0, -0.5, 1.0, 0.0, 8 * f, 2 * f, quads)
    top, tl = rect(-0.3, 0.02, 0.3, 0.42, 3 * f, 2 * f, quads)
    gmsh.model.geo.synchronize()
    gmsh.model.addPhysicalGroup(2, [base], name="base")
    gmsh.model.addPhysicalGroup(2, [top], name="top")
    gmsh.model.addPhysicalGroup(1, [bl[2]], name="base_ymax")
    gmsh.model.addPhysicalGroup(1, [tl[0]], name="top_ymin")
    gmsh.model.mesh.generate(2)
    if not refine:
        gmsh.option.setNumber("Mesh.SecondOrderIncomplete", 1 if kind == "quad8" else 0)
        gmsh.model.mesh.setOrder(2)
    name = f"blocks_{kind}_linear.msh" if refine else f"blocks_{kind}.msh"
    gmsh.write(os.path.join(HERE, name))


def sphere_plate(kind, size):
    gmsh.clear()
    gmsh.model.add("sphere_plate")
    ball = gmsh.model.occ.addSphere(0, 0, 0.52, 0.5)
    plate = gmsh.model.occ.addBox(-1, -1, -0.2, 2, 2, 0.2)
    gmsh.model.occ.synchronize()
    gmsh.model.addPhysicalGroup(3, [ball], name="ball")
    gmsh.model.addPhysicalGroup(3, [plate], name="plate")
    bs = [t for (d, t) in gmsh.model.getBoundary([(3, ball)], oriented=False)]
    gmsh.model.addPhysicalGroup(2, bs, name="ball_outer")
    top = None
    for d, t in gmsh.model.getBoundary([(3, plate)], oriented=False):
        com = gmsh.model.occ.getCenterOfMass(2, t)
        if abs(com[2]) < 1e-9:
            top = t
    gmsh.model.addPhysicalGroup(2, [top], name="plate_top")
    gmsh.option.setNumber("Mesh.MeshSizeMax", size)
    gmsh.option.setNumber("Mesh.MeshSizeMin", size)
    gmsh.model.mesh.generate(3)
    if kind == "tet10":
        gmsh.model.mesh.setOrder(2)
    gmsh.write(os.path.join(HERE, f"sphere_plate_{kind}.msh"))


def main():
    gmsh.initialize(sys.argv[:1])
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("Mesh.MshFileVersion", 4.1)
    gmsh.option.setNumber("Mesh.Binary", 1)
    for kind in ["tri6", "quad8", "quad9"]:
        blocks(kind, False)
    for kind in ["tri6", "quad9"]:
        blocks(kind, True)
    sphere_plate("tet10", 0.25)
    sphere_plate("tet4", 0.125)
    gmsh.finalize()


if __name__ == "__main__":
    main()
