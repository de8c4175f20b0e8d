//! `[[body]]`: one body's material, group, mass kind and initial motion,
//! checked value by value (the second stage of [`fn@super::load`]).

use super::raw::*;
use super::{missing_group, Ctx, InputError};
use crate::material::{lame, Material, NeoHookean, Svk};
use crate::mesh::Mesh;
use crate::model::{Body, MassKind};

pub(super) fn build_body(
    ctx: &Ctx,
    b: &RawBody,
    i: usize,
    dim: usize,
    mesh: &Mesh,
    earlier: &[Body],
) -> Result<Body, InputError> {
    let key = format!("body[{i}]");
    let name = b.name.get_ref().clone();
    if earlier.iter().any(|o| o.name == name) {
        return ctx.err(
            Some(b.name.span()),
            format!("{key}.name"),
            format!("duplicate body name \"{name}\""),
        );
    }
    let group = b.group.get_ref();
    let Some(g) = mesh.group(group) else {
        return ctx.err(
            Some(b.group.span()),
            format!("{key}.group"),
            missing_group(group, mesh),
        );
    };
    if g.dim != dim {
        return ctx.err(
            Some(b.group.span()),
            format!("{key}.group"),
            format!(
                "group \"{group}\" has dimension {}, a body needs a {dim}D volume group",
                g.dim
            ),
        );
    }
    let m = b.material.get_ref();
    let mk = format!("{key}.material");
    let young = ctx.positive(&m.young, &format!("{mk}.young"))?;
    let density = ctx.positive(&m.density, &format!("{mk}.density"))?;
    let nu = *m.poisson.get_ref();
    if !(nu > -1.0 && nu < 0.5) {
        return ctx.err(
            Some(m.poisson.span()),
            format!("{mk}.poisson"),
            format!("must lie in (-1, 0.5), got {nu}"),
        );
    }
    let (lambda, mu) = lame(young, nu);
    let material = match m.model.get_ref().as_str() {
        "svk" => Material::Svk(Svk { lambda, mu }),
        "neo-hookean" => Material::NeoHookean(NeoHookean { lambda, mu }),
        other => {
            return ctx.err(
                Some(m.model.span()),
                format!("{mk}.model"),
                format!("expected \"svk\" or \"neo-hookean\", got \"{other}\""),
            )
        }
    };
    let velocity = match &b.velocity {
        Some(v) => ctx.vector(v, &format!("{key}.velocity"), dim)?,
        None => [0.0; 3],
    };
    let angular_velocity = match &b.angular_velocity {
        None => [0.0; 3],
        Some(w) => match (w.get_ref(), dim) {
            (AngularVelocity::Scalar(s), 2) if s.is_finite() => [0.0, 0.0, *s],
            (AngularVelocity::Vector(v), 3) if v.len() == 3 && v.iter().all(|c| c.is_finite()) => {
                [v[0], v[1], v[2]]
            }
            _ => {
                let want = if dim == 2 {
                    "a number (rotation about z)"
                } else {
                    "a vector of 3 numbers"
                };
                return ctx.err(
                    Some(w.span()),
                    format!("{key}.angular_velocity"),
                    format!("expected {want} in {dim}D"),
                );
            }
        },
    };
    let mass = match b.mass.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
        None | Some(("lumped", _)) => MassKind::Lumped,
        Some(("consistent", _)) => MassKind::Consistent,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                format!("{key}.mass"),
                format!("expected \"lumped\" or \"consistent\", got \"{other}\""),
            )
        }
    };
    Ok(Body {
        name,
        group: group.clone(),
        material,
        density,
        velocity,
        angular_velocity,
        mass,
    })
}
