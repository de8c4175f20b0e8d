"""The friction blocks' hex8 mesh, node for node as emcontact builds it.

Reproduces `box_mesh` of src/mesh/generate.rs for 3D hex8 boxes: nodes x
fastest, then y, then z; each cell's hex8 in Gmsh order (000, 100, 110, 010,
001, 101, 111, 011); face groups `<name>_zmin` / `<name>_zmax` as quad4 with
the outward normal (x1 - x0) x (x2 - x0).  Generated boxes are appended in
input order (src/mesh/mod.rs: the second box's node indices are offset by the
first box's node count), so the base's nodes come first, then the cube's.

`verify_vtu` checks the result against a `.vtu` frame that `emcontact run`
wrote (reference coordinates and hex8 connectivity), so the Kratos model is
the same discretization as ours, not a look-alike.
"""
import base64
import xml.etree.ElementTree as ET

import numpy as np


def lerp(lo, hi, i, n):
    """Coordinate i of n divisions of [lo, hi], exact at both ends (as in Rust)."""
    return hi if i == n else lo + (hi - lo) * (i / n)


class Box:
    """One generated hex8 box: nodes (local, 0-based), hexes, z-faces."""

    def __init__(self, name, lo, hi, n):
        self.name, self.n = name, tuple(n)
        nx, ny, nz = n
        self.nodes = np.array(
            [
                [lerp(lo[0], hi[0], i, nx), lerp(lo[1], hi[1], j, ny), lerp(lo[2], hi[2], k, nz)]
                for k in range(nz + 1)
                for j in range(ny + 1)
                for i in range(nx + 1)
            ]
        )
        idx = lambda i, j, k: i + (nx + 1) * (j + (ny + 1) * k)
        self.hexes = np.array(
            [
                [idx(i + a, j + b, k + c) for (a, b, c) in
                 ((0, 0, 0), (1, 0, 0), (1, 1, 0), (0, 1, 0),
                  (0, 0, 1), (1, 0, 1), (1, 1, 1), (0, 1, 1))]
                for k in range(nz)
                for j in range(ny)
                for i in range(nx)
            ]
        )
        # axis z: (b, c) = (x, y); listed with normal +z, reversed on zmin.
        self.faces = {}
        for side, k in (("zmin", 0), ("zmax", nz)):
            quads = []
            for j in range(ny):
                for i in range(nx):
                    q = [idx(i, j, k), idx(i + 1, j, k), idx(i + 1, j + 1, k), idx(i, j + 1, k)]
                    if side == "zmin":
                        q = [q[0]] + q[1:][::-1]
                    quads.append(q)
            self.faces[side] = np.array(quads)


class Blocks:
    """Base box then cube box, global 0-based node indices."""

    def __init__(self, base_div, cube_div):
        self.base = Box("base", (0.0, 0.0, 0.0), (2.0, 2.0, 1.0), base_div)
        self.cube = Box("cube", (0.5, 0.0, 1.25), (1.5, 1.0, 2.25), cube_div)
        self.offset = len(self.base.nodes)
        self.nodes = np.vstack([self.base.nodes, self.cube.nodes])
        self.base_hexes = self.base.hexes
        self.cube_hexes = self.cube.hexes + self.offset
        self.base_bottom = self.base.faces["zmin"]
        self.base_top = self.base.faces["zmax"]
        self.cube_bottom = self.cube.faces["zmin"] + self.offset

    def hexes(self):
        return np.vstack([self.base_hexes, self.cube_hexes])

    def outward_normals_ok(self):
        """Top of the base points +z, bottom of the cube points -z."""
        def normals(quads):
            x = self.nodes
            return np.cross(x[quads[:, 1]] - x[quads[:, 0]], x[quads[:, 2]] - x[quads[:, 0]])
        return bool(np.all(normals(self.base_top)[:, 2] > 0) and np.all(normals(self.cube_bottom)[:, 2] < 0))


_DTYPES = {"Float32": "<f4", "Float64": "<f8", "Int32": "<i4", "Int64": "<i8",
           "UInt8": "<u1", "UInt32": "<u4", "UInt64": "<u8"}


def _decode(arr, header):
    """An inline DataArray, ascii or uncompressed base64 (header + data)."""
    dtype = np.dtype(_DTYPES[arr.get("type")])
    text = arr.text.strip()
    if arr.get("format", "ascii") == "ascii":
        return np.array(text.split(), dtype=dtype)
    hdr = np.dtype(_DTYPES[header])
    whole = base64.b64decode(text)
    nbytes = int(np.frombuffer(whole[: hdr.itemsize], hdr)[0])
    if len(whole) != hdr.itemsize + nbytes:
        # header and data encoded as two base64 blocks
        cut = 4 * -(-hdr.itemsize // 3)
        nbytes = int(np.frombuffer(base64.b64decode(text[:cut]), hdr)[0])
        whole = base64.b64decode(text[:cut])[: hdr.itemsize] + base64.b64decode(text[cut:])
    return np.frombuffer(whole[hdr.itemsize: hdr.itemsize + nbytes], dtype)


def _data_array(node, path, header, name=None):
    for arr in node.iter("DataArray"):
        if name is None or arr.get("Name") == name:
            return _decode(arr, header)
    raise ValueError(f"{path}: no DataArray {name}")


def read_vtu(path):
    """Points (n x 3) and connectivity (cells x 8) of an ascii .vtu frame."""
    root = ET.parse(path).getroot()
    if root.get("compressor"):
        raise ValueError(f"{path}: compressed .vtu is not supported")
    header = root.get("header_type", "UInt32")
    piece = root.find(".//Piece")
    pts = _data_array(piece.find("Points"), path, header).astype(float).reshape(-1, 3)
    cells = piece.find("Cells")
    conn = _data_array(cells, path, header, "connectivity").astype(int)
    offs = _data_array(cells, path, header, "offsets").astype(int)
    if not np.all(np.diff(np.concatenate([[0], offs])) == 8):
        raise ValueError(f"{path}: not all cells are hex8")
    return pts, conn.reshape(-1, 8)


def verify_vtu(blocks, path):
    """Max coordinate difference; raises if node count or connectivity differ.

    VTK's hexahedron order equals Gmsh's for hex8, so the connectivity must be
    identical index for index.
    """
    pts, conn = read_vtu(path)
    if pts.shape != blocks.nodes.shape:
        raise ValueError(f"{path}: {len(pts)} points, converter has {len(blocks.nodes)}")
    hexes = blocks.hexes()
    if conn.shape != hexes.shape or not np.array_equal(conn, hexes):
        raise ValueError(f"{path}: hex8 connectivity differs from the converter's")
    return float(np.max(np.abs(pts - blocks.nodes)))
