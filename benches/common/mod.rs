//! Shared by the contact benches: the friction-blocks input of
//! validation/friction_blocks/stick_mu08.toml with the mesh divisions as
//! parameters.

/// The blocks problem (μ = 0.8, exact contact enforcement, Δt = 0.1)
/// with `base` and `cube` hex8 divisions.
pub fn input(base: [usize; 3], cube: [usize; 3]) -> String {
    format!(
        r#"
[problem]
name = "blocks"
dimension = 3
[time]
dt = 0.1
end = 1.5
[mesh]
[[mesh.generate]]
kind = "box"
name = "base"
min = [0.0, 0.0, 0.0]
max = [2.0, 2.0, 1.0]
divisions = [{}, {}, {}]
[[mesh.generate]]
kind = "box"
name = "cube"
min = [0.5, 0.0, 1.25]
max = [1.5, 1.0, 2.25]
divisions = [{}, {}, {}]
[[body]]
name = "base"
group = "base"
material = {{ model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }}
[[body]]
name = "cube"
group = "cube"
material = {{ model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }}
velocity = [0.0, 1.5, -1.0]
[[boundary]]
group = "base_zmin"
fix = ["x", "y", "z"]
[[contact]]
slave = "cube_zmin"
master = "base_zmax"
friction = 0.8
"#,
        base[0], base[1], base[2], cube[0], cube[1], cube[2]
    )
}
