//! TOML input in two stages (STYLE item 6): `raw` deserializes the file as
//! written, rejecting unknown keys; `load` checks every value and builds a
//! `Model`. Every error names the file, the key and, where known, the line.
//! Relative paths in the file are relative to the file's directory.
//! The keys are documented once, in [`KEYS`], which `docs/input.md` reproduces.

mod body;
mod boundary;
pub mod budget;
mod contact;
mod curve;
mod generate;
mod keys;
mod load;
mod raw;
mod rigid;

use body::build_body;
use contact::{build_contact, contact_warnings};
use generate::{fits, generate};

use budget::Size;

pub use keys::{markdown, KEYS};

use crate::linalg::LinearMethod;
use crate::mesh::{self, Mesh};
use crate::model::{
    ContactSystem, Integrator, Model, OutputParams, SolverParams, TimeParams, Warning,
};
use raw::*;
use std::ops::Range;
use std::path::{Path, PathBuf};
use toml::Spanned;

/// Default `contact.tolerance` (relative to the face size): the exact and
/// augmented-Lagrangian Newton converges quadratically, so the law is met to
/// far below any physical scale at the cost of about one iteration.
pub const DEFAULT_CONTACT_TOLERANCE: f64 = 1e-10;

/// A problem with an input file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{}: {}{message}", file.display(), line.map(|l| format!(", line {l}")).unwrap_or_default(), if key.is_empty() { String::new() } else { format!("{key}: ") })]
pub struct InputError {
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// Dotted key path, e.g. `body[1].material.young` (empty for syntax errors).
    pub key: String,
    pub message: String,
}

/// Context for error construction: the file and its text.
struct Ctx<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn line_of(&self, span: Range<usize>) -> usize {
        self.text[..span.start.min(self.text.len())]
            .matches('\n')
            .count()
            + 1
    }

    fn err<T>(
        &self,
        span: Option<Range<usize>>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Result<T, InputError> {
        Err(InputError {
            file: self.file.to_path_buf(),
            line: span.map(|s| self.line_of(s)),
            key: key.into(),
            message: message.into(),
        })
    }

    fn positive(&self, v: &Spanned<f64>, key: &str) -> Result<f64, InputError> {
        let x = *v.get_ref();
        if !(x > 0.0 && x.is_finite()) {
            return self.err(
                Some(v.span()),
                key,
                format!("must be a positive number, got {x}"),
            );
        }
        Ok(x)
    }

    fn count(&self, v: &Spanned<i64>, key: &str, min: i64) -> Result<usize, InputError> {
        let x = *v.get_ref();
        if x < min {
            return self.err(
                Some(v.span()),
                key,
                format!("must be an integer ≥ {min}, got {x}"),
            );
        }
        Ok(x as usize)
    }

    fn vector(&self, v: &Spanned<Vec<f64>>, key: &str, len: usize) -> Result<[f64; 3], InputError> {
        let x = v.get_ref();
        if x.len() != len {
            return self.err(
                Some(v.span()),
                key,
                format!("expected {len} components, got {}", x.len()),
            );
        }
        if x.iter().any(|c| !c.is_finite()) {
            return self.err(Some(v.span()), key, "components must be finite");
        }
        let mut out = [0.0; 3];
        out[..len].copy_from_slice(x);
        Ok(out)
    }

    fn path(&self, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.file.parent().unwrap_or(Path::new(".")).join(p)
        }
    }
}

/// Reads, checks and builds the model of `path`.
pub fn load(path: &Path) -> Result<Model, InputError> {
    let text = std::fs::read_to_string(path).map_err(|e| InputError {
        file: path.to_path_buf(),
        line: None,
        key: String::new(),
        message: format!("cannot read the input file: {e}"),
    })?;
    parse(path, &text)
}

/// Checks and builds the model from `text` (as if read from `path`).
pub fn parse(path: &Path, text: &str) -> Result<Model, InputError> {
    let ctx = Ctx { file: path, text };
    let raw: RawInput = toml::from_str(text).map_err(|e| InputError {
        file: path.to_path_buf(),
        line: e.span().map(|s| ctx.line_of(s)),
        key: String::new(),
        // serde names Rust types; say what the file should hold
        message: e
            .message()
            .trim()
            .replace("expected i64", "expected an integer")
            .replace("expected f64", "expected a number"),
    })?;
    build(&ctx, raw)
}

fn build(ctx: &Ctx, raw: RawInput) -> Result<Model, InputError> {
    // [problem]
    let name = raw.problem.name.get_ref().trim().to_string();
    if name.is_empty() || name.contains(['/', '\\']) {
        return ctx.err(
            Some(raw.problem.name.span()),
            "problem.name",
            "must be a non-empty name without path separators",
        );
    }
    let dim = match *raw.problem.dimension.get_ref() {
        2 => 2,
        3 => 3,
        d => {
            return ctx.err(
                Some(raw.problem.dimension.span()),
                "problem.dimension",
                format!("must be 2 (plane strain) or 3, got {d}"),
            )
        }
    };

    // [time]
    let dt = ctx.positive(&raw.time.dt, "time.dt")?;
    let end = ctx.positive(&raw.time.end, "time.end")?;
    let integrator = match raw
        .time
        .integrator
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("energy-momentum", _)) => {
            for (k, v) in [
                ("time.beta", &raw.time.beta),
                ("time.gamma", &raw.time.gamma),
            ] {
                if let Some(v) = v {
                    return ctx.err(Some(v.span()), k, "only used with integrator = \"newmark\"");
                }
            }
            Integrator::EnergyMomentum
        }
        Some(("newmark", _)) => {
            let beta = raw
                .time
                .beta
                .as_ref()
                .map(|b| ctx.positive(b, "time.beta"))
                .transpose()?
                .unwrap_or(0.25);
            let gamma = match &raw.time.gamma {
                Some(g) if !(*g.get_ref() >= 0.0 && g.get_ref().is_finite()) => {
                    return ctx.err(
                        Some(g.span()),
                        "time.gamma",
                        format!("must be ≥ 0, got {}", g.get_ref()),
                    )
                }
                Some(g) => *g.get_ref(),
                None => 0.5,
            };
            Integrator::Newmark { beta, gamma }
        }
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                "time.integrator",
                format!("expected \"energy-momentum\" or \"newmark\", got \"{other}\""),
            )
        }
    };

    // [solver]
    let tolerance = raw
        .solver
        .tolerance
        .as_ref()
        .map(|t| ctx.positive(t, "solver.tolerance"))
        .transpose()?
        .unwrap_or(1e-10);
    let max_iterations = raw
        .solver
        .max_iterations
        .as_ref()
        .map(|v| ctx.count(v, "solver.max_iterations", 1))
        .transpose()?
        .unwrap_or(25);
    let max_cutbacks = raw
        .solver
        .max_cutbacks
        .as_ref()
        .map(|v| ctx.count(v, "solver.max_cutbacks", 0))
        .transpose()?
        .unwrap_or(5);
    if max_cutbacks > 30 {
        let v = raw.solver.max_cutbacks.as_ref().expect("set");
        return ctx.err(
            Some(v.span()),
            "solver.max_cutbacks",
            "must be at most 30 (dt / 2^30 is already below any sensible step)",
        );
    }

    let linear = match raw
        .solver
        .linear
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("auto", _)) => LinearMethod::Auto,
        Some(("direct", _)) => LinearMethod::Direct,
        Some(("iterative", _)) => LinearMethod::Iterative,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                "solver.linear",
                format!("expected \"direct\", \"iterative\" or \"auto\", got \"{other}\""),
            )
        }
    };

    let contact_system = match raw
        .solver
        .contact_system
        .as_ref()
        .map(|s| (s.get_ref().as_str(), s.span()))
    {
        None | Some(("auto", _)) => ContactSystem::Auto,
        Some(("condensed", _)) => ContactSystem::Condensed,
        Some(("saddle", _)) => ContactSystem::Saddle,
        Some((other, span)) => {
            return ctx.err(
                Some(span),
                "solver.contact_system",
                format!("expected \"auto\", \"condensed\" or \"saddle\", got \"{other}\""),
            )
        }
    };

    let adaptive = raw.time.adaptive.as_ref().map_or(true, |a| *a.get_ref());
    let dt_min = match &raw.time.dt_min {
        Some(v) => {
            let m = ctx.positive(v, "time.dt_min")?;
            if m > dt {
                return ctx.err(
                    Some(v.span()),
                    "time.dt_min",
                    format!("must not exceed time.dt = {dt}, got {m}"),
                );
            }
            m
        }
        None => dt / (1u64 << max_cutbacks) as f64,
    };

    // [output]
    let dir = match &raw.output.dir {
        Some(d) => ctx.path(d.get_ref()),
        None => ctx.path(&format!("out/{name}")),
    };
    let every = raw
        .output
        .every
        .as_ref()
        .map(|v| ctx.count(v, "output.every", 1))
        .transpose()?
        .unwrap_or(10);
    let contact_problems = raw
        .output
        .contact_problems
        .as_ref()
        .is_some_and(|v| *v.get_ref())
        .then(|| dir.join("contact_problems"));
    let checkpoint_every = raw
        .output
        .checkpoint_every
        .as_ref()
        .map(|v| ctx.count(v, "output.checkpoint_every", 0))
        .transpose()?
        .unwrap_or(100);
    let checkpoint_minutes = raw
        .output
        .checkpoint_minutes
        .as_ref()
        .map(|v| ctx.count(v, "output.checkpoint_minutes", 0))
        .transpose()?
        .unwrap_or(30);

    // [mesh]
    let mesh = build_mesh(ctx, raw.mesh.as_ref(), dim)?;

    // [[body]]
    if raw.body.is_empty() {
        return ctx.err(None, "body", "at least one [[body]] is required");
    }
    let mut bodies = Vec::new();
    for (i, b) in raw.body.iter().enumerate() {
        bodies.push(build_body(ctx, b, i, dim, &mesh, &bodies)?);
    }

    // [[curve]], before everything that names a curve
    let curves = curve::build_curves(ctx, &raw.curve)?;

    // [[boundary]]
    let mut boundaries = Vec::new();
    for (i, b) in raw.boundary.iter().enumerate() {
        boundaries.push(boundary::build_boundary(ctx, b, i, dim, &mesh, &curves)?);
    }

    // [[load]]
    let mut loads = Vec::new();
    for (i, l) in raw.load.iter().enumerate() {
        loads.push(load::build_load(ctx, l, i, dim, &mesh, &curves)?);
    }

    // [gravity]
    let gravity = match &raw.gravity {
        Some(g) => ctx.vector(&g.acceleration, "gravity.acceleration", dim)?,
        None => [0.0; 3],
    };

    // [[contact]]
    let mut contacts = Vec::new();
    for (i, c) in raw.contact.iter().enumerate() {
        contacts.push(build_contact(ctx, c, i, dim, &mesh, &curves)?);
    }

    let mut warnings = Vec::new();
    if let Some(t) = &raw.solver.tolerance {
        if tolerance < 1e-13 {
            warnings.push(Warning {
                key: "solver.tolerance".into(),
                line: Some(ctx.line_of(t.span())),
                message: format!(
                    "{tolerance:e} is below what double precision reaches (about 1e-13 of the force scale); Newton stops at the round-off floor instead (a correction below 1e-14 of the positions)"
                ),
            });
        }
    }
    for (i, (c, spec)) in raw.contact.iter().zip(&contacts).enumerate() {
        contact_warnings(ctx, c, spec, i, integrator, &mut warnings);
    }
    boundary::overlap_warnings(ctx, &raw.boundary, &boundaries, &mesh, &mut warnings);
    let petsc_options = raw
        .solver
        .petsc_options
        .as_ref()
        .map(|o| o.get_ref().trim().to_string());
    // the parallel program (`emcontact-mpi`) drops this warning
    if let Some(o) = &raw.solver.petsc_options {
        warnings.push(Warning {
            key: "solver.petsc_options".into(),
            line: Some(ctx.line_of(o.span())),
            message: "has no effect in this build: PETSc solves only in the parallel program, emcontact-mpi (docs/parallel.md)".into(),
        });
    }

    mesh.check_elements().map_err(|e| InputError {
        file: ctx.file.to_path_buf(),
        line: None,
        key: "mesh".into(),
        message: e.to_string(),
    })?;

    Ok(Model {
        name,
        dim,
        time: TimeParams {
            dt,
            end,
            integrator,
            adaptive,
            dt_min,
        },
        solver: SolverParams {
            tolerance,
            max_iterations,
            max_cutbacks,
            linear,
            contact_system,
        },
        output: OutputParams {
            dir,
            every,
            contact_problems,
            checkpoint_every,
            checkpoint_minutes,
        },
        mesh,
        bodies,
        boundaries,
        gravity,
        contacts,
        curves,
        loads,
        source: ctx.file.to_path_buf(),
        warnings,
        petsc_options,
    })
}

fn missing_group(name: &str, mesh: &Mesh) -> String {
    let names: Vec<&str> = mesh.groups.iter().map(|g| g.name.as_str()).collect();
    format!(
        "no group \"{name}\" in the mesh (groups: {})",
        if names.is_empty() {
            "none".into()
        } else {
            names.join(", ")
        }
    )
}

fn build_mesh(ctx: &Ctx, raw: Option<&RawMesh>, dim: usize) -> Result<Mesh, InputError> {
    let Some(raw) = raw else {
        return ctx.err(
            None,
            "mesh",
            "a [mesh] table with `file` and/or [[mesh.generate]] is required",
        );
    };
    let mut mesh = Mesh {
        dim,
        ..Mesh::default()
    };
    let mut planned = Size::default();
    if let Some(f) = &raw.file {
        let path = ctx.path(f.get_ref());
        let m = mesh::read(&path, dim).map_err(|e| InputError {
            file: ctx.file.to_path_buf(),
            line: Some(ctx.line_of(f.span())),
            key: "mesh.file".into(),
            message: e.to_string(),
        })?;
        let n_el: usize = m.groups.iter().map(|g| g.elements.len()).sum();
        planned = Size {
            nodes: m.nodes.len() as f64,
            elements: n_el as f64,
            per_element: if dim == 3 { 8.0 } else { 4.0 },
        };
        fits(ctx, planned, dim, Some(f.span()), "mesh.file")?;
        mesh = m;
    }
    for (i, g) in raw.generate.iter().enumerate() {
        let key = format!("mesh.generate[{i}]");
        let part = generate(ctx, g, &key, dim, &mut planned)?;
        mesh.append(part).map_err(|e| InputError {
            file: ctx.file.to_path_buf(),
            line: Some(ctx.line_of(g.name.span())),
            key: format!("{key}.name"),
            message: e.to_string(),
        })?;
    }
    if raw.file.is_none() && raw.generate.is_empty() {
        return ctx.err(
            None,
            "mesh",
            "give `file` or at least one [[mesh.generate]]",
        );
    }
    Ok(mesh)
}
