#!/usr/bin/env python3
"""Reads a .vtu written by emcontact with VTK's own XML reader and checks its
second-order cells against probes computed by the Rust test from our (Gmsh
order) shape functions.

    check_quadratic_vtk.py FILE.vtu PROBES.txt

PROBES.txt: one line per probe, `cell vtk_type r s t x y z`: the position
(x, y, z) that our interpolation gives at VTK parametric coordinates (r, s, t)
of cell `cell`. VTK evaluates its own interpolation of the cell
(vtkCell.EvaluateLocation, in VTK's node order) at the same parametric
point; a wrong node order moves the point. (The Rust test puts probes on
curved boundary edges off their chords, so agreement means VTK draws the
cells curved.)

Prints `N probes pass` and exits 0, or prints the first failures and exits 1.
"""
import sys

import vtk


def main():
    reader = vtk.vtkXMLUnstructuredGridReader()
    reader.SetFileName(sys.argv[1])
    reader.Update()
    grid = reader.GetOutput()
    bad = []
    count = 0
    with open(sys.argv[2]) as f:
        for line in f:
            parts = line.split()
            if not parts:
                continue
            cell_id, vtk_type = int(parts[0]), int(parts[1])
            r, s, t, x, y, z = map(float, parts[2:8])
            cell = grid.GetCell(cell_id)
            if cell.GetCellType() != vtk_type:
                bad.append(f"cell {cell_id}: VTK type {cell.GetCellType()}, expected {vtk_type}")
                continue
            pos = [0.0, 0.0, 0.0]
            weights = [0.0] * cell.GetNumberOfPoints()
            sub = vtk.reference(0)
            cell.EvaluateLocation(sub, [r, s, t], pos, weights)
            err = max(abs(pos[0] - x), abs(pos[1] - y), abs(pos[2] - z))
            count += 1
            if err > 1e-12 * max(1.0, abs(x), abs(y), abs(z)):
                bad.append(f"cell {cell_id} type {vtk_type} at ({r}, {s}, {t}): VTK {pos}, ours {[x, y, z]}")
    print(f"{count} probes pass" if not bad else "\n".join(bad[:10]))
    return 0 if not bad and count > 0 else 1


if __name__ == "__main__":
    sys.exit(main())
