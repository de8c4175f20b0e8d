"""Problem files: FCLIB HDF5 (read and write) and Siconos text ``.dat`` (read).

A :class:`Problem` holds numpy arrays; sparse matrices are ``CscMatrix`` tuples
``(data, indices, indptr, shape)`` (the order of ``scipy.sparse.csc_matrix``'s
constructor, so ``scipy.sparse.csc_matrix(p.W[:3], shape=p.W[3])`` works). Dense 2-D
arrays and scipy sparse matrices are accepted wherever a matrix is expected."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import NamedTuple, Optional, Tuple

import numpy as np

from . import _native

__all__ = ["CscMatrix", "Problem", "read", "write"]


class CscMatrix(NamedTuple):
    data: np.ndarray
    indices: np.ndarray
    indptr: np.ndarray
    shape: Tuple[int, int]

    def toarray(self) -> np.ndarray:
        """The dense matrix."""
        out = np.zeros(self.shape)
        for j in range(self.shape[1]):
            lo, hi = self.indptr[j], self.indptr[j + 1]
            np.add.at(out[:, j], self.indices[lo:hi], self.data[lo:hi])
        return out

    def dot(self, x: np.ndarray) -> np.ndarray:
        """``A @ x``."""
        x = np.asarray(x, dtype=np.float64)
        y = np.zeros(self.shape[0])
        cols = np.repeat(np.arange(self.shape[1]), np.diff(self.indptr))
        np.add.at(y, self.indices, self.data * x[cols])
        return y


@dataclass
class Problem:
    """A frictional-contact problem. ``kind == "local"``: ``u = W r + q`` (``W``,
    ``q``, ``mu``); ``kind == "global"``: ``M v = H r + f``, ``u = Hᵀ v + w`` (``M``,
    ``H``, ``f``, ``w``, ``mu``). ``dim`` is 2 or 3."""

    kind: str
    dim: int
    mu: np.ndarray
    W: Optional[CscMatrix] = None
    q: Optional[np.ndarray] = None
    M: Optional[CscMatrix] = None
    H: Optional[CscMatrix] = None
    f: Optional[np.ndarray] = None
    w: Optional[np.ndarray] = None
    title: str = ""

    @property
    def n_contacts(self) -> int:
        return len(self.mu)

    @staticmethod
    def local(W, q, mu, dim: int = 3, title: str = "") -> "Problem":
        """A local problem from ``W`` (dense, scipy sparse or :class:`CscMatrix`)."""
        return Problem(kind="local", dim=dim, W=as_csc(W), q=_vec(q), mu=_vec(mu), title=title)

    @staticmethod
    def global_(M, H, f, w, mu, dim: int = 3, title: str = "") -> "Problem":
        """A global problem."""
        return Problem(kind="global", dim=dim, M=as_csc(M), H=as_csc(H), f=_vec(f), w=_vec(w),
                       mu=_vec(mu), title=title)


def _vec(x) -> np.ndarray:
    return np.ascontiguousarray(x, dtype=np.float64).ravel()


def as_csc(a) -> CscMatrix:
    """A :class:`CscMatrix` from a dense array, a scipy sparse matrix or a
    ``CscMatrix``."""
    if isinstance(a, CscMatrix):
        return a
    if hasattr(a, "tocsc"):
        c = a.tocsc()
        return CscMatrix(np.asarray(c.data, np.float64), np.asarray(c.indices, np.int64),
                         np.asarray(c.indptr, np.int64), tuple(c.shape))
    d = np.asarray(a, dtype=np.float64)
    if d.ndim != 2:
        raise ValueError(f"expected a 2-D matrix, got an array of shape {d.shape}")
    rows, cols = np.nonzero(d.T)  # column by column
    indptr = np.zeros(d.shape[1] + 1, np.int64)
    np.add.at(indptr, rows + 1, 1)
    return CscMatrix(d[cols, rows].astype(np.float64), cols.astype(np.int64),
                     np.cumsum(indptr), tuple(d.shape))


def _csc(a: CscMatrix):
    """The native layer's ``(indptr, indices, data, shape)``."""
    c = as_csc(a)
    return (np.ascontiguousarray(c.indptr, np.int64), np.ascontiguousarray(c.indices, np.int64),
            np.ascontiguousarray(c.data, np.float64), (int(c.shape[0]), int(c.shape[1])))


def _from_native(d) -> CscMatrix:
    return CscMatrix(d["data"], d["indices"], d["indptr"], tuple(d["shape"]))


def read(path) -> Problem:
    """Reads a problem file: FCLIB HDF5 (local or global) or Siconos text (``.dat``).
    An unreadable or malformed file raises ``OSError`` naming the dataset or line."""
    d = _native.read_problem(os.fspath(path))
    common = dict(kind=d["kind"], dim=d["dim"], mu=d["mu"], title=d.get("title", ""))
    if d["kind"] == "local":
        return Problem(W=_from_native(d["W"]), q=d["q"], **common)
    return Problem(M=_from_native(d["M"]), H=_from_native(d["H"]), f=d["f"], w=d["w"], **common)


def write(path, problem: Problem) -> None:
    """Writes ``problem`` as an FCLIB HDF5 file (matrices in CSC)."""
    title = problem.title or None
    if problem.kind == "local":
        _native.write_local(os.fspath(path), problem.dim, _csc(problem.W), _vec(problem.q),
                            _vec(problem.mu), title)
    elif problem.kind == "global":
        _native.write_global(os.fspath(path), problem.dim, _csc(problem.M), _csc(problem.H),
                             _vec(problem.f), _vec(problem.w), _vec(problem.mu), title)
    else:
        raise ValueError(f"problem.kind {problem.kind!r}: expected 'local' or 'global'")
