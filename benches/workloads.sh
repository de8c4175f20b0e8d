#!/usr/bin/env bash
# The workloads of docs/performance.md, one table each, re-measured: whole
# runs of `emcontact`, one thread (RAYON_NUM_THREADS=1), whole-process CPU
# (user + system) and peak memory from /usr/bin/time, the run's own time
# split from its RUST_LOG=info summary.
#
#   bash benches/workloads.sh flight    # free flight, hex8 SVK box at 11x the explicit step:
#                                       # 11k, 58k, 166k (direct and iterative), 1.07M dofs (auto)
#   bash benches/workloads.sh contact   # friction blocks to t = 0.6, mu = 0.8 and 0.2:
#                                       # 1,590, 9,990 and 18,546 dofs
#   bash benches/workloads.sh fclib     # `emcontact fc solve` (default solver) on every FCLIB
#                                       # file of FCLIB_DIR (default ../shared/fclib and siconos-dat)
#
# Prints Markdown rows; logs stay in $OUT (default: a new folder under /tmp);
# EMCONTACT=path times that binary instead of building this checkout's.
# About 15 min (flight), 3 min (contact) and 5 min (fclib) of CPU.
set -euo pipefail
cd "$(dirname "$0")/.."
export RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1
OUT="${OUT:-$(mktemp -d "${TMPDIR:-/tmp}/workloads.XXXXXX")}"
mkdir -p "$OUT"
[ -x /usr/bin/time ] || { echo "workloads.sh: /usr/bin/time is required (Debian package 'time')" >&2; exit 2; }
# EMCONTACT=path runs an existing binary instead of building this checkout's
if [ -z "${EMCONTACT:-}" ]; then cargo build --release --quiet; fi
EMC="${EMCONTACT:-${CARGO_TARGET_DIR:-$PWD/target}/release/emcontact}"

# run NAME INPUT: runs INPUT; prints "cpu_s peak_MB" and leaves the log in $OUT/NAME.log
run() {
  local name=$1 input=$2
  RUST_LOG=info /usr/bin/time -f "whole process: %U %S %e %M" \
    "$EMC" run -q "$input" --out "$OUT/$name" --overwrite >"$OUT/$name.log" 2>&1 || {
    echo "workloads.sh: $name failed, see $OUT/$name.log" >&2; return 1; }
  awk '/^whole process:/ { printf "%.1f %.0f\n", $3 + $4, $6 / 1024 }' "$OUT/$name.log"
}

# share NAME KEY: the share of the run's time (its RUST_LOG=info summary) spent
# in KEY ("factorization", "linear solves", ...), in percent
share() {
  local part run
  part=$(grep -o "$2 [0-9.]* s" "$OUT/$1.log" | head -1 | awk '{ print $(NF - 1) }')
  run=$(grep -o "run [0-9.]* s;" "$OUT/$1.log" | head -1 | awk '{ print $2 }')
  python3 -c "print(f'{100 * $part / $run:.0f} %')"
}

# ledger NAME: "steps newton balance" from the run's history.csv
ledger() {
  python3 - "$OUT/$1/history.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
e = [float(r["total"]) + float(r.get("dissipation") or 0) for r in rows]
its = sum(int(float(r["newton_iterations"])) for r in rows[1:])
bal = max(abs(b - a) for a, b in zip(e, e[1:])) / abs(e[0])
print(len(rows) - 1, its, f"{bal:.1e}")
PY
}

flight() {
  echo "| dofs | linear | steps | Newton its | CPU s | per step | factorization | solves | assembly | peak MB | step balance |"
  echo "| | | | | | | (share of the run) | | | | |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for spec in "11k 16 16 12 5 direct" "11k 16 16 12 5 iterative" "58k 28 28 22 3 direct" \
              "58k 28 28 22 3 iterative" "166k 40 40 32 2 direct" "166k 40 40 32 2 iterative" \
              "1m 70 70 70 2 auto"; do
    read -r size nx ny nz steps linear <<<"$spec"
    local input="$OUT/flight_$size.toml"
    cat >"$input" <<TOML
[problem]
name = "flight_$size"
dimension = 3
[time]
dt = 0.3
end = $(python3 -c "print(0.3 * $steps)")
[solver]
linear = "$linear"
[output]
every = 1000
[mesh]
[[mesh.generate]]
kind = "box"
name = "box"
min = [0.0, 0.0, 0.0]
max = [$nx.0, $ny.0, $nz.0]
divisions = [$nx, $ny, $nz]
element = "hex8"
[[body]]
name = "box"
group = "box"
material = { model = "svk", young = 1000.0, poisson = 0.3, density = 1.0 }
velocity = [1.0, 0.5, -0.25]
angular_velocity = [0.02, -0.01, 0.05]
TOML
    local name="flight_${size}_$linear"
    read -r cpu peak < <(run "$name" "$input")
    read -r n its bal < <(ledger "$name")
    local dofs
    dofs=$("$EMC" check "$input" | awk '/dofs/ { for (i = 1; i < NF; i++) if ($i == "dofs") print $(i + 1) }')
    echo "| $dofs | $linear | $n | $its | $cpu | $(python3 -c "print(f'{$cpu / $n:.2f}')") | $(share "$name" factorization) | $(share "$name" "linear solves") | $(share "$name" assembly) | $peak | $bal |"
  done
}

contact() {
  echo "| dofs | μ | Newton its | factorizations | CPU s | factorization | solves | assembly | contact subproblems | peak MB | step balance |"
  echo "| | | | | | (share of the run) | | | | | |"
  echo "|---|---|---|---|---|---|---|---|---|---|---|"
  for spec in "1590 8,8,4 4,4,4" "9990 16,16,8 8,8,8" "18546 20,20,10 10,10,10"; do
    read -r dofs base cube <<<"$spec"
    for mu in 0.8 0.2; do
      local input="$OUT/blocks_${dofs}_$mu.toml"
      sed -e "s/^end = 1.5/end = 0.6/" -e "s/^every = 1\$/every = 100/" \
          -e "s/divisions = \[8, 8, 4\]/divisions = [$base]/" \
          -e "s/divisions = \[4, 4, 4\]/divisions = [$cube]/" \
          -e "s/^friction = 0.8/friction = $mu/" \
          validation/friction_blocks/stick_mu08.toml >"$input"
      local name="blocks_${dofs}_$mu"
      read -r cpu peak < <(run "$name" "$input")
      read -r n its bal < <(ledger "$name")
      local fact
      fact=$(python3 -c "import csv; print(int(sum(float(r['factorizations']) for r in csv.DictReader(open('$OUT/$name/history.csv')))))")
      echo "| $dofs | $mu | $its | $fact | $cpu | $(share "$name" factorization) | $(share "$name" "linear solves") | $(share "$name" assembly) | $(share "$name" "contact subproblems") | $peak | $bal |"
    done
  done
}

fclib() {
  local dir="${FCLIB_DIR:-../shared/fclib}"
  echo "| problem | contacts | solve CPU s | process CPU s | error | exit |"
  echo "|---|---|---|---|---|---|"
  for f in "$dir"/*.hdf5 "$dir"/siconos-dat/*.hdf5; do
    [ -f "$f" ] || continue
    /usr/bin/time -f "whole process: %U %S" "$EMC" fc solve "$f" --timeout 60 >"$OUT/fc.log" 2>&1 && code=0 || code=$?
    awk -v name="$(basename "$f" .hdf5)" -v code="$code" '
      /^problem / { n = $(NF - 1) } /^cpu_seconds / { c = $2 } /^error / { e = $2 }
      /^whole process:/ { p = $3 + $4 }
      END { printf "| %s | %s | %.3g | %.3g | %.2e | %s |\n", name, n, c, p, e, code }' "$OUT/fc.log"
  done
}

echo "# $(uname -m), $(getconf _NPROCESSORS_ONLN) cores, load $(cut -d' ' -f1-3 /proc/loadavg); logs in $OUT"
case "${1:-}" in
  flight) flight ;;
  contact) contact ;;
  fclib) fclib ;;
  *) echo "usage: $0 flight|contact|fclib" >&2; exit 2 ;;
esac
