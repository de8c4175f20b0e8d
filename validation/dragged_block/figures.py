"""Figures of the dragged block (validation/check_figures.py)."""
import csv

from ledgers import closures, read

MU = 0.3
STEADY = 1.5  # sliding is steady once the drag velocity is constant (t ≥ 1.3) plus 0.2


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def figures(case):
    out = case / "out" / "drag"
    h = read(out / "history.csv")
    e, l, j = closures(h)
    reactions = rows(out / "reactions.csv")
    contacts = rows(out / "contacts.csv")
    steady = [(float(r["fx"]), float(c["fny"])) for r, c in zip(reactions, contacts)
              if float(r["t"]) >= STEADY]
    force = sum(f for f, _ in steady) / len(steady)
    normal = sum(n for _, n in steady) / len(steady)
    ratios = [f / (MU * n) for f, n in steady]
    w, d = h["external_work"][-1], h["dissipation"][-1]
    de = h["total"][-1] - h["total"][0]
    return {
        "energy ledger, worst step / energy scale": e,
        "linear momentum ledger, worst step / scale": l,
        "angular momentum ledger, worst step / scale": j,
        "mean driving force / (mu N), steady sliding": force / (MU * normal),
        "mean normal force / (p w)": normal / 10.0,
        "smallest instantaneous driving force / (mu N), steady sliding": min(ratios),
        "largest instantaneous driving force / (mu N), steady sliding": max(ratios),
        "(external work - frictional work - change of energy) / external work": (w - d - de) / w,
    }
