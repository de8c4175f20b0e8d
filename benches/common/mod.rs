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

/// CPU seconds (user + system, all threads) of this process so far, from
/// /proc/self/stat (10 ms resolution; 0 where it cannot be read).
#[allow(dead_code)]
pub fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // fields after the parenthesised command name: state is field 3, utime 14, stime 15
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|v| v.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

/// Peak resident memory of this process so far in bytes (VmHWM of /proc/self/status).
#[allow(dead_code)]
pub fn peak_memory() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<f64>().ok())
        })
        .map_or(0.0, |kb| kb * 1024.0)
}
