"""Figures of the self-contact case (validation/check_figures.py): per run
the per-step ledgers, the frames in which a node crossed its own surface
by the independent check (no_crossing.py), the steps the self-contact pair
carried force in, the Newton iterations of the contact steps, and the
cut-backs (accepted steps half as long as the one before: a failed step is retried at half its size)."""
import csv
import pathlib
import statistics
import sys

from ledgers import closures, read

sys.path.insert(0, str(pathlib.Path(__file__).parent))
import no_crossing  # noqa: E402


def crossed_frames(pvd):
    n = 0
    for _, path in no_crossing.frames(pvd):
        x, cells = no_crossing.read(path)
        crossed, _, _ = no_crossing.check(x, cells, 1e-6)
        n += bool(crossed)
    return n


def one(case, name, pair):
    out = case / "out" / name
    h = read(out / "history.csv")
    e, l, j = closures(h)
    with open(out / "contacts.csv") as f:
        rows = [r for r in csv.DictReader(f) if r["pair"] == pair]
    self_steps = sum(int(r["active"]) > 0 for r in rows)
    its = [n for n, a in zip(h["newton_iterations"][1:], h["active"][1:]) if a > 0]
    dt = h["dt"]
    cut = sum(abs(dt[i] - 0.5 * dt[i - 1]) < 1e-9 * dt[i - 1] for i in range(2, len(dt)))
    return {
        f"{name}: energy ledger, worst step / energy scale": e,
        f"{name}: linear momentum ledger, worst step / scale": l,
        f"{name}: angular momentum ledger, worst step / scale": j,
        f"{name}: frames with a node inside its own body (independent check)": crossed_frames(out / f"{name}.pvd"),
        f"{name}: steps with self-contact": self_steps,
        f"{name}: median Newton iterations per contact step": statistics.median(its),
        f"{name}: largest Newton iterations per contact step": max(its),
        f"{name}: cut-backs": cut,
    }


def figures(case):
    out = one(case, "ring", "ring_inner:ring_inner")
    if (case / "out" / "tube" / "history.csv").exists():
        out.update(one(case, "tube", "tube_inner:tube_inner"))
    return out


if __name__ == "__main__":
    for k, v in figures(pathlib.Path(__file__).parent).items():
        print(f"{k}: {v:.6g}")
