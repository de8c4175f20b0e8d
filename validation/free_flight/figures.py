"""Figures of the free flight (validation/check_figures.py)."""
from history import energy_balances, ledger, log10, momenta, run


def figures(case):
    out = {}
    h, _ = run(case, "energy_momentum")
    out.update(ledger("energy_momentum", h))
    out.update(momenta("energy_momentum", h))
    h, _ = run(case, "newmark")
    out["newmark: log10 max |E - E0| / E0"] = log10(energy_balances(h)[0])
    out.update(momenta("newmark", h))
    return out
