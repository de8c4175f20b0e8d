#!/usr/bin/env bash
# Regenerates every validation case: runs each input of validation/<case>/*.toml
# with the release build, then validation/report.py draws the comparison plots
# into each case folder and writes docs/validation.md with the measured figures.
# Usage: bash validation/run_all.sh [case ...]   (default: every case folder)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup --validation
cargo build --release --quiet
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in validation/*/; do [ -n "$(ls "$d"*.toml 2>/dev/null)" ] && cases+=("$(basename "$d")"); done
fi
for c in "${cases[@]}"; do
  for input in validation/"$c"/*.toml; do
    stem=$(basename "$input" .toml)
    echo "== $c/$stem"
    # a run that fails (Newmark may blow up) still leaves its history: keep going
    ./target/release/emcontact run "$input" --out "validation/$c/out/$stem" --overwrite | tail -n 4 || echo "   (run stopped early: exit $?)"
  done
done
python3 validation/report.py "${cases[@]}"
