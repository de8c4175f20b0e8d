#!/usr/bin/env python3
"""Plots and figures of the validation cases, from the runs' own history.csv files.

For every case folder given (default: all), reads out/<run>/history.csv of each
run, draws <case>/energy.png (relative change of E + D, log scale),
<case>/angular_momentum.png, <case>/dissipation.png (frictional work),
<case>/bodies.png (kinetic + strain energy of each body, from bodies.csv) and
<case>/snapshot_<run>.png (the deformed bodies of the run's last VTK frame,
rendered off screen with pyvista, the way a ParaView user sees them), and writes
docs/validation.md with a table of the measured figures.
"""
import csv
import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
VAL = ROOT / "validation"


def read(path):
    with open(path) as f:
        rows = list(csv.DictReader(f))
    cols = {k: np.array([float(r[k]) for r in rows]) for k in rows[0]}
    return cols


def drifts(h):
    """Drifts as the code measures them: the energy balance E_n + D_n − E_0
    (D_n the cumulative frictional work) over E_0, and momentum changes over
    max(|X_0|, Σ_A |x_A × p_A|) (resp. Σ_A |p_A|) at t = 0, so that a momentum
    that is zero by symmetry gets a meaningful scale."""
    e = h["total"] + h.get("dissipation", 0.0 * h["total"])
    l = np.stack([h["lx"], h["ly"], h["lz"]], axis=1)
    j = np.stack([h["jx"], h["jy"], h["jz"]], axis=1)
    n = lambda v: np.linalg.norm(v, axis=1)
    ls = max(np.linalg.norm(l[0]), h["linear_scale"][0] if "linear_scale" in h else 0.0)
    js = max(np.linalg.norm(j[0]), h["angular_scale"][0] if "angular_scale" in h else 0.0)
    rel = lambda x, x0: x / x0 if x0 > 0 else x
    return {
        "energy": np.abs(e - e[0]) / abs(e[0]),
        "linear": rel(n(l - l[0]), ls),
        "angular": rel(n(j - j[0]), js),
    }


def step_balance(h):
    """max over steps of |E_{n+1} − E_n + D_{n+1} − D_n| / E_0."""
    e = h["total"] + h.get("dissipation", 0.0 * h["total"])
    return float(np.abs(np.diff(e)).max() / abs(e[0])) if len(e) > 1 else 0.0


def snapshot(run_dir, png):
    """Renders the last VTK frame of a run (warped by its displacement, coloured
    by the velocity magnitude); returns an error text instead of raising when
    off-screen rendering is unavailable."""
    frames = sorted(run_dir.glob("*.vtu"))
    if not frames:
        return "no VTK frames"
    try:
        import pyvista as pv

        pv.OFF_SCREEN = True
        mesh = pv.read(str(frames[-1]))
        if "displacement" in mesh.point_data:
            mesh = mesh.warp_by_vector("displacement")
        p = pv.Plotter(off_screen=True, window_size=(720, 540))
        p.add_mesh(mesh, scalars="velocity" if "velocity" in mesh.point_data else None, show_edges=True)
        p.add_text(f"{run_dir.name}: {frames[-1].name}", font_size=10)
        if mesh.bounds[5] - mesh.bounds[4] == 0.0:
            p.view_xy()
        p.screenshot(str(png))
        p.close()
        return None
    except Exception as e:  # rendering is best effort: report, do not fail
        return f"snapshot failed: {e}"


def bodies_plot(case, runs):
    fig, axes = plt.subplots(1, len(runs), figsize=(5 * len(runs), 4), squeeze=False)
    for ax, path in zip(axes[0], runs):
        b = path.parent / "bodies.csv"
        if not b.exists():
            continue
        with open(b) as f:
            rows = list(csv.DictReader(f))
        for body in sorted({r["body"] for r in rows}):
            rr = [r for r in rows if r["body"] == body]
            t = np.array([float(r["t"]) for r in rr])
            e = np.array([float(r["kinetic"]) + float(r["strain"]) for r in rr])
            ax.plot(t, e, label=body)
        ax.set_title(path.parent.name)
        ax.set_xlabel("t")
        ax.set_ylabel("kinetic + strain")
        ax.grid(True, alpha=0.3)
        ax.legend()
    fig.tight_layout()
    fig.savefig(VAL / case / "bodies.png", dpi=100)
    plt.close(fig)


# Cases whose README states a tumbling criterion: body, bodies.csv column,
# threshold (validation/friction_blocks/README.md, "Tumbling criterion").
TUMBLING = {"friction_blocks": ("cube", "wx", 0.5)}


def tumbling_lines(case, runs):
    """One line per run: the first step end at which the criterion holds."""
    if case not in TUMBLING:
        return []
    body, col, limit = TUMBLING[case]
    out = ["", f"Tumbling (first step end with |{col}| of the {body} ≥ {limit}):", ""]
    for path in runs:
        b = path.parent / "bodies.csv"
        if not b.exists():
            continue
        with open(b) as f:
            rows = [r for r in csv.DictReader(f) if r["body"] == body]
        first = next((float(r["t"]) for r in rows if abs(float(r[col])) >= limit), None)
        peak = max(rows, key=lambda r: abs(float(r[col])))
        when = f"t = {first:.3g}" if first is not None else "never"
        out.append(
            f"* {path.parent.name}: {when} (peak |{col}| {abs(float(peak[col])):.3f} at t = {float(peak['t']):.3g})"
        )
    return out


def case_report(case):
    runs = sorted((VAL / case / "out").glob("*/history.csv"))
    if not runs:
        return None
    lines = [f"## {case}", ""]
    readme = VAL / case / "README.md"
    if readme.exists():
        lines += [f"See `validation/{case}/README.md` for the physics and the expected figures.", ""]
    lines += [
        "| run | steps | end time | max \\|E + D − E₀\\| / E₀ | max per step \\|ΔE + ΔD\\| / E₀ | max L drift | max J drift | D / K₀ (friction) | update defect | max penetration (either surface) | Newton its per contact step, median / max | cut-back steps |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    fig_d, ax_d = plt.subplots(figsize=(8, 4.5))
    notes = []
    fig_e, ax_e = plt.subplots(figsize=(8, 4.5))
    fig_j, ax_j = plt.subplots(figsize=(8, 4.5))
    for path in runs:
        name = path.parent.name
        h = read(path)
        d = drifts(h)
        t = h["t"]
        ax_e.semilogy(t[1:], np.maximum(d["energy"][1:], 1e-17), label=name)
        ax_j.semilogy(t[1:], np.maximum(d["angular"][1:], 1e-17), label=name)
        frac = h["dissipation"][-1] / h["kinetic"][0] if "dissipation" in h and h["kinetic"][0] > 0 else 0.0
        defect = h["update_defect"][-1] if "update_defect" in h else 0.0
        pen = h["max_penetration"].max() if "max_penetration" in h else 0.0
        if "dissipation" in h:
            ax_d.plot(t, h["dissipation"] / h["total"][0], label=name)
        its = "—"
        if "active" in h and (h["active"][1:] > 0).any():
            k = h["newton_iterations"][1:][h["active"][1:] > 0]
            its = f"{np.median(k):g} / {k.max():g}"
        # steps shorter than the input's step (the first one taken, or the
        # largest where the first was already cut)
        dt = h["dt"][1:]
        cut = int((dt < dt.max() * (1 - 1e-9)).sum()) if len(dt) else 0
        lines.append(
            f"| {name} | {len(t) - 1} | {t[-1]:.4g} | {d['energy'].max():.2e} | {step_balance(h):.2e} | {d['linear'].max():.2e} | {d['angular'].max():.2e} | {frac:.4f} | {defect:.1e} | {pen:.2e} | {its} | {cut} |"
        )
        err = snapshot(path.parent, VAL / case / f"snapshot_{name}.png")
        notes.append(f"![{case} {name} last frame](../validation/{case}/snapshot_{name}.png)" if err is None else f"({name}: {err})")
    ax_d.set_xlabel("t")
    ax_d.set_ylabel("D / E₀")
    ax_d.set_title(f"{case}: cumulative frictional work")
    ax_d.grid(True, alpha=0.3)
    ax_d.legend()
    fig_d.tight_layout()
    fig_d.savefig(VAL / case / "dissipation.png", dpi=110)
    plt.close(fig_d)
    bodies_plot(case, runs)
    for ax, fig, what, fname in [
        (ax_e, fig_e, "|E + D − E₀| / E₀", "energy.png"),
        (ax_j, fig_j, "|J − J₀| / |J₀|", "angular_momentum.png"),
    ]:
        ax.set_xlabel("t")
        ax.set_ylabel(what)
        ax.set_title(f"{case}: {what}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
        fig.tight_layout()
        fig.savefig(VAL / case / fname, dpi=110)
        plt.close(fig)
        lines += ["", f"![{case} {fname}](../validation/{case}/{fname})"]
    lines += ["", f"![{case} dissipation](../validation/{case}/dissipation.png)"]
    lines += ["", f"![{case} per-body energy](../validation/{case}/bodies.png)"]
    lines += tumbling_lines(case, runs)
    lines += [""] + notes
    return "\n".join(lines) + "\n"


def main():
    cases = sys.argv[1:] or sorted(p.name for p in VAL.iterdir() if p.is_dir())
    parts = [
        "# Validation report",
        "",
        "Generated by `bash validation/run_all.sh` from the runs' own `history.csv` files.",
        "Drifts are relative to the initial value (absolute where the initial value is 0).",
        "Each case's reference figures, with their tolerances, are in",
        "`validation/<case>/reference.toml`; `run_all.sh` fails when a run moves beyond them.",
        "",
    ]
    out = ROOT / "docs" / "validation.md"
    sections = {}
    if sys.argv[1:] and out.exists():
        # only some cases asked for: keep the other cases' sections as they are
        for chunk in out.read_text().split("\n## ")[1:]:
            sections[chunk.split("\n", 1)[0].strip()] = "## " + chunk.rstrip("\n") + "\n"
    for c in cases:
        r = case_report(c)
        if r:
            sections[c] = r
    parts += [sections[c] for c in sorted(sections)]
    out.write_text("\n".join(parts))
    print("wrote docs/validation.md")


if __name__ == "__main__":
    main()
