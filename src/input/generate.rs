//! `[[mesh.generate]]`: the built-in meshes, each refused before it is
//! generated if the model would not fit in memory.

use super::budget::{self, Size};
use super::raw::{Divisions, RawGenerate};
use super::{Ctx, InputError};
use crate::fe::ElementKind;
use crate::mesh::{self, Mesh};
use std::ops::Range;
use toml::Spanned;

/// Refuses a model whose estimated memory (see [`budget`]) exceeds this
/// machine's, before anything that size is allocated.
pub(super) fn fits(
    ctx: &Ctx,
    size: Size,
    dim: usize,
    span: Option<Range<usize>>,
    key: &str,
) -> Result<(), InputError> {
    let need = budget::run_bytes(dim, size);
    match budget::machine_bytes() {
        Some(have) if need > have => ctx.err(
            span,
            key,
            format!(
                "the model would have about {:.3e} elements and {:.3e} nodes, which needs an estimated {} of memory; this machine has {} (reduce the divisions or the mesh)",
                size.elements,
                size.nodes,
                budget::human(need),
                budget::human(have)
            ),
        ),
        _ => Ok(()),
    }
}

pub(super) fn generate(
    ctx: &Ctx,
    g: &RawGenerate,
    key: &str,
    dim: usize,
    planned: &mut Size,
) -> Result<Mesh, InputError> {
    // refuses the part if, with what came before, it cannot fit
    let mut reserve = |part: Size| -> Result<(), InputError> {
        *planned = planned.add(part);
        let span = g.divisions.as_ref().map(|d| d.span());
        fits(ctx, *planned, dim, span, &format!("{key}.divisions"))
    };
    let need =
        |v: Option<&Spanned<Vec<f64>>>, k: &str, len: usize| -> Result<[f64; 3], InputError> {
            match v {
                Some(v) => ctx.vector(v, &format!("{key}.{k}"), len),
                None => ctx.err(
                    Some(g.kind.span()),
                    format!("{key}.{k}"),
                    "missing (required for this kind)",
                ),
            }
        };
    let need_pos = |v: Option<&Spanned<f64>>, k: &str| -> Result<f64, InputError> {
        match v {
            Some(v) => ctx.positive(v, &format!("{key}.{k}")),
            None => ctx.err(
                Some(g.kind.span()),
                format!("{key}.{k}"),
                "missing (required for this kind)",
            ),
        }
    };
    let divisions = |want: Option<usize>| -> Result<Vec<usize>, InputError> {
        let Some(d) = &g.divisions else {
            return ctx.err(
                Some(g.kind.span()),
                format!("{key}.divisions"),
                "missing (required)",
            );
        };
        let list: Vec<i64> = match d.get_ref() {
            Divisions::One(n) => vec![*n],
            Divisions::Many(v) => v.clone(),
        };
        if let Some(w) = want {
            if list.len() != w {
                return ctx.err(
                    Some(d.span()),
                    format!("{key}.divisions"),
                    format!("expected {w} numbers, got {}", list.len()),
                );
            }
        }
        if list.iter().any(|&n| n < 1) {
            return ctx.err(
                Some(d.span()),
                format!("{key}.divisions"),
                "every division count must be ≥ 1",
            );
        }
        Ok(list.into_iter().map(|n| n as usize).collect())
    };
    let name = g.name.get_ref();
    let kind = g.kind.get_ref().as_str();
    let mesh_err = |e: mesh::MeshError| InputError {
        file: ctx.file.to_path_buf(),
        line: Some(ctx.line_of(g.kind.span())),
        key: key.to_string(),
        message: e.to_string(),
    };
    let only_2d = |what: &str| {
        ctx.err::<Mesh>(
            Some(g.kind.span()),
            format!("{key}.kind"),
            format!("\"{what}\" is a 2D generator; this problem is 3D"),
        )
    };
    let only_3d = |what: &str| {
        ctx.err::<Mesh>(
            Some(g.kind.span()),
            format!("{key}.kind"),
            format!("\"{what}\" is a 3D generator; this problem is 2D"),
        )
    };
    match kind {
        "box" => {
            let min = need(g.min.as_ref(), "min", dim)?;
            let max = need(g.max.as_ref(), "max", dim)?;
            let div = divisions(Some(dim))?;
            let element = match g.element.as_ref().map(|e| (e.get_ref().as_str(), e.span())) {
                None => {
                    if dim == 2 {
                        ElementKind::Quad4
                    } else {
                        ElementKind::Hex8
                    }
                }
                Some(("quad4", _)) if dim == 2 => ElementKind::Quad4,
                Some(("tri3", _)) if dim == 2 => ElementKind::Tri3,
                Some(("hex8", _)) if dim == 3 => ElementKind::Hex8,
                Some(("tet4", _)) if dim == 3 => ElementKind::Tet4,
                Some((other, span)) => {
                    let allowed = if dim == 2 {
                        "\"quad4\" or \"tri3\""
                    } else {
                        "\"hex8\" or \"tet4\""
                    };
                    return ctx.err(
                        Some(span),
                        format!("{key}.element"),
                        format!("expected {allowed} in {dim}D, got \"{other}\""),
                    );
                }
            };
            reserve(budget::box_size(
                &div,
                matches!(element, ElementKind::Tri3 | ElementKind::Tet4),
            ))?;
            mesh::generate::box_mesh(name, &min[..dim], &max[..dim], &div, element)
                .map_err(mesh_err)
        }
        "ring" => {
            if dim != 2 {
                return only_2d("ring");
            }
            let c = need(g.center.as_ref(), "center", 2)?;
            let radius = need_pos(g.radius.as_ref(), "radius")?;
            let thickness = need_pos(g.thickness.as_ref(), "thickness")?;
            if thickness >= 2.0 * radius {
                let t = g.thickness.as_ref().expect("checked");
                return ctx.err(
                    Some(t.span()),
                    format!("{key}.thickness"),
                    "must be smaller than twice the radius",
                );
            }
            let div = divisions(Some(2))?;
            reserve(budget::ring_size(div[0], div[1]))?;
            mesh::generate::ring(name, [c[0], c[1]], radius, thickness, [div[0], div[1]])
                .map_err(mesh_err)
        }
        "disk" => {
            if dim != 2 {
                return only_2d("disk");
            }
            let c = need(g.center.as_ref(), "center", 2)?;
            let radius = need_pos(g.radius.as_ref(), "radius")?;
            let div = divisions(Some(1))?;
            if div[0] <= 50_000 {
                // (larger counts are the generator's own error)
                reserve(budget::disk_size(div[0]))?;
            }
            mesh::generate::disk(name, [c[0], c[1]], radius, div[0]).map_err(mesh_err)
        }
        "ball" => {
            if dim != 3 {
                return only_3d("ball");
            }
            let c = need(g.center.as_ref(), "center", 3)?;
            let radius = need_pos(g.radius.as_ref(), "radius")?;
            let div = divisions(Some(1))?;
            if div[0] <= 1000 {
                // (larger counts are the generator's own error)
                reserve(budget::ball_size(div[0]))?;
            }
            mesh::generate::ball(name, c, radius, div[0]).map_err(mesh_err)
        }
        other => ctx.err(
            Some(g.kind.span()),
            format!("{key}.kind"),
            format!("expected \"box\", \"ring\", \"disk\" or \"ball\", got \"{other}\""),
        ),
    }
}
