"""emcontact from Python: frictional-contact solvers and model runs.

* ``emcontact.fclib.read(path)`` / ``emcontact.fclib.write(path, problem)`` — problem
  files (FCLIB HDF5; Siconos text ``.dat`` is read too);
* ``emcontact.solve(problem, solver=None, tol=1e-8, **params)`` — solve a local
  (``u = W r + q``) or global (``M v = H r + f``, ``u = Hᵀ v + w``) problem;
* ``emcontact.solvers()`` — the registered solvers, the default first;
* ``emcontact.run(input_toml, out=None)`` — run a model; its histories as numpy arrays.

Conventions (as in the Rust library and FCLIB): per contact the local vectors are
ordered ``[normal, tangent1, (tangent2)]``; ``r_N ≥ 0`` is the normal reaction and
``u_N ≥ 0`` a separating normal velocity; the error is the FCLIB natural-map error
``‖F_nat(r)‖/‖q‖`` (Acary, Brémond & Huber 2018).
"""

from __future__ import annotations

import csv
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import numpy as np

from . import _native, fclib
from .fclib import Problem

__all__ = ["fclib", "Problem", "Result", "RunResult", "solve", "solvers", "run", "DEFAULT_SOLVER"]

DEFAULT_SOLVER: str = _native.default_solver()


@dataclass
class Result:
    """The answer of :func:`solve`.

    ``reactions`` (``r``) and ``velocities`` (``u = W r + q``) have ``dim · contacts``
    entries; ``v`` is the global velocity of a global problem (else ``None``).
    ``converged`` says whether ``error ≤ tol``; ``message`` says why not."""

    reactions: np.ndarray
    velocities: np.ndarray
    error: float
    iterations: int
    converged: bool
    solver: str
    message: str = ""
    v: Optional[np.ndarray] = None


def solvers() -> List[Tuple[str, str]]:
    """``[(name, description)]`` of every registered solver, the default first."""
    return list(_native.solvers())


def solve(problem, solver: Optional[str] = None, tol: float = 1e-8, **params) -> Result:
    """Solves ``problem`` (a :class:`Problem`, or the path of a problem file) from
    zero with ``solver`` (default: :data:`DEFAULT_SOLVER`) to the FCLIB error ``tol``.

    Keyword parameters: ``max_iter`` (iteration cap), ``timeout`` (seconds),
    ``r0`` (initial reactions, local problems only). A solve that does not reach
    ``tol`` returns ``converged=False``; bad input raises ``ValueError``."""
    if isinstance(problem, (str, os.PathLike)):
        problem = fclib.read(problem)
    if not isinstance(problem, Problem):
        raise TypeError(f"problem: expected emcontact.Problem or a path, got {type(problem).__name__}")
    unknown = set(params) - {"max_iter", "timeout", "r0"}
    if unknown:
        raise TypeError(f"solve(): unknown parameter(s) {sorted(unknown)}; expected max_iter, timeout, r0")
    name = solver or DEFAULT_SOLVER
    max_iter = params.get("max_iter")
    timeout = params.get("timeout")
    if problem.kind == "local":
        r0 = params.get("r0")
        if r0 is not None:
            r0 = np.ascontiguousarray(r0, dtype=np.float64)
        out = _native.solve_local(problem.dim, fclib._csc(problem.W), fclib._vec(problem.q),
                                  fclib._vec(problem.mu), name, float(tol), max_iter, timeout, r0)
    else:
        if "r0" in params:
            raise ValueError("r0 is supported for local problems only")
        out = _native.solve_global(problem.dim, fclib._csc(problem.M), fclib._csc(problem.H),
                                   fclib._vec(problem.f), fclib._vec(problem.w),
                                   fclib._vec(problem.mu), name, float(tol), max_iter, timeout)
    return Result(reactions=out["reactions"], velocities=out["velocities"], error=out["error"],
                  iterations=out["iterations"], converged=out["converged"], solver=out["solver"],
                  message=out["message"], v=out.get("v"))


@dataclass
class RunResult:
    """A finished model run: its output folder and its CSV histories as numpy arrays,
    one array per column (``history["total"]`` is the total energy per step)."""

    out: Path
    history: Dict[str, np.ndarray] = field(default_factory=dict)
    bodies: Dict[str, np.ndarray] = field(default_factory=dict)
    reactions: Dict[str, np.ndarray] = field(default_factory=dict)


def _read_csv(path: Path) -> Dict[str, np.ndarray]:
    """Columns of a CSV file with a header row; numeric columns as float arrays."""
    if not path.exists():
        return {}
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows:
        return {}
    header, body = rows[0], rows[1:]
    cols: Dict[str, np.ndarray] = {}
    for k, name in enumerate(header):
        values = [r[k] for r in body if k < len(r)]
        try:
            cols[name] = np.array([float(v) for v in values])
        except ValueError:
            cols[name] = np.array(values)
    return cols


def run(input_toml, out=None, *, vtk: bool = True, plots: bool = False) -> RunResult:
    """Runs the model of ``input_toml`` (the same file ``emcontact run`` reads) into
    ``out`` (default: the folder the input names; replaced if it exists) and returns
    the histories (``history.csv``, ``bodies.csv``, ``reactions.csv``) as numpy
    arrays. An invalid input raises ``ValueError``, a failed run ``RuntimeError``."""
    folder = Path(_native.run_model(os.fspath(input_toml), None if out is None else os.fspath(out),
                                    vtk, plots))
    return RunResult(out=folder, history=_read_csv(folder / "history.csv"),
                     bodies=_read_csv(folder / "bodies.csv"),
                     reactions=_read_csv(folder / "reactions.csv"))
