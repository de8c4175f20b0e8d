#!/usr/bin/env bash
# Regenerates every validation case: runs each input of validation/<case>/*.toml
# (after the case's prepare.sh, if it has one: generated meshes) with the
# release build, then validation/report.py draws the comparison plots into
# each case folder and writes docs/validation.md with the measured figures,
# and validation/check_figures.py compares the figures of every case with a
# reference.toml against it (the script fails if one is off).
# Usage: bash validation/run_all.sh [case ...]   (default: every case folder)
set -euo pipefail
cd "$(dirname "$0")/.."
bash .ci/setup --validation
export PATH="$PWD/.venv/bin:$PATH"   # the Python modules .ci/setup installed
cargo build --release --quiet
cases=("$@")
if [ ${#cases[@]} -eq 0 ]; then
  for d in validation/*/; do [ -n "$(ls "$d"*.toml 2>/dev/null)" ] && cases+=("$(basename "$d")"); done
fi
for c in "${cases[@]}"; do
  if [ -f validation/"$c"/prepare.sh ]; then bash validation/"$c"/prepare.sh; fi
  for input in validation/"$c"/*.toml; do
    [ "$(basename "$input")" = reference.toml ] && continue
    stem=$(basename "$input" .toml)
    echo "== $c/$stem"
    # a run that fails (Newmark may blow up) still leaves its history: keep going
    ./target/release/emcontact run "$input" --out "validation/$c/out/$stem" --overwrite | tail -n 4 || echo "   (run stopped early: exit $?)"
  done
done
python3 validation/report.py "${cases[@]}"
python3 validation/check_figures.py "${cases[@]/#/validation/}"
