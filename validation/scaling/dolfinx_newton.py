"""One Newton iteration of the hex8 free-flight problem of benches/timings/linear.rs
in DOLFINx 0.11 (PETSc): assemble the tangent of the dynamic St. Venant-
Kirchhoff residual (2/dt^2 M + K(u)) at a rotated, deformed state, factor it
with MUMPS (LU, METIS ordering) and solve. Prints CPU seconds of each part.

Usage: python dolfinx_newton.py NX NY NZ [lu|gamg]
Needs the dolfinx-solver-real wheel (Python >= 3.12), see README.md here.
Single-threaded: run with OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1.
"""

import sys
import time

import dolfinx_solver  # noqa: F401  (loads MPI ahead of the bindings)
import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import assemble_matrix, assemble_vector
from mpi4py import MPI
from petsc4py import PETSc


def cpu():
    return time.process_time()


def rigid_body_modes(V):
    """The six rigid-body modes of the displacement space, orthonormalized."""
    x = V.tabulate_dof_coordinates()
    nloc = V.dofmap.index_map.size_local
    x = x[:nloc]
    modes = np.zeros((6, nloc, 3))
    for i in range(3):
        modes[i, :, i] = 1.0
    # rotations about the three axes: e_k x (x - 0)
    modes[3, :, 0], modes[3, :, 1] = -x[:, 1], x[:, 0]
    modes[4, :, 1], modes[4, :, 2] = -x[:, 2], x[:, 1]
    modes[5, :, 0], modes[5, :, 2] = x[:, 2], -x[:, 0]
    q, _ = np.linalg.qr(modes.reshape(6, -1).T)
    vecs = []
    for k in range(6):
        v = PETSc.Vec().createWithArray(np.ascontiguousarray(q[:, k]), comm=MPI.COMM_WORLD)
        vecs.append(v)
    return PETSc.NullSpace().create(vectors=vecs, comm=MPI.COMM_WORLD)


def main():
    nx, ny, nz = (int(v) for v in sys.argv[1:4])
    solver = sys.argv[4] if len(sys.argv) > 4 else "lu"
    t0 = cpu()
    msh = mesh.create_box(
        MPI.COMM_WORLD,
        [np.array([0.0, 0.0, 0.0]), np.array([float(nx), float(ny), float(nz)])],
        [nx, ny, nz],
        cell_type=mesh.CellType.hexahedron,
    )
    V = fem.functionspace(msh, ("Lagrange", 1, (3,)))
    E, nu, rho = 1000.0, 0.3, 1.0
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    mu = E / (2 * (1 + nu))
    c = np.sqrt((lam + 2 * mu) / rho)
    dt = 10.0 / c  # 10x the explicit limit h/c, h = 1
    cm = 2.0 / dt**2
    u = fem.Function(V)
    # rotation by 0.2 rad about z plus the smooth deformation of benches/timings/linear.rs
    cs, sn = np.cos(0.2), np.sin(0.2)

    def disp(x):
        q0 = cs * x[0] - sn * x[1]
        q1 = sn * x[0] + cs * x[1]
        return np.vstack(
            [
                q0 - x[0] + 0.01 * np.sin(0.3 * x[1]),
                q1 - x[1] + 0.01 * np.sin(0.3 * x[2]),
                0.01 * np.sin(0.3 * x[0]),
            ]
        )

    u.interpolate(disp)
    v = ufl.TestFunction(V)
    du = ufl.TrialFunction(V)
    F = ufl.Identity(3) + ufl.grad(u)
    Eg = 0.5 * (F.T * F - ufl.Identity(3))
    S = lam * ufl.tr(Eg) * ufl.Identity(3) + 2 * mu * Eg
    # 2x2x2 Gauss points, as emcontact's hex8
    dx = ufl.dx(metadata={"quadrature_degree": 2})
    R = ufl.inner(F * S, ufl.grad(v)) * dx + cm * rho * ufl.inner(u, v) * dx
    J = ufl.derivative(R, u, du)
    a, L = fem.form(J), fem.form(R)
    setup = cpu() - t0
    n = V.dofmap.index_map.size_global * 3
    t = cpu()
    A = assemble_matrix(a)
    A.assemble()
    b = assemble_vector(L)
    assembly = cpu() - t
    ksp = PETSc.KSP().create(msh.comm)
    ksp.setOperators(A)
    opts = PETSc.Options()
    if solver == "lu":
        ksp.setType("preonly")
        ksp.getPC().setType("lu")
        ksp.getPC().setFactorSolverType("mumps")
        opts["mat_mumps_icntl_7"] = 5  # METIS ordering
    else:
        # GMRES right-preconditioned by smoothed-aggregation AMG with the
        # rigid-body modes as near null space, stopped on the true residual
        ksp.setType("gmres")
        ksp.setPCSide(PETSc.PC.Side.RIGHT)
        ksp.setNormType(PETSc.KSP.NormType.UNPRECONDITIONED)
        ksp.getPC().setType("gamg")
        ksp.setTolerances(rtol=1e-12, max_it=2000)
        A.setNearNullSpace(rigid_body_modes(V))
    ksp.setFromOptions()
    x = b.duplicate()
    t = cpu()
    ksp.setUp()
    factor = cpu() - t
    t = cpu()
    ksp.solve(b, x)
    solve = cpu() - t
    r = b.duplicate()
    A.mult(x, r)
    r.axpy(-1.0, b)
    res = r.norm() / b.norm()
    print(
        f"dolfinx {solver} {nx},{ny},{nz}: {n} dofs, set-up {setup:.2f} s; newton iteration "
        f"{assembly + factor + solve:.2f} s: assembly {assembly:.2f} s, factorization {factor:.2f} s, "
        f"solve {solve:.2f} s ({ksp.getIterationNumber()} iterations); residual {res:.1e}"
    )


if __name__ == "__main__":
    main()
