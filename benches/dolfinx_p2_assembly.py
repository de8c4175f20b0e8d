"""DOLFINx's side of the second-order assembly benchmark (benches/timings/assembly_quadratic.rs,
`bench_quadratic`): the residual and the Jacobian of St. Venant-Kirchhoff
elasticity on the same box meshes and with the same quadrature as ours,
assembled into PETSc objects, CPU seconds per assembly and per element.

    python dolfinx_p2_assembly.py tet10|hex20|hex27 [REPEATS]

tet10: create_box(16x16x12, tetrahedron) with P2 (18,432 cells, 6 a cube as
ours), quadrature degree 2 (4 points, our stiffness rule); hex20: the 20x20x16
box of hexahedra with serendipity S2 (20 dofs a cell), hex27: Q2, both with
quadrature degree 4 (3x3x3 Gauss, ours). Needs the dolfinx-solver-real wheel
(Python >= 3.12); run single-threaded (OMP_NUM_THREADS=1). The forms are
compiled (JIT) before the clock starts.
"""

import sys
import time

import dolfinx_solver  # noqa: F401  (loads MPI ahead of the bindings)
import numpy as np
import ufl
from dolfinx import fem, mesh
from dolfinx.fem.petsc import assemble_matrix, assemble_vector
from mpi4py import MPI

CASES = {
    "tet10": (mesh.CellType.tetrahedron, [16, 16, 12], ("Lagrange", 2), 2),
    "hex20": (mesh.CellType.hexahedron, [20, 20, 16], ("S", 2), 4),
    "hex27": (mesh.CellType.hexahedron, [20, 20, 16], ("Lagrange", 2), 4),
}


def main():
    kind = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    cell, n, family, degree = CASES[kind]
    msh = mesh.create_box(MPI.COMM_WORLD, [np.zeros(3), np.array(n, dtype=float)], n, cell_type=cell)
    V = fem.functionspace(msh, (family[0], family[1], (3,)))
    E, nu = 1000.0, 0.3
    lam = E * nu / ((1 + nu) * (1 - 2 * nu))
    mu = E / (2 * (1 + nu))
    u = fem.Function(V)
    # the bench's deformation: x_i + 0.01 sin(0.3 x_{i+1})
    u.interpolate(lambda x: 0.01 * np.sin(0.3 * np.vstack([x[1], x[2], x[0]])))
    v = ufl.TestFunction(V)
    du = ufl.TrialFunction(V)
    F = ufl.Identity(3) + ufl.grad(u)
    Egl = 0.5 * (F.T * F - ufl.Identity(3))
    S = lam * ufl.tr(Egl) * ufl.Identity(3) + 2 * mu * Egl
    dx = ufl.dx(metadata={"quadrature_degree": degree})
    residual = ufl.inner(F * S, ufl.grad(v)) * dx
    jacobian = ufl.derivative(residual, u, du)
    r_form, j_form = fem.form(residual), fem.form(jacobian)
    A = assemble_matrix(j_form)
    A.assemble()
    b = assemble_vector(r_form)
    cells = msh.topology.index_map(3).size_local
    dofs = V.dofmap.index_map.size_local * 3
    best = float("inf")
    for _ in range(repeats):
        t0 = time.process_time()
        A.zeroEntries()
        assemble_matrix(A, j_form)
        A.assemble()
        with b.localForm() as loc:
            loc.set(0.0)
        assemble_vector(b, r_form)
        best = min(best, time.process_time() - t0)
    print(f"dolfinx {kind}: {cells} cells, {dofs} dofs, force + tangent {best:.4f} s CPU "
          f"(best of {repeats}), {1e6 * best / cells:.2f} us per element")


if __name__ == "__main__":
    main()
