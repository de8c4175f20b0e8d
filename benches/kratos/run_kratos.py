#!/usr/bin/env python3
"""Run one Kratos friction-blocks case single-threaded and report each step.

    OMP_NUM_THREADS=1 python3 run_kratos.py CASE [--steps N] [--quiet]

CASE is a case name of make_case.py (coarse_mu02, coarse_mu08, fine_mu02,
fine_mu08; generated into cases/CASE when missing) or a directory holding
ProjectParameters.json, materials.json and blocks.mdpa.

Per step it prints: time, Newton iterations (Kratos' NL_ITERATION_NUMBER),
whether the step converged (Kratos goes on after a step that did not), the
active and slipping contact nodes, the step's CPU seconds, and the kinetic,
strain and total energy computed from Kratos' nodal DISPLACEMENT and VELOCITY
(energy.py; kinetic with the mass matrix Kratos uses: consistent unless the
properties ask for lumped). At the end: total Newton iterations, steps that
did not converge, E_end/E_0 and the process CPU time.
"""
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")  # before Kratos is loaded

import numpy as np  # noqa: E402

import KratosMultiphysics as KM  # noqa: E402
import KratosMultiphysics.ConstitutiveLawsApplication  # noqa: E402,F401  (HyperElastic3DLaw)
import KratosMultiphysics.LinearSolversApplication  # noqa: E402,F401  (sparse_lu)
from KratosMultiphysics.StructuralMechanicsApplication.structural_mechanics_analysis import (  # noqa: E402
    StructuralMechanicsAnalysis,
)

import energy  # noqa: E402
import make_case  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


class BlocksBench(StructuralMechanicsAnalysis):
    """Kratos' own analysis stage; only the step loop is instrumented."""

    def __init__(self, model, parameters, max_steps=None):
        super().__init__(model, parameters)
        self.max_steps = max_steps
        self.rows = []

    def _energy_model(self):
        mp = self._GetSolver().GetComputingModelPart()
        nodes = list(mp.Nodes)
        self.index = {n.Id: i for i, n in enumerate(nodes)}
        self.nodes = nodes
        x0 = np.array([[n.X0, n.Y0, n.Z0] for n in nodes])
        hexes, rho, props = [], [], set()
        for e in mp.Elements:
            ids = [self.index[n.Id] for n in e.GetNodes()]
            if len(ids) != 8:
                raise SystemExit(f"run_kratos: element {e.Id} has {len(ids)} nodes, expected hex8")
            hexes.append(ids)
            rho.append(e.Properties[KM.DENSITY])
            props.add((e.Properties[KM.YOUNG_MODULUS], e.Properties[KM.POISSON_RATIO]))
        if len(props) != 1:
            raise SystemExit(f"run_kratos: energy.py assumes one material, found {props}")
        (young, poisson), = props
        self.lumped = any(
            p.Has(KM.COMPUTE_LUMPED_MASS_MATRIX) and p[KM.COMPUTE_LUMPED_MASS_MATRIX]
            for p in mp.GetProperties()
        )
        self.energy = energy.Hex8Energy(x0, hexes, rho, young, poisson)

    def _energies(self):
        u = np.array([n.GetSolutionStepValue(KM.DISPLACEMENT) for n in self.nodes])
        v = np.array([n.GetSolutionStepValue(KM.VELOCITY) for n in self.nodes])
        ke = self.energy.kinetic_lumped(v) if self.lumped else self.energy.kinetic_consistent(v)
        se = self.energy.strain(u)
        return ke, se

    def _contact_counts(self):
        root = self._GetSolver().GetComputingModelPart().GetRootModelPart()
        if not root.HasSubModelPart("Contact"):
            return 0, 0
        contact = root.GetSubModelPart("Contact")
        slaves = [n for n in contact.Nodes if n.Is(KM.SLAVE)]
        active = sum(1 for n in slaves if n.Is(KM.ACTIVE))
        slip = sum(1 for n in slaves if n.Is(KM.ACTIVE) and n.Is(KM.SLIP))
        return active, slip

    def RunSolutionLoop(self):
        self._energy_model()
        ke, se = self._energies()
        self.e0 = ke + se
        print(f"{'step':>4} {'t':>5} {'newton':>6} {'conv':>4} {'active':>6} {'slip':>4} "
              f"{'cpu_s':>7} {'kinetic':>12} {'strain':>12} {'total':>12} {'total/E0':>9}")
        print(f"{0:4d} {0.0:5.2f} {'':>6} {'':>4} {'':>6} {'':>4} {'':>7} "
              f"{ke:12.6e} {se:12.6e} {ke + se:12.6e} {1.0:9.6f}", flush=True)
        step = 0
        while self.KeepAdvancingSolutionLoop() and (self.max_steps is None or step < self.max_steps):
            step += 1
            c0 = time.process_time()
            self.time = self._AdvanceTime()
            self.InitializeSolutionStep()
            converged = bool(self.SolveSolutionStep())
            self.FinalizeSolutionStep()
            self.OutputSolutionStep()
            cpu = time.process_time() - c0
            its = self._GetSolver().GetComputingModelPart().ProcessInfo[KM.NL_ITERATION_NUMBER]
            active, slip = self._contact_counts()
            ke, se = self._energies()
            self.rows.append((step, self.time, its, converged, active, slip, cpu, ke, se))
            print(f"{step:4d} {self.time:5.2f} {its:6d} {'yes' if converged else 'NO':>4} {active:6d} "
                  f"{slip:4d} {cpu:7.2f} {ke:12.6e} {se:12.6e} {ke + se:12.6e} {(ke + se) / self.e0:9.6f}",
                  flush=True)


def case_dir(arg):
    if os.path.isdir(arg):
        return os.path.abspath(arg)
    if arg not in make_case.CASES:
        raise SystemExit(f"run_kratos: {arg!r} is neither a directory nor a case ({', '.join(sorted(make_case.CASES))})")
    d = os.path.join(HERE, "cases", arg)
    if not os.path.exists(os.path.join(d, "ProjectParameters.json")):
        make_case.write_case(arg, d)
    return d


def main(argv):
    import argparse

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("case")
    ap.add_argument("--steps", type=int, help="stop after N steps")
    a = ap.parse_args(argv)
    d = case_dir(a.case)
    os.chdir(d)
    KM.Logger.GetDefaultOutput().SetSeverity(KM.Logger.Severity.WARNING)
    with open("ProjectParameters.json") as f:
        parameters = KM.Parameters(f.read())
    threads = KM.ParallelUtilities.GetNumThreads()
    print(f"# Kratos case {d}: OMP threads {threads}, "
          f"mu {parameters['processes']['contact_process_list'][0]['Parameters']['friction_coefficients']['0'].GetDouble()}, "
          f"dt {parameters['solver_settings']['time_stepping']['time_step'].GetDouble()}")
    sim = BlocksBench(KM.Model(), parameters, a.steps)
    c0 = time.process_time()
    try:
        sim.Run()
    except RuntimeError as err:
        done = len(sim.rows)
        print(f"# Kratos stopped with an error in step {done + 1}: " + " | ".join(l.strip() for l in str(err).strip().splitlines()[:6]))
        print(f"# total Newton iterations {sum(r[2] for r in sim.rows)} in {done} completed steps")
        return 3
    rows = sim.rows
    total = sum(r[2] for r in rows)
    unconverged = [r[0] for r in rows if not r[3]]
    e_end = rows[-1][7] + rows[-1][8] if rows else float("nan")
    print(f"# total Newton iterations {total} in {len(rows)} steps; "
          f"max {max((r[2] for r in rows), default=0)}; not converged: {unconverged or 'none'}; "
          f"E_end/E0 {e_end / sim.e0:.4f}; process CPU {time.process_time():.2f} s "
          f"(solution loop {time.process_time() - c0:.2f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
