#!/usr/bin/env bash
# The graded meshes of the refinement study (make_mesh.py): element size
# h0 at the contact a/3, a/4.5, a/6 (a = 0.0632, the contact radius at the
# final indentation), uniform to 0.095, then growing by 1.3 per element to
# the block's size 3.8 = 60 a.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p mesh
python3 make_mesh.py mesh/coarse.msh 0.0211 0.095 3.8 1.3
python3 make_mesh.py mesh/medium.msh 0.01405 0.095 3.8 1.3
python3 make_mesh.py mesh/fine.msh 0.01054 0.095 3.8 1.3
