"""Figures of the golf ball (validation/check_figures.py)."""
from history import dissipated, energy_balances, last, ledger, log10, momenta, run


def figures(case):
    out = {}
    spin = {}
    for name in ["mu05", "frictionless", "rigid_plane"]:
        h, b = run(case, name)
        out.update(ledger(name, h))
        if name != "rigid_plane":  # the fixed plane takes the ball's momenta
            out.update(momenta(name, h))
        spin[name] = [last(b, "ball", c) for c in ("wx", "wy", "wz")]
    h, _ = run(case, "mu05")
    out.update(dissipated("mu05", h))
    wx, wy, wz = spin["mu05"]
    out["mu05: backspin wy of the ball at t = 1 ms (rad/ms)"] = wy
    out["mu05: spin axis, max(|wx|, |wz|) / wy"] = max(abs(wx), abs(wz)) / wy
    out["frictionless: |wy| / wy of mu05"] = abs(spin["frictionless"][1]) / wy
    out["rigid_plane: backspin wy of the ball at t = 1 ms (rad/ms)"] = spin["rigid_plane"][1]
    h, _ = run(case, "newmark")  # stops early (exit 1): its history stays
    out["newmark: log10 max |E + D - E0| / E0"] = log10(energy_balances(h)[0])
    h, _ = run(case, "no_update")
    out["no_update: log10 max |E + D - E0| / E0"] = log10(energy_balances(h)[0])
    out.update(momenta("no_update", h))
    return out
