#!/usr/bin/env python3
"""Spheres-family frictional-contact problems from a Siconos mechanics simulation.

Run with the Python that has Siconos (Debian's python3-siconos 4.4.0, /usr/bin/python3):
    /usr/bin/python3 make_spheres.py OUTDIR [N_SPHERES] [STEP,STEP,...]

N rigid spheres (radius 0.1 +- 10 %, density 1000) are released on a jittered grid
above a 2 x 2 box (walls 6 m high) (ground and four walls, static) and fall under gravity into a
pile: Siconos' MechanicsHdf5Runner with Bullet collision detection, Moreau-Jean
(theta 0.50001, h = 5 ms), NewtonImpactFrictionNSL mu = 0.7, e = 0, the reduced
FrictionContact problem (W stored sparse-block, as the mechanics runner stores it),
solved each step by Siconos' default NSGS. At each chosen step the problem Siconos
assembled (W, q, mu) is written twice:
  * Spheres-<N>-<step>.dat: by Siconos' own frictionContact_printInFilename (its text
    format, sparse-block W), which Siconos' solvers and emcontact both read;
  * Spheres-<N>-<step>.hdf5: FCLIB local (W CSR with nz = -2, q, mu), written here
    with h5py from the same numbers.
The FCLIB family of that name (Acary, Bremond & Huber 2018) was produced the same
way (Siconos mechanics, rigid spheres falling in a box); these files are not those.
"""
import os
import sys

import numpy as np

import siconos.kernel as sk
import siconos.numerics as sn
import siconos.io.mechanics_run as mr
from siconos.io.FrictionContactTrace import FrictionContactTraceParams
from siconos.io.mechanics_run import MechanicsHdf5Runner
from siconos.mechanics.collision.bullet import SiconosBulletOptions
from siconos.mechanics.collision.tools import Contactor

OUT = os.path.abspath(sys.argv[1])
N = int(sys.argv[2]) if len(sys.argv) > 2 else 256
STEPS = [int(s) for s in sys.argv[3].split(',')] if len(sys.argv) > 3 else [50, 80, 110]
MU = 0.7
H = 0.005
R = 0.1
L = 2.0  # inner side of the box


class DumpingFrictionContact(sk.FrictionContact):
    """Siconos' FrictionContact that writes its problem at the chosen steps."""

    def __init__(self, dim, solver_options, params=None, nsds=None):
        super().__init__(dim, solver_options)
        self._stepcounter = 0
        self.step = 0

    def setMStorageType(self, _storage):
        # the runner asks for dense storage on its trace path; keep the
        # sparse-block storage of its ordinary path
        super().setMStorageType(sn.NM_SPARSE_BLOCK)

    def compute(self, time):
        info = super().compute(time)
        self.step += 1
        if self.step % 10 == 0:
            print(f'step {self.step}: {self.getSizeOutput() // 3} contacts', flush=True)
        if self.step in STEPS and self.getSizeOutput() > 0:
            dump(self.frictionContactProblemPtr(), self.step)
        return info


def dump(problem, step):
    nc = problem.numberOfContacts
    base = os.path.join(OUT, f'Spheres-{N}-{step:04d}')
    sn.frictionContact_printInFilename(problem, base + '.dat')
    # read back what Siconos wrote, so the HDF5 is the .dat problem exactly
    p = sn.frictionContact_new_from_filename(base + '.dat')
    write_fclib(base + '.hdf5', p, nc, step)
    print(f'step {step}: {nc} contacts -> {base}.dat/.hdf5', flush=True)


def write_fclib(path, p, nc, step):
    import h5py
    import scipy.sparse as sp
    import scipy.sparse.coo  # noqa: F401  (Siconos' NM_triplet converts through it)
    W = sp.csr_matrix(sn.NM_triplet(p.M))
    W.sum_duplicates()
    W.eliminate_zeros()
    q = np.array(p.q, dtype=float).ravel()
    mu = np.array(p.mu, dtype=float).ravel()
    with h5py.File(path, 'w') as h:
        g = h.create_group('fclib_local')
        g['spacedim'] = np.array([3], dtype=np.int32)
        w = g.create_group('W')
        w['nzmax'] = np.array([W.nnz], dtype=np.int32)
        w['m'] = np.array([W.shape[0]], dtype=np.int32)
        w['n'] = np.array([W.shape[1]], dtype=np.int32)
        w['nz'] = np.array([-2], dtype=np.int32)
        w['p'] = W.indptr.astype(np.int32)
        w['i'] = W.indices.astype(np.int32)
        w['x'] = W.data
        v = g.create_group('vectors')
        v['q'] = q
        v['mu'] = mu
        info = g.create_group('info')
        info['title'] = f'Spheres-{N}-{step:04d}'
        info['description'] = (f'{N} rigid spheres falling into a box, step {step} '
                               f'(h = {H}), Siconos 4.4.0 mechanics + Bullet, {nc} contacts')
        info['math_info'] = 'reduced (local) frictional contact problem, mu = 0.7'


def scene(path):
    rng = np.random.default_rng(27)
    with MechanicsHdf5Runner(mode='w', io_filename=path) as io:
        io.add_Newton_impact_friction_nsl('contact', mu=MU, e=0.0)
        io.add_primitive_shape('Ground', 'Box', (L + 0.4, L + 0.4, 0.2))
        io.add_primitive_shape('WallX', 'Box', (0.2, L + 0.4, 6.0))
        io.add_primitive_shape('WallY', 'Box', (L + 0.4, 0.2, 6.0))
        io.add_object('ground', [Contactor('Ground')], translation=[0, 0, -0.1])
        io.add_object('wx0', [Contactor('WallX')], translation=[-L / 2 - 0.1, 0, 3.0])
        io.add_object('wx1', [Contactor('WallX')], translation=[L / 2 + 0.1, 0, 3.0])
        io.add_object('wy0', [Contactor('WallY')], translation=[0, -L / 2 - 0.1, 3.0])
        io.add_object('wy1', [Contactor('WallY')], translation=[0, L / 2 + 0.1, 3.0])
        per_side = int(L / (2.3 * R))
        spacing = L / per_side
        for k in range(N):
            layer, rest = divmod(k, per_side * per_side)
            i, j = divmod(rest, per_side)
            x = -L / 2 + spacing * (i + 0.5) + rng.uniform(-0.01, 0.01)
            y = -L / 2 + spacing * (j + 0.5) + rng.uniform(-0.01, 0.01)
            z = R + 0.05 + layer * 2.3 * R
            r = R * rng.uniform(0.9, 1.1)
            io.add_primitive_shape(f'S{k}', 'Sphere', (r,))
            io.add_object(f's{k}', [Contactor(f'S{k}')], translation=[x, y, z],
                          velocity=[0, 0, 0, 0, 0, 0], mass=1000 * 4 / 3 * np.pi * r ** 3)


def main():
    os.makedirs(OUT, exist_ok=True)
    path = os.path.join(OUT, f'spheres-{N}-scene.hdf5')
    scene(path)
    mr.FCTrace = DumpingFrictionContact
    opts = SiconosBulletOptions()
    opts.worldScale = 1.0
    opts.contactBreakingThreshold = 0.04 * R
    so = sk.solver_options_create(sn.SICONOS_FRICTION_3D_NSGS)
    so.iparam[sn.SICONOS_IPARAM_MAX_ITER] = 200
    so.dparam[sn.SICONOS_DPARAM_TOL] = 1e-4
    with MechanicsHdf5Runner(mode='r+', io_filename=path) as io:
        io.run(t0=0, T=(max(STEPS) + 1) * H, h=H, theta=0.50001, Newton_max_iter=1,
               bullet_options=opts, solver_options=so,
               friction_contact_trace_params=FrictionContactTraceParams(),
               verbose=False, verbose_progress=False, output_frequency=1000)
    os.remove(path)


if __name__ == '__main__':
    main()
