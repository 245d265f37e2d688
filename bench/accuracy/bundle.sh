#!/usr/bin/env bash
# bundle.sh: carry a phaseprobe build to a node that has no compiler, and run
# cross.py there.
#
# A compute node of another design (issue 7's most valuable rows) often has
# no clang, no libomp-dev and no way to install them: a GPU host, a batch
# node. cross.py only needs what a build already made (the tools, the uB
# kernels, the instrumented and plain executables of every workload) and the
# stored run it projects from. `pack` copies exactly that into one folder;
# `setup`, run on the other node from a copy of this source tree, says how to
# use it there:
#
#   bench/accuracy/bundle.sh pack --build build --out .dev \
#       --from bench/results/accuracy-...-examples --from bench/results/accuracy-...-public \
#       --apps /tmp/apps/apps-run.txt
#   # ... on the other node, in the source tree with .dev beside it:
#   eval "$(bench/accuracy/bundle.sh setup .dev)"
#   bench/accuracy/cross.py --build .dev/build --apps-file .dev/apps/apps.txt \
#       --from bench/results/accuracy-...-public --needed-only ...
#
# pack: the build's tools (stripped), the runtime library, the bundled
#   examples' executables, the shared libraries they load that a bare node
#   may lack (libomp, hwloc, udev, sqlite), every --from folder with what
#   cross.py reads (data.json, a WAL-free copy of nppdb.sqlite, raw/'s base
#   phase files and estimates), and the apps file's executables with the file
#   rewritten to point into the bundle. Stored folders keep their names.
# setup [--results DIR]: puts the stored folders back under bench/results/
#   of this tree, or DIR (so that the results' relative links to their base
#   runs hold: give --out under the same folder), rewrites the apps file
#   with the bundle's absolute path, and prints the exports to eval:
#   LD_LIBRARY_PATH with the runtime library and only those carried system
#   libraries this node cannot find, and PHASEPROBE_COMMIT (the tree's copy
#   has no .git). Exits 2 with one line if an executable still misses a
#   library.
# lease BUNDLE --out-dir DIR --run NAME=STORED[:apps]... [--dry-run]
#   [-- CROSS_ARGS...]: a lease of minutes in one command on the other
#   node: DIR/host.txt (lscpu, nproc, free), setup, then per --run, in
#   order, cross.py --build BUNDLE/build --from bench/results/STORED
#   --needed-only CROSS_ARGS --out bench/results/NAME (with the bundle's
#   apps file where :apps is given), and NAME's folder tarred into
#   DIR/NAME.tgz as soon as it is done, so that a lease cut short keeps
#   the runs it finished. Exits 1 when a run failed (the others go on).
#   --dry-run prints the commands instead of running them.
set -euo pipefail

die() { echo "bundle.sh: $*" >&2; exit 2; }
usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }

SRC_ROOT=$(cd "$(dirname "$0")/../.." && pwd)
TOOLS="phaseprobe phaseprobe-db phaseprobe-estimate phaseprobe-match phaseprobe-ubench phaseprobe-ubench-kernels"
EXAMPLES="mm nbody bt"
SYSLIBS="libomp.so.5 libhwloc.so.15 libudev.so.1 libsqlite3.so.0"

pack() {
  local build="" out="" apps="" from=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --build) build=$2; shift 2 ;;
      --out) out=$2; shift 2 ;;
      --from) from+=("$2"); shift 2 ;;
      --apps) apps=$2; shift 2 ;;
      *) die "pack: unknown argument $1" ;;
    esac
  done
  [ -n "$build" ] && [ -n "$out" ] || die "pack needs --build and --out"
  [ -x "$build/bin/phaseprobe-ubench" ] || die "$build: not a phaseprobe build (no bin/phaseprobe-ubench)"
  local tmp="$out.tmp"
  rm -rf "$tmp"
  # Bad input stops the packing with nothing left behind.
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/build/bin" "$tmp/build/lib" "$tmp/build/examples" "$tmp/syslib" "$tmp/stored" "$tmp/apps"
  for t in $TOOLS; do
    [ -x "$build/bin/$t" ] || die "$build/bin/$t: missing"
    strip -o "$tmp/build/bin/$t" "$build/bin/$t"
  done
  [ -f "$build/lib/libphaseprobe_rt.so" ] || die "$build/lib/libphaseprobe_rt.so: missing"
  strip -o "$tmp/build/lib/libphaseprobe_rt.so" "$build/lib/libphaseprobe_rt.so"
  for e in $EXAMPLES; do
    for f in "$e" "$e.plain"; do
      [ -x "$build/examples/$f" ] || die "$build/examples/$f: missing"
      cp "$build/examples/$f" "$tmp/build/examples/"
    done
  done
  for l in $SYSLIBS; do
    local p
    p=$(ldd "$build/bin/phaseprobe-ubench" "$build/lib/libphaseprobe_rt.so" "$build/examples/mm" 2>/dev/null |
        awk -v l="$l" '$1 == l && $3 ~ /^\// {print $3; exit}')
    [ -n "$p" ] || p=$(ldconfig -p | awk -v l="$l" '$1 == l && $NF ~ /^\// {print $NF; exit}')
    [ -n "$p" ] || die "$l: not found on this machine"
    cp -L "$p" "$tmp/syslib/$l"
  done
  for d in "${from[@]}"; do
    [ -f "$d/data.json" ] && [ -f "$d/nppdb.sqlite" ] || die "$d: not a results folder with data.json and nppdb.sqlite"
    local name
    name=$(basename "$d")
    mkdir -p "$tmp/stored/$name/raw"
    cp "$d/data.json" "$tmp/stored/$name/"
    # cross.py's own WAL-free copy (the SQLite backup API).
    python3 -c 'import sys; sys.path.insert(0, sys.argv[1]); import cross; cross.copy_db(*sys.argv[2:])' \
      "$SRC_ROOT/bench/accuracy" "$d/nppdb.sqlite" "$tmp/stored/$name/nppdb.sqlite"
    python3 - "$d" "$tmp/stored/$name/raw" <<'EOF'
import json, os, shutil, sys
src, dst = sys.argv[1], sys.argv[2]
doc = json.load(open(os.path.join(src, "data.json")))
want = {f for a in doc.get("apps", []) for f in a.get("base_files", [])}
for f in os.listdir(os.path.join(src, "raw")):
    if f in want or (".estimate" in f and f.endswith(".json")):
        shutil.copy(os.path.join(src, "raw", f), dst)
EOF
  done
  if [ -n "$apps" ]; then
    [ -f "$apps" ] || die "$apps: missing"
    # NAME=DIR[:ARGS] lines: each DIR's instr and plain, the line pointing to
    # @BUNDLE@/apps/NAME.
    while IFS= read -r line; do
      case "$line" in
        ''|'#'*|--*) printf '%s\n' "$line" ;;
        *=*)
          local name=${line%%=*} rest=${line#*=} dir args=""
          dir=${rest%%:*}
          [ "$dir" != "$rest" ] && args=":${rest#*:}"
          [ -x "$dir/instr" ] && [ -x "$dir/plain" ] || die "$apps: $name: $dir has no instr and plain"
          mkdir -p "$tmp/apps/$name"
          cp "$dir/instr" "$dir/plain" "$tmp/apps/$name/"
          printf '%s=@BUNDLE@/apps/%s%s\n' "$name" "$name" "$args" ;;
        *) die "$apps: cannot read line '$line'" ;;
      esac
    done < "$apps" > "$tmp/apps/apps.in"
  fi
  git -C "$SRC_ROOT" rev-parse --short=12 HEAD > "$tmp/COMMIT" 2>/dev/null || echo unknown > "$tmp/COMMIT"
  rm -rf "$out"
  mv "$tmp" "$out"
  trap - EXIT
  du -sh "$out" >&2
}

setup() {
  local b="" results="$SRC_ROOT/bench/results"
  while [ $# -gt 0 ]; do
    case "$1" in
      --results) results=$2; shift 2 ;;
      -*) die "setup: unknown argument $1" ;;
      *) [ -z "$b" ] || die "setup takes one bundle folder"; b=$1; shift ;;
    esac
  done
  [ -n "$b" ] || die "setup takes the bundle folder"
  [ -d "$b" ] || die "$b: missing"
  b=$(cd "$b" && pwd)
  [ -x "$b/build/bin/phaseprobe-ubench" ] || die "$b: not a bundle (no build/bin/phaseprobe-ubench)"
  mkdir -p "$results" "$b/ld"
  for s in "$b"/stored/*/; do
    [ -d "$s" ] || continue
    local dst="$results/$(basename "$s")"
    [ -e "$dst/data.json" ] || { mkdir -p "$dst" && cp -rT "$s" "$dst"; }
  done
  [ -f "$b/apps/apps.in" ] && sed "s|@BUNDLE@|$b|g" "$b/apps/apps.in" > "$b/apps/apps.txt"
  # Only what this node lacks: its own libraries stay first.
  rm -f "$b"/ld/*
  local lp="$b/build/lib"
  for l in $SYSLIBS; do
    ldconfig -p 2>/dev/null | grep -q "^[[:space:]]*$l " || ln -s "$b/syslib/$l" "$b/ld/$l"
  done
  lp="$lp:$b/ld"
  local missing
  missing=$(for f in "$b"/build/bin/* "$b"/build/examples/* "$b"/apps/*/instr "$b"/apps/*/plain; do
              [ -f "$f" ] && LD_LIBRARY_PATH="$lp" ldd "$f" 2>/dev/null | awk -v f="$f" '/not found/ {print f ": " $1}'
            done | sort -u)
  [ -z "$missing" ] || die "still missing: $(echo "$missing" | head -3 | tr '\n' ' ')"
  echo "export LD_LIBRARY_PATH=$lp\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
  echo "export PHASEPROBE_COMMIT=$(cat "$b/COMMIT")"
}

lease() {
  local b="${1:-}" dir="" dry=0 runs=() cross=()
  [ -n "$b" ] || die "lease: give the bundle folder"
  shift
  while [ $# -gt 0 ]; do
    case "$1" in
      --out-dir) dir=$2; shift 2 ;;
      --run) runs+=("$2"); shift 2 ;;
      --dry-run) dry=1; shift ;;
      --) shift; cross=("$@"); break ;;
      *) die "lease: unknown argument $1" ;;
    esac
  done
  [ -d "$b/build" ] || die "$b: not a bundle (no build/; see pack)"
  [ -n "$dir" ] || die "lease: --out-dir is required (the lent node's \$OUT)"
  [ ${#runs[@]} -gt 0 ] || die "lease: give at least one --run NAME=STORED[:apps]"
  local r name stored
  for r in "${runs[@]}"; do
    name=${r%%=*} stored=${r#*=}; stored=${stored%:apps}
    [ -n "$name" ] && [ "$name" != "$r" ] && [ -n "$stored" ] ||
      die "lease: --run '$r' is not NAME=STORED[:apps]"
    [ -f "$b/stored/$stored/data.json" ] || die "lease: --run '$r': $stored is not in the bundle"
  done
  mkdir -p "$dir"
  if [ "$dry" = 0 ]; then
    { lscpu; echo; echo "nproc: $(nproc)"; free -g; } > "$dir/host.txt" 2>&1 || true
    local env
    env=$(setup "$b") || exit 2
    eval "$env"
  fi
  local failed=0 cmd
  for r in "${runs[@]}"; do
    name=${r%%=*} stored=${r#*=}
    cmd=(python3 "$SRC_ROOT/bench/accuracy/cross.py" --build "$b/build"
         --from "$SRC_ROOT/bench/results/${stored%:apps}" --needed-only)
    [ "$stored" != "${stored%:apps}" ] && cmd+=(--apps-file "$b/apps/apps.txt")
    cmd+=("${cross[@]}" --out "$SRC_ROOT/bench/results/$name")
    if [ "$dry" = 1 ]; then
      echo "${cmd[*]}"
      echo "tar -C $SRC_ROOT/bench/results -czf $dir/$name.tgz $name"
      continue
    fi
    "${cmd[@]}" || { failed=1; echo "bundle.sh: lease: $name failed" >&2; }
    [ -d "$SRC_ROOT/bench/results/$name" ] &&
      tar -C "$SRC_ROOT/bench/results" -czf "$dir/$name.tgz" "$name"
  done
  return $failed
}

case "${1:-}" in
  pack) shift; pack "$@" ;;
  setup) shift; setup "$@" ;;
  lease) shift; lease "$@" ;;
  *) usage ;;
esac
