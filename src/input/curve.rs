//! `[[curve]]`: time functions, checked (a name, points `[t, v]` with times
//! strictly increasing), and the lookup of a `curve = "name"` key.

use super::raw::RawCurve;
use super::{Ctx, InputError};
use crate::curve::Curve;
use toml::Spanned;

pub(super) fn build_curves(ctx: &Ctx, raw: &[RawCurve]) -> Result<Vec<Curve>, InputError> {
    let mut out: Vec<Curve> = Vec::new();
    for (i, c) in raw.iter().enumerate() {
        let key = format!("curve[{i}]");
        let name = c.name.get_ref().trim().to_string();
        if name.is_empty() {
            return ctx.err(
                Some(c.name.span()),
                format!("{key}.name"),
                "must not be empty",
            );
        }
        if out.iter().any(|o| o.name == name) {
            return ctx.err(
                Some(c.name.span()),
                format!("{key}.name"),
                format!("duplicate curve name \"{name}\""),
            );
        }
        let pk = format!("{key}.points");
        let span = Some(c.points.span());
        let raw_points = c.points.get_ref();
        if raw_points.is_empty() {
            return ctx.err(span, pk, "needs at least one point [t, v]");
        }
        let mut points = Vec::with_capacity(raw_points.len());
        for (k, p) in raw_points.iter().enumerate() {
            if p.len() != 2 || p.iter().any(|v| !v.is_finite()) {
                return ctx.err(
                    span,
                    pk,
                    format!("point {k} must be [t, v] with two finite numbers, got {p:?}"),
                );
            }
            if let Some(&(t_prev, _)) = points.last() {
                if p[0] <= t_prev {
                    return ctx.err(
                        span,
                        pk,
                        format!(
                            "times must increase strictly: point {k} has t = {} after t = {t_prev}",
                            p[0]
                        ),
                    );
                }
            }
            points.push((p[0], p[1]));
        }
        out.push(Curve { name, points });
    }
    Ok(out)
}

/// The index of the curve a `curve = "name"` key names (`key` its dotted path).
pub(super) fn curve_index(
    ctx: &Ctx,
    name: Option<&Spanned<String>>,
    key: &str,
    curves: &[Curve],
) -> Result<Option<usize>, InputError> {
    let Some(name) = name else {
        return Ok(None);
    };
    match curves.iter().position(|c| &c.name == name.get_ref()) {
        Some(i) => Ok(Some(i)),
        None => {
            let names: Vec<&str> = curves.iter().map(|c| c.name.as_str()).collect();
            ctx.err(
                Some(name.span()),
                key,
                format!(
                    "no curve \"{}\" (curves: {}); define it in a [[curve]] with `name` and `points`",
                    name.get_ref(),
                    if names.is_empty() {
                        "none".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            )
        }
    }
}
