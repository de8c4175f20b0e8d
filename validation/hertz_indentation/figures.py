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
    """(δ_{n+1}, F_FE / F_Hertz) at every step of a run. F_FE is the whole
    sphere's force (four times the quarter model's `fnz` in contacts.csv),
    the step's contact force at the midpoint: with the inertia negligible it
    equals the algorithmic internal force, for St. Venant–Kirchhoff at small
    strain the mean of the elastic forces at the step's two ends, whose
    contact nodes sit on the sphere at δ_n and δ_{n+1}. So it is compared
    with the mean of Hertz's force at δ_n and δ_{n+1} (δ = SPEED · t);
    against Hertz at δ_{n+1} alone it would lag by half a step (F/F_Hertz
    0.93–0.94 instead of 1.00–1.01 at the last of ten steps)."""
    dt = {float(r["t"]): float(r["dt"]) for r in rows(case / "out" / f"hertz_{level}" / "history.csv")}
    out = []
    for r in rows(case / "out" / f"hertz_{level}" / "contacts.csv"):
        t = float(r["t"])
        force = -4.0 * float(r["fnz"])
        mean = 0.5 * (hertz(SPEED * (t - dt[t])) + hertz(SPEED * t))
        out.append((SPEED * t, force / mean))
    return out


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


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
