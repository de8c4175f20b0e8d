//! The fill of the saddle-point path's augmented factorization at a
//! model's first step, from the symbolic analysis alone (no numeric
//! factorization): LU flops and stored entries of the bodies' pattern, of
//! the bodies with the step's contact couplings, and of the augmented
//! pattern (one pseudo-node per point that may touch, anchored after its
//! slave), with both passes' points and with the first pass's alone, plus
//! what the costliest fronts are made of (anchors `s`, pseudo-nodes `p`,
//! other nodes a point may reach `m`, the rest `o`).
//!
//! `cargo run --release --example saddle_fill -- MODEL.toml [ORDERING]`
//! (`metis`, `amd` or `auto`; the model's first step must reach contact,
//! as the contact-scaling family's `--gap 0.03` does:
//! `docs/decisions/anchored-pseudo-nodes.md`).

use emcontact::contact::enforce::saddle::{anchors, augmented_pattern};
use emcontact::contact::ContactSet;
use emcontact::linalg::ordering::OrderConstraints;
use emcontact::linalg::{BlockPattern, FillOrdering, SymbolicFactor};
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let model = emcontact::input::load(Path::new(&args[1])).expect("the model loads");
    let ordering = match args.get(2).map(String::as_str) {
        Some("amd") => FillOrdering::Amd,
        Some("auto") => FillOrdering::Auto,
        _ => FillOrdering::Metis,
    };
    let d = model.dim;
    let n = model.mesh.nodes.len();
    let x = model.mesh.positions(d);
    // each body's initial velocity (the family has no spin), as the run's
    // first step sees it
    let mut v = vec![0.0; n * d];
    let mut lists: Vec<&[usize]> = Vec::new();
    for body in &model.bodies {
        let group = model.mesh.group(&body.group).expect("a body's group");
        for e in &group.elements {
            for &a in e.nodes() {
                v[a * d..a * d + d].copy_from_slice(&body.velocity[..d]);
            }
            lists.push(e.nodes());
        }
    }
    let dt = model.time.dt;
    let set = ContactSet::new(&model, d).expect("the contact pairs");
    let (couplings, _) = set.couplings(&x, &v, dt);
    let reach = set.reach(&x, &v, dt);
    let free = BlockPattern::new(n, d, lists.iter().copied());
    lists.extend(couplings.iter().map(|l| l.as_slice()));
    let coupled = BlockPattern::new(n, d, lists.iter().copied());
    let point_lists: Vec<&[usize]> = reach.iter().map(|(_, _, l)| l.as_slice()).collect();
    let aug = augmented_pattern(&coupled, &point_lists);
    let anchored = anchors(n, &point_lists);
    // the master-face nodes: reached by some point, no anchor
    let mut role = vec!['o'; aug.n_nodes()];
    point_lists
        .iter()
        .flat_map(|l| l[1..].iter())
        .for_each(|&a| role[a] = 'm');
    anchored.iter().for_each(|&(p, a)| {
        role[a] = 's';
        role[p] = 'p';
    });
    println!(
        "{}: {} nodes, {} dofs, {} points, ordering {:?}",
        args[1],
        n,
        n * d,
        reach.len(),
        ordering
    );
    let show = |name: &str, p: &BlockPattern, anchored: &[(usize, usize)]| {
        let t = Instant::now();
        let c = OrderConstraints {
            last: &[],
            anchored,
        };
        let f = SymbolicFactor::with_constraints(p, ordering, None, c).expect("the analysis");
        let s = f.size();
        println!(
            "{name:<28} LU flops {:.3e}  LU entries {:.3e}  ({:.2} s)",
            s.lu_flops,
            s.lu_entries as f64,
            t.elapsed().as_secs_f64()
        );
        fronts(&f, &role, d);
    };
    show("(a) bodies", &free, &[]);
    show("(b) coupled bodies", &coupled, &[]);
    for (name, pass) in [("(c1) first pass only", 0), ("(c2) second pass only", 1)] {
        let some: Vec<&[usize]> = reach
            .iter()
            .filter(|(pair, _, _)| *pair == pass)
            .map(|(_, _, l)| l.as_slice())
            .collect();
        show(
            &format!("{name} ({})", some.len()),
            &augmented_pattern(&coupled, &some),
            &anchors(n, &some),
        );
    }
    // (c3): the first pass's points and the second pass's listed in the
    // file ARGS[3] (their point indices, e.g. those acting on a face at a
    // correction, from the run's debug log)
    if let Some(file) = args.get(3) {
        let text = std::fs::read_to_string(file).expect("the list of second-pass points");
        let keep: Vec<usize> = text
            .split(|c: char| !c.is_ascii_digit())
            .filter_map(|w| w.parse().ok())
            .collect();
        let some: Vec<&[usize]> = reach
            .iter()
            .filter(|(pair, k, _)| *pair == 0 || keep.contains(k))
            .map(|(_, _, l)| l.as_slice())
            .collect();
        show(
            &format!(
                "(c3) first + {} second",
                some.len() - reach.iter().filter(|r| r.0 == 0).count()
            ),
            &augmented_pattern(&coupled, &some),
            &anchors(n, &some),
        );
    }
    show("(c) augmented", &aug, &anchored);
}

/// The five costliest supernodes: columns, rows below, and how many of
/// their nodes are slave (anchor), pseudo, master-face and other nodes.
fn fronts(f: &SymbolicFactor, role: &[char], d: usize) {
    let sn = f.supernodal();
    let (fwd, _) = f.perm();
    let mut cost: Vec<(f64, usize)> = (0..sn.n_supernodes())
        .map(|s| {
            let k = (sn.supernode_end()[s] - sn.supernode_begin()[s]) as f64;
            let p = sn.supernode(s).pattern().len() as f64;
            (k * k * (k / 1.5 + 2.0 * p) + 2.0 * k * p * p, s)
        })
        .collect();
    cost.sort_by(|a, b| b.0.total_cmp(&a.0));
    let total: f64 = cost.iter().map(|c| c.0).sum();
    let line: Vec<String> = cost
        .iter()
        .take(5)
        .map(|&(c, s)| {
            let (b, e) = (sn.supernode_begin()[s], sn.supernode_end()[s]);
            let mut count = [0usize; 4];
            for j in (b..e).step_by(d) {
                let k = "spmo".find(role[fwd[j] / d]).unwrap();
                count[k] += 1;
            }
            format!(
                "{}c+{}r s{} p{} m{} o{} ({:.0} %)",
                e - b,
                sn.supernode(s).pattern().len(),
                count[0],
                count[1],
                count[2],
                count[3],
                100.0 * c / total
            )
        })
        .collect();
    println!("    largest fronts: {}", line.join(" | "));
}
