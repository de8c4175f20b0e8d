#!/usr/bin/env bash
# emcontact vs Kratos on the friction blocks, single-threaded, alternating.
#
#   benches/kratos/side_by_side.sh [CASE ...]      (default: coarse_mu02 coarse_mu08)
#   PAIRS=5 benches/kratos/side_by_side.sh         (pairs per case, default 3)
#
# For each case: build emcontact in release, run it once on the case's toml
# (warm-up; its first VTK frame checks that the Kratos mesh has the same nodes
# and hex8 connectivity: make_case.py --verify-vtu), then PAIRS times
#   RAYON_NUM_THREADS=1 emcontact run CASE.toml
#   OMP_NUM_THREADS=1   python3 run_kratos.py CASE
# one after the other, timing each whole process with /usr/bin/time (user +
# system CPU seconds). Prints every pair's CPU times and ratio Kratos/ours,
# the medians, and each code's Newton iterations. Logs stay in $OUT
# (default: a new directory under ${TMPDIR:-/tmp}).
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
PAIRS="${PAIRS:-3}"
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/kratos-side-by-side.XXXXXX")}"
CASES=("$@")
[ ${#CASES[@]} -gt 0 ] || CASES=(coarse_mu02 coarse_mu08)

[ -x /usr/bin/time ] || { echo "side_by_side.sh: /usr/bin/time is required (Debian package 'time')" >&2; exit 2; }
python3 -c "import KratosMultiphysics, KratosMultiphysics.StructuralMechanicsApplication, \
KratosMultiphysics.ContactStructuralMechanicsApplication, KratosMultiphysics.LinearSolversApplication, \
KratosMultiphysics.ConstitutiveLawsApplication" >/dev/null 2>&1 || {
  echo "side_by_side.sh: Kratos is not installed; see benches/kratos/README.md (pip install ...)" >&2; exit 2; }

(cd "$REPO" && cargo build --release --quiet)
EMC="${CARGO_TARGET_DIR:-$REPO/target}/release/emcontact"

cpu() { # cpu FILE: user+system seconds written by /usr/bin/time -f '%U %S'
  awk 'END { printf "%.2f", $1 + $2 }' "$1"
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else printf "%.3f\n", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }

echo "# emcontact $(git -C "$REPO" rev-parse --short HEAD) vs Kratos $(pip show KratosMultiphysics 2>/dev/null | awk '/^Version/ { print $2 }'), $PAIRS pairs per case, logs in $OUT"
for case in "${CASES[@]}"; do
  dir="$OUT/$case"
  mkdir -p "$dir/ours"
  python3 "$HERE/make_case.py" "$case" --out "$dir/kratos" --emcontact-toml "$dir/ours/$case.toml" >/dev/null
  (cd "$dir/ours" && RAYON_NUM_THREADS=1 "$EMC" run "$case.toml" --overwrite >warmup.log 2>&1)
  python3 "$HERE/make_case.py" "$case" --out "$dir/kratos" --verify-vtu "$dir/ours/out/blocks/blocks_00000.vtu"
  : >"$dir/ratios"
  for i in $(seq 1 "$PAIRS"); do
    (cd "$dir/ours" && RAYON_NUM_THREADS=1 /usr/bin/time -f '%U %S' -o "../ours_$i.time" \
      "$EMC" run "$case.toml" --overwrite >"../ours_$i.log" 2>&1)
    kstatus=0
    OMP_NUM_THREADS=1 /usr/bin/time -f '%U %S' -o "$dir/kratos_$i.time" \
      python3 "$HERE/run_kratos.py" "$dir/kratos" >"$dir/kratos_$i.log" 2>&1 || kstatus=$?
    o=$(cpu "$dir/ours_$i.time"); k=$(cpu "$dir/kratos_$i.time")
    r=$(awk -v o="$o" -v k="$k" 'BEGIN { printf "%.2f", k / o }')
    echo "$o $k $r" >>"$dir/ratios"
    printf '%-12s pair %d: emcontact %7.2f s CPU, Kratos %7.2f s CPU, Kratos/emcontact %6.2fx%s\n' "$case" "$i" "$o" "$k" "$r" \
      "$([ "$kstatus" = 0 ] || echo "  (Kratos FAILED, exit $kstatus: see $dir/kratos_$i.log)")"
  done
  mo=$(cut -d' ' -f1 "$dir/ratios" | median); mk=$(cut -d' ' -f2 "$dir/ratios" | median)
  mr=$(cut -d' ' -f3 "$dir/ratios" | median)
  printf '%-12s median : emcontact %7.2f s CPU, Kratos %7.2f s CPU, ratio %6.2fx\n' "$case" "$mo" "$mk" "$mr"
  echo "  emcontact: $(grep -h ' steps to t = ' "$dir/ours_$PAIRS.log")"
  echo "  Kratos:    $(grep -h '^# \(total\|Kratos stopped\)' "$dir/kratos_$PAIRS.log" | tr '\n' ' ')"
  echo "  Kratos Newton iterations per step: $(awk '/^ +[0-9]+ +[0-9.]+ +[0-9]+ +(yes|NO)/ { printf "%s%s ", $3, ($4 == "NO" ? "*" : "") }' "$dir/kratos_$PAIRS.log")(* = not converged)"
done
