#!/usr/bin/env python3
"""Regenerates the committed second-order test meshes of emcontact with the Gmsh
Python API (Mesh.ElementOrder = 2; Mesh.SecondOrderIncomplete = 1 for the
serendipity quad8 / hex20).

Models, each written in the four formats the reader supports (as
make_meshes.py: <name>.msh22.msh, .msh22b.msh, .msh41.msh, .msh41b.msh):

  ring_tri6, ring_quad8, ring_quad9
      2D annulus, radii 0.5 and 1 about the origin, groups ring / outer /
      inner; the midside nodes of the boundary edges lie on the circles, so
      the boundary elements are curved.
  block_tet10, block_hex20, block_hex27
      3D box [0,1]x[0,0.5]x[0,0.4], groups block / xmin ... zmax (tet10:
      unstructured; hex: transfinite 3x2x2).

The cantilever models (MSH 4.1 binary only): a beam [0,10]x[0,1]x[0,1],
groups beam / root (x = 0) / tip (x = 10):

  beam_tet10      tet10, mesh size 0.5
  beam_tet4       tet4, the mesh size that gives about as many nodes as beam_tet10
  beam_hex27      hex27, 20x2x2 elements
  beam_hex27_fine hex27, 40x4x4 elements (the converged reference)

quadratic.toml records, per model, what Gmsh and meshio say: node count,
groups (name, dimension, element count per kind) and the measure of every
group integrated by Gmsh itself (getJacobians on a Gauss rule of order 6);
and, per second-order kind, Gmsh's own Lagrange basis and its reference
gradients at a few points (getBasisFunctions), which the shape-function
tests compare ours against.

Run from the repository root:  python3 meshes/make_quadratic_meshes.py
"""
import os

import gmsh
import meshio
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
FORMATS = [("msh22", 2.2, 0), ("msh22b", 2.2, 1), ("msh41", 4.1, 0), ("msh41b", 4.1, 1)]
KIND = {1: "line2", 2: "tri3", 3: "quad4", 4: "tet4", 5: "hex8", 8: "line3", 9: "tri6",
        10: "quad9", 11: "tet10", 12: "hex27", 16: "quad8", 17: "hex20"}
# Evaluation points of the basis check (reference coordinates, padded to 3).
POINTS = {
    1: [[-0.7, 0, 0], [0.2, 0, 0], [0.9, 0, 0]],
    2: [[0.1, 0.2, 0], [0.6, 0.3, 0], [0.25, 0.05, 0]],
    3: [[0.1, 0.2, 0.3], [0.5, 0.1, 0.2], [0.05, 0.6, 0.1]],
    4: [[-0.3, 0.4, 0], [0.8, -0.9, 0], [0.15, 0.65, 0]],
    5: [[-0.3, 0.4, 0.7], [0.8, -0.9, 0.1], [0.15, 0.65, -0.55]],
}
FAMILY = {8: 1, 9: 2, 11: 3, 16: 4, 10: 4, 17: 5, 12: 5}


def measure(dim, ptag):
    """Measure of a physical group integrated by Gmsh (Jacobians on Gauss6)."""
    total = 0.0
    for ent in gmsh.model.getEntitiesForPhysicalGroup(dim, ptag):
        for et in gmsh.model.mesh.getElementTypes(dim, ent):
            pts, w = gmsh.model.mesh.getIntegrationPoints(et, "Gauss6")
            _, det, _ = gmsh.model.mesh.getJacobians(et, pts, ent)
            det = np.asarray(det).reshape(-1, len(w))
            total += float(np.sum(np.abs(det) * np.asarray(w)))
    return total


def describe(name):
    groups = []
    for dim, ptag in gmsh.model.getPhysicalGroups():
        if dim == 0:
            continue
        kinds = {}
        for ent in gmsh.model.getEntitiesForPhysicalGroup(dim, ptag):
            etypes, etags, _ = gmsh.model.mesh.getElements(dim, ent)
            for et, tags in zip(etypes, etags):
                kinds[KIND[int(et)]] = kinds.get(KIND[int(et)], 0) + len(tags)
        groups.append({"name": gmsh.model.getPhysicalName(dim, ptag), "dim": dim,
                       "elements": kinds, "measure": measure(dim, ptag)})
    groups.sort(key=lambda g: g["name"])
    return {"name": name, "groups": groups}


def write(name, dim, formats=FORMATS):
    entry = describe(name)
    entry["dim"] = dim
    entry["files"] = []
    counts = set()
    for suffix, version, binary in formats:
        gmsh.option.setNumber("Mesh.MshFileVersion", version)
        gmsh.option.setNumber("Mesh.Binary", binary)
        fname = f"{name}.{suffix}.msh"
        gmsh.write(os.path.join(HERE, fname))
        entry["files"].append(fname)
        counts.add(len(meshio.read(os.path.join(HERE, fname)).points))
    assert len(counts) == 1, (name, counts)
    entry["nodes"] = counts.pop()
    print(name, entry["nodes"], "nodes;",
          ", ".join(f"{g['name']}: {g['elements']}" for g in entry["groups"]))
    return entry


def physical(dim, tags, name):
    gmsh.model.addPhysicalGroup(dim, tags, name=name)


def in_box(dim, lo, hi, eps=1e-6):
    return [t for _, t in gmsh.model.getEntitiesInBoundingBox(
        lo[0] - eps, lo[1] - eps, lo[2] - eps, hi[0] + eps, hi[1] + eps, hi[2] + eps, dim)]


def second_order(incomplete):
    gmsh.option.setNumber("Mesh.ElementOrder", 2)
    gmsh.option.setNumber("Mesh.SecondOrderIncomplete", 1 if incomplete else 0)


def ring(kind):
    name = f"ring_{kind}"
    gmsh.model.add(name)
    outer = gmsh.model.occ.addDisk(0, 0, 0, 1.0, 1.0)
    inner = gmsh.model.occ.addDisk(0, 0, 0, 0.5, 0.5)
    out, _ = gmsh.model.occ.cut([(2, outer)], [(2, inner)])
    gmsh.model.occ.synchronize()
    physical(2, [t for _, t in out], "ring")
    curves = [t for _, t in gmsh.model.getEntities(1)]
    inner_c = in_box(1, [-0.5, -0.5, 0], [0.5, 0.5, 0])
    physical(1, [c for c in curves if c not in inner_c], "outer")
    physical(1, inner_c, "inner")
    gmsh.option.setNumber("Mesh.MeshSizeMax", 0.3)
    if kind != "tri6":
        gmsh.option.setNumber("Mesh.RecombineAll", 1)
        gmsh.option.setNumber("Mesh.Algorithm", 8)
    gmsh.model.mesh.generate(2)
    second_order(kind == "quad8")
    gmsh.model.mesh.setOrder(2)
    return write(name, 2)


def box(name, lo, hi, kind, size=None, cells=None, formats=FORMATS, faces=None):
    gmsh.model.add(name)
    v = gmsh.model.occ.addBox(*lo, *(h - l for h, l in zip(hi, lo)))
    gmsh.model.occ.synchronize()
    if cells is not None:
        for _, tag in gmsh.model.getEntities(1):
            b = gmsh.model.getBoundingBox(1, tag)
            axis = int(np.argmax([b[3] - b[0], b[4] - b[1], b[5] - b[2]]))
            gmsh.model.mesh.setTransfiniteCurve(tag, cells[axis] + 1)
        for _, tag in gmsh.model.getEntities(2):
            gmsh.model.mesh.setTransfiniteSurface(tag)
            gmsh.model.mesh.setRecombine(2, tag)
        gmsh.model.mesh.setTransfiniteVolume(v)
    else:
        gmsh.option.setNumber("Mesh.MeshSizeMax", size)
        gmsh.model.mesh.setSize(gmsh.model.getEntities(0), size)
    physical(3, [v], name.split("_")[0])
    for fname, axis, side in faces:
        blo, bhi = list(lo), list(hi)
        blo[axis] = bhi[axis] = (lo if side == 0 else hi)[axis]
        physical(2, in_box(2, blo, bhi), fname)
    gmsh.model.mesh.generate(3)
    if kind != "tet4" and kind != "hex8":
        second_order(kind == "hex20")
        gmsh.model.mesh.setOrder(2)
    return write(name, 3, formats)


BLOCK_FACES = [(f"{a}{s}", i, k) for i, a in enumerate("xyz") for k, s in enumerate(("min", "max"))]
BEAM_FACES = [("root", 0, 0), ("tip", 0, 1)]


def basis():
    """Gmsh's Lagrange basis and reference gradients of each second-order kind."""
    out = []
    for et, fam in FAMILY.items():
        pts = np.array(POINTS[fam], dtype=float)
        _, f, _ = gmsh.model.mesh.getBasisFunctions(et, pts.ravel(), "Lagrange")
        _, g, _ = gmsh.model.mesh.getBasisFunctions(et, pts.ravel(), "GradLagrange")
        out.append({"kind": KIND[et], "points": pts.tolist(), "values": list(f),
                    "gradients": list(g)})
    return out


def main():
    gmsh.initialize()
    gmsh.option.setNumber("General.Terminal", 0)
    models = []

    def fresh():
        gmsh.clear()
        for opt, val in (("Mesh.RecombineAll", 0), ("Mesh.MeshSizeMax", 1e22),
                         ("Mesh.ElementOrder", 1), ("Mesh.SecondOrderIncomplete", 0),
                         ("Mesh.Algorithm", 6)):
            gmsh.option.setNumber(opt, val)

    for kind in ("tri6", "quad8", "quad9"):
        fresh()
        models.append(ring(kind))
    fresh()
    models.append(box("block_tet10", [0, 0, 0], [1, 0.5, 0.4], "tet10", size=0.5,
                      faces=BLOCK_FACES))
    for kind in ("hex20", "hex27"):
        fresh()
        models.append(box(f"block_{kind}", [0, 0, 0], [1, 0.5, 0.4], kind, cells=[3, 2, 2],
                          faces=BLOCK_FACES))
    beam = dict(lo=[0, 0, 0], hi=[10, 1, 1], faces=BEAM_FACES, formats=[FORMATS[3]])
    fresh()
    models.append(box("beam_tet10", kind="tet10", size=0.5, **beam))
    target = models[-1]["nodes"]
    # the tet4 mesh size with about the node count of beam_tet10
    size, tet4 = 0.25, None
    for _ in range(12):
        fresh()
        tet4 = box("beam_tet4", kind="tet4", size=size, **beam)
        ratio = tet4["nodes"] / target
        if abs(ratio - 1) < 0.05:
            break
        size *= ratio ** (1 / 3)
    models.append(tet4)
    fresh()
    models.append(box("beam_hex27", kind="hex27", cells=[20, 2, 2], **beam))
    fresh()
    models.append(box("beam_hex27_fine", kind="hex27", cells=[40, 4, 4], **beam))
    b = basis()
    gmsh.finalize()
    with open(os.path.join(HERE, "quadratic.toml"), "w") as f:
        f.write(to_toml(models, b))


def to_toml(models, basis_data):
    out = ["# Written by meshes/make_quadratic_meshes.py: what Gmsh and meshio say.\n"]
    for m in models:
        out.append("[[mesh]]")
        out.append(f'name = "{m["name"]}"')
        out.append(f'dim = {m["dim"]}')
        out.append(f'nodes = {m["nodes"]}')
        out.append("files = [" + ", ".join(f'"{f}"' for f in m["files"]) + "]")
        for g in m["groups"]:
            out.append("[[mesh.group]]")
            out.append(f'name = "{g["name"]}"')
            out.append(f'dim = {g["dim"]}')
            out.append("kinds = { " + ", ".join(f"{k} = {v}" for k, v in sorted(g["elements"].items())) + " }")
            out.append(f'measure = {float(g["measure"])!r}')
        out.append("")
    for b in basis_data:
        out.append("[[basis]]")
        out.append(f'kind = "{b["kind"]}"')
        out.append("points = [" + ", ".join("[" + ", ".join(repr(float(v)) for v in p) + "]" for p in b["points"]) + "]")
        out.append("values = [" + ", ".join(repr(float(v)) for v in b["values"]) + "]")
        out.append("gradients = [" + ", ".join(repr(float(v)) for v in b["gradients"]) + "]")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    main()
