#!/usr/bin/env python3
"""The per-step energy and momentum ledgers of a run, recomputed from its
history.csv alone (docs/ledgers.md):

  energy:   |Δtotal + Δdissipation − Δexternal_work| over the energy scale
            max_n max(kinetic + strain, |external_work|, dissipation);
  momentum: |ΔL − ΔI| over max_n max(|L|, linear_scale, impulse_size),
            |ΔJ − ΔK| over the same of J, angular_scale, angular_impulse_size.

Usage: ledgers.py RUN_DIR [RUN_DIR ...]   prints the worst step of each run.
"""
import csv
import math
import pathlib
import sys


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def closures(h):
    """(energy, linear, angular): the largest per-step closure of each
    ledger relative to its scale."""
    n = len(h["t"])
    col = lambda k: h.get(k, [0.0] * n)
    e_scale = max(max(k + s, abs(w), d) for k, s, w, d in
                  zip(col("kinetic"), col("strain"), col("external_work"), col("dissipation")))
    worst_e = 0.0
    for i in range(1, n):
        d = (h["total"][i] - h["total"][i - 1]) + (col("dissipation")[i] - col("dissipation")[i - 1]) \
            - (col("external_work")[i] - col("external_work")[i - 1])
        worst_e = max(worst_e, abs(d))
    out = [worst_e / e_scale if e_scale > 0 else worst_e]
    for mom, imp, scales in (("l", "impulse_", ("linear_scale", "impulse_size")),
                             ("j", "angular_impulse_", ("angular_scale", "angular_impulse_size"))):
        comps = [c for c in "xyz" if mom + c in h]
        scale = max(math.sqrt(sum(h[mom + c][i] ** 2 for c in comps)) for i in range(n))
        for s in scales:
            scale = max([scale] + [abs(v) for v in col(s)])
        worst = 0.0
        for i in range(1, n):
            d = sum(((h[mom + c][i] - h[mom + c][i - 1]) - (col(imp + c)[i] - col(imp + c)[i - 1])) ** 2
                    for c in comps)
            worst = max(worst, math.sqrt(d))
        out.append(worst / scale if scale > 0 else worst)
    return tuple(out)


def main():
    for d in sys.argv[1:]:
        e, l, j = closures(read(pathlib.Path(d) / "history.csv"))
        print(f"{d}: per-step closure energy {e:.2e}, linear momentum {l:.2e}, angular momentum {j:.2e}")


if __name__ == "__main__":
    main()
