"""The figures of a validation run, from its history.csv and bodies.csv
alone: balances, drifts, penetration, dissipation, the bodies' spin. Used
by the cases' figures.py (validation/check_figures.py checks them against
each case's reference.toml)."""
import csv
import math


def read(path):
    """A CSV of a run as columns; text cells (the body name) stay text."""
    with open(path) as f:
        rows = list(csv.DictReader(f))

    def value(v):
        try:
            return float(v)
        except ValueError:
            return v

    return {k: [value(r[k]) for r in rows] for k in rows[0]}


def run(case, name):
    """(history, bodies) of the run `name` of a case folder."""
    out = case / "out" / name
    return read(out / "history.csv"), read(out / "bodies.csv")


def energy_balances(h):
    """(max_n |E_n + D_n − E₀|, max_n |ΔE + ΔD|) over E₀, D the frictional work."""
    d = h.get("dissipation", [0.0] * len(h["t"]))
    e = [a + b for a, b in zip(h["total"], d)]
    run_ = max(abs(x - e[0]) for x in e) / abs(e[0])
    step = max((abs(b - a) for a, b in zip(e, e[1:])), default=0.0) / abs(e[0])
    return run_, step


def momentum_drifts(h):
    """(linear, angular): max_n |X_n − X₀| over max(|X₀|, the motion's size at
    t = 0), as the code measures them."""
    out = []
    for m, scale in (("l", "linear_scale"), ("j", "angular_scale")):
        v = [[h[m + c][i] for c in "xyz"] for i in range(len(h["t"]))]
        s = max(math.dist(v[0], [0, 0, 0]), h[scale][0] if scale in h else 0.0)
        d = max(math.dist(x, v[0]) for x in v)
        out.append(d / s if s > 0 else d)
    return tuple(out)


def log10(x):
    return math.log10(x) if x > 0 else -math.inf


def body_rows(b, body):
    return [i for i, name in enumerate(b["body"]) if name == body]


def onset(b, body, col, limit):
    """The first step end at which |col| of `body` is at least `limit`, or inf."""
    return next((b["t"][i] for i in body_rows(b, body) if abs(b[col][i]) >= limit), math.inf)


def peak(b, body, col):
    """The largest |col| of `body` over the run."""
    return max(abs(b[col][i]) for i in body_rows(b, body))


def last(b, body, col):
    """`col` of `body` at the run's end."""
    return b[col][body_rows(b, body)[-1]]


def ledger(prefix, h):
    """The figures every energy-consistent run states: balances, penetration
    relative to the face size, update defect."""
    run_, step = energy_balances(h)
    return {
        f"{prefix}: max |E + D - E0| / E0": run_,
        f"{prefix}: max per-step |dE + dD| / E0": step,
        f"{prefix}: max penetration / h": max(h["max_penetration_h"]) if "max_penetration_h" in h else 0.0,
        f"{prefix}: |update defect| / E0": abs(h["update_defect"][-1]) / abs(h["total"][0])
        if "update_defect" in h else 0.0,
    }


def momenta(prefix, h):
    l, j = momentum_drifts(h)
    return {f"{prefix}: linear momentum drift": l, f"{prefix}: angular momentum drift": j}


def dissipated(prefix, h):
    """D at the end over the initial kinetic energy."""
    return {f"{prefix}: D / K0": h["dissipation"][-1] / h["kinetic"][0]}
