"""Figures of the Hertz indentation (validation/check_figures.py): force
against indentation on the three meshes of the refinement study."""
import csv
import math

from ledgers import closures, read

E, NU, R = 1.0, 0.3, 1.0
E_STAR = E / (1.0 - NU * NU)  # a rigid indenter
SPEED = 0.000025  # the sphere's velocity: δ(t) = SPEED · t


def hertz(delta):
    """F = 4/3 E* √R δ^(3/2)."""
    return 4.0 / 3.0 * E_STAR * math.sqrt(R) * delta**1.5


def curve(case, level):
    """(δ, F_FE / F_Hertz) at every step of a run (F_FE the whole
    sphere's force: four times the quarter model's)."""
    with open(case / "out" / f"hertz_{level}" / "contacts.csv") as f:
        rows = list(csv.DictReader(f))
    out = []
    for r in rows:
        delta = SPEED * float(r["t"])
        force = -4.0 * float(r["fnz"])
        out.append((delta, force / hertz(delta)))
    return out


def figures(case):
    out = {}
    for level in ("coarse", "medium", "fine"):
        c = curve(case, level)
        e, l, j = closures(read(case / "out" / f"hertz_{level}" / "history.csv"))
        out[f"{level}: F / F_Hertz at the final indentation"] = c[-1][1]
        half = [q for d, q in c if d >= 0.5 * c[-1][0]]
        out[f"{level}: largest |F / F_Hertz - 1| over the second half of the ramp"] = max(abs(q - 1) for q in half)
        out[f"{level}: energy ledger, worst step / energy scale"] = e
        out[f"{level}: linear momentum ledger, worst step / scale"] = l
        out[f"{level}: angular momentum ledger, worst step / scale"] = j
    return out
