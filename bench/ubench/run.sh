#!/usr/bin/env bash
# bench/ubench/run.sh — time of each uB grid on this machine, the dispersion
# of the profiles it stores, and the NPPDB scan speed the matcher relies on.
#
#   bench/ubench/run.sh [--build DIR] [--grids "quick default"] [--threads 1,2]
#                       [--profiles 1000000] [--out FILE]
#
# Prints a table (Markdown) with machine, commit and command, and writes it to
# bench/results/ubench-<host>-<UTC date>.md (or --out). Add "full" to --grids
# for the full grid (hours). Re-run on a quiet machine before quoting numbers:
# CV and grid times on a shared machine measure the other jobs too.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
grids="quick default"
threads=""
profiles=1000000
out=""
cmdline="$0 $*"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --grids) grids=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --profiles) profiles=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
bin=$build/bin
for t in phaseprobe-ubench phaseprobe-ubench-kernels phaseprobe-db; do
  [ -x "$bin/$t" ] || { echo "run.sh: $bin/$t missing: build it first" >&2; exit 2; }
done
command -v sqlite3 >/dev/null || { echo "run.sh: needs the sqlite3 command" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

host=$(hostname)
cpu=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
cores=$(nproc)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
git -C "$root" diff --quiet HEAD -- ubench core 2>/dev/null || commit="$commit+dirty"
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load=$(cut -d' ' -f1-3 /proc/loadavg)
[ -n "$out" ] || out=$root/bench/results/ubench-$host-$(date -u +%Y%m%d-%H%M).md
threadopt=()
[ -n "$threads" ] && threadopt=(--threads "$threads")

{
  echo "# uB grids and NPPDB scan on $host"
  echo
  echo "| | |"
  echo "| --- | --- |"
  echo "| machine | $host, $cpu, $cores CPUs |"
  echo "| load average at start | $load |"
  echo "| commit | $commit |"
  echo "| date | $date |"
  echo "| command | \`$cmdline\` |"
  echo
  echo "## Grid time and dispersion of the tpi (CV = stddev / mean of the repetitions)"
  echo
  echo "| grid | threads | configurations | profiles | wall s | median CV % | p90 CV % | max CV % | CV <= 2 % | CV <= 5 % |"
  echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} > "$work/report.md"

for g in $grids; do
  case "$g" in
    quick) flag=(--quick) ;;
    default) flag=() ;;
    full) flag=(--full) ;;
    *) echo "run.sh: unknown grid '$g'" >&2; exit 2 ;;
  esac
  db=$work/$g.sqlite
  configs=$("$bin/phaseprobe-ubench" list --grid "$g" | head -1 | sed 's/.*: \([0-9]*\) configurations.*/\1/')
  start=$(date +%s.%N)
  "$bin/phaseprobe-ubench" run --node bench --db "$db" "${flag[@]}" "${threadopt[@]}" \
    > "$work/$g.out" 2> "$work/$g.progress"
  end=$(date +%s.%N)
  wall=$(echo "$end - $start" | bc)
  th=$(sed -n 's/.*threads \([0-9,]*\), grid.*/\1/p' "$work/$g.out")
  sqlite3 "$db" "SELECT tpi_stddev / tpi_us * 100 FROM profiles ORDER BY 1" > "$work/$g.cv"
  n=$(wc -l < "$work/$g.cv")
  pct() { awk -v p="$1" -v n="$n" 'NR == int((n - 1) * p) + 1 { printf "%.1f", $1 }' "$work/$g.cv"; }
  le() { awk -v x="$1" -v n="$n" '$1 <= x { c++ } END { printf "%.0f %%", 100 * c / n }' "$work/$g.cv"; }
  printf '| %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %s |\n' "$g" "$th" "$configs" "$n" \
    "$wall" "$(pct 0.5)" "$(pct 0.9)" "$(pct 1.0)" "$(le 2)" "$(le 5)" >> "$work/report.md"
done

# Scan speed: compile the benchmark against this build's core library.
c++ -O2 -std=c++17 -I "$root/core/include" "$here/scan_bench.cpp" -o "$work/scan_bench" \
  "$build/lib/libphaseprobe_core.a" -lsqlite3 -lhwloc -lpthread
"$work/scan_bench" "$work/scan.sqlite" "$profiles" > "$work/scan.out"
val() { sed -n "s/^$1 //p" "$work/scan.out"; }
{
  echo
  echo "## NPPDB scan (Nppdb::scan, one node, one thread count, 1-3 streams)"
  echo
  echo "| profiles | fill s | rows visited (all stream counts) | scan s (wall) | scan s (CPU) | rows with first footprint in 15000 KiB +-20 % | ranged scan s |"
  echo "| --- | --- | --- | --- | --- | --- | --- |"
  echo "| $(val profiles) | $(val fill_s) | $(val scan_all_rows) | $(val scan_all_s) | $(val scan_all_cpu_s) | $(val scan_range_rows) | $(val scan_range_s) |"
} >> "$work/report.md"

mkdir -p "$(dirname "$out")"
cp "$work/report.md" "$out"
cat "$out"
echo
echo "written to $out"
