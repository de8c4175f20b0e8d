//! Rigid masters of `[[contact]]`: `master_plane` (fixed, or moving with a
//! `velocity` or a `displacement` and a `curve`), `master_sphere` and
//! `master_cylinder` (fixed or moving the same way).

use super::curve::curve_index;
use super::raw::{RawCylinder, RawPlane, RawSphere};
use super::{Ctx, InputError};
use crate::curve::Curve;
use crate::model::{MasterSpec, RigidMotion, RigidShape, RigidSpec};
use std::ops::Range;
use toml::Spanned;

/// A unit vector from `v` (key `key`), refusing the zero vector.
fn unit(ctx: &Ctx, v: &Spanned<Vec<f64>>, key: &str, dim: usize) -> Result<[f64; 3], InputError> {
    let x = ctx.vector(v, key, dim)?;
    let len = x.iter().map(|c| c * c).sum::<f64>().sqrt();
    if len == 0.0 {
        return ctx.err(Some(v.span()), key, "must not be the zero vector");
    }
    Ok(x.map(|c| c / len))
}

/// The motion keys shared by every rigid master.
struct MotionKeys<'a> {
    velocity: &'a Option<Spanned<Vec<f64>>>,
    displacement: &'a Option<Spanned<Vec<f64>>>,
    curve: &'a Option<Spanned<String>>,
    span: Range<usize>,
}

fn motion(
    ctx: &Ctx,
    m: MotionKeys,
    key: &str,
    dim: usize,
    curves: &[Curve],
) -> Result<(RigidMotion, Option<Curve>), InputError> {
    let motion = match (m.velocity, m.displacement) {
        (Some(_), Some(d)) => {
            return ctx.err(
                Some(d.span()),
                format!("{key}.displacement"),
                "give either `velocity` or `displacement`, not both",
            )
        }
        (Some(v), None) => RigidMotion::Velocity(ctx.vector(v, &format!("{key}.velocity"), dim)?),
        (None, Some(d)) => {
            RigidMotion::Displacement(ctx.vector(d, &format!("{key}.displacement"), dim)?)
        }
        (None, None) => RigidMotion::Fixed,
    };
    let curve = curve_index(ctx, m.curve.as_ref(), &format!("{key}.curve"), curves)?;
    if let (Some(c), RigidMotion::Fixed) = (m.curve, motion) {
        return ctx.err(
            Some(c.span()),
            format!("{key}.curve"),
            "a curve scales a `velocity` or `displacement`; this rigid master has neither",
        );
    }
    if let (None, RigidMotion::Displacement(_)) = (curve, motion) {
        return ctx.err(
            Some(m.span),
            format!("{key}.curve"),
            "a `displacement` needs a `curve` (a constant displacement would move the master at t = 0 already: move its `point` or `center` instead)",
        );
    }
    Ok((motion, curve.map(|i| curves[i].clone())))
}

pub(super) fn plane(
    ctx: &Ctx,
    p: &Spanned<RawPlane>,
    key: &str,
    dim: usize,
    curves: &[Curve],
) -> Result<MasterSpec, InputError> {
    let raw = p.get_ref();
    let point = ctx.vector(&raw.point, &format!("{key}.point"), dim)?;
    let normal = unit(ctx, &raw.normal, &format!("{key}.normal"), dim)?;
    let keys = MotionKeys {
        velocity: &raw.velocity,
        displacement: &raw.displacement,
        curve: &raw.curve,
        span: p.span(),
    };
    let (motion, curve) = motion(ctx, keys, key, dim, curves)?;
    if motion == RigidMotion::Fixed {
        // a fixed plane keeps the plane kinematics it always had
        return Ok(MasterSpec::Plane { point, normal });
    }
    Ok(MasterSpec::Rigid(RigidSpec {
        shape: RigidShape::Plane { point, normal },
        motion,
        curve,
    }))
}

pub(super) fn sphere(
    ctx: &Ctx,
    s: &Spanned<RawSphere>,
    key: &str,
    dim: usize,
    curves: &[Curve],
) -> Result<MasterSpec, InputError> {
    let raw = s.get_ref();
    let center = ctx.vector(&raw.center, &format!("{key}.center"), dim)?;
    let radius = ctx.positive(&raw.radius, &format!("{key}.radius"))?;
    let keys = MotionKeys {
        velocity: &raw.velocity,
        displacement: &raw.displacement,
        curve: &raw.curve,
        span: s.span(),
    };
    let (motion, curve) = motion(ctx, keys, key, dim, curves)?;
    Ok(MasterSpec::Rigid(RigidSpec {
        shape: RigidShape::Sphere { center, radius },
        motion,
        curve,
    }))
}

pub(super) fn cylinder(
    ctx: &Ctx,
    c: &Spanned<RawCylinder>,
    key: &str,
    dim: usize,
    curves: &[Curve],
) -> Result<MasterSpec, InputError> {
    if dim == 2 {
        return ctx.err(
            Some(c.span()),
            key,
            "in 2D a cylinder along z is a circle: use master_sphere = { center, radius }",
        );
    }
    let raw = c.get_ref();
    let point = ctx.vector(&raw.point, &format!("{key}.point"), dim)?;
    let axis = unit(ctx, &raw.axis, &format!("{key}.axis"), dim)?;
    let radius = ctx.positive(&raw.radius, &format!("{key}.radius"))?;
    let keys = MotionKeys {
        velocity: &raw.velocity,
        displacement: &raw.displacement,
        curve: &raw.curve,
        span: c.span(),
    };
    let (motion, curve) = motion(ctx, keys, key, dim, curves)?;
    Ok(MasterSpec::Rigid(RigidSpec {
        shape: RigidShape::Cylinder {
            point,
            axis,
            radius,
        },
        motion,
        curve,
    }))
}
