"""Figures of the friction blocks (validation/check_figures.py). The base is
fixed: momenta are not conserved here."""
from history import dissipated, energy_balances, ledger, log10, onset, peak, run

CONSISTENT = ["stick_mu08", "stick_mu08_regularized", "slip_mu02", "slip_mu03", "slip_mu04"]


def figures(case):
    out = {}
    for name in CONSISTENT:
        h, b = run(case, name)
        out.update(ledger(name, h))
        out.update(dissipated(name, h))
        out[f"{name}: tumbling onset t (|wx| of the cube >= 0.5)"] = min(onset(b, "cube", "wx", 0.5), 9.9)
        out[f"{name}: peak |wx| of the cube"] = peak(b, "cube", "wx")
    h, _ = run(case, "stick_mu08_regularized")
    first = next(i for i, a in enumerate(h["active"]) if a > 0)
    out["stick_mu08_regularized: sticking points in the first contact step"] = h["stick"][first]
    out["stick_mu08_regularized: slipping points in the first contact step"] = h["slip"][first]
    h, _ = run(case, "no_update")
    out["no_update: log10 max per-step |dE + dD| / E0"] = log10(energy_balances(h)[1])
    h, _ = run(case, "newmark")
    out["newmark: log10 max |E + D - E0| / E0"] = log10(energy_balances(h)[0])
    return out
