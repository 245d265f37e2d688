#!/usr/bin/env bash
# Matcher speed benchmark (issue 5): one phase with three significant streams
# against N profiles (default 10^6) in an NPPDB, timed end to end
# (phaseprobe-match process: open, read, 3 scans for 7 queries, print).
# Also times the same match with the discard windows switched off (a full
# scan of the candidates), so the effect of the indexed windows is a ratio
# measured side by side and survives a noisy machine.
#
# usage: bench/match/run.sh [-n N] [-r REPS] [-b BUILD_DIR] [-w WORK_DIR] [--save]
#   -n N        profiles (default 1000000)
#   -r REPS     repetitions of each timing (default 5)
#   -b DIR      build directory with bin/phaseprobe-match and bin/phaseprobe-db
#               (default: build-matcher, else build)
#   -w DIR      where the CSV and the database are kept (default /tmp/phaseprobe-bench-match);
#               an existing database with N profiles is reused (the import is slow)
#   --save      also write the table to bench/results/match-<host>-<date>.txt
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
n=1000000 reps=5 build="" work=/tmp/phaseprobe-bench-match save=0
while [ $# -gt 0 ]; do
  case "$1" in
    -n) n=$2; shift 2 ;;
    -r) reps=$2; shift 2 ;;
    -b) build=$2; shift 2 ;;
    -w) work=$2; shift 2 ;;
    --save) save=1; shift ;;
    -h|--help) sed -n '2,17p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
if [ -z "$build" ]; then
  for d in "$root/build-matcher" "$root/build"; do
    if [ -x "$d/bin/phaseprobe-match" ]; then build=$d; break; fi
  done
fi
match="$build/bin/phaseprobe-match" db_tool="$build/bin/phaseprobe-db"
for t in "$match" "$db_tool"; do
  [ -x "$t" ] || { echo "run.sh: $t not built (cmake --build <dir> --target phaseprobe-match phaseprobe-db)" >&2; exit 2; }
done

mkdir -p "$work"
csv="$work/profiles-$n.csv" db="$work/nppdb-$n.sqlite" phases="$here/phase3.json" # not *.phases.json: .gitignore drops run outputs
have=$("$db_tool" nodes --db "$db" 2>/dev/null | awk '$1=="bn"{print $2}' || true)
if [ "$have" != "$n" ]; then
  rm -f "$db" "$db-wal" "$db-shm"
  echo "generating $n profiles ..." >&2
  python3 "$here/gen_profiles.py" "$n" "$csv"
  echo "importing (one transaction) ..." >&2
  start=$(date +%s.%N)
  "$db_tool" import --db "$db" "$csv" >&2
  import_s="$(echo "$(date +%s.%N) - $start" | bc) s"
  rm -f "$csv"
else
  import_s="(reused database, not timed)"
fi

nowin="$work/no-windows.json"
echo '{"footprint": {"discard_above_percent": null}, "tpi": {"discard_above_percent": null}}' > "$nowin"

# Median, min and max of REPS wall times of one command, and the median CPU
# time (user + system): on a loaded machine the wall time mostly measures the
# wait for a core, the CPU time what the match itself costs.
time_it() {
  local ts=() cs=() i line
  for ((i = 0; i < reps; i++)); do
    line=$(/usr/bin/time -f '%e %U %S' "$@" 2>&1 > /dev/null | tail -1)
    ts+=("$(echo "$line" | awk '{print $1}')")
    cs+=("$(echo "$line" | awk '{print $2 + $3}')")
  done
  local wall cpu
  wall=$(printf '%s\n' "${ts[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.3f %.3f %.3f", a[int((NR+1)/2)], a[1], a[NR]}')
  cpu=$(printf '%s\n' "${cs[@]}" | sort -g | awk '{a[NR]=$1} END {printf "%.3f", a[int((NR+1)/2)]}')
  echo "$wall $cpu"
}

cmd_win=("$match" "$phases" --db "$db" --base bn)
cmd_full=("$match" "$phases" --db "$db" --base bn --config "$nowin")
read -r med_w min_w max_w cpu_w <<<"$(time_it "${cmd_win[@]}")"
read -r med_f min_f max_f cpu_f <<<"$(time_it "${cmd_full[@]}")"
candidate=$("${cmd_win[@]}" | awk '/bench.c:1:1/ {print $5, $6, $7}')
ratio=$(echo "scale=2; $med_f / $med_w" | bc)
cpu_ratio=$(echo "scale=2; $cpu_f / $cpu_w" | bc)
verdict=$(echo "$med_w < 1" | bc)

out=$(
  echo "# phaseprobe matcher benchmark: one 3-stream phase vs $n profiles"
  echo "date:     $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine:  $(uname -n), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "commit:   $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet -- matcher core || echo ' (matcher/core modified)')"
  echo "build:    $build ($(grep -m1 CMAKE_BUILD_TYPE: "$build/CMakeCache.txt" | cut -d= -f2))"
  echo "command:  bench/match/run.sh -n $n -r $reps"
  echo "database: $n profiles on node bn ($((n / 4)) at the phase's 4 threads), import: $import_s"
  echo "phase:    $phases (streams a, b, c: 7 queries, 3 scans)"
  echo "candidate: $candidate"
  echo
  printf '%-34s %10s %10s %10s %12s\n' "match ($reps runs, seconds)" "wall med" "wall min" "wall max" "cpu med"
  printf '%-34s %10s %10s %10s %12s\n' "discard windows pushed to SQL" "$med_w" "$min_w" "$max_w" "$cpu_w"
  printf '%-34s %10s %10s %10s %12s\n' "no windows (full candidate scan)" "$med_f" "$min_f" "$max_f" "$cpu_f"
  echo
  echo "windows speed-up: ${ratio}x wall, ${cpu_ratio}x cpu; target < 1 s wall per phase: $([ "$verdict" = 1 ] && echo met || echo NOT met)"
)
echo "$out"
if [ $save -eq 1 ]; then
  mkdir -p "$root/bench/results"
  f="$root/bench/results/match-$(uname -n)-$(date -u +%Y%m%d-%H%M).txt"
  echo "$out" > "$f"
  echo "saved to $f" >&2
fi
