//! `[[boundary]]`: fixed components, prescribed displacement or velocity per
//! component, a rigid rotation of the group, and their curve.

use super::curve::curve_index;
use super::raw::{RawBoundary, RawComponents};
use super::{missing_group, Ctx, InputError};
use crate::curve::Curve;
use crate::mesh::Mesh;
use crate::model::{Boundary, Drive, Rotation, Warning};
use toml::Spanned;

fn component_names(dim: usize) -> &'static str {
    if dim == 2 {
        "\"x\", \"y\""
    } else {
        "\"x\", \"y\", \"z\""
    }
}

/// The values of a `{ x = .., y = .., z = .. }` table.
fn components(
    ctx: &Ctx,
    c: &Spanned<RawComponents>,
    key: &str,
    dim: usize,
) -> Result<[Option<f64>; 3], InputError> {
    let r = c.get_ref();
    let v = [r.x, r.y, r.z];
    if dim == 2 && v[2].is_some() {
        return ctx.err(Some(c.span()), key, "has no z component in 2D");
    }
    if v.iter().all(|x| x.is_none()) {
        return ctx.err(
            Some(c.span()),
            key,
            format!("give at least one component ({})", component_names(dim)),
        );
    }
    if let Some(x) = v.iter().flatten().find(|x| !x.is_finite()) {
        return ctx.err(
            Some(c.span()),
            key,
            format!("components must be finite, got {x}"),
        );
    }
    Ok(v)
}

fn rotation(
    ctx: &Ctx,
    b: &RawBoundary,
    key: &str,
    dim: usize,
) -> Result<Option<Rotation>, InputError> {
    let Some(r) = &b.rotation else {
        return Ok(None);
    };
    let rk = format!("{key}.rotation");
    let raw = r.get_ref();
    let point = ctx.vector(&raw.point, &format!("{rk}.point"), dim)?;
    let axis = match (&raw.axis, dim) {
        (Some(a), 3) => ctx.vector(a, &format!("{rk}.axis"), 3)?,
        (Some(a), _) => {
            let v = ctx.vector(a, &format!("{rk}.axis"), 3)?;
            if v[0] != 0.0 || v[1] != 0.0 {
                return ctx.err(
                    Some(a.span()),
                    format!("{rk}.axis"),
                    "in 2D the rotation is about the z axis: give [0, 0, 1] or [0, 0, -1], or leave it out",
                );
            }
            v
        }
        (None, 2) => [0.0, 0.0, 1.0],
        (None, _) => {
            return ctx.err(
                Some(r.span()),
                format!("{rk}.axis"),
                "missing: a rotation in 3D needs its axis [ax, ay, az]",
            )
        }
    };
    let len = axis.iter().map(|v| v * v).sum::<f64>().sqrt();
    if len == 0.0 {
        let span = raw.axis.as_ref().map_or(r.span(), |a| a.span());
        return ctx.err(
            Some(span),
            format!("{rk}.axis"),
            "must not be the zero vector",
        );
    }
    let w = *raw.angular_velocity.get_ref();
    if !w.is_finite() {
        return ctx.err(
            Some(raw.angular_velocity.span()),
            format!("{rk}.angular_velocity"),
            "must be a finite number",
        );
    }
    Ok(Some(Rotation {
        point,
        axis: axis.map(|v| v / len),
        angular_velocity: w,
    }))
}

pub(super) fn build_boundary(
    ctx: &Ctx,
    b: &RawBoundary,
    i: usize,
    dim: usize,
    mesh: &Mesh,
    curves: &[Curve],
) -> Result<Boundary, InputError> {
    let key = format!("boundary[{i}]");
    let group = b.group.get_ref();
    if mesh.group(group).is_none() {
        return ctx.err(
            Some(b.group.span()),
            format!("{key}.group"),
            missing_group(group, mesh),
        );
    }
    let mut fix = [false; 3];
    if let Some(f) = &b.fix {
        for c in f.get_ref() {
            let axis = match c.as_str() {
                "x" => 0,
                "y" => 1,
                "z" if dim == 3 => 2,
                _ => {
                    return ctx.err(
                        Some(f.span()),
                        format!("{key}.fix"),
                        format!(
                            "unknown component \"{c}\" (expected any of {})",
                            component_names(dim)
                        ),
                    );
                }
            };
            fix[axis] = true;
        }
    }
    let mut drive: [Option<Drive>; 3] = [None; 3];
    for (name, table, make) in [
        (
            "displacement",
            &b.displacement,
            Drive::Displacement as fn(f64) -> Drive,
        ),
        ("velocity", &b.velocity, Drive::Velocity as fn(f64) -> Drive),
    ] {
        let Some(t) = table else { continue };
        let k = format!("{key}.{name}");
        for (c, v) in components(ctx, t, &k, dim)?.iter().enumerate() {
            let Some(v) = v else { continue };
            let axis = ["x", "y", "z"][c];
            if fix[c] {
                return ctx.err(
                    Some(t.span()),
                    format!("{k}.{axis}"),
                    format!("component \"{axis}\" is both fixed (`fix`) and prescribed: give it once (a fixed component is a zero displacement)"),
                );
            }
            if drive[c].is_some() {
                return ctx.err(
                    Some(t.span()),
                    format!("{k}.{axis}"),
                    format!(
                        "component \"{axis}\" has both a displacement and a velocity: give one"
                    ),
                );
            }
            drive[c] = Some(make(*v));
        }
    }
    let rotation = rotation(ctx, b, &key, dim)?;
    if let (Some(r), true) = (
        &b.rotation,
        fix.iter().any(|&f| f) || drive.iter().any(|d| d.is_some()),
    ) {
        return ctx.err(
            Some(r.span()),
            format!("{key}.rotation"),
            "a rotation prescribes every component of the group: it cannot be combined with `fix`, `displacement` or `velocity` (use another [[boundary]] for another group)",
        );
    }
    let curve = curve_index(ctx, b.curve.as_ref(), &format!("{key}.curve"), curves)?;
    let moves = rotation.is_some() || drive.iter().any(|d| d.is_some());
    if let (Some(c), false) = (&b.curve, moves) {
        return ctx.err(
            Some(c.span()),
            format!("{key}.curve"),
            "a curve scales a prescribed displacement, velocity or rotation; this boundary has none",
        );
    }
    if !moves && !fix.iter().any(|&f| f) {
        return ctx.err(
            Some(b.group.span()),
            key,
            "give `fix`, `displacement`, `velocity` or `rotation`",
        );
    }
    Ok(Boundary {
        group: group.clone(),
        fix,
        drive,
        rotation,
        curve,
    })
}

/// Warnings for nodes that a later boundary constrains in a component an
/// earlier one already holds (the first boundary wins).
pub(super) fn overlap_warnings(
    ctx: &Ctx,
    raw: &[RawBoundary],
    boundaries: &[Boundary],
    mesh: &Mesh,
    out: &mut Vec<Warning>,
) {
    let mut owner: std::collections::HashMap<(usize, usize), usize> = Default::default();
    for (i, b) in boundaries.iter().enumerate() {
        let c = b.constrained();
        let mut shadowed = 0;
        let mut first = None;
        for a in mesh.group_nodes(&b.group).unwrap_or_default() {
            for k in (0..3).filter(|&k| c[k]) {
                match owner.get(&(a, k)) {
                    Some(&j) if b.moves() || boundaries[j].moves() => {
                        shadowed += 1;
                        first.get_or_insert((a, j));
                    }
                    Some(_) => {}
                    None => {
                        owner.insert((a, k), i);
                    }
                }
            }
        }
        if let Some((node, j)) = first {
            out.push(Warning {
                key: format!("boundary[{i}]"),
                line: Some(ctx.line_of(raw[i].group.span())),
                message: format!(
                    "{shadowed} constrained component(s) of its nodes (the first at node {node}) are already held by boundary[{j}], which wins; give each node's motion once"
                ),
            });
        }
    }
}
