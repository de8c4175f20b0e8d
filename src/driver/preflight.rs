//! What `emcontact check` prints and what `run` prints first: the model's
//! size, mass, stable step, penalties, estimates of memory and time per
//! step, and warnings (the input's own, see [`crate::model::Warning`], and
//! the model's: a step far above the stable step, a penalty taken from a much
//! stiffer body, meshed regions that are no body, a run that needs most of
//! the machine's memory); errors for contact surfaces that start inside the
//! other body, notes for the nodes `initial_overlap = "adjust"` will move.

use super::contact_budget::{condensed_bytes, ContactBudget};
use crate::contact::enforce::{Method, DEFAULT_SOLVER};
use crate::contact::pair::penalty_factor;
use crate::contact::{overlap, ContactSet};
use crate::dynamics::model_info;
use crate::input::budget::{self, Size};
use crate::model::{Enforcement, MasterSpec, Model};

/// A model's figures and warnings.
#[derive(Debug, Clone, Default)]
pub struct Preflight {
    /// Lines describing the model.
    pub info: Vec<String>,
    /// Warnings, each one line naming the file and the key.
    pub warnings: Vec<String>,
    /// What the run will change before its first step (nodes moved by
    /// `initial_overlap = "adjust"`); `check` and `run` print them.
    pub notes: Vec<String>,
}

/// Time steps above this many stable explicit steps get a warning.
pub const DT_WARN_RATIO: f64 = 100.0;

/// Checks `model` (built by `input::load`). Errors (a degenerate element, a
/// contact surface that cannot be used) are messages naming the file.
pub fn preflight(model: &Model) -> Result<Preflight, String> {
    let file = model.source.display().to_string();
    let mut p = Preflight::default();
    for w in &model.warnings {
        let line = w.line.map(|l| format!(", line {l}")).unwrap_or_default();
        p.warnings
            .push(format!("{file}{line}: {}: {}", w.key, w.message));
    }
    let info = model_info(model).map_err(|e| format!("{file}: mesh: {e}"))?;
    p.info.push(format!(
        "{file}: {}D, {} body(ies)",
        model.dim,
        model.bodies.len()
    ));
    for (name, n, m) in &info.bodies {
        p.info
            .push(format!("  body {name}: {n} elements, mass {m:.6e}"));
    }
    let total: f64 = info.bodies.iter().map(|b| b.2).sum();
    p.info.push(format!(
        "nodes {}  elements {}  dofs {}  total mass {total:.6e}",
        info.nodes, info.elements, info.dofs
    ));
    let ratio = model.time.dt / info.stable_dt;
    p.info.push(format!(
        "stable explicit dt ≈ {:.4e}; dt = {:.4e} is {ratio:.1}× that",
        info.stable_dt, model.time.dt
    ));
    if ratio > DT_WARN_RATIO {
        let what = format!(
            "time.dt: {:.4e} is {ratio:.0}× the explicit stable step {:.3e}: the implicit scheme stays stable, but waves shorter than about {ratio:.0} element lengths are not resolved",
            model.time.dt, info.stable_dt
        );
        if model.contacts.is_empty() {
            // free motion: large steps are what the energy-momentum scheme is for
            p.info.push(format!("note: {what}"));
        } else {
            p.warnings.push(format!(
                "{file}: {what}, an impact is spread over few steps and Newton may need cut-backs; the validation cases use at most about 15×"
            ));
        }
    }
    let size = Size {
        nodes: info.nodes as f64,
        elements: info.elements as f64,
        per_element: if model.dim == 3 { 8.0 } else { 4.0 },
    };
    memory(model, size, &file, &mut p)?;
    no_body_warnings(model, &file, &mut p.warnings);
    contacts(model, &file, &mut p)?;
    let resolved = overlap::resolve(model).map_err(|e| e.to_string())?;
    p.notes
        .extend(resolved.moved.iter().map(|m| format!("{file}: {m}")));
    p.info
        .push(format!("output: {}", model.output.dir.display()));
    Ok(p)
}

/// The memory lines: the run's estimate with contact's share, the linear
/// solver's plan, the contact line ([`super::contact_budget`]); an error
/// naming the keys to change when the estimate exceeds the memory
/// available ([`crate::linalg::available_memory`]), a warning above half
/// the machine.
fn memory(model: &Model, size: Size, file: &str, p: &mut Preflight) -> Result<(), String> {
    let bodies = budget::run_bytes_with(model.dim, size, model.solver.linear);
    // the linear solver's choice, from the elimination tree of this mesh's node graph
    let plan =
        crate::dynamics::linear_plan(model).map_err(|e| format!("{file}: solver.linear: {e}"))?;
    let contact = super::contact_budget::contact_budget(model, &plan)
        .map_err(|e| format!("{file}: contact: {e}"))?;
    let extra = contact.as_ref().map_or(0.0, |c| c.bytes);
    let need = bodies + extra;
    let have = budget::machine_bytes();
    let free = budget::seconds_per_step(model.dim, size, model.solver.linear);
    p.info.push(format!(
        "estimated memory {}{} (this machine has {}); rough time per step {:.2e} s (one core, ten Newton iterations)",
        budget::human(need),
        match contact {
            Some(_) => format!(", contact {} of it", budget::human(extra)),
            None => String::new(),
        },
        have.map_or("an unknown amount".into(), budget::human),
        free
    ));
    let iterative = plan.method == crate::linalg::LinearMethod::Iterative;
    p.info.push(format!(
        "linear solver: {}; direct factors ≈ {} ({} available)",
        match (iterative, contact.as_ref().map(|c| c.method)) {
            (true, Some(Method::Saddle)) =>
                "iterative (GMRES, block Jacobi: node blocks, each contact point's multipliers in one block with its slave node)".to_string(),
            (true, _) => "iterative (GMRES, node-block Jacobi)".to_string(),
            _ => format!(
                "direct (symmetric-pattern LU, {:?} ordering)",
                plan.ordering
            ),
        },
        budget::human(plan.factor_bytes),
        budget::human(plan.available)
    ));
    if let Some(c) = &contact {
        p.info.push(contact_line(c, iterative));
        if let Some(line) = contact_time_line(c, iterative, free) {
            p.info.push(line);
        }
        if iterative && c.method == Method::Condensed {
            p.warnings.push(format!(
                "{file}: solver.contact_system: \"condensed\" with [solver] linear on the iterative path builds W with one GMRES solve per contact unknown ({} of them) at every contact Newton iteration; set [solver] contact_system = \"saddle\" (or \"auto\", which takes it on the iterative path), or linear = \"direct\" if the factors fit",
                c.unknowns
            ));
        }
        if need > plan.available {
            return Err(refusal(c, need, plan.available, file));
        }
    }
    if let Some(h) = have {
        if need > 0.5 * h {
            p.warnings.push(format!(
                "{file}: mesh: the run needs an estimated {} of the machine's {}",
                budget::human(need),
                budget::human(h)
            ));
        }
    }
    Ok(())
}

/// `contact step ≈ …`: the rough CPU of a contact step
/// ([`budget::contact_step_seconds`]) on the direct path (`None` on the
/// iterative path: no factors to count).
fn contact_time_line(c: &ContactBudget, iterative: bool, free: f64) -> Option<String> {
    if iterative || c.factor_flops <= 0.0 {
        return None;
    }
    let size = budget::ContactStepSize {
        saddle: c.method == Method::Saddle,
        unknowns: c.unknowns,
        factor_flops: c.factor_flops,
        factor_bytes: c.factor_bytes,
    };
    let params = budget::ContactStepParams::default();
    let [low, high] = budget::contact_step_seconds(size, free, &params);
    Some(format!(
        "contact step ≈ {}–{} s, a rough range (one core; {} LU {:.2e} flops, {:.1}× the bodies'); a first-contact step that is cut back costs about {:.0}× ({}–{} s)",
        seconds(low),
        seconds(high),
        match c.method {
            Method::Saddle => "augmented",
            Method::Condensed => "coupled",
        },
        c.factor_flops,
        c.factor_flops / c.bodies_flops.max(1.0),
        params.cut_back,
        seconds(params.cut_back * low),
        seconds(params.cut_back * high)
    ))
}

/// Seconds to two significant figures, thousands grouped (`2,700`).
fn seconds(s: f64) -> String {
    if s < 10.0 {
        return format!("{s:.2}");
    }
    let digits = s.log10().floor() as i32;
    let unit = 10f64.powi((digits - 1).max(0));
    let r = ((s / unit).round() * unit) as u64;
    let text = r.to_string();
    let mut out = String::new();
    for (i, ch) in text.chars().enumerate() {
        if i > 0 && (text.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// `contact memory …`: the points, the path, its bytes.
fn contact_line(c: &ContactBudget, iterative: bool) -> String {
    let path = match c.method {
        Method::Saddle if iterative => {
            "path saddle: iterative, no factors (the augmented matrix and its preconditioner)"
                .to_string()
        }
        Method::Condensed if iterative => format!(
            "path condensed: a dense problem of {} unknowns, W by one iterative solve per unknown",
            c.unknowns
        ),
        Method::Condensed => format!(
            "path condensed: a dense problem of {} unknowns, the bodies' LU with the contact couplings {}",
            c.unknowns,
            budget::human(c.factor_bytes)
        ),
        Method::Saddle => format!(
            "path saddle: augmented LU {}",
            budget::human(c.factor_bytes)
        ),
    };
    format!(
        "contact memory {}: {} slave points may touch (of {} slave nodes); {path}",
        budget::human(c.bytes),
        c.points,
        c.slaves
    )
}

/// The error of a contact model whose run would not fit: the key behind
/// it and what to change.
fn refusal(c: &ContactBudget, need: f64, available: f64, file: &str) -> String {
    let (key, path, what) = match c.method {
        Method::Condensed => (
            "solver.contact_system",
            "condensed",
            format!(
                "set [solver] contact_system = \"saddle\" (no dense problem: the condensed one of {} unknowns takes {}), use a coarser [[contact]] slave surface, or a machine with more memory",
                c.unknowns,
                budget::human(condensed_bytes(c.unknowns, 0))
            ),
        ),
        Method::Saddle => (
            "contact.slave",
            "saddle",
            "use a coarser [[contact]] slave surface (fewer points) or a machine with more memory".to_string(),
        ),
    };
    format!(
        "{file}: {key}: the run with contact needs an estimated {} ({} of it contact: {} slave points may touch, path {path}), more than the {} available; {what}",
        budget::human(need),
        budget::human(c.bytes),
        c.points,
        budget::human(available)
    )
}

/// Body of each mesh node (`None`: no body).
fn node_bodies(model: &Model) -> Vec<Option<usize>> {
    let mut owner = vec![None; model.mesh.nodes.len()];
    for (b, body) in model.bodies.iter().enumerate() {
        if let Some(g) = model.mesh.group(&body.group) {
            for e in &g.elements {
                for &a in e.nodes() {
                    owner[a] = Some(b);
                }
            }
        }
    }
    owner
}

/// Volume groups of the mesh that are no body (their nodes are held fixed).
fn no_body_warnings(model: &Model, file: &str, out: &mut Vec<String>) {
    let used: Vec<&str> = model.bodies.iter().map(|b| b.group.as_str()).collect();
    let owner = node_bodies(model);
    for g in model.mesh.groups.iter().filter(|g| g.dim == model.dim) {
        if used.contains(&g.name.as_str()) {
            continue;
        }
        let contact = model.contacts.iter().any(|c| {
            let touches = |name: &str| {
                model.mesh.group(name).is_some_and(|s| {
                    s.elements
                        .iter()
                        .flat_map(|e| e.nodes())
                        .any(|&a| owner[a].is_none())
                })
            };
            touches(&c.slave) || matches!(&c.master, MasterSpec::Surface(m) if touches(m))
        });
        out.push(format!(
            "{file}: mesh: the {}D group \"{}\" ({} elements) is no body: its nodes are held fixed{}",
            g.dim,
            g.name,
            g.elements.len(),
            if contact {
                ", and a contact surface on it acts as a rigid obstacle (its reaction is the `no_body` row of reactions.csv)"
            } else {
                " and it is not written to the output (add a [[body]] for it, or leave it out of the mesh)"
            }
        ));
    }
}

/// Per pair: sizes, penalties and where they come from; a warning when the
/// default penalty comes from a body much stiffer than the pair's softer one.
fn contacts(model: &Model, file: &str, p: &mut Preflight) -> Result<(), String> {
    let stiff = |b: usize| model.bodies[b].material.p_wave_modulus();
    let stiffness = (0..model.bodies.len()).map(stiff).fold(0.0, f64::max);
    let density = model.bodies.iter().map(|b| b.density).fold(0.0, f64::max);
    let owner = node_bodies(model);
    let body_of = |group: &str| -> Option<usize> {
        let g = model.mesh.group(group)?;
        g.elements
            .iter()
            .flat_map(|e| e.nodes())
            .find_map(|&a| owner[a])
    };
    let set = ContactSet::new(model, model.dim).map_err(|e| format!("{file}: contact: {e}"))?;
    for c in set.pairs() {
        let (eps_n, eps_t) = c.penalties();
        let (tol_abs, drift_bound) = c.tolerances();
        let (i, spec) = (c.input(), &model.contacts[c.input()]);
        let how = match spec.enforcement {
            Enforcement::Exact => format!(
                "exact (solver {})",
                spec.solver.as_deref().unwrap_or(DEFAULT_SOLVER)
            ),
            Enforcement::AugmentedLagrangian => "augmented Lagrangian".to_string(),
            Enforcement::Penalty => {
                let why = if spec.penalty.is_some() {
                    "given".to_string()
                } else {
                    format!(
                        "{} · max((λ+2μ)/h = {:.3e}, 2ρh/Δt² = {:.3e}), h = {:.3e}, from the stiffest body and the densest",
                        penalty_factor(spec.enforcement),
                        stiffness / c.surface().h,
                        2.0 * density * c.surface().h / (model.time.dt * model.time.dt),
                        c.surface().h
                    )
                };
                format!("penalty ε_N = {:.4e} ({why}), ε_T = {:.4e}", eps_n, eps_t)
            }
        };
        let law = if c.has_multipliers() {
            format!(
                ", tolerance {:.3e} (length), drift bound {:.3e} (length)",
                tol_abs, drift_bound
            )
        } else {
            String::new()
        };
        if !c.enforced() {
            p.info.push(format!(
                "contact[{i}] pass 2: depth of {} master nodes in the slave body measured (passes = 1)",
                c.surface().slaves.len()
            ));
            continue;
        }
        p.info.push(format!(
            "contact[{i}]{}: {} slave nodes, {} master faces, μ = {}, {how}{law}",
            if c.pass() == 2 { " pass 2" } else { "" },
            c.surface().slaves.len(),
            c.surface().n_faces(),
            spec.friction,
        ));
        if spec.penalty.is_some() || spec.enforcement != Enforcement::Penalty || c.pass() == 2 {
            continue;
        }
        let soft = [
            Some(spec.slave.as_str()),
            match &spec.master {
                MasterSpec::Surface(m) => Some(m.as_str()),
                MasterSpec::Plane { .. } | MasterSpec::Rigid(_) => None,
            },
        ]
        .into_iter()
        .flatten()
        .filter_map(body_of)
        .map(|b| (stiff(b), b))
        .fold(None, |acc: Option<(f64, usize)>, x| match acc {
            Some(a) if a.0 <= x.0 => Some(a),
            _ => Some(x),
        });
        if let Some((k, b)) = soft {
            let bulk = stiffness / c.surface().h;
            if stiffness > 100.0 * k
                && bulk >= 2.0 * density * c.surface().h / (model.time.dt * model.time.dt)
            {
                p.warnings.push(format!(
                    "{file}: contact[{i}].penalty: the default ε_N = {:.3e} comes from the stiffest body's (λ+2μ) = {:.3e}, {:.0}× that of body \"{}\" in this pair; a penalty that stiff makes the Newton matrices ill-conditioned; consider penalty ≈ {:.3e} (1000·(λ+2μ)/h of the softer body)",
                    eps_n,
                    stiffness,
                    stiffness / k,
                    model.bodies[b].name,
                    1000.0 * k / c.surface().h
                ));
            }
        }
    }
    Ok(())
}
