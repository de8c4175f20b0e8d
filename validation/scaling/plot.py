"""Cost of one Newton iteration against the number of unknowns, from the
probe rows of results.txt (validation/scaling/run.sh probe): emcontact's
direct and iterative paths and DOLFINx/MUMPS, with least-squares exponents
of time ~ n^p. Usage: python3 plot.py results.txt out.png"""

import re
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402


def parse(path):
    series = {}
    label = None
    for line in open(path):
        m = re.match(r"== (emcontact (direct|iterative)|dolfinx lu) ", line)
        if m:
            label = {"emcontact direct": "emcontact direct (LU, METIS)",
                     "emcontact iterative": "emcontact iterative (GMRES + block Jacobi)",
                     "dolfinx lu": "DOLFINx 0.11 MUMPS (LU, METIS)"}[m.group(1)]
            continue
        n = re.search(r"(\d+) dofs", line)
        if n and label:
            dofs = int(n.group(1))
        t = re.search(r"newton iteration ([0-9.]+) s", line)
        if t and label:
            series.setdefault(label, {})[dofs] = float(t.group(1))
    return series


def main():
    series = parse(sys.argv[1])
    fig, ax = plt.subplots(figsize=(7, 5))
    for label, pts in sorted(series.items()):
        n = np.array(sorted(pts))
        t = np.array([pts[k] for k in n])
        p = np.polyfit(np.log(n), np.log(t), 1)[0] if len(n) > 1 else float("nan")
        ax.loglog(n, t, "o-", label=f"{label}: ∝ n^{p:.2f}")
        print(f"{label}: " + ", ".join(f"{k}: {pts[k]:.2f} s" for k in n) + f"; exponent {p:.2f}")
    ax.set_xlabel("unknowns (hex8 box, 3 dofs per node)")
    ax.set_ylabel("CPU seconds per Newton iteration (1 thread)")
    ax.set_title("One Newton iteration: assemble, factor (or precondition), solve to 1e-12")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
