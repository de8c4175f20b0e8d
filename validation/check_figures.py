#!/usr/bin/env python3
"""Checks a validation case's measured figures against its reference.toml.

A case folder with a `figures.py` (defining `figures(case_dir) -> dict
name -> value`, from the case's runs under out/) and a `reference.toml`
listing `[[figure]]` tables with `name`, `value` and `tolerance` (absolute)
is checked: every figure must be within its tolerance of its value.
Prints one line per figure; exits 1 if any is off or missing, or if a case
has a `figures.py` but no `reference.toml`.

Usage: check_figures.py CASE_DIR [CASE_DIR ...]
"""
import importlib.util
import pathlib
import sys
import tomllib


def check(case):
    spec = importlib.util.spec_from_file_location("figures", case / "figures.py")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(case.parent))
    spec.loader.exec_module(mod)
    measured = mod.figures(case)
    ref = tomllib.loads((case / "reference.toml").read_text())
    ok = True
    for f in ref["figure"]:
        name, value, tol = f["name"], f["value"], f["tolerance"]
        got = measured.get(name)
        if got is None:
            print(f"  MISSING {case.name}: {name}")
            ok = False
            continue
        good = abs(got - value) <= tol
        ok &= good
        print(f"  {'ok     ' if good else 'OFF    '} {case.name}: {name} = {got:.6g} (reference {value:g} ± {tol:g})")
    return ok


def main():
    cases = [pathlib.Path(c) for c in sys.argv[1:]]
    results = []
    for c in cases:
        if (c / "reference.toml").exists():
            results.append(check(c))
        elif (c / "figures.py").exists():
            # figures without a reference would pass unchecked
            print(f"  MISSING {c.name}: figures.py but no reference.toml")
            results.append(False)
    sys.exit(0 if all(results) else 1)


if __name__ == "__main__":
    main()
