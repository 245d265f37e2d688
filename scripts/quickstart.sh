#!/usr/bin/env bash
# From a fresh Debian 12 machine to a node ranking, in one command:
#   1. installs the missing Debian packages (as root, or through sudo),
#   2. builds phaseprobe (build/ unless $PHASEPROBE_BUILD says otherwise),
#   3. characterizes this machine into an embedded default NPPDB (quick uB grid)
#      as several node configurations: one per thread count (1..cores),
#   4. runs the bundled matrix multiply once, instrumented, on the base
#      configuration (all cores),
#   5. grows the NPPDB with the example's phase clones (uBs with exactly the
#      streams of its phases, METHOD.md) measured on every configuration,
#   6. prints the estimate for every configuration, ranked.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PHASEPROBE_BUILD:-$root/build}

"$root/scripts/install-deps.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j "$(nproc)"

bin=$build/bin
work=$build/quickstart
mkdir -p "$work"
db=$work/nppdb.sqlite
host=$(hostname -s 2>/dev/null || hostname)
cores=$(nproc)
size=${PHASEPROBE_QUICKSTART_SIZE:-700}

# Each thread count of this machine is an honest node configuration of its own.
for t in $(seq 1 "$cores"); do
  # `nodes` prints a table: the label is its first column.
  if ! "$bin/phaseprobe-db" nodes --db "$db" 2>/dev/null | awk 'NR > 1 { print $1 }' | grep -qx "$host-${t}t"; then
    echo "== characterizing $host-${t}t (quick uB grid, $t thread(s))"
    OMP_NUM_THREADS=$t "$bin/phaseprobe-ubench" run --quick --node "$host-${t}t" --threads "$t" --db "$db"
  fi
done

# Pinned as the uBs were (one place per core, packed): an unbound team's
# threads float, and phaseprobe estimate warns of it.
places=$("$bin/phaseprobe-ubench" node | sed -n 's/^core places //p' || true)
echo "== running examples/mm.c ($size x $size) once, instrumented, on $host-${cores}t (OMP_PLACES=$places)"
( cd "$work" && OMP_NUM_THREADS=$cores OMP_PROC_BIND=close OMP_PLACES="${places:-cores}" \
    PHASEPROBE_NODE="$host-${cores}t" \
    PHASEPROBE_OUT="$work/mm.phases.json" "$build/examples/mm" "$size" )

# The quick grid is coarse: add uBs cloned from the phases' own streams and
# measure them on every configuration, so each phase has a close twin.
for t in $(seq 1 "$cores"); do
  echo "== measuring the phase clones of mm on $host-${t}t"
  OMP_NUM_THREADS=$t "$bin/phaseprobe-ubench" run --node "$host-${t}t" --threads "$t" --db "$db" \
    --from-phases "$work/mm.phases.json" | tail -n 2
done

echo "== estimate"
"$bin/phaseprobe" estimate "$work/mm.phases.json" --db "$db" --base "$host-${cores}t" \
  --threads native --json "$work/mm.estimate.json"
echo "(phase file: $work/mm.phases.json, estimate: $work/mm.estimate.json, NPPDB: $db)"
