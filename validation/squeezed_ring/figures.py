"""Figures of the squeezed ring (validation/check_figures.py)."""
import csv
import math

from ledgers import closures, read

E, NU, R, T = 1.0e4, 0.3, 1.0, 0.1
# thin ring under two opposite line loads: Δd = (π/4 − 2/π) F R³/(E' I), plane strain
STIFFNESS = E / (1 - NU * NU) * T**3 / 12 / (math.pi / 4 - 2 / math.pi) / R**3


def plate_travel(t):
    """∫ v: the plate's velocity ramps 0 → 0.2 over [0, 0.5]."""
    return 0.2 * t * t if t < 0.5 else 0.05 + 0.2 * (t - 0.5)


def figures(case):
    out = case / "out" / "squeeze"
    h = read(out / "history.csv")
    e, l, j = closures(h)
    with open(out / "contacts.csv") as f:
        c = list(csv.DictReader(f))
    base = [r for r in c if r["pair"] == "ring_outer:plane#0"]
    plate = [r for r in c if r["pair"] == "ring_outer:plane#1"]
    t = [float(r["t"]) for r in plate]
    f_plate = [-float(r["fny"]) for r in plate]
    f_base = [float(r["fny"]) for r in base]
    # secant stiffness at a squeeze of 5 % of the diameter
    k = next(i for i, s in enumerate(t) if plate_travel(s) >= 0.1)
    w, d = h["external_work"][-1], h["dissipation"][-1]
    de = h["total"][-1] - h["total"][0]
    return {
        "energy ledger, worst step / energy scale": e,
        "linear momentum ledger, worst step / scale": l,
        "angular momentum ledger, worst step / scale": j,
        "largest |plate force - base force| / plate force, t >= 0.5": max(
            abs(a - b) / a for s, a, b in zip(t, f_plate, f_base) if s >= 0.5),
        "secant stiffness at a squeeze of 0.1 / thin-ring stiffness": f_plate[k] / plate_travel(t[k]) / STIFFNESS,
        "plate force at the end": f_plate[-1],
        "(external work - frictional work - change of energy) / external work": (w - d - de) / w,
    }
