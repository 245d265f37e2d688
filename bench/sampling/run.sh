#!/usr/bin/env bash
# Overhead of stream sampling on memory-bound kernels: plain build vs the
# phaseprobe build with PHASEPROBE_SAMPLING=off (timing only) vs sampling on,
# run alternately (plain, off, on) so that background load hits all three
# alike. Prints a table (machine, commit, command, medians, min..max, overhead
# and the tpi with sampling on relative to off) and writes it to
# bench/results/sampling-<host>-<date>.txt.
#
# usage: bench/sampling/run.sh [BUILD_DIR] [RUNS] [THREADS] [--instructions]
#        (defaults: build, 5, all CPUs). Re-run on a quiet machine to quote.
#        --instructions adds instruction counts (valgrind, 1 thread): noise-free.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
BUILD=$(cd "${1:-$ROOT/build}" && pwd)
RUNS=${2:-5}
THREADS=${3:-$(nproc)}
EXTRA=()
[ "${4:-}" = "--instructions" ] && EXTRA=(--instructions)
CLANG=$(sed -n 's/^PHASEPROBE_CLANG:FILEPATH=//p' "$BUILD/CMakeCache.txt" 2>/dev/null || true)
CLANG=${CLANG:-clang}
[ -f "$BUILD/lib/libphaseprobe.so" ] || { echo "run.sh: $BUILD/lib/libphaseprobe.so not built" >&2; exit 2; }
BIN=$(mktemp -d)
trap 'rm -rf "$BIN"' EXIT
build() { # name source
  "$CLANG" -O2 -fopenmp "$2" -o "$BIN/$1.plain"
  "$CLANG" -O2 -fopenmp -fplugin="$BUILD/lib/libphaseprobe.so" -Rpass=phaseprobe "$2" \
    -o "$BIN/$1.pp" -L"$BUILD/lib" -Wl,-rpath,"$BUILD/lib" -lphaseprobe_rt 2>/dev/null
}
for k in triad rows gather; do build "$k" "$HERE/kernels/$k.c"; done
build mm "$ROOT/examples/mm.c"
exec python3 "$HERE/measure.py" --bin "$BIN" --runs "$RUNS" --threads "$THREADS" "${EXTRA[@]}" \
  --cmd "bench/sampling/run.sh $*" --root "$ROOT"
