"""The Python package end to end: an FCLIB file solved through the package and
checked with numpy from the file read by h5py (not by the package); the Siconos text
format; a global problem; a model run whose energy history is read; bad input; the
installed wheel imports without the build tree."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import emcontact
from emcontact import fclib

ROOT = Path(__file__).resolve().parents[2]
FCLIB = ROOT / "tests" / "data" / "fclib"
DAT = ROOT / "tests" / "data" / "siconos-dat"


def h5_matrix(g):
    """A sparse FCLIB matrix group read with h5py into a dense numpy array."""
    m, n, nz = (int(np.ravel(g[k][()])[0]) for k in ("m", "n", "nz"))
    p, i, x = g["p"][()], g["i"][()], g["x"][()]
    a = np.zeros((m, n))
    if nz == -1:  # CSC
        for j in range(n):
            np.add.at(a[:, j], i[p[j]:p[j + 1]], x[p[j]:p[j + 1]])
    elif nz == -2:  # CSR
        for r in range(m):
            np.add.at(a[r, :], i[p[r]:p[r + 1]], x[p[r]:p[r + 1]])
    else:  # triplets: i rows, p columns
        np.add.at(a, (i[:nz], p[:nz]), x[:nz])
    return a


def natural_map_error(W, q, mu, r, dim=3):
    """‖r − P_K(r − (W r + q + μ‖u_T‖e_N))‖ / ‖q‖, from the definition."""
    u = W @ r + q
    num = 0.0
    for c, m in enumerate(mu):
        rc, uc = r[dim * c:dim * c + dim], u[dim * c:dim * c + dim]
        z = rc - uc
        z[0] -= m * np.linalg.norm(uc[1:])
        zn, zt = z[0], z[1:]
        nt = np.linalg.norm(zt)
        if nt <= m * zn:
            p = z
        elif m * nt <= -zn:
            p = np.zeros_like(z)
        else:
            a = (zn + m * nt) / (1 + m * m)
            p = np.concatenate([[a], m * a * zt / nt])
        num += np.sum((rc - p) ** 2)
    return np.sqrt(num) / max(np.linalg.norm(q), 1e-300)


def test_solvers_lists_the_default_first():
    names = [n for n, _ in emcontact.solvers()]
    assert names[0] == emcontact.DEFAULT_SOLVER == "auto"
    assert {"nsgs-ac", "nsn-nm-ls", "hybrid"} <= set(names)


@pytest.mark.parametrize("name", ["LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "local_problem_test.hdf5"])
def test_fclib_file_solved_and_checked_with_numpy(name):
    import h5py
    path = FCLIB / name
    res = emcontact.solve(path)
    assert res.converged, res.message
    with h5py.File(path, "r") as f:
        g = f["fclib_local"]
        W, q, mu = h5_matrix(g["W"]), g["vectors"]["q"][()], g["vectors"]["mu"][()]
    r = np.asarray(res.reactions)
    assert r.shape == q.shape
    np.testing.assert_allclose(res.velocities, W @ r + q, rtol=0, atol=1e-12 * np.abs(W).max() * max(1, np.abs(r).max()))
    e = natural_map_error(W, q, mu, r)
    assert e <= 1e-8, f"the package claims {res.error:e}, numpy finds {e:e}"
    # The Coulomb law itself: r in K and u_N >= 0 (to the tolerance's scale).
    rn, rt = r[0::3], np.hypot(r[1::3], r[2::3])
    assert np.all(rt <= mu * rn + 1e-8 * np.linalg.norm(q))


def test_problem_object_reads_what_h5py_reads():
    import h5py
    p = fclib.read(FCLIB / "Capsules-i125-1213.hdf5")
    with h5py.File(FCLIB / "Capsules-i125-1213.hdf5", "r") as f:
        W = h5_matrix(f["fclib_local"]["W"])
        q = f["fclib_local"]["vectors"]["q"][()]
    assert p.kind == "local" and p.dim == 3 and p.n_contacts == 286
    np.testing.assert_array_equal(p.W.toarray(), W)
    np.testing.assert_array_equal(p.q, q)


def test_dat_file_is_the_same_problem_as_its_fclib_conversion():
    a = fclib.read(DAT / "OneObject-i100000-499.dat")
    b = fclib.read(DAT / "OneObject-i100000-499.hdf5")
    np.testing.assert_array_equal(a.W.toarray(), b.W.toarray())
    np.testing.assert_array_equal(a.q, b.q)
    np.testing.assert_array_equal(a.mu, b.mu)
    res = emcontact.solve(DAT / "OneObject-i100000-499.dat")
    assert res.converged
    assert natural_map_error(a.W.toarray(), a.q, a.mu, res.reactions) <= 1e-8


def test_global_problem_solved_and_checked_with_numpy():
    p = fclib.read(FCLIB / "Box_Stacks-i0122-82-5.hdf5")
    assert p.kind == "global"
    res = emcontact.solve(p, tol=1e-10)
    assert res.converged, res.message
    M, H = p.M.toarray(), p.H.toarray()
    # u = Hᵀ v + w with M v = H r + f.
    v = np.linalg.solve(M, H @ res.reactions + p.f)
    np.testing.assert_allclose(res.v, v, rtol=1e-8, atol=1e-10 * np.abs(v).max())
    W = H.T @ np.linalg.solve(M, H)
    q = H.T @ np.linalg.solve(M, p.f) + p.w
    assert natural_map_error(W, q, p.mu, res.reactions) <= 1e-8


def test_write_then_read_and_solve_a_dense_problem(tmp_path):
    # One contact pressed in: W = I, q_N = −1 → r = (1, 0, 0), u = 0.
    p = fclib.Problem.local(np.eye(3), [-1.0, 0.0, 0.0], [0.3], title="one contact")
    path = tmp_path / "one.h5"
    fclib.write(path, p)
    back = fclib.read(path)
    np.testing.assert_array_equal(back.W.toarray(), np.eye(3))
    assert back.title == "one contact"
    res = emcontact.solve(back, solver="nsgs-ac")
    np.testing.assert_allclose(res.reactions, [1.0, 0.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(res.velocities, [0.0, 0.0, 0.0], atol=1e-12)


def test_bad_input_raises_clear_errors(tmp_path):
    with pytest.raises(ValueError, match="unknown solver"):
        emcontact.solve(FCLIB / "local_problem_test.hdf5", solver="nope")
    with pytest.raises(ValueError, match="tolerance"):
        emcontact.solve(FCLIB / "local_problem_test.hdf5", tol=-1.0)
    with pytest.raises(TypeError, match="unknown parameter"):
        emcontact.solve(FCLIB / "local_problem_test.hdf5", maxiter=3)
    bad = tmp_path / "bad.dat"
    bad.write_text("3\n1\n0\n3\n3\n3 3\n1 0 0\n0 x 0\n")
    with pytest.raises(OSError, match=r"bad\.dat:8:"):
        fclib.read(bad)


def test_a_solve_that_does_not_converge_says_so():
    res = emcontact.solve(FCLIB / "local_problem_test.hdf5", solver="nsgs-ac", max_iter=5)
    assert not res.converged and res.error > 1e-8 and res.iterations == 5
    assert "no convergence" in res.message


SLIDING_BLOCK = """
[problem]
name = "py_blocks"
dimension = 3
[time]
dt = 0.1
end = 0.6
[output]
every = 1
[mesh]
[[mesh.generate]]
kind = "box"
name = "base"
min = [0.0, 0.0, 0.0]
max = [2.0, 2.0, 1.0]
divisions = [2, 2, 1]
[[mesh.generate]]
kind = "box"
name = "cube"
min = [0.5, 0.5, 1.05]
max = [1.5, 1.5, 2.05]
divisions = [2, 2, 2]
[[body]]
name = "base"
group = "base"
material = { model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }
[[body]]
name = "cube"
group = "cube"
material = { model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }
velocity = [0.0, 1.0, -1.0]
[[boundary]]
group = "base_zmin"
fix = ["x", "y", "z"]
[[contact]]
slave = "cube_zmin"
master = "base_zmax"
friction = 0.3
"""


def test_run_a_model_and_read_its_energy_history(tmp_path):
    inp = tmp_path / "blocks.toml"
    inp.write_text(SLIDING_BLOCK)
    out = tmp_path / "out"
    res = emcontact.run(inp, out, vtk=False)
    assert res.out == out and (out / "history.csv").exists()
    h = res.history
    t, total, dissipation, work = h["t"], h["total"], h["dissipation"], h["external_work"]
    assert len(t) >= 6 and t[-1] == pytest.approx(0.6)
    # The cube hits the base and slides: friction dissipates energy ...
    assert dissipation[-1] > 1e-3 * total[0]
    assert h["active"].max() > 0
    # ... and the ledger balances: E_n − E_0 + D_n − W_ext,n = 0 to round-off and the
    # Newton tolerance (Love & Laursen 2003; DESIGN "energy balance").
    balance = total - total[0] + dissipation - work
    assert np.abs(balance).max() <= 1e-10 * abs(total[0]), np.abs(balance).max() / abs(total[0])


def test_the_installed_package_imports_without_the_build_tree(tmp_path):
    code = "import emcontact, numpy; print(emcontact.__file__); print(emcontact._native.__file__)"
    o = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                       env={k: v for k, v in os.environ.items() if k != "PYTHONPATH"})
    assert o.returncode == 0, o.stderr
    # The wheel is installed into an environment (site-packages), never imported from
    # the package's sources (python/) or the build's output (target/); the environment
    # itself may live in the checkout (.ci/setup makes it as .venv).
    for line in o.stdout.split():
        path = Path(line).resolve()
        assert "site-packages" in path.parts, f"{line} is not an installed package"
        for tree in (ROOT / "python", ROOT / "target"):
            assert not path.is_relative_to(tree), f"{line} is inside the build tree {tree}"
