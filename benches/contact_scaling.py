#!/usr/bin/env python3
"""The contact-scaling measurement of docs/performance.md ("Contact models by
size"): the first-contact step (Δt = 0.05) of the scaling family
(validation/contact_scaling/make.py N L --gap 0.03 --gravity 10 --end 0.05
--system saddle) and the free step of the same model (--gap 0.25), one-step
runs, one thread, whole-process CPU (user + system) and peak memory from
/usr/bin/time, the step's parts from the run's RUST_LOG=info summary.

  contact_scaling.py measure EMCONTACT CSV N:L[:SYSTEM] ...   # append one row per model and gap
  contact_scaling.py plot CSV PNG                             # the plot, the table and the fits

The run's part timers are wall clock; on a loaded machine a one-thread run
gets a fraction of a core, so `plot` scales every part by the run's CPU /
wall ratio (the parts interleave within every Newton iteration). Per Newton
iteration = the step's part / its Newton iterations. Exponents: log-log least
squares against the slave nodes P = (N+1)², of the L = 4 rows (the dofs
grow with P) and of the FIXED_DOFS rows (the layers chosen so that the dofs
stay within 22.5k–26.3k: the growth with the contact points alone); "other" is the run's CPU less the timed parts (set-up, symbolic
analysis, residual and mass products, output)."""
import csv
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MAKE = os.path.join(HERE, "..", "validation", "contact_scaling", "make.py")
SUMMARY = re.compile(
    r"factorization ([\d.]+) s \((\d+) factorizations.*symbolic ([\d.]+) s\), linear solves ([\d.]+) s "
    r"\((\d+) right-hand sides.*?(\d+) Krylov iterations\), assembly ([\d.]+) s, contact ([\d.]+) s, "
    r"contact subproblems ([\d.]+) s, run ([\d.]+) s")
FIELDS = ["n", "layers", "system", "gap", "load", "iterations", "cutbacks", "cpu", "wall", "peak_mb",
          "factor_s", "factorizations", "symbolic_s", "solve_s", "solves", "krylov", "assembly_s",
          "contact_s", "subproblem_s", "run_s", "verdict"]
PARTS = [("assembly_s", "assembly"), ("factor_s", "factorization"), ("solve_s", "linear solves"),
         ("contact_s", "contact evaluation"), ("subproblem_s", "subproblem")]


def run(exe, n, layers, system, gap, tmp):
    toml = os.path.join(tmp, f"m{n}_{layers}_{gap}.toml")
    with open(toml, "w") as fh:
        subprocess.run([sys.executable, MAKE, str(n), str(layers), "--gap", str(gap), "--gravity", "10",
                        "--end", "0.05", "--system", system], stdout=fh, check=True)
    timing = os.path.join(tmp, "time.txt")
    load = open("/proc/loadavg").read().split()[0]
    env = dict(os.environ, RUST_LOG="info", RAYON_NUM_THREADS="1")
    p = subprocess.run(["/usr/bin/time", "-o", timing, "-f", "%U %S %e %M", exe, "run", "--overwrite",
                        "--out", os.path.join(tmp, "out"), toml], env=env, capture_output=True, text=True)
    u, s, e, kb = open(timing).read().split()[-4:]
    log = p.stdout + p.stderr
    cut = re.search(r"\((\d+) cut-backs", log)
    # the run's total (each step line's "newton N" counts from the run's start)
    total = re.search(r"(\d+) Newton iterations", log)
    verdict = re.search(r"verdict: (\w+)", log)
    row = dict(n=n, layers=layers, system=system, gap=gap, load=load,
               iterations=int(total.group(1)) if total else "",
               cutbacks=cut.group(1) if cut else "", cpu=round(float(u) + float(s), 2), wall=e,
               peak_mb=round(int(kb) / 1024), verdict=verdict.group(1) if verdict else f"exit {p.returncode}")
    m = SUMMARY.search(log)
    if m:
        keys = ["factor_s", "factorizations", "symbolic_s", "solve_s", "solves", "krylov", "assembly_s",
                "contact_s", "subproblem_s", "run_s"]
        row.update(zip(keys, m.groups()))
    return row


def measure(exe, out_csv, specs):
    new = not os.path.exists(out_csv)
    with open(out_csv, "a", newline="") as fh, tempfile.TemporaryDirectory() as tmp:
        w = csv.DictWriter(fh, fieldnames=FIELDS)
        if new:
            w.writeheader()
        for spec in specs:
            n, layers, *system = spec.split(":")
            for gap in (0.03, 0.25):
                row = run(exe, int(n), int(layers), system[0] if system else "saddle", gap, tmp)
                w.writerow(row)
                fh.flush()
                print(row, flush=True)


# Slave faces with layers chosen so that the model's dofs stay within
# 22.5k–26.3k: the growth with the contact points alone.
FIXED_DOFS = {(8, 48), (16, 12), (24, 6), (32, 3)}


def per_iteration(r):
    """CPU seconds per Newton iteration by part (the timers scaled by CPU / wall)."""
    cpu, its = float(r["cpu"]), int(r["iterations"])
    scale = cpu / float(r["wall"])
    parts = {label: float(r[key]) * scale / its for key, label in PARTS}
    parts["other"] = max(cpu / its - sum(parts.values()), 0.0)
    parts["whole iteration"] = cpu / its
    return parts


def slope(ps, ts):
    """Least-squares exponent of t ∝ P^k."""
    xs, ys = [math.log(p) for p in ps], [math.log(max(t, 1e-6)) for t in ts]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


def rows_of(path):
    groups = {}
    for r in csv.DictReader(open(path)):
        groups.setdefault((int(r["n"]), int(r["layers"]), r["system"], float(r["gap"])), []).append(r)
    # repeated runs of a model: the median-CPU one
    return {k: sorted(v, key=lambda r: float(r["cpu"]))[len(v) // 2] for k, v in groups.items()}


def fit_panel(ax, rows, family, title):
    """One panel: CPU per Newton iteration by part against P for `family`
    (keys of first-contact rows), the free step's iteration and the P^1.2
    target; prints the exponents."""
    print(f"== {title}")
    ps = [(k[0] + 1) ** 2 for k in family]
    its = [per_iteration(rows[k]) for k in family]
    frees = [rows[(k[0], k[1], k[2], 0.25)] for k in family]
    free = [float(f["cpu"]) / int(f["iterations"]) for f in frees]
    for label in [l for _, l in PARTS] + ["other", "whole iteration"]:
        ts = [it[label] for it in its]
        k = slope(ps, ts)
        print(f"{label}: P^{k:.2f}")
        style = dict(lw=2.5, color="k") if label == "whole iteration" else {}
        ax.loglog(ps, ts, "o-", label=f"{label} (P^{k:.2f})", **style)
    k = slope(ps, free)
    print(f"free-step iteration: P^{k:.2f}")
    ax.loglog(ps, free, "k--", label=f"free-step iteration (P^{k:.2f})")
    ax.loglog(ps, [its[0]["whole iteration"] * (p / ps[0]) ** 1.2 for p in ps], ":", color="grey",
              label="target growth P^1.2")
    steps = [float(rows[k]["cpu"]) for k in family]
    print(f"whole step: P^{slope(ps, steps):.2f}, free step: P^{slope(ps, [float(f['cpu']) for f in frees]):.2f}")
    ax.set_xlabel("slave nodes P")
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)


def plot(path, png):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    rows = rows_of(path)
    family = sorted(k for k in rows if k[1] == 4 and k[2] == "saddle" and k[3] < 0.1)
    fixed = sorted(k for k in rows if (k[0], k[1]) in FIXED_DOFS and k[2] == "saddle" and k[3] < 0.1)
    fig, axes = plt.subplots(1, 2, figsize=(12, 5), sharey=True)
    fit_panel(axes[0], rows, family, "4 layers (dofs grow with P)")
    fit_panel(axes[1], rows, fixed, "fixed dofs (22.5k–26.3k: 8²×48, 16²×12, 24²×6, 32²×3)")
    axes[0].set_ylabel("CPU s per Newton iteration (one thread)")
    fig.suptitle("First-contact step, saddle-point path, by part")
    bulk = sorted(k for k in rows if k[0] == 16 and k[1] in (4, 8, 16) and k[2] == "saddle" and k[3] < 0.1)
    if len(bulk) > 1:
        dofs = [6 * 17 ** 2 * (k[1] + 1) for k in bulk]
        for label in ["whole iteration", "factorization", "linear solves", "assembly"]:
            ts = [per_iteration(rows[k])[label] for k in bulk]
            print(f"16² bulk refined, {label}: dofs^{slope(dofs, ts):.2f}")
        fr = [per_iteration(rows[(16, k[1], "saddle", 0.25)])["whole iteration"] for k in bulk]
        print(f"16² bulk refined, free-step iteration: dofs^{slope(dofs, fr):.2f}")
    fig.tight_layout()
    fig.savefig(png, dpi=110)
    print("| slave face (P) | layers | dofs | load | Newton its | step CPU | per it | assembly | factorization "
          "| solves | contact | subproblem | other | free step (its) | contact / free |")
    print("|---" * 15 + "|")
    for k in sorted(rows):
        if k[3] > 0.1:
            continue
        r, f = rows[k], rows.get((k[0], k[1], k[2], 0.25))
        it = per_iteration(r)
        dofs = 3 * 2 * (k[0] + 1) ** 2 * (k[1] + 1)
        cells = [f"{it[l]:.3g}" for l in ["whole iteration"] + [l for _, l in PARTS] + ["other"]]
        fr = f"{float(f['cpu']):.2f} s ({f['iterations']})" if f else "—"
        ratio = f"{float(r['cpu']) / float(f['cpu']):.0f}×" if f else "—"
        print(f"| {k[0]}² ({(k[0] + 1) ** 2}){' ' + k[2] if k[2] != 'saddle' else ''} | {k[1]} | {dofs:,} "
              f"| {r['load']} | {r['iterations']} | {float(r['cpu']):.2f} s | " + " | ".join(cells)
              + f" | {fr} | {ratio} |")


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], sys.argv[4:])
    elif len(sys.argv) == 4 and sys.argv[1] == "plot":
        plot(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
