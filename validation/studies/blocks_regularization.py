#!/usr/bin/env python3
"""Friction blocks: the tangential regularization study (issue 13, item 5).

Runs validation/friction_blocks/stick_mu08.toml at mu = 0.8 and 0.2 with
each enforcement (exact, augmented Lagrangian, penalty) and a stated
tangential_penalty (none, and several values), and prints a markdown table:
the first contact step's stick/slip counts, the largest |E_{n+1} - E_n| / E0
over steps in which no point slips, D / E0 over the run, the cube's wx at
t = 0.3 and its largest |wx| with the time it first reaches 0.5, cut-backs
and Newton iterations.

Usage: python3 validation/studies/blocks_regularization.py [OUT_DIR]
(the release binary must be built: cargo build --release; EMCONTACT=path
runs another build)."""
import csv
import itertools
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXE = os.environ.get("EMCONTACT", os.path.join(ROOT, "target", "release", "emcontact"))
BASE = os.path.join(ROOT, "validation", "friction_blocks", "stick_mu08.toml")
ENFORCEMENTS = ["exact", "augmented-lagrangian", "penalty"]
PENALTIES = [None, 1e2, 1e3, 1.3e3, 1.5e3, 2e3, 1e4]
FRICTIONS = [0.8, 0.2]


def rows(path):
    with open(path) as f:
        return list(csv.DictReader(f))


def summary(out):
    h = rows(os.path.join(out, "history.csv"))
    e0 = float(h[0]["total"])
    first = next((r for r in h[1:] if float(r["active"]) > 0), None)
    quiet = [
        abs(float(b["total"]) - float(a["total"])) / e0
        for a, b in zip(h, h[1:])
        if float(b["slip"]) == 0
    ]
    cube = [r for r in rows(os.path.join(out, "bodies.csv")) if r["body"] == "cube"]
    wx = {round(float(r["t"]), 6): float(r["wx"]) for r in cube}
    onset = next((t for t, w in sorted(wx.items()) if abs(w) >= 0.5), None)
    return {
        "first": f"{int(float(first['stick']))}/{int(float(first['slip']))}" if first else "-",
        "quiet": max(quiet) if quiet else 0.0,
        "D": float(h[-1]["dissipation"]) / e0,
        "wx03": wx.get(0.3, float("nan")),
        "peak": max(abs(w) for w in wx.values()),
        "onset": onset,
        "cut": sum(1 for r in h[1:] if abs(float(r["dt"]) - float(h[1]["dt"])) > 1e-12),
        "newton": sum(int(float(r["newton_iterations"])) for r in h[1:]),
    }


def run(out, mu, enforcement, eps_t):
    text = open(BASE).read().replace("friction = 0.8", f"friction = {mu}")
    extra = f'enforcement = "{enforcement}"\n'
    if eps_t is not None:
        extra += f"tangential_penalty = {eps_t}\n"
    text = text.replace(f"friction = {mu}\n", f"friction = {mu}\n{extra}")
    os.makedirs(out, exist_ok=True)
    inp = os.path.join(out, "input.toml")
    open(inp, "w").write(text)
    env = dict(os.environ, RAYON_NUM_THREADS="1")
    p = subprocess.run(
        [EXE, "run", inp, "--out", os.path.join(out, "out"), "--overwrite", "--quiet"],
        capture_output=True, text=True, env=env,
    )
    if p.returncode != 0:
        lines = (p.stderr + p.stdout).splitlines()
        why = next((l for l in lines if l.startswith("error")), f"exit {p.returncode}")
        return None, why.replace("|", "/")
    return summary(os.path.join(out, "out")), None


def main():
    top = sys.argv[1] if len(sys.argv) > 1 else "/tmp/blocks_regularization"
    print("| μ | enforcement | tangential_penalty | first contact step stick/slip | max \\|ΔE\\|/E₀, no-slip steps | D/E₀ | wx(0.3) | peak \\|wx\\| | \\|wx\\| ≥ 0.5 from | cut-backs | Newton its |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for mu, enf, eps in itertools.product(FRICTIONS, ENFORCEMENTS, PENALTIES):
        name = f"mu{mu}_{enf}_{eps}"
        s, err = run(os.path.join(top, name), mu, enf, eps)
        label = "—" if eps is None else f"{eps:g}"
        if s is None:
            print(f"| {mu} | {enf} | {label} | failed: {err} | | | | | | | |")
            continue
        onset = "never" if s["onset"] is None else f"t = {s['onset']:g}"
        print(
            f"| {mu} | {enf} | {label} | {s['first']} | {s['quiet']:.1e} | {100 * s['D']:.2f} % | "
            f"{s['wx03']:.3f} | {s['peak']:.2f} | {onset} | {s['cut']} | {s['newton']} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
