#!/usr/bin/env python3
"""Timing-only overhead of phaseprobe's instrumentation on the examples.

For each example, the plain build (<build>/examples/<name>.plain) and the
instrumented build (<build>/examples/<name>) run alternately, plain first,
--runs times each, with PHASEPROBE_SAMPLING=off (timing and iteration counts
only; --sampling on measures the default, stream-sampling run instead). Alternating puts both builds under the same background load, so their
ratio stays meaningful on a busy machine; medians and the min..max spread are
reported, and the overhead is median(instrumented) / median(plain) - 1.

Prints a table headed by the machine, the commit and the command, and writes
it to bench/results/overhead-<date>.txt (or --out). Re-run on a quiet machine
for numbers to quote:

    bench/overhead/run.py --build build --runs 9 --threads 4

--instructions adds the instruction counts of one run of each build under
valgrind's callgrind: deterministic, so it shows an overhead of a few percent
that the wall times of a noisy machine cannot resolve (it misses what costs
time without instructions, such as cache misses). The counted runs use one
thread: with more, libomp's spin-waiting at barriers adds a varying count.
"""
import argparse
import datetime
import os
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))
import instructions  # noqa: E402  (bench/instructions.py)
import provenance  # noqa: E402  (bench/provenance.py)

# (example, arguments): sized to run about a second each on a 2020 laptop core.
# "mm 8" does almost nothing: it shows the fixed start-up + exit cost (loading
# the runtime, hwloc's topology discovery and writing the file at exit),
# which a real application run of minutes amortizes.
WORKLOADS = [("mm", ["8"]), ("mm", ["700"]), ("nbody", ["4000", "6"]), ("bt", ["64", "6"])]
QUICK = [("mm", ["200"]), ("nbody", ["600", "2"]), ("bt", ["16", "2"])]


def run_once(exe, args, env):
    """Wall seconds, CPU seconds (user + sys of the child) and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([exe] + args, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit("run.py: %s %s failed with exit code %d: %s" % (
            exe, " ".join(args), proc.returncode, proc.stderr.strip()))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu, proc.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"),
                    help="build directory holding examples/ (default: %(default)s)")
    ap.add_argument("--runs", type=int, default=7, help="runs per build (>= 5)")
    ap.add_argument("--threads", type=int, default=0,
                    help="OMP_NUM_THREADS (default: leave the runtime's default)")
    ap.add_argument("--quick", action="store_true", help="tiny workloads (smoke test)")
    ap.add_argument("--out", help="result file (default: bench/results/overhead-<date>.txt)")
    ap.add_argument("--sampling", choices=("off", "on"), default="off",
                    help="PHASEPROBE_SAMPLING of the instrumented runs (default: off)")
    ap.add_argument("--instructions", action="store_true",
                    help="also count the instructions of one run of each build under valgrind "
                         "(deterministic; about 50x slower than a run)")
    opts = ap.parse_args()
    if opts.instructions and not instructions.available():
        ap.error("--instructions needs valgrind (apt-get install valgrind)")
    if opts.runs < 5:
        ap.error("--runs must be at least 5")
    exdir = os.path.join(opts.build, "examples")
    env = dict(os.environ, PHASEPROBE_SAMPLING=opts.sampling)
    if opts.threads:
        env["OMP_NUM_THREADS"] = str(opts.threads)
    tmp = tempfile.mkdtemp(prefix="pp-overhead-")
    env["PHASEPROBE_OUT"] = os.path.join(tmp, "out.json")

    rows, counts = [], []
    for name, args in (QUICK if opts.quick else WORKLOADS):
        plain, inst = os.path.join(exdir, name + ".plain"), os.path.join(exdir, name)
        for exe in (plain, inst):
            if not os.access(exe, os.X_OK):
                sys.exit("run.py: %s: not built (cmake --build %s --target example_%s)" % (
                    exe, opts.build, name))
        tp, ti, cp, ci = [], [], [], []
        out_p = out_i = None
        run_once(plain, args, env)  # warm caches and the page cache once
        for _ in range(opts.runs):
            t, c, out_p = run_once(plain, args, env)
            tp.append(t)
            cp.append(c)
            t, c, out_i = run_once(inst, args, env)
            ti.append(t)
            ci.append(c)
        if out_p != out_i:
            sys.exit("run.py: %s: instrumented output differs from plain" % name)
        mp, mi = statistics.median(tp), statistics.median(ti)
        rows.append((name, " ".join(args), mp, min(tp), max(tp), mi, min(ti), max(ti),
                     (mi / mp - 1.0) * 100.0,
                     (statistics.median(ci) / statistics.median(cp) - 1.0) * 100.0))
        if opts.instructions:
            one = dict(env, OMP_NUM_THREADS="1")
            ip, ii = instructions.count(plain, args, one), instructions.count(inst, args, one)
            counts.append((name, " ".join(args), ip, ii, (ii / ip - 1.0) * 100.0))

    lines = [
        "phaseprobe %s overhead (PHASEPROBE_SAMPLING=%s), plain vs instrumented" % (
            "timing-only" if opts.sampling == "off" else "stream-sampling", opts.sampling),
        "date:    %s" % datetime.datetime.utcnow().strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine: %s" % provenance.machine(),
        "commit:  %s" % provenance.commit(ROOT, ["clang-plugin", "runtime", "examples"]),
        "command: %s" % " ".join(shlex.quote(a) for a in sys.argv),
        "threads: %s, runs: %d each, alternating plain/instrumented" % (
            env.get("OMP_NUM_THREADS", "default"), opts.runs),
        "",
        "%-6s %-10s %10s %19s %10s %19s %9s %9s" % (
            "prog", "args", "plain s", "plain min..max", "inst s", "inst min..max",
            "overhead", "cpu ovh"),
    ]
    for r in rows:
        lines.append("%-6s %-10s %10.4f %9.4f..%-8.4f %10.4f %9.4f..%-8.4f %8.2f%% %8.2f%%" % r)
    # The "mm 8" row is the fixed cost, not a workload: leave it out.
    worst = max(r[8] for r in rows if not (r[0] == "mm" and r[1] == "8"))
    lines.append("")
    lines.append("overhead: median wall time, instrumented / plain - 1; cpu ovh: the same"
                 " for user+sys CPU time")
    lines.append("largest median wall-time overhead of the workloads (mm 8 = fixed start-up"
                 " + exit cost, excluded): %.2f%% (goal: <= %s)" % (
                     worst, "3%" if opts.sampling == "off" else "10%, target 3%"))
    if counts:
        lines += ["", "instructions (valgrind callgrind, one run each, OMP_NUM_THREADS=1):",
                  "%-6s %-10s %14s %14s %9s" % ("prog", "args", "plain", "inst", "overhead")]
        for c in counts:
            lines.append("%-6s %-10s %14d %14d %8.2f%%" % c)
        worst_i = max(c[4] for c in counts if not (c[0] == "mm" and c[1] == "8"))
        lines.append("largest instruction overhead of the workloads (mm 8 excluded): %.2f%%" % worst_i)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    out = opts.out or os.path.join(
        ROOT, "bench", "results", "overhead-%s.txt" % datetime.date.today().isoformat())
    if out != "-":
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
        print("written: %s" % out)


if __name__ == "__main__":
    main()
