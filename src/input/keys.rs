//! Every input key, documented once. `emcontact keys` prints this table as the
//! Markdown of `docs/input.md`; a test keeps the two identical.

/// `(key, type and default, meaning)`.
pub const KEYS: &[(&str, &str, &str)] = &[
    ("problem.name", "string, required", "Name of the run; names the `.pvd` and `.vtu` files and the default output directory."),
    ("problem.dimension", "2 or 3, required", "Spatial dimension. 2 is plane strain (unit thickness)."),
    ("time.dt", "number > 0, required", "Time step. May be far above the explicit stable step (`emcontact check` prints both)."),
    ("time.end", "number > 0, required", "End time; the run takes ⌈end/dt⌉ steps (the last one shortened to land on `end`; a remainder below 1e-6·dt is merged into the step before, never taken alone)."),
    ("time.integrator", "\"energy-momentum\" (default) or \"newmark\"", "Energy-momentum conserving midpoint scheme (Simo–Tarnow / Gonzalez), or Newmark for comparison."),
    ("time.adaptive", "true (default) or false", "After a cut-back, grow the step back: ×1.5 after 3 converged steps, never above `dt`; a size that failed is tried again only after 20 converged steps. Steps are cut to land exactly on the output times `k·every·dt` and on `end`. `false`: the rest of the current `dt` interval is finished at the reduced size, then `dt` is tried again. `history.csv` has the `dt` actually taken."),
    ("time.dt_min", "number in (0, dt], default dt / 2^max_cutbacks", "Smallest step a cut-back may reach; a step that fails at this size stops the run (exit 1, files kept)."),
    ("time.beta", "number > 0, default 0.25", "Newmark β (only with `integrator = \"newmark\"`)."),
    ("time.gamma", "number ≥ 0, default 0.5", "Newmark γ (only with `integrator = \"newmark\"`)."),
    ("solver.tolerance", "number > 0, default 1e-10", "Newton stops when ‖R‖ ≤ tolerance · max(‖inertia‖, ‖f_int‖, ‖f_ext‖) and the step's energy error R · (x₁ − x₀) is at most 1e-12 of the step's energy (kinetic plus strain at the step's start, or the largest work of its forces)."),
    ("solver.max_iterations", "integer ≥ 1, default 25", "Newton iterations per step before the step counts as failed."),
    ("solver.max_cutbacks", "integer 0–30, default 5", "A failed step (Newton, a contact subproblem, an inverted element, a singular matrix, a contact slave that passed through the master surface within the step, a Newton that switches a contact point between open and in contact back and forth, a velocity update that cannot restore a point's energy) is retried with half the step, at most this many times in a row and not below `time.dt_min`; then the run stops, keeping every file written."),
    ("solver.linear", "\"auto\" (default), \"direct\" or \"iterative\"", "Linear solver of the Newton systems. direct: sparse LU on a nested-dissection (METIS) ordering, its factors reused within a step as the GMRES preconditioner of later matrices (a Newton iteration with a contact subproblem factors its own: W = B K⁻¹ H is solved on the contact block of the current factors; late in a contact step, where a factorization costs ≥ 2e9 flops, only the contact block is refactored: `chord_iterations` in history.csv); iterative: GMRES with a node-block Jacobi preconditioner, no factorization; auto: direct when the estimated factors fit in half the available memory. Every solve reaches ‖b − Ax‖ ≤ max(1e-12‖b‖, 64ε‖|A||x| + |b|‖) (the second bound where the matrix's conditioning allows no better); a factorization that meets a zero pivot is redone by a pivoting LU. `emcontact check` prints the choice and the memory estimate and refuses a direct factorization that does not fit."),
    ("solver.petsc_options", "string of PETSc options, default none", "Parallel build only (`cargo build --features mpi`, docs/parallel.md): options for PETSc's linear solver, after the defaults (direct: GMRES preconditioned by a MUMPS LU of the step's first matrix; iterative: GMRES with GAMG and the rigid-body near null space), e.g. \"-ksp_type cg -pc_type hypre\". An option PETSc rejects or does not use stops the run (exit 2). The serial build warns that it has no effect."),
    ("solver.contact_system", "\"auto\" (default), \"condensed\" or \"saddle\"", "How a Newton iteration with exact or augmented-Lagrangian contact solves its linearized contact problem. condensed: onto the contact points, `u = W r + q` with `W = B K⁻¹ H` (one solve per contact unknown) and the solver library on the dense `W`: cheapest for a few hundred points. saddle: the multipliers as unknowns of one sparse system with the bodies', factored like the bulk tangent, a semismooth Newton on the Alart–Curnier functions: its cost follows the contact area. auto: saddle once 400 points may touch in a step. Both meet the Signorini–Coulomb law to the contact tolerance at convergence."),
    ("output.dir", "path, default \"out/<name>\"", "Output directory (relative to the input file). `emcontact run --out DIR` overrides it."),
    ("output.every", "integer ≥ 1, default 10", "VTK frames at t = k·every·dt (the first and last state are always written)."),
    ("output.checkpoint_every", "integer ≥ 0, default 100", "Accepted steps between checkpoints (`checkpoint.bin` in the output folder, replaced atomically); 0: only when the run is interrupted (SIGINT, SIGTERM). `emcontact run INPUT --restart DIR` continues from it, bit for bit."),
    ("output.contact_problems", "true or false (default)", "Write every contact subproblem (the frictional-contact problem `u = W r + q` of each Newton iteration of exact or augmented-Lagrangian contact) as an FCLIB file `contact_NNNNN.hdf5` into `<output dir>/contact_problems/`. `emcontact run --dump-contact DIR` does the same into DIR."),
    ("mesh.file", "path", "Gmsh mesh, MSH 2.2 or 4.1, ASCII or binary, first or second order (Gmsh's Mesh.ElementOrder 1 or 2): line2/line3, tri3/tri6, quad4/quad8/quad9, tet4/tet10, hex8/hex20/hex27 in Gmsh's node order. Physical groups name bodies (volume groups) and boundary surfaces. A body group has one order; messages about the mesh name the file and Gmsh's element and node tags."),
    ("mesh.generate", "array of tables", "Built-in meshes, appended after `mesh.file`. Each makes the volume group `<name>` and its boundary surface groups."),
    ("mesh.generate.kind", "\"box\", \"ring\", \"disk\" or \"ball\"", "Generator. box: surfaces `<name>_xmin` … `<name>_zmax`; ring (2D): `<name>_outer`, `<name>_inner`; disk (2D): `<name>_outer`; ball (3D, hex8 cubed sphere): `<name>_outer`."),
    ("mesh.generate.name", "string", "Name of the generated volume group (and prefix of its surfaces)."),
    ("mesh.generate.min", "[x, y] or [x, y, z]", "box: lower corner."),
    ("mesh.generate.max", "[x, y] or [x, y, z]", "box: upper corner."),
    ("mesh.generate.divisions", "box: [nx, ny(, nz)]; ring: [around, through]; disk, ball: n", "Element counts. disk: elements along a quarter of the circumference; ball: elements along a quarter great circle (1 to 1000; the ball has n³ + 6n²·max(1, ⌊(2n + 2)/5⌋) hex8)."),
    ("mesh.generate.element", "box: \"quad4\"/\"tri3\" (2D), \"hex8\"/\"tet4\" (3D)", "Element type of a box (default quad4 / hex8)."),
    ("mesh.generate.center", "[x, y] (ring, disk) or [x, y, z] (ball)", "ring, disk, ball: centre."),
    ("mesh.generate.radius", "number > 0", "ring: mid-surface radius; disk, ball: radius."),
    ("mesh.generate.thickness", "number > 0", "ring: wall thickness (< 2·radius)."),
    ("body", "array of tables, at least one", "Deformable bodies."),
    ("body.name", "string, unique", "Body name (histories and output)."),
    ("body.group", "string", "Volume group of the mesh holding the body's elements."),
    ("body.material.model", "\"svk\" or \"neo-hookean\"", "St. Venant–Kirchhoff (Simo–Tarnow algorithmic stress) or compressible neo-Hookean (Gonzalez discrete gradient)."),
    ("body.material.young", "number > 0", "Young's modulus E."),
    ("body.material.poisson", "number in (-1, 0.5)", "Poisson's ratio ν."),
    ("body.material.density", "number > 0", "Mass density ρ (per unit reference volume)."),
    ("body.velocity", "vector of dimension length, default 0", "Initial velocity."),
    ("body.angular_velocity", "number (2D) or [wx, wy, wz] (3D), default 0", "Initial angular velocity about the body's centre of mass."),
    ("body.mass", "\"lumped\" (default) or \"consistent\"", "Lumped or consistent mass matrix. Lumped: the row sums on first-order elements; on second-order elements, whose row sums are zero or negative at the corners, HRZ (Hinton, Rock & Zienkiewicz 1976: the consistent diagonal scaled to the element's mass), positive at every node."),
    ("boundary", "array of tables", "Fixed or prescribed components on the nodes of a group. A component constrained by several boundaries belongs to the first (`check` warns where a later one would move it). Prescribed values hold exactly at the end of every step, positions and velocities; their work (through the support reactions, and the kinetic energy of a velocity they impose against the integrator's) is `external_work` in history.csv."),
    ("boundary.group", "string", "Any group of the mesh (surface or volume)."),
    ("boundary.fix", "subset of [\"x\", \"y\", \"z\"]", "Components held fixed (\"z\" only in 3D). A component may not be both fixed and prescribed."),
    ("boundary.displacement", "{ x = .., y = .., z = .. } (any subset)", "Prescribed displacement from the reference position, times `curve`: x = X + u·c(t); the end-of-step velocity is u·c'(t) (the slope of the piece the step ends on)."),
    ("boundary.velocity", "{ x = .., y = .., z = .. } (any subset)", "Prescribed velocity, times `curve`: v = w·c(t), x = X + w·∫₀ᵗc (exact for the piecewise linear curve). A component has either a displacement or a velocity."),
    ("boundary.rotation", "{ point = [..], axis = [ax, ay, az], angular_velocity = ω }", "A rigid rotation of the whole group (every component prescribed) about the axis through `point` (right-handed; in 2D the z axis, `axis` may be left out), at ω·c(t): x = p + R(θ)(X − p), θ = ω·∫₀ᵗc. Not combined with fix, displacement or velocity in the same boundary. The axis must not be zero."),
    ("boundary.curve", "curve name, default none (factor 1)", "The `[[curve]]` scaling this boundary's displacement, velocity or rotation."),
    ("curve", "array of tables", "Time functions, named by loads, boundaries and moving rigid masters with `curve = \"name\"`."),
    ("curve.name", "string, unique", "The name a `curve` key refers to."),
    ("curve.points", "[[t, v], ...], times strictly increasing", "Piecewise linear through the points, constant beyond the first and the last."),
    ("load", "array of tables", "External loads on a group, each times its curve, evaluated where the integrator's residual is (energy-momentum: at t_{n+½}, a pressure on the midpoint configuration). Their work is `external_work` in history.csv. Give exactly one of `pressure`, `traction`, `force`."),
    ("load.group", "string", "A surface group (line2 in 2D, tri3/quad4 in 3D) for `pressure` and `traction`; any group with elements for `force`."),
    ("load.pressure", "number", "A follower pressure, positive into the body (on the faces' outward orientation), on the current configuration, with its load stiffness in Newton (Simo, Taylor & Wriggers 1991)."),
    ("load.traction", "vector of dimension length", "A traction of fixed direction per unit reference area."),
    ("load.force", "vector of dimension length", "A total force spread over the group's nodes: by tributary area on a surface group, by lumped mass on a volume group."),
    ("load.curve", "curve name, default none (constant)", "The `[[curve]]` scaling the load."),
    ("gravity.acceleration", "vector of dimension length, default 0", "Uniform gravitational acceleration; its potential is part of the total energy."),
    ("contact", "array of tables", "Contact pairs: the slave nodes of a surface against a master surface or a fixed rigid plane (node-to-segment, Love & Laursen 2003)."),
    ("contact.slave", "string", "Boundary surface group (line2 or line3 in 2D; tri3, quad4, tri6, quad8 or quad9 in 3D) whose nodes are the contact points: every node, the midside and centre nodes of second-order faces included (their tributary areas are the HRZ scaling of the face, positive at every node). One order per surface: a group mixing first- and second-order faces is refused."),
    ("contact.master", "string", "Boundary surface group of the other body (faces oriented outward; first- or second-order, one order per surface: a second-order face is curved, and the closest point is found on it). Give this, `master_plane`, `master_sphere` or `master_cylinder`."),
    ("contact.master_plane", "{ point = [..], normal = [..] }, optional velocity = [..] or displacement = [..] with curve = \"name\"", "A rigid plane; `normal` points toward the slave side (it is normalized; zero is an error). A plane behind every slave node at t = 0 is refused as a plane whose normal points away (the message says how to flip it). With `velocity` (times the curve, if any) or `displacement` (times the curve, required) the plane translates; the work it does on the bodies is in `external_work`."),
    ("contact.master_sphere", "{ center = [..], radius = R }, optional velocity, displacement, curve", "A rigid sphere (a circle in 2D), normal outward; fixed, or translating as `master_plane`. The radius must be positive."),
    ("contact.master_cylinder", "{ point = [..], axis = [..], radius = R }, optional velocity, displacement, curve", "3D: a rigid cylinder about the axis through `point`, normal outward; fixed, or translating as `master_plane`. In 2D use master_sphere."),
    ("contact.friction", "number ≥ 0, default 0", "Coulomb friction coefficient μ."),
    ("contact.enforcement", "\"exact\" (default), \"augmented-lagrangian\" or \"penalty\"", "exact: at each Newton iteration the linearized step is condensed onto the contact points (W = B K⁻¹ H) and the frictional-contact problem is solved by the solver library, so the Coulomb law holds exactly. augmented-lagrangian: the multipliers are Newton unknowns, one Alart–Curnier semismooth step per iteration (same converged answer); once a point has switched between open and in contact within the step, its iterations solve the subproblem fully, as exact does. penalty: the penalty law, constraints met only up to the penalty. None has an outer augmentation loop."),
    ("contact.solver", "solver name, default \"nsn-ac-ls\"", "exact: the solver library's solver for the contact subproblems (`emcontact fc solvers` lists them)."),
    ("contact.penalty", "number > 0, default from stiffness, mass and dt", "penalty: normal penalty ε_N (traction per unit gap). Default: 1000·max((λ+2μ)/h, 2ρh/Δt²), h the contact face size; it follows the step size (a cut-back step keeps the ratio to the inertia). `emcontact check` prints the value at the input Δt."),
    ("contact.tangential_penalty", "number > 0; penalty: default = penalty; exact, augmented-lagrangian: default none", "penalty: tangential penalty ε_T of the return map. exact and augmented-lagrangian: a stated tangential regularization (none by default: Coulomb's law exactly); stick then means t_T = −ε_T Δt v_T, as in the penalty law, with the normal constraint and the friction cone still exact."),
    ("contact.tolerance", "number > 0, default 1e-10", "exact and augmented-lagrangian: how far a converged step may be from the contact law (gap of a new contact, Δt·v_N of a persistent one, Δt·‖v_T‖ of a sticking one), relative to the face size h. A persistent contact whose gap drifts below the drift bound −max(5e-11, tolerance/2)·h is enforced on its gap for the rest of the step (`emcontact check` prints the bound)."),
    ("contact.tangent", "\"exact\" (default) or \"finite-difference\"", "Contact tangent: the exact linearization of the point force, or its central difference (a debug option, slower and not exact at kinks)."),
    ("contact.passes", "1 or 2; default 2 between two surfaces (exact and penalty enforcement), 1 with augmented-Lagrangian enforcement and against a rigid master", "2 (two-pass): the master surface's nodes are also contact points against the slave surface (a second node-to-segment pass), so that neither surface sinks into the other. 1: the slave nodes only; the master's nodes are still measured, so `max_penetration` covers both surfaces either way. Augmented-Lagrangian enforcement defaults to 1: its one Alart–Curnier step per Newton iteration stalls where the two meshes do not match on a flat interface (the second pass nearly repeats the first's constraints); exact enforcement solves such a subproblem without the repeated points where it must."),
    ("contact.velocity_update", "true (default) or false", "Apply the Love–Laursen velocity update after each step (exact energy for frictionless and sticking contact, exact frictional dissipation in slip)."),
    ("contact.initial_overlap", "\"error\" (default) or \"adjust\"", "Nodes of the pair's surfaces that start inside the other body: slave nodes behind the master surface (over it, not beside its rim) or behind the plane, and for two deformable surfaces also master nodes inside the slave body, deeper than 1e-8·h (h the pair's face size). error: `check` and `run` refuse the model (exit 2), naming the pair, the number of nodes, the deepest node (0-based, the VTK point id), its position and depth. adjust: the nodes move onto the other surface before the first step, strain-free (the reference mesh changes, so no initial stress), and `check` and `run` print how many moved and how far."),
];

/// The Markdown of `docs/input.md`.
pub fn markdown() -> String {
    let mut s = String::from(
        "# Input file reference\n\n\
         An input file is TOML. Unknown keys are errors. Relative paths are relative to the\n\
         input file. Generated by `emcontact keys` from `src/input/keys.rs`; do not edit by hand.\n\n\
         | key | type, default | meaning |\n|---|---|---|\n",
    );
    for (k, t, d) in KEYS {
        s.push_str(&format!("| `{k}` | {t} | {d} |\n"));
    }
    s
}
