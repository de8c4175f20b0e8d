#!/usr/bin/env python3
"""Time Siconos' frictional-contact solvers on Siconos text problems (.dat).

Run with the Python that has Siconos (Debian's python3-siconos, /usr/bin/python3), one
thread (OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1):
    siconos_times.py OUTDIR REPEATS TIMEOUT_S FILE.dat...
For each problem and solver: the solver call (fc3d_driver) from r = 0, repeated
REPEATS times in this process, process CPU (time.process_time) of each call;
tolerance 1e-8 in Siconos' own error. The reactions of the first call are written to
OUTDIR/<problem>--<solver>.hdf5 (/solution/r) for the independent FCLIB check.
Prints one CSV line per problem and solver:
problem,solver,info,siconos_error,iterations,median_cpu_s,min_cpu_s
"""
import os
import statistics
import sys
import time

import h5py
import numpy as np
import siconos.numerics as sn

TOL = 1e-8


# Solvers used with their default options: name -> Siconos solver id.
PLAIN = {
    'NSGS-DEFAULT': 'SICONOS_FRICTION_3D_NSGS',
    'NSN-AC': 'SICONOS_FRICTION_3D_NSN_AC',
    'NSN-NM': 'SICONOS_FRICTION_3D_NSN_NM',
    'NSN-FB': 'SICONOS_FRICTION_3D_NSN_FB',
    'ADMM': 'SICONOS_FRICTION_3D_ADMM',
    'FP-DS': 'SICONOS_FRICTION_3D_DSFP',
    'FP-VI-UPK': 'SICONOS_FRICTION_3D_VI_FPP',
    'FP-EG': 'SICONOS_FRICTION_3D_VI_EG',
    'PROX': 'SICONOS_FRICTION_3D_PROX',
}


def options(name):
    F = sn
    if name in PLAIN:
        o = sn.SolverOptions(getattr(F, PLAIN[name]))
    elif name.startswith('NSGS-AC'):
        o = sn.SolverOptions(F.SICONOS_FRICTION_3D_NSGS)
        sn.solver_options_update_internal(o, 0, F.SICONOS_FRICTION_3D_ONECONTACT_NSN)
        if name == 'NSGS-AC-F10':
            o.iparam[F.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION] = \
                F.SICONOS_FRICTION_3D_NSGS_ERROR_EVALUATION_ADAPTIVE
            o.iparam[F.SICONOS_FRICTION_3D_IPARAM_ERROR_EVALUATION_FREQUENCY] = 10
    elif name == 'NSGS-PLI':
        o = sn.SolverOptions(F.SICONOS_FRICTION_3D_NSGS)
        sn.solver_options_update_internal(o, 0, F.SICONOS_FRICTION_3D_ONECONTACT_NSN_GP)
    elif name == 'NSN-AC-GP':
        o = sn.SolverOptions(F.SICONOS_FRICTION_3D_NSN_AC)
        o.iparam[F.SICONOS_FRICTION_3D_NSN_LINESEARCH] = F.SICONOS_FRICTION_3D_NSN_LINESEARCH_GOLDSTEINPRICE
    elif name == 'NSN-AC-HYBRID':
        o = sn.SolverOptions(F.SICONOS_FRICTION_3D_NSN_AC)
        o.iparam[F.SICONOS_FRICTION_3D_NSN_HYBRID_STRATEGY] = \
            F.SICONOS_FRICTION_3D_NSN_HYBRID_STRATEGY_VI_EG_NSN
    else:
        raise SystemExit(f'unknown solver {name}')
    o.dparam[F.SICONOS_DPARAM_TOL] = TOL
    o.iparam[F.SICONOS_IPARAM_MAX_ITER] = 100000 if name.startswith(('NSGS', 'FP')) else 2000
    return o


SOLVERS = ['NSGS-AC', 'NSGS-AC-F10', 'NSGS-DEFAULT', 'NSGS-PLI', 'NSN-AC', 'NSN-AC-GP',
           'NSN-AC-HYBRID', 'NSN-NM', 'NSN-FB', 'ADMM', 'FP-DS', 'FP-VI-UPK', 'FP-EG', 'PROX']


def main():
    out, repeats, timeout = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    files = sys.argv[4:]
    solvers = os.environ.get('SOLVERS', ','.join(SOLVERS)).split(',')
    os.makedirs(out, exist_ok=True)
    for f in files:
        p = sn.frictionContact_new_from_filename(f)
        name = os.path.basename(f).rsplit('.', 1)[0]
        n = 3 * p.numberOfContacts
        for s in solvers:
            times = []
            for k in range(repeats):
                r = np.zeros(n)
                u = np.zeros(n)
                o = options(s)
                t0 = time.process_time()
                info = sn.fc3d_driver(p, r, u, o)
                dt = time.process_time() - t0
                times.append(dt)
                if k == 0:
                    err, it = o.dparam[sn.SICONOS_DPARAM_RESIDU], o.iparam[sn.SICONOS_IPARAM_ITER_DONE]
                    with h5py.File(os.path.join(out, f'{name}--{s}.hdf5'), 'w') as h:
                        h['solution/r'] = r
                        h['solution/u'] = u
                if dt > timeout:
                    break
            print(f'{name},{s},{info},{err:.3e},{it},{statistics.median(times):.6g},'
                  f'{min(times):.6g}', flush=True)


if __name__ == '__main__':
    main()
