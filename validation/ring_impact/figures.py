"""Figures of the ring impact (validation/check_figures.py)."""
from history import dissipated, energy_balances, ledger, log10, momenta, run


def figures(case):
    out = {}
    for name in ["frictionless", "velocity_update", "lumped_mass"]:
        h, _ = run(case, name)
        out.update(ledger(name, h))
        out.update(momenta(name, h))
        if name != "frictionless":
            out.update(dissipated(name, h))
    h, _ = run(case, "no_update")
    out["no_update: log10 max |E + D - E0| / E0"] = log10(energy_balances(h)[0])
    out.update(momenta("no_update", h))
    h, _ = run(case, "newmark")
    out["newmark: log10 max |E + D - E0| / E0"] = log10(energy_balances(h)[0])
    out["newmark: linear momentum drift"] = momenta("newmark", h)["newmark: linear momentum drift"]
    return out
