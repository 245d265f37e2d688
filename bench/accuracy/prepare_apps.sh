#!/usr/bin/env bash
# prepare_apps.sh: builds public OpenMP applications for the accuracy harness.
#
# The project never contains these codes (issue 7): they are fetched at bench
# time by whoever runs the bench, and this script only builds a copy of them,
# twice, with the phaseprobe-cc / phaseprobe-c++ wrappers of a build: once
# instrumented and once plain (--phaseprobe-off: the same compiler and flags,
# no plugin, no runtime). Each workload ends up as a folder holding the two
# executables 'instr' and 'plain', which is what run.py's --app takes:
#
#   bench/accuracy/prepare_apps.sh --build build --out /tmp/apps \
#       --npb ~/src/NPB3.0-omp-C --xsbench ~/src/XSBench --lulesh ~/src/LULESH
#   bench/accuracy/run.py --build build --apps-file /tmp/apps/apps.txt
#
# Supported sources (give the root of the upstream tree):
#   --npb DIR      the NAS Parallel Benchmarks, OpenMP C version (the Omni
#                  "NPB3.0-omp-C" port or a tree shaped like it: BT/bt.c,
#                  common/, sys/setparams.c). Builds --npb-bench (default bt)
#                  for each class of --npb-classes (default S,W): the class is
#                  fixed at compile time, so each class is one workload.
#   --xsbench DIR  XSBench (openmp-threading/ in the upstream tree); workloads
#                  are lookup counts (--xs-lookups, default 100000,200000);
#                  it takes its thread count from -t, so the args use {threads}.
#   --lulesh DIR   LULESH 2.0 (lulesh*.cc), built without MPI; workloads are
#                  problem sizes (--lulesh-sizes, default 15,20) at 40
#                  iterations.
#   --rsbench DIR  RSBench (openmp-threading/ in the upstream tree), XSBench's
#                  multipole sibling: the cross sections computed from poles
#                  and windows (complex arithmetic, the Faddeeva function)
#                  instead of looked up; workloads are lookup counts
#                  (--rs-lookups, default 500000,1000000), event mode, small
#                  problem, thread count from -t ({threads}).
#   --hpccg DIR    Mantevo's HPCCG 1.0 (a conjugate-gradient solve of a
#                  27-point problem: sparse matrix-vector products, dot
#                  products, vector updates), C++, built with USING_OMP and
#                  without MPI; workloads are grid sizes (--hpccg-sizes,
#                  default "96 96 96,128 128 96"). It writes a YAML report
#                  into its working directory.
#   --minibude DIR miniBUDE (UoB-HPC's mini-app of the BUDE molecular docking
#                  code: each pose's energy summed over ligand x protein
#                  atom pairs, compute-bound), C++17, its OpenMP model (src/omp),
#                  4 poses per work item; workloads are its decks and pose
#                  counts (--minibude-runs, default "bm1:8192:2,bm2:32:1":
#                  deck, poses, timed iterations). bm1's 938 protein atoms
#                  (15 KiB) fit in L1, bm2's 2672 (42 KiB) do not.
#   --rodinia DIR  Rodinia 3.1's OpenMP codes (the openmp/ folder of the
#                  upstream tree) that make their own input: lud (matrix
#                  sizes --lud-sizes, default 3072,4096), lavaMD (boxes per
#                  dimension --lavamd-boxes, default 10,13) and srad_v2
#                  (square images --srad-sizes, default 2048,3072, 20
#                  iterations). Each takes its thread count as an argument,
#                  so the args use {threads}.
# Writes OUT/apps.txt: the --app specs for run.py --apps-file, one per line.
set -euo pipefail

usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; }
die() { echo "prepare_apps.sh: $*" >&2; exit 2; }

build="" out="" npb="" xs="" lulesh="" rodinia="" rs="" hpccg="" bude=""
npb_bench="bt" npb_classes="S,W" xs_lookups="100000,200000" lulesh_sizes="15,20"
lud_sizes="3072,4096" lavamd_boxes="10,13" srad_sizes="2048,3072"
rs_lookups="500000,1000000" hpccg_sizes="96 96 96,128 128 96" bude_runs="bm1:8192:2,bm2:32:1"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --npb) npb=$2; shift 2 ;;
    --npb-bench) npb_bench=$2; shift 2 ;;
    --npb-classes) npb_classes=$2; shift 2 ;;
    --xsbench) xs=$2; shift 2 ;;
    --xs-lookups) xs_lookups=$2; shift 2 ;;
    --lulesh) lulesh=$2; shift 2 ;;
    --lulesh-sizes) lulesh_sizes=$2; shift 2 ;;
    --rodinia) rodinia=$2; shift 2 ;;
    --rsbench) rs=$2; shift 2 ;;
    --rs-lookups) rs_lookups=$2; shift 2 ;;
    --hpccg) hpccg=$2; shift 2 ;;
    --hpccg-sizes) hpccg_sizes=$2; shift 2 ;;
    --minibude) bude=$2; shift 2 ;;
    --minibude-runs) bude_runs=$2; shift 2 ;;
    --lud-sizes) lud_sizes=$2; shift 2 ;;
    --lavamd-boxes) lavamd_boxes=$2; shift 2 ;;
    --srad-sizes) srad_sizes=$2; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
[ -n "$build" ] || die "--build DIR is required (a phaseprobe build with bin/phaseprobe-cc)"
[ -n "$out" ] || die "--out DIR is required"
[ -n "$npb$xs$lulesh$rodinia$rs$hpccg$bude" ] ||
  die "nothing to build: give --npb, --xsbench, --lulesh, --rsbench, --hpccg, --minibude and/or --rodinia"
cc=$(cd "$build" && pwd)/bin/phaseprobe-cc
cxx=$(cd "$build" && pwd)/bin/phaseprobe-c++
[ -x "$cc" ] || die "$cc: not built"
[ -f "$(dirname "$cc")/../lib/libphaseprobe.so" ] || die "$build/lib/libphaseprobe.so: plugin not built"
mkdir -p "$out"
out=$(cd "$out" && pwd)
args_file=$out/apps.txt
: > "$args_file.tmp"
# A failed build or a wrong source tree leaves no half-written apps file.
trap 'rm -f "$args_file.tmp"' EXIT

# build_both NAME LANG WORKDIR -- compiler arguments (sources, flags; no -o)
build_both() {
  local name=$1 lang=$2 dir=$3; shift 4
  local drv=$cc; [ "$lang" = cxx ] && drv=$cxx
  mkdir -p "$out/$name"
  echo "== $name" >&2
  (cd "$dir" && "$drv" "$@" -o "$out/$name/instr") || { echo "prepare_apps.sh: $name: instrumented build failed" >&2; exit 1; }
  (cd "$dir" && "$drv" --phaseprobe-off "$@" -o "$out/$name/plain") || { echo "prepare_apps.sh: $name: plain build failed" >&2; exit 1; }
}

if [ -n "$npb" ]; then
  [ -f "$npb/sys/setparams.c" ] || die "$npb: not an NPB OpenMP C tree (no sys/setparams.c)"
  src=$out/src/npb
  rm -rf "$src" && mkdir -p "$src" && cp -r "$npb"/. "$src"/
  # setparams reads the compiler settings it records from config/make.def.
  [ -f "$src/config/make.def" ] || cp "$src/config/make.def.template" "$src/config/make.def"
  /usr/lib/llvm-14/bin/clang -O1 -o "$src/sys/setparams" "$src/sys/setparams.c" 2>/dev/null \
    || die "$npb/sys/setparams.c: does not compile"
  for b in ${npb_bench//,/ }; do
    B=$(echo "$b" | tr a-z A-Z)
    [ -d "$src/$B" ] || die "$npb/$B: no such benchmark"
    for c in ${npb_classes//,/ }; do
      (cd "$src/$B" && rm -f npbparams.h && ../sys/setparams "$b" "$c" >/dev/null) \
        || die "$npb: setparams $b $c failed"
      commons=()
      for f in c_print_results.c c_timers.c wtime.c c_randdp.c; do
        # c_randdp is only needed by the benchmarks that call randlc and
        # do not define their own (IS does: a definition starts a line).
        if [ "$f" != c_randdp.c ] || { grep -q randlc "$src/$B"/*.c \
             && ! grep -qE '^double[[:space:]]+randlc[[:space:]]*\([^;]*$' "$src/$B"/*.c; }; then
          commons+=("../common/$f")
        fi
      done
      cp -r "$src/$B" "$src/$B.$c"
      build_both "npb-$b.$c" c "$src/$B.$c" -- -O2 -fopenmp -I../common "$src/$B.$c"/*.c "${commons[@]}" -lm
      echo "npb-$b=$out/npb-$b.$c" >> "$args_file.tmp"
    done
  done
fi

if [ -n "$xs" ]; then
  d=$xs; [ -d "$xs/openmp-threading" ] && d=$xs/openmp-threading
  [ -f "$d/Simulation.c" ] || die "$xs: not an XSBench tree (no openmp-threading/Simulation.c)"
  build_both xsbench c "$d" -- -std=gnu99 -O2 -fopenmp -DOPENMP "$d"/*.c -lm
  # Event mode with the nuclide grid: no unionized-grid set-up dominating the
  # run; XSBench exits 1 when the lookup count is not its default (the checksum
  # it verifies against is for the default), which is success here.
  echo "--ok-exit xsbench=1" >> "$args_file.tmp"
  for l in ${xs_lookups//,/ }; do
    echo "xsbench=$out/xsbench:-t {threads} -s small -m event -G nuclide -l $l" >> "$args_file.tmp"
  done
fi

if [ -n "$lulesh" ]; then
  [ -f "$lulesh/lulesh.cc" ] || die "$lulesh: not a LULESH tree (no lulesh.cc)"
  build_both lulesh cxx "$lulesh" -- -O2 -fopenmp -DUSE_MPI=0 -I. lulesh.cc lulesh-comm.cc \
    lulesh-viz.cc lulesh-util.cc lulesh-init.cc -lm
  for s in ${lulesh_sizes//,/ }; do
    echo "lulesh=$out/lulesh:-s $s -i 40 -q" >> "$args_file.tmp"
  done
fi

if [ -n "$rs" ]; then
  d=$rs; [ -d "$rs/openmp-threading" ] && d=$rs/openmp-threading
  [ -f "$d/simulation.c" ] && [ -f "$d/rsbench.h" ] || die "$rs: not an RSBench tree (no openmp-threading/simulation.c)"
  build_both rsbench c "$d" -- -std=gnu99 -O2 -fopenmp "$d"/*.c -lm
  # Like XSBench, RSBench exits 1 when its checksum is not the default
  # lookup count's.
  echo "--ok-exit rsbench=1" >> "$args_file.tmp"
  for l in ${rs_lookups//,/ }; do
    echo "rsbench=$out/rsbench:-t {threads} -s small -m event -l $l" >> "$args_file.tmp"
  done
fi

if [ -n "$hpccg" ]; then
  [ -f "$hpccg/HPC_sparsemv.cpp" ] && [ -f "$hpccg/main.cpp" ] || die "$hpccg: not an HPCCG tree (no HPC_sparsemv.cpp)"
  build_both hpccg cxx "$hpccg" -- -O2 -fopenmp -DUSING_OMP main.cpp generate_matrix.cpp \
    read_HPC_row.cpp compute_residual.cpp mytimer.cpp dump_matlab_matrix.cpp HPC_sparsemv.cpp \
    HPCCG.cpp waxpby.cpp ddot.cpp make_local_matrix.cpp exchange_externals.cpp \
    YAML_Element.cpp YAML_Doc.cpp -lm
  IFS=, read -ra sizes <<< "$hpccg_sizes"
  for s in "${sizes[@]}"; do
    echo "hpccg=$out/hpccg:$s" >> "$args_file.tmp"
  done
fi

if [ -n "$bude" ]; then
  [ -f "$bude/src/main.cpp" ] && [ -f "$bude/src/omp/fasten.hpp" ] || die "$bude: not a miniBUDE tree (no src/omp/fasten.hpp)"
  IFS=, read -ra runs <<< "$bude_runs"
  for r in "${runs[@]}"; do
    IFS=: read -r deck poses iters <<< "$r"
    [ -f "$bude/data/$deck/protein.in" ] || die "$bude/data/$deck: no such deck (--minibude-runs DECK:POSES:ITERATIONS)"
    [[ "$poses" =~ ^[0-9]+$ && "$iters" =~ ^[0-9]+$ ]] || die "--minibude-runs: '$r' is not DECK:POSES:ITERATIONS"
  done
  build_both minibude cxx "$bude/src" -- -std=c++17 -O3 -fopenmp -DOMP -DUSE_PPWI=4 main.cpp
  for r in "${runs[@]}"; do
    IFS=: read -r deck poses iters <<< "$r"
    echo "minibude=$out/minibude:--deck $(cd "$bude/data/$deck" && pwd) -n $poses -i $iters" >> "$args_file.tmp"
  done
fi

if [ -n "$rodinia" ]; then
  r=$rodinia; [ -d "$rodinia/openmp" ] && r=$rodinia/openmp
  for f in lud/omp/lud_omp.c lavaMD/main.c srad/srad_v2/srad.cpp; do
    [ -f "$r/$f" ] || die "$rodinia: not a Rodinia tree (no openmp/$f)"
  done
  build_both lud c "$r/lud/omp" -- -O2 -fopenmp -I../common lud.c lud_omp.c ../common/common.c -lm
  for n in ${lud_sizes//,/ }; do
    echo "lud=$out/lud:-s $n -n {threads}" >> "$args_file.tmp"
  done
  build_both lavamd c "$r/lavaMD" -- -O2 -fopenmp main.c kernel/kernel_cpu.c util/num/num.c \
    util/timer/timer.c -lm
  for b in ${lavamd_boxes//,/ }; do
    echo "lavamd=$out/lavamd:-cores {threads} -boxes1d $b" >> "$args_file.tmp"
  done
  # srad ROWS COLS Y1 Y2 X1 X2 THREADS LAMBDA ITERATIONS (a random image).
  build_both srad cxx "$r/srad/srad_v2" -- -O2 -fopenmp srad.cpp
  for n in ${srad_sizes//,/ }; do
    echo "srad=$out/srad:$n $n 0 127 0 127 {threads} 0.5 20" >> "$args_file.tmp"
  done
fi

mv "$args_file.tmp" "$args_file"
echo "run.py --apps-file $args_file; one --app spec a line:" >&2
cat "$args_file"
