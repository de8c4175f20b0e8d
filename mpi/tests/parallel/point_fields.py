#!/usr/bin/env python3
"""The point data of a parallel run's frames against the serial run's, with
VTK's own XML readers (independent of the Rust writer).

    python3 point_fields.py TOL NAME:COMPONENTS,... SERIAL.vtu PARALLEL.pvtu [...]

Reads each serial frame with vtkXMLUnstructuredGridReader and its parallel
frame with vtkXMLPUnstructuredGridReader (which passes on only the arrays
the .pvtu declares, so a field the .pvtu leaves out is missing here). The
pieces hold their ranks' owned and ghost nodes: each of their points is
matched to the serial node at the same reference coordinates, and every
serial node must appear in some piece. For every named field, every
component at every point (owned and ghost alike) must equal the serial
value within TOL times the field's largest magnitude over the serial
frames (the scale of its round-off: a sticking frame's slip rates are
round-off of the run's sliding ones); NaN (a node that is no slave) must be
NaN in both.

Prints one line per field, `NAME largest=... worst=... at=...` (worst: the
largest difference over the field's largest magnitude; at: the frame and
serial node of it), then `points=N shared=S active=M` (points compared; of
them, copies of a node another piece holds too, the nodes on a rank
boundary; and points with a nonzero `contact_state` over the serial frames,
when that field is named); exits 1 on a mismatch.
"""
import math
import sys

import vtk
from vtk.util.numpy_support import vtk_to_numpy


def read(reader_class, path):
    reader = reader_class()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid is None or grid.GetNumberOfPoints() == 0:
        sys.exit(f"{path}: no points read")
    return grid


def field(grid, name, components, path):
    array = grid.GetPointData().GetArray(name)
    if array is None:
        sys.exit(f"{path}: no point data {name!r}")
    if array.GetNumberOfComponents() != components:
        sys.exit(f"{path}: {name} has {array.GetNumberOfComponents()} components, not {components}")
    return vtk_to_numpy(array).reshape(-1, components)


def matched(serial, parallel, where):
    """The serial node of each point of `parallel` (by reference position)."""
    key = lambda p: tuple(round(c, 9) for c in p)
    node_of = {}
    for a in range(serial.GetNumberOfPoints()):
        k = key(serial.GetPoint(a))
        if k in node_of:
            sys.exit(f"{where}: two serial nodes at {k}")
        node_of[k] = a
    match = []
    for p in range(parallel.GetNumberOfPoints()):
        k = key(parallel.GetPoint(p))
        if k not in node_of:
            sys.exit(f"{where}: point {p} at {k} is no serial node")
        match.append(node_of[k])
    missing = set(range(serial.GetNumberOfPoints())) - set(match)
    if missing:
        sys.exit(f"{where}: {len(missing)} serial nodes in no piece")
    return match


def main():
    if len(sys.argv) < 5 or len(sys.argv) % 2 == 0:
        sys.exit(__doc__)
    tol = float(sys.argv[1])
    specs = [(s.rpartition(":")[0], int(s.rpartition(":")[2])) for s in sys.argv[2].split(",")]
    frames = []
    for serial_path, parallel_path in zip(sys.argv[3::2], sys.argv[4::2]):
        serial = read(vtk.vtkXMLUnstructuredGridReader, serial_path)
        parallel = read(vtk.vtkXMLPUnstructuredGridReader, parallel_path)
        match = matched(serial, parallel, parallel_path)
        values = {
            name: (field(serial, name, c, serial_path), field(parallel, name, c, parallel_path))
            for name, c in specs
        }
        frames.append((parallel_path, match, values))
    failed = False
    for name, components in specs:
        largest = max(
            (abs(v) for _, _, values in frames for v in values[name][0].flat if not math.isnan(v)),
            default=0.0,
        )
        worst, at = 0.0, "-"
        for path, match, values in frames:
            s, q = values[name]
            for p, a in enumerate(match):
                for c in range(components):
                    x, y = s[a][c], q[p][c]
                    if math.isnan(x) or math.isnan(y):
                        if not (math.isnan(x) and math.isnan(y)):
                            print(f"{path}: {name} at node {a}: {x} against {y}")
                            failed = True
                        continue
                    d = abs(x - y)
                    if d > tol * largest:
                        print(f"{path}: {name}[{c}] at node {a}: {x!r} against {y!r}")
                        failed = True
                    if largest > 0.0 and d / largest > worst:
                        worst, at = d / largest, f"{path.rsplit('/', 1)[-1]}:{a}"
        print(f"{name} largest={largest:.6e} worst={worst:.3e} at={at}")
    points = sum(len(match) for _, match, _ in frames)
    shared = sum(len(match) - len(set(match)) for _, match, _ in frames)
    active = sum(
        int((values["contact_state"][0] != 0.0).sum()) for _, _, values in frames if "contact_state" in values
    )
    print(f"points={points} shared={shared} active={active}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
