"""Figures of the tet10 and tet4 spheres on their plates (check_figures.py):
per run the per-step ledgers, the Newton iterations of the contact steps,
the cut-backs, the run's own penetration (on the faces the contact held)
and an independent one from the VTK frames (penetration.py: every boundary
node of one body against the curved boundary faces of the other)."""
import pathlib
import statistics
import sys

from ledgers import closures, read

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import penetration  # noqa: E402


def one(case, name):
    out = case / "out" / name
    h = read(out / "history.csv")
    e, l, j = closures(h)
    its = [n for n, a in zip(h["newton_iterations"][1:], h["active"][1:]) if a > 0]
    dt = h["dt"]
    cut = sum(abs(dt[i] - 0.5 * dt[i - 1]) < 1e-9 * dt[i - 1] for i in range(2, len(dt)))
    return {
        f"{name}: end time": h["t"][-1],
        f"{name}: energy ledger, worst step / energy scale": e,
        f"{name}: linear momentum ledger, worst step / scale": l,
        f"{name}: angular momentum ledger, worst step / scale": j,
        f"{name}: median Newton iterations per contact step": statistics.median(its),
        f"{name}: cut-backs": cut,
        f"{name}: penetration / h (the run's own)": max(h["max_penetration_h"]),
        f"{name}: penetration / h (independent, VTK frames)": penetration.worst(out / f"{name}.pvd")[0],
    }


def figures(case):
    out = {}
    for name in ("sphere_tet10", "sphere_tet4"):
        if (case / "out" / name / "history.csv").exists():
            out.update(one(case, name))
    return out


if __name__ == "__main__":
    for k, v in figures(pathlib.Path(__file__).parent).items():
        print(f"{k}: {v:.6g}")
