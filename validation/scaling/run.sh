#!/usr/bin/env bash
# The linear-solver scaling study of issue 12 (docs/performance.md, "Linear
# solver layer"). Not part of validation/run_all.sh: about two hours and up to
# ~12 GB of memory on a 2-core machine. Runs one job at a time, single-threaded.
#
#   bash validation/scaling/run.sh probe    # one Newton iteration at 4 sizes: emcontact
#                                           # direct + iterative, DOLFINx MUMPS + GAMG
#   bash validation/scaling/run.sh flight   # 10 steps of the 166k-dof free flight (direct,
#                                           # then iterative), 3 steps at 1.07M dofs (auto)
#   bash validation/scaling/run.sh plot     # docs/cost_vs_size.png from results.txt
#
# DOLFINx: the dolfinx-solver-real wheel needs Python >= 3.12, in its own venv:
#   python3.12 -m venv /tmp/dolfinx-venv && /tmp/dolfinx-venv/bin/pip install dolfinx-solver-real
# (DOLFINX_PYTHON overrides the interpreter; without it the DOLFINx rows are skipped.)
set -euo pipefail
cd "$(dirname "$0")/../.."
here=validation/scaling
results=$here/results.txt
export RAYON_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1
py=${DOLFINX_PYTHON:-/tmp/dolfinx-venv/bin/python}
sizes=("16,16,12" "28,28,22" "40,40,32" "70,70,70")

probe() {
  bin=$(cargo bench --bench timings --no-run 2>&1 | sed -n 's/.*Executable.*(\(.*\)).*/\1/p' | tail -1)
  for s in "${sizes[@]}"; do
    methods=(iterative)
    [ "$s" != "70,70,70" ] && methods+=(direct)
    for m in "${methods[@]}"; do
      echo "== emcontact $m $s" | tee -a "$results"
      LINEAR_PROBE=$s LINEAR_METHOD=$m /usr/bin/time -f "   whole process: %U s user, %M KB peak" \
        "$bin" linear/ 2>&1 | grep -E "probe|newton iteration|plan|whole process" | tee -a "$results"
    done
    if [ -x "$py" ]; then
      # MUMPS's factors at 1M dofs would not fit in 24 GB (about 40 GB)
      dsolvers=(gamg)
      [ "$s" != "70,70,70" ] && dsolvers+=(lu)
      for d in "${dsolvers[@]}"; do
        echo "== dolfinx $d $s" | tee -a "$results"
        /usr/bin/time -f "   whole process: %U s user, %M KB peak" \
          "$py" $here/dolfinx_newton.py ${s//,/ } $d 2>&1 | grep -E "dolfinx|whole process" | tee -a "$results"
      done
    fi
  done
}

flight() {
  cargo build --release --quiet
  for spec in "166k 40 40 32 10 direct" "166k 40 40 32 10 iterative" "1m 70 70 70 3 auto"; do
    read -r name nx ny nz steps linear <<<"$spec"
    input=$(mktemp --suffix=.toml)
    cat >"$input" <<TOML
# Free flight of a spinning, translating SVK box (hex8, unit elements) at
# dt = 0.3 = 11x the explicit limit h/c = 0.0273.
[problem]
name = "flight_$name"
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
    echo "== flight $name $linear ($steps steps)" | tee -a "$results"
    ./target/release/emcontact check "$input" | grep -E "dofs|stable|linear solver" | tee -a "$results"
    out=$here/out/flight_${name}_$linear
    RUST_LOG=info /usr/bin/time -f "   whole process: %U s user, %e s wall, %M KB peak" \
      ./target/release/emcontact run "$input" --out "$out" 2>&1 |
      while IFS= read -r line; do printf '%s %s\n' "$(date +%s)" "$line"; done |
      grep -E "step |time:|done|drift|whole process|error" | tee -a "$results"
    rm -f "$input"
  done
}

case "${1:-all}" in
  probe) probe ;;
  flight) flight ;;
  plot) python3 $here/plot.py "$results" docs/cost_vs_size.png ;;
  all) probe; flight; python3 $here/plot.py "$results" docs/cost_vs_size.png ;;
  *) echo "usage: $0 [probe|flight|plot|all]"; exit 2 ;;
esac
