"""Figures of the pressure-driven plate (validation/check_figures.py)."""
import csv

from ledgers import closures, read

P, WIDTH = 1.0, 2.0


def impulse(t):
    """p · width · ∫c, the curve 0 → 1 over [0, 0.1], held to 0.3, 0 at 0.35."""
    if t <= 0.1:
        a = 5.0 * t * t
    elif t <= 0.3:
        a = 0.05 + (t - 0.1)
    elif t <= 0.35:
        s = t - 0.3
        a = 0.25 + s - 10.0 * s * s
    else:
        a = 0.275
    return P * WIDTH * a


def figures(case):
    out = case / "out" / "plate"
    h = read(out / "history.csv")
    e, l, j = closures(h)
    with open(out / "bodies.csv") as f:
        plate = [r for r in csv.DictReader(f) if r["body"] == "plate"]
    at = lambda t: next(r for r in plate if abs(float(r["t"]) - t) < 1e-9)
    before = at(0.2)
    k = next(i for i, s in enumerate(h["t"]) if abs(s - 0.2) < 1e-9)
    return {
        "energy ledger, worst step / energy scale": e,
        "linear momentum ledger, worst step / scale": l,
        "angular momentum ledger, worst step / scale": j,
        "plate momentum / pressure impulse at t = 0.2 (before the impact)": -float(before["ly"]) / impulse(0.2),
        "plate energy / external work at t = 0.2": (float(before["kinetic"]) + float(before["strain"])) / h["external_work"][k],
        "plate momentum after the rebound (t = 0.8)": float(plate[-1]["ly"]),
        "external work at t = 0.8": h["external_work"][-1],
        "contact points at the impact, most": max(h["active"]),
        "velocity-update defect / external work": abs(h["update_defect"][-1]) / h["external_work"][-1],
    }
