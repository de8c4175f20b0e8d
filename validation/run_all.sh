#!/usr/bin/env bash
# Regenerates every validation case: runs each input of validation/<case>/*.toml
# (after the case's prepare.sh, if it has one: generated meshes) with the
# release build, then validation/report.py draws the comparison plots into
# each case folder and writes docs/validation.md with the measured figures,
# and validation/check_figures.py compares the figures of every case with a
# reference.toml against it (the script fails if one is off). Every run's
# verdict is asserted too: a run that completes with a failed verdict (exit
# 3: a node through a surface, a ledger that did not close) fails the script,
# unless the case's reference.toml expects it in its [verdict] table
# (`<input> = "why"`, e.g. Newmark's energy blow-up folding a body through
# itself); a run expected to fail that passes fails it too.
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
# the reason a case's reference.toml gives for expecting input $2 of case $1
# to fail its verdict (empty: expected to pass)
expected_failure() {
  python3 -c 'import sys, tomllib, pathlib
p = pathlib.Path("validation", sys.argv[1], "reference.toml")
ref = tomllib.loads(p.read_text()) if p.exists() else {}
print(ref.get("verdict", {}).get(sys.argv[2], ""))' "$1" "$2"
}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
verdicts=()
for c in "${cases[@]}"; do
  if [ -f validation/"$c"/prepare.sh ]; then bash validation/"$c"/prepare.sh; fi
  for input in validation/"$c"/*.toml; do
    [ "$(basename "$input")" = reference.toml ] && continue
    stem=$(basename "$input" .toml)
    echo "== $c/$stem"
    # a run that stops (Newmark may blow up, exit 1) still leaves its
    # history: keep going
    rc=0
    ./target/release/emcontact run "$input" --out "validation/$c/out/$stem" --overwrite >"$log" 2>&1 || rc=$?
    tail -n 4 "$log"
    why=$(expected_failure "$c" "$stem")
    if [ "$rc" -eq 3 ] && [ -z "$why" ]; then
      verdicts+=("$c/$stem: $( (grep '^verdict' "$log" || true) | tail -n 1)")
    elif [ "$rc" -eq 0 ] && [ -n "$why" ]; then
      verdicts+=("$c/$stem: verdict passed, but reference.toml expects it to fail ($why)")
    elif [ "$rc" -eq 3 ]; then
      echo "   (failed verdict, expected: $why)"
    elif [ "$rc" -ne 0 ]; then
      echo "   (run stopped early: exit $rc)"
    fi
  done
done
python3 validation/report.py "${cases[@]}"
figures=0
python3 validation/check_figures.py "${cases[@]/#/validation/}" || figures=$?
if [ ${#verdicts[@]} -gt 0 ]; then
  echo "verdicts that failed:"
  printf '  %s\n' "${verdicts[@]}"
  exit 1
fi
exit "$figures"
