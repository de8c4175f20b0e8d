"""Kinetic and strain energy of a hex8 mesh from nodal fields (numpy only).

Computed outside Kratos, from its nodal DISPLACEMENT and VELOCITY, with the
same definitions as emcontact's history.csv, so the two codes' energies are
measured alike:

* kinetic, consistent mass: T = 1/2 sum_e sum_g rho |v_h(x_g)|^2 detJ0 w_g
  (2x2x2 Gauss, exact for the trilinear products), i.e. 1/2 v^T M v;
* kinetic, lumped (row-sum) mass: T = 1/2 sum_a m_a |v_a|^2,
  m_a = sum_e sum_g rho N_a detJ0 w_g;
* strain: compressible neo-Hookean (Bonet & Wood 2008, ch. 6; Kratos'
  HyperElastic3DLaw uses the same W),
  W = mu/2 (tr C - 3) - mu ln J + lambda/2 (ln J)^2, integrated with the
  2x2x2 Gauss rule of the element.
"""
import numpy as np

# hex8 corner signs in Gmsh / Kratos order
_CORNERS = np.array(
    [[-1, -1, -1], [1, -1, -1], [1, 1, -1], [-1, 1, -1],
     [-1, -1, 1], [1, -1, 1], [1, 1, 1], [-1, 1, 1]], dtype=float)
_G = 1.0 / np.sqrt(3.0)
_POINTS = np.array([[a, b, c] for c in (-_G, _G) for b in (-_G, _G) for a in (-_G, _G)])


def _shape(points):
    """N (g x 8) and dN/dxi (g x 8 x 3) at the given natural points."""
    s = 1.0 + points[:, None, :] * _CORNERS[None, :, :]  # g x 8 x 3
    n = 0.125 * s.prod(axis=2)
    dn = np.empty(s.shape)
    for k in range(3):
        others = [j for j in range(3) if j != k]
        dn[:, :, k] = 0.125 * _CORNERS[None, :, k] * s[:, :, others[0]] * s[:, :, others[1]]
    return n, dn


_N, _DN = _shape(_POINTS)


class Hex8Energy:
    """Precomputes reference geometry; evaluates energies for nodal fields."""

    def __init__(self, x_ref, hexes, rho, young, poisson):
        self.hexes = np.asarray(hexes)
        self.rho = np.asarray(rho, dtype=float) * np.ones(len(self.hexes))
        self.mu = young / (2.0 * (1.0 + poisson))
        self.lam = young * poisson / ((1.0 + poisson) * (1.0 - 2.0 * poisson))
        xe = np.asarray(x_ref)[self.hexes]  # e x 8 x 3
        jac = np.einsum("eaj,gai->egji", xe, _DN)  # dX_j / dxi_i
        self.detj = np.linalg.det(jac)  # e x g (weights are 1)
        if np.any(self.detj <= 0):
            raise ValueError("hex8 with non-positive reference Jacobian")
        jinv = np.linalg.inv(jac)
        self.dndx = np.einsum("gai,egij->egaj", _DN, jinv)  # dN_a / dX_j
        self.lumped = np.zeros(len(x_ref))
        np.add.at(self.lumped, self.hexes, np.einsum("e,ga,eg->ea", self.rho, _N, self.detj))

    def kinetic_consistent(self, v):
        ve = np.asarray(v)[self.hexes]  # e x 8 x 3
        vg = np.einsum("ga,eak->egk", _N, ve)
        return 0.5 * float(np.einsum("e,eg,egk,egk->", self.rho, self.detj, vg, vg))

    def kinetic_lumped(self, v):
        return 0.5 * float(np.sum(self.lumped * np.sum(np.asarray(v) ** 2, axis=1)))

    def strain(self, u):
        ue = np.asarray(u)[self.hexes]
        f = np.eye(3) + np.einsum("eak,egaj->egkj", ue, self.dndx)
        c = np.einsum("egki,egkj->egij", f, f)
        det_f = np.linalg.det(f)
        if np.any(det_f <= 0):
            return float("inf")
        lj = np.log(det_f)
        w = 0.5 * self.mu * (np.trace(c, axis1=2, axis2=3) - 3.0) - self.mu * lj + 0.5 * self.lam * lj * lj
        return float(np.sum(w * self.detj))
