#!/usr/bin/env python3
"""Independent check of emcontact's VTK output with VTK's own XML reader.

Given a ParaView collection (.pvd), checks that every listed .vtu exists and
is read by vtkXMLUnstructuredGridReader without error, and that every frame
has the requested point and cell arrays with the requested number of
components and one tuple per point / cell.

    python3 validation/check_vtk.py out/run.pvd \
        --points displacement:3,velocity:3 \
        --cells stress:9,strain_energy_density:1,body:1

Prints one line per frame and a summary; exits 1 on any mismatch (0 if all
frames pass, 2 on bad usage). Uses only the `vtk` package and the standard
library (xml.etree for the .pvd).
"""
import argparse
import os
import sys
import xml.etree.ElementTree as ET


def parse_spec(text):
    """'a:3,b:1' -> [('a', 3), ('b', 1)]."""
    spec = []
    if not text:
        return spec
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        name, sep, comps = item.rpartition(":")
        if not sep or not name:
            raise ValueError(f"bad array spec {item!r} (expected NAME:COMPONENTS)")
        spec.append((name, int(comps)))
    return spec


def read_pvd(path):
    """[(timestep, absolute file path)] of the collection, in file order."""
    root = ET.parse(path).getroot()
    if root.tag != "VTKFile" or root.get("type") != "Collection":
        raise ValueError("not a VTKFile of type Collection")
    coll = root.find("Collection")
    if coll is None:
        raise ValueError("no <Collection> element")
    base = os.path.dirname(os.path.abspath(path))
    frames = []
    for ds in coll.findall("DataSet"):
        f = ds.get("file")
        if f is None:
            raise ValueError("<DataSet> without a file attribute")
        t = float(ds.get("timestep", "nan"))
        frames.append((t, os.path.join(base, f)))
    return frames


def check_arrays(data, spec, count, where):
    """Problems with the arrays of `data` (vtkPointData/vtkCellData)."""
    problems = []
    for name, comps in spec:
        arr = data.GetArray(name)
        if arr is None:
            problems.append(f"{where} array '{name}' missing")
            continue
        if arr.GetNumberOfComponents() != comps:
            problems.append(f"{where} array '{name}' has {arr.GetNumberOfComponents()} components, expected {comps}")
        if arr.GetNumberOfTuples() != count:
            problems.append(f"{where} array '{name}' has {arr.GetNumberOfTuples()} tuples, expected {count}")
    return problems


def check_frame(path, points, cells):
    """(problems, n_points, n_cells) of one .vtu."""
    # the XML reader and the output window alone (vtkmodules, VTK >= 9):
    # `import vtk` loads every module, about 1 s of CPU where these take 0.4 s
    from vtkmodules.vtkCommonCore import vtkOutputWindow, vtkStringOutputWindow
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader

    if not os.path.isfile(path):
        return [f"file missing: {path}"], 0, 0
    reader = vtkXMLUnstructuredGridReader()
    if not reader.CanReadFile(path):
        return [f"not a readable VTK XML unstructured grid: {path}"], 0, 0
    errors = vtkStringOutputWindow()
    previous = vtkOutputWindow.GetInstance()
    vtkOutputWindow.SetInstance(errors)
    try:
        reader.SetFileName(path)
        reader.Update()
    finally:
        vtkOutputWindow.SetInstance(previous)
    problems = []
    if reader.GetErrorCode() != 0:
        problems.append(f"reader error code {reader.GetErrorCode()}")
    log = errors.GetOutput().strip()
    if "ERROR" in log:
        problems.append("VTK reported: " + " | ".join(l for l in log.splitlines() if l.strip())[:500])
    grid = reader.GetOutput()
    n_points, n_cells = grid.GetNumberOfPoints(), grid.GetNumberOfCells()
    problems += check_arrays(grid.GetPointData(), points, n_points, "point")
    problems += check_arrays(grid.GetCellData(), cells, n_cells, "cell")
    return problems, n_points, n_cells


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pvd", help="the .pvd collection file")
    ap.add_argument("--points", default="", help="point arrays NAME:COMPONENTS,...")
    ap.add_argument("--cells", default="", help="cell arrays NAME:COMPONENTS,...")
    args = ap.parse_args(argv)
    try:
        points, cells = parse_spec(args.points), parse_spec(args.cells)
    except ValueError as e:
        print(f"check_vtk: {e}", file=sys.stderr)
        return 2
    try:
        import vtkmodules.vtkIOXML  # noqa: F401
    except ImportError:
        print("check_vtk: the python 'vtk' package is not installed", file=sys.stderr)
        return 2
    try:
        frames = read_pvd(args.pvd)
    except (OSError, ET.ParseError, ValueError) as e:
        print(f"FAIL {args.pvd}: {e}")
        return 1
    if not frames:
        print(f"FAIL {args.pvd}: the collection lists no frames")
        return 1

    failed = 0
    for t, path in frames:
        problems, n_points, n_cells = check_frame(path, points, cells)
        rel = os.path.relpath(path)
        if problems:
            failed += 1
            print(f"FAIL t={t!r} {rel}: " + "; ".join(problems))
        else:
            print(f"ok   t={t!r} {rel}: {n_points} points, {n_cells} cells")
    want = ", ".join(f"{n}:{c}" for n, c in points) or "-"
    wantc = ", ".join(f"{n}:{c}" for n, c in cells) or "-"
    print(f"{args.pvd}: {len(frames) - failed}/{len(frames)} frames pass "
          f"(point arrays {want}; cell arrays {wantc})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
