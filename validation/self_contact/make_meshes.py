#!/usr/bin/env python3
"""Meshes of the self-contact case, with the gmsh Python module.

ring.msh (2D): an annulus of mid-surface radius R = 1 and wall thickness
T = 0.1, structured quad4, N_RING elements around and 2 through the wall;
physical groups `ring` (surface), `ring_inner`, `ring_outer` (curves).

tube.msh (3D): the same annulus (N_TUBE around) extruded over length
L = 2 along z in N_LEN layers, hex8; groups `tube` (volume),
`tube_inner`, `tube_outer` (the cylindrical surfaces), `tube_ends`.

Both MSH 2.2 ASCII. Usage: make_meshes.py [DIR]   (default: this folder)
"""
import math
import pathlib
import sys

import gmsh

R, T, L = 1.0, 0.03, 2.0
N_RING, N_TUBE, N_LEN, N_WALL = 200, 48, 8, 2


def annulus(n_around):
    """Four transfinite quarter annuli; returns (surfaces, inner arcs, outer arcs)."""
    geo = gmsh.model.geo
    c = geo.addPoint(0, 0, 0)
    ri, ro = R - T / 2, R + T / 2
    pin = [geo.addPoint(ri * math.cos(k * math.pi / 2), ri * math.sin(k * math.pi / 2), 0) for k in range(4)]
    pout = [geo.addPoint(ro * math.cos(k * math.pi / 2), ro * math.sin(k * math.pi / 2), 0) for k in range(4)]
    inner = [geo.addCircleArc(pin[k], c, pin[(k + 1) % 4]) for k in range(4)]
    outer = [geo.addCircleArc(pout[k], c, pout[(k + 1) % 4]) for k in range(4)]
    radial = [geo.addLine(pin[k], pout[k]) for k in range(4)]
    surfaces = []
    for k in range(4):
        loop = geo.addCurveLoop([radial[k], outer[k], -radial[(k + 1) % 4], -inner[k]])
        surfaces.append(geo.addPlaneSurface([loop]))
    # on the geo kernel (a later synchronize keeps them)
    for a in inner + outer:
        geo.mesh.setTransfiniteCurve(a, n_around // 4 + 1)
    for r in radial:
        geo.mesh.setTransfiniteCurve(r, N_WALL + 1)
    for s in surfaces:
        geo.mesh.setTransfiniteSurface(s)
        geo.mesh.setRecombine(2, s)
    geo.synchronize()
    return surfaces, inner, outer


def ring(path):
    gmsh.model.add("ring")
    surfaces, inner, outer = annulus(N_RING)
    gmsh.model.addPhysicalGroup(2, surfaces, name="ring")
    gmsh.model.addPhysicalGroup(1, inner, name="ring_inner")
    gmsh.model.addPhysicalGroup(1, outer, name="ring_outer")
    gmsh.model.mesh.generate(2)
    gmsh.write(str(path))


def tube(path):
    gmsh.model.add("tube")
    surfaces, inner, outer = annulus(N_TUBE)
    geo = gmsh.model.geo
    out = geo.extrude([(2, s) for s in surfaces], 0, 0, L, numElements=[N_LEN], recombine=True)
    geo.synchronize()
    # extrude returns per surface: top, volume, then the lateral surfaces in
    # the order of the loop (radial k, outer k, radial k+1, inner k)
    vols, tops, inn, outs = [], [], [], []
    for k in range(4):
        block = out[6 * k: 6 * k + 6]
        tops.append(block[0][1])
        vols.append(block[1][1])
        outs.append(block[3][1])
        inn.append(block[5][1])
    gmsh.model.addPhysicalGroup(3, vols, name="tube")
    gmsh.model.addPhysicalGroup(2, inn, name="tube_inner")
    gmsh.model.addPhysicalGroup(2, outs, name="tube_outer")
    gmsh.model.addPhysicalGroup(2, surfaces + tops, name="tube_ends")
    gmsh.model.mesh.generate(3)
    gmsh.write(str(path))


def main():
    d = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent)
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    gmsh.option.setNumber("Mesh.MshFileVersion", 2.2)
    ring(d / "ring.msh")
    tube(d / "tube.msh")
    gmsh.finalize()


if __name__ == "__main__":
    main()
