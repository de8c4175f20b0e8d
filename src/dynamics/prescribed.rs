//! Prescribed motion of `[[boundary]]` groups: a displacement or a velocity
//! per component, or a rigid rotation, each times the boundary's curve.
//!
//! A prescribed dof is a constrained dof of the system (its row and column
//! leave the Newton matrix, [`super::System::apply_fixed`]); before Newton
//! its end-of-step position is set to the prescribed one, so Newton solves
//! for the free dofs with the prescribed increment in the residual. After
//! Newton the end-of-step velocity is set to the prescribed one. Both hold
//! exactly at the end of every step:
//!
//! * displacement `u(t) = d c(t)`: `x = X + u(t)`, `v = d c'(t⁻)` (`c'(0⁺)`
//!   at t = 0);
//! * velocity `v(t) = w c(t)`: `x = X + w ∫_0^t c`, `v = w c(t)`;
//! * rotation about the unit axis `a` through `p` at `ω(t) = ω c(t)`:
//!   `x = p + R(θ)(X − p)` with `θ = ω ∫_0^t c` (Rodrigues' formula),
//!   `v = ω(t) a × (x − p)`.
//!
//! The energy-momentum step's own end velocity of a prescribed dof is
//! `v̂ = 2Δx/Δt − v_n` (Love & Laursen 2003 eq. 55). Where the prescribed
//! velocity differs from it (a kink of the curve within the step, a
//! rotation's chord against its arc) the support changes the velocity at the
//! end of the step: an impulse `M(v − v̂)` whose work `½vᵀMv − ½v̂ᵀMv̂` is
//! measured exactly and enters the ledgers with the support's
//! ([`Jump`]; `docs/ledgers.md`).

use crate::curve::{self, Curve};
use crate::model::{Drive, Model, Rotation};

/// One prescribed dof.
#[derive(Debug, Clone, Copy)]
struct Dof {
    dof: usize,
    node: usize,
    component: usize,
    motion: Motion,
    /// Index into [`Prescribed::curves`] (`None`: factor 1).
    curve: Option<usize>,
}

#[derive(Debug, Clone, Copy)]
enum Motion {
    Drive(Drive),
    Rotation(Rotation),
}

/// The prescribed dofs of a model.
#[derive(Debug, Clone, Default)]
pub struct Prescribed {
    dofs: Vec<Dof>,
    curves: Vec<Curve>,
    /// Reference positions of every node.
    xref: Vec<[f64; 3]>,
}

pub use crate::jump::Jump;

fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}

fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

impl Prescribed {
    /// The prescribed dofs of `model` in dimension `d`: each constrained
    /// component belongs to the first boundary that constrains it (as in
    /// `reactions.csv`); a later boundary's prescription of it is ignored
    /// (`emcontact check` warns).
    pub fn new(model: &Model, xref: &[[f64; 3]], d: usize) -> Prescribed {
        let mut owned = vec![false; xref.len() * d];
        let mut dofs = Vec::new();
        for bc in &model.boundaries {
            let constrained = bc.constrained();
            let nodes = model.mesh.group_nodes(&bc.group).unwrap_or_default();
            for a in nodes {
                for i in (0..d).filter(|&i| constrained[i]) {
                    let dof = a * d + i;
                    if std::mem::replace(&mut owned[dof], true) {
                        continue;
                    }
                    let motion = match (bc.rotation, bc.drive[i]) {
                        (Some(r), _) => Motion::Rotation(r),
                        (None, Some(dr)) => Motion::Drive(dr),
                        (None, None) => continue,
                    };
                    dofs.push(Dof {
                        dof,
                        node: a,
                        component: i,
                        motion,
                        curve: bc.curve,
                    });
                }
            }
        }
        Prescribed {
            dofs,
            curves: model.curves.clone(),
            xref: xref.to_vec(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.dofs.is_empty()
    }

    /// The prescribed dofs that `dof` maps, renumbered by it: one
    /// process's share of a distributed run (its local nodes, owned and
    /// ghosts, whose positions and velocities it sets alike).
    pub fn share(&self, dof: impl Fn(usize) -> Option<usize>) -> Prescribed {
        Prescribed {
            dofs: self
                .dofs
                .iter()
                .filter_map(|p| dof(p.dof).map(|l| Dof { dof: l, ..*p }))
                .collect(),
            curves: self.curves.clone(),
            xref: self.xref.clone(),
        }
    }

    /// The prescribed dofs.
    pub fn dofs(&self) -> impl Iterator<Item = usize> + '_ {
        self.dofs.iter().map(|p| p.dof)
    }

    fn curve(&self, p: &Dof) -> Option<&Curve> {
        p.curve.map(|c| &self.curves[c])
    }

    /// The rotated position `p + R(θ)(X − p)` of node `a` at time `t`.
    fn rotated(&self, r: &Rotation, c: Option<&Curve>, a: usize, t: f64) -> [f64; 3] {
        let theta = r.angular_velocity * curve::integral(c, t);
        let x = self.xref[a];
        let rel = [0, 1, 2].map(|i| x[i] - r.point[i]);
        let (s, co) = theta.sin_cos();
        let axr = cross(r.axis, rel);
        let along = dot(r.axis, rel) * (1.0 - co);
        [0, 1, 2].map(|i| r.point[i] + rel[i] * co + axr[i] * s + r.axis[i] * along)
    }

    /// The prescribed position of `p` at `t`.
    fn position(&self, p: &Dof, t: f64) -> f64 {
        let c = self.curve(p);
        let x = self.xref[p.node][p.component];
        match p.motion {
            Motion::Drive(Drive::Displacement(u)) => x + u * curve::value(c, t),
            Motion::Drive(Drive::Velocity(w)) => x + w * curve::integral(c, t),
            Motion::Rotation(r) => self.rotated(&r, c, p.node, t)[p.component],
        }
    }

    /// The prescribed velocity of `p` at `t` (`start`: the right derivative
    /// of a displacement, for the initial state).
    fn velocity(&self, p: &Dof, t: f64, start: bool) -> f64 {
        let c = self.curve(p);
        match p.motion {
            Motion::Drive(Drive::Displacement(u)) if start => u * curve::slope_after(c, t),
            Motion::Drive(Drive::Displacement(u)) => u * curve::slope(c, t),
            Motion::Drive(Drive::Velocity(w)) => w * curve::value(c, t),
            Motion::Rotation(r) => {
                let x = self.rotated(&r, c, p.node, t);
                let rel = [0, 1, 2].map(|i| x[i] - r.point[i]);
                r.angular_velocity * curve::value(c, t) * cross(r.axis, rel)[p.component]
            }
        }
    }

    /// Sets the prescribed dofs of `x` to their positions at `t`.
    pub fn set_positions(&self, t: f64, x: &mut [f64]) {
        for p in &self.dofs {
            x[p.dof] = self.position(p, t);
        }
    }

    /// Sets the prescribed dofs of `v` to their velocities at `t` (`start`:
    /// the initial state, see [`Prescribed::velocity`]).
    pub fn set_velocities(&self, t: f64, v: &mut [f64], start: bool) {
        for p in &self.dofs {
            v[p.dof] = self.velocity(p, t, start);
        }
    }
}
