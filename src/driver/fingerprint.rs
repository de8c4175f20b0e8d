//! The fingerprint of a validated model, for `--restart`: one digest per
//! input key (and one for the mesh), so that a restart can refuse a model
//! that changed and name the first key that did. Only `time.end` and the
//! `output` keys may change between a run and its restart (the README's
//! promise); everything else changes the computation.
//!
//! A key's digest is the 64-bit FNV-1a hash of its value as the validated
//! model holds it (`Debug`, which writes every `f64` in its shortest
//! round-trip form, so two values hash alike only if they are equal); FNV
//! rather than the standard hasher because its output is fixed by its
//! definition, not by the Rust release that wrote the checkpoint.

use crate::model::Model;

/// FNV-1a, 64 bits.
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= b as u64;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn digest(v: &impl std::fmt::Debug) -> u64 {
    fnv(format!("{v:?}").as_bytes())
}

/// `(key, digest)` of every key of `model` that a restart must not change,
/// in input order.
pub fn fingerprint(model: &Model) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = Vec::new();
    let mut add = |k: String, h: u64| out.push((k, h));
    add("problem.name".into(), digest(&model.name));
    add("problem.dimension".into(), digest(&model.dim));
    let t = &model.time;
    add("time.dt".into(), digest(&t.dt));
    add("time.integrator".into(), digest(&t.integrator));
    add("time.adaptive".into(), digest(&t.adaptive));
    add("time.dt_min".into(), digest(&t.dt_min));
    let s = &model.solver;
    add("solver.tolerance".into(), digest(&s.tolerance));
    add("solver.max_iterations".into(), digest(&s.max_iterations));
    add("solver.max_cutbacks".into(), digest(&s.max_cutbacks));
    add("solver.linear".into(), digest(&s.linear));
    // the mesh: positions bit for bit, then the groups
    let mut bytes = Vec::with_capacity(model.mesh.nodes.len() * 24);
    for p in &model.mesh.nodes {
        p.iter()
            .for_each(|c| bytes.extend_from_slice(&c.to_bits().to_le_bytes()));
    }
    bytes.extend_from_slice(format!("{:?}", model.mesh.groups).as_bytes());
    add("mesh".into(), fnv(&bytes));
    for (i, b) in model.bodies.iter().enumerate() {
        add(format!("body[{i}].name"), digest(&b.name));
        add(format!("body[{i}].group"), digest(&b.group));
        add(
            format!("body[{i}].material"),
            digest(&(b.material, b.density)),
        );
        add(format!("body[{i}].velocity"), digest(&b.velocity));
        add(
            format!("body[{i}].angular_velocity"),
            digest(&b.angular_velocity),
        );
        add(format!("body[{i}].mass"), digest(&b.mass));
    }
    add("boundary".into(), digest(&model.boundaries.len()));
    for (i, b) in model.boundaries.iter().enumerate() {
        add(format!("boundary[{i}].group"), digest(&b.group));
        add(format!("boundary[{i}].fix"), digest(&b.fix));
        add(
            format!("boundary[{i}].displacement/velocity"),
            digest(&b.drive),
        );
        add(format!("boundary[{i}].rotation"), digest(&b.rotation));
        add(format!("boundary[{i}].curve"), digest(&b.curve));
    }
    add("gravity.acceleration".into(), digest(&model.gravity));
    add("contact".into(), digest(&model.contacts.len()));
    for (i, c) in model.contacts.iter().enumerate() {
        add(format!("contact[{i}].slave"), digest(&c.slave));
        add(format!("contact[{i}].master"), digest(&c.master));
        add(format!("contact[{i}].friction"), digest(&c.friction));
        add(format!("contact[{i}].enforcement"), digest(&c.enforcement));
        add(format!("contact[{i}].penalty"), digest(&c.penalty));
        add(
            format!("contact[{i}].tangential_penalty"),
            digest(&c.tangential_penalty),
        );
        add(format!("contact[{i}].tolerance"), digest(&c.tolerance));
        add(
            format!("contact[{i}].velocity_update"),
            digest(&c.velocity_update),
        );
        add(format!("contact[{i}].solver"), digest(&c.solver));
        add(format!("contact[{i}].tangent"), digest(&c.tangent));
        add(format!("contact[{i}].passes"), digest(&c.passes));
        add(
            format!("contact[{i}].initial_overlap"),
            digest(&c.initial_overlap),
        );
    }
    add("curve".into(), digest(&model.curves.len()));
    for (i, c) in model.curves.iter().enumerate() {
        add(format!("curve[{i}].name"), digest(&c.name));
        add(format!("curve[{i}].points"), digest(&c.points));
    }
    add("load".into(), digest(&model.loads.len()));
    for (i, l) in model.loads.iter().enumerate() {
        add(format!("load[{i}].group"), digest(&l.group));
        add(
            format!("load[{i}].pressure/traction/force"),
            digest(&l.kind),
        );
        add(format!("load[{i}].curve"), digest(&l.curve));
    }
    out
}

/// The first key whose digest differs between `written` (a checkpoint's)
/// and `now`, or that only one of them has.
pub fn first_difference<'a>(
    written: &'a [(String, u64)],
    now: &'a [(String, u64)],
) -> Option<&'a str> {
    for (k, h) in now {
        match written.iter().find(|(w, _)| w == k) {
            Some((_, hw)) if hw == h => {}
            _ => return Some(k),
        }
    }
    written
        .iter()
        .find(|(w, _)| !now.iter().any(|(k, _)| k == w))
        .map(|(k, _)| k.as_str())
}
