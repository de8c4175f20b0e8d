//! `[[contact]]`: pairs, their checks, and the keys that have no effect.

use super::raw::RawContact;
use super::{missing_group, rigid, Ctx, InputError};
use crate::curve::Curve;
use crate::mesh::Mesh;
use crate::model::{
    ContactSpec, ContactTangent, Enforcement, InitialOverlap, Integrator, MasterSpec, Warning,
};
use std::ops::Range;
use toml::Spanned;

/// Keys of `[[contact]]` `i` that are set but have no effect.
pub(super) fn contact_warnings(
    ctx: &Ctx,
    c: &RawContact,
    spec: &ContactSpec,
    i: usize,
    integrator: Integrator,
    out: &mut Vec<Warning>,
) {
    let mut unused = |key: &str, span: Range<usize>, why: &str| {
        out.push(Warning {
            key: format!("contact[{i}].{key}"),
            line: Some(ctx.line_of(span)),
            message: format!("has no effect {why}"),
        })
    };
    if spec.enforcement == Enforcement::Penalty {
        if let Some(v) = &c.tolerance {
            unused(
                "tolerance",
                v.span(),
                "with enforcement = \"penalty\" (no constraint tolerance is enforced)",
            );
        }
    } else {
        if let Some(v) = &c.penalty {
            unused(
                "penalty",
                v.span(),
                "with exact or augmented-Lagrangian enforcement (the normal penalty is the penalty law's)",
            );
        }
    }
    if spec.enforcement != Enforcement::Exact {
        if let Some(v) = &c.solver {
            unused(
                "solver",
                v.span(),
                "unless enforcement = \"exact\" (the library solves only exact enforcement's subproblems)",
            );
        }
    }
    if spec.friction == 0.0 {
        if let Some(v) = &c.tangential_penalty {
            unused(
                "tangential_penalty",
                v.span(),
                "without friction (friction = 0)",
            );
        }
    }
    if let (Integrator::Newmark { .. }, Some(v)) = (integrator, &c.velocity_update) {
        unused(
            "velocity_update",
            v.span(),
            "with integrator = \"newmark\" (the update belongs to the energy-momentum scheme)",
        );
    }
}

/// A surface group for contact: must exist and hold boundary elements (dimension `dim − 1`).
fn surface_group(
    ctx: &Ctx,
    name: &Spanned<String>,
    key: &str,
    dim: usize,
    mesh: &Mesh,
) -> Result<String, InputError> {
    let n = name.get_ref();
    let Some(g) = mesh.group(n) else {
        return ctx.err(Some(name.span()), key, missing_group(n, mesh));
    };
    if g.dim + 1 != dim {
        return ctx.err(
            Some(name.span()),
            key,
            format!(
                "group \"{n}\" has dimension {}: contact needs a surface group (dimension {})",
                g.dim,
                dim - 1
            ),
        );
    }
    if let Some(problem) = mesh.contact_surface_problem(n) {
        return ctx.err(Some(name.span()), key, problem);
    }
    Ok(n.clone())
}

pub(super) fn build_contact(
    ctx: &Ctx,
    c: &RawContact,
    i: usize,
    dim: usize,
    mesh: &Mesh,
    curves: &[Curve],
) -> Result<ContactSpec, InputError> {
    let key = format!("contact[{i}]");
    let slave = surface_group(ctx, &c.slave, &format!("{key}.slave"), dim, mesh)?;
    let given = [
        c.master.as_ref().map(|m| ("master", m.span())),
        c.master_plane.as_ref().map(|m| ("master_plane", m.span())),
        c.master_sphere
            .as_ref()
            .map(|m| ("master_sphere", m.span())),
        c.master_cylinder
            .as_ref()
            .map(|m| ("master_cylinder", m.span())),
    ];
    let mut given = given.into_iter().flatten();
    let master = match (given.next(), given.next()) {
        (None, _) => {
            return ctx.err(
                Some(c.slave.span()),
                format!("{key}.master"),
                "missing: give `master`, `master_plane`, `master_sphere` or `master_cylinder`",
            )
        }
        (Some((first, span)), Some((second, _))) => {
            return ctx.err(
                Some(span),
                format!("{key}.{first}"),
                format!(
                    "give one master, not both `{first}` and `{second}` (one of `master`, `master_plane`, `master_sphere`, `master_cylinder`)"
                ),
            )
        }
        (Some(("master", _)), None) => {
            let m = c.master.as_ref().expect("given");
            MasterSpec::Surface(surface_group(ctx, m, &format!("{key}.master"), dim, mesh)?)
        }
        (Some(("master_plane", _)), None) => {
            let p = c.master_plane.as_ref().expect("given");
            rigid::plane(ctx, p, &format!("{key}.master_plane"), dim, curves)?
        }
        (Some(("master_sphere", _)), None) => {
            let s = c.master_sphere.as_ref().expect("given");
            rigid::sphere(ctx, s, &format!("{key}.master_sphere"), dim, curves)?
        }
        (Some(_), None) => {
            let s = c.master_cylinder.as_ref().expect("given");
            rigid::cylinder(ctx, s, &format!("{key}.master_cylinder"), dim, curves)?
        }
    };
    let own = matches!(&master, MasterSpec::Surface(m) if *m == slave);
    let friction = match &c.friction {
        Some(f) if !(*f.get_ref() >= 0.0 && f.get_ref().is_finite()) => {
            return ctx.err(
                Some(f.span()),
                format!("{key}.friction"),
                format!("must be ≥ 0, got {}", f.get_ref()),
            )
        }
        Some(f) => *f.get_ref(),
        None => 0.0,
    };
    let enforcement = match c
        .enforcement
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        Some(("augmented-lagrangian", _)) => Enforcement::AugmentedLagrangian,
        None | Some(("exact", _)) => Enforcement::Exact,
        Some(("penalty", _)) => Enforcement::Penalty,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                format!("{key}.enforcement"),
                format!(
                    "expected \"exact\", \"augmented-lagrangian\" or \"penalty\", got \"{other}\""
                ),
            )
        }
    };
    let solver = match &c.solver {
        None => None,
        Some(s) if crate::nonsmooth::is_solver(s.get_ref()) => Some(s.get_ref().clone()),
        Some(s) => {
            return ctx.err(
                Some(s.span()),
                format!("{key}.solver"),
                format!(
                    "unknown solver \"{}\" (`emcontact fc solvers` lists them)",
                    s.get_ref()
                ),
            )
        }
    };
    let tangent = match c.tangent.as_ref().map(|s| (s.get_ref().as_str(), s.span())) {
        None | Some(("exact", _)) => ContactTangent::Exact,
        Some(("finite-difference", _)) => ContactTangent::FiniteDifference,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                format!("{key}.tangent"),
                format!("expected \"exact\" or \"finite-difference\", got \"{other}\""),
            )
        }
    };
    let initial_overlap = match c
        .initial_overlap
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("error", _)) => InitialOverlap::Error,
        Some(("adjust", _)) => InitialOverlap::Adjust,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                format!("{key}.initial_overlap"),
                format!("expected \"error\" or \"adjust\", got \"{other}\""),
            )
        }
    };
    if let Some(m) = &c.max_augmentations {
        return ctx.err(
            Some(m.span()),
            format!("{key}.max_augmentations"),
            "this key was removed: the multipliers are solved inside Newton, there is no \
             augmentation loop any more; delete the key"
                .to_string(),
        );
    }
    let penalty = c
        .penalty
        .as_ref()
        .map(|v| ctx.positive(v, &format!("{key}.penalty")))
        .transpose()?;
    let tangential_penalty = c
        .tangential_penalty
        .as_ref()
        .map(|v| ctx.positive(v, &format!("{key}.tangential_penalty")))
        .transpose()?;
    let tolerance = c
        .tolerance
        .as_ref()
        .map(|v| ctx.positive(v, &format!("{key}.tolerance")))
        .transpose()?
        .unwrap_or(super::DEFAULT_CONTACT_TOLERANCE);
    let velocity_update = c
        .velocity_update
        .as_ref()
        .map(|v| *v.get_ref())
        .unwrap_or(true);
    let passes = match (&c.passes, &master) {
        // a self-contact searches every node against every other face of
        // its surface: both passes at once, each node a slave point once
        (None, MasterSpec::Surface(_)) if own => 2,
        (Some(p), MasterSpec::Surface(_)) if own && *p.get_ref() != 2 => {
            return ctx.err(
                Some(p.span()),
                format!("{key}.passes"),
                format!(
                    "a self-contact (slave and master both \"{slave}\") is two passes by \
                     construction (every node against the faces of its own surface): passes \
                     must be 2, got {}; delete the key",
                    p.get_ref()
                ),
            )
        }
        // two passes under the augmented Lagrangian's single Alart–Curnier
        // step per iteration stall where the two meshes do not match on a
        // flat interface (the second pass nearly repeats the first's
        // constraints: the step's matrix is near singular); one pass, the
        // other side's depth measured
        (None, MasterSpec::Surface(_)) if enforcement == Enforcement::AugmentedLagrangian => 1,
        (None, MasterSpec::Surface(_)) => 2,
        (None, MasterSpec::Plane { .. } | MasterSpec::Rigid(_)) => 1,
        (Some(p), MasterSpec::Plane { .. } | MasterSpec::Rigid(_)) if *p.get_ref() != 1 => {
            return ctx.err(
                Some(p.span()),
                format!("{key}.passes"),
                "a rigid master has no nodes to check: passes must be 1",
            )
        }
        (Some(p), _) if matches!(*p.get_ref(), 1 | 2) => *p.get_ref() as u8,
        (Some(p), _) => {
            return ctx.err(
                Some(p.span()),
                format!("{key}.passes"),
                format!("expected 1 or 2, got {}", p.get_ref()),
            )
        }
    };
    Ok(ContactSpec {
        slave,
        master,
        friction,
        enforcement,
        penalty,
        tangential_penalty,
        tolerance,
        velocity_update,
        solver,
        tangent,
        initial_overlap,
        passes,
    })
}
