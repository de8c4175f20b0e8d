#!/usr/bin/env python3
"""fold_ring.png: three frames of the ring run while its inner surface is
closed onto itself (the deformed mesh, off screen with pyvista).
Usage: fold_picture.py   (after run_all.sh self_contact)"""
import pathlib

import pyvista as pv

import no_crossing

HERE = pathlib.Path(__file__).parent


def main():
    pv.OFF_SCREEN = True
    fs = no_crossing.frames(HERE / "out" / "ring" / "ring.pvd")
    pl = pv.Plotter(shape=(1, 3), window_size=(1500, 500))
    for i, t in enumerate((0.0256, 0.0288, 0.0304)):
        tt, p = min(fs, key=lambda f: abs(f[0] - t))
        m = pv.read(p)
        m.points = m.points + m.point_data["displacement"]
        pl.subplot(0, i)
        pl.add_mesh(m, color="lightsteelblue", show_edges=True, edge_color="k", line_width=0.3)
        pl.add_text(f"t = {tt:.4f}", font_size=10)
        pl.view_xy()
    pl.screenshot(str(HERE / "fold_ring.png"))


if __name__ == "__main__":
    main()
