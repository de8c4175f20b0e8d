#!/usr/bin/env python3
"""CPU time of every registered solver on FCLIB files, as `emcontact fc solve` reports
it (`cpu_seconds`: the solve on one thread, condensation included for global
problems; file reading excluded), median of RUNS runs; prints a Markdown table.

usage: fclib_table.py EMCONTACT RUNS TIMEOUT FILE...   (docs/solvers.md, "Measurements")"""
import statistics
import subprocess
import sys


def run(exe, f, solver, timeout):
    o = subprocess.run([exe, "fc", "solve", f, "--solver", solver, "--timeout", str(timeout)],
                       capture_output=True, text=True)
    kv = dict(l.split(" ", 1) for l in o.stdout.splitlines() if " " in l)
    return o.returncode, kv


def main():
    exe, runs, timeout, files = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4:]
    solvers = [l.split()[0] for l in subprocess.run([exe, "fc", "solvers"], capture_output=True,
                                                     text=True).stdout.splitlines()]
    print("| solver | " + " | ".join(f.split("/")[-1].replace(".hdf5", "") for f in files) + " |")
    print("|---" * (len(files) + 1) + "|")
    for s in solvers:
        cells = []
        for f in files:
            res = [run(exe, f, s, timeout) for _ in range(runs)]
            code, kv = res[0]
            if code == 2:
                cells.append("n/a")
                continue
            cpu = statistics.median(float(kv.get("cpu_seconds", "nan")) for _, kv in res)
            if code == 0:
                cells.append(f"{kv['iterations']} it, {cpu:.4g} s")
            else:
                cells.append(f"fail ({float(kv['error']):.1e} after {kv['iterations']} it, {cpu:.3g} s)")
        print(f"| `{s}` | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
