//! A cantilever in bending: the beam [0,10]×[0,1]×[0,1] clamped at x = 0
//! under its own weight (E = 1000, ν = 0.3, ρg = 1e-3: linear elasticity, the
//! tangent at rest), meshed by Gmsh (`meshes/make_quadratic_meshes.py`).
//! The tip deflection of tet10 is within 1 % of the converged hex27 one;
//! tet4 at about the same node count locks in bending and is measured
//! (printed, and asserted to be far off, as the reason tet10 is wanted).
//! Euler–Bernoulli with Timoshenko's shear term gives the beam reference
//! `δ = qL⁴/(8EI) + qL²/(2κGA)`, κ = 5/6.

use emcontact::dynamics::System;
use emcontact::fe::kernel::StressEval;
use emcontact::input;
use emcontact::linalg::SparseLu;
use std::path::Path;

const E: f64 = 1000.0;
const NU: f64 = 0.3;
const RHO_G: f64 = 1e-3;
const L: f64 = 10.0;

/// Mean vertical deflection of the tip face.
fn tip_deflection(mesh: &str) -> (f64, usize) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("meshes")
        .join(mesh);
    let text = format!(
        r#"
[problem]
name = "cantilever"
dimension = 3
[time]
dt = 1.0
end = 1.0
[mesh]
file = "{}"
[gravity]
acceleration = [0.0, 0.0, -{RHO_G}]
[[body]]
name = "beam"
group = "beam"
material = {{ model = "svk", young = {E}, poisson = {NU}, density = 1.0 }}
mass = "consistent"
[[boundary]]
group = "root"
fix = ["x", "y", "z"]
"#,
        file.display()
    );
    let model = input::parse(Path::new("cantilever.toml"), &text).unwrap();
    let sys = System::<3>::new(&model).unwrap();
    let n = sys.n_dofs();
    let x: Vec<f64> = sys.xref.iter().flat_map(|p| *p).collect();
    let mut f = vec![0.0; n];
    let mut k = vec![0.0; sys.pattern.nnz()];
    sys.assemble(&x, &x, StressEval::EndPoint, &mut f, Some(&mut k))
        .unwrap();
    sys.apply_fixed(&mut k);
    // the consistent load ∫ ρ N_A g dV of the consistent-mass body
    let mut u = vec![0.0; n];
    sys.gravity_force(&[0.0, 0.0, -RHO_G], &mut u);
    sys.zero_fixed(&mut u);
    let mut lu = SparseLu::new(&sys.pattern).unwrap();
    lu.factorize(&sys.pattern, &k).unwrap();
    lu.solve_in_place(&mut u).unwrap();
    let tip = model.mesh.group_nodes("tip").unwrap();
    let w = -tip.iter().map(|&a| u[a * 3 + 2]).sum::<f64>() / tip.len() as f64;
    (w, sys.n_nodes)
}

#[test]
fn cantilever_tet10_matches_converged_hex27() {
    let i = 1.0 / 12.0;
    let g = E / (2.0 * (1.0 + NU));
    let beam = RHO_G * L.powi(4) / (8.0 * E * i) + RHO_G * L * L / (2.0 * 5.0 / 6.0 * g);
    let (fine, n_fine) = tip_deflection("beam_hex27_fine.msh41b.msh");
    let (hex27, n_hex27) = tip_deflection("beam_hex27.msh41b.msh");
    let (tet10, n_tet10) = tip_deflection("beam_tet10.msh41b.msh");
    let (tet4, n_tet4) = tip_deflection("beam_tet4.msh41b.msh");
    let rel = |w: f64| (w - fine) / fine;
    println!(
        "beam theory (Timoshenko): {beam:.6e} ({:+.2} % from hex27 fine)",
        100.0 * (beam - fine) / fine
    );
    println!("hex27 fine  {n_fine:5} nodes: {fine:.6e}");
    println!(
        "hex27       {n_hex27:5} nodes: {hex27:.6e} ({:+.3} %)",
        100.0 * rel(hex27)
    );
    println!(
        "tet10       {n_tet10:5} nodes: {tet10:.6e} ({:+.3} %)",
        100.0 * rel(tet10)
    );
    println!(
        "tet4        {n_tet4:5} nodes: {tet4:.6e} ({:+.3} %)",
        100.0 * rel(tet4)
    );
    // the reference is converged: the 8× coarser hex27 mesh is 0.2 % off it
    // (with the error falling at least as h², the fine mesh's own error is
    // below 0.06 %)
    assert!(
        rel(hex27).abs() < 5e-3,
        "hex27 coarse vs fine: {:.3e}",
        rel(hex27)
    );
    // and close to the beam: the 3D clamp and Poisson effects are small
    assert!(
        ((beam - fine) / fine).abs() < 0.03,
        "beam theory {beam} vs hex27 {fine}"
    );
    assert!(
        rel(tet10).abs() < 0.01,
        "tet10 {:.3} % off",
        100.0 * rel(tet10)
    );
    // tet4 at about the same node count locks: far stiffer
    assert!(
        (n_tet4 as f64 / n_tet10 as f64 - 1.0).abs() < 0.1,
        "node counts {n_tet4} vs {n_tet10}"
    );
    assert!(
        rel(tet4) < -0.1,
        "tet4 {:.1} % off: expected locking",
        100.0 * rel(tet4)
    );
}
