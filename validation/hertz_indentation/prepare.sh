#!/usr/bin/env bash
# The graded meshes of the refinement study (make_mesh.py): element size
# h0 at the contact a/3, a/6, a/9 (a = 0.0158, the contact radius at the
# final indentation δ = 2.5e-4), uniform to 1.5 a = 0.02375, then growing by
# 1.5 per element to the block's size 0.95 = 60 a.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p mesh
python3 make_mesh.py mesh/coarse.msh 0.005275 0.02375 0.95 1.5
python3 make_mesh.py mesh/medium.msh 0.0026375 0.02375 0.95 1.5
python3 make_mesh.py mesh/fine.msh 0.00175833 0.02375 0.95 1.5
