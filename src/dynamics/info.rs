//! Model statistics printed by `emcontact check`.

use crate::fe::kernel;
use crate::linalg::{plan, BlockPattern, LinearParams, LinearPlan, LinearSolveError};
use crate::model::Model;

/// Sizes, mass and the explicit stable time step of a model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    pub nodes: usize,
    pub elements: usize,
    pub dofs: usize,
    /// Per body: (name, elements, mass).
    pub bodies: Vec<(String, usize, f64)>,
    /// `min_e h_e / c_e`, `c = √((λ+2μ)/ρ)` (the explicit central-difference limit).
    pub stable_dt: f64,
}

/// Computes `ModelInfo`; fails on a degenerate reference element.
pub fn model_info(model: &Model) -> Result<ModelInfo, kernel::KernelError> {
    match model.dim {
        2 => info_dim::<2>(model),
        _ => info_dim::<3>(model),
    }
}

fn info_dim<const D: usize>(model: &Model) -> Result<ModelInfo, kernel::KernelError> {
    let mut bodies = Vec::new();
    let mut stable_dt = f64::INFINITY;
    let mut used = vec![false; model.mesh.nodes.len()];
    let mut n_el = 0;
    for body in &model.bodies {
        let group = model
            .mesh
            .group(&body.group)
            .expect("input checked the group");
        let c = (body.material.p_wave_modulus() / body.density).sqrt();
        let mut mass = 0.0;
        for e in &group.elements {
            let mut xr = [[0.0; 3]; crate::fe::MAX_NODES];
            for (k, &a) in e.nodes().iter().enumerate() {
                xr[k] = model.mesh.nodes[a];
                used[a] = true;
            }
            let n = e.nodes().len();
            mass += body.density * kernel::volume::<D>(e.kind, &xr[..n])?;
            stable_dt = stable_dt.min(kernel::characteristic_length::<D>(e.kind, &xr[..n]) / c);
        }
        n_el += group.elements.len();
        bodies.push((body.name.clone(), group.elements.len(), mass));
    }
    let nodes = used.iter().filter(|&&u| u).count();
    Ok(ModelInfo {
        nodes,
        elements: n_el,
        dofs: nodes * D,
        bodies,
        stable_dt,
    })
}

/// The linear solver `emcontact run` would use for `model`, with the
/// memory estimate of a direct factorization (on the element couplings;
/// contact couplings come on top at run time). A `direct` request whose
/// factors would not fit in the available memory is an error.
pub fn linear_plan(model: &Model) -> Result<LinearPlan, LinearSolveError> {
    let mut lists: Vec<&[usize]> = Vec::new();
    for body in &model.bodies {
        let group = model
            .mesh
            .group(&body.group)
            .expect("input checked the group");
        lists.extend(group.elements.iter().map(|e| e.nodes()));
    }
    let nodes = BlockPattern::new(model.mesh.nodes.len(), 1, lists);
    let params = LinearParams {
        method: model.solver.linear,
        ..Default::default()
    };
    plan(nodes.node_graph(), model.dim, &params)
}
