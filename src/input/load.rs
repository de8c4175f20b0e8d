//! `[[load]]`: a follower pressure or a traction on a surface group, or a
//! total force on any group, with an optional curve.

use super::curve::curve_index;
use super::raw::RawLoad;
use super::{missing_group, Ctx, InputError};
use crate::curve::Curve;
use crate::fe::ElementKind;
use crate::mesh::Mesh;
use crate::model::{Load, LoadKind};

pub(super) fn build_load(
    ctx: &Ctx,
    l: &RawLoad,
    i: usize,
    dim: usize,
    mesh: &Mesh,
    curves: &[Curve],
) -> Result<Load, InputError> {
    let key = format!("load[{i}]");
    let name = l.group.get_ref();
    let Some(group) = mesh.group(name) else {
        return ctx.err(
            Some(l.group.span()),
            format!("{key}.group"),
            missing_group(name, mesh),
        );
    };
    let given = [
        l.pressure.is_some(),
        l.traction.is_some(),
        l.force.is_some(),
    ];
    if given.iter().filter(|&&g| g).count() != 1 {
        return ctx.err(
            Some(l.group.span()),
            key,
            "give exactly one of `pressure`, `traction` or `force`",
        );
    }
    let surface = group.dim + 1 == dim;
    let faces_ok = group.elements.iter().all(|e| {
        matches!(
            (e.kind, dim),
            (ElementKind::Line2, 2) | (ElementKind::Tri3 | ElementKind::Quad4, 3)
        )
    });
    let faces = if dim == 2 { "line2" } else { "tri3 or quad4" };
    let need_surface = |what: &str, span| {
        let why = if surface {
            format!(
                "group \"{name}\" has second-order faces: a {what} is integrated on first-order faces ({faces}) only; mesh the loaded surface with order 1, or load its nodes with `force`"
            )
        } else {
            format!(
                "group \"{name}\" has dimension {}: a {what} acts on a surface group (dimension {}, {faces} faces); use `force` for a volume or point group",
                group.dim,
                dim - 1,
            )
        };
        ctx.err(Some(span), format!("{key}.{what}"), why)
    };
    let kind = if let Some(p) = &l.pressure {
        if !surface || !faces_ok {
            return need_surface("pressure", p.span());
        }
        let v = *p.get_ref();
        if !v.is_finite() {
            return ctx.err(
                Some(p.span()),
                format!("{key}.pressure"),
                "must be a finite number",
            );
        }
        LoadKind::Pressure(v)
    } else if let Some(t) = &l.traction {
        if !surface || !faces_ok {
            return need_surface("traction", t.span());
        }
        LoadKind::Traction(ctx.vector(t, &format!("{key}.traction"), dim)?)
    } else {
        let f = l.force.as_ref().expect("one of the three is given");
        if group.elements.is_empty() {
            return ctx.err(
                Some(f.span()),
                format!("{key}.group"),
                format!("group \"{name}\" has no elements"),
            );
        }
        LoadKind::Force(ctx.vector(f, &format!("{key}.force"), dim)?)
    };
    Ok(Load {
        group: name.clone(),
        kind,
        curve: curve_index(ctx, l.curve.as_ref(), &format!("{key}.curve"), curves)?,
    })
}
