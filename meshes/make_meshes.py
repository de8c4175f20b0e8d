#!/usr/bin/env python3
"""Regenerates the committed test meshes of emcontact with the Gmsh Python API.

Every model is written in the four formats the reader supports:

    <name>.msh22.msh      MSH 2.2 ASCII         (Mesh.MshFileVersion 2.2, Mesh.Binary 0)
    <name>.msh22b.msh     MSH 2.2 binary        (Mesh.MshFileVersion 2.2, Mesh.Binary 1)
    <name>.msh41.msh      MSH 4.1 ASCII         (Mesh.MshFileVersion 4.1, Mesh.Binary 0)
    <name>.msh41b.msh     MSH 4.1 binary        (Mesh.MshFileVersion 4.1, Mesh.Binary 1)

and `manifest.toml` records what an independent reader (the Gmsh API itself and
meshio, which re-reads the written files) says about each model: node count,
the physical groups (name, dimension, element count per kind) and the measure
(length / area / volume) of every group computed from the node coordinates, plus
the exact geometric measure where the geometry is polygonal.

Models:
  square_tri  2D unit square [0,1]^2, tri3, groups square / left right bottom top
              and `boundary` (all four edges: every edge is in two groups)
  plate_hole  2D plate [0,2]x[0,1] with a hole of radius 0.25 at (1,0.5),
              recombined quad4 (and a few tri3), groups plate / left right bottom
              top hole
  box_tet     3D box [0,1]x[0,0.5]x[0,0.4], tet4, groups block / xmin ... zmax
  box_hex     3D box [0,1]x[0,1]x[0,2], transfinite hex8 3x3x6, groups column /
              bottom top side

Run from the repository root:  python3 meshes/make_meshes.py
"""
import os

import gmsh
import meshio
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = [("msh22", 2.2, 0), ("msh22b", 2.2, 1), ("msh41", 4.1, 0), ("msh41b", 4.1, 1)]
GMSH_KIND = {1: "line2", 2: "tri3", 3: "quad4", 4: "tet4", 5: "hex8"}

# 2x2x2 Gauss rule on [-1,1]^d (exact for the bilinear/trilinear Jacobians here).
G = 1.0 / np.sqrt(3.0)


def measure(kind, x):
    """Measure of one element with node coordinates x (n x 3)."""
    if kind == "line2":
        return np.linalg.norm(x[1] - x[0])
    if kind == "tri3":
        return 0.5 * np.linalg.norm(np.cross(x[1] - x[0], x[2] - x[0]))
    if kind == "quad4":
        a = 0.0
        for xi in (-G, G):
            for eta in (-G, G):
                dxi = 0.25 * ((1 - eta) * (x[1] - x[0]) + (1 + eta) * (x[2] - x[3]))
                deta = 0.25 * ((1 - xi) * (x[3] - x[0]) + (1 + xi) * (x[2] - x[1]))
                a += np.linalg.norm(np.cross(dxi, deta))
        return a
    if kind == "tet4":
        return abs(np.linalg.det(np.array([x[1] - x[0], x[2] - x[0], x[3] - x[0]]))) / 6.0
    if kind == "hex8":
        ref = np.array([[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
                        [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)
        v = 0.0
        for q in [(a, b, c) for a in (-G, G) for b in (-G, G) for c in (-G, G)]:
            dn = np.array([[r[0] * (1 + r[1] * q[1]) * (1 + r[2] * q[2]),
                            r[1] * (1 + r[0] * q[0]) * (1 + r[2] * q[2]),
                            r[2] * (1 + r[0] * q[0]) * (1 + r[1] * q[1])] for r in ref]) / 8.0
            v += np.linalg.det(x.T @ dn)
        return abs(v)
    raise ValueError(kind)


def describe(name, exact):
    """Groups of the current Gmsh model as the manifest records them."""
    tags, coords, _ = gmsh.model.mesh.getNodes()
    xyz = {int(t): coords[3 * i:3 * i + 3] for i, t in enumerate(tags)}
    groups = []
    for dim, ptag in gmsh.model.getPhysicalGroups():
        if dim == 0:
            continue
        gname = gmsh.model.getPhysicalName(dim, ptag) or f"physical_{ptag}"
        kinds = {}
        meas = 0.0
        for ent in gmsh.model.getEntitiesForPhysicalGroup(dim, ptag):
            etypes, _, enodes = gmsh.model.mesh.getElements(dim, ent)
            for et, en in zip(etypes, enodes):
                kind = GMSH_KIND[int(et)]
                nn = {"line2": 2, "tri3": 3, "quad4": 4, "tet4": 4, "hex8": 8}[kind]
                conn = np.asarray(en, dtype=np.int64).reshape(-1, nn)
                kinds[kind] = kinds.get(kind, 0) + len(conn)
                for c in conn:
                    meas += measure(kind, np.array([xyz[int(t)] for t in c]))
        groups.append({"name": gname, "dim": dim, "elements": kinds, "measure": meas,
                       "exact": exact.get(gname)})
    groups.sort(key=lambda g: g["name"])
    return {"name": name, "groups": groups}


def write_all(name, dim, exact):
    entry = describe(name, exact)
    entry["dim"] = dim
    files = []
    for suffix, version, binary in FORMATS:
        gmsh.option.setNumber("Mesh.MshFileVersion", version)
        gmsh.option.setNumber("Mesh.Binary", binary)
        fname = f"{name}.{suffix}.msh"
        gmsh.write(os.path.join(HERE, fname))
        files.append(fname)
    entry["files"] = files
    # Independent re-read of the written files with meshio: node counts must agree.
    counts = set()
    for f in files:
        m = meshio.read(os.path.join(HERE, f))
        counts.add(len(m.points))
        cells = {}
        for block in m.cells:
            cells[block.type] = cells.get(block.type, 0) + len(block.data)
        entry.setdefault("meshio_cells", {})[f] = cells
    assert len(counts) == 1, (name, counts)
    entry["nodes"] = counts.pop()
    print(name, entry["nodes"], "nodes;",
          ", ".join(f"{g['name']}: {g['elements']}" for g in entry["groups"]))
    return entry


def physical(dim, tags, name):
    gmsh.model.addPhysicalGroup(dim, tags, name=name)


def boundary_by_box(dim, lo, hi, eps=1e-6):
    return [t for _, t in gmsh.model.getEntitiesInBoundingBox(
        lo[0] - eps, lo[1] - eps, lo[2] - eps, hi[0] + eps, hi[1] + eps, hi[2] + eps, dim)]


def square_tri():
    gmsh.model.add("square_tri")
    s = gmsh.model.occ.addRectangle(0, 0, 0, 1, 1)
    gmsh.model.occ.synchronize()
    physical(2, [s], "square")
    sides = {"left": ([0, 0, 0], [0, 1, 0]), "right": ([1, 0, 0], [1, 1, 0]),
             "bottom": ([0, 0, 0], [1, 0, 0]), "top": ([0, 1, 0], [1, 1, 0])}
    allc = []
    for n, (lo, hi) in sides.items():
        c = boundary_by_box(1, lo, hi)
        allc += c
        physical(1, c, n)
    physical(1, allc, "boundary")
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.2)
    gmsh.model.mesh.generate(2)
    return write_all("square_tri", 2, {"square": 1.0, "boundary": 4.0, "left": 1.0})


def plate_hole():
    gmsh.model.add("plate_hole")
    r = gmsh.model.occ.addRectangle(0, 0, 0, 2, 1)
    d = gmsh.model.occ.addDisk(1, 0.5, 0, 0.25, 0.25)
    out, _ = gmsh.model.occ.cut([(2, r)], [(2, d)])
    gmsh.model.occ.synchronize()
    physical(2, [t for _, t in out], "plate")
    sides = {"left": ([0, 0, 0], [0, 1, 0]), "right": ([2, 0, 0], [2, 1, 0]),
             "bottom": ([0, 0, 0], [2, 0, 0]), "top": ([0, 1, 0], [2, 1, 0]),
             "hole": ([0.74, 0.24, 0], [1.26, 0.76, 0])}
    for n, (lo, hi) in sides.items():
        physical(1, boundary_by_box(1, lo, hi), n)
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.12)
    gmsh.option.setNumber("Mesh.RecombineAll", 1)
    gmsh.model.mesh.generate(2)
    return write_all("plate_hole", 2, {"left": 1.0, "right": 1.0, "bottom": 2.0, "top": 2.0})


def box_tet():
    gmsh.model.add("box_tet")
    v = gmsh.model.occ.addBox(0, 0, 0, 1, 0.5, 0.4)
    gmsh.model.occ.synchronize()
    physical(3, [v], "block")
    lo, hi = [0, 0, 0], [1, 0.5, 0.4]
    for axis, a in enumerate("xyz"):
        for side, val in (("min", lo[axis]), ("max", hi[axis])):
            blo, bhi = list(lo), list(hi)
            blo[axis] = bhi[axis] = val
            physical(2, boundary_by_box(2, blo, bhi), f"{a}{side}")
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.2)
    gmsh.model.mesh.generate(3)
    return write_all("box_tet", 3, {"block": 0.2, "xmin": 0.2, "xmax": 0.2, "ymin": 0.4,
                                    "ymax": 0.4, "zmin": 0.5, "zmax": 0.5})


def box_hex():
    gmsh.model.add("box_hex")
    v = gmsh.model.occ.addBox(0, 0, 0, 1, 1, 2)
    gmsh.model.occ.synchronize()
    for dim, tag in gmsh.model.getEntities(1):
        lo = gmsh.model.getBoundingBox(dim, tag)
        length = max(lo[3] - lo[0], lo[4] - lo[1], lo[5] - lo[2])
        gmsh.model.mesh.setTransfiniteCurve(tag, 4 if length < 1.5 else 7)
    for _, tag in gmsh.model.getEntities(2):
        gmsh.model.mesh.setTransfiniteSurface(tag)
        gmsh.model.mesh.setRecombine(2, tag)
    gmsh.model.mesh.setTransfiniteVolume(v)
    physical(3, [v], "column")
    physical(2, boundary_by_box(2, [0, 0, 0], [1, 1, 0]), "bottom")
    physical(2, boundary_by_box(2, [0, 0, 2], [1, 1, 2]), "top")
    side = [t for _, t in gmsh.model.getEntities(2)
            if t not in boundary_by_box(2, [0, 0, 0], [1, 1, 0]) + boundary_by_box(2, [0, 0, 2], [1, 1, 2])]
    physical(2, side, "side")
    gmsh.model.mesh.generate(3)
    return write_all("box_hex", 3, {"column": 2.0, "bottom": 1.0, "top": 1.0, "side": 8.0})


def main():
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    manifest = []
    for make in (square_tri, plate_hole, box_tet, box_hex):
        gmsh.clear()
        gmsh.option.setNumber("Mesh.RecombineAll", 0)
        gmsh.option.setNumber("Mesh.MeshSizeMax", 1e22)
        manifest.append(make())
    gmsh.finalize()
    with open(os.path.join(HERE, "manifest.toml"), "w") as f:
        f.write(to_toml(manifest))


def to_toml(manifest):
    """The manifest as TOML (read by tests/mesh_gmsh.rs)."""
    out = ["# Written by meshes/make_meshes.py: what Gmsh and meshio say about each model.\n"]
    for m in manifest:
        out.append("[[mesh]]")
        out.append(f'name = "{m["name"]}"')
        out.append(f'dim = {m["dim"]}')
        out.append(f'nodes = {m["nodes"]}')
        out.append("files = [" + ", ".join(f'"{f}"' for f in m["files"]) + "]")
        for f, cells in m["meshio_cells"].items():
            out.append(f'# meshio cells in {f}: {cells}')
        for g in m["groups"]:
            out.append("[[mesh.group]]")
            out.append(f'name = "{g["name"]}"')
            out.append(f'dim = {g["dim"]}')
            out.append("kinds = { " + ", ".join(f"{k} = {v}" for k, v in sorted(g["elements"].items())) + " }")
            out.append(f'measure = {float(g["measure"])!r}')
            if g["exact"] is not None:
                out.append(f'exact = {float(g["exact"])!r}')
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    main()
