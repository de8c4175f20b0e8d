#!/usr/bin/env python3
"""Inputs of the contact-scaling family (docs/performance.md, "Contact at
scale"): the friction blocks with a finer contact face. A cube of N x N x L
hex8 elements (the slave, [0.5, 1.5] x [0, 1] x [1.25, 2.25]) lands on a base
of N x N x L elements ([0, 2] x [0, 2] x [0, 1], base fixed), so the slave
face has (N+1)^2 nodes and the master face twice their spacing (the meshes do
not match). Friction blocks material (neo-Hookean, E = 1e4, nu = 0, rho = 100).

  make.py N L [--dt DT] [--end T] [--mu MU] [--vel VX VY VZ] [--gravity G]
          [--system auto|condensed|saddle] [--linear auto|direct|iterative]
          [--checkpoint-every K]

writes blocks_N_L.toml (or the name given with --name) to stdout."""
import argparse

p = argparse.ArgumentParser()
p.add_argument("n", type=int)
p.add_argument("layers", type=int)
p.add_argument("--dt", type=float, default=0.05)
p.add_argument("--end", type=float, default=0.3)
p.add_argument("--mu", type=float, default=0.8)
p.add_argument("--vel", type=float, nargs=3, default=[0.0, 1.5, -1.0])
p.add_argument("--gravity", type=float, default=0.0)
p.add_argument("--gap", type=float, default=0.25, help="initial gap between the blocks")
p.add_argument("--system", default="auto")
p.add_argument("--linear", default="auto")
p.add_argument("--every", type=int, default=1000)
p.add_argument("--checkpoint-every", type=int, default=0,
               help="accepted steps between checkpoints (0: only when interrupted); "
               "from about 64^2 a contact step takes minutes to hours, so a long run "
               "wants 1 (`emcontact run INPUT --restart DIR` continues it)")
a = p.parse_args()
z0 = 1.0 + a.gap
print(f"""# contact-scaling family: N = {a.n}, L = {a.layers} (validation/contact_scaling/make.py)
[problem]
name = "blocks_{a.n}_{a.layers}"
dimension = 3
[gravity]
acceleration = [0.0, 0.0, {-a.gravity}]
[time]
dt = {a.dt}
end = {a.end}
[solver]
contact_system = "{a.system}"
linear = "{a.linear}"
[output]
every = {a.every}
checkpoint_every = {a.checkpoint_every}
[mesh]
[[mesh.generate]]
kind = "box"
name = "base"
min = [0.0, 0.0, 0.0]
max = [2.0, 2.0, 1.0]
divisions = [{a.n}, {a.n}, {a.layers}]
[[mesh.generate]]
kind = "box"
name = "cube"
min = [0.5, 0.0, {z0}]
max = [1.5, 1.0, {z0 + 1.0}]
divisions = [{a.n}, {a.n}, {a.layers}]
[[body]]
name = "base"
group = "base"
material = {{ model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }}
[[body]]
name = "cube"
group = "cube"
material = {{ model = "neo-hookean", young = 10000.0, poisson = 0.0, density = 100.0 }}
velocity = [{a.vel[0]}, {a.vel[1]}, {a.vel[2]}]
[[boundary]]
group = "base_zmin"
fix = ["x", "y", "z"]
[[contact]]
slave = "cube_zmin"
master = "base_zmax"
friction = {a.mu}
""")
